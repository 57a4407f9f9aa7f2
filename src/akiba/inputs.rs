//! Akiba's network inputs from one player's view.
//!
//! Squares use the board's bit index (64 per plane, the spare file never set): my marbles,
//! the opponent's, reds; then one-hot counts of each side's marbles and reds won (the two
//! ways to win by capturing), who is in an extra move, and which colour the view plays.

use super::{Marble, Position};
use crate::game::Player;
use crate::nnue::Inputs;

const MINE: usize = 0;
const THEIRS: usize = 64;
const REDS: usize = 128;
const MY_COUNT: usize = 192;
const THEIR_COUNT: usize = MY_COUNT + 9;
const MY_REDS_WON: usize = THEIR_COUNT + 9;
const THEIR_REDS_WON: usize = MY_REDS_WON + 8;
const EXTRA_MOVE: usize = THEIR_REDS_WON + 8;
const COLOUR: usize = EXTRA_MOVE + 2;
pub(super) const INPUTS: usize = COLOUR + 2;

pub(super) fn network_inputs(position: &Position, views: &mut [Inputs; 2]) {
    for me in [Player::One, Player::Two] {
        view(position, me, &mut views[me.index()]);
    }
}

fn view(position: &Position, me: Player, inputs: &mut Inputs) {
    inputs.clear();
    let mine = position.marbles(Marble::of(me));
    let theirs = position.marbles(Marble::of(me.other()));
    for (plane, bits) in [
        (MINE, mine),
        (THEIRS, theirs),
        (REDS, position.marbles(Marble::Red)),
    ] {
        inputs.push_bits(plane, bits);
    }
    inputs.push(MY_COUNT + (mine.count_ones() as usize).min(8));
    inputs.push(THEIR_COUNT + (theirs.count_ones() as usize).min(8));
    inputs.push(MY_REDS_WON + usize::from(position.reds_won(me)).min(7));
    inputs.push(THEIR_REDS_WON + usize::from(position.reds_won(me.other())).min(7));
    if position.in_extra_move() {
        inputs.push(EXTRA_MOVE + usize::from(position.side_to_move() != me));
    }
    inputs.push(COLOUR + me.index());
}
