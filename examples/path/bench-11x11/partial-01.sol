11 11
1 6
8 11

4 -1 2 2 5 1 -1 -1 8 -1 2
8 10 7 6 5 5 5 1 2 3 -1

0 d l 0 0 r d 0 0 0 0
d l u l l l l 0 0 0 0
r d 0 0 0 0 0 0 0 0 0
d l 0 0 0 0 0 0 0 0 0
r r r r d 0 0 0 0 0 0
0 0 0 0 d 0 0 0 0 0 0
d l l d l r r r d 0 0
r d u l 0 u l 0 r d u
d l 0 r r r u 0 0 d u
r d r u 0 0 0 0 0 r u
0 r u 0 0 0 0 0 0 0 0
