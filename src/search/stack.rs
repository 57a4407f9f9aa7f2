//! The search stack: per ply of the line being searched, whose decision it is and its
//! static evaluation, so a node can compare itself with the same player's previous decision.
//!
//! In these games the same side may decide several times in a row (Akiba's extra move,
//! Offboard's re-placement, Abraxas' stop and capture turns), so "two plies ago" of a chess
//! engine is here "the nearest ply above where the same player was to move".

use super::MAX_PLY;

/// One ply of the current line.
#[derive(Clone, Copy)]
struct Frame {
    /// [`crate::game::Player::index`] of the side to move there.
    mover: u8,
    /// Its static evaluation (from its mover's view); `None` where none was taken.
    eval: Option<i32>,
    /// The index of the move being searched there ([`crate::game::Game::move_index`]);
    /// `None` for a null move.
    mv: Option<usize>,
}

pub(crate) struct Stack<M> {
    frames: [Frame; MAX_PLY + 2],
    _moves: std::marker::PhantomData<M>,
}

/// How far up the line a node looks for its mover's previous decision.
const LOOK_BACK: usize = 4;

impl<M> Stack<M> {
    pub(crate) fn new() -> Self {
        Stack {
            frames: [Frame {
                mover: 0,
                eval: None,
                mv: None,
            }; MAX_PLY + 2],
            _moves: std::marker::PhantomData,
        }
    }

    /// Records the node at `ply` (every node records itself before it searches children).
    #[inline]
    pub(crate) fn enter(&mut self, ply: usize, mover: usize, eval: Option<i32>) {
        self.frames[ply] = Frame {
            mover: mover as u8,
            eval,
            mv: None,
        };
    }

    /// Records the move the node at `ply` is about to search (`None`: a null move).
    #[inline]
    pub(crate) fn play(&mut self, ply: usize, mv: Option<usize>) {
        self.frames[ply].mv = mv;
    }

    /// Who decided at `ply` (a player index) and what (a move index; `None`: a null move).
    #[inline]
    pub(crate) fn decision(&self, ply: usize) -> (usize, Option<usize>) {
        let frame = &self.frames[ply];
        (usize::from(frame.mover), frame.mv)
    }

    /// The nearest ply above `ply` where the same player was to move.
    #[inline]
    pub(crate) fn previous_own(&self, ply: usize) -> Option<usize> {
        let mover = self.frames[ply].mover;
        (ply.saturating_sub(LOOK_BACK)..ply)
            .rev()
            .find(|&q| self.frames[q].mover == mover)
    }

    /// Whether the side to move at `ply` stands better than at its previous decision (by
    /// static evaluation); unknown counts as not improving.
    #[inline]
    pub(crate) fn improving(&self, ply: usize) -> bool {
        let Some(now) = self.frames[ply].eval else {
            return false;
        };
        self.previous_own(ply)
            .and_then(|q| self.frames[q].eval)
            .is_some_and(|before| now > before)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_previous_decision_of_the_same_player_skips_the_opponents_plies_only() {
        let mut stack = Stack::<()>::new();
        // Player 0 decides at plies 0 and 1 (an extra move), player 1 at 2, player 0 at 3.
        stack.enter(0, 0, Some(10));
        stack.enter(1, 0, Some(30));
        stack.enter(2, 1, Some(-5));
        stack.enter(3, 0, Some(20));
        assert_eq!(stack.previous_own(1), Some(0));
        assert_eq!(stack.previous_own(2), None);
        assert_eq!(stack.previous_own(3), Some(1));
        assert!(stack.improving(1));
        // 20 after 30 at the same player's previous decision: not improving, although it
        // is above the 10 two plies earlier.
        assert!(!stack.improving(3));
        stack.enter(4, 1, None);
        assert!(!stack.improving(4));
    }
}
