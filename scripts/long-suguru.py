#!/usr/bin/env python3
"""Writes a 1×n and an n×1 Suguru with a planted solution (the 10⁶-cell files of BENCHMARKS.md).

Usage: scripts/long-suguru.py N ROW_FILE COL_FILE [--seed S] [--hints PCT]

Regions are runs of 2–5 cells; each gets a random permutation of 1..size whose first value
differs from the previous region's last (so touching cells differ); about PCT % of the cells
keep their value as a hint. The same puzzle is written as one row and as one column.
"""
import argparse
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", type=int)
    ap.add_argument("row_file")
    ap.add_argument("col_file")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--hints", type=float, default=20.0)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    sol, lab = [], []
    k = 0
    while len(sol) < a.n:
        rest = a.n - len(sol)
        size = min(rng.randint(2, 5), rest)
        if rest - size == 1:
            # Never leave a one-cell region at the end (it could be forced to clash).
            size = size + 1 if size < 5 else size - 1
        while True:
            p = rng.sample(range(1, size + 1), size)
            if not sol or p[0] != sol[-1] or size == 1:
                break
        k += 1
        sol += p
        lab += [k] * size
    hints = [v if rng.random() * 100 < a.hints else 0 for v in sol]
    n = len(sol)
    with open(a.row_file, "w") as f:
        f.write(f"1 {n}\n" + " ".join(map(str, hints)) + "\n" + " ".join(map(str, lab)) + "\n")
    with open(a.col_file, "w") as f:
        f.write(f"{n} 1\n" + "\n".join(map(str, hints)) + "\n" + "\n".join(map(str, lab)) + "\n")


if __name__ == "__main__":
    main()
