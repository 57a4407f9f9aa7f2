//! The Abraxas position: plate, stones, the decision phase, turn flow, lines, captures,
//! Zobrist key and position strings.

use super::moves::Move;
use super::sheet::{Corner, Rules, Sheet};
use crate::game::{MAX_MOVES, MoveList, Outcome, Player};
use crate::phrase::{Phrase, Phrased};
use crate::position_string;
use std::fmt;

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

// ---------------------------------------------------------------------------------------
// Zobrist keys (fixed, generated at compile time with splitmix64)

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix(
            seed.wrapping_mul(0x1000_0000_01B3)
                .wrapping_add(i as u64 * 7919),
        );
        i += 1;
    }
    out
}

static Z_RED: [u64; 64] = keys(1);
static Z_BLUE: [u64; 64] = keys(2);
static Z_CORNER: [u64; 4] = keys(3);
static Z_SIDE: [u64; 1] = keys(4);
static Z_PHASE: [u64; 5] = keys(5);
static Z_FLAGS: [u64; 8] = keys(6);
static Z_POOL: [u64; 25] = keys(7);
static Z_STONES: [[u64; 25]; 2] = [keys(8), keys(9)];
static Z_BLUES: [[u64; 4]; 2] = [keys(10), keys(11)];

// ---------------------------------------------------------------------------------------
// Lines on bitboards

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// The four line directions as positive shifts: east, north, north-east, north-west.
pub(crate) const DIRS: [(u32, u64); 4] = [(1, FILE_A), (8, 0), (9, FILE_A), (7, FILE_H)];

/// Moves every bit one step along the direction (dropping what leaves the plate).
#[inline]
pub(crate) fn fwd(x: u64, (shift, wrap): (u32, u64)) -> u64 {
    (x << shift) & !wrap
}

/// Bit i gets bit i + step: the inverse of [`fwd`].
#[inline]
pub(crate) fn back(x: u64, (shift, wrap): (u32, u64)) -> u64 {
    let unwrap = match wrap {
        FILE_A => FILE_H,
        FILE_H => FILE_A,
        _ => 0,
    };
    (x >> shift) & !unwrap
}

/// The holes of the runs of at least 4 red holes along `dir` among `red`: the holes that
/// start a run of 4 (they and the 3 after them are red) and the 3 after each.
#[inline]
pub(crate) fn run_holes(red: u64, dir: (u32, u64)) -> u64 {
    let b1 = back(red, dir);
    let b2 = back(b1, dir);
    let b3 = back(b2, dir);
    let starts4 = red & b1 & b2 & b3;
    let f1 = fwd(starts4, dir);
    let f2 = fwd(f1, dir);
    starts4 | f1 | f2 | fwd(f2, dir)
}

/// The lines (maximal runs of at least 4 red holes in a row, column or diagonal) among
/// `red`, each as a hole mask, appended to `out`; returns how many.
pub fn lines_of(red: u64, out: &mut [u64; 40]) -> usize {
    let mut n = 0;
    for_each_line(red, |line| {
        out[n] = line;
        n += 1;
    });
    n
}

/// Calls `f` with each line among `red`, as [`lines_of`] lists them, without a buffer to
/// clear: the evaluation asks for them at most nodes.
#[inline]
pub(crate) fn for_each_line(red: u64, mut f: impl FnMut(u64)) {
    for dir in DIRS {
        let mut cells = run_holes(red, dir);
        while cells != 0 {
            let mut line = cells & cells.wrapping_neg();
            loop {
                let grown = line | (fwd(line, dir) & cells);
                if grown == line {
                    break;
                }
                line = grown;
            }
            cells &= !line;
            f(line);
        }
    }
}

/// A cap on the capture choices listed (never reached in play; a hand-made position could).
pub const MAX_CAPTURES: usize = MAX_MOVES;

