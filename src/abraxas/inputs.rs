//! Abraxas' network inputs from one player's view.
//!
//! Holes (64 per plane): red stones, blue stones, and empty red holes (a dot of the sheet
//! under an empty hole, with the plate in its corner now), which is how the sheet and the
//! corner reach the network. Then the phase of the turn and whether the view is the side
//! in it, the turn's flags, one-hot counters (pool, stones owned and blue stones left of
//! each side), which player the view is and the corner.

use super::Position;
use super::position::STONES;
use crate::game::Player;
use crate::nnue::Inputs;

const RED: usize = 0;
const BLUE: usize = 64;
const RED_HOLES: usize = 128;
const PHASE: usize = 192;
const FLAGS: usize = PHASE + 10;
const POOL: usize = FLAGS + 3;
/// Stones owned are counted up to this many (13 wins under either target).
const OWNED: usize = 14;
const MY_STONES: usize = POOL + STONES as usize + 1;
const THEIR_STONES: usize = MY_STONES + OWNED;
const BLUES: usize = 4;
const MY_BLUES: usize = THEIR_STONES + OWNED;
const THEIR_BLUES: usize = MY_BLUES + BLUES;
const SEAT: usize = THEIR_BLUES + BLUES;
const CORNER: usize = SEAT + 2;
pub(super) const INPUTS: usize = CORNER + 4;

pub(super) fn network_inputs(position: &Position, me: Player, inputs: &mut Inputs) {
    inputs.clear();
    let red = position.red_stones();
    let blue = position.blue_stones();
    let empty_red_holes = position.sheet().mask(position.corner()) & !red & !blue;
    for (plane, bits) in [(RED, red), (BLUE, blue), (RED_HOLES, empty_red_holes)] {
        inputs.push_bits(plane, bits);
    }
    inputs.push(PHASE + 2 * position.phase() as usize + usize::from(position.side() != me));
    for flag in 0..3 {
        if position.flags() & (1 << flag) != 0 {
            inputs.push(FLAGS + flag);
        }
    }
    inputs.push(POOL + usize::from(position.pool().min(STONES)));
    inputs.push(MY_STONES + usize::from(position.stones_owned(me)).min(OWNED - 1));
    inputs.push(THEIR_STONES + usize::from(position.stones_owned(me.other())).min(OWNED - 1));
    inputs.push(MY_BLUES + usize::from(position.blue_left(me)).min(BLUES - 1));
    inputs.push(THEIR_BLUES + usize::from(position.blue_left(me.other())).min(BLUES - 1));
    inputs.push(SEAT + me.index());
    inputs.push(CORNER + position.corner().index());
}
