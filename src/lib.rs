//! shove: an engine for marble-pushing board games.
//!
//! Each game implements [`game::Game`]; perft, search and the protocol are written once
//! against that trait.

pub mod abraxas;
pub mod akiba;
pub mod cli;
pub mod diagram;
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
pub mod progress;
pub mod puzzles;
pub mod record;
pub mod review;
pub mod rng;
pub mod search;
pub mod tt;
#[cfg(feature = "native")]
pub mod uci;
