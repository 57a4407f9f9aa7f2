//! `shove-train`: trains shove's NNUE evaluation networks (docs/nnue.md) from
//! `shove selfplay` data.
//!
//! Learning is candle's: its autograd gives the gradients and its AdamW takes the steps,
//! so this crate only says what the network computes ([`model`]), what it learns from
//! ([`data`]) and how a run goes ([`trainer`]). It is a separate crate of the workspace so
//! the engine builds without candle.

pub mod data;
pub mod model;
pub mod trainer;
