10 10
6 1
2 1

-1 2 1 6 6 8 4 3 6 -1
-1 6 4 2 4 5 5 5 4 -1

0 0 0 0 0 0 0 0 0 0
u l 0 0 0 0 0 0 0 0
0 u 0 0 0 0 0 0 0 0
0 u 0 0 d l l l l 0
0 u d l l 0 0 0 u l
d u l 0 0 r r d r u
d 0 0 0 0 u 0 r u 0
d 0 0 0 0 u l 0 0 0
d 0 r r d 0 u l 0 0
r r u 0 r r r u 0 0
