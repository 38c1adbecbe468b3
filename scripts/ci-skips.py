#!/usr/bin/env python3
"""Skipped checks in CI (`.ci/run`): collect them in one log, print one summary line, and fail
a CI run (CI=true) on a skip that is not on the allow-list.

The Rust tests write one line per skipped check to the file named by PENCILBOX_SKIP_LOG
(`pencilbox_core::testing::skip_for`: `KIND<TAB>TEST<TAB>WHAT`, KIND `shared-data` or
`missing`); `pytest` lists its skips with `-rs` (`SKIPPED [N] FILE:LINE: REASON`), which
`pytest LOG OUT` appends to the same log as KIND `python`.

The allow-list (docs/testing.md, "Skipped checks") has one entry: `shared-data` skips, when
`../shared/data` is absent beside the checkout (a clone of the repository alone lacks it).
With it present, or for any other kind (a missing tool, browser or build, a Python skip), a
skip under CI=true fails the run.

    ci-skips.py pytest PYTEST_OUTPUT SKIP_LOG
    ci-skips.py summary SKIP_LOG [--shared-data DIR] [--ci]
"""

import collections
import os
import re
import sys

ALLOW_LIST = "shared-data, when ../shared/data is absent"


def from_pytest(output, log):
    """Appends pytest's `-rs` skip lines to the log; returns how many skips."""
    n = 0
    with open(output, encoding="utf-8", errors="replace") as f, open(log, "a", encoding="utf-8") as out:
        for line in f:
            m = re.match(r"SKIPPED \[(\d+)\] (\S+): (.*)", line.strip())
            if m:
                for _ in range(int(m.group(1))):
                    out.write(f"python\t{m.group(2)}\t{m.group(3)}\n")
                    n += 1
    return n


def summary(log, shared_data, ci):
    """Prints the summary line and the allow-list; returns the exit code."""
    shared_absent = not os.path.isdir(shared_data)
    rows = []
    if os.path.exists(log):
        with open(log, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.strip():
                    parts = line.rstrip("\n").split("\t", 2)
                    rows.append((parts + ["", "", ""])[:3])
    allowed = [r for r in rows if r[0] == "shared-data" and shared_absent]
    refused = [r for r in rows if not (r[0] == "shared-data" and shared_absent)]
    kinds = collections.Counter(r[0] for r in rows)
    detail = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none"
    print(f"skipped: {len(rows)} checks ({detail}); allowed: {len(allowed)}; not allowed: {len(refused)} (list: {log})")
    state = "absent here" if shared_absent else "present here: no skip allowed"
    print(f"allow-list: {ALLOW_LIST} ({state})")
    for kind, test, what in refused[:20]:
        print(f"  not allowed: {kind}: {test}: {what}")
    if len(refused) > 20:
        print(f"  ... and {len(refused) - 20} more")
    if refused and ci:
        print(f"error: {len(refused)} skipped checks are not on the allow-list (CI=true)", file=sys.stderr)
        return 1
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "pytest":
        from_pytest(argv[2], argv[3])
        return 0
    if len(argv) >= 3 and argv[1] == "summary":
        shared = os.path.join("..", "shared", "data")
        ci = os.environ.get("CI") == "true"
        rest = argv[3:]
        while rest:
            if rest[0] == "--shared-data" and len(rest) > 1:
                shared, rest = rest[1], rest[2:]
            elif rest[0] == "--ci":
                ci, rest = True, rest[1:]
            else:
                print(f"unknown argument {rest[0]}", file=sys.stderr)
                return 2
        return summary(argv[2], shared, ci)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