/// Every valid set of stones to take from the lines among the red holes (`stones` the red
/// stones, `red` all red holes). Each line with stones loses exactly
/// `min(stones in it, length - 3)`; a stone at a crossing counts for every line through it.
/// **Decision** (gap in the rules): when no set meets every share exactly (shares that
/// contradict at crossings), the sets offered are the inclusion-minimal ones in which every
/// line loses at least its share.
pub fn capture_sets(stones: u64, red: u64, out: &mut Vec<u64>) {
    out.clear();
    let mut buf = [0u64; 40];
    let n = lines_of(red, &mut buf);
    let mut lines: Vec<(u64, u32)> = Vec::with_capacity(n);
    for &line in &buf[..n] {
        let s = line & stones;
        if s != 0 {
            let share = s.count_ones().min(line.count_ones() - 3);
            lines.push((s, share));
        }
    }
    if lines.is_empty() {
        return;
    }
    enumerate(&lines, 0, 0, 0, true, out);
    if out.is_empty() {
        enumerate(&lines, 0, 0, 0, false, out);
        let all = out.clone();
        out.retain(|&set| {
            let mut s = set;
            while s != 0 {
                let t = s & s.wrapping_neg();
                s &= s - 1;
                let smaller = set & !t;
                if all.contains(&smaller) {
                    return false;
                }
            }
            true
        });
    }
}

/// Line by line: the stones of line `i` not in an earlier line are decided here.
fn enumerate(
    lines: &[(u64, u32)],
    i: usize,
    decided: u64,
    taken: u64,
    exact: bool,
    out: &mut Vec<u64>,
) {
    if out.len() >= MAX_CAPTURES {
        return;
    }
    let Some(&(stones, share)) = lines.get(i) else {
        out.push(taken);
        return;
    };
    let already = (taken & stones).count_ones();
    let fresh = stones & !decided;
    if already > share && exact {
        return;
    }
    let need = share.saturating_sub(already);
    if need > fresh.count_ones() {
        return;
    }
    // Every subset of `fresh` (carry-rippler), keeping the sizes wanted.
    let mut sub = 0u64;
    loop {
        let k = sub.count_ones();
        if k == need || (!exact && k >= need) {
            enumerate(lines, i + 1, decided | stones, taken | sub, exact, out);
        }
        sub = sub.wrapping_sub(fresh) & fresh;
        if sub == 0 {
            break;
        }
    }
}

/// The sheet's part of the key: the same stones on another sheet are another position,
/// and a session changes sheets by a position string alone, which clears neither the
/// table nor the evaluation cache. Sheet s1's part is 0 (its keys are those of a key
/// without the sheet).
fn sheet_key(sheet: &Sheet) -> u64 {
    let key = |dots: u128| splitmix(splitmix(dots as u64) ^ (dots >> 64) as u64);
    key(sheet.dots()) ^ key(Sheet::default().dots())
}

