//! The search stack: one frame per ply of the line being searched (Stockfish's `Stack`):
//! whose decision it is, its static evaluation and move, so a node can compare itself with
//! the same player's previous decision, and what the node there keeps from node to node
//! (killers, the move a singular search leaves out, its move lists).
//!
//! In these games the same side may decide several times in a row (Akiba's extra move,
//! Offboard's re-placement, Abraxas' stop and capture turns), so "two plies ago" of a chess
//! engine is here "the nearest ply above where the same player was to move".

use super::MAX_PLY;

/// One ply of the current line.
pub(crate) struct Frame<M> {
    /// [`crate::game::Player::index`] of the side to move there.
    mover: u8,
    /// Its static evaluation (from its mover's view); `None` where none was taken.
    eval: Option<i32>,
    /// The index of the move being searched there ([`crate::game::Game::move_index`]);
    /// `None` for a null move.
    mv: Option<usize>,
    /// The last two quiet moves that cut off at this ply (the first the newer).
    pub(crate) killers: [Option<M>; 2],
    /// The move a singular-extension search leaves out (`None`: an ordinary search).
    pub(crate) excluded: Option<M>,
    /// The ordered moves and the quiet moves tried (move indices) of the node here, kept
    /// from node to node so that a node does not allocate them.
    pub(crate) scored: Vec<(M, i32)>,
    pub(crate) quiets: Vec<usize>,
}

pub(crate) struct Stack<M> {
    frames: Vec<Frame<M>>,
}

/// How far up the line a node looks for its mover's previous decision.
const LOOK_BACK: usize = 4;

impl<M> std::ops::Index<usize> for Stack<M> {
    type Output = Frame<M>;

    #[inline]
    fn index(&self, ply: usize) -> &Frame<M> {
        &self.frames[ply]
    }
}

impl<M> std::ops::IndexMut<usize> for Stack<M> {
    #[inline]
    fn index_mut(&mut self, ply: usize) -> &mut Frame<M> {
        &mut self.frames[ply]
    }
}

impl<M> Stack<M> {
    pub(crate) fn new() -> Self {
        let frames = (0..MAX_PLY + 2)
            .map(|_| Frame {
                mover: 0,
                eval: None,
                mv: None,
                killers: [None, None],
                excluded: None,
                scored: Vec::new(),
                quiets: Vec::new(),
            })
            .collect();
        Stack { frames }
    }

    /// Forgets the killers (a new game).
    pub(crate) fn clear_killers(&mut self) {
        for frame in &mut self.frames {
            frame.killers = [None, None];
        }
    }

    /// Records the node at `ply` (every node records itself before it searches children).
    #[inline]
    pub(crate) fn enter(&mut self, ply: usize, mover: usize, eval: Option<i32>) {
        let frame = &mut self.frames[ply];
        frame.mover = mover as u8;
        frame.eval = eval;
        frame.mv = None;
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

    /// A quiet move cut off at `ply`: it becomes the first killer there.
    #[inline]
    pub(crate) fn add_killer(&mut self, ply: usize, mv: M)
    where
        M: Copy + PartialEq,
    {
        let killers = &mut self.frames[ply].killers;
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
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

    #[test]
    fn a_new_killer_goes_first_and_a_repeated_one_does_not_push_out_the_other() {
        let mut stack = Stack::<u8>::new();
        stack.add_killer(5, 1);
        stack.add_killer(5, 2);
        assert_eq!(stack[5].killers, [Some(2), Some(1)]);
        stack.add_killer(5, 2);
        assert_eq!(stack[5].killers, [Some(2), Some(1)]);
        assert_eq!(stack[4].killers, [None, None]);
        stack.clear_killers();
        assert_eq!(stack[5].killers, [None, None]);
    }
}
