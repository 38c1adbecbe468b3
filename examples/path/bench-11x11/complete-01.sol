11 11
3 11
1 4

4 3 4 4 3 6 5 3 5 9 8
7 9 4 4 2 2 4 5 3 8 6

r r d u 0 0 0 0 0 0 0
u 0 r u 0 0 0 0 0 0 0
u l 0 0 0 0 0 0 0 d l
r u 0 0 0 0 0 0 0 r d
u l 0 0 0 0 0 0 0 0 d
0 u 0 0 0 0 d l l l l
0 u 0 0 0 0 r r r d 0
r u 0 0 0 0 0 0 0 d 0
u l 0 0 0 0 d l 0 d 0
0 u l d l d l u 0 r d
0 0 u l u l 0 u l l l
