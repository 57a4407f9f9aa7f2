//! The move picker: which moves a node searches first, in stages, as Stockfish's
//! `movepick.cpp` and Viridithas' `movepicker.rs`: the table move, the tactical moves, the
//! killers, then the quiet moves by history.
//!
//! Every move of the node is listed at once (the games list them together) and scored into
//! the band of its stage; the picker hands them out from the highest score down and tells
//! the search each move's stage. Within a stage, moves of equal score keep the order the
//! one-by-one pick leaves them in (the trees, and so the node counts, depend on it).

/// Moves picked one at a time before the rest are sorted at once. The first few (the table
/// move, captures, killers) usually decide a cut-off, and one scan each finds them; a node
/// that gets past them mostly tries every move, where a scan per move would cost n²/2
/// comparisons (Abraxas lists a hundred placements).
const PICKED_ONE_BY_ONE: usize = 4;

/// The bands of the stages: above every history (at most three tables of ±16,384).
const TABLE_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 29;
/// The first killer's; the second's is one below.
const KILLER: i32 = 1 << 28;

/// Where a move comes in a node's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    TableMove,
    Tactical,
    Killer,
    Quiet,
}

impl Stage {
    fn of(score: i32) -> Stage {
        match score {
            TABLE_MOVE => Stage::TableMove,
            TACTICAL => Stage::Tactical,
            s if s == KILLER || s == KILLER - 1 => Stage::Killer,
            _ => Stage::Quiet,
        }
    }
}

/// A node's moves, handed out best first.
pub(crate) struct MovePicker<M> {
    scored: Vec<(M, i32)>,
    next: usize,
}

impl<M: Copy + PartialEq> MovePicker<M> {
    /// Scores `moves` into `list` (a ply's kept storage, cleared first): `tt_move` first,
    /// then what `is_tactical` says, then the `killers` (the first above the second), then
    /// the other moves by `history`.
    pub(crate) fn new(
        mut list: Vec<(M, i32)>,
        moves: &[M],
        tt_move: Option<M>,
        killers: [Option<M>; 2],
        is_tactical: impl Fn(M) -> bool,
        history: impl Fn(M) -> i32,
    ) -> Self {
        list.clear();
        list.extend(moves.iter().map(|&mv| {
            let score = if Some(mv) == tt_move {
                TABLE_MOVE
            } else if is_tactical(mv) {
                TACTICAL
            } else if killers[0] == Some(mv) {
                KILLER
            } else if killers[1] == Some(mv) {
                KILLER - 1
            } else {
                history(mv)
            };
            (mv, score)
        }));
        MovePicker {
            scored: list,
            next: 0,
        }
    }

    /// The next move and its stage, `None` when all have been picked.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<(M, Stage)> {
        let i = self.next;
        let moves = &mut self.scored;
        if i >= moves.len() {
            return None;
        }
        if i < PICKED_ONE_BY_ONE {
            let mut best = i;
            for j in i + 1..moves.len() {
                if moves[j].1 > moves[best].1 {
                    best = j;
                }
            }
            moves.swap(i, best);
        } else if i == PICKED_ONE_BY_ONE {
            // Stable: moves of equal score keep their order in the list (the order they were
            // listed in, but for the few the picks above swapped).
            moves[i..].sort_by_key(|m| std::cmp::Reverse(m.1));
        }
        self.next += 1;
        let (mv, score) = moves[i];
        Some((mv, Stage::of(score)))
    }

    /// The list's storage, for the ply to keep.
    pub(crate) fn into_list(self) -> Vec<(M, i32)> {
        self.scored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picked(picker: &mut MovePicker<usize>) -> Vec<(usize, Stage)> {
        std::iter::from_fn(|| picker.next()).collect()
    }

    /// Picking in turn yields the moves from the highest score down, whether the list is
    /// shorter or longer than the moves picked one by one.
    #[test]
    fn moves_come_from_the_highest_score_down() {
        let history = |m: usize| ((m * 37) % 11) as i32 - 5;
        for len in [0, 1, 3, 4, 5, 9, 40] {
            let moves: Vec<usize> = (0..len).collect();
            let mut picker =
                MovePicker::new(Vec::new(), &moves, None, [None; 2], |_| false, history);
            let scores: Vec<i32> = picked(&mut picker)
                .iter()
                .map(|&(m, _)| history(m))
                .collect();
            let mut sorted = scores.clone();
            sorted.sort_by(|a, b| b.cmp(a));
            assert_eq!(scores, sorted, "{len} moves");
            assert_eq!(scores.len(), len);
        }
    }

    /// The table move, then the tactical moves, then the killers, then the rest by history,
    /// each told its stage; a tactical killer is a tactical move.
    #[test]
    fn the_stages_come_in_order() {
        let moves: Vec<usize> = (0..10).collect();
        let tactical = |m: usize| m == 3 || m == 8;
        let mut picker = MovePicker::new(
            Vec::new(),
            &moves,
            Some(6),
            [Some(5), Some(8)],
            tactical,
            |m| m as i32,
        );
        let order = picked(&mut picker);
        let (first, rest) = order.split_at(5);
        assert_eq!(
            first,
            [
                (6, Stage::TableMove),
                (3, Stage::Tactical),
                (8, Stage::Tactical),
                (5, Stage::Killer),
                (9, Stage::Quiet),
            ]
        );
        assert_eq!(
            rest.iter().map(|&(m, _)| m).collect::<Vec<_>>(),
            [7, 4, 2, 1, 0]
        );
        assert!(rest.iter().all(|&(_, stage)| stage == Stage::Quiet));
        assert_eq!(picker.into_list().len(), 10);
    }
}
