//! Engine-vs-engine matches (`shove match`): the built-in rules engine referees games
//! between two engine processes, every opening twice with colours swapped, and the result is
//! stated as Elo with error bars, LOS and optionally an SPRT verdict (see [`stats`]).
//! Tournaments (`shove tournament`, [`tournament`]) play many such pairings in one run.
//!
//! Everything is written once against [`crate::game::Game`]; [`crate::games::with_game`]
//! maps the game's name to its type.

mod adjudication;
// The runs of games: engine processes, plans, logs on disk (the application's).
#[cfg(feature = "native")]
mod config;
#[cfg(feature = "native")]
mod engine;
pub mod log;
pub mod openings;
#[cfg(feature = "native")]
mod plan;
#[cfg(feature = "native")]
mod play;
pub mod rating;
mod report;
#[cfg(feature = "native")]
mod resume;
#[cfg(feature = "native")]
mod runner;
pub mod stats;
mod tc;
#[cfg(feature = "native")]
pub mod tournament;

pub use adjudication::{Adjudication, DrawReason};
#[cfg(feature = "native")]
pub use config::{EngineConfig, MatchConfig, RunConfig, parse_engine_option};
#[cfg(feature = "native")]
pub use engine::split_command;
pub use log::FailureKind;
pub use report::MatchReport;
#[cfg(feature = "native")]
pub use runner::run_match;
pub use tc::{Dialect, TimeControl};
#[cfg(feature = "native")]
pub use tournament::{Format, TournamentConfig, TournamentReport, run_tournament};
