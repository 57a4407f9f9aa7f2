#!/usr/bin/env python3
"""Nodes to a fixed depth over opening positions, one engine per evaluation: how large a
tree each evaluation searches, on the positions matches start from rather than the bench's
few.

Each of the first COUNT positions of OPENINGS (a `shove openings` file) is searched with
`go depth DEPTH` after `ucinewgame`, one thread, through the engine protocol; prints the
total and the (upper) median of the last iteration's nodes for each evaluation EVAL. Node counts
at one thread do not depend on the load, so it may run beside other work.

  docs/scripts/tree-size.py ./target/release/shove akiba positions/akiba-openings.txt 10 100 classical network
"""
import statistics
import sys

from engine_protocol import Engine


def tree_sizes(binary, game, fens, depth, evaluation):
    """The node count of each position's search to `depth` with `evaluation`."""
    engine = Engine([binary, '--game', game, '--eval', evaluation])
    engine.send('isready')
    engine.read_until('readyok')
    sizes = []
    for fen in fens:
        engine.send('ucinewgame')
        engine.send('position fen ' + fen)
        engine.send(f'go depth {depth}')
        nodes = 0
        for line in engine.read_until('bestmove'):
            words = line.split()
            if words[:2] == ['info', 'depth'] and 'nodes' in words:
                nodes = int(words[words.index('nodes') + 1])
        sizes.append(nodes)
    engine.quit()
    return sizes


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    binary, game, openings, depth, count = sys.argv[1:6]
    with open(openings) as lines:
        fens = [line.strip() for line in lines if line.strip() and not line.startswith('#')]
    fens = fens[:int(count)]
    for evaluation in sys.argv[6:]:
        sizes = tree_sizes(binary, game, fens, int(depth), evaluation)
        print(f'{game} {evaluation} depth {depth}: {len(fens)} positions, '
              f'total {sum(sizes)}, median {statistics.median_high(sizes)}', flush=True)


if __name__ == '__main__':
    main()
