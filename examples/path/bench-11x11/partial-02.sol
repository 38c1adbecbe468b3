11 11
11 8
3 1

7 8 6 6 6 4 2 -1 4 -1 3
3 2 6 -1 1 -1 4 4 3 9 8

0 0 d l 0 d l l 0 d l
0 0 d u l l 0 u l d u
u 0 r d 0 0 0 0 u l u
u d l d 0 0 0 0 0 r u
u l u d 0 0 0 0 0 u l
0 0 u l 0 0 0 0 0 r u
0 0 0 0 0 0 0 0 0 u l
0 0 0 0 0 0 0 0 0 r u
0 0 0 0 0 0 r r r u 0
0 0 0 0 0 r u 0 0 0 0
0 0 0 0 0 u l l 0 0 0
