# The shard queue of docs/scripts/ladder.sh and levels.sh, sourced by both after they set
# S, JOBS, OUT, GAMES, SHARDS and ROWS. Every row is played as SHARDS shards (`shove match
# --shard K/N`), each with its own log; a shard is claimed with a lock, so runs side by
# side share the queue, and a shard whose log is complete is not played again.

# Every argument as the rows it names, one `game a b` a line: `GAME/A:B` is one row, a bare
# GAME each row of ROWS (`A:B`, space-separated).
rows() {
  local arg row
  for arg in "$@"; do
    if [[ $arg == */* ]]; then
      row=${arg#*/}
      echo "${arg%%/*} ${row%%:*} ${row##*:}"
    else
      for row in $ROWS; do echo "$arg ${row%%:*} ${row##*:}"; done
    fi
  done
}

# Games a complete log of shard K holds: two per pair p < GAMES/2 with p % SHARDS = K - 1.
shard_games() {
  local k=$1 pairs=$((GAMES / 2))
  echo $((2 * ((pairs - k + SHARDS) / SHARDS)))
}

played() { grep -vc '^#' "$1" 2>/dev/null || true; }

# Whether shard K, logged in LOG, is this run's to play: not when another run holds its lock
# or its log is complete. The lock is held until the process ends, however it ends.
claim_shard() {
  local log=$1 k=$2
  exec 9>"$log.lock"
  flock -n 9 || return 1
  [ "$(played "$log")" != "$(shard_games "$k")" ]
}

# `SCRIPT --play-shard GAME A B K` (how the queue runs a shard) plays that one shard with the
# script's own play_shard and ends the script. Otherwise every shard of every row named is
# queued, in order, each run that way; xargs keeps JOBS of them running.
play_shards() {
  local script=$1
  shift
  if [ "$1" = --play-shard ]; then
    shift
    play_shard "$@"
    exit
  fi
  rows "$@" | while read -r game a b; do
    for k in $(seq 1 "$SHARDS"); do echo "$game $a $b $k"; done
  done | xargs -r -P "$JOBS" -L 1 bash "$script" --play-shard
}
