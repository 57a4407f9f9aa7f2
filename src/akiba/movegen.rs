//! Legal move generation for Akiba, a whole direction at a time on bitboards.

use super::board::{Direction, Squares};
use super::moves::Move;
use super::position::Position;
use crate::game::MoveList;

/// Squares whose unbroken line of marbles towards `dir` ends on the edge with a marble of
/// `ends` (a subset of `occupied`): pushing such a line towards `dir` puts that marble off.
/// A Kogge-Stone fill backwards from the edge through occupied squares (1 + 2 + 4 steps
/// cover the longest line of 7). Unmasked shifts are enough: whatever wraps into the spare
/// file or past the board lands on a square that is never occupied, and every step is
/// masked by `occupied`.
#[inline(always)]
fn falls_towards(ends: u64, occupied: u64, dir: Direction) -> u64 {
    let back = dir.opposite();
    let mut falls = ends & dir.edge();
    let mut through = occupied;
    falls |= through & back.shift_unmasked(falls, 1);
    through &= back.shift_unmasked(through, 1);
    falls |= through & back.shift_unmasked(falls, 2);
    through &= back.shift_unmasked(through, 2);
    falls |= through & back.shift_unmasked(falls, 4);
    falls
}

/// Own marbles (`own`) that may push towards `dir` on a board occupied by `occupied`,
/// before the repeat rule: the square behind is empty or off the board (an unmasked shift
/// suffices, the result is masked by `own`), and the line does not end in an own marble at
/// the edge.
#[inline(always)]
fn pushable_towards(own: u64, occupied: u64, dir: Direction) -> u64 {
    own & !dir.shift_unmasked(occupied, 1) & !falls_towards(own, occupied, dir)
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
            moves.extend(Squares(pushers).map(|sq| Move::push(sq, dir)));
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

/// What one player could push, summed over the four directions and ignoring the repeat
/// rule (for the evaluation, which looks at both players whoever is to move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PushCounts {
    /// Pushes the player's marbles could make.
    pub all: u32,
    /// Of those, pushes that put a red marble off.
    pub win_red: u32,
    /// Of those, pushes that put an opposing marble off.
    pub capture: u32,
}

impl Position {
    /// [`PushCounts`] of both players, indexed by [`crate::game::Player::index`]. Each
    /// direction's lines are filled once per colour and shared by the two players (one
    /// player's falling own marble is the other's capture).
    #[inline(always)]
    pub fn push_counts(&self) -> [PushCounts; 2] {
        let mut counts = [PushCounts::default(); 2];
        let mut add = |dir: Direction| {
            let occupied = self.occupied();
            let falls = self
                .marbles
                .map(|colour| falls_towards(colour, occupied, dir));
            let room_behind = !dir.shift_unmasked(occupied, 1);
            for (player, count) in counts.iter_mut().enumerate() {
                let all = self.marbles[player] & room_behind & !falls[player];
                count.all += all.count_ones();
                count.win_red += (all & falls[2]).count_ones();
                count.capture += (all & falls[1 - player]).count_ones();
            }
        };
        add(Direction::North);
        add(Direction::East);
        add(Direction::South);
        add(Direction::West);
        counts
    }
}
