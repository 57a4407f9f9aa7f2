//! Abraxas as the products see it: its measured constants and its built-in data.

use super::Position;
use crate::profile::Profile;

impl Profile for Position {
    // The built-in network's K (docs/nnue.md), which is the classical weights' fit
    // (src/abraxas/weights.rs): the network is the default.
    const RESULT_SCALE: f64 = 0.005120;
    /// docs/review.md, Defaults.
    const REVIEW_DEPTH: u32 = 6;
    const REVIEW_CONFIRMATION: u32 = 4;

    // docs/strength.md, Levels.
    const LEVEL_ELO: [i32; 21] = [
        921, 972, 1058, 1115, 1195, 1224, 1287, 1339, 1388, 1419, 1485, 1513, 1562, 1607, 1614,
        1638, 1669, 1704, 1711, 1725, 1765,
    ];

    /// A placement may go on any empty hole, so a turn offers up to ~120 moves: level 0
    /// chooses among twice the lines of the other games, or its choice would be among the
    /// few best moves of a board this wide (docs/experiments.md).
    const LEVEL_0_LINES: usize = 32;

    /// A stop stone or a capture chain is worth ~250 and the start already scores ~170 for
    /// the first placer, so after a few random placements hardly a position is within 60
    /// (one candidate in a hundred at depth 6): self-play spent its time judging.
    const BALANCED_SCORE: i32 = 200;

    /// The start, openings, middlegames with the game's special states, endgames.
    const BENCH: (&'static [&'static str], u32) = (
        &[
            "s1 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1",
            "s1 8/8/2RBR3/8/6R1/6R1/8/R2B4 sw 1 s r 18 0 1 1 3 4",
            "s1 RR6/3B1R1R/8/3R4/8/8/5B1B/R6R sw 1 a r 14 0 3 1 2 6",
            "s1 8/8/3R3R/6BR/B1B1R3/1R2BR2/7R/8 nw 1 c - 17 0 0 0 2 6",
        ],
        10,
    );
    const OPENINGS: &'static str = include_str!("../../positions/abraxas-openings.txt");
    const PUZZLES: &'static str = include_str!("../../positions/puzzles/abraxas.txt");
    const LESSONS: &'static str = include_str!("../lessons/abraxas.txt");
}
