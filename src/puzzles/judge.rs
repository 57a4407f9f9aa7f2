//! The searches that make and check puzzles: whether a position has one clearly best move
//! (MultiPV 2 at two depths), the opponent's best reply, the move a level's search plays.
//!
//! Every search is the engine's default search (the one a player's analysis shows) from a
//! cleared searcher with one thread, so that the same position gives the same answer in the
//! generator and in `--check` (docs/puzzles.md).

use crate::game::Game;
use crate::nnue::Network;
use crate::pipeline::selfplay::Budget;
use crate::profile::Profile;
use crate::search::{Limits, MATE, Score, Searcher, Skill};
use crate::search_hints::SearchHints;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The transposition table of the puzzle searches, in MB: small, as they are shallow, and
/// the same for making and checking a set.
pub const HASH_MB: usize = 8;

/// How far the best line must score above the second for its move to be the only good one.
pub const MARGIN: i32 = 150;

/// How much shallower the first of the two searches is than the second.
pub const DEPTH_STEP: u32 = 2;

/// Legal moves a decision needs to count as a solver move: a choice among fewer (an Abraxas
/// slide, stay or pass) is a guess between a few buttons, not a puzzle.
pub const MIN_CHOICES: usize = 5;

/// Whether the decision at `position` counts as a solver move ([`MIN_CHOICES`]).
pub fn counts<G: Game>(position: &G) -> bool {
    position.count_legal_moves() >= MIN_CHOICES
}

/// The solver moves of `moves` from `start` that count ([`counts`]).
pub fn counted<G: Game>(start: &G, moves: &[G::Move]) -> usize {
    let solver = start.to_move();
    let mut position = start.clone();
    let mut found = 0;
    for &mv in moves {
        if position.to_move() == solver && counts(&position) {
            found += 1;
        }
        position.play(mv);
    }
    found
}

/// A score as one number: mates as ±(MATE - moves).
pub fn value(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - n,
        Score::Mate(n) => -MATE - n,
    }
}

/// Whether the line scoring `best` is clearly better than the one scoring `second`: it wins
/// where the second does not, or (neither winning nor the best lost) it is at least
/// [`MARGIN`] above.
pub fn clearly_best(best: Score, second: Score) -> bool {
    match (best, second) {
        (Score::Mate(a), Score::Mate(b)) if a > 0 && b > 0 => false,
        (Score::Mate(a), _) if a > 0 => true,
        (Score::Mate(_), _) => false,
        (Score::Cp(_), Score::Mate(b)) => b < 0,
        (Score::Cp(a), Score::Cp(b)) => a - b >= MARGIN,
    }
}

/// The first two root lines of one iteration: (move, score) each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwoLines<M> {
    pub depth: u32,
    pub best: (M, Score),
    pub second: Option<(M, Score)>,
}

/// The searches of one thread.
pub struct Judge<G: SearchHints> {
    searcher: Searcher<G>,
}

impl<G: Profile> Judge<G> {
    /// Searches with `network` (`None`: the classical evaluation) and the game's default
    /// search parameters: a puzzle's answer is the one the player's analysis gives.
    pub fn new(network: Option<Arc<Network>>) -> Self {
        let mut searcher = Searcher::new(HASH_MB);
        searcher.set_network(network);
        Judge { searcher }
    }

