//! The Akiba position: marbles as bitboards, the turn state, and making moves.

use super::board::{Direction, RAYS, Square, Squares};
use super::moves::Move;
use super::zobrist::KEYS;
use super::{RepeatRule, Rules};
use crate::game::{Outcome, Player};

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Marble {
    White = 0,
    Black = 1,
    Red = 2,
}

impl Marble {
    pub const ALL: [Marble; 3] = [Marble::White, Marble::Black, Marble::Red];

    pub fn of(player: Player) -> Marble {
        match player {
            Player::One => Marble::White,
            Player::Two => Marble::Black,
        }
    }

    pub fn letter(self) -> char {
        match self {
            Marble::White => 'W',
            Marble::Black => 'B',
            Marble::Red => 'R',
        }
    }

    /// The marble a position string's board writes as `letter`.
    pub fn from_letter(letter: char) -> Option<Marble> {
        Marble::ALL
            .into_iter()
            .find(|marble| marble.letter() == letter)
    }
}

/// Marbles per player at the start, and the most a position may hold.
pub const MARBLES_PER_PLAYER: u32 = 8;
/// Red marbles in the game.
pub const RED_MARBLES: u32 = 13;
/// Reds a player must win to win the game.
pub const REDS_TO_WIN: u8 = 7;

/// A validated Akiba position together with the rules it is played under.
///
/// `repr(C)` with `reds_won` last: `play` reads the reds won right after storing the
/// one-byte turn fields, and with the default layout the compiler's four-byte load of
/// `reds_won` spanned those fresh byte stores, which the processor cannot forward (perf: a
/// quarter of Akiba's self-play time stalled on two such loads).
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Position {
    /// Bitboards indexed by [`Marble`].
    pub(super) marbles: [u64; 3],
    pub(super) hash: u64,
    pub(super) fullmove: u32,
    /// The push the repeat rule forbids the side to move: under `pushback` the push-back of
    /// rule 5; under `ko` the one push that would recreate the board as it stood before the
    /// opponent's last push (only a capture-free push can be undone, and only by pushing its
    /// front marble straight back, so there is at most one).
    pub(super) banned: Option<Move>,
    pub(super) rules: Rules,
    pub(super) side: Player,
    /// The side to move is in an extra move after a capture (so `pass` is legal).
    pub(super) extra: bool,
    /// Reds won, indexed by [`Player::index`].
    pub(super) reds_won: [u8; 2],
}

impl PartialEq for Position {
    /// Equal when every field that the position string or the future of the game depends on
    /// is equal.
    fn eq(&self, other: &Position) -> bool {
        self.marbles == other.marbles
            && self.side == other.side
            && self.reds_won == other.reds_won
            && self.extra == other.extra
            && self.banned == other.banned
            && self.fullmove == other.fullmove
            && self.rules == other.rules
    }
}

impl Eq for Position {}

impl Position {
    pub const START: &'static str = "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1";

