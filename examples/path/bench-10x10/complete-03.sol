10 10
1 4
1 6

3 2 6 6 4 5 4 2 8 7
4 3 5 8 6 7 6 4 2 2

0 0 0 d 0 u l 0 0 0
0 0 0 d 0 0 u 0 0 0
d l l d 0 0 u l 0 0
d 0 u l 0 r r u 0 0
d 0 0 r r u 0 0 0 0
r d 0 u l l 0 0 0 0
0 r d 0 r u 0 0 0 0
0 0 d 0 u 0 0 0 0 0
0 0 r d u l l l l l
0 0 0 r r r r r r u
