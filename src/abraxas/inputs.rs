//! Abraxas' network inputs from one player's view.
//!
//! Holes (64 per plane): red stones, blue stones, and empty red holes (a dot of the sheet
//! under an empty hole, with the plate in its corner now), which is how the sheet and the
//! corner reach the network. Then the phase of the turn and whether the view is the side
//! in it, the turn's flags, one-hot counters (pool, stones owned and blue stones left of
//! each side), which player the view is and the corner. Last, what the classical
//! evaluation reads off the lines ([`super::eval::features`]): the capture under way, the
//! holes that complete a line for the next placer and the other player, and how long each
//! one's capture chain runs, each one-hot and signed for the view. A one-layer network does
//! not learn from single holes where a slide makes a line of four, so it is told, as
//! Stockfish's newest networks are told the threats.

use super::Position;
use super::eval::{features, term};
use super::position::STONES;
use crate::game::Player;
use crate::linear::Terms;
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
/// Stones taken by the capture under way, −6..=6 (more counts as 6).
const PENDING: usize = CORNER + 4;
const PENDING_MAX: i32 = 6;
/// Holes completing a line for the next placer, then for the other player, −4..=4 each.
const PLACER_HOLES: usize = PENDING + 2 * PENDING_MAX as usize + 1;
const OTHER_HOLES: usize = PLACER_HOLES + 9;
/// The next placer's chain, −4..=4 corners, and the other player's, −3..=3.
const PLACER_CHAIN: usize = OTHER_HOLES + 9;
const OTHER_CHAIN: usize = PLACER_CHAIN + 9;
pub(super) const INPUTS: usize = OTHER_CHAIN + 7;

/// The classical evaluation's line terms of a position, from the deciding player's view.
#[derive(Default)]
struct LineTerms {
    pending: i32,
    placer_holes: i32,
    other_holes: i32,
    placer_chain: i32,
    other_chain: i32,
}

impl Terms for LineTerms {
    fn add(&mut self, t: usize, value: i32) {
        match t {
            term::PENDING_CAPTURE => self.pending = value,
            term::PLACER_HOLES => self.placer_holes = value,
            term::OTHER_HOLES => self.other_holes = value,
            // A chain of n corners is one term per n, valued ±1 for whom it belongs to.
            _ if (term::PLACER_CHAIN..term::OTHER_CHAIN).contains(&t) => {
                self.placer_chain = value * (t - term::PLACER_CHAIN + 1) as i32;
            }
            _ if (term::OTHER_CHAIN..term::COUNT).contains(&t) => {
                self.other_chain = value * (t - term::OTHER_CHAIN + 1) as i32;
            }
            _ => {}
        }
    }
}

pub(super) fn network_inputs(position: &Position, views: &mut [Inputs; 2]) {
    let mut lines = LineTerms::default();
    features(position, &mut lines);
    for me in [Player::One, Player::Two] {
        view(position, me, &lines, &mut views[me.index()]);
    }
}

fn view(position: &Position, me: Player, lines: &LineTerms, inputs: &mut Inputs) {
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
    let sign = if position.side() == me { 1 } else { -1 };
    let mut one_hot = |first: usize, value: i32, max: i32| {
        inputs.push(first + (sign * value.clamp(-max, max) + max) as usize);
    };
    one_hot(PENDING, lines.pending, PENDING_MAX);
    one_hot(PLACER_HOLES, lines.placer_holes, 4);
    one_hot(OTHER_HOLES, lines.other_holes, 4);
    one_hot(PLACER_CHAIN, lines.placer_chain, 4);
    one_hot(OTHER_CHAIN, lines.other_chain, 3);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn active(text: &str, me: Player) -> Vec<usize> {
        let position = Position::parse(text, Default::default()).expect("position");
        let mut views = [Inputs::new(); 2];
        network_inputs(&position, &mut views);
        views[me.index()].iter().map(usize::from).collect()
    }

    #[test]
    fn the_line_terms_are_signed_for_each_view() {
        // The rule book's example: 1 is to take the stone on d5 (a capture of 1 under way).
        let capture = "s1 8/8/8/3R4/8/8/8/8 se 1 c - 23 0 0 3 3 1";
        let mid = PENDING_MAX as usize;
        assert!(active(capture, Player::One).contains(&(PENDING + mid + 1)));
        assert!(active(capture, Player::Two).contains(&(PENDING + mid - 1)));
        // The start: on sheet s1 the placer's chain goes round all four corners.
        let start = Position::START;
        assert!(active(start, Player::One).contains(&(PLACER_CHAIN + 4 + 4)));
        assert!(active(start, Player::Two).contains(&PLACER_CHAIN));
        // One input per term and view, inside its block.
        for me in [Player::One, Player::Two] {
            let lines: Vec<usize> = active(capture, me)
                .into_iter()
                .filter(|&i| i >= PENDING)
                .collect();
            assert_eq!(lines.len(), 5, "{lines:?}");
            assert!(lines.iter().all(|&i| i < INPUTS));
        }
    }
}