    pub fn side_to_move(&self) -> Player {
        self.side
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Bitboard of one kind of marble.
    pub fn marbles(&self, kind: Marble) -> u64 {
        self.marbles[kind as usize]
    }

    pub fn occupied(&self) -> u64 {
        self.marbles[0] | self.marbles[1] | self.marbles[2]
    }

    pub fn marble_at(&self, sq: Square) -> Option<Marble> {
        Marble::ALL
            .into_iter()
            .find(|&kind| self.marbles[kind as usize] & sq.bit() != 0)
    }

    pub fn reds_won(&self, player: Player) -> u8 {
        self.reds_won[player.index()]
    }

    pub fn in_extra_move(&self) -> bool {
        self.extra
    }

    /// The push the side to move may not play, under either repeat rule.
    pub fn banned_move(&self) -> Option<Move> {
        self.banned
    }

    /// The push of the side to move, legal but for the repeat rule, that turns the board
    /// into `marbles`.
    pub(super) fn push_recreating(&self, marbles: &[u64; 3]) -> Option<Move> {
        Direction::ALL
            .into_iter()
            .zip(self.pushable())
            .find_map(|(dir, pushers)| {
                Squares(pushers)
                    .map(|sq| Move::push(sq, dir))
                    .find(|&mv| self.marbles_after(mv) == *marbles)
            })
    }

    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The game is decided on material: 7 reds won, or a side without marbles.
    #[inline]
    pub(super) fn is_decided(&self) -> bool {
        self.reds_won[0] >= REDS_TO_WIN
            || self.reds_won[1] >= REDS_TO_WIN
            || self.marbles[0] == 0
            || self.marbles[1] == 0
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if self.reds_won[0] >= REDS_TO_WIN {
            Some(Outcome::Win(Player::One))
        } else if self.reds_won[1] >= REDS_TO_WIN {
            Some(Outcome::Win(Player::Two))
        } else if self.marbles[Marble::Black as usize] == 0 {
            Some(Outcome::Win(Player::One))
        } else if self.marbles[Marble::White as usize] == 0 {
            Some(Outcome::Win(Player::Two))
        } else if self.count_moves() == 0 {
            // Only possible at the start of a turn: an extra move can always pass.
            Some(Outcome::Win(self.side.other()))
        } else {
            None
        }
    }

    /// The squares of the marbles a push from `from` towards `dir` moves, and whether its
    /// front marble falls off the board.
    #[inline]
    pub(super) fn line(&self, from: Square, dir: Direction) -> (u64, bool) {
        let ray = RAYS[from.index()][dir as usize];
        let gaps = ray & !self.occupied();
        if gaps == 0 {
            (ray, true)
        } else if dir.is_increasing() {
            (ray & ((1u64 << gaps.trailing_zeros()) - 1), false)
        } else {
            (ray & !((2u64 << (63 - gaps.leading_zeros())) - 1), false)
        }
    }

    /// Whether a push puts a marble off the board.
    pub fn is_capture(&self, mv: Move) -> bool {
        !mv.is_pass() && self.line(mv.from(), mv.direction()).1
    }

    /// The marble bitboards after a push, without any other bookkeeping.
    pub(super) fn marbles_after(&self, mv: Move) -> [u64; 3] {
        let dir = mv.direction();
        let (line, _) = self.line(mv.from(), dir);
        self.marbles.map(|bb| (bb & !line) | dir.shift(bb & line))
    }

    /// Hash of the marbles alone.
    pub(super) fn marble_key(marbles: &[u64; 3]) -> u64 {
        let mut key = 0;
        for (kind, &bb) in marbles.iter().enumerate() {
            for sq in Squares(bb) {
                key ^= KEYS.marbles[kind][sq.index()];
            }
        }
        key
    }

    /// Hash of everything but the marbles.
    #[inline]
    fn state_key(&self) -> u64 {
        let mut key = KEYS.reds[0][self.reds_won[0].min(7) as usize]
            ^ KEYS.reds[1][self.reds_won[1].min(7) as usize];
        if self.side == Player::Two {
            key ^= KEYS.black_to_move;
        }
        if self.extra {
            key ^= KEYS.extra;
        }
        if let Some(mv) = self.banned {
            key ^= KEYS.banned[mv.index()];
        }
        key
    }

    /// The Zobrist key computed from scratch; `hash()` must always equal it.
    pub fn compute_hash(&self) -> u64 {
        Self::marble_key(&self.marbles) ^ self.state_key()
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plays a legal move, updating the hash incrementally.
    pub fn play(&mut self, mv: Move) {
        let mut key = self.hash ^ self.state_key();
        if mv.is_pass() {
            self.end_turn(None);
        } else {
            let me = self.side.index();
            let dir = mv.direction();
            let (line, falls_off) = self.line(mv.from(), dir);
            let front = if dir.is_increasing() {
                1u64 << (63 - line.leading_zeros())
            } else {
                line & line.wrapping_neg()
            };
            let before = self.marbles;
            let mut front_kind = 0;
            for kind in 0..3 {
                let moved = self.marbles[kind] & line;
                if moved == 0 {
                    continue;
                }
                if moved & front != 0 {
                    front_kind = kind;
                }
                let shifted = dir.shift(moved);
                self.marbles[kind] = (self.marbles[kind] & !line) | shifted;
                // Inside a run of one colour the keys cancel: only the ends change.
                for sq in Squares(moved ^ shifted) {
                    key ^= KEYS.marbles[kind][sq.index()];
                }
            }
            if falls_off {
                if front_kind == Marble::Red as usize {
                    self.reds_won[me] += 1;
                }
                if self.rules.extra_move {
                    self.extra = true;
                    self.banned = None;
                } else {
                    self.end_turn(None);
                }
            } else {
                match self.rules.repeat {
                    RepeatRule::PushBack => {
                        let push_back = (front_kind == 1 - me)
                            .then(|| Square::from_index(dir.shift(front).trailing_zeros() as u8))
                            .flatten()
                            .map(|sq| Move::push(sq, dir.opposite()));
                        self.end_turn(push_back);
                    }
                    RepeatRule::Ko => {
                        self.end_turn(None);
                        self.banned = self.push_recreating(&before);
                    }
                }
            }
        }
        key ^= self.state_key();
        self.hash = key;
    }

    /// The opponent to move on the same board, for null-move pruning; not in an extra move,
    /// where `pass` is a real move already.
    pub fn null_move(&self) -> Option<Position> {
        if self.extra {
            return None;
        }
        let mut position = self.clone();
        let key = position.hash ^ position.state_key();
        position.end_turn(None);
        position.hash = key ^ position.state_key();
        Some(position)
    }

    fn end_turn(&mut self, banned: Option<Move>) {
        if self.side == Player::Two {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.other();
        self.extra = false;
        self.banned = banned;
    }
}
