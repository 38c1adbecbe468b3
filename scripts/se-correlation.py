#!/usr/bin/env python3
"""Spearman rank correlation between pencilbox's SE-like Sudoku rating and Sukaku Explainer's
ratings in the Sudoku Exchange puzzle bank (public domain; docs/sudoku.md, issue 27 item 7).

    scripts/se-correlation.py BANK [BANK ...] [--per-file 50] [--bin target/release/pencilbox]

Each BANK is a directory or a file of the bank's records, one puzzle per line:
`HASH 81-DIGITS RATING` (`0` = empty), e.g. grantm/sudoku-exchange-puzzle-bank's
easy/medium/hard/diabolical.txt, or a fork that splits the same records by rating into
`2.5.txt` … `9.3.txt`. The data is read where it is, never copied into the repository.

The sample is reproducible: from every file, every k-th record starting at the first, with
k = max(1, records // per_file), at most `per_file` records. The puzzles are rated by
`pencilbox explain --rating-only --format json` (the `rating.se` field, or `--field score`), in
one run per file.
Prints the number of puzzles and Spearman's rho (ties ranked by their mean rank) overall, within
the bank's >= 5.0 bucket and below it, and the mean SE-like rating per bank rating.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def records(path):
    out = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and len(parts[1]) == 81:
                out.append((parts[1], float(parts[2])))
    return out


def sample(recs, per_file):
    k = max(1, len(recs) // per_file)
    return recs[::k][:per_file]


def files_of(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            out.extend(sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".txt")))
        else:
            out.append(p)
    return out


def rate(binary, puzzles, field="se"):
    """SE-like ratings of `puzzles` (81-character lines), in order."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as t:
        t.write("\n".join(p.replace("0", ".") for p in puzzles) + "\n")
        name = t.name
    try:
        r = subprocess.run(
            [binary, "explain", "-p", "sudoku", "--rating-only", "--format", "json", name],
            capture_output=True,
            text=True,
        )
    finally:
        os.unlink(name)
    by_line = {}
    for line in r.stdout.splitlines():
        v = json.loads(line)
        if "line" in v and "rating" in v:
            by_line[v["line"]] = v["rating"].get(field)
    return [by_line.get(i + 1) for i in range(len(puzzles))]


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    if len(a) < 3:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5 if va and vb else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bank", nargs="+", help="bank files or directories of them")
    ap.add_argument("--per-file", type=int, default=50, help="records sampled per file (default 50)")
    ap.add_argument("--bin", default="target/release/pencilbox", help="the pencilbox binary")
    ap.add_argument("--out", help="write `bank_rating se_like puzzle` lines here")
    ap.add_argument(
        "--field",
        default="se",
        help="the rating field to compare (default se; `score` is the level scale, for binaries before it)",
    )
    a = ap.parse_args()
    pairs = []
    for path in files_of(a.bank):
        recs = sample(records(path), a.per_file)
        if not recs:
            continue
        se = rate(a.bin, [p for p, _ in recs], a.field)
        got = [(r, s, p) for (p, r), s in zip(recs, se) if s is not None]
        pairs.extend(got)
        print(f"{os.path.basename(path)}: {len(got)} of {len(recs)} rated", file=sys.stderr)
    if a.out:
        with open(a.out, "w") as f:
            for r, s, p in pairs:
                f.write(f"{r} {s} {p}\n")

    def report(name, ps):
        rho = spearman([r for r, _, _ in ps], [s for _, s, _ in ps])
        print(f"{name}: {len(ps)} puzzles, Spearman rho = {rho:.3f}")

    report("overall", pairs)
    report("bank rating >= 5.0", [p for p in pairs if p[0] >= 5.0])
    report("bank rating < 5.0", [p for p in pairs if p[0] < 5.0])
    print("bank rating: mean SE-like (puzzles)")
    for r in sorted({p[0] for p in pairs}):
        ss = [s for q, s, _ in pairs if q == r]
        print(f"  {r:.1f}: {sum(ss) / len(ss):.2f} ({len(ss)})")


if __name__ == "__main__":
    main()
