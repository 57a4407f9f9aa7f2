#!/usr/bin/env bash
# The depth/time ladder of issue 15: the engine against itself, the first engine thinking
# more (depth d+2 vs d, 2x and 10x the time). Every row is played as SHARDS shards
# (`shove match --shard K/N`), each shard's log kept in OUT; a shard whose log holds all of
# its games is not played again, and a shard cut off keeps the games it finished (its
# `.part` log, `shove match --resume`), so a run stopped anywhere resumes where it stopped,
# on this machine or another. At the end each row's shard logs are merged (`shove merge`).
#
#   docs/scripts/ladder.sh abraxas offboard                  # every row of both games
#   docs/scripts/ladder.sh abraxas/depth=10:depth=8 offboard  # one row, then every row
#
# Shards are queued in the order of the arguments. Runs started side by side (say, one
# with another order of rows) share the work: each shard is claimed with a lock.
#
# S: the engine (default ./target/release/shove), JOBS: shards played at once (default: the
# cores), OUT: where the logs go (default docs/ladder), GAMES per row (default 300), SHARDS
# per row (default 6), ROWS: the rows a bare GAME stands for (`tc1:tc2`, space-separated).
set -euo pipefail
S=${S:-./target/release/shove}
JOBS=${JOBS:-$(nproc)}
OUT=${OUT:-docs/ladder}
GAMES=${GAMES:-300}
SHARDS=${SHARDS:-6}
ROWS=${ROWS:-"depth=4:depth=2 depth=6:depth=4 depth=8:depth=6 depth=10:depth=8 depth=10:depth=6 movetime=40:movetime=20 movetime=200:movetime=20"}
[ $# -gt 0 ] || { echo "usage: $0 GAME[/TC1:TC2]..." >&2; exit 2; }
mkdir -p "$OUT"
# shellcheck source=docs/scripts/shards.sh
source "$(dirname "$0")/shards.sh"

openings() { # Abraxas: sheets s2..s6 judged by the current evaluation (docs/strength.md)
  if [ "$1" = abraxas ]; then echo "--openings positions/abraxas-ladder-openings.txt"; fi
}

# Plays shard K of a row unless its log is complete. Checked when the shard starts, under
# a lock (released when the process ends, however it ends), so several runs of this script
# can share one queue: a shard another run holds or has finished is skipped.
play_shard() {
  local game=$1 tc1=$2 tc2=$3 k=$4
  local log="$OUT/$game-$tc1-vs-$tc2.shard-$k-of-$SHARDS.log"
  claim_shard "$log" "$k" || return 0
  # shellcheck disable=SC2046 # openings() gives zero or two words
  "$S" match "$S" "$S" --game "$game" --tc1 "$tc1" --tc2 "$tc2" --games "$GAMES" \
    $(openings "$game") --concurrency 1 --margin 1000 --timeout 900 --quiet \
    --shard "$k/$SHARDS" --log "$log.part" --resume >/dev/null
  mv "$log.part" "$log"
}

export S OUT GAMES SHARDS
play_shards "$0" "$@"

# Each row's result over the shards played so far (all of them once the queue is done).
rows "$@" | while read -r game tc1 tc2; do
  logs=("$OUT/$game-$tc1-vs-$tc2".shard-*-of-"$SHARDS".log)
  [ -e "${logs[0]}" ] || continue
  echo "== $game $tc1 vs $tc2: ${#logs[@]} of $SHARDS shards"
  "$S" merge "${logs[@]}" | tail -n 4
done
