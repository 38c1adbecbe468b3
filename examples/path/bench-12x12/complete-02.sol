12 12
4 12
12 4

8 6 10 7 3 5 5 5 1 4 3 2
4 6 5 9 8 8 5 2 2 3 5 2

0 d l l l l l 0 0 d l 0
d l 0 0 0 r u 0 0 d u 0
r r r d 0 u l l d l u 0
0 0 0 r r d 0 u l 0 u d
0 0 0 0 0 d 0 0 0 0 u l
0 d l l l l 0 0 0 0 0 0
d l r r d 0 0 0 0 0 0 0
r r u d l 0 0 0 0 0 0 0
0 0 0 d 0 0 0 0 0 0 0 0
0 0 0 r r r d 0 0 0 0 0
0 0 0 0 d l l 0 0 0 0 0
0 0 0 u l 0 0 0 0 0 0 0
