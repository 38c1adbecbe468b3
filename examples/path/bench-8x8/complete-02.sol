8 8
1 8
1 4

3 4 3 4 5 3 5 6
4 6 3 4 2 5 4 5

0 0 0 u 0 0 d l
0 0 r u 0 0 r d
0 r u 0 0 0 0 d
0 u 0 0 0 d l d
r u 0 0 0 d u l
u l 0 0 0 d 0 0
r u 0 d l d 0 0
u l l l u l 0 0
