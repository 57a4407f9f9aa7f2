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
pub mod themes;

/// The shipped sets, by game name: `positions/puzzles/<game>.txt`.
pub const SETS: &[(&str, &str)] = &[
    ("akiba", include_str!("../../positions/puzzles/akiba.txt")),
    (
        "offboard",
        include_str!("../../positions/puzzles/offboard.txt"),
    ),
    (
        "abraxas",
        include_str!("../../positions/puzzles/abraxas.txt"),
    ),
];
