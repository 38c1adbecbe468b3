12 12
3 1
12 11

2 2 6 2 4 3 5 5 6 6 8 9
9 6 8 7 8 6 2 1 1 3 4 3

0 0 r d 0 0 0 0 0 0 0 0
0 0 u d 0 0 0 0 0 0 0 0
r r u r r d 0 0 0 0 0 0
0 0 0 0 d l 0 0 0 0 0 0
d l l 0 d 0 0 0 0 0 0 0
d 0 u 0 d 0 0 0 0 0 0 0
d r u 0 r d 0 0 0 0 0 0
d u 0 d l l 0 0 0 0 0 0
d u l l 0 0 0 0 0 0 r d
d 0 0 0 r d 0 0 0 r u d
d 0 0 r u r d 0 0 u d l
r r r u 0 0 r r r u u 0
