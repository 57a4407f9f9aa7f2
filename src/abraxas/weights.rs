//! The abraxas evaluation's weights, indexed like `eval::term`: the engine's defaults.
//! `shove tune --game abraxas --out <this file>` rewrites it; the build includes it.
//! Tuned on 103346 positions (K 0.002024, lambda 0.5): validation error 0.062955 -> 0.036947.

#[rustfmt::skip]
pub const WEIGHTS: [i32; super::eval::term::COUNT] = [
    24, // stone
    8, // lead_as_pool_empties
    643, // stop_stone
    1, // pending_capture
    12, // placer_holes
    4, // other_holes
    547, // placer_chain_1
    447, // placer_chain_2
    458, // placer_chain_3
    280, // placer_chain_4
    187, // other_chain_1
    470, // other_chain_2
    159, // other_chain_3
];
