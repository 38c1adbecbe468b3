8 8
8 4
3 8

5 6 7 5 4 -1 3 5
-1 4 3 6 6 -1 3 3

r d 0 r r d 0 0
u r r u d l 0 0
u l 0 d l r r u
0 u l r r u 0 0
0 0 u l l l 0 0
0 0 0 0 0 u 0 0
0 0 0 0 0 u l l
0 0 0 r r r r u
