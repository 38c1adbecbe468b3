3 3
2 1
3 2

3 2 2
2 2 3

r r d
u 0 d
0 u l
