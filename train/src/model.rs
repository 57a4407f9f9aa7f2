//! The float network in candle, computing exactly what `shove::nnue::Network` computes in
//! integers (docs/nnue.md): one first layer shared by both views, clipped ReLU, the output
//! layer over the side to move's half then the other player's, one output layer per output
//! bucket when the network has several (each position trains its own bucket's).

use crate::data::Positions;
use candle_core::{Device, Tensor, Var};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::nnue::Network;

/// candle's errors as the tool's.
pub fn err(e: candle_core::Error) -> String {
    format!("candle: {e}")
}

/// The trainable parameters.
pub struct Model {
    pub inputs: usize,
    pub hidden: usize,
    pub buckets: usize,
    /// `inputs × hidden`, row-major: `w1[i·hidden + j]` as the network file stores it.
    w1: Var,
    b1: Var,
    /// `2·hidden × buckets`: the side to move's half first, a column per bucket.
    w2: Var,
    /// `1 × buckets`.
    b2: Var,
}

/// A copy of the parameters as plain numbers, in the layout `Network::from_float` takes.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// Bucket after bucket, each `2·hidden` weights.
    pub w2: Vec<f32>,
    /// One per bucket.
    pub b2: Vec<f32>,
}

impl Weights {
    /// The quantised network for `game` (`scale` = evaluation units per logit).
    pub fn to_network(
        &self,
        game: &str,
        inputs: usize,
        hidden: usize,
        scale: f32,
    ) -> Result<Network, String> {
        Network::from_float(
            game, inputs, hidden, scale, &self.w1, &self.b1, &self.w2, &self.b2,
        )
    }
}

impl Model {
    /// Random starting weights. A position has some tens of active inputs, so the first
    /// layer starts small enough that most accumulators begin inside clipped ReLU's slope
    /// (bias 0.5, spread about ±0.5) rather than stuck at 0 or 1.
    pub fn new(
        inputs: usize,
        hidden: usize,
        buckets: usize,
        typical_active: usize,
        seed: u64,
    ) -> Result<Model, String> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut uniform = |n: usize, half_width: f32| -> Vec<f32> {
            (0..n)
                .map(|_| rng.random_range(-half_width..half_width))
                .collect()
        };
        // Uniform on ±a has standard deviation a/√3; the sum of n such has a·√(n/3).
        let a1 = 0.5 * (3.0 / typical_active.max(1) as f32).sqrt();
        let a2 = (3.0 / (2 * hidden) as f32).sqrt();
        let weights = Weights {
            w1: uniform(inputs * hidden, a1),
            b1: vec![0.5; hidden],
            w2: uniform(2 * hidden * buckets, a2),
            b2: vec![0.0; buckets],
        };
        Model::from_weights(inputs, hidden, &weights)
    }

    /// The model of `weights`, with as many output buckets as they have output biases.
    pub fn from_weights(inputs: usize, hidden: usize, weights: &Weights) -> Result<Model, String> {
        let device = Device::Cpu;
        let buckets = weights.b2.len();
        let var = |values: &[f32], shape: (usize, usize)| {
            Var::from_slice(values, shape, &device).map_err(err)
        };
        // The model holds a column per bucket, the file a row.
        let w2: Vec<f32> = (0..2 * hidden)
            .flat_map(|i| (0..buckets).map(move |b| (i, b)))
            .map(|(i, b)| weights.w2[b * 2 * hidden + i])
            .collect();
        Ok(Model {
            inputs,
            hidden,
            buckets,
            w1: var(&weights.w1, (inputs, hidden))?,
            b1: var(&weights.b1, (1, hidden))?,
            w2: var(&w2, (2 * hidden, buckets))?,
            b2: var(&weights.b2, (1, buckets))?,
        })
    }

    pub fn vars(&self) -> Vec<Var> {
        vec![
            self.w1.clone(),
            self.b1.clone(),
            self.w2.clone(),
            self.b2.clone(),
        ]
    }

    /// The current parameters, copied out (the optimiser updates the variables in place).
    pub fn weights(&self) -> Result<Weights, String> {
        let flat = |v: &Var| -> Result<Vec<f32>, String> {
            v.as_tensor()
                .flatten_all()
                .and_then(|t| t.to_vec1())
                .map_err(err)
        };
        let (hidden, buckets) = (self.hidden, self.buckets);
        let columns = flat(&self.w2)?;
        Ok(Weights {
            w1: flat(&self.w1)?,
            b1: flat(&self.b1)?,
            w2: (0..buckets)
                .flat_map(|b| (0..2 * hidden).map(move |i| (i, b)))
                .map(|(i, b)| columns[i * buckets + b])
                .collect(),
            b2: flat(&self.b2)?,
        })
    }

    /// The logits (`batch`) of a batch made by [`Batch::new`]: `sigmoid` of one is the
    /// predicted chance that the side to move wins, and times the scale its evaluation.
    pub fn forward(&self, batch: &Batch) -> Result<Tensor, String> {
        let b = batch.len;
        // Both views go through the first layer in one product: rows 0..b are the side to
        // move's, rows b..2b the other player's.
        let hidden = batch
            .inputs
            .matmul(self.w1.as_tensor())
            .and_then(|a| a.broadcast_add(self.b1.as_tensor()))
            .and_then(|a| a.clamp(0f32, 1f32))
            .map_err(err)?;
        let mover = hidden.narrow(0, 0, b).map_err(err)?;
        let other = hidden.narrow(0, b, b).map_err(err)?;
        // Every bucket's output, then the position's own kept by its one-hot row.
        Tensor::cat(&[&mover, &other], 1)
            .and_then(|h| h.matmul(self.w2.as_tensor()))
            .and_then(|o| o.broadcast_add(self.b2.as_tensor()))
            .and_then(|o| o.mul(&batch.buckets))
            .and_then(|o| o.sum(1))
            .map_err(err)
    }
}

