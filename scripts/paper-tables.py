#!/usr/bin/env python3
"""Regenerates the papers' tables side by side with ours (BENCHMARKS.md, "The papers' tables").

    cargo build --release -p pencilbox-cli -p pencilbox-pathpuzzle --examples
    scripts/paper-tables.py [--rounds 10] [--cpp]

Prints markdown:

1. Suguru, Table 1 of the paper (per grid size: instances, minimum, maximum and average time
   of the authors' C++ Algorithm 2, ms) next to our `paper` (Algorithm 2 as published) and our
   default (`fast`) on `../shared/data/suguru/janko`: per size the minimum, maximum and average
   time and the nodes (and failures for `paper`).
2. Path, the per-letter running times of the paper's experiment (the authors' published data,
   exptData/runtime.xlsx of their repository: the average of three runs, ms, measured on
   Windows with a clock of about 1 ms resolution, which is why many letters read 0 or about 1)
   next to our `paper` and `fast`; with `--cpp`, also the authors' C++ built here by
   scripts/path-cpp-bench.sh and timed as the paper times it, and the ratio of our `paper`
   (solve only, in-process: target/release/examples/measure) to it. The two are interleaved:
   --rounds times (C++ then ours, 10 repetitions each), per-letter minimum of each.
3. Theorem 3 of the Path paper: per grid size, the largest `paper` tree (a full count) on the
   bundled unique puzzles against the bound (3^(mn+1) - 1) / 2.

Times are `pencilbox bench` (release binary; parse, solve and render per instance, in-process),
the minimum over --rounds rounds. The papers' figures come from other machines (Suguru: Intel
i7-10750H, g++ 12.2, Windows 10; Path: AMD Ryzen 5 3550H, g++ 6.3, Windows 11): compare the
shapes of the columns, not the absolute numbers. Exits 0 after printing a `skip:` line when
`../shared/data` is missing.
"""
import argparse
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "data"))
BIN = os.path.join(ROOT, "target", "release", "pencilbox")
MEASURE = os.path.join(ROOT, "target", "release", "examples", "measure")

# Table 1 of the Suguru paper: size -> (instances, min ms, max ms, average ms).
SUGURU_TABLE1 = {
    6: (42, 0.024, 3.676, 0.242),
    7: (24, 0.032, 0.597, 0.119),
    8: (52, 0.037, 470.481, 11.675),
    9: (24, 0.092, 21.497, 1.830),
    10: (38, 0.138, 3.859, 1.082),
}

# The Path paper's per-letter averages (ms), from the authors' exptData/runtime.xlsx (column
# "average" of three runs; the paper's text quotes M = 27.34 ms and the mean 3.02 ms).
PATH_LETTERS = {
    "a": 2.586, "b": 0, "c": 1.333, "d": 3.330, "e": 0.999, "f": 0.325, "g": 1.332,
    "h": 4.663, "i": 4.385, "j": 0.996, "k": 10.335, "l": 0, "m": 27.334, "n": 0.999,
    "o": 0.995, "p": 0, "q": 0.998, "r": 0.999, "s": 0, "t": 0.983, "u": 0, "v": 0,
    "w": 0.997, "x": 14.996, "y": 0, "z": 0,
}


def bench(args, rounds, algorithm=None, timeout=None):
    """`pencilbox bench -f json` on ARGS; per file: (ms, nodes, failures, status)."""
    cmd = [BIN, "bench", "-f", "json", "--repeat", str(rounds)]
    if algorithm:
        cmd += ["-a", algorithm]
    if timeout:
        cmd += ["--timeout", str(timeout)]
    out = subprocess.run(cmd + args, capture_output=True, text=True)
    if out.returncode not in (0, 3):
        sys.exit(f"{' '.join(cmd + args)} failed ({out.returncode}): {out.stderr.strip()}")
    rows = {}
    for i in json.loads(out.stdout)["instances"]:
        rows[os.path.basename(i["file"])] = (i["elapsed_ns"] / 1e6, i["nodes"], i["failures"], i["status"])
    return rows


def count(path, algorithm, timeout):
    """`pencilbox count -a ALGORITHM`: (nodes, complete)."""
    cmd = [BIN, "count", "-f", "json", "-a", algorithm, "--timeout", str(timeout), path]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode not in (0, 1, 3):
        sys.exit(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr.strip()}")
    d = json.loads(out.stdout)
    return d["stats"]["nodes"], d.get("complete", d.get("status") != "timeout")


