//! Legal move generation for Akiba, a whole direction at a time on bitboards.

use super::board::{Direction, Squares};
use super::moves::Move;
use super::position::Position;
use crate::game::MoveList;

/// Own marbles (`own`) that may push towards `dir` on a board occupied by `occupied`,
/// before the repeat rule: the square behind is empty or off the board, and the line does
/// not end in an own marble at the edge.
#[inline(always)]
fn pushable_towards(own: u64, occupied: u64, dir: Direction) -> u64 {
    // Unmasked shifts are enough here: whatever wraps into the spare file or past the board
    // lands on a square that is never occupied, and every result is masked by `own` or by
    // `occupied`.
    let room_behind = own & !dir.shift_unmasked(occupied, 1);
    // Squares whose unbroken line towards `dir` ends with an own marble on the edge: a
    // Kogge-Stone fill backwards from the edge through occupied squares (1 + 2 + 4 steps
    // cover the longest line of 7).
    let back = dir.opposite();
    let mut own_falls = own & dir.edge();
    let mut through = occupied;
    own_falls |= through & back.shift_unmasked(own_falls, 1);
    through &= back.shift_unmasked(through, 1);
    own_falls |= through & back.shift_unmasked(own_falls, 2);
    through &= back.shift_unmasked(through, 2);
    own_falls |= through & back.shift_unmasked(own_falls, 4);
    room_behind & !own_falls
}

impl Position {
    /// For each direction (indexed by [`Direction`]), the own marbles that may push that way
    /// before the repeat rule. Each direction is a constant here, so every shift compiles to
    /// one shift and one mask.
    #[inline(always)]
    pub(super) fn pushable(&self) -> [u64; 4] {
        let own = self.marbles[self.side.index()];
        let occupied = self.occupied();
        [
            pushable_towards(own, occupied, Direction::North),
            pushable_towards(own, occupied, Direction::East),
            pushable_towards(own, occupied, Direction::South),
            pushable_towards(own, occupied, Direction::West),
        ]
    }

    /// [`Position::pushable`] without the push the repeat rule bans.
    #[inline(always)]
    fn legal_pushers(&self) -> [u64; 4] {
        let mut pushers = self.pushable();
        if let Some(banned) = self.banned {
            pushers[banned.direction() as usize] &= !banned.from().bit();
        }
        pushers
    }

    /// Appends every legal move: pushes direction by direction, then `pass` in an extra move.
    pub fn legal_moves(&self, moves: &mut MoveList<Move>) {
        if self.is_decided() {
            return;
        }
        for (dir, pushers) in Direction::ALL.into_iter().zip(self.legal_pushers()) {
            for sq in Squares(pushers) {
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
        let pushes: u32 = self.legal_pushers().iter().map(|p| p.count_ones()).sum();
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
