//! The network's accumulators kept along the search.
//!
//! Search copies a position and plays a move on the copy, so there are no undo records to
//! learn what a move changed. Instead each ply keeps the inputs and accumulator of the last
//! position evaluated there; a new position at ply `p` starts from the nearest of those (its
//! parent at `p − 1`, or its sibling at `p`) and adds and removes only the inputs that
//! differ, which after one move are a handful. When more inputs differ than the position
//! has, a fresh sum is cheaper and is made instead. Whatever the reference, the result is
//! the full sum exactly: the reference only decides the cost. Inputs are compared as bit
//! sets, so measuring a difference is a few XORs and population counts.
//!
//! Only player one's view is listed and compared: player two's is its mirror
//! ([`Evaluation::network_mirror`]), so one walk over the changes updates both accumulators
//! (`layer::update_both_views`).

use crate::evaluation::Evaluation;
use crate::game::Game;
use crate::game::Player;
use crate::nnue::{Inputs, MAX_INPUTS, Network, layer};
use multiversion::multiversion;
use std::marker::PhantomData;
use std::sync::Arc;

/// A network's evaluation with incremental accumulators, one per search thread.
pub struct Evaluator<G: Game> {
    network: Arc<Network>,
    /// [`Evaluation::network_mirror`] of each input.
    mirror: Vec<u16>,
    /// Indexed by ply.
    frames: Vec<Frame>,
    game: PhantomData<G>,
}

/// The last position evaluated at one ply.
#[derive(Clone)]
struct Frame {
    /// Player one's active inputs.
    inputs: Inputs,
    /// Player one's accumulator, then player two's.
    accumulator: Vec<i16>,
    filled: bool,
}

impl<G: Evaluation> Evaluator<G> {
    /// An evaluator for a network already checked to be for `G` ([`Network::check`]), with
    /// room for lines of up to `max_ply` plies (the search's deepest; the evaluator is
    /// below the search and takes its depth from it).
    pub fn new(network: Arc<Network>, max_ply: usize) -> Evaluator<G> {
        assert!(
            G::NETWORK_INPUTS <= MAX_INPUTS,
            "{} has more network inputs than the evaluator holds",
            G::NAME
        );
        let mirror = (0..G::NETWORK_INPUTS)
            .map(|input| G::network_mirror(input) as u16)
            .collect();
        let frame = Frame {
            inputs: Inputs::new(),
            accumulator: vec![0; 2 * network.hidden()],
            filled: false,
        };
        Evaluator {
            frames: vec![frame; max_ply + 2],
            network,
            mirror,
            game: PhantomData,
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// The evaluation of `position`, met at `ply` of the search, from the side to move's
    /// view: equal to [`Network::evaluate`].
    pub fn evaluate(&mut self, position: &G, ply: usize) -> i32 {
        evaluate(self, position, ply)
    }
}

/// [`Evaluator::evaluate`], compiled for AVX-512 and AVX2 as well as for the build's
/// baseline (x86-64-v2, SSE), one chosen when first called: a build that runs everywhere
/// still adds 32 or 16 accumulator lanes per instruction where it can, not 8. (multiversion
/// picks AVX-512 only on CPUs with Ice Lake's extensions, where it does not lower the clock;
/// older AVX-512 CPUs get the AVX2 copy.) The column additions and the output layer are
/// inlined into each copy.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2+bmi1+bmi2+popcnt"))]
fn evaluate<G: Evaluation>(evaluator: &mut Evaluator<G>, position: &G, ply: usize) -> i32 {
    let Evaluator {
        network,
        mirror,
        frames,
        ..
    } = evaluator;
    let (weights, biases) = network.first_layer();
    let hidden = network.hidden();
    let ply = ply.min(frames.len() - 1);
    let (before, rest) = frames.split_at_mut(ply);
    let frame = &mut rest[0];
    let parent = before.last().filter(|f| f.filled);
    let mut inputs = Inputs::new();
    position.network_view(&mut inputs);
    let from_sibling = frame.filled.then(|| frame.inputs.differences(&inputs));
    let from_parent = parent.map(|p| p.inputs.differences(&inputs));
    let active = inputs.len() as u32;
    // One call of the update whatever the reference, so that its code (unrolled for the
    // block of lanes) is there once: a fresh sum is an update from the biases.
    let nothing = Inputs::new();
    let (reference, sources) = match (from_parent, from_sibling) {
        (Some(p), s) if p < active && s.is_none_or(|s| p <= s) => {
            let parent = parent.expect("measured from it");
            let (one, two) = parent.accumulator.split_at(hidden);
            (&parent.inputs, Some([one, two]))
        }
        (_, Some(s)) if s < active => (&frame.inputs, None),
        _ => (&nothing, Some([biases, biases])),
    };
    let (gained, lost) = inputs.changes(reference);
    layer::update_both_views(
        weights,
        mirror,
        &mut frame.accumulator,
        sources,
        &gained,
        &lost,
    );
    frame.inputs = inputs;
    frame.filled = true;
    let (one, two) = frame.accumulator.split_at(hidden);
    let bucket = network.bucket(position);
    match position.to_move() {
        Player::One => network.output(one, two, bucket),
        Player::Two => network.output(two, one, bucket),
    }
}
