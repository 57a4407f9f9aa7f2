//! Per-game benchmarks for Offboard and Abraxas, written once over [`Game`]:
//! `cargo bench --bench games` (criterion's filter picks one game, e.g.
//! `cargo bench --bench games -- abraxas/`).
//!
//! For each game:
//! - `<game>/perft/start/<depth>`: perft from the start position (Offboard 3 and 4,
//!   Abraxas 2 and 3);
//! - `<game>/search/start/depth/<d>`: a fixed-depth search from the start with fresh tables
//!   (Offboard depth 7, Abraxas depth 8);
//! - `<game>/movegen/legal_moves`: move generation in every position of a few random games;
//! - `<game>/make/clone_play`: every legal move of those positions played on a copy (as the
//!   search makes a move).
//!
//! Akiba's move generation and making are in `benches/akiba.rs`, every game's evaluation
//! in `benches/nnue.rs`.
//!
//! At the end it prints, from the medians of this run (criterion's `estimates.json`), perft
//! leaf nodes per second and search nodes per second (the node count of one deterministic
//! search to the same depth, divided by the median time).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::game::MoveList;
use shove::perft::perft;
use shove::profile::Profile;
use shove::search::{Limits, MAX_PLY, Searcher};
use shove::{abraxas, offboard};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// What differs between the games benchmarked: the depths.
trait Bench: Profile {
    const PERFT_DEPTHS: [u32; 2];
    const SEARCH_DEPTH: u32;
}

impl Bench for offboard::Position {
    const PERFT_DEPTHS: [u32; 2] = [3, 4];
    const SEARCH_DEPTH: u32 = 7;
}

impl Bench for abraxas::Position {
    const PERFT_DEPTHS: [u32; 2] = [2, 3];
    const SEARCH_DEPTH: u32 = 8;
}

fn depth_limit(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

/// The node count of a search from `start` to `depth` with fresh tables.
fn search_nodes<G: Profile>(start: &G, depth: u32) -> u64 {
    let mut searcher = Searcher::<G>::new(64);
    searcher
        .search(start, &[], &depth_limit(depth), 1, &mut |_| {})
        .nodes
}

/// Every position of 8 random games from the start (a fixed seed), with its legal moves.
fn playout_positions<G: Profile>() -> Vec<(G, Vec<G::Move>)> {
    let mut rng = StdRng::seed_from_u64(11);
    let mut positions = Vec::new();
    for _ in 0..8 {
        let mut position = G::start(G::Rules::default());
        for _ in 0..MAX_PLY {
            let mut moves = MoveList::new();
            position.legal_moves(&mut moves);
            if moves.is_empty() || position.outcome().is_some() {
                break;
            }
            let next = moves[rng.random_range(0..moves.len())];
            positions.push((position.clone(), moves.to_vec()));
            position.play(next);
        }
    }
    positions
}

fn moves_made<G: Profile>(positions: &[(G, Vec<G::Move>)]) -> u64 {
    positions.iter().map(|(_, moves)| moves.len() as u64).sum()
}

fn bench_game<G: Bench>(c: &mut Criterion) {
    let start = G::start(G::Rules::default());
    let name = G::NAME;

    let mut group = c.benchmark_group(format!("{name}/perft"));
    for depth in G::PERFT_DEPTHS {
        group.throughput(Throughput::Elements(perft(&start, depth)));
        group.bench_with_input(BenchmarkId::new("start", depth), &depth, |b, &depth| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    group.finish();

    let mut group = c.benchmark_group(format!("{name}/search"));
    group.throughput(Throughput::Elements(search_nodes(&start, G::SEARCH_DEPTH)));
    group.bench_function(format!("start/depth/{}", G::SEARCH_DEPTH), |b| {
        let mut searcher = Searcher::<G>::new(64);
        b.iter(|| {
            searcher.clear();
            black_box(searcher.search(&start, &[], &depth_limit(G::SEARCH_DEPTH), 1, &mut |_| {}))
        })
    });
    group.finish();

    let positions = playout_positions::<G>();
    let mut group = c.benchmark_group(format!("{name}/movegen"));
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves", |b| {
        let mut moves = MoveList::<G::Move>::new();
        b.iter(|| {
            let mut total = 0;
            for (position, _) in &positions {
                moves.clear();
                black_box(position).legal_moves(&mut moves);
                total += moves.len();
            }
            total
        })
    });
    group.finish();

    let mut group = c.benchmark_group(format!("{name}/make"));
    group.throughput(Throughput::Elements(moves_made(&positions)));
    group.bench_function("clone_play", |b| {
        b.iter(|| {
            let mut hashes = 0u64;
            for (position, moves) in &positions {
                for &mv in moves {
                    let mut child = black_box(position).clone();
                    child.play(mv);
                    hashes ^= child.hash();
                }
            }
            hashes
        })
    });
    group.finish();
}

fn bench_offboard(c: &mut Criterion) {
    bench_game::<offboard::Position>(c);
}

fn bench_abraxas(c: &mut Criterion) {
    bench_game::<abraxas::Position>(c);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .without_plots();
    targets = bench_offboard, bench_abraxas
}

/// Where criterion keeps its results (its own lookup: `CRITERION_HOME`, then the cargo
/// target directory, which holds this executable as `<target>/<profile>/deps/<bench>`).
fn criterion_dir() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return Some(PathBuf::from(home));
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return Some(PathBuf::from(target).join("criterion"));
    }
    let exe = std::env::current_exe().ok()?;
    Some(exe.ancestors().nth(3)?.join("criterion"))
}

