//! Offboard's network inputs from one player's view.
//!
//! Cells (61 per plane): my marbles, the opponent's; the scoring sectors each side holds;
//! one-hot points of each side; who has a marble to re-place; which colour the view plays.

use super::Position;
use super::board::CELLS;
use super::sectors::SECTORS;
use crate::game::Player;
use crate::nnue::{Inputs, exchange_blocks};

const MINE: usize = 0;
const THEIRS: usize = CELLS;
const MY_SECTORS: usize = 2 * CELLS;
const THEIR_SECTORS: usize = MY_SECTORS + SECTORS;
/// Points are counted up to this many; more are as good as won.
const POINTS: usize = 16;
const MY_POINTS: usize = THEIR_SECTORS + SECTORS;
const THEIR_POINTS: usize = MY_POINTS + POINTS;
const PENDING: usize = THEIR_POINTS + POINTS;
const COLOUR: usize = PENDING + 2;
pub(super) const INPUTS: usize = COLOUR + 2;

pub(super) fn network_view(position: &Position, inputs: &mut Inputs) {
    view(position, Player::One, inputs);
}

/// Player two's input for player one's `input`: each "my" block exchanged with its "their"
/// block, and who re-places and which colour the view plays flipped.
pub(super) fn mirror(input: usize) -> usize {
    exchange_blocks(
        input,
        &[
            (MINE, THEIRS, CELLS),
            (MY_SECTORS, THEIR_SECTORS, SECTORS),
            (MY_POINTS, THEIR_POINTS, POINTS),
            (PENDING, PENDING + 1, 1),
            (COLOUR, COLOUR + 1, 1),
        ],
    )
}

fn view(position: &Position, me: Player, inputs: &mut Inputs) {
    inputs.clear();
    for (plane, bits) in [
        (MINE, position.marbles(me)),
        (THEIRS, position.marbles(me.other())),
    ] {
        inputs.push_bits(plane, bits);
    }
    for (plane, owner) in [(MY_SECTORS, me), (THEIR_SECTORS, me.other())] {
        for sector in (0..SECTORS).filter(|&s| position.sector(s) == Some(owner)) {
            inputs.push(plane + sector);
        }
    }
    inputs.push(MY_POINTS + (position.points(me) as usize).min(POINTS - 1));
    inputs.push(THEIR_POINTS + (position.points(me.other()) as usize).min(POINTS - 1));
    if position.pending() {
        inputs.push(PENDING + usize::from(position.side_to_move() != me));
    }
    inputs.push(COLOUR + me.index());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_two_s_view_is_player_one_s_mirrored() {
        crate::nnue::check_mirror::<Position>(Position::start(Default::default()), |p| {
            let mut inputs = Inputs::new();
            view(p, Player::Two, &mut inputs);
            inputs
        });
    }
}
