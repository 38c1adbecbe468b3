10 10
1 4
10 2

7 -1 -1 6 -1 9 -1 3 -1 1
5 3 -1 7 2 4 5 6 4 4

0 0 d l 0 r r r r d
0 0 r d 0 u l d l l
0 0 d l 0 0 u d 0 0
0 0 r r r r u d 0 0
d l l 0 0 0 0 r r d
d 0 u d l l l l l l
d 0 u d 0 0 0 0 0 0
d 0 u l 0 0 0 0 0 0
r d 0 0 0 0 0 0 0 0
0 u 0 0 0 0 0 0 0 0
