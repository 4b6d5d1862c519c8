#!/bin/bash
# Slurm array job: task K of an array 1-N runs shard K/N of a conformance run
# (shard-task.sh). Submit it with slurm-submit.sh, which also submits the merge, or by hand:
#   sbatch --array=1-N --export=ALL,OUT=/shared/run,EUREF_CLUSTER=$PWD/conformance/cluster \
#     conformance/cluster/slurm-array.sh
# The environment of shard-task.sh (OUT, EUREF, GEN, COUNT, SEED, SIM, VECTORS, ...) comes
# from sbatch's (--export=ALL). Slurm runs a copy of this script, so EUREF_CLUSTER names the
# folder of shard-task.sh (default: conformance/cluster under the submission folder).
#SBATCH --job-name=euref-shard
set -euo pipefail

K=${SLURM_ARRAY_TASK_ID:?not an array task: submit with sbatch --array=1-N}
N=${SLURM_ARRAY_TASK_COUNT:?not an array task: submit with sbatch --array=1-N}
# Shard K of N needs the tasks numbered 1..N (not --array=0-3, nor 1-10:2).
if [ "${SLURM_ARRAY_TASK_MIN:-1}" != 1 ] || [ "${SLURM_ARRAY_TASK_MAX:-$N}" != "$N" ]; then
  echo "slurm-array.sh: the array must be 1-N (got ${SLURM_ARRAY_TASK_MIN}-${SLURM_ARRAY_TASK_MAX}, $N tasks)" >&2
  exit 2
fi
here=${EUREF_CLUSTER:-${SLURM_SUBMIT_DIR:-.}/conformance/cluster}
exec sh "$here/shard-task.sh" "$K" "$N"
