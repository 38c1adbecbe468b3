#!/usr/bin/env python3
"""Regenerates the playground's bundled levels (crates/registry/levels/FAMILY.txt) after a
generator changes: every level is the output of the command in its `==` header line, run
again with the release binary. The header lines and the comments stay as they are.

Usage: scripts/regen-levels.py FAMILY...      (after `cargo build --release -p pencilbox-cli`)
"""
import os
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "pencilbox")


def main():
    for family in sys.argv[1:]:
        path = os.path.join(ROOT, "crates", "registry", "levels", f"{family}.txt")
        out, skipping = [], False
        for line in open(path, encoding="utf-8").read().splitlines():
            if line.startswith("== "):
                cmd = shlex.split(line.split("|")[2].strip())
                assert cmd[0] == "pencilbox", line
                text = subprocess.run([BIN] + cmd[1:], check=True, capture_output=True, text=True).stdout
                out += [line] + text.rstrip("\n").splitlines() + [""]
                skipping = True
            elif line.startswith("#") or not skipping:
                out.append(line)
        open(path, "w", encoding="utf-8").write("\n".join(out).rstrip("\n") + "\n")
        print(f"{path}: regenerated")


if __name__ == "__main__":
    main()