/// The median (in ns) of one benchmark, if it was measured by this run. `dir` is its
/// directory under criterion's, which writes the group and function names with `/` as `_`
/// (a `BenchmarkId`'s parameter is a subdirectory).
fn median_ns(dir: &str, since: SystemTime) -> Option<f64> {
    let path = criterion_dir()?
        .join(dir)
        .join("new")
        .join("estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None;
    }
    let json = std::fs::read_to_string(path).ok()?;
    let median = &json[json.find("\"median\"")?..];
    let value = &median[median.find("\"point_estimate\":")? + "\"point_estimate\":".len()..];
    let end = value.find([',', '}'])?;
    value[..end].trim().parse().ok()
}

/// Prints the rates of one game from the medians of this run.
fn report_game<G: Bench>(since: SystemTime) {
    let start = G::start(G::Rules::default());
    let name = G::NAME;
    for depth in G::PERFT_DEPTHS {
        let id = format!("{name}/perft/start/{depth}");
        if let Some(ns) = median_ns(&format!("{name}_perft/start/{depth}"), since) {
            let nodes = perft(&start, depth);
            println!(
                "  {id:<28} {nodes:>10} leaves in {:>10.3} ms = {:>6.2} M leaf nodes/s",
                ns / 1e6,
                nodes as f64 / ns * 1e3
            );
        }
    }
    let depth = G::SEARCH_DEPTH;
    let id = format!("{name}/search/start/depth/{depth}");
    if let Some(ns) = median_ns(&format!("{name}_search/start_depth_{depth}"), since) {
        let nodes = search_nodes(&start, depth);
        println!(
            "  {id:<28} {nodes:>10} nodes  in {:>10.3} ms = {:>6.2} M nodes/s",
            ns / 1e6,
            nodes as f64 / ns * 1e3
        );
    }
    let positions = playout_positions::<G>();
    if let Some(ns) = median_ns(&format!("{name}_movegen/legal_moves"), since) {
        println!(
            "  {:<28} {:>10} positions in {:>7.3} ms = {:>6.2} M positions/s",
            format!("{name}/movegen/legal_moves"),
            positions.len(),
            ns / 1e6,
            positions.len() as f64 / ns * 1e3
        );
    }
    if let Some(ns) = median_ns(&format!("{name}_make/clone_play"), since) {
        let moves = moves_made(&positions);
        println!(
            "  {:<28} {moves:>10} moves in {:>11.3} ms = {:>6.2} M moves/s",
            format!("{name}/make/clone_play"),
            ns / 1e6,
            moves as f64 / ns * 1e3
        );
    }
}

fn main() {
    let since = SystemTime::now();
    benches();
    Criterion::default().configure_from_args().final_summary();
    println!("\nmedians of this run:");
    report_game::<offboard::Position>(since);
    report_game::<abraxas::Position>(since);
}
