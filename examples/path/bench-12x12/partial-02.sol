12 12
8 12
1 4

-1 5 5 5 7 4 6 3 5 6 5 5
7 3 -1 3 -1 2 4 -1 10 7 3 5

0 0 0 u 0 0 0 0 0 d l l
0 0 r u 0 0 0 0 d l 0 u
0 0 u 0 0 0 0 0 d r r u
r d u 0 0 0 0 0 d u 0 0
u r u 0 0 0 d l l u 0 0
u 0 0 0 0 0 r d 0 u 0 0
u 0 0 0 0 0 0 r d u l l
u 0 0 0 0 0 0 0 d 0 0 u
u 0 d l l 0 0 0 d 0 0 0
u l l 0 u 0 0 d l 0 0 0
0 0 0 0 u d l r d 0 0 0
0 0 0 0 u l u l l 0 0 0
