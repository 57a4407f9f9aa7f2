//! Lessons (`/learn` in `shove gui`): per game, short exercises on small positions that
//! teach the rules one idea at a time. Each exercise is data, in
//! `src/lessons/<game>.txt` (docs/lessons.md): a position, a goal the rules can check, the
//! moves that reach it and the wrong ones with why they are wrong, in English, German and
//! French. Reading a file checks every exercise against the rules ([`format::parse`]).

pub mod api;
pub mod format;
pub mod goals;

/// The shipped lesson files, by game name.
pub const FILES: &[(&str, &str)] = &[
    ("akiba", include_str!("akiba.txt")),
    ("offboard", include_str!("offboard.txt")),
    ("abraxas", include_str!("abraxas.txt")),
];
