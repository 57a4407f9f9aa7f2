//! Engine-vs-engine matches (`shove match`): the built-in rules engine referees games
//! between two engine processes, every opening twice with colours swapped, and the result is
//! stated as Elo with error bars, LOS and optionally an SPRT verdict (see [`stats`]).
//!
//! Everything is written once against [`Game`]; [`with_game`] is the one place that maps a
//! game name to its type.

mod adjudication;
mod engine;
pub mod log;
pub mod openings;
mod runner;
pub mod stats;
mod tc;

pub use adjudication::{Adjudication, DrawReason};
pub use engine::split_command;
pub use runner::{
    EngineConfig, FailureKind, MatchConfig, MatchReport, parse_engine_option, run_match,
};
pub use tc::{Dialect, TimeControl};

use crate::akiba;
use crate::game::Game;
use crate::offboard;

/// Something to do with a game type chosen by name at run time.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

/// The names [`with_game`] knows.
pub const GAME_NAMES: &[&str] = &[akiba::Position::NAME, offboard::Position::NAME];

/// Runs `visitor` with the game called `name` (case-insensitive). A new game is one more
/// arm here (and its name in [`GAME_NAMES`]).
pub fn with_game<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, String> {
    let name = name.to_ascii_lowercase();
    if name == akiba::Position::NAME {
        Ok(visitor.visit::<akiba::Position>())
    } else if name == offboard::Position::NAME {
        Ok(visitor.visit::<offboard::Position>())
    } else {
        Err(format!(
            "unknown game '{name}' (expected one of: {})",
            GAME_NAMES.join(", ")
        ))
    }
}
