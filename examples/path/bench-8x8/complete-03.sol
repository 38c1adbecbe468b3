8 8
6 1
3 1

4 5 4 1 3 5 4 6
2 4 5 3 2 6 8 2

0 0 0 d l l l 0
0 d l l 0 r u 0
u l 0 0 0 u l 0
0 0 0 0 0 0 u 0
0 r d 0 0 0 u 0
r u d 0 0 r u 0
0 0 d 0 0 u l l
0 0 r r r r r u
