//! Offboard as the products see it: its measured constants and its built-in data.

use super::Position;
use crate::profile::Profile;

impl Profile for Position {
    // The built-in network's training fit (docs/nnue.md): the network is the default.
    const RESULT_SCALE: f64 = 0.003394;
    /// docs/review.md, Defaults.
    const REVIEW_DEPTH: u32 = 6;
    const REVIEW_CONFIRMATION: u32 = 2;

    // docs/strength.md, Levels.
    const LEVEL_ELO: [i32; 21] = [
        1128, 1206, 1289, 1342, 1439, 1616, 1791, 1966, 2077, 2235, 2368, 2399, 2579, 2674, 2765,
        2936, 3024, 3119, 3299, 3369, 3752,
    ];

    /// The start, openings, middlegames with the game's special states, endgames.
    const BENCH: (&'static [&'static str], u32) = (
        &[
            "RR1YY/R1RY1Y/1RR1YY1/8/9/8/1RR1YY1/R1RY1Y/RR1YY r 0 0 ............ - 1",
            "RRYYY/R1R1YY/1R3Y1/2R5/9/8/1R3Y1/R1RY1Y/R1RYY r 2 1 ry.......... - 4",
            "1R1RR/R1RY1Y/1R3Y1/8/9/6Y1/1R4Y/R1RY2/R1RYY y 4 1 ry...yy..... p 5",
            "2Y1Y/3Y2/1Y4R/3Y4/R3R4/R1Y5/R6/1YRY2/1RRY1 r 3 5 .y....yrr... - 50",
        ],
        8,
    );
    const OPENINGS: &'static str = include_str!("../../positions/offboard-openings.txt");
    const PUZZLES: &'static str = include_str!("../../positions/puzzles/offboard.txt");
    const LESSONS: &'static str = include_str!("../lessons/offboard.txt");
}
