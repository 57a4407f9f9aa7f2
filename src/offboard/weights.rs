//! The offboard evaluation's weights, indexed like `eval::term`: the engine's defaults.
//! `shove tune --game offboard --out <this file>` rewrites it; the build includes it.
//! Tuned on 99226 positions (K 0.001577, lambda 0.5): validation error 0.020665 -> 0.020457.

#[rustfmt::skip]
pub const WEIGHTS: [i32; super::eval::term::COUNT] = [
    89, // point
    6, // point_progress
    48, // marble
    -3, // exposure
    8, // exposure_occupied
    9, // cohesion
    -1, // return_threat
    13, // centre
    68, // threat_to_move
    44, // pending
    19, // tempo
    31, // threat_waiting
    18, // winning_threat_waiting
    -10, // cells_like_a1
    7, // cells_like_a2
    24, // cells_like_a3
    -27, // cells_like_a4
    -66, // cells_like_a5
    -3, // cells_like_b1
    10, // cells_like_b2
    -3, // cells_like_b3
    -8, // cells_like_b4
    -12, // cells_like_b5
    -7, // cells_like_b6
    0, // cells_like_c1
    -6, // cells_like_c2
    0, // cells_like_c3
    3, // cells_like_c4
    8, // cells_like_c5
    -26, // cells_like_c6
    -12, // cells_like_c7
    20, // cells_like_d1
    10, // cells_like_d2
    4, // cells_like_d3
    4, // cells_like_d4
    10, // cells_like_d5
    14, // cells_like_d6
    3, // cells_like_d7
    19, // cells_like_d8
    -35, // cells_like_e1
    -15, // cells_like_e2
    2, // cells_like_e3
    1, // cells_like_e4
    9, // cells_like_e5
];