def fmt(x, digits=3):
    return f"{x:.{digits}f}"


def group(n):
    return f"{n:,}".replace(",", " ")


def suguru_table(rounds):
    janko = os.path.join(SHARED, "suguru", "janko")
    paper = bench(["-p", "suguru", janko], rounds, "paper")
    default = bench(["-p", "suguru", janko], rounds)
    sizes = {}
    for name in paper:
        with open(os.path.join(janko, name)) as f:
            h, w = map(int, f.readline().split())
        assert h == w, name
        sizes.setdefault(h, []).append(name)
    print("| size | instances (paper / here) | paper's C++ min / max / avg ms | our `paper` min / max / avg ms "
          "| `paper` nodes (max) | `paper` failures | default (`fast`) min / max / avg ms | `fast` nodes |")
    print("|---|---|---|---|---|---|---|---|")
    tot = [0, 0, 0, 0.0, 0.0, 0]
    for size in sorted(sizes):
        names = sizes[size]
        pt = [paper[n][0] for n in names]
        ft = [default[n][0] for n in names]
        pn = [paper[n][1] for n in names]
        pf = sum(paper[n][2] for n in names)
        fnodes = sum(default[n][1] for n in names)
        assert all(paper[n][3] == "solved" and default[n][3] == "solved" for n in names)
        c, lo, hi, avg = SUGURU_TABLE1[size]
        print(f"| {size}×{size} | {c} / {len(names)} | {fmt(lo)} / {fmt(hi)} / {fmt(avg)} "
              f"| {fmt(min(pt))} / {fmt(max(pt))} / {fmt(sum(pt) / len(pt))} "
              f"| {group(sum(pn))} ({group(max(pn))}) | {group(pf)} "
              f"| {fmt(min(ft))} / {fmt(max(ft))} / {fmt(sum(ft) / len(ft))} | {group(fnodes)} |")
        tot = [tot[0] + c, tot[1] + len(names), tot[2] + sum(pn), tot[3] + sum(pt), tot[4] + sum(ft), tot[5] + pf]
    published_avg = sum(c * avg for c, _, _, avg in SUGURU_TABLE1.values()) / tot[0]
    print(f"| all | {tot[0]} / {tot[1]} | avg {fmt(published_avg)} "
          f"| total {fmt(tot[3])}, avg {fmt(tot[3] / tot[1])} | {group(tot[2])} | {group(tot[5])} "
          f"| total {fmt(tot[4])}, avg {fmt(tot[4] / tot[1])} | |")


def cpp_times(rounds, files):
    script = os.path.join(ROOT, "scripts", "path-cpp-bench.sh")
    out = subprocess.run([script, "--rounds", str(rounds)] + files, capture_output=True, text=True)
    if out.returncode != 0:
        print(f"skip: the authors' C++ ({out.stderr.strip()})", file=sys.stderr)
        return None
    res = {}
    for line in out.stdout.splitlines():
        name, us, status = line.split()
        assert status == "solved", line
        res[name] = float(us) / 1e3
    return res


def measure(rounds, files):
    """Our `paper`, solve only, in-process (the measure example): name -> ms."""
    if not os.path.exists(MEASURE):
        print(f"skip: {MEASURE} is not built (cargo build --release -p pencilbox-pathpuzzle --examples)",
              file=sys.stderr)
        return None
    out = subprocess.run([MEASURE, "--algorithms", "paper", "--reps", str(rounds)] + files,
                         capture_output=True, text=True, check=True)
    res = {}
    for line in out.stdout.splitlines():
        f = line.split()
        if f and f[0].endswith(".txt"):
            res[f[0]] = float(f[2])
    return res


