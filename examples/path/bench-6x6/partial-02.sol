6 6
6 5
1 2

-1 -1 3 -1 -1 5
3 5 4 2 3 2

0 u 0 0 0 0
0 u 0 0 0 0
0 u d l 0 0
r u d u l 0
u 0 d 0 u l
u l l 0 r u
