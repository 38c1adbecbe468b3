10 10
10 4
3 1

3 5 7 2 1 1 5 8 5 4
6 3 5 5 3 5 4 2 3 5

d l l 0 0 0 0 0 0 0
d 0 u l d l 0 0 0 0
u 0 0 u l u l l l 0
0 0 0 0 0 0 0 0 u l
0 0 0 0 0 0 0 0 0 u
0 0 0 0 0 0 0 0 0 u
r r r d 0 0 0 0 0 u
u 0 0 r r d r r r u
u l l 0 0 d u 0 0 0
0 0 u l 0 r u 0 0 0
