#!/usr/bin/env python3
"""Throughput of `pencilbox batch`, the Python package and the Dask example (BENCHMARKS.md).

    python3 scripts/batch-throughput.py --bin target/release/pencilbox [--python VENV/bin/python]
        [--rounds 3] [--path-count 100] [--out DIR]

Corpora: the bundled Sudoku batch file, ../shared/data/sudoku/sudoku17-first5000.txt and the
Janko Suguru set (../shared/data/suguru/janko, as JSONL) when present, and Path 10x10 puzzles
made by `pencilbox generate path` (seeds 1..N). For each corpus and op (solve, rate) it times
`pencilbox batch --jobs 1` and `--jobs 2`; with --python (an interpreter that imports
pencilbox and dask), also `pencilbox.batch(jobs=1)` in-process and the Dask example on a
2-worker LocalCluster. Each figure is the fastest of --rounds runs (wall clock), as puzzles per
second; the machine is shared, so minima are the least noisy figure.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def corpora(binary, out, path_count):
    found = {"sudoku-bundled": ROOT / "examples" / "sudoku" / "batch-9x9.txt"}
    s17 = SHARED / "sudoku" / "sudoku17-first5000.txt"
    if s17.exists():
        found["sudoku17-5000"] = s17
    else:
        print(f"skip: {s17} not found", file=sys.stderr)
    janko = SHARED / "suguru" / "janko"
    if janko.is_dir():
        p = out / "janko.jsonl"
        with open(p, "w") as f:
            for inst in sorted(janko.glob("*.in")):
                f.write(json.dumps({"id": inst.stem, "puzzle": "suguru", "text": inst.read_text()}) + "\n")
        found["suguru-janko"] = p
    else:
        print(f"skip: {janko} not found", file=sys.stderr)
    p = out / "path-10x10.jsonl"
    with open(p, "w") as f:
        for seed in range(1, path_count + 1):
            text = subprocess.run([binary, "generate", "path", "--size", "10x10", "--seed", str(seed)],
                                  capture_output=True, text=True, check=True).stdout
            f.write(json.dumps({"id": f"path-{seed}", "puzzle": "path", "text": text}) + "\n")
    found["path-10x10-generated"] = p
    return found


def lines(path):
    with open(path) as f:
        return sum(1 for l in f if l.strip())


def fastest(rounds, fn):
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


PY_BATCH = """
import sys, time, pencilbox
path, op, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
items = open(path).read().splitlines()
best = float("inf")
for _ in range(rounds):
    t0 = time.perf_counter()
    n = sum(1 for _ in pencilbox.batch(items, op=op, jobs=1))
    best = min(best, time.perf_counter() - t0)
print(best)
"""

PY_DASK = """
import sys, time
sys.path.insert(0, sys.argv[4])
import pencilbox_dask
from dask.distributed import Client, LocalCluster
path, op, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
if __name__ == "__main__":
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = Client(cluster)
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        pencilbox_dask.run(client, [path], "/dev/null", op=op, lines=500)
        best = min(best, time.perf_counter() - t0)
    client.close(); cluster.close()
    print(best)
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "pencilbox"))
    ap.add_argument("--python", help="an interpreter with pencilbox and dask installed")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--path-count", type=int, default=100)
    ap.add_argument("--out", help="keep the corpora here")
    a = ap.parse_args()
    out = pathlib.Path(a.out or tempfile.mkdtemp(prefix="pencilbox-throughput-"))
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name, path in corpora(a.bin, out, a.path_count).items():
        n = lines(path)
        for op in ("solve", "rate"):
            row = {"corpus": name, "puzzles": n, "op": op}
            for jobs in (1, 2):
                t = fastest(a.rounds, lambda: subprocess.run(
                    [a.bin, "batch", "--op", op, "--jobs", str(jobs), str(path), "-o", os.devnull],
                    check=True, stderr=subprocess.DEVNULL))
                row[f"cli_j{jobs}"] = n / t
            if a.python:
                t = float(subprocess.run([a.python, "-c", PY_BATCH, str(path), op, str(a.rounds)],
                                         capture_output=True, text=True, check=True).stdout)
                row["python_j1"] = n / t
                t = float(subprocess.run([a.python, "-c", PY_DASK, str(path), op, str(a.rounds),
                                          str(ROOT / "examples" / "dask")],
                                         capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1])
                row["dask_2w"] = n / t
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)
    cols = ["cli_j1", "cli_j2"] + (["python_j1", "dask_2w"] if a.python else [])
    print("| corpus | puzzles | op | " + " | ".join(cols) + " | scaling j2/j1 | overhead µs/puzzle (python, dask vs cli j1) |")
    print("|---|---:|---|" + "---:|" * len(cols) + "---:|---|")
    for r in rows:
        scale = r["cli_j2"] / r["cli_j1"] / 2
        over = ""
        if a.python:
            base = 1e6 / r["cli_j1"]
            over = f"{1e6 / r['python_j1'] - base:+.0f}, {1e6 / r['dask_2w'] - 1e6 / r['cli_j2']:+.0f} (vs j2)"
        vals = " | ".join(f"{r[c]:,.0f}" for c in cols)
        print(f"| {r['corpus']} | {r['puzzles']:,} | {r['op']} | {vals} | {scale:.0%} | {over} |")


if __name__ == "__main__":
    main()
