//! Move ordering: which moves are searched first.

/// Moves picked one at a time before the rest are sorted at once. The first few (the table
/// move, captures, killers) usually decide a cut-off, and one scan each finds them; a node
/// that gets past them mostly tries every move, where a scan per move would cost n²/2
/// comparisons (Abraxas lists a hundred placements).
const PICKED_ONE_BY_ONE: usize = 4;

/// The move to search `i`-th (calls in order 0, 1, 2, …): the best remaining move is
/// brought to `i` and returned.
#[inline]
pub(crate) fn pick_next<M: Copy>(moves: &mut [(M, i32)], i: usize) -> M {
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
    moves[i].0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Picking in turn yields the moves from the highest score down, whether the list is
    /// shorter or longer than the moves picked one by one.
    #[test]
    fn moves_come_from_the_highest_score_down() {
        for len in [0, 1, 3, 4, 5, 9, 40] {
            let mut moves: Vec<(usize, i32)> =
                (0..len).map(|m| (m, ((m * 37) % 11) as i32 - 5)).collect();
            let mut scores: Vec<i32> = moves.iter().map(|m| m.1).collect();
            scores.sort_by(|a, b| b.cmp(a));
            let picked: Vec<i32> = (0..len)
                .map(|i| {
                    let mv = pick_next(&mut moves, i);
                    ((mv * 37) % 11) as i32 - 5
                })
                .collect();
            assert_eq!(picked, scores, "{len} moves");
        }
    }
}
