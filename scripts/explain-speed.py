#!/usr/bin/env python3
"""Explain speed of two pencilbox binaries in the same run (issue 27: within 1.5x of before).

    scripts/explain-speed.py BASE NEW [--rounds 3] [--set NAME ...]

Runs `explain --rating-only` (whole process, output discarded) on each set with both
binaries, interleaved (base, new, base, new, ...), and keeps the minimum over the rounds of
each binary's total time per set. Prints per set: base ms, new ms, new/base. Run from the
repository root (the sets name files under ../shared/data and examples/).

Sets: top95 and hardest (the shared Sudoku files, one process per file), suguru-janko (the
first 60 shared Janko Suguru files, one process each), ripple-examples (examples/ripple/*).
Default: top95 and hardest.
"""

import argparse
import glob
import subprocess
import time

SETS = {
    "top95": lambda: [["explain", "../shared/data/sudoku/top95.txt", "--rating-only"]],
    "hardest": lambda: [["explain", "../shared/data/sudoku/hardest.txt", "--rating-only"]],
    "suguru-janko": lambda: [["explain", f] for f in sorted(glob.glob("../shared/data/suguru/janko/*.in"))[:60]],
    "ripple-examples": lambda: [["explain", f] for f in sorted(glob.glob("examples/ripple/*"))],
}


def timed(binary, args):
    start = time.perf_counter()
    subprocess.run([binary] + args, capture_output=True)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--set", action="append", choices=sorted(SETS), help="a set to time (repeatable)")
    a = ap.parse_args()
    for name in a.set or ["top95", "hardest"]:
        cmds = SETS[name]()
        best = [float("inf"), float("inf")]
        for _ in range(a.rounds):
            for i, b in enumerate([a.base, a.new]):
                best[i] = min(best[i], sum(timed(b, c) for c in cmds))
        print(f"{name}: base {best[0] * 1000:.0f} ms, new {best[1] * 1000:.0f} ms, ratio {best[1] / best[0]:.2f}")


if __name__ == "__main__":
    main()
