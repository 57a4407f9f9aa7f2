#!/usr/bin/env python3
"""SPSA tuning of the search's margins, as fishtest and OpenBench tune engines.

Each iteration perturbs every tuned parameter by +c or -c at random (the same signs for
all of an iteration's games), plays PAIRS game pairs of the engine at theta + c*delta
against the engine at theta - c*delta (`shove match`, each opening with both colours, the
parameters passed with `--search-params`), and moves each parameter by
a_k / c_k * (wins - losses) * delta. The gains follow fishtest's schedule: c_k falls as
k^-0.101 and a_k as (A + k)^-0.602 (A a tenth of the iterations) to their values at the last
iteration, c_end and a_end = r_end * c_end^2.

The parameters, their start, range and step come from the engine: `shove params --game G`
prints each tuned parameter as OpenBench's SPSA input (name, int, value, min, max, c_end,
r_end), from the one declaration in src/search/params.rs. --param NAME picks which to tune
(all of them if none is given).

The state (theta, iteration, the games played) is written to STATE after every
iteration, so a run killed at any moment goes on from its last iteration when started
again with the same STATE; several machines tune one STATE each and their thetas are
averaged by hand (or run one STATE each for other parameters).

  docs/scripts/spsa.py --engine ./target/release/shove --game offboard \\
      --param rfp_margin --param futility_margin \\
      --iterations 200 --pairs 4 --tc movetime=20 --state spsa-offboard.json

c_end is the perturbation at the last iteration. --r-end replaces the engine's r_end
(0.002, fishtest's, for tens of thousands of games); a run of a few thousand games needs a
larger one (0.02) to move at all. At the end it prints the tuned values
as a `--search-params` argument; keep them only if a verifying match wins.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

ALPHA = 0.602
GAMMA = 0.101


def engine_params(engine, game):
    """The engine's tuned parameters for GAME, by name, from `shove params`."""
    output = subprocess.run([engine, 'params', '--game', game], check=True,
                            capture_output=True, text=True).stdout
    params = {}
    for line in output.splitlines():
        name, kind, value, low, high, c_end, r_end = (f.strip() for f in line.split(','))
        if kind != 'int':
            sys.exit(f'{engine} params: {name} is {kind}, not int')
        params[name] = {'name': name, 'value': float(value), 'min': float(low),
                        'max': float(high), 'c_end': float(c_end), 'r_end': float(r_end)}
    return params


def changes(params, signs, scale):
    """The --search-params argument of theta + scale * c * signs (rounded, within bounds)."""
    parts = []
    for p, sign in zip(params, signs):
        value = p['value'] + scale * sign * p['c']
        value = min(max(value, p['min']), p['max'])
        parts.append(f"{p['name']}={round(value)}")
    return ','.join(parts)


def play(args, plus, minus, seed):
    """Wins minus losses of the plus engine over 2 * pairs games."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, 'games.log')
        command = [args.engine, 'match',
                   f'{args.engine} --search-params {plus}',
                   f'{args.engine} --search-params {minus}',
                   '--name1', 'plus', '--name2', 'minus', '--game', args.game,
                   '--tc', args.tc, '--games', str(2 * args.pairs), '--seed', str(seed),
                   '--concurrency', str(args.concurrency), '--margin', '1000',
                   '--quiet', '--log', log]
        if args.openings:
            command += ['--openings', args.openings]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        wins = losses = 0
        with open(log) as lines:
            for line in lines:
                if line.startswith('#') or not line.strip():
                    continue
                fields = line.rstrip('\n').split('\t')
                first, result = fields[2], fields[4]
                if result == '1/2-1/2':
                    continue
                plus_won = (result == '1-0') == (first == 'plus')
                wins += plus_won
                losses += not plus_won
        return wins, losses


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--engine', required=True)
    parser.add_argument('--game', required=True)
    parser.add_argument('--param', action='append', metavar='NAME',
                        help="a parameter to tune (repeated; default: all the engine's)")
    parser.add_argument('--iterations', type=int, required=True)
    parser.add_argument('--pairs', type=int, default=2)
    parser.add_argument('--tc', default='movetime=20')
    parser.add_argument('--openings')
    parser.add_argument('--concurrency', type=int, default=1)
    parser.add_argument('--state', required=True)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--r-end', type=float, help="instead of the engine's r_end")
    args = parser.parse_args()

    tunable = engine_params(args.engine, args.game)
    unknown = [name for name in args.param or [] if name not in tunable]
    if unknown:
        sys.exit(f"{args.engine} tunes no {', '.join(unknown)} (it tunes: {', '.join(tunable)})")
    params = [tunable[name] for name in args.param] if args.param else list(tunable.values())
    for p in params:
        if args.r_end is not None:
            p['r_end'] = args.r_end
    state = {'iteration': 0, 'theta': {p['name']: p['value'] for p in params},
             'wins': 0, 'losses': 0}
    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        names = sorted(p['name'] for p in params)
        if sorted(state['theta']) != names:
            sys.exit(f"{args.state} tunes {sorted(state['theta'])}, not {names}")
    for p in params:
        p['value'] = state['theta'][p['name']]

    big_a = 0.1 * args.iterations
    rng = random.Random(args.seed)
    for _ in range(state['iteration']):  # the same signs as an uninterrupted run
        rng.choice((-1, 1))
        [rng.choice((-1, 1)) for _ in params]
    while state['iteration'] < args.iterations:
        k = state['iteration'] + 1
        rng.choice((-1, 1))
        signs = [rng.choice((-1, 1)) for _ in params]
        for p in params:
            p['c'] = p['c_end'] * (args.iterations / k) ** GAMMA
            # fishtest's r_end = a_end / c_end^2; a_k falls as (A + k)^-0.602 to a_end.
            a_end = p['r_end'] * p['c_end'] ** 2
            p['a'] = a_end * ((big_a + args.iterations) / (big_a + k)) ** ALPHA
        plus, minus = changes(params, signs, 1), changes(params, signs, -1)
        wins, losses = play(args, plus, minus, args.seed * 100_003 + k)
        for p, sign in zip(params, signs):
            step = p['a'] / p['c'] * (wins - losses) * sign
            p['value'] = min(max(p['value'] + step, p['min']), p['max'])
        state['iteration'] = k
        state['wins'] += wins
        state['losses'] += losses
        state['theta'] = {p['name']: p['value'] for p in params}
        with open(args.state + '.tmp', 'w') as f:
            json.dump(state, f, indent=1)
        os.replace(args.state + '.tmp', args.state)
        values = ' '.join(f"{p['name']}={p['value']:.1f}" for p in params)
        print(f'iteration {k}/{args.iterations}: {wins}-{losses} for plus; {values}',
              flush=True)
    print('--search-params ' + ','.join(f"{p['name']}={round(p['value'])}" for p in params))


if __name__ == '__main__':
    main()
