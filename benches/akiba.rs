//! Akiba move-generation benchmarks: `cargo bench --bench akiba`.
//!
//! - `movegen`: `legal_moves` over every position of `positions/akiba.perft`;
//! - `make`: clone + `play` of every legal move of those positions;
//! - `perft`: perft 5 and 6 from the start, and perft 5 by the naive array generator of
//!   `tests/naive/akiba.rs`, the reference of the naive cross-check test (checked to give
//!   the same counts before anything is timed).
//!
//! At the end it prints perft leaf nodes per second (nodes / median time) for both
//! generators and their ratio, read back from criterion's `estimates.json`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use shove::akiba::{Move, Position, RepeatRule, Rules};
use shove::game::MoveList;
use shove::perft::perft;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

#[path = "../tests/naive/akiba.rs"]
mod naive;

const TABLE: &str = include_str!("../positions/akiba.perft");

/// Perft depths timed for the fast generator, and the one timed for both.
const FAST_DEPTHS: [u32; 2] = [5, 6];
const COMPARE_DEPTH: u32 = 5;

/// The table's positions with their rules (the position string and the `rules=` tag).
fn table_positions() -> Vec<(String, Rules)> {
    TABLE
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut fields = line.split(';').map(str::trim);
            let fen = fields.next().expect("position field").to_string();
            let mut rules = Rules::default();
            for tag in fields.filter_map(|f| f.strip_prefix("rules=")) {
                for name in tag.split(',') {
                    match name {
                        "noextra" => rules.extra_move = false,
                        "ko" => rules.repeat = RepeatRule::Ko,
                        _ => panic!("unknown rule {name:?} in {line:?}"),
                    }
                }
            }
            (fen, rules)
        })
        .collect()
}

fn positions() -> Vec<Position> {
    table_positions()
        .iter()
        .map(|(fen, rules)| Position::parse(fen, *rules).expect("table position"))
        .collect()
}

/// The naive generator must count exactly what the fast one counts, or the comparison
/// means nothing.
fn check_naive_agrees() {
    let start = Position::start(Rules::default());
    let naive_start = naive::Naive::parse(Position::START, true, false);
    for depth in 1..=COMPARE_DEPTH {
        assert_eq!(
            naive::naive_perft(&naive_start, depth),
            perft(&start, depth),
            "naive and fast perft({depth}) differ from the start"
        );
    }
    for (fen, rules) in table_positions() {
        if rules != Rules::default() {
            continue;
        }
        let fast = Position::parse(&fen, rules).unwrap();
        let slow = naive::Naive::parse(&fen, true, false);
        for depth in 1..=3 {
            assert_eq!(
                naive::naive_perft(&slow, depth),
                perft(&fast, depth),
                "naive and fast perft({depth}) differ for {fen}"
            );
        }
    }
}

fn bench_movegen(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves", |b| {
        let mut moves = MoveList::<Move>::new();
        b.iter(|| {
            let mut total = 0;
            for position in &positions {
                moves.clear();
                black_box(position).legal_moves(&mut moves);
                total += moves.len();
            }
            total
        })
    });
    group.finish();
}

fn bench_make(c: &mut Criterion) {
    let work: Vec<(Position, Vec<Move>)> = positions()
        .into_iter()
        .map(|position| {
            let mut moves = MoveList::new();
            position.legal_moves(&mut moves);
            let moves = moves.to_vec();
            (position, moves)
        })
        .collect();
    let total: usize = work.iter().map(|(_, moves)| moves.len()).sum();
    let mut group = c.benchmark_group("make");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("clone_play", |b| {
        b.iter(|| {
            let mut hashes = 0u64;
            for (position, moves) in &work {
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

fn bench_perft(c: &mut Criterion) {
    check_naive_agrees();
    let start = Position::start(Rules::default());
    let naive_start = naive::Naive::parse(Position::START, true, false);
    let mut group = c.benchmark_group("perft");
    for depth in FAST_DEPTHS {
        group.throughput(Throughput::Elements(perft(&start, depth)));
        group.bench_with_input(BenchmarkId::new("fast", depth), &depth, |b, &depth| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    group.throughput(Throughput::Elements(perft(&start, COMPARE_DEPTH)));
    group.bench_with_input(
        BenchmarkId::new("naive", COMPARE_DEPTH),
        &COMPARE_DEPTH,
        |b, &depth| b.iter(|| naive::naive_perft(black_box(&naive_start), depth)),
    );
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .without_plots();
    targets = bench_movegen, bench_make, bench_perft
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

/// The median (in ns) of one benchmark, if it was measured by this run.
fn median_ns(id: &str, since: SystemTime) -> Option<f64> {
    let path = criterion_dir()?.join(id).join("new").join("estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None;
    }
    let json = std::fs::read_to_string(path).ok()?;
    let median = &json[json.find("\"median\"")?..];
    let value = &median[median.find("\"point_estimate\":")? + "\"point_estimate\":".len()..];
    let end = value.find([',', '}'])?;
    value[..end].trim().parse().ok()
}

fn report(since: SystemTime) {
    let start = Position::start(Rules::default());
    let mut rates = Vec::new();
    println!("\nmedians of this run:");
    for id in ["movegen/legal_moves", "make/clone_play"] {
        if let Some(ns) = median_ns(id, since) {
            println!("  {id:<22} {:>12.3} µs", ns / 1e3);
        }
    }
    let perft_ids = FAST_DEPTHS
        .map(|depth| ("fast", depth))
        .into_iter()
        .chain([("naive", COMPARE_DEPTH)]);
    for (name, depth) in perft_ids {
        let id = format!("perft/{name}/{depth}");
        let Some(ns) = median_ns(&id, since) else {
            continue;
        };
        let nodes = perft(&start, depth);
        let rate = nodes as f64 / (ns * 1e-9);
        println!(
            "  {id:<22} {:>12.3} ms  {nodes} leaf nodes  {:.1} M nodes/s",
            ns / 1e6,
            rate / 1e6
        );
        rates.push((name, depth, rate));
    }
    let rate_of = |name: &str| {
        rates
            .iter()
            .find(|&&(n, d, _)| n == name && d == COMPARE_DEPTH)
            .map(|&(_, _, rate)| rate)
    };
    if let (Some(fast), Some(naive)) = (rate_of("fast"), rate_of("naive")) {
        println!(
            "  perft {COMPARE_DEPTH}: fast / naive = {:.1}x (targets: fast >= 50 M nodes/s, >= 10x naive)",
            fast / naive
        );
    }
}

fn main() {
    let since = SystemTime::now();
    benches();
    Criterion::default().configure_from_args().final_summary();
    report(since);
}
