//! Move ordering: which moves are searched first.

/// Selection sort step: moves the best remaining move to `i` and returns it.
#[inline]
pub(crate) fn pick_next<M: Copy>(moves: &mut [(M, i32)], i: usize) -> M {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].1 > moves[best].1 {
            best = j;
        }
    }
    moves.swap(i, best);
    moves[i].0
}
