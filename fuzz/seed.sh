#!/usr/bin/env bash
# Builds the starting corpora fuzz/corpus/<target>/ from the repository's own examples/ (small text
# files only) and the hand-made seeds in fuzz/seeds/<target>/. Safe to re-run: libFuzzer keeps what it
# has added to the corpus directories.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ex="$here/../examples"
small() { find "$1" -type f -size -20k ! -name '*.png' -print0; }

for t in suguru path sudoku verify; do mkdir -p "$here/corpus/$t"; done
for t in suguru path sudoku; do
    # Puzzles and their answer files (answers read as puzzles exercise the error paths).
    while IFS= read -r -d '' f; do
        cp "$f" "$here/corpus/$t/ex-$(echo "${f#"$ex"/}" | tr / _)"
    done < <(small "$ex/$t")
done

# verify: PUZZLE 0xFF SOLUTION, from every puzzle with an answer file next to it (x.in+x.ans, x.txt+x.sol).
pair() {
    local puzzle=$1 answer=$2 name
    name="pair-$(echo "${puzzle#"$ex"/}" | tr / _)"
    { cat "$puzzle"; printf '\377'; cat "$answer"; } > "$here/corpus/verify/$name"
}
while IFS= read -r -d '' f; do
    case "$f" in
        *.in) [ -f "${f%.in}.ans" ] && pair "$f" "${f%.in}.ans" ;;
        *.txt) [ -f "${f%.txt}.sol" ] && pair "$f" "${f%.txt}.sol" ;;
    esac
done < <(small "$ex")

for t in suguru path sudoku verify; do
    [ -d "$here/seeds/$t" ] && cp "$here/seeds/$t"/* "$here/corpus/$t/"
    echo "corpus/$t: $(ls "$here/corpus/$t" | wc -l) files"
done
