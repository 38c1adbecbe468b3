#!/usr/bin/env python3
"""Speed of the new genres against CP-SAT (issue 25, item 5), in the same run.

For each set GENRE:RxC it generates 20 puzzles deterministically (seeds 1..20, `--difficulty
hard` unless told otherwise) into target/genre-bench/<genre>-<RxC>/ (sNN.txt and the generator's
answer sNN.ans; files already there are reused, so a second run only measures), then times, for
several interleaved rounds (round 1 of pencilbox, round 1 of CP-SAT, round 2 of pencilbox, ...):

  pencilbox   `pencilbox bench -f json --limit 2 DIR`: per instance, parse + model + solve + the
              proof that there is no second solution (`count --limit 2`'s work), in-process;
  CP-SAT      `python scripts/cpsat-genres.py --json DIR`: per instance, read + model build +
              solve + a second solve with the first answer excluded (one worker), in-process.

Each instance keeps its minimum over the rounds; the whole commands (process start to exit, the
interpreter's start and the `ortools` import included for CP-SAT) are timed too and their
minimum over the rounds reported. Every puzzle must come out unique on both sides and
pencilbox's answer must match the generator's (`bench` checks the .ans file); anything else is
printed as a disagreement and makes the exit code 1.

Setup (once, from the workspace root):

    cargo build --release -p pencilbox-cli
    python3 -m venv target/cpsat-venv && target/cpsat-venv/bin/pip install ortools

Usage:

    scripts/genre-bench.py [--rounds 3] [--seeds 1-20] [--difficulty hard] [--gen-timeout S]
        [--cpsat-timeout S] [--json OUT] [--per-instance] SET...

    SET is GENRE:RxC, optionally followed by generator settings and a difficulty:
    GENRE:RxC[:KEY=VALUE...][:d=DIFFICULTY], e.g.

    scripts/genre-bench.py snake:12x12 masyu:20x36 masyu:40x57:d=medium
    scripts/genre-bench.py starbattle:14x14:stars=3 nurikabe:20x36 nurikabe:40x57
    scripts/genre-bench.py --generate-only masyu:40x57     # make the set now, measure later

Targets (issue 25): Snake 12x12 < 20 ms, Star Battle 14x14 (K = 3) < 10 ms, Nurikabe and Masyu
20x36 < 100 ms and 40x57 < 1 s, per instance; other sizes have no target. The report per set:
every instance (with --per-instance) or the over-target / CP-SAT-faster ones, min / median / max
of each side, how many instances miss the target, how many CP-SAT solves faster, the totals and
their ratio, and the worst instance.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS_MS = {
    ("snake", "12x12"): 20,
    ("starbattle", "14x14"): 10,
    ("nurikabe", "20x36"): 100,
    ("masyu", "20x36"): 100,
    ("nurikabe", "40x57"): 1000,
    ("masyu", "40x57"): 1000,
}


def parse_set(spec, difficulty):
    parts = spec.split(":")
    if len(parts) < 2:
        sys.exit(f"bad set {spec!r}: expected GENRE:RxC")
    genre, size, settings = parts[0], parts[1], []
    for p in parts[2:]:
        if p.startswith("d="):
            difficulty = p[2:]
        else:
            settings.append(p)
    name = f"{genre}-{size}" + "".join(f"-{s.replace('=', '')}" for s in settings)
    if difficulty != "hard":
        name += f"-{difficulty}"
    return dict(genre=genre, size=size, settings=settings, difficulty=difficulty, name=name,
                target=TARGETS_MS.get((genre, size)))


def seeds_of(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def generate(binary, s, seeds, out_dir, timeout):
    """Makes the set's puzzles that are missing; returns {seed: seconds or None (reused)}."""
    os.makedirs(out_dir, exist_ok=True)
    log_path = os.path.join(out_dir, "generate.json")
    log = json.load(open(log_path)) if os.path.exists(log_path) else {}
    for seed in seeds:
        txt = os.path.join(out_dir, f"s{seed:02}.txt")
        ans = os.path.join(out_dir, f"s{seed:02}.ans")
        cmd = [binary, "generate", s["genre"], "--size", s["size"], "--seed", str(seed),
               "--difficulty", s["difficulty"], "--answer", ans]
        for kv in s["settings"]:
            cmd += ["--set", kv]
        key = str(seed)
        # The time limit is not part of what makes the puzzle: a set made with one is reused.
        shown = " ".join(["pencilbox"] + cmd[1:])
        if timeout:
            cmd += ["--timeout", str(timeout)]
        if os.path.exists(txt) and os.path.getsize(txt) > 0 and log.get(key, {}).get("command") == shown:
            continue
        t = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True)
        secs = time.perf_counter() - t
        if r.returncode != 0:
            print(f"  {s['name']} seed {seed}: generation failed after {secs:.1f} s: {r.stderr.strip()}",
                  file=sys.stderr)
            for f in (txt, ans):
                if os.path.exists(f):
                    os.remove(f)
            log[key] = dict(command=shown, seconds=round(secs, 2), failed=r.stderr.strip())
        else:
            with open(txt, "w") as f:
                f.write(r.stdout)
            log[key] = dict(command=shown, seconds=round(secs, 2))
            print(f"  {s['name']} seed {seed}: generated in {secs:.1f} s", file=sys.stderr)
        with open(log_path, "w") as f:
            json.dump(log, f, indent=1)
    return log


