7 7
7 5
1 1

1 4 -1 5 3 3 -1
-1 2 4 1 -1 -1 4

u 0 0 0 0 0 0
u 0 d l l 0 0
u 0 d 0 u l 0
u l d 0 0 u l
0 u l 0 0 0 u
0 0 0 0 r d u
0 0 0 0 u r u
