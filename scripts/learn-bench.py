#!/usr/bin/env python3
"""Issue 30's learning table: whole `pencilbox` processes with `--set learn=off|on|auto`,
interleaved (every instance runs each mode in turn, round after round), min of ROUNDS rounds,
per instance and in total; a run past TIMEOUT seconds counts as a timeout.

usage: scripts/learn-bench.py [--rounds N] [--timeout S] [--bin PATH] [--op solve|count]
                              [--extra ARGS] [--modes off,on,auto] SET...

Each SET is a file or a directory of puzzle files (`*.txt`). `count` counts to 2 (a
uniqueness proof). Prints one Markdown row per set and mode, then the worst instances.
"""
import argparse, glob, os, subprocess, threading, time

MODES = ["off", "on", "auto"]

def run(binary, op, path, mode, timeout, extra):
    cmd = [binary, op, path, "--set", f"learn={mode}"] + (extra.split() if mode != "off" else [])
    if op == "count":
        cmd += ["--limit", "2"]
    # A blocking wait with a kill timer: with a timeout, `subprocess.run` waits for the exit
    # by polling with growing sleeps (from 0.5 ms, doubling) once the pipes close, which can
    # round a short run up.
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
    ap.add_argument("--extra", default="", help="more arguments for the learning modes, e.g. '--set decide=activity'")
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated subset of off,on,auto")
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    modes = [m for m in a.modes.split(",") if m]
    for s in a.sets:
        files = sorted(glob.glob(os.path.join(s, "*.txt"))) if os.path.isdir(s) else [s]
        best = {(f, m): None for f in files for m in modes}
        answer = {}
        for _ in range(a.rounds):
            for f in files:
                for m in modes:
                    if best[(f, m)] == "timeout":
                        continue
                    dt, out = run(a.bin, a.op, f, m, a.timeout, a.extra)
                    if dt is None:
                        best[(f, m)] = "timeout" if out == "timeout" else out
                        continue
                    answer.setdefault(f, out)
                    if answer[f] != out and out.split()[:1] != answer[f].split()[:1]:
                        print(f"ANSWERS DIFFER on {f}: {answer[f]!r} vs {out!r} ({m})")
                    b = best[(f, m)]
                    best[(f, m)] = dt if b is None else min(b, dt)
        print(f"\n{s} ({len(files)} instances, {a.op}, min of {a.rounds} rounds, timeout {a.timeout:.0f} s)\n")
        print("| learn | total (s) | median (ms) | worst (ms) | timeouts |")
        print("|---|---|---|---|---|")
        for m in modes:
            ts = [best[(f, m)] for f in files]
            ok = sorted(t for t in ts if isinstance(t, float))
            to = sum(1 for t in ts if t == "timeout")
            med = ok[len(ok) // 2] * 1e3 if ok else float("nan")
            worst = ok[-1] * 1e3 if ok else float("nan")
            print(f"| {m} | {sum(ok):.2f} | {med:.1f} | {worst:.1f} | {to} |")
        worst = sorted(files, key=lambda f: -max((best[(f, m)] if isinstance(best[(f, m)], float) else 1e9) for m in modes))[:5]
        print("\nworst instances (ms, " + " / ".join(modes) + "):")
        for f in worst:
            cells = []
            for m in modes:
                t = best[(f, m)]
                cells.append(f"{t*1e3:.1f}" if isinstance(t, float) else str(t))
            print(f"  {os.path.basename(f)}: " + " / ".join(cells))

if __name__ == "__main__":
    main()
