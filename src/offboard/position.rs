//! The Offboard position: marbles as bitboards, the sectors' contents, the pending marble,
//! the line moves (walked cell by cell: a line and the marbles it pushes span at most nine
//! cells) and making moves.

use super::board::{Cell, Cells, Direction};
use super::moves::Move;
use super::sectors::{Exit, Rules, SECTORS};
use super::zobrist::KEYS;
use crate::game::{Outcome, Player};

/// Marbles per player: at the start, and the most a player may have on the board, in
/// sectors and pending together.
pub const MARBLES_PER_PLAYER: u32 = 12;
/// Points that win the game at once.
pub const POINTS_TO_WIN: u32 = 6;

/// The colour's name in messages: player one is red, player two yellow.
pub fn colour_name(player: Player) -> &'static str {
    match player {
        Player::One => "red",
        Player::Two => "yellow",
    }
}

/// What a legal line move does besides moving the line one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Push {
    /// Nothing ahead of the line: a plain move.
    None,
    /// The opposing marbles move on; the front one to this cell.
    To(Cell),
    /// The front opposing marble leaves the board, landing on this ring cell.
    Off(Exit),
}

/// A legal line move: the cell the line's front moves into, and what is pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LineMove {
    /// The first cell ahead of the line (empty, or the first opposing marble).
    pub(super) head: Cell,
    pub(super) push: Push,
}

/// A validated Offboard position together with the sector values it is played under.
#[derive(Clone, Debug)]
pub struct Position {
    /// Bitboards indexed by [`Player::index`]: red, yellow.
    pub(super) marbles: [u64; 2],
    pub(super) side: Player,
    /// The owner of the marble in each sector (the pusher scored it).
    pub(super) sectors: [Option<Player>; SECTORS],
    /// Points by player. They follow from `sectors` and the rules' values; kept so that
    /// the evaluation and the end test need not add them up.
    pub(super) points: [u32; 2],
    /// The side to move has a returned marble to re-place (`@cell` moves are legal).
    pub(super) pending: bool,
    pub(super) fullmove: u32,
    pub(super) hash: u64,
    pub(super) rules: Rules,
}

impl PartialEq for Position {
    /// Equal when every field of the position string and the rules are equal.
    fn eq(&self, other: &Position) -> bool {
        self.marbles == other.marbles
            && self.side == other.side
            && self.sectors == other.sectors
            && self.pending == other.pending
            && self.fullmove == other.fullmove
            && self.rules == other.rules
    }
}

impl Eq for Position {}

impl Position {
    /// The move of `player`'s line with rear marble `from` towards `dir`, if legal
    /// (whoever is to move): `None` when an own marble would leave the board, when the
    /// opposing marbles ahead are not fewer than the line, or when an own marble follows them.
    #[inline]
    pub(super) fn line_move(&self, player: Player, from: Cell, dir: Direction) -> Option<LineMove> {
        let own = self.marbles[player.index()];
        let opp = self.marbles[1 - player.index()];
        let mut length = 1;
        let mut head = from.step(dir)?;
        while own & head.bit() != 0 {
            length += 1;
            head = head.step(dir)?;
        }
        if opp & head.bit() == 0 {
            return Some(LineMove {
                head,
                push: Push::None,
            });
        }
        let (mut pushed, mut last) = (1, head);
        loop {
            if pushed >= length {
                return None;
            }
            let Some(next) = last.step(dir) else {
                return last.exit(dir).map(|exit| LineMove {
                    head,
                    push: Push::Off(exit),
                });
            };
            if own & next.bit() != 0 {
                return None;
            }
            if opp & next.bit() == 0 {
                return Some(LineMove {
                    head,
                    push: Push::To(next),
                });
            }
            pushed += 1;
            last = next;
        }
    }

    /// The start position (its cells are a reconstruction, docs/rules/engine/offboard.md).
    pub const START: &'static str =
        "RR1YY/R1RY1Y/1RR1YY1/8/9/8/1RR1YY1/R1RY1Y/RR1YY r 0 0 ............ - 1";

