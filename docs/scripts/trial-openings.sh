#!/usr/bin/env bash
# An opening set whose openings both colours win at full strength (docs/strength.md), made
# in chunks that resume. Chunk N draws COUNT balanced openings (judged at depth 12, within
# 100) that each colour won at least 1 of 4 trial games from at 16,000 nodes a move (seed
# SEED followed by N in two digits), then keeps those each colour won at least 3 of 8 at
# 50,000 nodes, about a 20 ms move's budget (`shove openings --starts … --plies 0..0`).
# Each step's file is written as `.part` and renamed when whole, so a run stopped anywhere
# is started again with the same command and does only what is missing; chunks are
# independent, so several machines can share one set (FIRST and LAST chunk). At the end
# OUT/openings.txt gathers the whole chunks' openings under one header, with those of any
# `filtered-*.txt` in OUT: openings of another set kept by the same second step.
#
#   GAME=abraxas SEED=7233 LAST=40 OUT=/data/abraxas-held-out-1 JOBS=2 docs/scripts/trial-openings.sh
#
# S: the engine (default ./target/release/shove); GAME (default abraxas, whose openings start
# from sheets s2..s6: s1's are decided by the colour); SEED: the seeds' prefix, never one a
# set was made with before (docs/strength.md lists them); FIRST, LAST: the chunks (default
# 1..20); COUNT openings drawn a chunk (default 10); OUT (default openings-GAME-SEED); JOBS
# chunks at once (default: the cores).
set -euo pipefail
S=${S:-./target/release/shove}
GAME=${GAME:-abraxas}
SEED=${SEED:?SEED: the seeds prefix, one no set was made with}
FIRST=${FIRST:-1}
LAST=${LAST:-20}
COUNT=${COUNT:-10}
OUT=${OUT:-openings-$GAME-$SEED}
JOBS=${JOBS:-$(nproc)}
mkdir -p "$OUT"

judge=(--depth 12 --max-score 100 --threads 1)
starts=()
if [ "$GAME" = abraxas ]; then
  for sheet in s2 s3 s4 s5 s6; do starts+=(--start "$sheet 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1"); done
fi

# `--chunk N`: chunk N's two steps, each unless its file is whole already.
if [ "${1:-}" = --chunk ]; then
  n=$(printf %02d "$2")
  drawn="$OUT/chunk-$n-4.txt" kept="$OUT/chunk-$n-strict.txt"
  if [ ! -e "$drawn" ]; then
    "$S" openings --game "$GAME" "${starts[@]}" --count "$COUNT" --seed "$SEED$n" --plies 4..10 \
      "${judge[@]}" --trials 4 --out "$drawn.part"
    mv "$drawn.part" "$drawn"
  fi
  if [ ! -e "$kept" ]; then
    "$S" openings --game "$GAME" --starts "$drawn" --plies 0..0 --count "$COUNT" "${judge[@]}" \
      --trials 8 --trial-wins 3 --trial-nodes 50000 --out "$kept.part"
    mv "$kept.part" "$kept"
  fi
  exit 0
fi

seq "$FIRST" "$LAST" | xargs -r -P "$JOBS" -I{} bash "$0" --chunk {}

set=$OUT/openings.txt
mapfile -t whole < <(find "$OUT" -name 'chunk-*-strict.txt' | sort)
[ ${#whole[@]} -gt 0 ] || { echo "no whole chunk in $OUT" >&2; exit 1; }
mapfile -t filtered < <(find "$OUT" -name 'filtered-*.txt' | sort)
{
  echo "# $GAME openings each colour won at least 3 of 8 trial games of the engine against itself"
  echo "# from (50,000 nodes a move and more), drawn from openings each colour won 1 of 4 (16,000),"
  echo "# judged at depth 12 within 100: GAME=$GAME SEED=$SEED docs/scripts/trial-openings.sh,"
  echo "# chunks $(basename -a "${whole[@]}" | sed 's/chunk-\([0-9]*\)-strict.txt/\1/' | paste -sd ' ')."
  [ ${#filtered[@]} -eq 0 ] || echo "# With the openings kept from other sets by the same trials: $(basename -a "${filtered[@]}" | paste -sd ' ')."
  grep -hv '^#' "${whole[@]}" "${filtered[@]}"
} >"$set.part"
mv "$set.part" "$set"
echo "$(grep -cv '^#' "$set") openings in $set"
