12 12
12 9
5 1

12 10 7 6 6 5 5 8 11 8 2 2
10 8 7 5 7 6 8 5 6 9 6 5

d l d l l d l d l l l l
d u l 0 u d u l 0 r d u
d 0 0 0 u r d 0 0 u r u
r r d 0 u 0 d 0 0 u 0 0
u 0 d 0 u l l 0 0 u 0 0
u d l 0 0 0 0 0 r u 0 0
u r r d 0 0 0 0 u 0 0 0
u d l l 0 0 0 0 u l l l
u d 0 r r r r r r d r u
u l 0 u l l l 0 0 r u 0
0 0 0 0 0 0 u l 0 0 0 0
0 0 0 0 0 0 0 u l 0 0 0
