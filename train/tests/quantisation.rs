//! The engine's integer network (`shove::nnue::Network::evaluate`) against the float
//! model it was quantised from (the candle forward pass the trainer learns with), on
//! positions of random games of every game (Abraxas on several sheets).

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use shove::abraxas;
use shove::akiba;
use shove::game::{Game, MoveList};
use shove::nnue::{Inputs, Network, QA};
use shove::offboard;
use shove::profile::Profile;
use shove_train::data::Positions;
use shove_train::model::{Batch, Model, Weights};

/// Evaluation units per logit in these tests (about 1/K of the real data: 216 for Akiba).
const SCALE: f32 = 200.0;
/// The engine against the float model whose weights are rounded to the quantisation grid
/// (w1, b1 to 1/QA, w2 to 1/QB, the network's output factor): only the output's rounding to an integer (±0.5) may
/// differ, so this checks the integer arithmetic itself.
const ARITHMETIC_TOLERANCE: f64 = 0.5 + 1e-3;
/// The engine against the unrounded float model, in evaluation units: the weights'
/// rounding too. Rounding w1 and b1 costs at most ~5 units whatever the size; the output
/// layer's factor (the finest that fits, here 8,192) makes w2's rounding negligible, so
/// the error no longer grows with the hidden size. Measured maxima over ~950–1400 positions
/// per game (four networks, hidden 32/64/128/40, SCALE 200, the wide weights of
/// [`weights`]): 3.5 to 5.7. With w2 at steps of 1/64 logit, as before the factor was
/// chosen, they were 8.4 to 37.0, growing with the hidden size.
const QUANTISATION_TOLERANCE: f64 = 8.0;

/// Positions along random games from the start under `rules`, the finished ones left out.
fn random_positions<G: Profile>(rules: G::Rules, games: usize, seed: u64) -> Vec<G> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    let mut moves = MoveList::new();
    for _ in 0..games {
        let mut position = G::start(rules);
        let plies = rng.random_range(20..200);
        for _ in 0..plies {
            moves.clear();
            position.legal_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            position.play(mv);
            if position.outcome().is_some() {
                break;
            }
            positions.push(position.clone());
        }
    }
    positions
}

/// Trained-looking weights: the model's start, with the first layer spread wider than
/// at the start (trained first layers carry larger weights), and output biases; as many
/// output buckets as the game may have, so that each bucket's layer is checked.
fn weights<G: Profile>(hidden: usize, seed: u64) -> Weights {
    let start = Model::new(G::NETWORK_INPUTS, hidden, G::NETWORK_BUCKETS, 40, seed)
        .and_then(|m| m.weights())
        .expect("a model");
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed);
    Weights {
        w1: start.w1.iter().map(|w| w * 3.0).collect(),
        b1: start
            .b1
            .iter()
            .map(|_| rng.random_range(-0.5..1.5))
            .collect(),
        w2: start.w2.iter().map(|w| w * 2.0).collect(),
        b2: (0..G::NETWORK_BUCKETS)
            .map(|b| 0.1 - 0.15 * b as f32)
            .collect(),
    }
}

/// Both views' inputs of each position, in the trainer's storage.
fn inputs_of<G: Profile>(positions: &[G]) -> Positions {
    let mut set = Positions::default();
    let mut views = [Inputs::new(); 2];
    for p in positions {
        p.network_inputs(&mut views);
        let (mover, other) = (
            &views[p.to_move().index()],
            &views[p.to_move().other().index()],
        );
        set.push(mover, other, 0, 0.5, 0, p.network_bucket())
            .expect("push");
    }
    set
}

