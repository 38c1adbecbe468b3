#!/usr/bin/env python3
"""Whole `pencilbox` processes under several argument variants, interleaved (every instance
runs each variant in turn, round after round, the order rotated each round), min of ROUNDS
rounds, per instance and in total; a run past TIMEOUT seconds counts as a timeout.

usage: scripts/variant-bench.py [--rounds N] [--timeout S] [--bin PATH] [--op solve|count]
                                --variant NAME=ARGS [--variant NAME=ARGS ...] SET...

Each SET is a file or a directory of puzzle files (`*.txt`, `*.in`). `count` counts to 2 (a
uniqueness proof). ARGS are extra command-line arguments, e.g.
`--variant default= --variant pairs='--set rules=+pairs'`. Prints one Markdown row per set
and variant, then the instances with the largest spread between variants.

The clock runs from the spawn to the end of a blocking wait (`benchrun.py`: a kill timer
enforces the timeout), so short runs are not rounded up to a polling interval.
"""
import argparse, glob, os, shlex, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchrun  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    benchrun.add_common(ap)
    ap.add_argument("--variant", action="append", required=True, help="NAME=ARGS")
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    variants = []
    for v in a.variant:
        name, _, args = v.partition("=")
        variants.append((name, shlex.split(args)))
    for s in a.sets:
        files = sorted(glob.glob(os.path.join(s, "*.txt")) + glob.glob(os.path.join(s, "*.in"))) if os.path.isdir(s) else [s]
        best = benchrun.measure(a.bin, a.op, files, variants, a.rounds, a.timeout)
        print(f"\n{s} ({len(files)} instances, {a.op}, min of {a.rounds} rounds, timeout {a.timeout:.0f} s)\n")
        print("| variant | total (ms) | median (ms) | worst (ms) | timeouts |")
        print("|---|---:|---:|---:|---:|")
        for n, _ in variants:
            total, med, worst, to = benchrun.stats(best, files, n)
            print(f"| {n} | {total * 1e3:.1f} | {med:.1f} | {worst:.1f} | {to} |")

        def t(f, n):
            x = best[(f, n)]
            return x if isinstance(x, float) else 1e9

        spread = sorted(files, key=lambda f: -(max(t(f, n) for n, _ in variants) - min(t(f, n) for n, _ in variants)))[:5]
        print("\nlargest spreads (ms, " + " / ".join(n for n, _ in variants) + "):")
        for f in spread:
            print(f"  {os.path.basename(f)}: " + " / ".join(benchrun.cell(best[(f, n)]) for n, _ in variants))


if __name__ == "__main__":
    main()