    /// The two best lines of each completed iteration up to `budget`, by depth. `keep_going`
    /// sees each iteration's lines as they complete and may end the search early.
    fn lines(
        &mut self,
        position: &G,
        history: &[u64],
        budget: Budget,
        keep_going: &mut dyn FnMut(&TwoLines<G::Move>) -> bool,
    ) -> Vec<TwoLines<G::Move>> {
        self.searcher.clear();
        let stop = self.searcher.stop_flag();
        stop.store(false, Ordering::SeqCst);
        let limits = budget.limits();
        let mut found: Vec<TwoLines<G::Move>> = Vec::new();
        self.searcher
            .search(position, history, &limits, 2, &mut |info| {
                let Some(&mv) = info.pv.first() else {
                    return;
                };
                if info.multipv == 1 {
                    found.push(TwoLines {
                        depth: info.depth,
                        best: (mv, info.score),
                        second: None,
                    });
                } else if let Some(last) = found.last_mut()
                    && last.depth == info.depth
                {
                    last.second = Some((mv, info.score));
                    if !keep_going(last) {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            });
        found
    }

    /// The one clearly best move here and its score, or `None`: at `check_depth` (a search
    /// of its own, as `--check` does it) and at the two depths of `budget` (the deeper one,
    /// and [`DEPTH_STEP`] less) the same move leads and is [`clearly_best`] against the
    /// second line. A position with one legal move has none.
    pub fn only_move(
        &mut self,
        position: &G,
        history: &[u64],
        budget: Budget,
        check_depth: u32,
    ) -> Option<(G::Move, Score)> {
        // At the budget's own depth the check is the deep search itself.
        let checked = if budget == Budget::Depth(check_depth) {
            None
        } else {
            let lines = self.lines_at(position, history, check_depth)?;
            if !unique(&lines) {
                return None;
            }
            Some(lines.best.0)
        };
        let shallow_of = |deep: u32| deep.saturating_sub(DEPTH_STEP).max(1);
        let fixed_shallow = match budget {
            Budget::Depth(d) => Some(shallow_of(d)),
            Budget::Nodes(_) => None,
        };
        let found = self.lines(position, history, budget, &mut |lines| {
            // A fixed depth can give up as soon as the shallow search disagrees.
            fixed_shallow != Some(lines.depth) || unique(lines)
        });
        let complete: Vec<&TwoLines<G::Move>> =
            found.iter().filter(|l| l.second.is_some()).collect();
        let deep = complete.last()?;
        if let Budget::Depth(d) = budget
            && deep.depth != d
        {
            return None;
        }
        let shallow = complete
            .iter()
            .find(|l| l.depth == shallow_of(deep.depth))?;
        (unique(deep)
            && unique(shallow)
            && deep.best.0 == shallow.best.0
            && checked.is_none_or(|mv| mv == deep.best.0))
        .then_some(deep.best)
    }

    /// The two best lines at exactly `depth` (`second` is `None` with one legal move).
    pub fn lines_at(
        &mut self,
        position: &G,
        history: &[u64],
        depth: u32,
    ) -> Option<TwoLines<G::Move>> {
        let found = self.lines(position, history, Budget::Depth(depth), &mut |_| true);
        found.into_iter().rfind(|l| l.depth == depth)
    }

    /// The best move within `budget` (the opponent's reply in a solution).
    pub fn best_move(&mut self, position: &G, history: &[u64], budget: Budget) -> Option<G::Move> {
        self.searcher.clear();
        self.searcher.stop_flag().store(false, Ordering::SeqCst);
        let limits = budget.limits();
        self.searcher
            .search(position, history, &limits, 1, &mut |_| {})
            .best
    }

    /// The lines a search at `level` chooses among (its nodes and lines, [`Skill`]): the
    /// latest score and first move of each, as the engine keeps them for
    /// [`Skill::pick`].
    pub fn level_lines(
        &mut self,
        position: &G,
        history: &[u64],
        level: Skill,
    ) -> Vec<(Score, G::Move)> {
        self.searcher.clear();
        self.searcher.stop_flag().store(false, Ordering::SeqCst);
        let limits = level.limits(&Limits::default());
        let multipv = level.lines(1, G::LEVEL_0_LINES);
        let mut lines: Vec<(Score, G::Move)> = Vec::new();
        self.searcher
            .search(position, history, &limits, multipv, &mut |info| {
                if let Some(&mv) = info.pv.first() {
                    match lines.get_mut(info.multipv - 1) {
                        Some(slot) => *slot = (info.score, mv),
                        None => lines.push((info.score, mv)),
                    }
                }
            });
        lines
    }
}

/// Whether the first line's move is the only good one: there is a second line and the first
/// is [`clearly_best`] against it.
pub fn unique<M>(lines: &TwoLines<M>) -> bool {
    lines
        .second
        .as_ref()
        .is_some_and(|second| clearly_best(lines.best.1, second.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clearly_best_wants_a_margin_or_the_only_win() {
        assert!(clearly_best(Score::Cp(200), Score::Cp(50)));
        assert!(!clearly_best(Score::Cp(200), Score::Cp(51)));
        assert!(clearly_best(Score::Mate(3), Score::Cp(900)));
        assert!(!clearly_best(Score::Mate(3), Score::Mate(5)));
        assert!(clearly_best(Score::Cp(-300), Score::Mate(-4)));
        assert!(!clearly_best(Score::Mate(-3), Score::Mate(-1)));
        assert!(!clearly_best(Score::Cp(0), Score::Cp(-100)));
    }
}
