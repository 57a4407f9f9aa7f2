//! The command line and the code's own checks: the protocol, matches, tournaments, the
//! pipeline and its shards, puzzles, the release, the docs' examples and the layers.
//!
//! One test binary for several files (each a module, named as its file), so that the
//! release build links it once.

#[path = "../docs.rs"]
mod docs;
#[path = "../layers.rs"]
mod layers;
#[path = "../matches.rs"]
mod matches;
#[path = "../options_order.rs"]
mod options_order;
#[path = "../page_imports.rs"]
mod page_imports;
#[path = "../pipeline.rs"]
mod pipeline;
#[path = "../protocol.rs"]
mod protocol;
#[path = "../protocol_fuzz.rs"]
mod protocol_fuzz;
#[path = "../puzzles.rs"]
mod puzzles;
#[path = "../release.rs"]
mod release;
#[path = "../shard.rs"]
mod shard;
#[path = "../tournament.rs"]
mod tournament;

// The shared helpers, once for the suite (each file uses what it needs).
#[path = "../common/binary.rs"]
mod binary;
#[path = "../common/engine.rs"]
mod engine;
#[allow(dead_code)]
#[path = "../common/network.rs"]
mod network;
#[allow(dead_code)]
#[path = "../common/playout.rs"]
mod playout;
#[allow(dead_code)]
#[path = "../common/src_files.rs"]
mod src_files;
