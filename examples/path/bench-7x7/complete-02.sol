7 7
6 7
1 1

4 3 4 5 3 3 2
1 2 4 7 5 2 3

u l d l 0 0 0
0 u l u 0 0 0
0 0 r u d l 0
0 0 u l d u l
0 0 0 u d 0 u
0 0 0 u d 0 u
0 0 0 u l 0 0