def run_pencilbox(binary, d, timeout):
    cmd = [binary, "bench", "-f", "json", "--limit", "2", d]
    if timeout:
        cmd += ["--timeout", str(timeout)]
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if r.returncode not in (0, 1, 3):
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()}")
    out = {}
    for i in json.loads(r.stdout)["instances"]:
        ok = i["status"] == "solved" and i.get("solutions") == 1 and i.get("complete") is True
        out[os.path.basename(i["file"])] = dict(
            ms=i["elapsed_ns"] / 1e6, nodes=i["nodes"], unique=ok, matches=i.get("matches_answer"),
            status=i["status"], solutions=i.get("solutions"))
    return out, wall


def run_cpsat(python, d, timeout):
    cmd = [python, os.path.join(ROOT, "scripts", "cpsat-genres.py"), "--json", "--timeout", str(timeout), d]
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()}")
    out = {}
    for line in r.stdout.splitlines():
        i = json.loads(line)
        out[os.path.basename(i["file"])] = dict(ms=i["seconds"] * 1e3, status=i["status"], answer=i["answer"])
    return out, wall


def keep_min(best, new):
    for f, v in new.items():
        if f not in best or v["ms"] < best[f]["ms"]:
            best[f] = v


def fmt(ms):
    return f"{ms:.2f}" if ms < 100 else f"{ms:.0f}"


