#!/bin/sh
# Builds the Path paper's own C++ solver (Algorithm 3, github.com/joshuagatizz/path-puzzles-
# backtracking-solver, codes/solver.cpp) with g++ -O2 in a temporary directory and times it per
# puzzle the way the paper does: its own steady_clock timer, started in main() after the input
# is read and stopped when the solution is found, before it is printed.
#
#   scripts/path-cpp-bench.sh [--rounds N] FILE...      (default: ../shared/data/path/letters/*.txt)
#
# Prints one line per file: `NAME MICROSECONDS STATUS`, the minimum over N rounds (default 20)
# of the authors' timer, STATUS `solved` or `none`. The rounds run in one process: a small
# harness written here includes the unmodified solver.cpp with `main` renamed and its `exit(0)`
# at the solution turned into a jump back to the harness, and resets the solver's globals before
# each round. Nothing of the authors' code is kept in this repository: the source is fetched
# from GitHub at a pinned commit (or taken from $PATH_CPP_REPO, a local clone of that repository).
#
# Environment: PATH_CPP_REPO (a clone), PATH_CPP_COMMIT (default the pinned one below),
# CXX (default g++), WORK (default /tmp/pencilbox-path-cpp).
set -eu

COMMIT=${PATH_CPP_COMMIT:-ee3e349b0dbcfcb273f0103fbfc975a8fa629eec}
URL=https://github.com/joshuagatizz/path-puzzles-backtracking-solver
WORK=${WORK:-/tmp/pencilbox-path-cpp}
CXX=${CXX:-g++}
ROUNDS=20
if [ "${1:-}" = "--rounds" ]; then
    ROUNDS=$2
    shift 2
fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
    DATA=$ROOT/../shared/data/path/letters
    if [ ! -d "$DATA" ]; then
        echo "skip: $DATA is not present (the shared data)" >&2
        exit 0
    fi
    set -- "$DATA"/*.txt
fi

mkdir -p "$WORK"
if [ -n "${PATH_CPP_REPO:-}" ]; then
    git --git-dir="$PATH_CPP_REPO" show "$COMMIT:codes/solver.cpp" >"$WORK/solver.new.cpp" 2>/dev/null ||
        git -C "$PATH_CPP_REPO" show "$COMMIT:codes/solver.cpp" >"$WORK/solver.new.cpp"
    if cmp -s "$WORK/solver.new.cpp" "$WORK/solver.cpp"; then
        rm "$WORK/solver.new.cpp"
    else
        mv "$WORK/solver.new.cpp" "$WORK/solver.cpp"
    fi
elif [ ! -s "$WORK/solver.cpp" ]; then
    curl -fsSL "https://raw.githubusercontent.com/joshuagatizz/path-puzzles-backtracking-solver/$COMMIT/codes/solver.cpp" \
        -o "$WORK/solver.cpp" || {
        echo "error: cannot fetch $URL at $COMMIT; set PATH_CPP_REPO to a clone" >&2
        exit 2
    }
fi

cat >"$WORK/harness.new.cpp" <<'EOF'
// Runs the authors' solver.cpp several times per input in one process (see path-cpp-bench.sh).
#include <bits/stdc++.h>
#include <csetjmp>
static std::jmp_buf authors_done;
static std::ostringstream authors_out;
// Their main() reads the input, starts the timer and calls traverseCell; at the solution,
// outputSolution() stops the timer, prints and calls exit(0). The solver's locals are plain
// pairs, so jumping out of the recursion skips no destructor.
#define main authors_main
#define exit(code) std::longjmp(authors_done, 1)
#define cout authors_out
#include "solver.cpp"
#undef main
#undef exit
#undef cout

int main(int argc, char **argv) {
    int rounds = std::atoi(argv[1]);
    for (int f = 2; f < argc; f++) {
        std::ifstream file(argv[f]);
        std::stringstream text;
        text << file.rdbuf();
        const std::string input = text.str();
        double best_us = 1e300;
        bool solved = false;
        for (int r = 0; r < rounds; r++) {
            cr.clear();
            cc.clear();
            A.clear();
            authors_out.str("");
            std::istringstream in(input);
            std::streambuf *old = std::cin.rdbuf(in.rdbuf());
            if (setjmp(authors_done) == 0) {
                authors_main();
                timeStop = steady_clock::now(); // no solution: the search returned
                solved = false;
            } else {
                solved = true;
            }
            std::cin.rdbuf(old);
            double us = duration_cast<nanoseconds>(timeStop - timeStart).count() / 1000.0;
            best_us = std::min(best_us, us);
        }
        const char *name = std::strrchr(argv[f], '/');
        std::printf("%s %.3f %s\n", name ? name + 1 : argv[f], best_us, solved ? "solved" : "none");
    }
    return 0;
}
EOF
# Rebuilt only when the harness or the solver changed.
if ! cmp -s "$WORK/harness.new.cpp" "$WORK/harness.cpp" || [ "$WORK/solver.cpp" -nt "$WORK/harness" ] ||
    [ ! -x "$WORK/harness" ]; then
    mv -f "$WORK/harness.new.cpp" "$WORK/harness.cpp"
    "$CXX" -O2 -std=c++17 -o "$WORK/harness" "$WORK/harness.cpp"
fi
rm -f "$WORK/harness.new.cpp"
"$WORK/harness" "$ROUNDS" "$@"
