6 6
5 6
6 2

-1 3 3 2 6 -1
2 -1 -1 4 4 4

0 0 0 0 0 0
0 0 0 d l l
0 0 0 r d u
0 0 0 0 d u
d l l d l u
r u u l 0 0