// ---------------------------------------------------------------------------------------
// The position

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

    fn won(&self) -> bool {
        self.stones[0] >= self.rules.target || self.stones[1] >= self.rules.target
    }

    /// Whether the mover may place a blue stone in this placement (phase `p`).
    fn blue_allowed(&self) -> bool {
        // In a replay, `b` means the opponent stopped before this placement.
        self.blues[self.side.index()] > 0 && self.flags & (FLAG_NO_BLUE | FLAG_BLUE) == 0
    }

    fn free(&self) -> u64 {
        !(self.red | self.blue)
    }

    /// The exact number of legal moves (also when a [`MoveList`] could not hold them all).
    pub fn count_moves(&self) -> usize {
        if self.won() {
            return 0;
        }
        let free = self.free().count_ones() as usize;
        match self.phase {
            Phase::Place => {
                let reds = if self.pool > 0 {
                    free
                } else {
                    self.red.count_ones() as usize * free
                };
                reds + if self.blue_allowed() { free } else { 0 }
            }
            Phase::StopBefore | Phase::StopAfter => 1 + free,
            Phase::Decide => 2,
            Phase::Capture => {
                let mut sets = Vec::new();
                capture_sets(self.red, self.red_holes(), &mut sets);
                sets.len()
            }
        }
    }

    /// Every legal move, in generation order, without the [`MoveList`] capacity limit.
    pub fn moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.generate(|m| out.push(m));
        out
    }

    /// Fills `list`; no position has more than [`MAX_MOVES`] moves.
    pub fn legal_moves(&self, list: &mut MoveList<Move>) {
        self.generate(|m| list.push(m));
    }

    /// Calls `push` with every legal move. Generic, not `dyn`, so that each caller's push
    /// is inlined: with an empty pool a position has up to a thousand shifts, and making
    /// the move list cost most of an Abraxas search (perf: 59% of self-play in an indirect
    /// call per move).
    #[inline(always)]
    fn generate(&self, mut push: impl FnMut(Move)) {
        if self.won() {
            return;
        }
        let free = self.free();
        let holes = |set: u64| {
            let mut s = set;
            std::iter::from_fn(move || {
                (s != 0).then(|| {
                    let hole = s.trailing_zeros() as u8;
                    s &= s - 1;
                    hole
                })
            })
        };
        match self.phase {
            Phase::Place => {
                if self.pool > 0 {
                    holes(free).for_each(|h| push(Move::Place(h)));
                } else {
                    for a in holes(self.red) {
                        holes(free).for_each(|b| push(Move::Shift(a, b)));
                    }
                }
                if self.blue_allowed() {
                    holes(free).for_each(|h| push(Move::Blue(h)));
                }
            }
            Phase::StopBefore | Phase::StopAfter => {
                push(Move::Pass);
                holes(free).for_each(|h| push(Move::Blue(h)));
            }
            Phase::Decide => {
                push(Move::Slide);
                push(Move::Stay);
            }
            Phase::Capture => {
                let mut sets = Vec::new();
                capture_sets(self.red, self.red_holes(), &mut sets);
                for s in sets {
                    push(Move::Capture(s));
                }
            }
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut legal = false;
        self.generate(|m| legal |= m == mv);
        legal
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

// ---------------------------------------------------------------------------------------
// Position strings

/// Why a position string was rejected; the message names the field (none when the string
/// has the wrong number of fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    pub field: Option<&'static str>,
    pub message: Phrase,
}

impl Phrased for PositionError {
    fn phrase(&self) -> Phrase {
        match self.field {
            Some(field) => Phrase::new("bad {field}: {reason}")
                .with("field", field)
                .with_phrase("reason", self.message.clone()),
            None => self.message.clone(),
        }
    }
}

crate::phrase::display_as_phrase!(PositionError);

impl std::error::Error for PositionError {}

const FIELDS: [&str; 12] = [
    "sheet", "plate", "corner", "side", "phase", "flags", "pool", "stones1", "stones2", "blue1",
    "blue2", "fullmove",
];

fn err(field: &'static str, message: Phrase) -> PositionError {
    PositionError {
        field: Some(field),
        message,
    }
}

/// Rank `r` (0-based) of the plate runs past its 8 holes.
fn rank_too_long(r: usize) -> PositionError {
    err(
        "plate",
        Phrase::new("rank {rank} is longer than 8").with("rank", r + 1),
    )
}

fn parse_plate(text: &str) -> Result<(u64, u64), PositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(err(
            "plate",
            Phrase::new("expected 8 ranks separated by '/', found {count}")
                .with("count", ranks.len()),
        ));
    }
    let (mut red, mut blue) = (0u64, 0u64);
    for (i, rank) in ranks.iter().enumerate() {
        let r = 7 - i;
        let mut f = 0usize;
        for ch in rank.chars() {
            match ch {
                'R' | 'B' => {
                    if f >= 8 {
                        return Err(rank_too_long(r));
                    }
                    let bit = 1u64 << (f + 8 * r);
                    if ch == 'R' {
                        red |= bit;
                    } else {
                        blue |= bit;
                    }
                    f += 1;
                }
                '1'..='8' => f += ch as usize - '0' as usize,
                _ => {
                    return Err(err(
                        "plate",
                        Phrase::new("bad character '{char}' (expected R, B or 1-8)")
                            .with("char", ch),
                    ));
                }
            }
            if f > 8 {
                return Err(rank_too_long(r));
            }
        }
        if f != 8 {
            return Err(err(
                "plate",
                Phrase::new("rank {rank} has {holes} holes, not 8")
                    .with("rank", r + 1)
                    .with("holes", f),
            ));
        }
    }
    Ok((red, blue))
}

