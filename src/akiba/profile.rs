//! Akiba as the products see it: its measured constants and its built-in data.

use super::Position;
use crate::profile::Profile;

impl Profile for Position {
    // The built-in network's training fit (docs/nnue.md): the network is the default.
    const RESULT_SCALE: f64 = 0.005130;
    /// docs/review.md, Defaults.
    const REVIEW_DEPTH: u32 = 8;
    const REVIEW_CONFIRMATION: u32 = 4;

    // docs/strength.md, Levels.
    const LEVEL_ELO: [i32; 21] = [
        604, 679, 783, 833, 946, 1067, 1152, 1272, 1348, 1447, 1581, 1662, 1821, 1971, 2102, 2184,
        2323, 2404, 2485, 2535, 2688,
    ];

    /// The start, openings, middlegames with the game's special states, endgames.
    const BENCH: (&'static [&'static str], u32) = (
        &[
            "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1",
            "1WW2BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW b 0 0 - - 1",
            "W1W1B1B/W2R1B1/1RRR3/1RR1RRW/2RRB2/B2R1W1/B4WW w 1 0 - - 9",
            "2W4/1W1RB2/R1RR1B1/1BRRR2/W1R1W2/1B1R1W1/7 b 2 1 - - 21",
            "7/2W1R2/1R1B3/W1RR1B1/2B1R2/1W3R1/7 w 3 3 - - 35",
            "7/7/2R1B2/1W1R3/3R1W1/2B4/7 b 5 4 - - 50",
        ],
        12,
    );
    const OPENINGS: &'static str = include_str!("../../positions/akiba-openings.txt");
    const PUZZLES: &'static str = include_str!("../../positions/puzzles/akiba.txt");
    const LESSONS: &'static str = include_str!("../lessons/akiba.txt");
}
