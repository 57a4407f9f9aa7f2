//! Per-game benchmarks for Offboard and Abraxas, written once over [`Game`]:
//! `cargo bench --bench games` (criterion's filter picks one game, e.g.
//! `cargo bench --bench games -- abraxas/`).
//!
//! For each game:
//! - `<game>/perft/start/<depth>`: perft from the start position (Offboard 3 and 4,
//!   Abraxas 2 and 3);
//! - `<game>/search/start/depth/<d>`: a fixed-depth search from the start with fresh tables
//!   (Offboard depth 7, Abraxas depth 8).
//!
//! At the end it prints, from the medians of this run (criterion's `estimates.json`), perft
//! leaf nodes per second and search nodes per second (the node count of one deterministic
//! search to the same depth, divided by the median time).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use shove::game::Game;
use shove::perft::perft;
use shove::search::{Limits, Searcher};
use shove::{abraxas, offboard};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// What differs between the games benchmarked: the depths.
trait Bench: Game {
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
fn search_nodes<G: Game>(start: &G, depth: u32) -> u64 {
    let mut searcher = Searcher::<G>::new(64);
    searcher
        .search(start, &[], &depth_limit(depth), 1, &mut |_| {})
        .nodes
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
}

fn main() {
    let since = SystemTime::now();
    benches();
    Criterion::default().configure_from_args().final_summary();
    println!("\nmedians of this run:");
    report_game::<offboard::Position>(since);
    report_game::<abraxas::Position>(since);
}
