6 6
6 5
5 6

6 6 4 -1 4 4
5 -1 -1 4 -1 3

r d r r r d
u r u d l l
u l 0 r d 0
r u 0 0 d 0
u l 0 0 r u
0 u l l l 0
