#!/bin/sh
# One shard of a sharded conformance run (conformance/README.md, "Past one machine"): make
# shard K of N of the golden vectors and check the simulator against them, or check shard K
# of N of a vectors file that every shard can read. Called by slurm-array.sh (Slurm job
# arrays) and by k8s-indexed-job.yaml (Kubernetes Indexed Jobs); any other batch system
# calls it the same way with its own task number.
#
# Usage: shard-task.sh K N        (K from 1 to N)
#
# Environment:
#   OUT          folder for the shards' files, the same for all shards (required)
#   EUREF        the euref binary (default: euref on PATH)
#   GEN          platform (default skl)
#   COUNT        vectors of the whole run (default 50000)
#   SEED         seed (default 0)
#   SIM          the simulator command line (default: "$EUREF sim")
#   VECTORS      a vectors file all shards read: check its shard K/N instead of generating
#   RESUME       1: resume this shard's report (a task run again after an interruption)
#   GOLDEN_ARGS  more arguments of `euref golden` (e.g. "--ops add,mad"), split at blanks
#   CHECK_ARGS   more arguments of `euref check` (e.g. "--timeout 2000"), split at blanks
#
# Writes, in $OUT: vectors.K.jsonl (without VECTORS), report.K.jsonl (check's report),
# check.K.txt (check's output) and, last, done.K holding check's exit status (0: every vector
# passed, 1: some failed; both are a finished shard). Exit status 0 when the shard was
# checked, whatever the vectors' results; otherwise euref's or 2.
set -eu

if [ $# -ne 2 ]; then
  echo "usage: $0 K N (shard K of N, K from 1)" >&2
  exit 2
fi
K=$1
N=$2
: "${OUT:?set OUT to the folder for the shards files}"
EUREF=${EUREF:-euref}
GEN=${GEN:-skl}
COUNT=${COUNT:-50000}
SEED=${SEED:-0}
SIM=${SIM:-"$EUREF sim"}

mkdir -p "$OUT"
rm -f "$OUT/done.$K"
resume=""
[ "${RESUME:-0}" = 1 ] && resume="--resume"

if [ -n "${VECTORS:-}" ]; then
  input=$VECTORS
  shard="--shard $K/$N"
else
  input=$OUT/vectors.$K.jsonl
  shard=""
  # shellcheck disable=SC2086 # GOLDEN_ARGS is split at blanks on purpose
  "$EUREF" golden --gen "$GEN" --count "$COUNT" --seed "$SEED" --shard "$K/$N" \
    ${GOLDEN_ARGS:-} -o "$input"
fi

status=0
# shellcheck disable=SC2086 # shard, resume and CHECK_ARGS are split at blanks on purpose
"$EUREF" check --sim "$SIM" "$input" $shard --report "$OUT/report.$K.jsonl" $resume \
  --show 0 ${CHECK_ARGS:-} >"$OUT/check.$K.txt" || status=$?
# 0: all passed, 1: some failed (both in the report); anything else: the check did not finish.
if [ "$status" -gt 1 ]; then
  echo "shard $K/$N: euref check failed (exit $status): see $OUT/check.$K.txt" >&2
  exit "$status"
fi
echo "$status" >"$OUT/done.$K"
