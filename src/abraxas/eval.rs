//! The Abraxas evaluation: stones owned, lines the next slides will complete, stop stones
//! left and the pool.

use super::position::{DIRS, Position, STONES, back, fwd};
use crate::game::Player;

/// Named weights of [`evaluate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per stone owned (difference).
    pub stone: i32,
    /// Per free hole where the mover's next placement completes a line after the slide.
    pub next_slide_line: i32,
    /// Per free hole where the opponent's placement completes a line after their slide
    /// (the corner after next).
    pub later_slide_line: i32,
    /// Per blue stop stone left (difference: the opponent's stop stones count against).
    pub stop_stone: i32,
    /// A lead in stones is worth this much more per stone as the pool empties (scaled by
    /// the stones gone from the pool out of 24).
    pub lead_as_pool_empties: i32,
}

impl Weights {
    pub const DEFAULT: Weights = Weights {
        stone: 100,
        next_slide_line: 12,
        later_slide_line: 6,
        stop_stone: 25,
        lead_as_pool_empties: 40,
    };
}

/// Free holes where one more red hole completes a line (a run of 4 or more) among `red`.
pub fn completing_holes(red: u64, free: u64) -> u64 {
    let mut out = 0;
    for dir in DIRS {
        let l1 = fwd(red, dir);
        let l2 = l1 & fwd(l1, dir);
        let l3 = l1 & fwd(l2, dir);
        let r1 = back(red, dir);
        let r2 = r1 & back(r1, dir);
        let r3 = r1 & back(r2, dir);
        out |= l3 | r3 | (l1 & r2) | (l2 & r1);
    }
    out & free
}

/// Static evaluation from the view of the player deciding now.
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    let mover = pos.mover();
    let opp = mover.other();
    let free = !(pos.red_stones() | pos.blue_stones());
    let lead = pos.stones_owned(mover) as i32 - pos.stones_owned(opp) as i32;
    let next = pos.corner().next();
    let after = next.next();
    let threats_now = completing_holes(pos.red_holes_at(next), free).count_ones() as i32;
    let threats_later = completing_holes(pos.red_holes_at(after), free).count_ones() as i32;
    let gone = (STONES - pos.pool()) as i32;
    let score = w.stone * lead
        + w.lead_as_pool_empties * lead * gone / STONES as i32
        + w.next_slide_line * threats_now
        - w.later_slide_line * threats_later
        + w.stop_stone * (pos.blue_left(mover) as i32 - pos.blue_left(opp) as i32);
    if pos.side() == mover { score } else { -score }
}

/// Stones owned difference x100 from the view of the player deciding now.
pub fn material(pos: &Position) -> i32 {
    let me = pos.side();
    let other: Player = me.other();
    100 * (pos.stones_owned(me) as i32 - pos.stones_owned(other) as i32)
}
