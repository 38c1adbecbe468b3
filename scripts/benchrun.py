"""One timed `pencilbox` process, shared by `learn-bench.py` and `variant-bench.py`."""
import subprocess, threading, time


def run(cmd, timeout):
    """Runs `cmd`; returns (seconds, first line of stdout), or (None, "timeout") past `timeout`
    seconds, or (None, "exit N: stderr") for an exit code other than 0 or 1.

    A blocking wait with a kill timer: with a timeout, `subprocess.run` waits for the exit by
    polling with growing sleeps (from 0.5 ms, doubling) once the pipes close, which can round a
    short run up."""
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


def add_common(ap):
    """The options both scripts take: --rounds, --timeout, --bin, --op."""
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--bin", default="target/release/pencilbox")
    ap.add_argument("--op", default="solve")


def measure(binary, op, files, variants, rounds, timeout):
    """Runs every file under every variant (name, extra arguments), round after round, the
    variants' order rotated each round; returns {(file, name): fastest seconds, "timeout" or an
    error text}. A variant that timed out on a file is not run on it again. Warns when two
    variants' first answer words differ."""
    best = {(f, n): None for f in files for n, _ in variants}
    answer = {}
    for r in range(rounds):
        for f in files:
            k = r % len(variants)
            for n, args in variants[k:] + variants[:k]:
                if best[(f, n)] == "timeout":
                    continue
                cmd = [binary, op, f] + args + (["--limit", "2"] if op == "count" else [])
                dt, out = run(cmd, timeout)
                if dt is None:
                    best[(f, n)] = out
                    continue
                first = out.split()[:1]
                answer.setdefault(f, first)
                if answer[f] != first:
                    print(f"ANSWERS DIFFER on {f}: {answer[f]!r} vs {first!r} ({n})")
                b = best[(f, n)]
                best[(f, n)] = dt if not isinstance(b, float) else min(b, dt)
    return best


def stats(best, files, name):
    """(total seconds, median ms, worst ms, timeouts) of one variant over `files`."""
    ts = [best[(f, name)] for f in files]
    ok = sorted(t for t in ts if isinstance(t, float))
    to = sum(1 for t in ts if t == "timeout")
    med = ok[len(ok) // 2] * 1e3 if ok else float("nan")
    worst = ok[-1] * 1e3 if ok else float("nan")
    return sum(ok), med, worst, to


def cell(t):
    """A time in ms, or what stopped the run."""
    return f"{t * 1e3:.1f}" if isinstance(t, float) else str(t)
