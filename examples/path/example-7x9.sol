7 9
1 8
4 1

5 4 3 6 7 2 0
2 1 2 2 5 1 2 6 6

0 0 0 0 d l l r d
0 0 0 0 d 0 u l d
0 0 0 0 d 0 0 u d
u 0 d l d 0 0 u d
u l l u l 0 0 u d
0 0 0 0 0 0 0 u l
0 0 0 0 0 0 0 0 0
