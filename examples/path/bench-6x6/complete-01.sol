6 6
3 1
6 6

5 5 3 4 5 3
5 3 5 6 5 1

r r r r d 0
u l l d l 0
d 0 u d 0 0
d 0 u r d 0
r r u d l 0
0 0 0 r r u
