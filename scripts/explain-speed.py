#!/usr/bin/env python3
"""Same-run speed of `pencilbox explain` and `pencilbox hint` between two binaries (issue 27:
"explain and hint speed stays within 1.5× of today, in the same run").

Usage:
  scripts/explain-speed.py [--rounds 3] [--sets NAME,NAME...] BASE_BINARY NEW_BINARY

Each named set is a list of whole commands, one per puzzle file (`explain --format json FILE`
or `hint --level answer FILE`), timed as a process (start-up, parse, explanation and output:
what a user or the playground waits for). The two binaries run interleaved (round 1 of base,
round 1 of new, round 2 of base, ...) and each keeps the minimum of its set totals over the
rounds, so a busy moment on a shared machine hurts both alike. A set whose files are missing
(the shared data beside the checkout) prints a `skip:` line. Run from the checkout's root.
Prints per set: the files, base and new milliseconds, and the ratio new / base.

Sets (`--sets` picks some; default all): path-letters, path-bench-8x8, path-bench-10x10 and
their `hint` twins (path-hint-...), plus sudoku-top95, sudoku-hardest, suguru-janko60 and ripple-examples for
the other families.
"""
import argparse
import glob
import os
import subprocess
import sys
import time


def files(pattern, limit=None):
    found = sorted(glob.glob(pattern))
    return found[:limit] if limit else found


def explain(paths):
    return [["explain", "--format", "json", p] for p in paths]


def hint(paths):
    return [["hint", "--level", "answer", p] for p in paths]


def sets():
    letters = files("../shared/data/path/letters/*.txt")
    b8 = files("examples/path/bench-8x8/*.txt")
    b10 = files("examples/path/bench-10x10/*.txt")
    return {
        "path-letters": ("../shared/data/path/letters", explain(letters)),
        "path-bench-8x8": ("examples/path/bench-8x8", explain(b8)),
        "path-bench-10x10": ("examples/path/bench-10x10", explain(b10)),
        "path-hint-letters": ("../shared/data/path/letters", hint(letters)),
        "path-hint-bench-8x8": ("examples/path/bench-8x8", hint(b8)),
        "path-hint-bench-10x10": ("examples/path/bench-10x10", hint(b10)),
        "sudoku-top95": (
            "../shared/data/sudoku/top95.txt",
            [["explain", "--rating-only", p] for p in files("../shared/data/sudoku/top95.txt")],
        ),
        "sudoku-hardest": (
            "../shared/data/sudoku/hardest.txt",
            [["explain", "--rating-only", p] for p in files("../shared/data/sudoku/hardest.txt")],
        ),
        "suguru-janko60": ("../shared/data/suguru/janko", explain(files("../shared/data/suguru/janko/*.in", 60))),
        "ripple-examples": ("examples/ripple", explain(files("examples/ripple/*.in"))),
    }


def run_set(binary, cmds):
    start = time.perf_counter()
    for c in cmds:
        r = subprocess.run([binary] + c, capture_output=True)
        if r.returncode not in (0, 1, 3):
            sys.exit(f"{binary} {' '.join(c)} failed ({r.returncode}): {r.stderr.decode().strip()}")
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sets", default=None, help="comma-separated set names (default: all)")
    ap.add_argument("base")
    ap.add_argument("new")
    a = ap.parse_args()
    table = sets()
    names = a.sets.split(",") if a.sets else list(table)
    for n in names:
        if n not in table:
            sys.exit(f"unknown set {n!r}; known: {', '.join(table)}")
    print("| set | files | base ms | new ms | new / base |")
    print("|---|---|---|---|---|")
    for n in names:
        source, cmds = table[n]
        if not cmds:
            print(f"skip: {n} ({source} not found)")
            continue
        best = [float("inf"), float("inf")]
        for _ in range(a.rounds):
            for i, b in enumerate((a.base, a.new)):
                best[i] = min(best[i], run_set(b, cmds))
        print(f"| {n} | {len(cmds)} | {best[0] * 1000:.0f} | {best[1] * 1000:.0f} | {best[1] / best[0]:.2f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
