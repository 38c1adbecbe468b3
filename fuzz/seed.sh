#!/usr/bin/env bash
# Builds the starting corpora fuzz/corpus/<target>/ from the repository's own examples/ (small text
# files only) and the hand-made seeds in fuzz/seeds/<target>/. Safe to re-run: libFuzzer keeps what it
# has added to the corpus directories.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ex="$here/../examples"
small() { find "$1" -type f -size -20k ! -name '*.png' -print0; }

for t in suguru path sudoku verify settings serve batch entries; do mkdir -p "$here/corpus/$t"; done
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

# settings: HEADER\nPUZZLE, the header naming the family, an algorithm and --set settings.
with() {
    local header=$1 puzzle=$2
    { printf '%s\n' "$header"; cat "$ex/$puzzle"; } > "$here/corpus/settings/$(echo "$header-$puzzle" | tr '/;=,' '____')"
}
for f in 4x4.txt 6x6.txt 9x9.txt batch-9x9.txt 12x12.txt; do
    with "puzzle=sudoku" "sudoku/$f"
    with "puzzle=sudoku;algorithm=backtrack" "sudoku/$f"
done
with "puzzle=sudoku;block=2x3" sudoku/6x6.txt
with "puzzle=sudoku;block=3x2;algorithm=backtrack" sudoku/6x6.txt
with "puzzle=sudoku;block=3x4" sudoku/12x12.txt
for f in example-6x6.txt paper/fig5-3x3.txt paper/fig1-6x6.txt bench-6x6/partial-01.txt; do
    with "puzzle=path;algorithm=paper" "path/$f"
    with "puzzle=path;algorithm=extend;prune=none" "path/$f"
    with "puzzle=path;algorithm=extend;prune=-parity,-deadend" "path/$f"
    with "puzzle=path;algorithm=extend;prune=reach,owed" "path/$f"
    with "puzzle=path;algorithm=extend;prune=blocks-min=0,bitboards=off,-cuts" "path/$f"
    with "puzzle=path;rules=none" "path/$f"
    with "puzzle=path;rules=-probe,branch=links" "path/$f"
    with "puzzle=path;rules=connect,cuts,slice=1" "path/$f"
done
for f in example-6x6.in paper-fig1-3x3.in paper-fig5-1x6-hintless.in paper-fig6-1x6-hints.in theorem1-2x3-unsolvable.in; do
    for a in fast paper linear; do with "puzzle=suguru;algorithm=$a" "suguru/$f"; done
done
with "algorithm=paper" suguru/example-6x6.in

# serve, batch, entries: the hand-made seeds only (fuzz/seeds/<target>/).
for t in suguru path sudoku verify settings serve batch entries; do
    [ -d "$here/seeds/$t" ] && cp "$here/seeds/$t"/* "$here/corpus/$t/"
    echo "corpus/$t: $(ls "$here/corpus/$t" | wc -l) files"
done
