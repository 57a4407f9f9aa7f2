//! A game as the products see it: the constants measured for it (levels, review depth, the
//! scale from scores to results) and the built-in data that goes with it (bench positions,
//! openings, puzzles, lessons). With [`View`], [`Taught`] and the traits below them, this is
//! everything the registry ([`crate::games`]) hands out, so no product chooses per-game
//! data by the game's name.

use crate::search_hints::SearchHints;
use crate::taught::Taught;
use crate::view::View;

/// Everything the products need of a game besides its rules, evaluations and picture.
pub trait Profile: SearchHints + View + Taught {
    /// K of `sigmoid(K · score)`, the expected result for the side to move of a position the
    /// default evaluation scores `score`, as fitted to self-play results
    /// ([`crate::pipeline::tune`], docs/nnue.md): turns scores into winning chances
    /// ([`crate::review`]).
    const RESULT_SCALE: f64;
    /// The depth `shove review` and the GUI's review search each position to by default:
    /// the one measured to leave full-strength games unmarked and a weak level's
    /// blunders marked (docs/review.md).
    const REVIEW_DEPTH: u32;
    /// How many plies deeper the review searches a move it marked `?` or `??` again before
    /// the mark stands (docs/review.md, Confirmation).
    const REVIEW_CONFIRMATION: u32;
    /// The measured Elo of each `Skill Level` 0..=20 in this game, `random` = 0, as fitted
    /// by `shove rate` over the calibration gauntlet (docs/scripts/levels.sh; the table and
    /// its error bars are in docs/strength.md). Rising with the level; `UCI_Elo` maps to a
    /// level through it.
    const LEVEL_ELO: [i32; 21];
    /// Lines `Skill Level` 0 chooses among (level 19: 4, the levels between in proportion):
    /// a beginner plays one of this many moves a stronger player would consider.
    const LEVEL_0_LINES: usize = 16;
    /// Largest absolute search score at which a random opening still counts as balanced
    /// (see [`crate::pipeline::openings`]): the default of `shove openings --max-score` and
    /// of self-play. A game whose evaluation rarely sits nearer zero than this sets its own.
    const BALANCED_SCORE: i32 = 60;
    /// `shove bench`'s positions (position strings) and its default depth: fixed, so that
    /// its node count checks that a change left the search as it was.
    const BENCH: (&'static [&'static str], u32);
    /// The built-in balanced openings of matches (`positions/<game>-openings.txt`, made by
    /// `shove openings`).
    const OPENINGS: &'static str;
    /// The shipped puzzles (`positions/puzzles/<game>.txt`, docs/puzzles.md).
    const PUZZLES: &'static str;
    /// The lessons (`src/lessons/<game>.txt`, docs/lessons.md).
    const LESSONS: &'static str;
}
