9 9
1 6
5 1

7 7 5 7 6 3 3 0 0
3 5 4 2 6 4 6 3 5

d l l 0 0 d r r d
r d u 0 d l u 0 d
0 d u 0 d 0 u 0 d
0 d u l r r u 0 d
u l 0 u l 0 0 d l
0 0 0 0 u 0 d l 0
0 0 0 0 u l l 0 0
0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0
