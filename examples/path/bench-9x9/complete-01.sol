9 9
1 7
9 6

5 7 3 1 1 3 7 3 4
6 4 5 2 3 3 5 4 2

0 0 d l l 0 r d 0
d l d 0 u l l l 0
d u l 0 0 0 0 0 0
d 0 0 0 0 0 0 0 0
d 0 0 0 0 0 0 0 0
d r d 0 0 0 0 0 0
r u r r r r d 0 0
0 0 0 0 0 0 r r d
0 0 0 0 0 u l l l
