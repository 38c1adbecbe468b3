10 10
7 10
1 6

1 2 2 5 5 7 8 2 2 7
0 0 3 8 6 5 4 5 4 6

0 0 0 0 0 u 0 0 0 0
0 0 0 0 r u 0 0 0 0
0 0 0 r u 0 0 0 0 0
0 0 0 u l l l l 0 0
0 0 r d 0 0 0 u l l
0 0 u r d 0 r d r u
0 0 u l r r u r u d
0 0 0 u 0 0 0 0 0 d
0 0 0 u 0 0 0 0 0 d
0 0 0 u l l l l l l
