//! Legal move generation for Akiba, a whole direction at a time on bitboards.

use super::board::{Direction, Squares};
use super::moves::Move;
use super::position::Position;
use crate::game::MoveList;

impl Position {
    /// Own marbles that may be pushed towards `dir`, before the repeat rule: the square behind
    /// is empty or off the board, and the line does not end in an own marble at the edge.
    #[inline(always)]
    pub(super) fn pushable(&self, dir: Direction) -> u64 {
        let own = self.marbles[self.side.index()];
        let occupied = self.occupied();
        let room_behind = own & !dir.shift(occupied);
        // Squares whose unbroken line towards `dir` ends with an own marble on the edge,
        // grown backwards from the edge one square per step (a line is at most 7 long).
        let back = dir.opposite();
        let mut own_falls = own & dir.edge();
        for _ in 0..6 {
            own_falls |= occupied & back.shift(own_falls);
        }
        room_behind & !own_falls
    }

    /// Squares of the side to move that may push towards `dir`, after the repeat rule.
    #[inline(always)]
    fn legal_pushers(&self, dir: Direction) -> u64 {
        let mut pushers = self.pushable(dir);
        if let Some(banned) = self.banned.filter(|b| b.direction() == dir) {
            pushers &= !banned.from().bit();
        }
        if let Some(ko) = self.ko {
            for sq in Squares(pushers) {
                if self.marbles_after(Move::push(sq, dir)) == ko.marbles {
                    pushers &= !sq.bit();
                }
            }
        }
        pushers
    }

    /// Appends every legal move: pushes direction by direction, then `pass` in an extra move.
    pub fn legal_moves(&self, moves: &mut MoveList<Move>) {
        if self.is_decided() {
            return;
        }
        for dir in Direction::ALL {
            for sq in Squares(self.legal_pushers(dir)) {
                moves.push(Move::push(sq, dir));
            }
        }
        if self.extra {
            moves.push(Move::PASS);
        }
    }

    /// The number of legal moves, counted without listing them (perft's last ply).
    pub fn count_moves(&self) -> usize {
        if self.is_decided() {
            return 0;
        }
        let pushes: u32 = Direction::ALL
            .into_iter()
            .map(|dir| self.legal_pushers(dir).count_ones())
            .sum();
        pushes as usize + self.extra as usize
    }
}

/// What one player could push towards one direction, ignoring the repeat rule (for the
/// evaluation, which looks at both players whoever is to move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pushes {
    /// Squares of the player's marbles that may push.
    pub all: u64,
    /// Of those, pushes that put a red marble off.
    pub win_red: u64,
    /// Of those, pushes that put an opposing marble off.
    pub capture: u64,
}

impl Position {
    pub fn pushes_for(&self, player: crate::game::Player, dir: Direction) -> Pushes {
        let own = self.marbles[player.index()];
        let opponent = self.marbles[1 - player.index()];
        let red = self.marbles[2];
        let occupied = self.occupied();
        let back = dir.opposite();
        let edge = dir.edge();
        let (mut own_falls, mut red_falls, mut opp_falls) =
            (own & edge, red & edge, opponent & edge);
        for _ in 0..6 {
            own_falls |= occupied & back.shift(own_falls);
            red_falls |= occupied & back.shift(red_falls);
            opp_falls |= occupied & back.shift(opp_falls);
        }
        let all = own & !dir.shift(occupied) & !own_falls;
        Pushes {
            all,
            win_red: all & red_falls,
            capture: all & opp_falls,
        }
    }
}
