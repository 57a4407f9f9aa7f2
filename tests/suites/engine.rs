//! The engine: search, threads, networks, levels, review, records, ratings and lessons.
//!
//! One test binary for several files (each a module, named as its file), so that the
//! release build links it once.

#[path = "../lessons.rs"]
mod lessons;
#[path = "../levels.rs"]
mod levels;
#[path = "../nnue.rs"]
mod nnue;
#[path = "../rating.rs"]
mod rating;
#[path = "../records.rs"]
mod records;
#[path = "../review.rs"]
mod review;
#[path = "../search.rs"]
mod search;
#[path = "../threads.rs"]
mod threads;

// The shared helpers, once for the suite (each file uses what it needs).
#[path = "../common/binary.rs"]
mod binary;
#[path = "../common/engine.rs"]
mod engine;
#[allow(dead_code)]
#[path = "../common/playout.rs"]
mod playout;
