#!/usr/bin/env bash
# Same-run comparison of tdoku with pencilbox's Sudoku algorithms (BENCHMARKS.md, "Sudoku: the
# bit-parallel default").
#
# Usage: [PASSES=5] [EXTRA="FILE..."] scripts/tdoku-bench.sh [TDOKU] [ROUNDS]
#   TDOKU   a tdoku checkout, or its bare git directory (the `fetch` tool's snapshot; default
#           /work/.mirror/t-dillon+tdoku/repo). Only CMakeLists.txt, src/, include/, other/ and test/
#           (which its CMakeLists.txt names) are used;
#           nothing is copied into this repository.
#   ROUNDS  rounds per measurement (default 5); the minimum is kept.
#   PASSES  solve-only passes over a file within one process, per round (default 5; the
#           fastest pass counts, for tdoku and for ours alike, so both are timed warm; 1 times
#           a cold first pass, as before 2026-11-28).
#   EXTRA   more puzzle files (one 81-character puzzle a line, such as the full list of
#           49,151 17-clue puzzles), timed solve-only with tdoku and `bits` only.
# Needs cmake and a C/C++ compiler (not needed by CI or the tests). Builds tdoku's static
# library into /tmp/tdoku-bench (-O3 -march=native, tdoku's defaults) and a small C driver that
# times tdoku's solve (limit 1) over a file after reading it, like tdoku's run_benchmark (the
# fastest of PASSES passes). Then,
# round by round (interleaved): tdoku, then our solve-only timing (examples/solve_only.rs: every
# puzzle parsed first; one process per algorithm) of bits, backtrack and deduce, then
# `pencilbox bench` (parse, solve and
# render per instance, in-process) with each algorithm. Prints µs per puzzle, min over rounds.
# Sets: top95, hardest and sudoku17-first5000 in ../shared/data/sudoku.
set -euo pipefail
cd "$(dirname "$0")/.."
TDOKU=${1:-/work/.mirror/t-dillon+tdoku/repo}
ROUNDS=${2:-5}
WORK=/tmp/tdoku-bench
DATA=../shared/data/sudoku
SETS="top95.txt hardest.txt sudoku17-first5000.txt"
ALGS="bits backtrack deduce"

for tool in cmake cc c++ python3; do
    command -v "$tool" >/dev/null || { echo "tdoku-bench: $tool is needed" >&2; exit 2; }
done
for s in $SETS; do
    [ -f "$DATA/$s" ] || { echo "tdoku-bench: $DATA/$s is missing" >&2; exit 2; }
done

mkdir -p "$WORK"
rm -rf "$WORK/src"
mkdir -p "$WORK/src"
if [ -f "$TDOKU/CMakeLists.txt" ]; then
    cp -r "$TDOKU/CMakeLists.txt" "$TDOKU/src" "$TDOKU/include" "$TDOKU/other" "$TDOKU/test" "$WORK/src/"
elif git --git-dir="$TDOKU" rev-parse HEAD >/dev/null 2>&1; then
    git --git-dir="$TDOKU" archive HEAD CMakeLists.txt src include other test 2>/dev/null | tar -x -C "$WORK/src"
else
    echo "tdoku-bench: $TDOKU is neither a tdoku checkout nor its git directory" >&2
    exit 2
fi
cmake -S "$WORK/src" -B "$WORK/build" -DCMAKE_BUILD_TYPE=Release >"$WORK/cmake.log"
make -C "$WORK/build" tdoku_static >"$WORK/make.log"