fn number(field: &'static str, text: &str, max: u32) -> Result<u32, PositionError> {
    let n: u32 = text.parse().map_err(|_| {
        err(
            field,
            Phrase::new("'{text}' is not a number").with("text", text),
        )
    })?;
    if n > max {
        return Err(err(
            field,
            Phrase::new("{n} is more than {max}")
                .with("n", n)
                .with("max", max),
        ));
    }
    Ok(n)
}

impl Position {
    /// Parses the twelve-field position string. The string's sheet replaces the rules'
    /// sheet; the other rules (target, blue stones per player) come from `rules`.
    pub fn parse(text: &str, rules: Rules) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != FIELDS.len() {
            return Err(PositionError {
                field: None,
                message: Phrase::new("{count} fields, expected 12 ({fields})")
                    .with("fields", FIELDS.join(" "))
                    .with("count", fields.len()),
            });
        }
        let mut rules = rules;
        if !(rules.target == 11 || rules.target == 13) {
            return Err(err("rules", Phrase::new("the target must be 11 or 13")));
        }
        if !(rules.blue_stones == 2 || rules.blue_stones == 3) {
            return Err(err(
                "rules",
                Phrase::new("blue stones per player must be 2 or 3"),
            ));
        }
        rules.sheet = fields[0].parse().map_err(|e| err("sheet", e))?;
        let (red, blue) = parse_plate(fields[1])?;
        let corner = Corner::from_name(fields[2]).ok_or_else(|| {
            err(
                "corner",
                Phrase::new("'{text}' is not sw, se, ne or nw").with("text", fields[2]),
            )
        })?;
        let side = match fields[3] {
            "1" => Player::One,
            "2" => Player::Two,
            s => {
                return Err(err(
                    "side",
                    Phrase::new("'{text}' is not 1 or 2").with("text", s),
                ));
            }
        };
        let phase = match fields[4] {
            "p" => Phase::Place,
            "s" => Phase::StopBefore,
            "a" => Phase::StopAfter,
            "d" => Phase::Decide,
            "c" => Phase::Capture,
            s => {
                return Err(err(
                    "phase",
                    Phrase::new("'{text}' is not p, s, a, d or c").with("text", s),
                ));
            }
        };
        let mut flags = 0u8;
        if fields[5] != "-" {
            for ch in fields[5].chars() {
                let bit = match ch {
                    'r' => FLAG_REPLAY,
                    'b' => FLAG_BLUE,
                    'n' => FLAG_NO_BLUE,
                    _ => {
                        return Err(err(
                            "flags",
                            Phrase::new("bad flag '{char}' (expected '-' or r, b, n)")
                                .with("char", ch),
                        ));
                    }
                };
                if flags & bit != 0 {
                    return Err(err(
                        "flags",
                        Phrase::new("flag '{char}' given twice").with("char", ch),
                    ));
                }
                flags |= bit;
            }
        }
        let pool = number("pool", fields[6], STONES as u32)? as u8;
        let s1 = number("stones1", fields[7], STONES as u32)? as u8;
        let s2 = number("stones2", fields[8], STONES as u32)? as u8;
        let bmax = rules.blue_stones as u32;
        let b1 = number("blue1", fields[9], bmax)? as u8;
        let b2 = number("blue2", fields[10], bmax)? as u8;
        let fullmove = number("fullmove", fields[11], u32::MAX)?;
        if fullmove == 0 {
            return Err(err("fullmove", Phrase::new("must be at least 1")));
        }
        let reds = red.count_ones();
        if reds + pool as u32 + s1 as u32 + s2 as u32 != STONES as u32 {
            return Err(err(
                "pool",
                Phrase::new(
                    "red stones on the plate ({reds}), in the pool ({pool}) and owned \
                     ({one} + {two}) must add up to {stones}",
                )
                .with("reds", reds)
                .with("pool", pool)
                .with("one", s1)
                .with("two", s2)
                .with("stones", STONES),
            ));
        }
        let blues = blue.count_ones();
        if blues + b1 as u32 + b2 as u32 != 2 * bmax {
            return Err(err(
                "blue1",
                Phrase::new(
                    "blue stones on the plate ({blues}) and left ({one} + {two}) must add up \
                     to {total} ({each} per player)",
                )
                .with("blues", blues)
                .with("one", b1)
                .with("two", b2)
                .with("total", 2 * bmax)
                .with("each", bmax),
            ));
        }
        if s1 >= rules.target && s2 >= rules.target {
            return Err(err(
                "stones2",
                Phrase::new("both players own the target number of stones"),
            ));
        }
        let (r, b, n) = (
            flags & FLAG_REPLAY != 0,
            flags & FLAG_BLUE != 0,
            flags & FLAG_NO_BLUE != 0,
        );
        let deciding_blues = [b1, b2][side.index()];
        let flags_ok = match phase {
            Phase::Place => !b || r,
            Phase::StopBefore | Phase::StopAfter => r && !b && !n,
            Phase::Decide => r && b && !n,
            Phase::Capture => !(n && (r || b)),
        } && !(n && r);
        if !flags_ok {
            return Err(err(
                "flags",
                Phrase::new("flags '{flags}' cannot occur in phase '{phase}'")
                    .with("flags", fields[5])
                    .with("phase", phase.letter()),
            ));
        }
        if matches!(phase, Phase::StopBefore | Phase::StopAfter) && deciding_blues == 0 {
            return Err(err(
                "phase",
                Phrase::new("a stop phase needs the deciding player to have a blue stone"),
            ));
        }
        let mut p = Position {
            rules,
            red,
            blue,
            corner,
            side,
            phase,
            flags,
            pool,
            stones: [s1, s2],
            blues: [b1, b2],
            fullmove,
            hash: 0,
        };
        if phase == Phase::Capture && !p.won() {
            if !p.capture_due() {
                return Err(err(
                    "phase",
                    Phrase::new("phase 'c' but no line holds a red stone"),
                ));
            }
            let mut sets = Vec::new();
            capture_sets(p.red, p.red_holes(), &mut sets);
            if sets.len() >= MAX_CAPTURES {
                return Err(err(
                    "plate",
                    Phrase::new("more than {max} ways to capture").with("max", MAX_CAPTURES),
                ));
            }
        }
        p.hash = p.compute_hash();
        Ok(p)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut flags = String::new();
        for (bit, ch) in [(FLAG_REPLAY, 'r'), (FLAG_BLUE, 'b'), (FLAG_NO_BLUE, 'n')] {
            if self.flags & bit != 0 {
                flags.push(ch);
            }
        }
        if flags.is_empty() {
            flags.push('-');
        }
        let hole = |bit: u64| {
            if self.red & bit != 0 {
                Some('R')
            } else if self.blue & bit != 0 {
                Some('B')
            } else {
                None
            }
        };
        write!(f, "{} ", self.rules.sheet)?;
        position_string::write_board(
            f,
            (0..8)
                .rev()
                .map(|r| (0..8).map(move |file| hole(1u64 << (file + 8 * r)))),
        )?;
        write!(
            f,
            " {} {} {} {} {} {} {} {} {} {}",
            self.corner,
            if self.side == Player::One { 1 } else { 2 },
            self.phase.letter(),
            flags,
            self.pool,
            self.stones[0],
            self.stones[1],
            self.blues[0],
            self.blues[1],
            self.fullmove
        )
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