/// The float model's evaluations (logit × SCALE) of every position of `set`.
fn float_evaluations<G: Profile>(set: &Positions, hidden: usize, weights: &Weights) -> Vec<f64> {
    let model = Model::from_weights(G::NETWORK_INPUTS, hidden, weights).expect("model");
    let indices: Vec<usize> = (0..set.len()).collect();
    let batch = Batch::new(
        set,
        &indices,
        (G::NETWORK_INPUTS, weights.b2.len()),
        0.005,
        0.5,
    )
    .expect("batch");
    let logits: Vec<f32> = model
        .forward(&batch)
        .and_then(|t| t.to_vec1().map_err(shove_train::model::err))
        .expect("forward");
    logits
        .iter()
        .map(|&o| f64::from(o) * f64::from(SCALE))
        .collect()
}

fn rounded(weights: &Weights, qb: i32) -> Weights {
    let grid = |values: &[f32], q: i32| -> Vec<f32> {
        values
            .iter()
            .map(|w| (w * q as f32).round() / q as f32)
            .collect()
    };
    Weights {
        w1: grid(&weights.w1, QA),
        b1: grid(&weights.b1, QA),
        w2: grid(&weights.w2, qb),
        b2: grid(&weights.b2, QA * qb),
    }
}

fn max_difference(a: &[f64], b: &[i32]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(&f, &q)| (f - f64::from(q)).abs())
        .fold(0.0, f64::max)
}

fn agrees<G: Profile>(positions: &[G]) {
    assert!(
        positions.len() > 300,
        "{}: {} positions",
        G::NAME,
        positions.len()
    );
    let set = inputs_of(positions);
    // 40: not a whole number of the engine's blocks of lanes, so its partial block is checked.
    for (hidden, seed) in [(64, 1), (32, 2), (128, 3), (40, 4)] {
        let weights = weights::<G>(hidden, seed);
        let network = weights
            .to_network(G::NAME, G::NETWORK_INPUTS, hidden, SCALE)
            .expect("weights fit the quantised range");
        network.check::<G>().expect("network for G");
        let network = Network::from_bytes(&network.to_bytes()).expect("its own file");
        let quantised: Vec<i32> = positions.iter().map(|p| network.evaluate(p)).collect();

        let float = float_evaluations::<G>(&set, hidden, &weights);
        let on_grid = float_evaluations::<G>(&set, hidden, &rounded(&weights, network.qb()));
        let (low, high) = float
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), &f| (l.min(f), h.max(f)));
        // The comparison means something only if the evaluations vary far more than that.
        assert!(
            high - low > 500.0,
            "{}: evaluations span only {low}..{high}",
            G::NAME
        );
        let arithmetic = max_difference(&on_grid, &quantised);
        let quantisation = max_difference(&float, &quantised);
        eprintln!(
            "{} hidden {hidden}: {} positions, evaluations {low:.0}..{high:.0}: max |engine - float| {quantisation:.2}, \
             max |engine - float on the grid| {arithmetic:.3}",
            G::NAME,
            positions.len()
        );
        assert!(
            arithmetic <= ARITHMETIC_TOLERANCE,
            "{} hidden {hidden}: {arithmetic}",
            G::NAME
        );
        assert!(
            quantisation <= QUANTISATION_TOLERANCE,
            "{} hidden {hidden}: {quantisation}",
            G::NAME
        );
    }
}

#[test]
fn akiba_quantised_matches_float() {
    agrees(&random_positions::<akiba::Position>(
        Default::default(),
        12,
        1,
    ));
}

#[test]
fn offboard_quantised_matches_float() {
    agrees(&random_positions::<offboard::Position>(
        Default::default(),
        12,
        2,
    ));
}

#[test]
fn abraxas_quantised_matches_float_on_several_sheets() {
    let mut positions = Vec::new();
    for (i, sheet) in ["s1", "s2", "s4", "s6"].into_iter().enumerate() {
        let mut rules = Default::default();
        assert_eq!(
            abraxas::Position::set_rule_option(&mut rules, "AbraxasSheet", sheet),
            Ok(true)
        );
        positions.extend(random_positions::<abraxas::Position>(
            rules,
            4,
            10 + i as u64,
        ));
    }
    agrees(&positions);
}
