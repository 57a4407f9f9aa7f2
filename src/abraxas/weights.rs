//! The abraxas evaluation's weights, indexed like `eval::term`: the engine's defaults.
//! `shove tune --game abraxas --out <this file>` rewrites it; the build includes it.
//! Tuned on 103346 positions (K 0.005120, lambda 0.5): validation error 0.059162 -> 0.039381.

#[rustfmt::skip]
pub const WEIGHTS: [i32; super::eval::term::COUNT] = [
    35, // stone
    4, // lead_as_pool_empties
    287, // stop_stone
    0, // pending_capture
    5, // placer_holes
    2, // other_holes
    270, // placer_chain_1
    235, // placer_chain_2
    254, // placer_chain_3
    144, // placer_chain_4
    84, // other_chain_1
    209, // other_chain_2
    78, // other_chain_3
];
