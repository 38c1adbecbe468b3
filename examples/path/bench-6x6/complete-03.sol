6 6
4 6
6 2

3 2 2 3 2 5
0 1 1 5 4 6

0 0 0 d l l
0 0 0 d 0 u
0 0 0 d 0 u
0 0 0 r d u
0 0 0 0 r d
0 u l l l l
