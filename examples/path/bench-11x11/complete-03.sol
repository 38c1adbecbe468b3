11 11
1 9
1 1

5 7 3 2 2 5 6 3 6 6 6
2 1 5 2 5 5 6 10 5 4 6

u 0 0 0 0 d l l d 0 0
u l l 0 0 r d u l 0 0
0 0 u 0 0 0 r d 0 0 0
0 0 u 0 0 0 0 d 0 0 0
0 0 u 0 0 0 0 d 0 0 0
0 0 u l 0 0 0 d 0 r d
0 0 0 u l 0 0 r r u d
0 0 0 0 u l 0 0 0 0 d
0 0 0 0 r u d l l 0 d
0 0 0 0 u 0 r d u l d
0 0 0 0 u l l l 0 u l
