7 7
7 1
7 6

7 5 4 4 3 3 2
6 4 1 2 5 6 4

r r r d r r d
u 0 0 r u d l
u l 0 0 0 r d
0 u 0 0 d l l
r u 0 0 d 0 0
u 0 0 0 r d 0
u 0 0 0 0 u 0
