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
