//! Legal move generation for Abraxas: the placements, stops and decisions of each phase, and
//! the capture choices a line allows.

use super::board::lines_of;
use super::moves::Move;
use super::position::{Phase, Position};
use crate::game::{MAX_MOVES, MoveList};

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

impl Position {
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
}
