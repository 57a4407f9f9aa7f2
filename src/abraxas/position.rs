//! The Abraxas position: plate, stones, the decision phase, turn flow and making moves.

use super::board::{DIRS, lines_of, run_holes};
use super::moves::Move;
use super::sheet::{Corner, Rules, Sheet};
use super::zobrist::{
    Z_BLUE, Z_BLUES, Z_CORNER, Z_FLAGS, Z_PHASE, Z_POOL, Z_RED, Z_SIDE, Z_STONES, sheet_key,
};
use crate::game::{Outcome, Player};

/// Red stones in the game.
pub const STONES: u8 = 24;

/// Who decides what now (the position string's `phase`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `p`: the mover places.
    Place,
    /// `s`: the opponent may stop before a replay placement.
    StopBefore,
    /// `a`: the opponent may stop after a replay placement.
    StopAfter,
    /// `d`: after a stop the mover slides or stays.
    Decide,
    /// `c`: the mover chooses the stones to take.
    Capture,
}

impl Phase {
    pub fn letter(self) -> char {
        ['p', 's', 'a', 'd', 'c'][self as usize]
    }
}

/// Flag `r`: this placement is a replay.
pub const FLAG_REPLAY: u8 = 1;
/// Flag `b`: a blue stone was placed this turn.
pub const FLAG_BLUE: u8 = 2;
/// Flag `n`: the mover may not place a blue stone (first placement after a blue turn).
pub const FLAG_NO_BLUE: u8 = 4;

/// An Abraxas position: everything in the position string, the rules and the Zobrist key.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) rules: Rules,
    pub(crate) red: u64,
    pub(crate) blue: u64,
    pub(crate) corner: Corner,
    pub(crate) side: Player,
    pub(crate) phase: Phase,
    pub(crate) flags: u8,
    pub(crate) pool: u8,
    pub(crate) stones: [u8; 2],
    pub(crate) blues: [u8; 2],
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
}

impl Position {
    /// The start position string on sheet s1.
    pub const START: &'static str = "s1 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1";

