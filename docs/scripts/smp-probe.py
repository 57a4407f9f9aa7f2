#!/usr/bin/env python3
"""What more threads or more time buy at a short movetime, measured without a match.

Positions: every STEP-th ply of the first GAMES games of a `shove match --log` log, searched
in game order through the engine protocol as a match runner does (`ucinewgame` before each
game, so the table carries over from move to move). Each configuration THREADS:MOVETIME
gets a fresh engine; for each, the mean depth reached, the mean nodes, and the share of
positions where it plays the move of the first configuration (give the first a long
movetime to compare against a deeper search). With REF=FILE the first configuration's
moves are saved there and read back by later runs, so that it is searched once.

  docs/scripts/smp-probe.py ./target/release/shove offboard match.log 30 10 1:300 1:20 2:20 1:40

Run it on an idle machine: the figures are timed.
"""
import json
import os
import statistics
import sys

from engine_protocol import Engine


def positions(log, games):
    """(opening, moves) of the first `games` games of a match log."""
    records = []
    with open(log) as lines:
        for line in lines:
            if line.startswith('#') or not line.strip():
                continue
            fields = line.rstrip('\n').split('\t')
            records.append((fields[6], fields[7].split()))
            if len(records) == games:
                break
    return records


def search_all(engine, game, records, step, threads, movetime):
    """(depth, nodes, best move) of every STEP-th position of every game."""
    session = Engine(engine.split() + ['--game', game, '--threads', str(threads)])
    send, read_until = session.send, session.read_until
    results = []
    for opening, moves in records:
        send('ucinewgame')
        send('isready')
        read_until('readyok')
        for ply in range(0, len(moves), step):
            played = f' moves {" ".join(moves[:ply])}' if ply else ''
            send(f'position fen {opening}{played}')
            send(f'go movetime {movetime}')
            lines = read_until('bestmove')
            depth = nodes = 0
            for line in lines:
                words = line.split()
                if words[:1] == ['info'] and 'depth' in words and 'nodes' in words:
                    depth = int(words[words.index('depth') + 1])
                    nodes = int(words[words.index('nodes') + 1])
            results.append((depth, nodes, lines[-1].split()[1]))
    session.quit()
    return results


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    engine, game, log = sys.argv[1:4]
    games, step = int(sys.argv[4]), int(sys.argv[5])
    configs = [tuple(int(x) for x in c.split(':')) for c in sys.argv[6:]]
    records = positions(log, games)
    ref = os.environ.get('REF')
    first = None
    if ref and os.path.exists(ref):
        with open(ref) as file:
            first = [tuple(r) for r in json.load(file)]
    for threads, movetime in configs:
        results = search_all(engine, game, records, step, threads, movetime)
        if first is None:
            first = results
            if ref:
                with open(ref, 'w') as file:
                    json.dump(results, file)
        same = sum(a[2] == b[2] for a, b in zip(results, first)) / len(results)
        print(f'threads {threads} movetime {movetime}: {len(results)} positions, '
              f'depth {statistics.mean(r[0] for r in results):.2f}, '
              f'nodes {statistics.mean(r[1] for r in results):.0f}, '
              f'same move as the first {same:.1%}', flush=True)


main()
