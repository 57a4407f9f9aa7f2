#!/usr/bin/env bash
# Runs N shards of a self-play run (or a match) on the machines listed in ~/.parallel/sshloginfile
# with GNU parallel over ssh, fetches each shard's file back and merges them.
#
#   docs/scripts/shards-parallel-ssh.sh 8 akiba 100000 data/akiba.data
#
# Every machine needs the same shove binary at $SHOVE (same build: the data must come from
# one evaluation). Each shard plays a fixed, disjoint part of the games, so the merged file
# holds exactly the unsharded run's games.
set -euo pipefail
N=${1:?shards} GAME=${2:?game} GAMES=${3:?games} OUT=${4:?output file}
SHOVE=${SHOVE:-shove}
SEED=${SEED:-1}
tmp=$(mktemp -d)
# --sshloginfile: one `cores/user@host` per line (":" for this machine too).
# --return fetches the shard's file; --cleanup deletes it on the remote side.
seq 1 "$N" | parallel --sshloginfile ~/.parallel/sshloginfile --halt now,fail=1 \
    --return "shard{}.data" --cleanup --workdir ... \
    "$SHOVE --game $GAME selfplay --games $GAMES --seed $SEED --shard {}/$N --quiet --out shard{}.data"
# A match the same way: every shard writes its own log, then
#   shove merge shard*.log --out match.log    prints the combined score, Elo and SPRT state.
mv shard*.data "$tmp"/
"$SHOVE" merge "$tmp"/shard*.data --out "$OUT"
rm -rf "$tmp"
