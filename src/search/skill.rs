//! Playing strength levels (`Skill Level` 0..20): a weak level plays like a weak player —
//! a small search (a node cap that grows by 2^(1/3) a level, so that every level is a
//! step up from the one below), several lines (MultiPV), and a choice among them weighted
//! by their scores and the level, after Stockfish's `Skill::pick_best`. Level 20 is the
//! full search, unchanged. Levels may be fractional (`UCI_Elo` falls between levels).
//!
//! The choice's randomness is seeded by the position and the level, so the same game
//! against the same level is the same game (reproducible tests and reviews).

use super::{Limits, MATE, Score};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Lines level 19 chooses among (Stockfish: 4 at every level); each level below adds to
/// them, up to the game's [`crate::profile::Profile::LEVEL_0_LINES`] at level 0.
pub const LINES: usize = 4;
/// The score difference below which lines count as equally good in the random part of the
/// choice: one marble, point or stone (Stockfish: a pawn).
const UNIT: i32 = 100;

/// A strength level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// The level in hundredths, 0..=2000.
    centi: u32,
}

impl Default for Skill {
    fn default() -> Self {
        Skill {
            centi: 100 * Skill::MAX_LEVEL,
        }
    }
}

impl Skill {
    /// Full strength: the search as it is.
    pub const MAX_LEVEL: u32 = 20;

    /// The level, or why it is not one.
    pub fn new(level: u32) -> Result<Skill, String> {
        if level <= Skill::MAX_LEVEL {
            Ok(Skill { centi: 100 * level })
        } else {
            Err(format!(
                "Skill Level {level} is out of range 0..={}",
                Skill::MAX_LEVEL
            ))
        }
    }

    /// A fractional level, `level` in hundredths (1950: level 19.5), clamped to the range.
    pub fn from_centi(centi: u32) -> Skill {
        Skill {
            centi: centi.min(100 * Skill::MAX_LEVEL),
        }
    }

    /// The level that plays at `elo` by a game's measured table (`levels[l]`: the Elo of
    /// level `l`, rising): interpolated between the two levels around it, and clamped to
    /// levels 0..=19, the levels that limit strength (level 20 is the full search, whose
    /// strength depends on its time).
    pub fn from_elo(elo: i32, levels: &[i32; 21]) -> Skill {
        let top = Skill::MAX_LEVEL as usize - 1;
        if elo <= levels[0] {
            return Skill { centi: 0 };
        }
        let Some(above) = (1..=top).find(|&l| elo < levels[l]) else {
            return Skill::from_centi(100 * top as u32);
        };
        let (low, high) = (levels[above - 1], levels[above]);
        let fraction = f64::from(elo - low) / f64::from((high - low).max(1));
        Skill::from_centi((100.0 * ((above - 1) as f64 + fraction)).round() as u32)
    }

    /// The level in hundredths.
    pub fn centi(self) -> u32 {
        self.centi
    }

    /// Whether this level weakens the search (every level below 20).
    pub fn enabled(self) -> bool {
        self.centi < 100 * Skill::MAX_LEVEL
    }

    /// Nodes a search at this level may visit: `1000 · 2^(level / 3)`, from 1,000 at level
    /// 0 to 80,635 at level 19.
    pub fn node_cap(self) -> u64 {
        (1000.0 * 2f64.powf(f64::from(self.centi) / 300.0)).round() as u64
    }

    /// The limits of a search at this level: at most [`Skill::node_cap`] nodes, within the
    /// limits asked for (so a weak level answers `go infinite` when its nodes are spent),
    /// once every line has been searched at depth 1. Cut by the cap before that, a level
    /// would choose among the few lines it had reached: in Abraxas, where a line at depth 1
    /// costs ~130 nodes, 1,000 nodes reached 7 of level 0's 16 lines, and 150 nodes only
    /// the best line, which played far better than level 0 (docs/experiments.md).
    pub fn limits(self, limits: &Limits) -> Limits {
        if !self.enabled() {
            return *limits;
        }
        let nodes = self.node_cap();
        Limits {
            nodes: Some(limits.nodes.map_or(nodes, |n| n.min(nodes))),
            complete_depth: 1,
            infinite: false,
            ..*limits
        }
    }

    /// How far below 19 this level is, in hundredths of a level (0 at 19 and above).
    fn below_19(self) -> u32 {
        1900u32.saturating_sub(self.centi)
    }

    /// Lines to search: at a weak level at least [`LINES`] at level 19, more below it
    /// (`level_0_lines`, the game's [`crate::profile::Profile::LEVEL_0_LINES`], at level 0), so
    /// that a weak level also plays moves a strong one would not consider.
    pub fn lines(self, multipv: usize, level_0_lines: usize) -> usize {
        if self.enabled() {
            let extra = level_0_lines.saturating_sub(LINES) * self.below_19() as usize / 1900;
            multipv.max(LINES + extra)
        } else {
            multipv
        }
    }

    /// How far from the best line a weak level's choice reaches, in hundredths of a
    /// [`UNIT`]: one unit at level 19 (Stockfish's pawn) and a third of a unit more for
    /// every level below, so that a beginner sometimes gives away a marble or a stone.
    fn reach(self) -> i32 {
        100 + self.below_19() as i32 / 3
    }

