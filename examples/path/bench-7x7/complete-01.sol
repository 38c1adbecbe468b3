7 7
4 7
7 5

3 2 6 4 5 4 4
2 5 3 3 6 4 5

0 0 0 0 d l l
0 0 0 0 d 0 u
0 d l l l r u
0 d 0 0 r u d
d l 0 0 u l l
r d r d 0 0 0
0 r u r u 0 0
