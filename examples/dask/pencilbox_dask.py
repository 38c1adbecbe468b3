#!/usr/bin/env python3
"""Run pencilbox over JSON Lines files on a Dask cluster: the Python package mapped over
shards with dask.bag, the records written in input order, and a summary.

Each input file is cut into partitions of --lines lines (the workers read their own lines,
so on a real cluster the files must be on a filesystem every worker sees). A partition runs
through ``pencilbox.batch`` with the lines' own numbers, so for one input file the records
are exactly those of ``pencilbox batch --op OP IN.jsonl`` (same ids, fields and error
messages), whatever the number of workers.

    python examples/dask/pencilbox_dask.py corpus.jsonl --out results.jsonl           # LocalCluster
    python examples/dask/pencilbox_dask.py corpus.jsonl --out results.jsonl \\
        --scheduler tcp://10.0.0.5:8786                                              # a running scheduler

From Python (e.g. with dask-jobqueue's SLURMCluster), call ``run(client, paths, out)``.
"""

import argparse
import collections
import itertools
import json
import sys
import time
import uuid


def count_lines(path):
    """The number of lines of a file (streamed, not held in memory)."""
    with open(path, "rb") as f:
        n = 0
        last = b"\n"
        for block in iter(lambda: f.read(1 << 20), b""):
            n += block.count(b"\n")
            last = block[-1:]
        return n + (0 if last == b"\n" else 1)


def partitions(paths, lines):
    """(path, first line, number of lines) for every partition of every file, in order."""
    parts = []
    for path in paths:
        total = count_lines(path)
        for start in range(1, total + 1, lines):
            parts.append((str(path), start, min(lines, total - start + 1)))
    return parts


def run_partition(part, op, options, run_id=None):
    """Runs one partition on a worker: its records as JSON lines (as pencilbox batch writes them).
    `run_id` only makes the task keys of each run unique, so that a long-lived client never
    hands back the results of an earlier run over the same path."""
    import pencilbox

    path, start, n = part
    with open(path, encoding="utf-8", newline="") as f:
        lines = itertools.islice(f, start - 1, start - 1 + n)
        numbered = [(start + k, line.rstrip("\r\n")) for k, line in enumerate(lines)]
    return [
        json.dumps(r, separators=(",", ":"), ensure_ascii=False)
        for r in pencilbox.batch(numbered, op=op, **options)
    ]


def summarise(record, summary):
    """Adds one record to the summary counts."""
    summary["records"] += 1
    summary["status"][record.get("status", "?")] += 1
    if "puzzle" in record:
        summary["puzzle"][record["puzzle"]] += 1
    rating = record.get("rating")
    if rating is not None:
        summary["rating_sum"] += rating["score"]
        summary["rated"] += 1


def run(client, paths, out, op="solve", lines=1000, jobs=1, timeout=None, node_limit=None,
        limit=None, algorithm=None, puzzle=None):
    """Runs `op` over the JSON Lines files `paths` on the cluster of `client`, writes the records
    to `out` in input order and returns the summary (a dict)."""
    import dask.bag as db

    t0 = time.perf_counter()
    options = {"jobs": jobs, "timeout": timeout, "node_limit": node_limit, "limit": limit,
               "algorithm": algorithm, "puzzle": puzzle}
    parts = partitions(paths, lines)
    summary = {"records": 0, "status": collections.Counter(), "puzzle": collections.Counter(),
               "rating_sum": 0.0, "rated": 0}
    with open(out, "w", encoding="utf-8", newline="\n") as sink:
        if parts:
            bag = db.from_sequence(parts, npartitions=len(parts)).map(run_partition, op, options,
                                                                      uuid.uuid4().hex)
            # One future per partition, written in order as they complete.
            futures = client.compute(bag.to_delayed())
            for future in futures:
                for chunk in future.result():
                    for line in chunk:
                        sink.write(line + "\n")
                        summarise(json.loads(line), summary)
                future.release()
    seconds = time.perf_counter() - t0
    result = {
        "records": summary["records"],
        "status": dict(sorted(summary["status"].items())),
        "puzzle": dict(sorted(summary["puzzle"].items())),
        "partitions": len(parts),
        "seconds": round(seconds, 3),
        "puzzles_per_second": round(summary["records"] / seconds, 1) if seconds > 0 else None,
    }
    if summary["rated"]:
        result["mean_rating"] = round(summary["rating_sum"] / summary["rated"], 3)
    return result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", help="JSON Lines files (one puzzle per line)")
    ap.add_argument("--out", "-o", required=True, help="the records, one JSON object per line")
    ap.add_argument("--summary", help="also write the summary (JSON) here")
    ap.add_argument("--op", default="solve", choices=["solve", "count", "verify", "explain", "rate"])
    ap.add_argument("--scheduler", help="address of a running Dask scheduler (default: a LocalCluster)")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster workers (default 2)")
    ap.add_argument("--threads", action="store_true",
                    help="LocalCluster: threads in this process instead of worker processes")
    ap.add_argument("--lines", type=int, default=1000, help="lines per partition (default 1000)")
    ap.add_argument("--jobs", type=int, default=1, help="pencilbox threads per partition (default 1)")
    ap.add_argument("--timeout", type=float, help="seconds per puzzle")
    ap.add_argument("--node-limit", type=int, help="search nodes per puzzle")
    ap.add_argument("--limit", type=int, help="--op count: stop at this many solutions")
    ap.add_argument("--algorithm", "-a")
    ap.add_argument("--puzzle", "-p", help="family of lines that do not name one")
    a = ap.parse_args(argv)
    if a.lines < 1:
        ap.error("--lines must be at least 1")

    from dask.distributed import Client, LocalCluster

    if a.scheduler:
        client, cluster = Client(a.scheduler), None
    else:
        cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1,
                               processes=not a.threads, dashboard_address=":0")
        client = Client(cluster)
    try:
        summary = run(client, a.inputs, a.out, op=a.op, lines=a.lines, jobs=a.jobs,
                      timeout=a.timeout, node_limit=a.node_limit, limit=a.limit,
                      algorithm=a.algorithm, puzzle=a.puzzle)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    text = json.dumps(summary, indent=2)
    print(text)
    if a.summary:
        with open(a.summary, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
