//! The positions a set's puzzles already take, so that no two puzzles teach the same
//! position: a puzzle is a near-duplicate of an earlier one when its start is the earlier
//! one's start or along its solution, or the earlier one's start is along its solution
//! (positions compared by their hash, which leaves out the move counters). The generator
//! keeps no such puzzle and `--check` reports one, so a joined set is cleaned by
//! `--check … --rewrite`.

use crate::game::Game;
use rustc_hash::FxHashMap;

/// The start and every position along the solution `moves`, as hashes, the start first.
pub fn positions<G: Game>(start: &G, moves: &[G::Move]) -> Vec<u64> {
    let mut position = start.clone();
    let mut hashes = Vec::with_capacity(moves.len() + 1);
    hashes.push(position.hash());
    for &mv in moves {
        position.play(mv);
        hashes.push(position.hash());
    }
    hashes
}

/// The positions of the puzzles kept so far, each with the puzzle (an index the caller
/// chooses) that first took it.
#[derive(Clone, Debug, Default)]
pub struct Taken {
    /// Every start and every position along a solution.
    along: FxHashMap<u64, usize>,
    /// The starts alone.
    starts: FxHashMap<u64, usize>,
}

impl Taken {
    /// Whether a puzzle could still start at `start`: a cheap test before a position is
    /// judged (its solution is not known yet).
    pub fn start_is_taken(&self, start: u64) -> bool {
        self.along.contains_key(&start)
    }

    /// The earlier puzzle that the puzzle of `positions` ([`positions`]) is a near-duplicate
    /// of, if any.
    pub fn clash(&self, positions: &[u64]) -> Option<usize> {
        let start = positions.first()?;
        self.along
            .get(start)
            .or_else(|| positions.iter().find_map(|h| self.starts.get(h)))
            .copied()
    }

    /// Marks the puzzle `index` of `positions` as kept.
    pub fn take(&mut self, index: usize, positions: &[u64]) {
        if let Some(&start) = positions.first() {
            self.starts.entry(start).or_insert(index);
        }
        for &h in positions {
            self.along.entry(h).or_insert(index);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_duplicates_are_found_both_ways_and_others_are_not() {
        let mut taken = Taken::default();
        taken.take(0, &[1, 2, 3]);
        assert_eq!(taken.clash(&[1, 9]), Some(0), "the same start");
        assert_eq!(taken.clash(&[3, 9]), Some(0), "a start along the solution");
        assert_eq!(
            taken.clash(&[8, 1]),
            Some(0),
            "the earlier start along this solution"
        );
        assert_eq!(taken.clash(&[8, 2, 3]), None, "the same line, joined later");
        assert!(taken.start_is_taken(2) && !taken.start_is_taken(8));
        taken.take(1, &[8, 2]);
        assert_eq!(
            taken.clash(&[2]),
            Some(0),
            "the first to take a position is named"
        );
        assert_eq!(taken.clash(&[7, 8]), Some(1));
    }

    #[test]
    fn positions_follow_the_solution() {
        type G = crate::akiba::Position;
        let start = G::start(Default::default());
        let mut moves = crate::game::MoveList::new();
        start.legal_moves(&mut moves);
        let mut after = start.clone();
        after.play(moves[0]);
        assert_eq!(
            positions(&start, &[moves[0]]),
            vec![start.hash(), after.hash()]
        );
    }
}
