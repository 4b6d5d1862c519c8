#!/bin/bash
# Submit a sharded conformance run to Slurm: an array job of SHARDS tasks (slurm-array.sh,
# one shard each) and a merge job that starts when they have all ended (slurm-merge.sh).
# Prints the two job ids. Results in $OUT: report.jsonl, summary.txt, merge.status; logs
# shard-K.log and merge.log.
#
# Usage: SHARDS=N OUT=/shared/folder [EUREF=... GEN=... COUNT=... SEED=... SIM=... VECTORS=...]
#          conformance/cluster/slurm-submit.sh [more sbatch options, e.g. -p partition]
# OUT must be on a file system every node sees; EUREF (default: euref on PATH) must run on
# every node. CPUS_PER_TASK: CPUs of each shard (default 2: euref golden and check each use
# two threads).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
: "${SHARDS:?set SHARDS to the number of shards}"
: "${OUT:?set OUT to a folder every node sees}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export OUT SHARDS EUREF_CLUSTER="$here"

array=$(sbatch --parsable --array="1-$SHARDS" --cpus-per-task="${CPUS_PER_TASK:-2}" \
  --output="$OUT/shard-%a.log" "$@" "$here/slurm-array.sh")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterany:$array" --output="$OUT/merge.log" \
  "$@" "$here/slurm-merge.sh")
merge=${merge%%;*}
echo "$array $merge"
