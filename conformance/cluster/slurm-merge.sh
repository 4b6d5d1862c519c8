#!/bin/bash
# Slurm job that merges the reports of a slurm-array.sh array (merge.sh), submitted by
# slurm-submit.sh to start after every array task ended (--dependency=afterany:ARRAY): it
# names the shards that did not finish instead of waiting for ever on them.
# Environment: SHARDS (N), OUT, EUREF, EUREF_CLUSTER (see slurm-array.sh).
#SBATCH --job-name=euref-merge
set -euo pipefail

here=${EUREF_CLUSTER:-${SLURM_SUBMIT_DIR:-.}/conformance/cluster}
exec sh "$here/merge.sh" "${SHARDS:?set SHARDS to the number of shards}"
