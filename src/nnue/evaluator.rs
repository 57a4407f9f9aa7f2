//! The network's accumulators kept along the search.
//!
//! Search copies a position and plays a move on the copy, so there are no undo records to
//! learn what a move changed. Instead each ply keeps the inputs and accumulators of the last
//! position evaluated there; a new position at ply `p` starts from the nearest of those (its
//! parent at `p − 1`, or its sibling at `p`) and adds and removes only the inputs that
//! differ, which after one move are a handful. When more inputs differ than the position
//! has, a fresh sum is cheaper and is made instead. Whatever the reference, the result is
//! the full sum exactly: the reference only decides the cost. Inputs are compared as bit
//! sets, so measuring a difference is a few XORs and population counts.

use crate::game::{Game, Player};
use crate::nnue::{InputList, Network};
use std::marker::PhantomData;
use std::sync::Arc;

/// Inputs a game may have per view for this evaluator: a view's active inputs are kept as a
/// bit set of this many bits, so that comparing two positions is a few XORs.
pub const MAX_INPUTS: usize = 64 * WORDS;
const WORDS: usize = 8;

/// Active inputs as bits.
type InputSet = [u64; WORDS];

/// A network's evaluation with incremental accumulators, one per search thread.
pub struct Evaluator<G: Game> {
    network: Arc<Network>,
    /// Indexed by ply.
    frames: Vec<Frame>,
    inputs: InputList,
    game: PhantomData<G>,
}

/// The last position evaluated at one ply.
#[derive(Clone)]
struct Frame {
    /// Active inputs of each player's view, indexed by [`Player::index`].
    sets: [InputSet; 2],
    /// Player one's accumulator, then player two's.
    accumulators: Vec<i32>,
    filled: bool,
}

impl<G: Game> Evaluator<G> {
    /// An evaluator for a network already checked to be for `G` ([`Network::check`]), with
    /// room for lines of up to `max_ply` plies (the search's deepest; the evaluator is
    /// below the search and takes its depth from it).
    pub fn new(network: Arc<Network>, max_ply: usize) -> Evaluator<G> {
        assert!(
            G::NETWORK_INPUTS <= MAX_INPUTS,
            "{} has more network inputs than the evaluator holds",
            G::NAME
        );
        let frame = Frame {
            sets: [[0; WORDS]; 2],
            accumulators: vec![0; 2 * network.hidden()],
            filled: false,
        };
        Evaluator {
            frames: vec![frame; max_ply + 2],
            network,
            inputs: InputList::new(),
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
            position.network_inputs(player, &mut self.inputs);
            let mut set = [0; WORDS];
            for &input in self.inputs.iter() {
                set[usize::from(input) / 64] |= 1 << (input % 64);
            }
            let accumulator = &mut frame.accumulators[side * hidden..(side + 1) * hidden];
            let from_sibling = frame.filled.then(|| differences(&frame.sets[side], &set));
            let from_parent = parent.map(|p| differences(&p.sets[side], &set));
            let active = self.inputs.len() as u32;
            match (from_parent, from_sibling) {
                (Some(p), s) if p < active && s.is_none_or(|s| p <= s) => {
                    let parent = parent.expect("measured from it");
                    accumulator
                        .copy_from_slice(&parent.accumulators[side * hidden..(side + 1) * hidden]);
                    update(&self.network, &parent.sets[side], &set, accumulator);
                }
                (_, Some(s)) if s < active => {
                    update(&self.network, &frame.sets[side], &set, accumulator);
                }
                _ => self.network.refresh(&self.inputs, accumulator),
            }
            frame.sets[side] = set;
        }
        frame.filled = true;
        let (one, two) = frame.accumulators.split_at(hidden);
        match position.to_move() {
            Player::One => self.network.output(one, two),
            Player::Two => self.network.output(two, one),
        }
    }
}

/// How many inputs are in one set and not the other.
fn differences(old: &InputSet, new: &InputSet) -> u32 {
    old.iter().zip(new).map(|(a, b)| (a ^ b).count_ones()).sum()
}

/// Turns `accumulator`, the sum over `old`, into the sum over `new`.
fn update(network: &Network, old: &InputSet, new: &InputSet, accumulator: &mut [i32]) {
    for (word, (&o, &n)) in old.iter().zip(new).enumerate() {
        let (mut added, mut removed) = (n & !o, o & !n);
        while added != 0 {
            network.add(
                (64 * word) as u16 + added.trailing_zeros() as u16,
                accumulator,
            );
            added &= added - 1;
        }
        while removed != 0 {
            network.sub(
                (64 * word) as u16 + removed.trailing_zeros() as u16,
                accumulator,
            );
            removed &= removed - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_count_the_symmetric_difference() {
        let mut a = [0; WORDS];
        let mut b = [0; WORDS];
        for i in [1, 3, 5, 9, 300] {
            a[i / 64] |= 1u64 << (i % 64);
        }
        for i in [0, 3, 4, 9, 12, 300] {
            b[i / 64] |= 1u64 << (i % 64);
        }
        assert_eq!(differences(&a, &b), 5);
        assert_eq!(differences(&a, &a), 0);
    }
}
