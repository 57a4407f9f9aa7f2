//! Puzzles: positions from played games where one move is clearly best, with the whole
//! solution, a rating on the game's level scale and themes (docs/puzzles.md). The shipped
//! sets are built into the binary for `shove gui`.

#[cfg(feature = "native")]
pub mod check;
pub mod format;
#[cfg(feature = "native")]
pub mod generate;
#[cfg(feature = "native")]
pub mod judge;
#[cfg(feature = "native")]
pub mod rating;
#[cfg(feature = "native")]
pub mod sources;
#[cfg(feature = "native")]
pub mod taken;
#[cfg(feature = "native")]
pub mod themes;

use crate::games::{GameVisitor, every_game};
use crate::profile::Profile;

/// The shipped sets (each game's [`Profile::PUZZLES`], `positions/puzzles/<game>.txt`), as
/// (game name, text).
pub fn sets() -> Vec<(&'static str, &'static str)> {
    struct Sets;
    impl GameVisitor for Sets {
        type Output = (&'static str, &'static str);
        fn visit<G: Profile>(self) -> Self::Output {
            (G::NAME, G::PUZZLES)
        }
    }
    every_game(|| Sets)
}
