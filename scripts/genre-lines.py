#!/usr/bin/env python3
"""Counts the code lines of genre crates, as issue 25 measures them: no blank lines, no
comments (`//`, `//!`, `///`, `/* */`), no tests (`#[cfg(test)]` modules, `tests/`, benches and
examples). "model" is the part of `src/` before the `impl Puzzle for` block (or the file
`model.rs` when the crate has one); "crate" is all of `src/`. A generator in its own file
(`src/generate.rs`) is neither: it is printed apart.

Usage: scripts/genre-lines.py crates/masyu crates/snake ...   (exit 1 when over 150 / 300)
"""
import re
import sys
from pathlib import Path


def code_lines(text):
    text = re.split(r"#\[cfg\(test\)\]", text)[0]
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = []
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("//"):
            continue
        out.append(s)
    return out


def main():
    bad = False
    for crate in sys.argv[1:]:
        src = Path(crate) / "src"
        all_files = sorted(src.rglob("*.rs"))
        files = [f for f in all_files if f.name != "generate.rs"]
        generator = sum(len(code_lines(f.read_text())) for f in all_files if f.name == "generate.rs")
        total = 0
        model = 0
        for f in files:
            lines = code_lines(f.read_text())
            total += len(lines)
            if f.name == "model.rs":
                model += len(lines)
        if model == 0:
            # No model.rs: the model is what comes before `impl Puzzle for`.
            for f in files:
                text = f.read_text()
                head = text.split("impl Puzzle for")[0]
                model += len(code_lines(head))
        flag = "" if model <= 150 and total <= 300 else "  OVER"
        bad |= bool(flag)
        print(f"{crate}: model {model}, crate {total}, generator {generator}{flag}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
