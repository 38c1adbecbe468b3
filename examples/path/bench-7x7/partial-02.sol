7 7
5 7
4 1

4 4 -1 4 3 3 -1
1 5 -1 7 -1 -1 3

0 d l l l 0 0
0 r r d u 0 0
0 0 0 d u l l
u l 0 d 0 0 u
0 u 0 d 0 0 u
0 u l d 0 0 0
0 0 u l 0 0 0
