6 6
6 6
4 1

2 2 6 5 1 2
2 2 2 3 6 3

0 0 0 d l 0
0 0 0 d u 0
d l d l u l
u u l 0 r u
0 0 0 0 u 0
0 0 0 0 u l
