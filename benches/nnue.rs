//! The cost of an evaluation, per game: the classical one, the network from scratch and the
//! network with incremental accumulators (`cargo bench --bench nnue`).
//!
//! Each measures one pass over the positions of a few random games, with the game's
//! built-in network and with each network file named in `SHOVE_BENCH_NETWORKS`
//! (comma-separated, each benched for the game it is for), so that a candidate network's
//! cost is measured beside the built-in one's in the same run. The incremental
//! pass evaluates each position at the ply after its predecessor, as the search meets a
//! child after its parent.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::game::MoveList;
use shove::nnue::choice::{game_of, load, resolve};
use shove::nnue::{EvalKind, Evaluator, Network};
use shove::profile::Profile;
use shove::search::MAX_PLY;
use shove::{abraxas, akiba, offboard};
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

fn games<G: Profile>() -> Vec<Vec<G>> {
    let mut rng = StdRng::seed_from_u64(11);
    (0..8)
        .map(|_| {
            let mut position = G::start(G::Rules::default());
            let mut line = Vec::new();
            while line.len() < MAX_PLY && position.outcome().is_none() {
                line.push(position.clone());
                let mut moves = MoveList::new();
                position.legal_moves(&mut moves);
                position.play(moves[rng.random_range(0..moves.len())]);
            }
            line
        })
        .collect()
}

/// The game's built-in network, named `network`, then each file of `SHOVE_BENCH_NETWORKS`
/// for this game, named by its file stem.
fn networks<G: Profile>() -> Vec<(String, Arc<Network>)> {
    let built_in = resolve::<G>(Some(EvalKind::Network), None)
        .expect("the built-in network is valid")
        .expect("every game has a built-in network");
    let mut networks = vec![("network".to_string(), built_in)];
    for file in std::env::var("SHOVE_BENCH_NETWORKS")
        .unwrap_or_default()
        .split(',')
    {
        let path = Path::new(file.trim());
        if path.as_os_str().is_empty() || game_of(path).ok().as_deref() != Some(G::NAME) {
            continue;
        }
        let network = load::<G>(path).unwrap_or_else(|e| panic!("{e}"));
        let stem = path
            .file_stem()
            .map_or(file.into(), |s| s.to_string_lossy());
        networks.push((stem.into_owned(), Arc::new(network)));
    }
    networks
}

fn bench_game<G: Profile>(c: &mut Criterion) {
    let games = games::<G>();
    let count: usize = games.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group(format!("{}/evaluate", G::NAME));
    group.throughput(Throughput::Elements(count as u64));
    group.bench_function("classical", |b| {
        b.iter(|| {
            games
                .iter()
                .flatten()
                .map(|p| black_box(p).evaluate())
                .sum::<i32>()
        })
    });
    for (name, network) in networks::<G>() {
        let mut evaluator = Evaluator::<G>::new(Arc::clone(&network), MAX_PLY);
        group.bench_function(format!("{name}-full"), |b| {
            b.iter(|| {
                games
                    .iter()
                    .flatten()
                    .map(|p| network.evaluate(black_box(p)))
                    .sum::<i32>()
            })
        });
        group.bench_function(format!("{name}-incremental"), |b| {
            b.iter(|| {
                let mut sum = 0;
                for game in &games {
                    for (ply, position) in game.iter().enumerate() {
                        sum += evaluator.evaluate(black_box(position), ply);
                    }
                }
                sum
            })
        });
    }
    group.finish();
}

fn bench_all(c: &mut Criterion) {
    bench_game::<akiba::Position>(c);
    bench_game::<offboard::Position>(c);
    bench_game::<abraxas::Position>(c);
}

criterion_group!(benches, bench_all);
criterion_main!(benches);
