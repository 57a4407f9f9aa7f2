//! The akiba evaluation's weights, indexed like `eval::term`: the engine's defaults.
//! `shove tune --game akiba --out <this file>` rewrites it; the build includes it.
//! Tuned on 71332 positions (K 0.003388, lambda 0.5): validation error 0.045571 -> 0.040121.

#[rustfmt::skip]
pub const WEIGHTS: [i32; super::eval::term::COUNT] = [
    46, // red_won
    16, // red_won_progress
    77, // marble
    9, // marble_scarcity
    11, // red_threat_to_move
    64, // capture_threat_to_move
    193, // red_threat_waiting
    32, // capture_threat_waiting
    -30, // edge_exposure
    11, // mobility
    9, // red_in_own_line
    44, // tempo
    20, // cohesion
    -16, // cells_like_a1
    -33, // cells_like_a2
    -22, // cells_like_b2
    -14, // cells_like_a3
    11, // cells_like_b3
    33, // cells_like_c3
    5, // cells_like_a4
    17, // cells_like_b4
    37, // cells_like_c4
    36, // cells_like_d4
];
