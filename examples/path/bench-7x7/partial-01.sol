7 7
2 1
7 7

7 -1 1 3 -1 3 1
2 -1 1 5 -1 -1 5

r r r d r r d
u 0 0 r u d l
0 0 0 0 0 d 0
0 0 0 d l l 0
0 0 0 d r r d
0 0 0 r u 0 d
0 0 0 0 0 0 u
