#!/usr/bin/env bash
# Usage: tools/per-vector.sh EUREF [--hw] [GOLDEN ARGS...]
# Machine instructions per generated golden vector, by callgrind on one thread: independent
# of the machine's load, unlike wall time. The cost of N vectors minus that of a small run,
# divided by the difference, so start-up cancels out. Without `--gen`: `--gen skl`; without
# `--ops`: the default opcode mix. With --hw also mispredicted branches and L1 instruction
# and data cache misses per vector (callgrind's simulation of this host's caches; about 4x
# slower). Needs valgrind.
# Example: tools/per-vector.sh target/release/euref --hw --gen bdw --ops add,mul
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 EUREF [--hw] [GOLDEN ARGS...]" >&2; exit 2; }
bin=$1
shift
hw=()
big=42000
small=2000
if [ "${1:-}" = --hw ]; then
  hw=(--branch-sim=yes --cache-sim=yes)
  big=22000
  shift
fi
args=("$@")
[[ " ${args[*]-} " == *" --gen "* ]] || args+=(--gen skl)
command -v valgrind >/dev/null || { echo "$0: needs valgrind" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Prints "instructions mispredicts i1-misses d1-misses" (the last three 0 without --hw).
measure() {
  RAYON_NUM_THREADS=1 valgrind --tool=callgrind ${hw[@]+"${hw[@]}"} \
    --callgrind-out-file="$tmp/out" "$bin" golden "${args[@]}" --count "$1" -o /dev/null \
    2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
  awk '
    function n(s) { gsub(",", "", s); return s + 0 }
    / I   refs:/ { ir = n($4) }
    / I1  misses:/ { i1 = n($4) }
    / D1  misses:/ { d1 = n($4) }
    / Mispredicts:/ { bm = n($3) }
    END { printf "%d %d %d %d\n", ir, bm, i1, d1 }' "$tmp/log"
}

read -r ir1 bm1 i11 d11 < <(measure $big)
read -r ir0 bm0 i10 d10 < <(measure $small)
awk -v n=$((big - small)) -v ir=$((ir1 - ir0)) -v bm=$((bm1 - bm0)) -v i1=$((i11 - i10)) \
  -v d1=$((d11 - d10)) -v hw=${#hw[@]} 'BEGIN {
    printf "instructions per vector: %.0f\n", ir / n
    if (hw) {
      printf "mispredicted branches per vector: %.1f\n", bm / n
      printf "L1 instruction misses per vector: %.1f\n", i1 / n
      printf "L1 data misses per vector: %.1f\n", d1 / n
    }
  }'
