8 8
2 8
8 7

4 -1 3 8 6 3 3 -1
4 3 -1 4 4 6 4 -1

0 0 d l l l 0 0
d l l 0 0 u 0 d
d 0 0 0 0 u 0 d
d r r r d u l d
r u 0 d l 0 u l
0 0 0 r r d 0 0
0 0 0 0 0 r r d
0 0 0 0 0 0 u l
