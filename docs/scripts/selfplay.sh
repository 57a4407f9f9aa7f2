#!/usr/bin/env bash
# Self-play of the 0.3.0 engine (modern search, shipped networks) at 16,000 nodes a move: the
# data for the next networks (docs/nnue.md). Each game's run is cut into SHARDS shards
# (`shove selfplay --shard K/N`) written to OUT/GAME-K.data; a shard is written as
# `.part` and renamed when whole, so a run stopped anywhere is started again with the same
# command and plays only the shards not yet whole (a shard kept as `GAME-K.data.gz`, as in
# data/selfplay/, counts as whole). Shards of the three games alternate in
# the queue, so every game's data grows from the start. Abraxas' shards cycle over its six
# sheets (s1..s6), each sheet a run of its own with its own seed.
#
#   S=/path/to/shove-7797da5 OUT=/data/gen4 JOBS=2 nice -n 19 docs/scripts/selfplay.sh
#
# S: the engine (default ./target/release/shove), OUT (default data/selfplay), JOBS shards at
# once (default: the cores), GAMES per shard (default 160, ten blocks of openings), SHARDS
# per game (default 120), NODES a move (default 16000). A next generation plays with its own
# network and new seeds: PLAY (default `akiba offboard abraxas`) the games, SEED the seeds'
# prefix (default 91: Akiba plays seed 9101, Offboard 9102, Abraxas sheet s 910s), EVAL_FILE
# a network for the engine instead of its built-in one (one game only in PLAY):
#
#   S=./target/release/shove PLAY=akiba SEED=92 EVAL_FILE=akiba-gen2.nnue \
#     OUT=/data/akiba-gen2 JOBS=2 docs/scripts/selfplay.sh
#
# One shard alone, on another machine or as a Slurm array task (`--array=1-400`; Abraxas'
# shards are numbered from 0), with the run's settings; the shards' files join as they are:
#
#   S=./target/release/shove PLAY=akiba SEED=97 SHARDS=400 OUT=/shared/akiba-gen4 \
#     docs/scripts/selfplay.sh --play-shard akiba "$SLURM_ARRAY_TASK_ID"
set -euo pipefail
S=${S:-./target/release/shove}
OUT=${OUT:-data/selfplay}
JOBS=${JOBS:-$(nproc)}
GAMES=${GAMES:-160}
SHARDS=${SHARDS:-120}
NODES=${NODES:-16000}
PLAY=${PLAY:-akiba offboard abraxas}
SEED=${SEED:-91}
EVAL_FILE=${EVAL_FILE:-}
eval_args=()
if [ -n "$EVAL_FILE" ]; then
  [ "$(wc -w <<<"$PLAY")" -eq 1 ] || { echo "EVAL_FILE is one game's network: PLAY must name one game" >&2; exit 2; }
  [ -r "$EVAL_FILE" ] || { echo "EVAL_FILE $EVAL_FILE cannot be read" >&2; exit 2; }
  eval_args=(--eval-file "$EVAL_FILE")
fi
case " $PLAY " in
  *" abraxas "*) [ $((SHARDS % 6)) -eq 0 ] || {
    echo "SHARDS=$SHARDS: Abraxas' shards cycle over its six sheets, so SHARDS must be a multiple of 6" >&2
    exit 2
  } ;;
esac
mkdir -p "$OUT"

# `--play-shard GAME K`: one shard, unless it is whole already.
if [ "${1:-}" = --play-shard ]; then
  game=$2 k=$3
  out="$OUT/$game-$k.data"
  { [ -e "$out" ] || [ -e "$out.gz" ]; } && exit 0
  rm -f "$out.part"
  case $game in
    akiba) args=(--game akiba --seed "${SEED}01" --games $((GAMES * SHARDS)) --shard "$k/$SHARDS") ;;
    offboard) args=(--game offboard --seed "${SEED}02" --games $((GAMES * SHARDS)) --shard "$k/$SHARDS") ;;
    abraxas)
      # Shard k plays sheet s(k mod 6 + 1), as shard (k div 6 + 1) of that sheet's run.
      sheet=$((k % 6 + 1)) per=$((SHARDS / 6))
      args=(--game abraxas --abraxas-sheet "s$sheet" --seed "${SEED}0$sheet" --games $((GAMES * per))
        --shard "$((k / 6 + 1))/$per") ;;
    *) echo "unknown game $game" >&2; exit 2 ;;
  esac
  "$S" selfplay "${args[@]}" "${eval_args[@]}" --nodes "$NODES" --concurrency 1 --out "$out.part" --quiet
  mv "$out.part" "$out"
  exit 0
fi

for k in $(seq 1 "$SHARDS"); do
  for game in $PLAY; do
    # Abraxas' shards are numbered 0..SHARDS-1 for the sheet cycle.
    if [ $game = abraxas ]; then echo "$game $((k - 1))"; else echo "$game $k"; fi
  done
done | xargs -r -P "$JOBS" -L 1 bash "$0" --play-shard
