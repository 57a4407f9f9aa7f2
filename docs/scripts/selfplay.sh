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
# per game (default 120), NODES a move (default 16000).
set -euo pipefail
S=${S:-./target/release/shove}
OUT=${OUT:-data/selfplay}
JOBS=${JOBS:-$(nproc)}
GAMES=${GAMES:-160}
SHARDS=${SHARDS:-120}
NODES=${NODES:-16000}
mkdir -p "$OUT"

# `--play-shard GAME K`: one shard, unless it is whole already.
if [ "${1:-}" = --play-shard ]; then
  game=$2 k=$3
  out="$OUT/$game-$k.data"
  { [ -e "$out" ] || [ -e "$out.gz" ]; } && exit 0
  rm -f "$out.part"
  case $game in
    akiba) args=(--game akiba --seed 9101 --games $((GAMES * SHARDS)) --shard "$k/$SHARDS") ;;
    offboard) args=(--game offboard --seed 9102 --games $((GAMES * SHARDS)) --shard "$k/$SHARDS") ;;
    abraxas)
      # Shard k plays sheet s(k mod 6 + 1), as shard (k div 6 + 1) of that sheet's run.
      sheet=$((k % 6 + 1)) per=$((SHARDS / 6))
      args=(--game abraxas --abraxas-sheet "s$sheet" --seed "910$sheet" --games $((GAMES * per))
        --shard "$((k / 6 + 1))/$per") ;;
    *) echo "unknown game $game" >&2; exit 2 ;;
  esac
  "$S" selfplay "${args[@]}" --nodes "$NODES" --concurrency 1 --out "$out.part" --quiet
  mv "$out.part" "$out"
  exit 0
fi

for k in $(seq 1 "$SHARDS"); do
  for game in akiba offboard abraxas; do
    # Abraxas' shards are numbered 0..SHARDS-1 for the sheet cycle.
    if [ $game = abraxas ]; then echo "$game $((k - 1))"; else echo "$game $k"; fi
  done
done | xargs -r -P "$JOBS" -L 1 bash "$0" --play-shard
