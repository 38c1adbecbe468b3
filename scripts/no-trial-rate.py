#!/usr/bin/env python3
"""How many generated puzzles `explain --no-guess` solves without a trial step (issue 25: at
least 90 % of each genre's generated unique puzzles).

For each GENRE:RxC[:KEY=VALUE...] it generates puzzles with seeds 1..N at each difficulty
asked for (`pencilbox generate`, release binary), runs `pencilbox explain --no-guess --format
json` on each, and counts those solved with no step whose rule is `trial`, and those not
solved at all (a `--no-guess` explanation stops when the rules stall).

Usage: scripts/no-trial-rate.py [--seeds N] [--difficulty medium,easy,hard] SET...
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "pencilbox")


def run(args):
    return subprocess.run([BIN] + args, check=True, capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--difficulty", default="medium")
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    print("| set | difficulty | puzzles | solved, no trial | solved with trial | not solved |")
    print("|---|---|---|---|---|---|")
    for spec in a.sets:
        genre, size, *extra = spec.split(":")
        for difficulty in a.difficulty.split(","):
            plain = trial = stuck = 0
            for seed in range(1, a.seeds + 1):
                args = ["generate", genre, "--size", size, "--seed", str(seed), "--difficulty", difficulty]
                for kv in extra:
                    args += ["--set", kv]
                with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
                    f.write(run(args))
                x = json.loads(run(["explain", "--no-guess", "--format", "json", f.name]))
                os.unlink(f.name)
                if x["status"] != "solved":
                    stuck += 1
                elif any(s["rule"] == "trial" for s in x["steps"]):
                    trial += 1
                else:
                    plain += 1
            n = plain + trial + stuck
            print(f"| {spec} | {difficulty} | {n} | {plain} ({100 * plain / n:.0f} %) | {trial} | {stuck} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
