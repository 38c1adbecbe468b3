8 8
7 1
6 1

2 4 2 2 4 4 6 -1
6 -1 -1 5 3 4 2 -1

0 d l 0 0 0 0 0
d l u l 0 0 0 0
d 0 0 u 0 0 0 0
d 0 0 u 0 0 0 0
d 0 0 u l l 0 0
u 0 0 0 0 u l l
r r d 0 r d 0 u
0 0 r r u r r u
