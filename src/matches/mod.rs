//! Engine-vs-engine matches (`shove match`): the built-in rules engine referees games
//! between two engine processes, every opening twice with colours swapped, and the result is
//! stated as Elo with error bars, LOS and optionally an SPRT verdict (see [`stats`]).
//! Tournaments (`shove tournament`, [`tournament`]) play many such pairings in one run.
//!
//! Everything is written once against [`crate::game::Game`]; [`crate::games::with_game`]
//! maps the game's name to its type.

mod adjudication;
mod config;
mod engine;
pub mod log;
pub mod openings;
mod plan;
mod play;
pub mod rating;
mod report;
mod resume;
mod runner;
pub mod stats;
mod tc;
pub mod tournament;

pub use adjudication::{Adjudication, DrawReason};
pub use config::{EngineConfig, MatchConfig, RunConfig, parse_engine_option};
pub use engine::split_command;
pub use report::{FailureKind, MatchReport};
pub use runner::run_match;
pub use tc::{Dialect, TimeControl};
pub use tournament::{Format, TournamentConfig, TournamentReport, run_tournament};
