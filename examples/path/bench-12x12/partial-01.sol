12 12
5 1
11 1

8 5 3 4 4 7 4 -1 3 1 8 9
3 3 3 3 -1 3 4 4 -1 -1 9 8

0 0 0 0 r r d r r r r d
0 0 0 0 u 0 r u 0 0 d l
0 0 0 0 u 0 0 0 0 0 r d
0 0 0 r u 0 0 0 0 0 d l
d 0 r u 0 0 0 0 0 0 d 0
r r u 0 0 0 0 0 d l r d
0 0 0 0 0 0 0 0 d u l d
0 0 0 0 0 0 0 0 d 0 u d
0 0 0 0 0 0 0 0 d 0 u l
0 0 0 0 0 0 0 0 d 0 0 0
u l 0 0 d l d l r d 0 0
0 u l l l u l u l l 0 0
