#!/usr/bin/env bash
# A Slurm job array: task K of N plays shard K/N of a self-play run (or a match).
#
#   sbatch --array=1-16 docs/scripts/slurm-array.sh akiba 100000 /shared/run1
#   # when all tasks are done:
#   shove merge /shared/run1/shard-*.data --out /shared/run1/akiba.data
#
# Each task uses the cores Slurm gives it (--cpus-per-task); shove plays that many games
# at once. All tasks must run the same shove binary.
#SBATCH --job-name=shove-selfplay
#SBATCH --cpus-per-task=4
#SBATCH --time=04:00:00
#SBATCH --output=%x-%A_%a.out
set -euo pipefail
GAME=${1:?game} GAMES=${2:?games} DIR=${3:?output directory}
SHOVE=${SHOVE:-shove}
K=${SLURM_ARRAY_TASK_ID:?run as a job array}
N=${SLURM_ARRAY_TASK_COUNT:?run as a job array}
mkdir -p "$DIR"
"$SHOVE" --game "$GAME" selfplay --games "$GAMES" --seed "${SEED:-1}" \
    --shard "$K/$N" --concurrency "${SLURM_CPUS_PER_TASK:-1}" --quiet \
    --out "$DIR/shard-$K.data"
# A match instead:
#   "$SHOVE" match "$SHOVE" "$OTHER" --games 20000 --tc nodes=20000 --shard "$K/$N" \
#       --concurrency "${SLURM_CPUS_PER_TASK:-1}" --quiet --log "$DIR/shard-$K.log"
# then: shove merge "$DIR"/shard-*.log
