//! Move ordering and late move reductions: which moves are searched first, and how much
//! shallower the late ones are tried.

/// How much shallower the `searched`-th move (0-based) of a node at `depth` is searched
/// first: grows with both, as in most alpha-beta engines.
pub(crate) fn late_move_reduction(depth: i32, searched: usize) -> i32 {
    let r = 0.5 + f64::from(depth).ln() * (searched as f64).ln() / 2.5;
    (r as i32).clamp(1, depth - 2)
}

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
