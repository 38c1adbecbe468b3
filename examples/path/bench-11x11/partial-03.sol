11 11
11 1
3 11

-1 3 5 1 2 1 5 5 6 7 9
-1 8 6 4 4 5 -1 5 5 1 -1

r r r r r r r r d 0 0
u 0 0 0 0 0 0 d l 0 0
u 0 0 0 0 0 0 r r r u
u 0 0 0 0 0 0 0 0 0 0
u l 0 0 0 0 0 0 0 0 0
0 u 0 0 0 0 0 0 0 0 0
0 u l 0 d l l 0 0 0 0
0 r u d l 0 u 0 0 0 0
r u d l 0 r u 0 0 0 0
u l l 0 0 u l l l 0 0
r r r r r r r r u 0 0
