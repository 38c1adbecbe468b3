10 10
1 3
10 5

7 3 5 5 6 6 -1 5 7 1
2 3 3 6 7 7 8 4 7 7

0 0 r r r r d 0 r d
0 0 0 0 0 0 d 0 u d
0 0 0 0 0 d l r u d
0 0 0 0 d l 0 u l d
0 0 0 d l r d 0 u d
0 0 0 d 0 u r r u d
0 d l l r u d l l l
d l 0 r u 0 d 0 0 0
r r r u d l l 0 0 0
0 0 0 0 u 0 0 0 0 0
