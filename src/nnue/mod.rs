//! The learned evaluation: a small efficiently updatable network (NNUE) per game.
//!
//! Each game lists the active inputs of a position from one player's view
//! ([`crate::evaluation::Evaluation::network_inputs`]: one input per cell × content, plus one-hot
//! counters). One hidden layer, shared by both views, turns each view's inputs into an
//! accumulator; clipped ReLU; the output layer reads the side to move's half first. Weights
//! are integers ([`QA`], [`QB`]) so the engine's arithmetic is exact and fast, and the
//! accumulators follow the search incrementally ([`Evaluator`]). Networks are trained by
//! the `shove-train` crate (docs/nnue.md) from `shove selfplay` data.

pub mod choice;
mod evaluator;
mod inputs;
mod layer;
mod network;

pub use choice::EvalKind;
pub use evaluator::Evaluator;
#[cfg(test)]
pub(crate) use inputs::check_mirror;
pub use inputs::{Inputs, MAX_INPUTS, exchange_blocks};
pub use network::{Network, QA, QB};