def path_table(rounds, with_cpp):
    letters = os.path.join(SHARED, "path", "letters")
    files = [os.path.join(letters, f"{c}.txt") for c in PATH_LETTERS]
    paper = bench(["-p", "path"] + files, rounds, "paper")
    default = bench(["-p", "path"] + files, rounds)
    cpp = solve = None
    if with_cpp:
        # Interleaved: C++ then ours, `rounds` times, each keeping its per-letter minimum, so a
        # busy moment on a shared machine hurts both columns alike.
        for _ in range(rounds):
            c = cpp_times(10, files)
            m = measure(10, files) if c else None
            if not (c and m):
                cpp = solve = None
                break
            cpp = c if cpp is None else {k: min(v, cpp[k]) for k, v in c.items()}
            solve = m if solve is None else {k: min(v, solve[k]) for k, v in m.items()}
    head = "| letter | paper's C++, published ms | `paper` nodes | our `paper` ms | default (`fast`) ms | `fast` nodes |"
    line = "|---|---|---|---|---|---|"
    if cpp:
        head += " authors' C++ here, solve ms | our `paper` solve ms | `paper` / C++ |"
        line += "---|---|---|"
    print(head)
    print(line)
    tot = {"pub": 0.0, "pn": 0, "pt": 0.0, "ft": 0.0, "fn": 0, "cpp": 0.0, "solve": 0.0}
    ratios = []
    for c in PATH_LETTERS:
        n = f"{c}.txt"
        assert paper[n][3] == "solved" and default[n][3] == "solved", n
        row = (f"| {c.upper()} | {fmt(PATH_LETTERS[c])} | {group(paper[n][1])} | {fmt(paper[n][0], 4)} "
               f"| {fmt(default[n][0], 4)} | {default[n][1]} |")
        tot["pub"] += PATH_LETTERS[c]
        tot["pn"] += paper[n][1]
        tot["pt"] += paper[n][0]
        tot["ft"] += default[n][0]
        tot["fn"] += default[n][1]
        if cpp:
            r = solve[n] / cpp[n] if cpp[n] > 0 else float("nan")
            ratios.append(r)
            row += f" {fmt(cpp[n], 4)} | {fmt(solve[n], 4)} | {r:.2f}× |"
            tot["cpp"] += cpp[n]
            tot["solve"] += solve[n]
        print(row)
    row = (f"| all | {fmt(tot['pub'])} | {group(tot['pn'])} | {fmt(tot['pt'], 3)} | {fmt(tot['ft'], 3)} "
           f"| {tot['fn']} |")
    if cpp:
        row += f" {fmt(tot['cpp'], 3)} | {fmt(tot['solve'], 3)} | {tot['solve'] / tot['cpp']:.2f}× |"
    print(row)
    if cpp:
        print(f"\n`paper` / C++ per letter: min {min(ratios):.2f}×, max {max(ratios):.2f}×; "
              f"letters above 1.2×: {sum(1 for r in ratios if r > 1.2)} of 26.")


def theorem3_table(timeout):
    print("| size | puzzles | largest `paper` tree (count, nodes) | Theorem 3 bound (3^(mn+1) − 1) / 2 "
          "| log₃ of the largest tree | mn |")
    print("|---|---|---|---|---|---|")
    for size in range(6, 10):
        d = os.path.join(ROOT, "examples", "path", f"bench-{size}x{size}")
        files = sorted(f for f in os.listdir(d) if f.endswith(".txt"))
        largest, cut = 0, False
        for f in files:
            nodes, complete = count(os.path.join(d, f), "paper", timeout)
            cut |= not complete
            largest = max(largest, nodes)
        mn = size * size
        bound = (3 ** (mn + 1) - 1) // 2
        mark = "≥ " if cut else ""
        print(f"| {size}×{size} | {len(files)} | {mark}{group(largest)} | {bound:.3e} "
              f"| {mark}{math.log(largest, 3):.1f} | {mn} |")
    print(f"\n(`≥`: at least one count stopped at the {timeout} s limit; its nodes so far are shown.)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--cpp", action="store_true", help="also build and time the authors' Path C++")
    ap.add_argument("--theorem3-timeout", type=float, default=10.0)
    a = ap.parse_args()
    if not os.path.isdir(SHARED):
        print(f"skip: {SHARED} is not present (the shared data)", file=sys.stderr)
        return 0
    if not os.path.exists(BIN):
        sys.exit(f"{BIN} is missing: cargo build --release -p pencilbox-cli")
    print("### Suguru, Table 1 (`../shared/data/suguru/janko`)\n")
    suguru_table(a.rounds)
    print("\n### Path, the 26 letters (`../shared/data/path/letters`)\n")
    path_table(a.rounds, a.cpp)
    print("\n### Path, Theorem 3 (`examples/path/bench-NxN`)\n")
    theorem3_table(a.theorem3_timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
