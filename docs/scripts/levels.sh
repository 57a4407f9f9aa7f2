#!/usr/bin/env bash
# The calibration gauntlet of the strength levels (issue 28): per game, matches between
# neighbouring levels (0-1, 1-2, …, 19-20), level 0 against the built-in `random` and
# `greedy` players, `greedy` against `random` (a second path from level 0 down to random,
# which level 0 may beat in every game), and level 0 against level 5, then one Elo scale
# fitted over all of a game's games with `random` at 0 (`shove rate`). Played as shards
# like docs/scripts/ladder.sh: each shard's log is kept in OUT, a complete shard is not
# played again, a shard cut off resumes (`shove match --resume`), and several runs share
# the queue through locks.
#
#   docs/scripts/levels.sh akiba offboard abraxas     # every row of every game
#   docs/scripts/levels.sh akiba/L3:L4                # one row
#
# An engine is `random`, `greedy` or `L<n>` (shove --level n). S: the engine (default
# ./target/release/shove), JOBS: shards played at once (default: the cores), OUT: where
# the logs go (default docs/levels), GAMES per row (default 200), SHARDS per row (default
# 4), TC: the time control of every game (default nodes=128000: the levels' own node caps,
# 80,635 at level 19, bind below 20, and level 20 searches 128,000 nodes a move; a node
# budget makes every game the same on a loaded machine as on an idle one), OPENINGS: an
# opening file (default the game's built-in set) and SEED its order (default 1). A level's
# choice is seeded by the position, so new games need new openings, not only a new SEED.
set -euo pipefail
S=${S:-./target/release/shove}
JOBS=${JOBS:-$(nproc)}
OUT=${OUT:-docs/levels}
GAMES=${GAMES:-200}
SHARDS=${SHARDS:-4}
TC=${TC:-nodes=128000}
OPENINGS=${OPENINGS:-}
SEED=${SEED:-1}
ROWS=${ROWS:-"L0:random L0:greedy greedy:random L0:L5 $(for l in $(seq 0 19); do echo -n "L$l:L$((l + 1)) "; done)"}
[ $# -gt 0 ] || { echo "usage: $0 GAME[/E1:E2]..." >&2; exit 2; }
mkdir -p "$OUT"
# shellcheck source=docs/scripts/shards.sh
source "$(dirname "$0")/shards.sh"

# The command line and the name of an engine.
command_of() {
  case $1 in
    random | greedy) echo "$S --player $1" ;;
    L*) echo "$S --level ${1#L}" ;;
  esac
}
name_of() {
  case $1 in
    L*) echo "level ${1#L}" ;;
    *) echo "$1" ;;
  esac
}

play_shard() {
  local game=$1 e1=$2 e2=$3 k=$4
  local log="$OUT/$game-$e1-vs-$e2.shard-$k-of-$SHARDS.log"
  claim_shard "$log" "$k" || return 0
  local openings=()
  [ -z "$OPENINGS" ] || openings=(--openings "$OPENINGS")
  "$S" match "$(command_of "$e1")" "$(command_of "$e2")" --game "$game" --tc "$TC" \
    "${openings[@]}" --seed "$SEED" \
    --name1 "$(name_of "$e1")" --name2 "$(name_of "$e2")" --games "$GAMES" \
    --concurrency 1 --margin 1000 --timeout 900 --quiet \
    --shard "$k/$SHARDS" --log "$log.part" --resume >/dev/null
  mv "$log.part" "$log"
}

export S OUT GAMES SHARDS TC OPENINGS SEED
play_shards "$0" "$@"

# Each game's levels on one scale, over every complete shard so far.
rows "$@" | cut -d' ' -f1 | sort -u | while read -r game; do
  logs=("$OUT/$game"-*.shard-*-of-"$SHARDS".log)
  [ -e "${logs[0]}" ] || continue
  echo "== $game: ${#logs[@]} shard logs"
  "$S" rate "${logs[@]}"
done
