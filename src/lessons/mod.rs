//! Lessons (`/learn` in `shove gui`): per game, short exercises on small positions that
//! teach the rules one idea at a time. Each exercise is data, in
//! `src/lessons/<game>.txt` (docs/lessons.md): a position, a goal the rules can check, the
//! moves that reach it and the wrong ones with why they are wrong, in English, German and
//! French. Reading a file checks every exercise against the rules ([`format::parse`]).

pub mod api;
pub mod format;
pub mod goals;

use crate::games::{GameVisitor, every_game};
use crate::profile::Profile;

/// The shipped lesson files (each game's [`Profile::LESSONS`]), as (game name, text).
pub fn files() -> Vec<(&'static str, &'static str)> {
    struct Files;
    impl GameVisitor for Files {
        type Output = (&'static str, &'static str);
        fn visit<G: Profile>(self) -> Self::Output {
            (G::NAME, G::LESSONS)
        }
    }
    every_game(|| Files)
}
