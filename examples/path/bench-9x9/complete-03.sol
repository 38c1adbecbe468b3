9 9
3 1
1 4

5 9 3 3 4 3 3 4 6
8 7 4 3 2 4 3 5 4

r d 0 u 0 d l 0 0
u r d u l l u l l
u 0 d 0 0 0 0 0 u
0 d l 0 0 0 0 0 u
d l 0 0 0 0 0 r u
r d 0 0 0 0 0 u 0
d l 0 0 0 0 0 u 0
d 0 0 0 0 r r u 0
r r r r r u 0 0 0
