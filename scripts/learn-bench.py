#!/usr/bin/env python3
"""Issue 30's learning table: whole `pencilbox` processes with `--set learn=off|on|auto`,
interleaved (every instance runs each mode in turn, round after round), min of ROUNDS rounds,
per instance and in total; a run past TIMEOUT seconds counts as a timeout.

usage: scripts/learn-bench.py [--rounds N] [--timeout S] [--bin PATH] [--op solve|count]
                              [--extra ARGS] [--modes off,on,auto] SET...

Each SET is a file or a directory of puzzle files (`*.txt`). `count` counts to 2 (a
uniqueness proof). Prints one Markdown row per set and mode, then the worst instances.
(`variant-bench.py` compares any argument variants the same way.)
"""
import argparse, glob, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchrun  # noqa: E402

MODES = ["off", "on", "auto"]


def main():
    ap = argparse.ArgumentParser()
    benchrun.add_common(ap)
    ap.add_argument("--extra", default="", help="more arguments for the learning modes, e.g. '--set decide=activity'")
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated subset of off,on,auto")
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    modes = [m for m in a.modes.split(",") if m]
    variants = [(m, ["--set", f"learn={m}"] + (a.extra.split() if m != "off" else [])) for m in modes]
    for s in a.sets:
        files = sorted(glob.glob(os.path.join(s, "*.txt"))) if os.path.isdir(s) else [s]
        best = benchrun.measure(a.bin, a.op, files, variants, a.rounds, a.timeout)
        print(f"\n{s} ({len(files)} instances, {a.op}, min of {a.rounds} rounds, timeout {a.timeout:.0f} s)\n")
        print("| learn | total (s) | median (ms) | worst (ms) | timeouts |")
        print("|---|---|---|---|---|")
        for m in modes:
            total, med, worst, to = benchrun.stats(best, files, m)
            print(f"| {m} | {total:.2f} | {med:.1f} | {worst:.1f} | {to} |")
        worst = sorted(files, key=lambda f: -max((best[(f, m)] if isinstance(best[(f, m)], float) else 1e9) for m in modes))[:5]
        print("\nworst instances (ms, " + " / ".join(modes) + "):")
        for f in worst:
            print(f"  {os.path.basename(f)}: " + " / ".join(benchrun.cell(best[(f, m)]) for m in modes))


if __name__ == "__main__":
    main()
