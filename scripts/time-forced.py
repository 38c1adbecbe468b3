#!/usr/bin/env python3
"""Times the whole `pencilbox forced FILE` command (process start to exit) per file.

Usage:
  scripts/time-forced.py [--runs 21] [--binary target/release/pencilbox] FILE...

Each file is run `--runs` times in a row; prints a Markdown table row per file with the
solution status, forced facts / places, how many were given / by the rules alone / only by
search, the searches and nodes of the run (from `--format json`), and the median and minimum
wall-clock time in milliseconds.
"""
import argparse
import json
import statistics
import subprocess
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--binary", default="target/release/pencilbox")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    print("| file | status | forced / places | given / rules / search | searches | nodes | median ms | min ms |")
    print("|---|---|---|---|---|---|---|---|")
    for f in a.files:
        times = []
        for _ in range(a.runs):
            t = time.perf_counter()
            subprocess.run([a.binary, "forced", f], stdout=subprocess.DEVNULL, check=False)
            times.append((time.perf_counter() - t) * 1000)
        out = subprocess.run([a.binary, "forced", "-f", "json", f], capture_output=True, text=True).stdout
        v = json.loads(out)
        by = {b: sum(1 for x in v["forced"] if x["by"] == b) for b in ("given", "rules", "search")}
        print(
            f"| `{f}` | {v['status']} | {len(v['forced'])} / {v['places']} | "
            f"{by['given']} / {by['rules']} / {by['search']} | {v['stats']['searches']} | "
            f"{v['stats']['nodes']} | {statistics.median(times):.1f} | {min(times):.1f} |"
        )


if __name__ == "__main__":
    main()