    /// The empty plate in corner `sw`, player 1 to place, on the rules' sheet.
    pub fn start(rules: Rules) -> Position {
        let mut p = Position {
            rules,
            red: 0,
            blue: 0,
            corner: Corner::Sw,
            side: Player::One,
            phase: Phase::Place,
            flags: 0,
            pool: STONES,
            stones: [0, 0],
            blues: [rules.blue_stones; 2],
            fullmove: 1,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }
    pub fn sheet(&self) -> Sheet {
        self.rules.sheet
    }
    /// Red stones on the plate (bit `f + 8 r`).
    pub fn red_stones(&self) -> u64 {
        self.red
    }
    /// Blue stones on the plate.
    pub fn blue_stones(&self) -> u64 {
        self.blue
    }
    pub fn corner(&self) -> Corner {
        self.corner
    }
    /// Who decides now.
    pub fn side(&self) -> Player {
        self.side
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn flags(&self) -> u8 {
        self.flags
    }
    pub fn pool(&self) -> u8 {
        self.pool
    }
    pub fn stones_owned(&self, p: Player) -> u8 {
        self.stones[p.index()]
    }
    pub fn blue_left(&self, p: Player) -> u8 {
        self.blues[p.index()]
    }
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }
    /// The player whose turn it is (in phases `s` and `a` the opponent decides).
    pub fn mover(&self) -> Player {
        match self.phase {
            Phase::StopBefore | Phase::StopAfter => self.side.other(),
            _ => self.side,
        }
    }

    /// The red holes with the plate in `corner`: red stones, and empty holes over a dot.
    pub fn red_holes_at(&self, corner: Corner) -> u64 {
        self.red | (self.rules.sheet.mask(corner) & !self.blue)
    }

    pub fn red_holes(&self) -> u64 {
        self.red_holes_at(self.corner)
    }

    /// The lines on the plate as it lies now.
    pub fn lines(&self) -> Vec<u64> {
        let mut buf = [0u64; 40];
        let n = lines_of(self.red_holes(), &mut buf);
        buf[..n].to_vec()
    }

    /// Whether some line holds a red stone (a capture is due).
    pub fn capture_due(&self) -> bool {
        // Direction by direction, so that the first direction with a stone answers.
        let red = self.red_holes();
        DIRS.iter().any(|&dir| run_holes(red, dir) & self.red != 0)
    }

    /// The key computed from scratch (the incremental one is [`Position::hash`]).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        let mut r = self.red;
        while r != 0 {
            h ^= Z_RED[r.trailing_zeros() as usize];
            r &= r - 1;
        }
        let mut b = self.blue;
        while b != 0 {
            h ^= Z_BLUE[b.trailing_zeros() as usize];
            b &= b - 1;
        }
        h ^= Z_CORNER[self.corner.index()];
        if self.side == Player::Two {
            h ^= Z_SIDE[0];
        }
        h ^= Z_PHASE[self.phase as usize];
        h ^= Z_FLAGS[self.flags as usize];
        h ^= Z_POOL[self.pool as usize];
        for p in 0..2 {
            h ^= Z_STONES[p][self.stones[p] as usize];
            h ^= Z_BLUES[p][self.blues[p] as usize];
        }
        h ^ sheet_key(&self.rules.sheet)
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    // -- incremental setters -------------------------------------------------------------

    fn toggle_red(&mut self, h: u8) {
        self.red ^= 1 << h;
        self.hash ^= Z_RED[h as usize];
    }
    fn put_blue(&mut self, h: u8, owner: Player) {
        self.blue |= 1 << h;
        self.hash ^= Z_BLUE[h as usize];
        let o = owner.index();
        self.hash ^= Z_BLUES[o][self.blues[o] as usize];
        self.blues[o] -= 1;
        self.hash ^= Z_BLUES[o][self.blues[o] as usize];
        self.set_flags(self.flags | FLAG_BLUE);
    }
    fn set_side(&mut self, side: Player) {
        if side != self.side {
            self.side = side;
            self.hash ^= Z_SIDE[0];
        }
    }
    fn set_phase(&mut self, phase: Phase) {
        self.hash ^= Z_PHASE[self.phase as usize] ^ Z_PHASE[phase as usize];
        self.phase = phase;
    }
    fn set_flags(&mut self, flags: u8) {
        self.hash ^= Z_FLAGS[self.flags as usize] ^ Z_FLAGS[flags as usize];
        self.flags = flags;
    }
    fn set_pool(&mut self, pool: u8) {
        self.hash ^= Z_POOL[self.pool as usize] ^ Z_POOL[pool as usize];
        self.pool = pool;
    }
    fn set_corner(&mut self, corner: Corner) {
        self.hash ^= Z_CORNER[self.corner.index()] ^ Z_CORNER[corner.index()];
        self.corner = corner;
    }
    fn add_stones(&mut self, p: Player, n: u8) {
        let i = p.index();
        self.hash ^= Z_STONES[i][self.stones[i] as usize];
        self.stones[i] += n;
        self.hash ^= Z_STONES[i][self.stones[i] as usize];
    }

    // -- rules ---------------------------------------------------------------------------

    /// The winner, if someone owns the target number of stones; a draw when the mover has
    /// no move at all (only possible with the pool empty and no red stone on the plate).
    pub fn outcome(&self) -> Option<Outcome> {
        let target = self.rules.target;
        if self.stones[0] >= target {
            return Some(Outcome::Win(Player::One));
        }
        if self.stones[1] >= target {
            return Some(Outcome::Win(Player::Two));
        }
        if self.phase == Phase::Place && self.pool == 0 && self.red == 0 && !self.blue_allowed() {
            return Some(Outcome::Draw);
        }
        None
    }

    pub(super) fn won(&self) -> bool {
        self.stones[0] >= self.rules.target || self.stones[1] >= self.rules.target
    }

    /// Whether the mover may place a blue stone in this placement (phase `p`).
    pub(super) fn blue_allowed(&self) -> bool {
        // In a replay, `b` means the opponent stopped before this placement.
        self.blues[self.side.index()] > 0 && self.flags & (FLAG_NO_BLUE | FLAG_BLUE) == 0
    }

    pub(super) fn free(&self) -> u64 {
        !(self.red | self.blue)
    }

    /// Plays a legal move (copy-make; illegal moves give unspecified positions).
    pub fn play(&mut self, mv: Move) {
        match (self.phase, mv) {
            (Phase::Place, Move::Place(h)) => {
                self.toggle_red(h);
                self.set_pool(self.pool - 1);
                self.after_red_placement();
            }
            (Phase::Place, Move::Shift(a, b)) => {
                self.toggle_red(a);
                self.toggle_red(b);
                self.after_red_placement();
            }
            (Phase::Place, Move::Blue(h)) => {
                // A mover's own blue stone is always followed by the normal slide.
                self.put_blue(h, self.side);
                self.slide_and_capture();
            }
            (Phase::StopBefore, Move::Pass) => {
                self.set_side(self.side.other());
                self.set_phase(Phase::Place);
            }
            (Phase::StopBefore, Move::Blue(h)) => {
                self.put_blue(h, self.side);
                self.set_side(self.side.other());
                self.set_phase(Phase::Place);
            }
            (Phase::StopAfter, Move::Pass) => {
                self.set_side(self.side.other());
                self.slide_and_capture();
            }
            (Phase::StopAfter, Move::Blue(h)) => {
                self.put_blue(h, self.side);
                self.set_side(self.side.other());
                self.set_phase(Phase::Decide);
            }
            (Phase::Decide, Move::Slide) => self.slide_and_capture(),
            (Phase::Decide, Move::Stay) => self.capture_or_end(),
            (Phase::Capture, Move::Capture(set)) => {
                let n = set.count_ones() as u8;
                let mut s = set;
                while s != 0 {
                    self.toggle_red(s.trailing_zeros() as u8);
                    s &= s - 1;
                }
                self.add_stones(self.side, n);
                if self.flags & FLAG_BLUE != 0 || n == 0 {
                    self.end_turn();
                } else {
                    self.start_replay();
                }
            }
            _ => debug_assert!(false, "move {mv} played in phase {:?}", self.phase),
        }
    }

    fn after_red_placement(&mut self) {
        if self.flags & FLAG_REPLAY != 0 {
            if self.flags & FLAG_BLUE != 0 {
                // The opponent stopped before this placement: the mover decides.
                self.set_phase(Phase::Decide);
                return;
            }
            let opponent = self.side.other();
            if self.blues[opponent.index()] > 0 {
                self.set_side(opponent);
                self.set_phase(Phase::StopAfter);
                return;
            }
        }
        self.slide_and_capture();
    }

    fn slide_and_capture(&mut self) {
        self.set_corner(self.corner.next());
        self.capture_or_end();
    }

    fn capture_or_end(&mut self) {
        if self.capture_due() {
            self.set_phase(Phase::Capture);
        } else {
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        let mover = self.side;
        if mover == Player::Two {
            self.fullmove += 1;
        }
        let flags = if self.flags & FLAG_BLUE != 0 {
            FLAG_NO_BLUE
        } else {
            0
        };
        self.set_flags(flags);
        self.set_side(mover.other());
        self.set_phase(Phase::Place);
    }

    /// **Decision**: rule 5's `n` covers the first placement of a turn only; a replay
    /// clears it.
    fn start_replay(&mut self) {
        self.set_flags(FLAG_REPLAY);
        let opponent = self.side.other();
        if self.blues[opponent.index()] > 0 {
            self.set_side(opponent);
            self.set_phase(Phase::StopBefore);
        } else {
            self.set_phase(Phase::Place);
        }
    }
}
