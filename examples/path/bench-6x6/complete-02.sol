6 6
6 3
1 3

4 3 2 1 5 3
2 2 4 3 4 3

0 0 u d l l
0 0 u l 0 u
0 0 0 0 r u
0 0 0 0 u 0
r r r r u 0
u l l 0 0 0