    /// Stockfish's `pick_best`: each line's score plus a push that grows with its distance
    /// from the best score (more at weaker levels) and a random part up to the spread of
    /// the lines (capped at [`Skill::reach`]); the line with the highest total is played.
    /// `lines` are (score, move) sorted best first; `seed` makes the choice reproducible.
    pub fn pick<M: Copy>(self, lines: &[(Score, M)], seed: u64) -> Option<M> {
        if !self.enabled() || lines.len() < 2 {
            return lines.first().map(|&(_, mv)| mv);
        }
        let value = |score: Score| match score {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => MATE - n,
            Score::Mate(n) => -MATE - n,
        };
        let mut rng = StdRng::seed_from_u64(seed ^ u64::from(self.centi).rotate_left(32));
        let top = value(lines[0].0);
        let last = value(lines[lines.len() - 1].0);
        let reach = UNIT * self.reach() / 100;
        let delta = (top - last).clamp(0, reach);
        let weakness = 120 - (2 * self.centi / 100) as i32;
        let mut best = None;
        let mut best_total = i32::MIN;
        for &(score, mv) in lines {
            let score = value(score);
            let random = rng.random_range(0..weakness);
            let push = (weakness * (top - score).min(4 * reach) + delta * random) / 128;
            if score + push >= best_total {
                best_total = score + push;
                best = Some(mv);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_out_of_range_are_refused() {
        assert!(Skill::new(21).is_err());
        assert_eq!(Skill::new(0).unwrap().centi(), 0);
        assert!(!Skill::default().enabled());
        assert_eq!(Skill::from_centi(2500), Skill::default());
    }

    #[test]
    fn full_strength_keeps_the_limits_and_the_best_line() {
        let full = Skill::default();
        let limits = Limits {
            movetime: Some(std::time::Duration::from_millis(100)),
            ..Limits::default()
        };
        assert_eq!(full.limits(&limits), limits);
        assert_eq!(full.lines(1, 16), 1);
        let lines = [(Score::Cp(10), 'a'), (Score::Cp(9), 'b')];
        assert_eq!(full.pick(&lines, 1), Some('a'));
    }

    #[test]
    fn weak_levels_choose_among_close_lines_and_rarely_a_losing_one() {
        let weak = Skill::new(0).unwrap();
        let limits = weak.limits(&Limits::default());
        assert_eq!(
            (limits.depth, limits.nodes, limits.complete_depth),
            (None, Some(1000), 1)
        );
        let lines = [
            (Score::Cp(30), 'a'),
            (Score::Cp(20), 'b'),
            (Score::Cp(0), 'c'),
            (Score::Mate(-2), 'd'),
        ];
        let picks: Vec<char> = (0..200)
            .filter_map(|seed| weak.pick(&lines, seed))
            .collect();
        assert!(picks.contains(&'b') && picks.contains(&'c'), "{picks:?}");
        assert!(
            !picks.contains(&'d'),
            "a forced loss is never chosen: {picks:?}"
        );
        // The same seed, the same choice.
        assert_eq!(weak.pick(&lines, 7), weak.pick(&lines, 7));
        // Stronger levels keep the best line more often.
        let spread = [
            (Score::Cp(100), 'a'),
            (Score::Cp(60), 'b'),
            (Score::Cp(20), 'c'),
            (Score::Cp(-50), 'd'),
        ];
        let kept = |level| {
            let skill = Skill::new(level).unwrap();
            (0..1000)
                .filter(|&s| skill.pick(&spread, s) == Some('a'))
                .count()
        };
        assert!(kept(19) > kept(0) + 100, "{} vs {}", kept(19), kept(0));
    }

    #[test]
    fn an_elo_plays_at_the_level_the_table_puts_it() {
        let table: [i32; 21] = std::array::from_fn(|l| 500 + 100 * l as i32);
        assert_eq!(Skill::from_elo(500, &table).centi(), 0);
        assert_eq!(Skill::from_elo(100, &table).centi(), 0);
        assert_eq!(Skill::from_elo(1200, &table).centi(), 700);
        assert_eq!(Skill::from_elo(1250, &table).centi(), 750);
        assert_eq!(Skill::from_elo(2399, &table).centi(), 1899);
        // At or above level 19's Elo: level 19, never the unlimited search.
        assert_eq!(Skill::from_elo(2400, &table).centi(), 1900);
        assert_eq!(Skill::from_elo(9000, &table).centi(), 1900);
        assert!(Skill::from_elo(9000, &table).enabled());
    }

    #[test]
    fn weaker_levels_choose_among_more_lines() {
        assert_eq!(Skill::new(0).unwrap().lines(1, 16), 16);
        assert_eq!(Skill::new(10).unwrap().lines(1, 16), 9);
        assert_eq!(Skill::new(19).unwrap().lines(1, 16), 4);
        assert_eq!(Skill::new(19).unwrap().lines(6, 16), 6);
        assert_eq!(Skill::new(0).unwrap().lines(1, 32), 32);
        assert_eq!(Skill::new(10).unwrap().lines(1, 32), 17);
        assert_eq!(Skill::default().lines(1, 16), 1);
    }

    #[test]
    fn every_level_searches_more_than_the_one_below() {
        let caps: Vec<u64> = (0..=1900)
            .step_by(50)
            .map(|c| Skill::from_centi(c).node_cap())
            .collect();
        assert!(caps.windows(2).all(|w| w[0] < w[1]), "{caps:?}");
        assert_eq!((caps[0], caps[caps.len() - 1]), (1000, 80635));
        // A tighter limit asked for stands; a level never lifts one.
        let limits = Limits {
            nodes: Some(500),
            ..Limits::default()
        };
        assert_eq!(Skill::new(10).unwrap().limits(&limits).nodes, Some(500));
    }
}
