#!/usr/bin/env python3
"""Same-run comparison of `pencilbox bench` between binaries and/or algorithms.

Usage:
  scripts/compare-bench.py --rounds 5 \
      --run before=/path/to/old/pencilbox:fast --run after=target/release/pencilbox:fast \
      [--set rules=...] -- -p suguru ../shared/data/suguru/janko

Each `--run LABEL=BINARY:ALGORITHM` is one column; `LABEL=BINARY:ALGORITHM@KEY=VALUE` adds
`--set KEY=VALUE` to that column only (e.g. `q500=target/release/pencilbox:fast@rules=quick=500`). The runs are interleaved (round 1 of every
column, then round 2, ...) and each instance keeps its minimum over the rounds, so a noisy
moment on a shared machine hurts every column alike. `bench` times what users time: parse,
solve and render, in-process, per instance. Prints the total, the median and the maximum per
instance, and the ratio of each column's total to the first column's.
"""
import argparse
import json
import statistics
import subprocess
import sys


def bench(binary, algorithm, args):
    algorithm, _, setting = algorithm.partition("@")
    cmd = [binary, "bench", "-f", "json", "-a", algorithm] + (["--set", setting] if setting else []) + args
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode not in (0, 1, 3):
        sys.exit(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr.strip()}")
    data = json.loads(out.stdout)
    # Nanoseconds where `bench` reports them (every current build), microseconds before.
    return {
        i["file"]: (i.get("elapsed_ns", i["elapsed_us"] * 1000), i["nodes"], i["status"], i.get("matches_answer"))
        for i in data["instances"]
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--run", action="append", required=True, help="LABEL=BINARY:ALGORITHM")
    ap.add_argument("--per-instance", action="store_true", help="print every instance")
    ap.add_argument("bench_args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    args = [x for x in a.bench_args if x != "--"]
    runs = []
    for r in a.run:
        label, rest = r.split("=", 1)
        head, _, setting = rest.partition("@")
        binary, alg = head.rsplit(":", 1)
        alg = f"{alg}@{setting}" if setting else alg
        runs.append((label, binary, alg))
    best = [dict() for _ in runs]
    for _ in range(a.rounds):
        for k, (_, binary, alg) in enumerate(runs):
            for f, (us, nodes, status, match) in bench(binary, alg, args).items():
                old = best[k].get(f)
                if old is None or us < old[0]:
                    best[k][f] = (us, nodes, status, match)
    files = sorted(best[0])
    if a.per_instance:
        head = "file".ljust(48) + "".join(f"{l + ' us':>14}{'nodes':>9}" for l, _, _ in runs)
        print(head)
        for f in files:
            row = f[-48:].ljust(48)
            for k in range(len(runs)):
                ns, nodes, _, _ = best[k].get(f, (float("nan"), 0, "", None))
                row += f"{ns / 1000:>14.2f}{nodes:>9}"
            print(row)
    base = sum(best[0][f][0] for f in files)
    print(f"{'column':<10}{'instances':>10}{'total ms':>12}{'median ms':>11}{'max ms':>10}{'nodes':>10}{'mismatch':>9}{'x first':>9}{'faster':>8}")
    for k, (label, _, alg) in enumerate(runs):
        t = [best[k][f][0] for f in files if f in best[k]]
        nodes = sum(best[k][f][1] for f in files if f in best[k])
        bad = sum(1 for f in files if f in best[k] and best[k][f][3] is False)
        total = sum(t)
        # Instances where this column beat the first one (strictly, at nanosecond resolution).
        faster = sum(1 for f in files if f in best[k] and best[k][f][0] < best[0][f][0])
        print(
            f"{label:<10}{len(t):>10}{total / 1e6:>12.3f}{statistics.median(t) / 1e6:>11.4f}{max(t) / 1e6:>10.3f}"
            f"{nodes:>10}{bad:>9}{base / total if total else float('nan'):>9.2f}{faster:>8}"
        )


if __name__ == "__main__":
    main()
