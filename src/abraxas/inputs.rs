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
use crate::nnue::{Inputs, exchange_blocks};

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
/// The line terms' one-hot blocks, each its first input and the largest value it tells
/// apart (`-max..=max`, signed for the view), in [`LineTerms`]' order.
const SIGNED: [(usize, i32); 5] = [
    (PENDING, PENDING_MAX),
    (PLACER_HOLES, 4),
    (OTHER_HOLES, 4),
    (PLACER_CHAIN, 4),
    (OTHER_CHAIN, 3),
];

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

/// Output buckets: by the stones the leader owns, one per stone from 1 to 10, so that the
/// network may weigh its hidden units differently as a player nears the 11 (or 13) that
/// win. Self-play rarely empties the pool, so the pool would leave the late buckets empty.
pub(super) const BUCKETS: usize = 10;

pub(super) fn bucket(position: &Position) -> usize {
    let leader = position
        .stones_owned(Player::One)
        .max(position.stones_owned(Player::Two));
    usize::from(leader.saturating_sub(1)).min(BUCKETS - 1)
}

pub(super) fn network_view(position: &Position, inputs: &mut Inputs) {
    view(position, Player::One, &line_terms(position), inputs);
}

fn line_terms(position: &Position) -> LineTerms {
    let mut lines = LineTerms::default();
    features(position, &mut lines);
    lines
}

/// Player two's input for player one's `input`: the line terms' one-hot blocks reversed
/// (their sign is the view's), whose move it is flipped within the phase, and each "my"
/// block exchanged with its "their" block.
pub(super) fn mirror(input: usize) -> usize {
    for (first, max) in SIGNED {
        let max = max as usize;
        if (first..=first + 2 * max).contains(&input) {
            return first + 2 * max - (input - first);
        }
    }
    if (PHASE..FLAGS).contains(&input) {
        return PHASE + ((input - PHASE) ^ 1);
    }
    exchange_blocks(
        input,
        &[
            (MY_STONES, THEIR_STONES, OWNED),
            (MY_BLUES, THEIR_BLUES, BLUES),
            (SEAT, SEAT + 1, 1),
        ],
    )
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
    let values = [
        lines.pending,
        lines.placer_holes,
        lines.other_holes,
        lines.placer_chain,
        lines.other_chain,
    ];
    for ((first, max), value) in SIGNED.into_iter().zip(values) {
        inputs.push(first + (sign * value.clamp(-max, max) + max) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn active(text: &str, me: Player) -> Vec<usize> {
        let position = Position::parse(text, Default::default()).expect("position");
        let mut inputs = Inputs::new();
        view(&position, me, &line_terms(&position), &mut inputs);
        inputs.iter().map(usize::from).collect()
    }

    #[test]
    fn player_two_s_view_is_player_one_s_mirrored() {
        for sheet in ["s1", "s4"] {
            let rules = crate::abraxas::Rules {
                sheet: sheet.parse().expect("built-in sheet"),
                ..Default::default()
            };
            crate::nnue::check_mirror::<Position>(Position::start(rules), |p| {
                let mut inputs = Inputs::new();
                view(p, Player::Two, &line_terms(p), &mut inputs);
                inputs
            });
        }
    }

    #[test]
    fn buckets_follow_the_leader_s_stones() {
        let bucket_of = |text: &str| bucket(&Position::parse(text, Default::default()).unwrap());
        assert_eq!(bucket_of(Position::START), 0);
        // Owning one stone is still the first bucket.
        assert_eq!(bucket_of("s1 8/8/8/8/8/8/8/8 sw 2 p - 23 1 0 3 3 2"), 0);
        // The leader's count decides, whoever leads: 4 and 2, then 2 and 7.
        assert_eq!(bucket_of("s1 8/8/8/8/8/8/8/8 sw 1 p - 18 4 2 3 3 9"), 3);
        assert_eq!(bucket_of("s1 8/8/8/8/8/8/8/8 sw 1 p - 15 2 7 3 3 9"), 6);
        // Ten stones, one from the win, is the last bucket; with target 13 so are 11 and 12.
        assert_eq!(
            bucket_of("s1 8/8/8/8/8/8/8/8 sw 1 p - 5 10 9 3 3 20"),
            BUCKETS - 1
        );
        let target_13 = crate::abraxas::Rules {
            target: 13,
            ..Default::default()
        };
        let late = Position::parse("s1 8/8/8/8/8/8/8/8 sw 1 p - 0 12 12 3 3 30", target_13);
        assert_eq!(bucket(&late.unwrap()), BUCKETS - 1);
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
