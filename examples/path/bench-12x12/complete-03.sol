12 12
2 1
1 7

4 8 4 3 6 2 9 5 4 3 4 8
8 7 3 4 1 2 6 5 6 5 7 6

0 0 0 0 0 0 u 0 0 d l l
r d 0 0 0 0 u l l l r u
d l 0 0 0 0 0 0 0 r u 0
d 0 0 0 0 0 0 0 0 u l 0
r r r d 0 0 0 0 0 0 u l
0 0 0 d 0 0 0 0 0 0 0 u
d l l l 0 0 0 r r r d u
d 0 0 0 0 0 r u 0 0 r u
d 0 0 0 0 0 u l l 0 0 0
r d 0 0 0 0 0 0 u 0 0 0
0 d 0 0 0 r d 0 u 0 0 0
0 r r r r u r r u 0 0 0
