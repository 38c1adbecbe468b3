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

The clock runs from the spawn to the end of a blocking wait (a kill timer enforces the
timeout), so short runs are not rounded up to a polling interval.
"""
import argparse, glob, os, shlex, subprocess, threading, time


def run(binary, op, path, args, timeout):
    cmd = [binary, op, path] + args + (["--limit", "2"] if op == "count" else [])
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    killed = []
    timer = threading.Timer(timeout, lambda: (killed.append(True), p.kill()))
    timer.start()
    out, err = p.communicate()
    dt = time.perf_counter() - t
    timer.cancel()
    if killed:
        return None, "timeout"
    if p.returncode not in (0, 1):
        return None, f"exit {p.returncode}: {err.decode()[:200]}"
    return dt, out.decode().splitlines()[0] if out else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--bin", default="target/release/pencilbox")
    ap.add_argument("--op", default="solve")
    ap.add_argument("--variant", action="append", required=True, help="NAME=ARGS")
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    variants = []
    for v in a.variant:
        name, _, args = v.partition("=")
        variants.append((name, shlex.split(args)))
    for s in a.sets:
        files = sorted(glob.glob(os.path.join(s, "*.txt")) + glob.glob(os.path.join(s, "*.in"))) if os.path.isdir(s) else [s]
        best = {(f, n): None for f in files for n, _ in variants}
        answer = {}
        for r in range(a.rounds):
            for f in files:
                k = r % len(variants)
                for n, args in variants[k:] + variants[:k]:
                    if best[(f, n)] == "timeout":
                        continue
                    dt, out = run(a.bin, a.op, f, args, a.timeout)
                    if dt is None:
                        best[(f, n)] = "timeout" if out == "timeout" else out
                        continue
                    first = out.split()[:1]
                    answer.setdefault(f, first)
                    if answer[f] != first:
                        print(f"ANSWERS DIFFER on {f}: {answer[f]!r} vs {first!r} ({n})")
                    b = best[(f, n)]
                    best[(f, n)] = dt if b is None else min(b, dt)
        print(f"\n{s} ({len(files)} instances, {a.op}, min of {a.rounds} rounds, timeout {a.timeout:.0f} s)\n")
        print("| variant | total (ms) | median (ms) | worst (ms) | timeouts |")
        print("|---|---:|---:|---:|---:|")
        for n, _ in variants:
            ts = [best[(f, n)] for f in files]
            ok = sorted(t for t in ts if isinstance(t, float))
            to = sum(1 for t in ts if t == "timeout")
            med = ok[len(ok) // 2] * 1e3 if ok else float("nan")
            worst = ok[-1] * 1e3 if ok else float("nan")
            print(f"| {n} | {sum(ok) * 1e3:.1f} | {med:.1f} | {worst:.1f} | {to} |")

        def t(f, n):
            x = best[(f, n)]
            return x if isinstance(x, float) else 1e9

        spread = sorted(files, key=lambda f: -(max(t(f, n) for n, _ in variants) - min(t(f, n) for n, _ in variants)))[:5]
        print("\nlargest spreads (ms, " + " / ".join(n for n, _ in variants) + "):")
        for f in spread:
            cells = [f"{best[(f, n)] * 1e3:.1f}" if isinstance(best[(f, n)], float) else str(best[(f, n)]) for n, _ in variants]
            print(f"  {os.path.basename(f)}: " + " / ".join(cells))


if __name__ == "__main__":
    main()
