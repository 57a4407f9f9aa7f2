//! Producing data for the engine rather than playing: balanced openings, self-play data,
//! Texel tuning of the evaluation weights, and sharding and merging runs over machines.

pub mod data;
pub mod merge;
pub mod openings;
pub mod playout;
pub mod quiet;
pub mod selfplay;
pub mod shard;
pub mod tune;