/// Dense inputs and targets of some positions: `2·len × inputs` ones and zeros (the side
/// to move's rows, then the other player's), a few hundred inputs wide, so dense products
/// beat sparse bookkeeping at this size.
pub struct Batch {
    pub len: usize,
    pub inputs: Tensor,
    /// `len × buckets`: a one at each position's output bucket.
    pub buckets: Tensor,
    pub targets: Tensor,
}

impl Batch {
    /// Positions `indices` of `set`, with target `lambda·result + (1 − lambda)·sigmoid(K·score)`.
    pub fn new(
        set: &Positions,
        indices: &[usize],
        (inputs, buckets): (usize, usize),
        k: f64,
        lambda: f64,
    ) -> Result<Batch, String> {
        let len = indices.len();
        let mut dense = vec![0f32; 2 * len * inputs];
        let mut one_hot = vec![0f32; len * buckets];
        let mut targets = Vec::with_capacity(len);
        for (row, &i) in indices.iter().enumerate() {
            let (mover, other) = set.inputs(i);
            for &input in mover {
                dense[row * inputs + usize::from(input)] = 1.0;
            }
            for &input in other {
                dense[(len + row) * inputs + usize::from(input)] = 1.0;
            }
            // A model of one bucket puts every position in it, whatever the game's bucket.
            one_hot[row * buckets + usize::from(set.buckets[i]).min(buckets - 1)] = 1.0;
            targets.push(target(set, i, k, lambda) as f32);
        }
        let device = Device::Cpu;
        Ok(Batch {
            len,
            inputs: Tensor::from_vec(dense, (2 * len, inputs), &device).map_err(err)?,
            buckets: Tensor::from_vec(one_hot, (len, buckets), &device).map_err(err)?,
            targets: Tensor::from_vec(targets, len, &device).map_err(err)?,
        })
    }
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// What the network learns for position `i`: a blend of the game's result and the
/// search's opinion (`shove tune`'s target).
pub fn target(set: &Positions, i: usize, k: f64, lambda: f64) -> f64 {
    lambda * f64::from(set.results[i]) + (1.0 - lambda) * sigmoid(k * f64::from(set.scores[i]))
}

/// Mean squared error of `sigmoid(logits)` against the targets (a scalar tensor).
pub fn loss(logits: &Tensor, targets: &Tensor) -> Result<Tensor, String> {
    candle_nn::ops::sigmoid(logits)
        .and_then(|p| p.sub(targets))
        .and_then(|d| d.sqr())
        .and_then(|d| d.mean_all())
        .map_err(err)
}

/// The float model's logits of every position of `set`, in batches of `batch` (no
/// learning).
pub fn logits(model: &Model, set: &Positions, batch: usize) -> Result<Vec<f32>, String> {
    let order: Vec<usize> = (0..set.len()).collect();
    let mut out = Vec::with_capacity(set.len());
    for chunk in order.chunks(batch.max(1)) {
        let b = Batch::new(set, chunk, (model.inputs, model.buckets), 0.0, 1.0)?;
        out.extend(model.forward(&b)?.detach().to_vec1::<f32>().map_err(err)?);
    }
    Ok(out)
}

/// The float model's loss over a whole set (NaN for an empty set).
pub fn set_loss(
    model: &Model,
    set: &Positions,
    batch: usize,
    k: f64,
    lambda: f64,
) -> Result<f64, String> {
    let logits = logits(model, set, batch)?;
    let sum: f64 = logits
        .iter()
        .enumerate()
        .map(|(i, &o)| (sigmoid(f64::from(o)) - target(set, i, k, lambda)).powi(2))
        .sum();
    Ok(sum / set.len() as f64)
}
