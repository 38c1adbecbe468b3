#!/bin/bash
# Per-seed generation times: the minimum of 3 runs of each seed (wall clock, seconds), then
# the median and maximum over the seeds. Checks every puzzle with `count --limit 2`.
# Usage: scripts/gen-times.sh "starbattle --size 14x14 --set stars=3 --difficulty hard" 1 20
set -e
B=${B:-target/release/pencilbox}
args=$1; first=$2; last=$3
tmp=$(mktemp -d)
times=()
line=""
for s in $(seq "$first" "$last"); do
  best=""
  for run in 1 2 3; do
    /usr/bin/time -f "%e" -o "$tmp/t" $B generate $args --seed "$s" > "$tmp/p.txt"
    t=$(cat "$tmp/t")
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
  done
  $B count "$tmp/p.txt" --limit 2 | grep -q "^1 solution" || { echo "seed $s: not unique"; exit 1; }
  times+=("$best")
  line="$line $s:$best"
done
echo "pencilbox generate $args --seed N (N = $first..$last)"
echo "per seed (min of 3, s):$line"
printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {printf "median %.2f s, max %.2f s\n", a[int((NR+1)/2)], a[NR]}'
rm -r "$tmp"
