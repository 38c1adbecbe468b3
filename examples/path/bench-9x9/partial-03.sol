9 9
1 2
6 1

2 2 2 6 5 -1 3 7 8
-1 -1 4 3 2 2 4 -1 4

d l 0 0 0 0 0 0 0
r d 0 0 0 0 0 0 0
d l 0 0 0 0 0 0 0
d 0 r r r r d 0 0
r r u 0 0 0 r d 0
u l 0 0 0 0 0 r d
r u 0 0 0 0 0 0 d
u l d l 0 0 d l d
0 u l u l l l u l
