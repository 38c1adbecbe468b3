#!/usr/bin/env python3
"""Same-run comparison with cspuz_core's puzzle solver on the work both do: decide uniqueness
and find every cell that is the same in all solutions.

cspuz_core (https://github.com/semiexp/cspuz_core) models each puzz.link genre on a SAT solver;
its `run_solver URL` answers "Unique / Not unique / No Answer" after computing the cells fixed
in every solution, which is what `pencilbox forced` does (and `count --limit 2` the uniqueness
half). Both sides are timed as whole commands (process start, parse, solve, print), interleaved
instance by instance, the minimum of `--rounds` runs each.

Instances: Ripple Effect puzzles made by `pencilbox generate ripple` (seeds and sizes below; the
puzz.link URL from `--format url`, the text for pencilbox) and Sudoku lines from a file (the
URL encoded here as puzz.link's `sudoku/9/9/…`). Families cspuz_core has no solver for (Suguru,
Path puzzles) are not compared.

Build cspuz_core's solver first (its submodules: semiexp/glucose, semiexp/cadical,
semiexp/glucose_rs at the commits the repository pins), then:

    cargo build --release -p cspuz_solver_backend --bin run_solver     # in the cspuz_core checkout
    scripts/cspuz-bench.py --cspuz /path/to/target/release/run_solver \\
        --pencilbox target/release/pencilbox --rounds 5 \\
        --ripple 6x6:1-10 --ripple 8x8:1-10 --ripple 10x10:3 \\
        --sudoku ../shared/data/sudoku/top95.txt --sudoku-limit 95
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time


def sudoku_url(line):
    """puzz.link's encoding: a digit as itself (hex), a run of 1..20 empty cells as g..z."""
    cells = [c for c in line.strip() if not c.isspace()]
    n = int(round(len(cells) ** 0.5))
    out, run = [], 0
    for c in cells:
        if c in ".0":
            run += 1
            if run == 20:
                out.append("z")
                run = 0
            continue
        if run:
            out.append(chr(ord("g") + run - 1))
            run = 0
        out.append(format(int(c, 36), "x"))
    if run:
        out.append(chr(ord("g") + run - 1))
    return f"https://puzz.link/p?sudoku/{n}/{n}/{''.join(out)}"


def run(cmd):
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - t, r


def seeds(spec):
    size, _, s = spec.partition(":")
    if "-" in s:
        a, b = s.split("-")
        return size, range(int(a), int(b) + 1)
    return size, [int(x) for x in s.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cspuz", required=True, help="cspuz_core's run_solver binary")
    ap.add_argument("--pencilbox", default="target/release/pencilbox")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--ripple", action="append", default=[], help="SIZE:SEEDS, e.g. 8x8:1-10")
    ap.add_argument("--sudoku", help="a file of one-line Sudokus")
    ap.add_argument("--sudoku-limit", type=int, default=95)
    ap.add_argument("--per-instance", action="store_true", help="print every instance's row")
    a = ap.parse_args()
    pb = a.pencilbox
    tmp = tempfile.mkdtemp(prefix="cspuz-bench-")
    inst = []  # (name, family, file, url)
    for spec in a.ripple:
        size, ss = seeds(spec)
        for s in ss:
            gen = [pb, "generate", "ripple", "--size", size, "--seed", str(s)]
            text = subprocess.run(gen, capture_output=True, text=True, check=True).stdout
            url = subprocess.run(gen + ["--format", "url"], capture_output=True, text=True, check=True).stdout.strip()
            f = os.path.join(tmp, f"ripple-{size}-{s}.in")
            open(f, "w").write(text)
            inst.append((f"ripple {size} seed {s}", "ripple", f, url))
    if a.sudoku:
        lines = [l for l in open(a.sudoku) if l.strip()][: a.sudoku_limit]
        for k, line in enumerate(lines):
            f = os.path.join(tmp, f"sudoku-{k + 1}.txt")
            open(f, "w").write(line.strip() + "\n")
            inst.append((f"{os.path.basename(a.sudoku)}:{k + 1}", "sudoku", f, sudoku_url(line)))
    if not inst:
        sys.exit("nothing to compare: give --ripple and/or --sudoku")
    sides = {
        "cspuz run_solver": lambda f, url: [a.cspuz, url],
        "pencilbox forced": lambda f, url: [pb, "forced", f],
        "pencilbox count --limit 2": lambda f, url: [pb, "count", "--limit", "2", f],
    }
    best = {(n, s): float("inf") for n, *_ in inst for s in sides}
    for _ in range(a.rounds):
        for name, fam, f, url in inst:
            for side, cmd in sides.items():
                t, r = run(cmd(f, url))
                if side.startswith("cspuz") and "Unique" not in r.stdout:
                    sys.exit(f"{name}: cspuz says {r.stdout.strip() or r.stderr.strip()} ({url})")
                if side.endswith("--limit 2") and not r.stdout.startswith("1 solution"):
                    sys.exit(f"{name}: pencilbox says {r.stdout.splitlines()[0]}")
                best[(name, side)] = min(best[(name, side)], t)
    names = list(sides)
    print(f"{len(inst)} instances, min of {a.rounds} rounds, whole commands, ms\n")
    if a.per_instance:
        print("| instance | " + " | ".join(names) + " | cspuz / forced |")
        print("|---" * (len(names) + 2) + "|")
        for name, *_ in inst:
            row = [best[(name, s)] * 1e3 for s in names]
            print(f"| {name} | " + " | ".join(f"{x:.1f}" for x in row) + f" | {row[0] / row[1]:.1f}× |")
        print()
    for fam in sorted({i[1] for i in inst}):
        sel = [i[0] for i in inst if i[1] == fam]
        tot = {s: sum(best[(n, s)] for n in sel) * 1e3 for s in names}
        worst = {s: max(best[(n, s)] for n in sel) * 1e3 for s in names}
        faster = sum(best[(n, names[1])] < best[(n, names[0])] for n in sel)
        print(
            f"{fam} ({len(sel)}): "
            + ", ".join(f"{s} {tot[s]:.1f} ms (max {worst[s]:.1f})" for s in names)
            + f"; cspuz / forced {tot[names[0]] / tot[names[1]]:.1f}×, forced faster on {faster}/{len(sel)}"
        )


if __name__ == "__main__":
    main()
