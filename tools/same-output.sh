#!/usr/bin/env bash
# Usage: tools/same-output.sh OLD_EUREF NEW_EUREF
# Checks that two builds of euref write the same bytes: golden vectors on every platform with
# two seeds, an opcode/type selection with 1 and 3 threads (which must also equal each other),
# `--coverage` output on ivb, skl and bxt, and `check` against `euref sim` (clean and with two
# injected faults: stdout and the report file). For performance work that must not change any
# output; takes about 20 s on 2 cores. Prints each difference and exits 1 if there is one.
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 OLD_EUREF NEW_EUREF" >&2; exit 2; }
old=$(realpath "$1") new=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

outputs() { # BIN DIR
  local b=$1 d=$2 ok=0
  mkdir -p "$d"
  for g in ivb hsw bdw chv skl bxt; do
    for s in 1 7; do
      "$b" golden --gen $g --count 30000 --seed $s -o "$d/g_${g}_$s.jsonl" || ok=1
    done
  done
  local sel=(golden --gen skl --count 20000 --seed 5 --ops mov,add,mul,math,sel,cmp,lrp,mad
    --types f,hf,df,d,w)
  RAYON_NUM_THREADS=1 "$b" "${sel[@]}" -o "$d/sel1.jsonl" || ok=1
  RAYON_NUM_THREADS=3 "$b" "${sel[@]}" -o "$d/sel3.jsonl" || ok=1
  cmp -s "$d/sel1.jsonl" "$d/sel3.jsonl" || { echo "$b: 1 and 3 threads differ" >&2; ok=1; }
  for g in ivb skl bxt; do
    "$b" golden --gen $g --count 20000 --seed 2 --coverage -o "$d/cov_$g.jsonl" \
      >"$d/cov_$g.txt" 2>&1 || ok=1
  done
  # (`check` exits non-zero when a vector fails: expected with an injected fault.)
  "$b" check --sim "$b sim" "$d/g_skl_7.jsonl" --report "$d/chk_clean.jsonl" \
    >"$d/chk_clean.txt" 2>&1
  "$b" check --sim "$b sim --inject no-sat" "$d/g_skl_7.jsonl" --report "$d/chk_nosat.jsonl" \
    >"$d/chk_nosat.txt" 2>&1
  "$b" check --sim "$b sim --inject cmpn-nan-swap" "$d/g_bdw_1.jsonl" \
    --report "$d/chk_cmpn.jsonl" >"$d/chk_cmpn.txt" 2>&1
  # (The reports name the simulator command, which names the binary: compare without it.)
  sed -i "s#$b#EUREF#g" "$d"/chk_*
  return $ok
}

status=0
outputs "$old" "$work/old" || status=1
outputs "$new" "$work/new" || status=1
for f in "$work"/old/*; do
  n=$(basename "$f")
  cmp -s "$f" "$work/new/$n" || { echo "differs: $n"; status=1; }
done
[ $status = 0 ] && echo "same output: every file identical" || echo "same output: FAILED"
exit $status
