//! The Akiba evaluation's weights, indexed like `eval::term`: the engine's defaults.
//! `shove tune --game akiba --out <this file>` rewrites it; the build includes it.

#[rustfmt::skip]
pub const WEIGHTS: [i32; super::eval::term::COUNT] = [
    100, // red_won
    8, // red_won_progress
    90, // marble
    6, // marble_scarcity
    60, // red_threat_to_move
    50, // capture_threat_to_move
    25, // red_threat_waiting
    20, // capture_threat_waiting
    -6, // edge_exposure
    2, // mobility
    1, // red_in_own_line
    10, // tempo
    0, // cohesion
    0, // cells_like_a1
    0, // cells_like_a2
    0, // cells_like_b2
    0, // cells_like_a3
    0, // cells_like_b3
    0, // cells_like_c3
    0, // cells_like_a4
    0, // cells_like_b4
    0, // cells_like_c4
    0, // cells_like_d4
];
