12 12
1 9
3 12

7 -1 8 6 -1 3 6 5 4 3 3 10
6 -1 9 5 3 3 2 -1 6 5 5 1

d l l 0 0 d l l l 0 0 0
d r u 0 d l 0 0 0 0 0 0
d u 0 d l 0 0 0 r r r u
d u l l 0 0 0 r u 0 0 0
d 0 0 0 0 0 0 u 0 0 0 0
r d 0 0 0 0 0 u 0 0 0 0
0 r r d 0 0 0 u d l 0 0
0 0 d l 0 0 0 u l u 0 0
0 d l 0 0 0 0 0 0 u l 0
0 r d 0 0 0 0 0 0 0 u 0
0 d l 0 0 0 0 0 0 0 u 0
0 r r r r r r r r r u 0
