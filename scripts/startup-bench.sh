#!/bin/sh
# Whole-process start-up: the wall time from spawning a process to reaping it, for /bin/true,
# the Suguru paper's own C++ solver (github.com/abcqwq/suguru-backtrack, codes/solver.cpp,
# built here with g++ -O2, statically and dynamically linked) and each pencilbox binary given
# (`--version`, and `solve` on a 6×6 Suguru), on the same instance.
#
#   scripts/startup-bench.sh [--rounds N] [--file PUZZLE] [LABEL=]BINARY...
#       (default: target/release/pencilbox; PUZZLE default examples/suguru/example-6x6.in)
#
# The runs are interleaved: each round runs every command once, in an order rotated from round
# to round, so a noisy moment on a shared machine hurts every command alike. Output goes to
# /dev/null (the C++ reads the puzzle on standard input, pencilbox from the file). Prints, per
# command, the minimum and the median over N rounds (default 500) in microseconds, the
# minimum above /bin/true's, and the minimum as a multiple of the static C++'s.
#
# Nothing of the authors' code is kept in this repository: solver.cpp is fetched from GitHub at
# a pinned commit (or taken from $SUGURU_CPP_REPO, a local clone). Environment: SUGURU_CPP_REPO,
# CXX (default g++), CC (default cc), WORK (default /tmp/pencilbox-startup).
set -eu

COMMIT=914727835bd20e62fc3e93cde850299c1f34b07d
URL=https://github.com/abcqwq/suguru-backtrack
WORK=${WORK:-/tmp/pencilbox-startup}
CXX=${CXX:-g++}
CC=${CC:-cc}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=500
FILE=$ROOT/examples/suguru/example-6x6.in
while [ $# -gt 0 ]; do
    case $1 in
    --rounds) ROUNDS=$2; shift 2 ;;
    --file) FILE=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -eq 0 ] && set -- "$ROOT/target/release/pencilbox"

mkdir -p "$WORK"
if [ -n "${SUGURU_CPP_REPO:-}" ]; then
    git --git-dir="$SUGURU_CPP_REPO" show "$COMMIT:codes/solver.cpp" >"$WORK/solver.new.cpp" 2>/dev/null ||
        git -C "$SUGURU_CPP_REPO" show "$COMMIT:codes/solver.cpp" >"$WORK/solver.new.cpp"
    if cmp -s "$WORK/solver.new.cpp" "$WORK/solver.cpp"; then rm "$WORK/solver.new.cpp"; else mv "$WORK/solver.new.cpp" "$WORK/solver.cpp"; fi
elif [ ! -s "$WORK/solver.cpp" ]; then
    curl -fsSL "https://raw.githubusercontent.com/abcqwq/suguru-backtrack/$COMMIT/codes/solver.cpp" \
        -o "$WORK/solver.cpp" || {
        echo "error: cannot fetch $URL at $COMMIT; set SUGURU_CPP_REPO to a clone" >&2
        exit 2
    }
fi
if [ ! -x "$WORK/solver-static" ] || [ "$WORK/solver.cpp" -nt "$WORK/solver-static" ]; then
    "$CXX" -O2 -static -o "$WORK/solver-static" "$WORK/solver.cpp"
    "$CXX" -O2 -o "$WORK/solver-dynamic" "$WORK/solver.cpp"
fi

cat >"$WORK/spawn.new.c" <<'EOF'
/* spawn ROUNDS -- LABEL STDIN|- CMD ARGS... ;; LABEL STDIN|- CMD ARGS... ;; ...
   Interleaved rounds of posix_spawn .. waitpid, stdout and stderr to /dev/null. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
extern char **environ;
typedef struct { char *label, *in, **argv; double *t; } Cmd;
static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
int main(int argc, char **argv) {
    int rounds = atoi(argv[1]), n = 0, i = 3;
    Cmd cmds[64];
    while (i < argc && n < 64) {
        Cmd *c = &cmds[n++];
        c->label = argv[i++];
        c->in = argv[i++];
        c->argv = &argv[i];
        while (i < argc && strcmp(argv[i], ";;")) i++;
        if (i < argc) argv[i++] = NULL;
        c->t = calloc(rounds, sizeof(double));
    }
    int devnull = open("/dev/null", O_WRONLY);
    for (int r = 0; r < rounds; r++)
        for (int k0 = 0; k0 < n; k0++) {
            Cmd *c = &cmds[(k0 + r) % n];
            posix_spawn_file_actions_t fa;
            posix_spawn_file_actions_init(&fa);
            if (strcmp(c->in, "-")) posix_spawn_file_actions_addopen(&fa, 0, c->in, O_RDONLY, 0);
            posix_spawn_file_actions_adddup2(&fa, devnull, 1);
            posix_spawn_file_actions_adddup2(&fa, devnull, 2);
            struct timespec a, b;
            pid_t pid;
            int status;
            clock_gettime(CLOCK_MONOTONIC, &a);
            if (posix_spawn(&pid, c->argv[0], &fa, NULL, c->argv, environ)) {
                perror(c->argv[0]);
                return 2;
            }
            waitpid(pid, &status, 0);
            clock_gettime(CLOCK_MONOTONIC, &b);
            posix_spawn_file_actions_destroy(&fa);
            if (r == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
                fprintf(stderr, "warning: %s did not exit with 0\n", c->label);
            c->t[r] = (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3;
        }
    double base = 0, cpp = 0;
    for (int k = 0; k < n; k++) {
        qsort(cmds[k].t, rounds, sizeof(double), by_value);
        if (!strcmp(cmds[k].label, "/bin/true")) base = cmds[k].t[0];
        if (!strcmp(cmds[k].label, "C++ static")) cpp = cmds[k].t[0];
    }
    printf("| command | min µs | median µs | min − /bin/true | × C++ static |\n|---|---:|---:|---:|---:|\n");
    for (int k = 0; k < n; k++)
        printf("| %s | %.0f | %.0f | %+.0f | %.2f× |\n", cmds[k].label, cmds[k].t[0], cmds[k].t[rounds / 2],
               cmds[k].t[0] - base, cpp > 0 ? cmds[k].t[0] / cpp : 0);
    return 0;
}
EOF
if ! cmp -s "$WORK/spawn.new.c" "$WORK/spawn.c" || [ ! -x "$WORK/spawn" ]; then
    mv -f "$WORK/spawn.new.c" "$WORK/spawn.c"
    "$CC" -O2 -o "$WORK/spawn" "$WORK/spawn.c"
fi
rm -f "$WORK/spawn.new.c"

NAME=$(basename "$FILE")
set -- "$@" --end
first=1
for arg in "$@"; do
    if [ "$first" = 1 ]; then
        set -- "$ROUNDS" -- /bin/true - /bin/true ';;' \
            "C++ static" "$FILE" "$WORK/solver-static" ';;' \
            "C++ dynamic" "$FILE" "$WORK/solver-dynamic"
        first=0
    fi
    [ "$arg" = --end ] && break
    case $arg in
    *=*) label=${arg%%=*}; bin=${arg#*=} ;;
    *) label=$(basename "$arg"); bin=$arg ;;
    esac
    set -- "$@" ';;' "$label --version" - "$bin" --version ';;' "$label solve $NAME" - "$bin" solve "$FILE"
done
"$WORK/spawn" "$@"
