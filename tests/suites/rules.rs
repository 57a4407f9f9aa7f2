//! The rules of every game: rule-by-rule tests, naive second implementations, perft tables
//! and the toy game of docs/new-game.md.
//!
//! One test binary for several files (each a module, named as its file), so that the
//! release build links it once.

#[path = "../abraxas_naive.rs"]
mod abraxas_naive;
#[path = "../abraxas_rules.rs"]
mod abraxas_rules;
#[path = "../akiba_naive.rs"]
mod akiba_naive;
#[path = "../akiba_rules.rs"]
mod akiba_rules;
#[path = "../new_game.rs"]
mod new_game;
#[path = "../offboard_naive.rs"]
mod offboard_naive;
#[path = "../offboard_rules.rs"]
mod offboard_rules;
#[path = "../perft.rs"]
mod perft;

// The shared helpers, once for the suite (each file uses what it needs).
#[allow(dead_code)]
#[path = "../common/fuzz.rs"]
mod fuzz;
#[allow(dead_code)]
#[path = "../common/moves.rs"]
mod moves;
