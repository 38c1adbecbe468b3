9 9
9 6
3 9

5 7 5 4 -1 1 4 6 6
-1 5 7 -1 4 7 6 2 3

0 0 0 r r d 0 r d
0 0 r u d l r u d
0 0 u 0 r d u 0 u
0 r u 0 0 r u 0 0
0 u l 0 0 0 0 0 0
0 0 u 0 0 0 0 0 0
0 r u 0 0 d l 0 0
r u 0 d l l u 0 0
u l l l 0 r u 0 0
