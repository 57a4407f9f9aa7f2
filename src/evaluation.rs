//! How a game is scored: the classical evaluation (a weighted sum of named terms) and the
//! inputs of its network. The search and the trainers see a game through this and
//! [`Game`]; the rules know nothing of it.

use crate::game::Game;
use crate::linear::Terms;
use crate::nnue::Inputs;

/// A game's evaluations: classical ([`crate::linear`]) and network ([`crate::nnue`]).
pub trait Evaluation: Game {
    /// Static evaluation in centipawn-like units from the view of [`Game::to_move`]:
    /// `Σ weight·feature` over the game's terms (see [`crate::linear`]), so what `shove tune`
    /// fits is what the engine plays with.
    fn evaluate(&self) -> i32 {
        self.evaluate_with(Self::weights())
    }
    /// The evaluation with the given weights (indexed like [`Evaluation::term_names`]):
    /// [`Evaluation::evaluate`] with the game's own weights, the tuner with any others.
    #[inline]
    fn evaluate_with(&self, weights: &[i32]) -> i32 {
        let mut dot = crate::linear::Dot::new(weights);
        self.features(&mut dot);
        dot.sum
    }
    /// The names of the evaluation's terms, in index order.
    fn term_names() -> Vec<String> {
        Vec::new()
    }
    /// The engine's weight of each term, indexed like [`Evaluation::term_names`].
    fn weights() -> &'static [i32] {
        &[]
    }
    /// Emits the position's feature values (side to move's view) into `terms`.
    fn features(&self, _terms: &mut impl Terms) {}
    /// Material alone (what has been won and what is left) from the view of
    /// [`Game::to_move`]: the evaluation of the simple reference players.
    fn material(&self) -> i32;

    /// Inputs of each view of the game's network ([`crate::nnue`]).
    const NETWORK_INPUTS: usize;
    /// The network's active inputs as player one sees the position (cleared first): one per
    /// cell × content and one-hot counters.
    fn network_view(&self, inputs: &mut Inputs);
    /// The input of player two's view that is active exactly where `input` is active in
    /// player one's (an involution: mostly "mine" and "theirs" exchanged). Player two's view
    /// is player one's mirrored, so the search lists and compares one view and one walk
    /// over its changes updates both accumulators ([`crate::nnue::Evaluator`]).
    fn network_mirror(input: usize) -> usize;
    /// The network's active inputs of both views, `views[p.index()]` as player `p` sees the
    /// position.
    fn network_inputs(&self, views: &mut [Inputs; 2]) {
        self.network_view(&mut views[0]);
        views[1] = views[0].mirrored(Self::network_mirror);
    }
    /// Output buckets a network of this game may have: each bucket has its own output
    /// layer, chosen by [`Evaluation::network_bucket`] (bullet's output buckets), so the
    /// network can weigh its hidden units differently as the game goes on at no cost in speed.
    const NETWORK_BUCKETS: usize = 1;
    /// The output bucket of this position, below [`Evaluation::NETWORK_BUCKETS`].
    fn network_bucket(&self) -> usize {
        0
    }
    /// The network file built into the engine for this game, if one was trained.
    fn embedded_network() -> Option<&'static [u8]> {
        None
    }
    /// Whether the network, not the classical evaluation, is the default (matches showed
    /// it stronger for this game; docs/strength.md).
    const NETWORK_BY_DEFAULT: bool = false;
}

/// The [`Evaluation`] items that every game connects the same way to its own module, written
/// once: used inside `impl Evaluation for Position` (docs/new-game.md). The game module must
/// have `eval::{term_names, features, material}`, `weights::WEIGHTS` and
/// `inputs::{INPUTS, network_view, mirror}`.
///
/// `network: include_bytes!(…)` gives the network built into the engine, if one was trained.
/// Exported so that the toy game of docs/new-game.md (`tests/new_game.rs`) uses it too.
#[macro_export]
macro_rules! evaluation_module_items {
    (network: $network:expr) => {
        $crate::evaluation::evaluation_module_items!();

        fn embedded_network() -> Option<&'static [u8]> {
            Some($network)
        }
    };
    () => {
        fn term_names() -> Vec<String> {
            eval::term_names()
        }

        fn weights() -> &'static [i32] {
            &weights::WEIGHTS
        }

        fn features(&self, terms: &mut impl $crate::linear::Terms) {
            eval::features(self, terms)
        }

        fn material(&self) -> i32 {
            eval::material(self)
        }

        const NETWORK_INPUTS: usize = inputs::INPUTS;

        fn network_view(&self, inputs: &mut $crate::nnue::Inputs) {
            inputs::network_view(self, inputs)
        }

        fn network_mirror(input: usize) -> usize {
            inputs::mirror(input)
        }
    };
}
pub use crate::evaluation_module_items;
