#!/usr/bin/env python3
"""Where a family's time goes: parse, model set-up, search, render and the rest, per instance.

Usage:
  cargo build --profile profiling -p pencilbox-cli
  scripts/profile-summary.py [--bin target/profiling/pencilbox] [--family suguru ...]

Runs `pencilbox bench` under valgrind's callgrind (instruction counts: exact and repeatable on a
loaded machine, unlike timings) on each family's set and splits the instructions of the
in-process `solve` calls (what `bench` times) by the functions that do each part:

  parse   the plug-in's `parse` (text to puzzle)
  setup   building the engine model (the family's model function, plus Suguru's bitmask
          presolve; Sudoku's default `bits` has no model: its state is filled inside the search)
  search  the plug-in's `search` minus set-up (propagation, branching, probing)
  render  the plug-in's `render_as` (the answer text; 0 where the compiler inlined it into
          `solve`, and then counted in `other`)
  other   the rest of `solve` (the no-solution prechecks, notes, the status mapping)

A function's cost is its inclusive count from `callgrind_annotate --tree=calling`. The shares
apply to the time `bench` measures (BENCHMARKS.md gives those with `compare-bench.py`).
Families whose data is missing (`../shared/data`) are skipped with a line saying so.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared", "data")

# family -> (bench arguments, {part: regex of the function's symbol})
FAMILIES = {
    "suguru": (
        ["-p", "suguru", "-a", "fast", os.path.join(SHARED, "suguru", "janko")],
        {
            "parse": r"Puzzle for pencilbox_suguru::model::Suguru>::parse$",
            # The bitmask presolve, then the engine model for what it leaves open.
            "setup": (r"pencilbox_core::regions::presolve::presolve$", r"pencilbox_suguru::fast::model_with$"),
            "search": r"Puzzle for pencilbox_suguru::model::Suguru>::search$",
            "render": r"Puzzle for pencilbox_suguru::model::Suguru>::render_as$",
        },
    ),
    "path": (
        ["-p", "path", "-a", "fast", os.path.join(SHARED, "path", "letters")],
        {
            "parse": r"Puzzle for pencilbox_pathpuzzle::model::PathPuzzle>::parse$",
            "setup": r"pencilbox_pathpuzzle::fast::LinkModel::post_limited$",
            "search": r"Puzzle for pencilbox_pathpuzzle::model::PathPuzzle>::search$",
            "render": r"Puzzle for pencilbox_pathpuzzle::model::PathPuzzle>::render_as$",
        },
    ),
    "ripple": (
        ["-p", "ripple", os.path.join(ROOT, "examples", "ripple")],
        {
            "parse": r"<pencilbox_ripple::Ripple as pencilbox_core::plugin::Puzzle>::parse$",
            "setup": r"pencilbox_ripple::Ripple::model$",
            "search": r"<pencilbox_ripple::Ripple as pencilbox_core::plugin::Puzzle>::search$",
            "render": r"<pencilbox_ripple::Ripple as pencilbox_core::plugin::Puzzle>::render_as$",
        },
    ),
    "sudoku": (
        ["-p", "sudoku", os.path.join(SHARED, "sudoku", "top95.txt")],
        {
            "parse": r"Puzzle for pencilbox_sudoku_nishio::board::Sudoku>::parse$",
            # `bits` has no model to build: its 31-word state is filled inside the search.
            "setup": r"pencilbox_sudoku_nishio::bitsolve::State::empty$",
            "search": r"Puzzle for pencilbox_sudoku_nishio::board::Sudoku>::search$",
            "render": r"Puzzle for pencilbox_sudoku_nishio::board::Sudoku>::render_as$",
        },
    ),
}
SOLVE = r"<pencilbox_core::plugin::Plugin<P> as pencilbox_core::puzzle::PuzzleKind>::solve$"
INSTANCES = r"^(\d+) instances"


def inclusive(tree, pattern):
    """The largest inclusive count of a `*` line whose symbol matches `pattern`."""
    best = 0
    rx = re.compile(pattern)
    for line in tree:
        m = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+\*\s+(?:\S+?):(.*?)(?: \[.*\])?$", line)
        if m and rx.search(m.group(2).strip()):
            best = max(best, int(m.group(1).replace(",", "")))
    return best


def profile(binary, args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "bench"] + args,
            capture_output=True,
            text=True,
        )
        summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
        m = re.search(INSTANCES, summary)
        tree = subprocess.run(
            ["callgrind_annotate", "--tree=calling", "--inclusive=yes", out],
            capture_output=True,
            text=True,
        ).stdout.splitlines()
    return (int(m.group(1)) if m else 0), tree


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "profiling", "pencilbox"))
    ap.add_argument("--family", action="append", choices=sorted(FAMILIES))
    a = ap.parse_args()
    print("| family (set, algorithm) | instances | instructions / instance | parse | setup | search | render | other |")
    print("|---|---|---|---|---|---|---|---|")
    for fam in a.family or list(FAMILIES):
        args, parts = FAMILIES[fam]
        if not os.path.exists(args[-1]):
            print(f"skip: {fam}: {args[-1]} is missing", file=sys.stderr)
            continue
        n, tree = profile(a.bin, args)
        total = inclusive(tree, SOLVE)
        if n == 0 or total == 0:
            print(f"skip: {fam}: no solve calls measured", file=sys.stderr)
            continue
        # A part given as several symbols (e.g. Suguru's presolve and model) is their sum.
        cost = {p: sum(inclusive(tree, r) for r in ((rx,) if isinstance(rx, str) else rx)) for p, rx in parts.items()}
        cost["search"] = max(0, cost["search"] - cost["setup"])
        cost["other"] = max(0, total - sum(cost.values()))
        share = lambda p: f"{100 * cost[p] / total:.0f} % ({cost[p] / n / 1000:.1f} K)"
        name = f"{fam} ({os.path.basename(args[-1])}, {args[args.index('-a') + 1] if '-a' in args else 'default'})"
        print(f"| {name} | {n} | {total / n / 1000:.1f} K | " + " | ".join(share(p) for p in ["parse", "setup", "search", "render", "other"]) + " |")


if __name__ == "__main__":
    main()
