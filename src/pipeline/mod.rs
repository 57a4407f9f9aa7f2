//! Producing data for the engine rather than playing: balanced opening sets now, self-play
//! and tuning next to it.

pub mod openings;
