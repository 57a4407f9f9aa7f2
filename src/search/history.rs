//! Quiet-move histories: how often a move caused a cut-off, as a butterfly table per player
//! and as continuation tables keyed by the decisions that led to the node.
//!
//! Updates use history gravity (Stockfish, Ethereal): a bonus moves an entry towards the
//! bound by a share of the distance left, a malus (for the quiet moves tried before the one
//! that cut) towards the opposite bound, so entries stay bounded and recent results weigh
//! more. The continuation tables are keyed by the previous decision, whoever made it (with
//! whether it was the same player's: Akiba's extra move, Offboard's re-placement), and by
//! the same player's own previous decision: in these games "two plies ago" is not always
//! the mover's last move.

use super::threads::history_jitter;

/// Entries stay within ±this.
const HISTORY_MAX: i32 = 16_384;
/// Contexts a continuation table distinguishes: moves are folded into this many.
const CONTEXTS: usize = 512;

/// The decisions above a node that key its continuation tables: `None` where there is none
/// (the root, a null move).
#[derive(Clone, Copy, Default)]
pub(crate) struct Context {
    /// The previous decision's move (folded), and whether the same player made it.
    pub previous: Option<(usize, bool)>,
    /// The same player's own previous decision's move (folded).
    pub own: Option<usize>,
}

pub(crate) struct Histories {
    moves: usize,
    /// `[move index][player]`.
    butterfly: Vec<[i32; 2]>,
    /// `[(context · 2 + same player) · moves + move index]`.
    previous: Vec<i16>,
    /// `[context · moves + move index]`.
    own: Vec<i16>,
}

/// The bonus of a cut-off at `depth` (and the malus of a move that did not cut).
pub(crate) fn bonus(depth: i32) -> i32 {
    (150 * depth - 100).clamp(0, 1500)
}

/// The context slot of a move index: the identity where the game's moves fit, else a
/// multiplicative hash (Abraxas has thousands of moves).
pub(crate) fn fold(move_index: usize, limit: usize) -> usize {
    if limit <= CONTEXTS {
        move_index
    } else {
        (move_index.wrapping_mul(0x9e37_79b1) >> 7) % CONTEXTS
    }
}

fn gravity(entry: i32, bonus: i32) -> i32 {
    entry + bonus - entry * bonus.abs() / HISTORY_MAX
}

impl Histories {
    pub(crate) fn new(moves: usize) -> Self {
        let contexts = CONTEXTS.min(moves);
        Histories {
            moves,
            butterfly: vec![[0; 2]; moves],
            previous: vec![0; contexts * 2 * moves],
            own: vec![0; contexts * moves],
        }
    }

    pub(crate) fn clear(&mut self) {
        self.butterfly.fill([0; 2]);
        self.previous.fill(0);
        self.own.fill(0);
    }

    /// At the start of a search: the butterfly table is damped (the last search's
    /// positions are behind), with a helper thread's own small offsets
    /// ([`history_jitter`]) so that helpers try untold moves in their own orders.
    pub(crate) fn age(&mut self, thread: usize) {
        for (move_index, entry) in self.butterfly.iter_mut().enumerate() {
            for (side, score) in entry.iter_mut().enumerate() {
                *score /= 2;
                if thread > 0 {
                    *score += history_jitter(thread, 2 * move_index + side);
                }
            }
        }
    }

    fn previous_slot(&self, context: (usize, bool), mv: usize) -> usize {
        (context.0 * 2 + usize::from(context.1)) * self.moves + mv
    }

    /// The ordering score of quiet move `mv` (its index) by `player` under `context`.
    #[inline]
    pub(crate) fn score(&self, player: usize, mv: usize, context: Context) -> i32 {
        let mut score = self.butterfly[mv][player];
        if let Some(previous) = context.previous {
            score += i32::from(self.previous[self.previous_slot(previous, mv)]);
        }
        if let Some(own) = context.own {
            score += i32::from(self.own[own * self.moves + mv]);
        }
        score
    }

    /// Adds `bonus` (negative: a malus) to every table's entry of `mv`.
    pub(crate) fn update(&mut self, player: usize, mv: usize, context: Context, bonus: i32) {
        let entry = &mut self.butterfly[mv][player];
        *entry = gravity(*entry, bonus);
        if let Some(previous) = context.previous {
            let slot = self.previous_slot(previous, mv);
            let entry = &mut self.previous[slot];
            *entry = gravity(i32::from(*entry), bonus) as i16;
        }
        if let Some(own) = context.own {
            let entry = &mut self.own[own * self.moves + mv];
            *entry = gravity(i32::from(*entry), bonus) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_entries_within_bounds_and_a_malus_undoes_a_bonus() {
        let mut h = Histories::new(64);
        let context = Context {
            previous: Some((3, false)),
            own: Some(5),
        };
        for _ in 0..1000 {
            h.update(0, 7, context, bonus(20));
        }
        let top = h.score(0, 7, context);
        assert!(top <= 3 * HISTORY_MAX && top > 2 * HISTORY_MAX, "{top}");
        // The other player shares the continuation tables, not the butterfly table; no
        // context leaves the butterfly table alone.
        assert_eq!(h.score(1, 7, context), top - h.butterfly[7][0]);
        assert_eq!(h.score(0, 7, Context::default()), h.butterfly[7][0]);
        assert_eq!(h.score(0, 8, context), 0);
        for _ in 0..1000 {
            h.update(0, 7, context, -bonus(20));
        }
        assert!(h.score(0, 7, context) < -2 * HISTORY_MAX);
    }

    #[test]
    fn folding_is_the_identity_for_small_games_and_in_range_for_large_ones() {
        assert_eq!(fold(200, 256), 200);
        assert!((0..5000).all(|i| fold(i, 5000) < CONTEXTS));
        let used: std::collections::HashSet<_> = (0..5000).map(|i| fold(i, 5000)).collect();
        assert!(used.len() > CONTEXTS * 9 / 10, "{}", used.len());
    }
}
