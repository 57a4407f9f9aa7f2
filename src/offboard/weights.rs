//! The Offboard evaluation's weights, indexed like `eval::term`: the engine's defaults.
//! `shove tune --game offboard --out <this file>` rewrites it; the build includes it.

#[rustfmt::skip]
pub const WEIGHTS: [i32; super::eval::term::COUNT] = [
    100, // point
    10, // point_progress
    30, // marble
    -4, // exposure
    -2, // exposure_occupied
    3, // cohesion
    8, // return_threat
    4, // centre
    60, // threat_to_move
    20, // pending
    10, // tempo
    20, // threat_waiting
    150, // winning_threat_waiting
    0, // cells_like_a1
    0, // cells_like_a2
    0, // cells_like_a3
    0, // cells_like_a4
    0, // cells_like_a5
    0, // cells_like_b1
    0, // cells_like_b2
    0, // cells_like_b3
    0, // cells_like_b4
    0, // cells_like_b5
    0, // cells_like_b6
    0, // cells_like_c1
    0, // cells_like_c2
    0, // cells_like_c3
    0, // cells_like_c4
    0, // cells_like_c5
    0, // cells_like_c6
    0, // cells_like_c7
    0, // cells_like_d1
    0, // cells_like_d2
    0, // cells_like_d3
    0, // cells_like_d4
    0, // cells_like_d5
    0, // cells_like_d6
    0, // cells_like_d7
    0, // cells_like_d8
    0, // cells_like_e1
    0, // cells_like_e2
    0, // cells_like_e3
    0, // cells_like_e4
    0, // cells_like_e5
];
