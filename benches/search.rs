//! Search benchmarks: `cargo bench --bench search`.
//!
//! - `search/start/depth`: time to depth 8 and 10 from the start position (fresh tables);
//! - `search/eval`: the static evaluation over a set of positions.
//!
//! Nodes per second and the effective branching factor are printed before the timings,
//! from one deterministic iterative-deepening run to depth 12.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use shove::akiba::Position;
use shove::evaluation::Evaluation;
use shove::search::{Limits, Searcher};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn depth_limit(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

/// Nodes per iteration to depth 12 from the start: nps and the effective branching factor
/// (geometric mean of the node-count ratios of successive iterations from depth 4 on).
fn report_branching() {
    let start = Position::start(Default::default());
    let mut searcher = Searcher::<Position>::new(64);
    let mut nodes = Vec::new();
    let clock = Instant::now();
    let result = searcher.search(&start, &[], &depth_limit(12), 1, &mut |info| {
        nodes.push(info.nodes)
    });
    let seconds = clock.elapsed().as_secs_f64();
    let ratios: Vec<f64> = nodes
        .windows(2)
        .skip(3)
        .map(|w| w[1] as f64 / w[0] as f64)
        .collect();
    let ebf = ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64;
    println!(
        "start position, depth 12: {} nodes in {seconds:.3} s = {:.0} nodes/s, \
         effective branching factor {:.2}",
        result.nodes,
        result.nodes as f64 / seconds,
        ebf.exp()
    );
}

fn bench_search(c: &mut Criterion) {
    report_branching();
    let start = Position::start(Default::default());
    let mut group = c.benchmark_group("search/start");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for depth in [8, 10] {
        group.bench_with_input(BenchmarkId::new("depth", depth), &depth, |b, &depth| {
            let mut searcher = Searcher::<Position>::new(64);
            b.iter(|| {
                searcher.clear();
                black_box(searcher.search(&start, &[], &depth_limit(depth), 1, &mut |_| {}))
            })
        });
    }
    group.finish();

    let positions: Vec<Position> = [
        Position::START,
        "W1W1B1B/W2R1B1/1RRR3/1RR1RRW/2RRB2/B2R1W1/B4WW w 1 0 - - 9",
        "2W4/1W1RB2/R1RR1B1/1BRRR2/W1R1W2/1B1R1W1/7 b 2 1 - - 21",
        "7/7/2R1B2/1W1R3/3R1W1/2B4/7 b 5 4 - - 50",
    ]
    .iter()
    .map(|text| text.parse().expect("bench position"))
    .collect();
    c.bench_function("search/eval", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).evaluate())
                .sum::<i32>()
        })
    });
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
