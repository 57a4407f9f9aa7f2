//! shove: an engine for marble-pushing board games.
//!
//! Each game implements [`game::Game`] (its rules), [`evaluation::Evaluation`],
//! [`search_hints::SearchHints`], [`view::View`] and [`profile::Profile`]; perft, search,
//! the protocol and the products are written once against those traits.

pub mod abraxas;
pub mod akiba;
pub mod cli;
pub mod diagram;
pub mod evaluation;
pub mod game;
pub mod games;
pub mod gui;
pub mod lessons;
pub mod linear;
#[cfg(feature = "native")]
pub mod logging;
pub mod matches;
pub mod nnue;
pub mod offboard;
pub mod options;
pub mod perft;
pub mod phrase;
#[cfg(feature = "native")]
pub mod pipeline;
pub mod players;
pub mod position_string;
pub mod profile;
pub mod progress;
pub mod puzzles;
pub mod record;
pub mod review;
pub mod rng;
pub mod search;
pub mod search_hints;
pub mod taught;
pub mod tt;
#[cfg(feature = "native")]
pub mod uci;
pub mod view;
