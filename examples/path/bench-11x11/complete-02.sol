11 11
1 3
3 11

7 6 5 4 5 3 2 9 7 4 3
6 5 3 7 1 1 5 6 8 10 3

0 0 r d 0 0 r r r r d
0 0 0 d 0 0 u l l l d
d l 0 d 0 0 0 0 0 u u
d u 0 d 0 0 0 0 0 u 0
d u l l 0 0 0 0 0 u 0
d 0 0 0 0 0 0 0 r u 0
d 0 0 0 0 0 0 0 u 0 0
r d 0 r r r r d u l 0
0 r r u 0 0 d l r u 0
0 0 0 0 0 0 r d u l 0
0 0 0 0 0 0 0 r r u 0
