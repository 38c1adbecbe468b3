#!/usr/bin/env python3
"""How many puzzles `explain` solves without a trial step and without a guess (issue 25: at
least 90 % of each genre's generated unique puzzles; issue 27: every Path letter and every
unique 6×6 and 7×7 Path puzzle).

For each GENRE:RxC[:KEY=VALUE...] it generates puzzles with seeds S..S+N-1 (S = 1 unless `--first-seed`) at each difficulty
asked for (`pencilbox generate`, release binary; `--difficulty none` generates without one),
runs `pencilbox explain --no-guess --format json` on each, and counts those solved with no
step whose rule is `trial`, those solved with trial, and those not solved at all (a
`--no-guess` explanation stops when the rules stall: those need a guess). A set given as
`dir:PATH` explains every `*.txt` puzzle in the folder PATH instead (the Path letters:
`dir:../shared/data/path/letters`). `--trials` adds the number of trial steps in all.

Usage: scripts/no-trial-rate.py [--seeds N] [--first-seed S] [--difficulty medium,easy,hard,none] [--bin B] SET...
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "pencilbox")


def run(args, check=True):
    return subprocess.run([BIN] + args, check=check, capture_output=True, text=True).stdout


def explain(path):
    """(plain, trial, stuck, trial steps) of one puzzle file."""
    x = json.loads(run(["explain", "--no-guess", "--format", "json", path], check=False))
    trials = sum(1 for s in x["steps"] if s["rule"] == "trial")
    if x["status"] != "solved":
        return (0, 0, 1, trials)
    if trials:
        return (0, 1, 0, trials)
    return (1, 0, 0, 0)


def row(spec, difficulty, counts):
    plain, trial, stuck, steps = counts
    n = plain + trial + stuck
    print(f"| {spec} | {difficulty} | {n} | {plain} ({100 * plain / n:.0f} %) | {trial} | {stuck} | {steps} |")
    sys.stdout.flush()


def add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def main():
    global BIN
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--difficulty", default="medium")
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    BIN = a.bin
    print("| set | difficulty | puzzles | solved, no trial | solved with trial | not solved (guess) | trial steps |")
    print("|---|---|---|---|---|---|---|")
    for spec in a.sets:
        if spec.startswith("dir:"):
            counts = (0, 0, 0, 0)
            for path in sorted(glob.glob(os.path.join(spec[4:], "*.txt"))):
                counts = add(counts, explain(path))
            row(spec, "-", counts)
            continue
        genre, size, *extra = spec.split(":")
        for difficulty in a.difficulty.split(","):
            counts = (0, 0, 0, 0)
            for seed in range(a.first_seed, a.first_seed + a.seeds):
                args = ["generate", genre, "--size", size, "--seed", str(seed)]
                if difficulty != "none":
                    args += ["--difficulty", difficulty]
                for kv in extra:
                    args += ["--set", kv]
                with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
                    f.write(run(args))
                counts = add(counts, explain(f.name))
                os.unlink(f.name)
            row(spec, difficulty, counts)


if __name__ == "__main__":
    main()