    pub fn side_to_move(&self) -> Player {
        self.side
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Bitboard of one player's marbles on the board.
    pub fn marbles(&self, player: Player) -> u64 {
        self.marbles[player.index()]
    }

    pub fn occupied(&self) -> u64 {
        self.marbles[0] | self.marbles[1]
    }

    pub fn marble_at(&self, cell: Cell) -> Option<Player> {
        [Player::One, Player::Two]
            .into_iter()
            .find(|p| self.marbles[p.index()] & cell.bit() != 0)
    }

    /// Whose marble sector `0..12` holds.
    pub fn sector(&self, sector: usize) -> Option<Player> {
        self.sectors[sector]
    }

    pub fn points(&self, player: Player) -> u32 {
        self.points[player.index()]
    }

    /// Whether the side to move has a returned marble to re-place.
    pub fn pending(&self) -> bool {
        self.pending
    }

    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// A player has won on points.
    #[inline]
    pub(super) fn is_decided(&self) -> bool {
        self.points[0] >= POINTS_TO_WIN || self.points[1] >= POINTS_TO_WIN
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if self.points[0] >= POINTS_TO_WIN {
            Some(Outcome::Win(Player::One))
        } else if self.points[1] >= POINTS_TO_WIN {
            Some(Outcome::Win(Player::Two))
        } else if self.count_moves() == 0 {
            // Never with a pending marble: the board always has empty cells.
            Some(Outcome::Win(self.side.other()))
        } else {
            None
        }
    }

    /// Whether `player` wins by pushing one marble into the most valuable empty sector.
    pub fn one_push_from_winning(&self, player: Player) -> bool {
        let best = (0..SECTORS)
            .filter(|&s| self.sectors[s].is_none())
            .map(|s| u32::from(self.rules.value(s)))
            .max()
            .unwrap_or(0);
        self.points[player.index()] + best >= POINTS_TO_WIN
    }

    /// Points each player has, added up from the sectors' contents and values.
    pub(super) fn points_from_sectors(
        sectors: &[Option<Player>; SECTORS],
        rules: &Rules,
    ) -> [u32; 2] {
        let mut points = [0; 2];
        for (s, owner) in sectors.iter().enumerate() {
            // A sector holds the pushed marble: its value went to the other player.
            if let Some(owner) = owner {
                points[owner.other().index()] += u32::from(rules.value(s));
            }
        }
        points
    }

    /// Hash of the side to move and the pending flag.
    #[inline]
    fn state_key(&self) -> u64 {
        let mut key = 0;
        if self.side == Player::Two {
            key ^= KEYS.yellow_to_move;
        }
        if self.pending {
            key ^= KEYS.pending;
        }
        key
    }

    /// The Zobrist key computed from scratch; `hash()` must always equal it. It covers the
    /// marbles, the side to move, the sectors' contents and the pending flag: the points
    /// follow from the sectors under the game's fixed sector values, and the move number
    /// does not change what can happen.
    pub fn compute_hash(&self) -> u64 {
        let mut key = self.state_key();
        for (p, &bb) in self.marbles.iter().enumerate() {
            for cell in Cells(bb) {
                key ^= KEYS.marbles[p][cell.index()];
            }
        }
        for (s, owner) in self.sectors.iter().enumerate() {
            if let Some(owner) = owner {
                key ^= KEYS.sectors[s][owner.index()];
            }
        }
        key
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The opponent to move on the same board, for null-move pruning; not with a pending
    /// marble, whose fate is part of the move, and not when the opponent is one scoring
    /// push from winning.
    ///
    /// Why the latter: a pass hands that opponent a free tempo, and the null-move search,
    /// three plies shallower, cannot see a win that needs a quiet move before the push
    /// (two moves of theirs), so "still above beta after passing" proves nothing there.
    /// With it the engine missed a proved win in 5 plies at depth 7 (a late root move
    /// reduced by two, then the defender's pass left the attacker one ply:
    /// `offboard-tactics-15`, docs/experiments.md).
    pub fn null_move(&self) -> Option<Position> {
        if self.pending || self.one_push_from_winning(self.side.other()) {
            return None;
        }
        let mut position = self.clone();
        let key = position.hash ^ position.state_key();
        position.side = position.side.other();
        position.hash = key ^ position.state_key();
        Some(position)
    }

    /// Plays a legal move, updating the hash incrementally.
    pub fn play(&mut self, mv: Move) {
        let me = self.side.index();
        let them = 1 - me;
        let mut key = self.hash ^ self.state_key();
        let mut returned = false;
        match mv.direction() {
            None => {
                let cell = mv.cell();
                self.marbles[me] |= cell.bit();
                key ^= KEYS.marbles[me][cell.index()];
            }
            Some(dir) => {
                let from = mv.cell();
                let Some(LineMove { head, push }) = self.line_move(self.side, from, dir) else {
                    panic!("{mv} is not a legal move in {self}");
                };
                // A line only changes at its ends: the rear cell empties, the head fills.
                self.marbles[me] ^= from.bit() | head.bit();
                key ^= KEYS.marbles[me][from.index()] ^ KEYS.marbles[me][head.index()];
                match push {
                    Push::None => {}
                    Push::To(tail) => {
                        self.marbles[them] ^= head.bit() | tail.bit();
                        key ^= KEYS.marbles[them][head.index()] ^ KEYS.marbles[them][tail.index()];
                    }
                    Push::Off(exit) => {
                        self.marbles[them] ^= head.bit();
                        key ^= KEYS.marbles[them][head.index()];
                        let sector = self.rules.sector(exit);
                        if self.sectors[sector].is_none() {
                            self.sectors[sector] = Some(self.side.other());
                            key ^= KEYS.sectors[sector][them];
                            self.points[me] += u32::from(self.rules.value(sector));
                        } else {
                            returned = true;
                        }
                    }
                }
            }
        }
        if self.side == Player::Two {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.other();
        // A normal move discards the mover's own pending marble; only a marble just sent
        // back from an occupied sector is pending now (and it is the new side's).
        self.pending = returned;
        key ^= self.state_key();
        self.hash = key;
    }
}