cat >"$WORK/driver.c" <<'C'
/* Times tdoku's solve (limit 1) over a file of 81-character puzzles, read before the clock:
   the fastest of argv[2] passes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tdoku.h"
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 2; }
    static char puzzles[100000][82];
    char line[256], sol[81];
    int n = 0, passes = argc > 2 ? atoi(argv[2]) : 1;
    while (n < 100000 && fgets(line, sizeof line, f)) {
        if (strlen(line) < 81) continue;
        for (int i = 0; i < 81; i++) puzzles[n][i] = (line[i] == '0') ? '.' : line[i];
        puzzles[n][81] = '\n';
        n++;
    }
    struct timespec a, b;
    size_t guesses = 0, total = 0;
    double best = 1e300;
    for (int p = 0; p < passes; p++) {
        total = 0;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (int i = 0; i < n; i++) {
            if (TdokuSolverDpllTriadSimd(puzzles[i], 1, 0, sol, &guesses) != 1) { fprintf(stderr, "unsolved %d\n", i); return 1; }
            total += guesses;
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
        double us = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3;
        if (us < best) best = us;
    }
    printf("%d %.3f %zu\n", n, best / n, total);
    return 0;
}
C
cc -O2 -I"$WORK/src/include" "$WORK/driver.c" "$WORK/build/libtdoku_static.a" -lstdc++ -lm -o "$WORK/driver"

cargo build --release -q -p pencilbox-cli
cargo build --release -q -p pencilbox-sudoku-nishio --example solve_only

for e in ${EXTRA:-}; do
    [ -f "$e" ] || { echo "tdoku-bench: $e is missing" >&2; exit 2; }
done

WORK="$WORK" DATA="$DATA" SETS="$SETS" ALGS="$ALGS" ROUNDS="$ROUNDS" PASSES="${PASSES:-5}" EXTRA="${EXTRA:-}" python3 - <<'PY'
import json, os, subprocess
work, data, rounds = os.environ["WORK"], os.environ["DATA"], int(os.environ["ROUNDS"])
sets, algs = os.environ["SETS"].split(), os.environ["ALGS"].split()
passes, extra = os.environ["PASSES"], os.environ["EXTRA"].split()
best, nodes = {}, {}
def keep(key, us):
    best[key] = min(best.get(key, float("inf")), us)
for _ in range(rounds):
    for s in sets + extra:
        path = s if s in extra else f"{data}/{s}"
        run_algs = ["bits"] if s in extra else algs
        n, us, guesses = subprocess.run([f"{work}/driver", path, passes], check=True, capture_output=True, text=True).stdout.split()
        keep((s, "tdoku", "solve"), float(us))
        nodes[(s, "tdoku")] = guesses
        # One process per algorithm, so that its passes follow each other as tdoku's do.
        for alg in run_algs:
            out = subprocess.run(["target/release/examples/solve_only", "--rounds", passes, alg, "--", path],
                                 check=True, capture_output=True, text=True).stdout
            _, _, _, us, k = out.split()
            keep((s, alg, "solve"), float(us))
            nodes[(s, alg)] = k
        if s in extra:
            continue
        for alg in algs:
            out = subprocess.run(["target/release/pencilbox", "bench", "-p", "sudoku", "-f", "json", "-a", alg, path],
                                 capture_output=True, text=True).stdout
            inst = json.loads(out)["instances"]
            keep((s, alg, "bench"), sum(i["elapsed_us"] for i in inst) / len(inst))
print(f"min of {rounds} rounds ({passes} passes each for solve-only), µs per puzzle")
print(f"{'set':<26}{'tdoku':>9}" + "".join(f"{a + ' solve':>17}{a + ' bench':>17}" for a in algs) + f"{'bits/tdoku':>12}")
for s in sets:
    t = best[(s, "tdoku", "solve")]
    row = f"{s:<26}{t:>9.2f}"
    for a in algs:
        row += f"{best[(s, a, 'solve')]:>17.2f}{best[(s, a, 'bench')]:>17.2f}"
    print(row + f"{best[(s, 'bits', 'solve')] / t:>11.2f}x")
for s in extra:
    t = best[(s, "tdoku", "solve")]
    print(f"{s:<26}{t:>9.2f}{best[(s, 'bits', 'solve')]:>17.2f}{'(bits only)':>17}{best[(s, 'bits', 'solve')] / t:>11.2f}x")
print("tdoku guesses / bits nodes (root included): " + ", ".join(f"{s.split('/')[-1]} {nodes[(s, 'tdoku')]} / {nodes[(s, 'bits')]}" for s in sets + extra))
PY