def report(s, pb, cs, walls, per_instance):
    files = sorted(pb)
    target = s["target"]
    bad = []
    for f in files:
        if not pb[f]["unique"] or pb[f]["matches"] is False:
            bad.append(f"{f}: pencilbox {pb[f]['status']}, solutions {pb[f]['solutions']}, answer {pb[f]['matches']}")
        c = cs.get(f)
        if c is None or c["status"] != "unique":
            bad.append(f"{f}: CP-SAT {c['status'] if c else 'missing'}")
    title = f"{s['name']} ({len(files)} instances, generate --difficulty {s['difficulty']}"
    title += "".join(f" --set {kv}" for kv in s["settings"]) + ")"
    title += f", target {target} ms" if target else ", no target"
    print(f"\n## {title}\n")
    print("| instance | pencilbox ms | nodes | CP-SAT ms | CP-SAT / pencilbox |")
    print("|---|---:|---:|---:|---:|")
    over = [f for f in files if target and pb[f]["ms"] >= target]
    slower = [f for f in files if f in cs and cs[f]["ms"] < pb[f]["ms"]]
    for f in files:
        if not (per_instance or f in over or f in slower):
            continue
        c = cs.get(f, dict(ms=float("nan")))
        flags = (" (over target)" if f in over else "") + (" (CP-SAT faster)" if f in slower else "")
        print(f"| {f}{flags} | {fmt(pb[f]['ms'])} | {pb[f]['nodes']} | {fmt(c['ms'])} | {c['ms'] / pb[f]['ms']:.1f}× |")
    p = [pb[f]["ms"] for f in files]
    c = [cs[f]["ms"] for f in files if f in cs]
    ratios = [cs[f]["ms"] / pb[f]["ms"] for f in files if f in cs]
    print(f"| min / median / max | {fmt(min(p))} / {fmt(statistics.median(p))} / {fmt(max(p))} | "
          f"| {fmt(min(c))} / {fmt(statistics.median(c))} / {fmt(max(c))} | "
          f"{min(ratios):.1f}× / {statistics.median(ratios):.1f}× / {max(ratios):.1f}× |")
    print(f"| total (sum per instance) | {fmt(sum(p))} | {sum(pb[f]['nodes'] for f in files)} | {fmt(sum(c))} | "
          f"{sum(c) / sum(p):.1f}× |")
    print(f"| whole command (min of rounds) | {fmt(walls[0] * 1e3)} | | {fmt(walls[1] * 1e3)} | "
          f"{walls[1] / walls[0]:.1f}× |")
    worst = max(files, key=lambda f: pb[f]["ms"])
    print(f"\nover target: {len(over)}/{len(files)}" + (f" ({', '.join(over)})" if over else "")
          + f"; CP-SAT faster: {len(slower)}/{len(files)}" + (f" ({', '.join(slower)})" if slower else "")
          + f"; worst instance for pencilbox: {worst} {fmt(pb[worst]['ms'])} ms"
          f" ({pb[worst]['nodes']} nodes; CP-SAT {fmt(cs.get(worst, dict(ms=float('nan')))['ms'])} ms)")
    for b in bad:
        print(f"DISAGREEMENT {b}")
    return dict(set=s, pencilbox=pb, cpsat={f: dict(ms=v["ms"], status=v["status"]) for f, v in cs.items()},
                wall_ms=[w * 1e3 for w in walls], over=over, cpsat_faster=slower, bad=bad)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sets", nargs="+", metavar="SET")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "pencilbox"))
    ap.add_argument("--python", default=os.path.join(ROOT, "target", "cpsat-venv", "bin", "python"))
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "genre-bench"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seeds", default="1-20")
    ap.add_argument("--difficulty", default="hard")
    ap.add_argument("--gen-timeout", type=float, default=0, help="seconds per generated puzzle (0: none)")
    ap.add_argument("--timeout", type=float, default=0, help="pencilbox seconds per instance (0: none)")
    ap.add_argument("--cpsat-timeout", type=float, default=600, help="CP-SAT seconds per instance")
    ap.add_argument("--generate-only", action="store_true")
    ap.add_argument("--per-instance", action="store_true", help="a row for every instance")
    ap.add_argument("--json", metavar="OUT", help="write all measurements here")
    a = ap.parse_args()
    sets = [parse_set(x, a.difficulty) for x in a.sets]
    seeds = seeds_of(a.seeds)
    results = []
    failed = False
    for s in sets:
        d = os.path.join(a.out, s["name"])
        log = generate(a.bin, s, seeds, d, a.gen_timeout)
        made = [k for k in map(str, seeds) if k in log and "failed" not in log[k]]
        secs = [log[k]["seconds"] for k in made]
        print(f"{s['name']}: {len(made)} of {len(seeds)} puzzles in {d}"
              + (f" (generation {min(secs):.1f}–{max(secs):.1f} s each)" if secs else ""), file=sys.stderr)
        if a.generate_only or not made:
            continue
        pb, cs, walls = {}, {}, [float("inf"), float("inf")]
        for r in range(a.rounds):
            p, wp = run_pencilbox(a.bin, d, a.timeout)
            keep_min(pb, p)
            c, wc = run_cpsat(a.python, d, a.cpsat_timeout)
            keep_min(cs, c)
            walls = [min(walls[0], wp), min(walls[1], wc)]
            print(f"  {s['name']} round {r + 1}: pencilbox {wp:.2f} s, CP-SAT {wc:.2f} s (whole commands)",
                  file=sys.stderr)
        res = report(s, pb, cs, walls, a.per_instance)
        failed |= bool(res["bad"])
        results.append(res)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dict(rounds=a.rounds, seeds=a.seeds, results=results), f, indent=1)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
