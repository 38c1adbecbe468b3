#!/usr/bin/env python3
"""Writes tests/paper-pins.txt: the search-tree size of `paper` on the papers' figures, the
bundled examples and the shared data sets, one instance a line:

    FAMILY  PATH  NODES  FAILURES

PATH is relative to the repository (`examples/...`) or to the shared data (`shared:...`).
`tests/paper_pins.rs` re-solves every listed instance and requires the same counts, so any
change to the order in which `paper` explores (Suguru's chi sets, Path's directions) fails a
test. The counts were checked equal to the authors' own C++ (instrumented to count nodes) when
`paper` was written; regenerate only after such a check:

    cargo build --release -p pencilbox-cli && scripts/paper-pins.py > tests/paper-pins.txt
"""
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared", "data")
BIN = os.path.join(ROOT, "target", "release", "pencilbox")

SETS = [
    ("suguru", "examples/suguru/*.in", 20),
    ("suguru", "shared:suguru/paper/*.in", 20),
    ("suguru", "shared:suguru/janko/*.in", 20),
    ("path", "examples/path/*.txt", 20),
    ("path", "examples/path/paper/*.txt", 20),
    ("path", "examples/path/bench-6x6/*.txt", 20),
    ("path", "shared:path/paper/*.txt", 20),
    ("path", "shared:path/letters/*.txt", 20),
]


def files(pattern):
    if pattern.startswith("shared:"):
        base, rel = SHARED, pattern[len("shared:"):]
        return [("shared:" + os.path.relpath(f, SHARED), f) for f in sorted(glob.glob(os.path.join(base, rel)))]
    return [(os.path.relpath(f, ROOT), f) for f in sorted(glob.glob(os.path.join(ROOT, pattern)))]


def main():
    print("# family path nodes failures  (scripts/paper-pins.py; see tests/paper_pins.rs)")
    for family, pattern, timeout in SETS:
        for name, path in files(pattern):
            cmd = [BIN, "solve", "-p", family, "-a", "paper", "-f", "json", "--timeout", str(timeout), path]
            out = subprocess.run(cmd, capture_output=True, text=True)
            if out.returncode not in (0, 1):
                print(f"skipped {name}: exit {out.returncode}", file=sys.stderr)
                continue
            d = json.loads(out.stdout)
            if d.get("status") not in ("solved", "no solution"):
                print(f"skipped {name}: {d.get('status')}", file=sys.stderr)
                continue
            s = d["stats"]
            print(f"{family} {name} {s['nodes']} {s['failures']}")


if __name__ == "__main__":
    main()
