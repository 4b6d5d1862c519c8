#!/bin/sh
# The last step of a sharded conformance run: merge the N shards' reports (in shard order)
# into $OUT/report.jsonl and print the summary an unsharded `euref check` prints, also saved
# as $OUT/summary.txt. Refuses when a shard has not finished (no done.K from shard-task.sh).
#
# Usage: merge.sh N
# Environment: OUT (required), EUREF (default: euref on PATH).
# Writes $OUT/merge.status last (euref report merge's exit status). Exit status: 0 when every
# vector passed, 1 when some failed, 2 when a shard is missing or a report is damaged.
set -eu

if [ $# -ne 1 ]; then
  echo "usage: $0 N (the number of shards)" >&2
  exit 2
fi
N=$1
: "${OUT:?set OUT to the folder of the shards files}"
EUREF=${EUREF:-euref}

rm -f "$OUT/merge.status"
missing=""
set --
k=1
while [ "$k" -le "$N" ]; do
  [ -f "$OUT/done.$k" ] || missing="$missing $k"
  set -- "$@" "$OUT/report.$k.jsonl"
  k=$((k + 1))
done
if [ -n "$missing" ]; then
  echo "merge: shards not finished:$missing (their logs say why); run them again, then merge" >&2
  echo 2 >"$OUT/merge.status"
  exit 2
fi
status=0
"$EUREF" report merge "$@" -o "$OUT/report.jsonl" >"$OUT/summary.txt" || status=$?
cat "$OUT/summary.txt"
echo "$status" >"$OUT/merge.status"
exit "$status"
