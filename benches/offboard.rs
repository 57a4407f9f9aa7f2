//! Offboard benchmarks: `cargo bench --bench offboard`.
//!
//! - `offboard/perft`: perft 3 and 4 from the start (leaf nodes per second);
//! - `offboard/search`: a fixed-depth search from the start with fresh tables.
//!
//! Search nodes per second are printed first, from one deterministic search to depth 7.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use shove::offboard::{Position, Rules};
use shove::perft::perft;
use shove::search::{Limits, Searcher};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn depth_limit(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

fn bench_offboard(c: &mut Criterion) {
    let start = Position::start(Rules::default());

    let mut searcher = Searcher::<Position>::new(64);
    let clock = Instant::now();
    let result = searcher.search(&start, &[], &depth_limit(7), 1, &mut |_| {});
    let seconds = clock.elapsed().as_secs_f64();
    println!(
        "offboard start, depth 7: {} nodes in {seconds:.3} s = {:.0} nodes/s",
        result.nodes,
        result.nodes as f64 / seconds
    );

    let mut group = c.benchmark_group("offboard/perft");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for depth in [3, 4] {
        group.throughput(Throughput::Elements(perft(&start, depth)));
        group.bench_with_input(BenchmarkId::new("start", depth), &depth, |b, &depth| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("offboard/search");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("start/depth/5", |b| {
        let mut searcher = Searcher::<Position>::new(64);
        b.iter(|| {
            searcher.clear();
            black_box(searcher.search(&start, &[], &depth_limit(5), 1, &mut |_| {}))
        })
    });
    group.finish();
}

criterion_group!(benches, bench_offboard);
criterion_main!(benches);
