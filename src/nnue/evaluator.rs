//! The network's accumulators kept along the search.
//!
//! Search copies a position and plays a move on the copy, so there are no undo records to
//! learn what a move changed. Instead each ply keeps the inputs and accumulators of the last
//! position evaluated there; a new position at ply `p` starts from the nearest of those (its
//! parent at `p − 1`, or its sibling at `p`) and adds and removes only the inputs that
//! differ, which after one move are a handful. When more inputs differ than the position
//! has, a fresh sum is cheaper and is made instead. Whatever the reference, the result is
//! the full sum exactly: the reference only decides the cost.

use crate::game::{Game, Player};
use crate::nnue::{InputList, Network};
use crate::search::MAX_PLY;
use std::marker::PhantomData;
use std::sync::Arc;

/// A network's evaluation with incremental accumulators, one per search thread.
pub struct Evaluator<G: Game> {
    network: Arc<Network>,
    /// Indexed by ply.
    frames: Vec<Frame>,
    game: PhantomData<G>,
}

/// The last position evaluated at one ply.
#[derive(Clone)]
struct Frame {
    /// Active inputs of each player's view, indexed by [`Player::index`].
    inputs: [InputList; 2],
    /// Player one's accumulator, then player two's.
    accumulators: Vec<i32>,
    filled: bool,
}

impl<G: Game> Evaluator<G> {
    /// An evaluator for a network already checked to be for `G` ([`Network::check`]).
    pub fn new(network: Arc<Network>) -> Evaluator<G> {
        let frame = Frame {
            inputs: [InputList::new(), InputList::new()],
            accumulators: vec![0; 2 * network.hidden()],
            filled: false,
        };
        Evaluator {
            frames: vec![frame; MAX_PLY + 2],
            network,
            game: PhantomData,
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// The evaluation of `position`, met at `ply` of the search, from the side to move's
    /// view: equal to [`Network::evaluate`].
    pub fn evaluate(&mut self, position: &G, ply: usize) -> i32 {
        let ply = ply.min(self.frames.len() - 1);
        let hidden = self.network.hidden();
        let (before, rest) = self.frames.split_at_mut(ply);
        let frame = &mut rest[0];
        let parent = before.last().filter(|f| f.filled);
        for player in [Player::One, Player::Two] {
            let side = player.index();
            let mut inputs = InputList::new();
            position.network_inputs(player, &mut inputs);
            let accumulator = &mut frame.accumulators[side * hidden..(side + 1) * hidden];
            let from_sibling = frame
                .filled
                .then(|| differences(&frame.inputs[side], &inputs));
            let from_parent = parent.map(|p| differences(&p.inputs[side], &inputs));
            match (from_parent, from_sibling) {
                (Some(p), s) if p < inputs.len() && s.is_none_or(|s| p <= s) => {
                    let parent = parent.expect("measured from it");
                    accumulator
                        .copy_from_slice(&parent.accumulators[side * hidden..(side + 1) * hidden]);
                    update(&self.network, &parent.inputs[side], &inputs, accumulator);
                }
                (_, Some(s)) if s < inputs.len() => {
                    update(&self.network, &frame.inputs[side], &inputs, accumulator);
                }
                _ => self.network.refresh(&inputs, accumulator),
            }
            frame.inputs[side] = inputs;
        }
        frame.filled = true;
        let (one, two) = frame.accumulators.split_at(hidden);
        match position.to_move() {
            Player::One => self.network.output(one, two),
            Player::Two => self.network.output(two, one),
        }
    }
}

/// Turns `accumulator`, the sum over `old`, into the sum over `new`.
fn update(network: &Network, old: &[u16], new: &[u16], accumulator: &mut [i32]) {
    merge(old, new, |input, added| {
        if added {
            network.add(input, accumulator);
        } else {
            network.sub(input, accumulator);
        }
    });
}

/// How many inputs are in one ascending list and not the other.
fn differences(old: &[u16], new: &[u16]) -> usize {
    let mut count = 0;
    merge(old, new, |_, _| count += 1);
    count
}

/// Walks two ascending lists together and reports each input in only one of them: `true`
/// when it is only in `new` (added), `false` when only in `old` (removed).
#[inline]
fn merge(old: &[u16], new: &[u16], mut on_change: impl FnMut(u16, bool)) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        match old[i].cmp(&new[j]) {
            std::cmp::Ordering::Less => {
                on_change(old[i], false);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                on_change(new[j], true);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    old[i..].iter().for_each(|&x| on_change(x, false));
    new[j..].iter().for_each(|&x| on_change(x, true));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_reports_exactly_the_symmetric_difference() {
        let mut changes = Vec::new();
        merge(&[1, 3, 5, 9], &[0, 3, 4, 9, 12], |x, added| {
            changes.push((x, added))
        });
        assert_eq!(
            changes,
            vec![(0, true), (1, false), (4, true), (5, false), (12, true)]
        );
        assert_eq!(differences(&[1, 2], &[1, 2]), 0);
    }
}
