//! A quantised network and its file format.
//!
//! The file (little-endian): the magic `SHOVENN1`; the game's name (one length byte, then
//! the name); the input count and hidden size (`u32` each); the scale (`f32`, evaluation
//! units per logit); the first layer's weights (`i16`, input-major), its biases (`i16`);
//! the output weights (`i16`, the side to move's half first) and bias (`i32`); last an
//! FNV-1a checksum (`u64`) of everything before it, so a damaged file is refused rather
//! than played with. A file with the magic `SHOVENN2` holds, before the checksum, what the
//! network was trained on and how (`u32` length, then UTF-8 text): a network says where it
//! came from. A file with the magic `SHOVENN3` has output buckets: their count (`u32`)
//! follows the hidden size, then each bucket's output weights and bias, bucket after
//! bucket, and a training record as in `SHOVENN2`. A network of one bucket is written as
//! before, so its file and checksum do not change. A file with the magic `SHOVENN4` is a
//! `SHOVENN3` file whose output layer has its own quantisation factor (`u32`, after the
//! bucket count) instead of [`QB`]; a network whose factor is [`QB`] is written as before.

use crate::evaluation::Evaluation;
use crate::game::Player;
use crate::nnue::Inputs;

/// The first layer's scale: a float weight w is stored as `round(QA·w)`, and clipped ReLU
/// clips the accumulator to `0..=QA` (1.0 in the float model).
pub const QA: i32 = 255;
/// The output layer's scale of the files before `SHOVENN4`: `round(QB·w)`, the output bias
/// times `QA·QB`. [`Network::from_float`] picks a finer one where the weights allow it.
pub const QB: i32 = 64;
/// The finest output scale [`Network::from_float`] picks: its rounding (at most 1/16384
/// logit a weight) costs about a hundredth of an evaluation unit a weight at the shipped
/// scales (~200 units a logit).
const MAX_QB: i32 = 8192;

const MAGIC: &[u8; 8] = b"SHOVENN1";
/// The magic of a file that also records its training.
const MAGIC_WITH_TRAINING: &[u8; 8] = b"SHOVENN2";
/// The magic of a file with output buckets (and a training record).
const MAGIC_WITH_BUCKETS: &[u8; 8] = b"SHOVENN3";
/// The magic of a file whose output layer has its own quantisation factor (and buckets, a
/// training record).
const MAGIC_WITH_QB: &[u8; 8] = b"SHOVENN4";
/// The most output buckets a file may declare.
const MAX_BUCKETS: usize = 64;
/// The largest hidden layer a file may declare (guards allocation against bad files).
const MAX_HIDDEN: usize = 4096;
/// Networks answer within this bound, away from the mate scores of the search.
const MAX_EVAL: i64 = 10_000;

/// A network for one game, ready to evaluate.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    game: String,
    inputs: usize,
    hidden: usize,
    scale: f32,
    /// `w1[i·hidden + j]`: from input i to hidden unit j.
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// Bucket b's output weights are `w2[2·hidden·b..2·hidden·(b + 1)]`.
    w2: Vec<i16>,
    /// One per output bucket ([`Evaluation::network_bucket`]): their count is the buckets'.
    b2: Vec<i32>,
    /// The output layer's quantisation factor: `w2` is stored times `qb`, `b2` times `QA·qb`.
    qb: i32,
    /// `scale / (QA·qb)`: kept so that the answer costs a multiplication, not a division.
    units_per_output: f64,
    /// What the network was trained on and how (empty: not recorded).
    training: String,
}

impl Network {
    /// The longest training record a file may hold.
    pub const MAX_TRAINING: usize = 1 << 16;

    /// Quantises a float network (the trainer's model; its arithmetic in docs/nnue.md), of
    /// as many output buckets as `b2` has biases. The output layer takes the finest factor,
    /// a power of two up to [`MAX_QB`], at which its weights fit `i16` and its sums `i32`:
    /// rounding its 2·hidden weights to 1/[`QB`] would cost a wide network more than its
    /// width gains. Fails when the sizes do not fit together or a weight does not fit its
    /// integer even at the coarsest factor.
    #[allow(clippy::too_many_arguments)]
    pub fn from_float(
        game: &str,
        inputs: usize,
        hidden: usize,
        scale: f32,
        w1: &[f32],
        b1: &[f32],
        w2: &[f32],
        b2: &[f32],
    ) -> Result<Network, String> {
        let buckets = b2.len();
        if w1.len() != inputs * hidden
            || b1.len() != hidden
            || w2.len() != 2 * hidden * buckets
            || !(1..=MAX_BUCKETS).contains(&buckets)
        {
            return Err(format!(
                "layer sizes do not fit {inputs} inputs, {hidden} hidden units and 1 to \
                 {MAX_BUCKETS} output buckets (w1 {}, b1 {}, w2 {}, b2 {buckets})",
                w1.len(),
                b1.len(),
                w2.len()
            ));
        }
        let mut network = Network {
            game: game.to_string(),
            inputs,
            hidden,
            scale,
            w1: quantise(w1, QA, "first-layer")?,
            b1: quantise(b1, QA, "first-layer bias")?,
            w2: Vec::new(),
            b2: Vec::new(),
            qb: QB,
            units_per_output: units_per_output(scale, QB),
            training: String::new(),
        };
        network.check_header()?;
        network.check_first_layer()?;
        let mut qb = MAX_QB;
        loop {
            match network.set_output_layer(w2, b2, qb) {
                Err(_) if qb > 1 => qb /= 2,
                result => return result.map(|()| network),
            }
        }
    }

    /// The output layer of float weights `w2` and biases `b2`, quantised by `qb`. Fails
    /// when a weight does not fit `i16`, a bias or the layer's sum `i32`.
    fn set_output_layer(&mut self, w2: &[f32], b2: &[f32], qb: i32) -> Result<(), String> {
        self.w2 = quantise(w2, qb, "output")?;
        self.b2 = b2
            .iter()
            .map(|&b| {
                let q = (b * (QA * qb) as f32).round();
                if q.is_finite() && q.abs() <= i32::MAX as f32 {
                    Ok(q as i32)
                } else {
                    Err(format!("output bias {b} does not fit"))
                }
            })
            .collect::<Result<Vec<i32>, String>>()?;
        self.qb = qb;
        self.units_per_output = units_per_output(self.scale, qb);
        self.check_output()
    }

    /// The float weights this network was quantised from, to the rounding: the inverse of
    /// [`Network::from_float`] (`w1`, `b1`, `w2`, `b2` in its layout), so that training can
    /// start from a shipped network rather than from random weights.
    pub fn to_float(&self) -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>) {
        let scaled = |values: &[i16], factor: i32| -> Vec<f32> {
            values
                .iter()
                .map(|&v| f32::from(v) / factor as f32)
                .collect()
        };
        (
            scaled(&self.w1, QA),
            scaled(&self.b1, QA),
            scaled(&self.w2, self.qb),
            self.b2
                .iter()
                .map(|&b| (f64::from(b) / f64::from(QA * self.qb)) as f32)
                .collect(),
        )
    }

    pub fn game(&self) -> &str {
        &self.game
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Output buckets (1: one output layer for every position).
    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// What the network was trained on and how, as its file records it (empty when the
    /// file does not say).
    pub fn training(&self) -> &str {
        &self.training
    }

    /// The network with its training record (written into its file).
    pub fn with_training(mut self, training: String) -> Result<Network, String> {
        if training.len() > Self::MAX_TRAINING {
            return Err(format!(
                "a training record of {} bytes is longer than {}",
                training.len(),
                Self::MAX_TRAINING
            ));
        }
        self.training = training;
        Ok(self)
    }

    /// Evaluation units per logit.
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// The output layer's quantisation factor ([`QB`] in the files before `SHOVENN4`).
    pub fn qb(&self) -> i32 {
        self.qb
    }

    fn check_header(&self) -> Result<(), String> {
        if self.game.is_empty() || self.game.len() > 255 {
            return Err("the game name must have 1 to 255 bytes".into());
        }
        if self.inputs == 0 || self.inputs > usize::from(u16::MAX) {
            return Err(format!("{} inputs (expected 1 to 65535)", self.inputs));
        }
        if self.hidden == 0 || self.hidden > MAX_HIDDEN {
            return Err(format!(
                "{} hidden units (expected 1 to {MAX_HIDDEN})",
                self.hidden
            ));
        }
        if !(self.scale.is_finite() && self.scale > 0.0) {
            return Err(format!("scale {} is not a positive number", self.scale));
        }
        if !(1..=MAX_QB).contains(&self.qb) {
            return Err(format!(
                "output factor {} (expected 1 to {MAX_QB})",
                self.qb
            ));
        }
        Ok(())
    }

    /// Whether this network is for game `G` as this build lists its inputs.
    pub fn check<G: Evaluation>(&self) -> Result<(), String> {
        if self.game != G::NAME {
            return Err(format!("the network is for {}, not {}", self.game, G::NAME));
        }
        if self.inputs != G::NETWORK_INPUTS {
            return Err(format!(
                "the network has {} inputs, {} has {}",
                self.inputs,
                G::NAME,
                G::NETWORK_INPUTS
            ));
        }
        if self.buckets() != 1 && self.buckets() != G::NETWORK_BUCKETS {
            return Err(format!(
                "the network has {} output buckets, {} has {}",
                self.buckets(),
                G::NAME,
                G::NETWORK_BUCKETS
            ));
        }
        Ok(())
    }

    /// The output bucket of `position` ([`Evaluation::network_bucket`]); 0 for a network of one.
    #[inline(always)]
    pub(super) fn bucket<G: Evaluation>(&self, position: &G) -> usize {
        if self.b2.len() == 1 {
            0
        } else {
            position.network_bucket()
        }
    }

    /// The checksum of the network's file: names the network (in self-play data headers).
    pub fn checksum(&self) -> u64 {
        let bytes = self.to_bytes();
        let (_, checksum) = bytes
            .split_last_chunk::<8>()
            .expect("a file ends in its checksum");
        u64::from_le_bytes(*checksum)
    }

    /// The network file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + 2 * (self.w1.len() + self.b1.len() + self.w2.len()));
        let own_qb = self.qb != QB;
        let bucketed = self.buckets() > 1 || own_qb;
        out.extend_from_slice(if own_qb {
            MAGIC_WITH_QB
        } else if bucketed {
            MAGIC_WITH_BUCKETS
        } else if self.training.is_empty() {
            MAGIC
        } else {
            MAGIC_WITH_TRAINING
        });
        out.push(self.game.len() as u8);
        out.extend_from_slice(self.game.as_bytes());
        out.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        if bucketed {
            out.extend_from_slice(&(self.buckets() as u32).to_le_bytes());
        }
        if own_qb {
            out.extend_from_slice(&(self.qb as u32).to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        for w in self.w1.iter().chain(&self.b1) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for (weights, bias) in self.w2.chunks(2 * self.hidden).zip(&self.b2) {
            for w in weights {
                out.extend_from_slice(&w.to_le_bytes());
            }
            out.extend_from_slice(&bias.to_le_bytes());
        }
        if bucketed || !self.training.is_empty() {
            out.extend_from_slice(&(self.training.len() as u32).to_le_bytes());
            out.extend_from_slice(self.training.as_bytes());
        }
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a network file; the error names what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let Some((body, checksum)) = bytes.split_last_chunk::<8>() else {
            return Err("too short to be a network file".into());
        };
        let mut reader = Reader { bytes: body };
        let (with_training, bucketed, own_qb) = match reader.take(MAGIC.len())? {
            magic if magic == MAGIC => (false, false, false),
            magic if magic == MAGIC_WITH_TRAINING => (true, false, false),
            magic if magic == MAGIC_WITH_BUCKETS => (true, true, false),
            magic if magic == MAGIC_WITH_QB => (true, true, true),
            _ => return Err("not a shove network file (bad magic)".into()),
        };
        let name_len = usize::from(reader.take(1)?[0]);
        let game = std::str::from_utf8(reader.take(name_len)?)
            .map_err(|_| "the game name is not UTF-8")?
            .to_string();
        let inputs = reader.u32()? as usize;
        let hidden = reader.u32()? as usize;
        let buckets = if bucketed { reader.u32()? as usize } else { 1 };
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "{buckets} output buckets (expected 1 to {MAX_BUCKETS})"
            ));
        }
        // A factor beyond i32 becomes one that check_header refuses as out of range.
        let qb = if own_qb {
            i32::try_from(reader.u32()?).unwrap_or(i32::MAX)
        } else {
            QB
        };
        let scale = f32::from_le_bytes(reader.array()?);
        let mut network = Network {
            game,
            inputs,
            hidden,
            scale,
            w1: Vec::new(),
            b1: Vec::new(),
            w2: Vec::new(),
            b2: Vec::new(),
            qb,
            units_per_output: units_per_output(scale, qb),
            training: String::new(),
        };
        network.check_header()?;
        let weights_end = MAGIC.len()
            + 1
            + name_len
            + 12
            + 4 * usize::from(bucketed)
            + 4 * usize::from(own_qb)
            + 2 * (inputs * hidden + hidden)
            + buckets * (4 * hidden + 4);
        let training_len = match body.get(weights_end..weights_end + 4) {
            Some(len) if with_training => {
                u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize
            }
            _ => 0,
        };
        let expected = if with_training {
            weights_end + 4 + training_len
        } else {
            weights_end
        };
        if body.len() != expected {
            return Err(format!(
                "{} bytes where {inputs} inputs, {hidden} hidden units and {buckets} output \
                 bucket(s) need {}",
                bytes.len(),
                expected + 8
            ));
        }
        if fnv1a(body) != u64::from_le_bytes(*checksum) {
            return Err("checksum mismatch (the file is damaged)".into());
        }
        network.w1 = reader.i16s(inputs * hidden)?;
        network.b1 = reader.i16s(hidden)?;
        for _ in 0..buckets {
            network.w2.extend(reader.i16s(2 * hidden)?);
            network.b2.push(i32::from_le_bytes(reader.array()?));
        }
        network.check_range()?;
        if with_training {
            reader.take(4)?;
            let training = std::str::from_utf8(reader.take(training_len)?)
                .map_err(|_| "the training record is not UTF-8")?;
            return network.with_training(training.to_string());
        }
        Ok(network)
    }

    /// Evaluation of `position` from scratch, from the side to move's view (what
    /// [`crate::nnue::Evaluator`] computes incrementally). The network must be for `G`.
    pub fn evaluate<G: Evaluation>(&self, position: &G) -> i32 {
        let mut views = [Inputs::new(); 2];
        position.network_inputs(&mut views);
        let mut accumulators = vec![0i16; 2 * self.hidden];
        // The plain sum, column after column: the evaluator's blocks and mirrored columns
        // are checked against it (tests/nnue.rs).
        for (inputs, accumulator) in views.iter().zip(accumulators.chunks_mut(self.hidden)) {
            accumulator.copy_from_slice(&self.b1);
            inputs.for_each(|input| {
                let column = &self.w1[input * self.hidden..][..self.hidden];
                for (a, &w) in accumulator.iter_mut().zip(column) {
                    *a = a.wrapping_add(w);
                }
            });
        }
        let (one, two) = accumulators.split_at(self.hidden);
        let bucket = self.bucket(position);
        match position.to_move() {
            Player::One => self.output(one, two, bucket),
            Player::Two => self.output(two, one, bucket),
        }
    }

    /// The first layer's weights (input-major) and biases.
    pub(super) fn first_layer(&self) -> (&[i16], &[i16]) {
        (&self.w1, &self.b1)
    }

    /// The output from the two accumulators, the side to move's first, through output
    /// bucket `bucket`, in evaluation units.
    #[inline(always)]
    pub(super) fn output(&self, mover: &[i16], other: &[i16], bucket: usize) -> i32 {
        let (w_mover, w_other) =
            self.w2[2 * self.hidden * bucket..][..2 * self.hidden].split_at(self.hidden);
        // Products of 16-bit lanes summed into 32 bits: what `pmaddwd` does.
        let half = |acc: &[i16], w: &[i16]| -> i32 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
                .sum()
        };
        let out = i64::from(half(mover, w_mover))
            + i64::from(half(other, w_other))
            + i64::from(self.b2[bucket]);
        let eval = (out as f64 * self.units_per_output).round_ties_even() as i64;
        eval.clamp(-MAX_EVAL, MAX_EVAL) as i32
    }

    /// Fails when some hidden unit's sum could leave the 16-bit accumulator (its bias and
    /// all its weights, taken positive, must stay within `i16`: the shipped networks need
    /// at most a quarter of the range), or the output layer's sum could leave 32 bits.
    fn check_range(&self) -> Result<(), String> {
        self.check_first_layer()?;
        self.check_output()
    }

    /// Fails when some hidden unit's sum could leave the 16-bit accumulator.
    fn check_first_layer(&self) -> Result<(), String> {
        for unit in 0..self.hidden {
            let bound: i64 = (0..self.inputs)
                .map(|input| i64::from(self.w1[input * self.hidden + unit]).abs())
                .sum::<i64>()
                + i64::from(self.b1[unit]).abs();
            if bound > i64::from(i16::MAX) {
                return Err(format!(
                    "hidden unit {unit} could sum to {bound}, beyond the 16-bit accumulator \
                     (weights too large)"
                ));
            }
        }
        Ok(())
    }

    /// Fails when the output layer's sum could leave 32 bits.
    fn check_output(&self) -> Result<(), String> {
        let output = self
            .w2
            .chunks(2 * self.hidden)
            .map(|bucket| {
                bucket
                    .iter()
                    .map(|&w| i64::from(QA) * i64::from(w).abs())
                    .sum::<i64>()
            })
            .max()
            .unwrap_or(0);
        if output > i64::from(i32::MAX) {
            return Err(format!(
                "the output layer could sum to {output}, beyond 32 bits (weights too large)"
            ));
        }
        Ok(())
    }
}

/// `values` times `factor`, rounded to `i16`; the error names the layer (`what`).
fn quantise(values: &[f32], factor: i32, what: &str) -> Result<Vec<i16>, String> {
    values
        .iter()
        .map(|&v| {
            let q = (v * factor as f32).round();
            if q.is_finite() && q.abs() <= f32::from(i16::MAX) {
                Ok(q as i16)
            } else {
                Err(format!(
                    "{what} weight {v} does not fit the quantised range"
                ))
            }
        })
        .collect()
}

/// Evaluation units per unit of the output layer's integer sum.
fn units_per_output(scale: f32, qb: i32) -> f64 {
    // As a product with the reciprocal: the evaluations of the files before qb, bit for bit.
    f64::from(scale) * (1.0 / f64::from(QA * qb))
}

/// 64-bit FNV-1a: enough to tell a damaged file from a good one.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Reads the file front to back; running out of bytes is an error naming the file as cut.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.bytes.len() < n {
            return Err("the file ends early (truncated)".into());
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, String> {
        Ok(self
            .take(2 * n)?
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The network of float weights `w2`, `b2` after a small first layer, its output
    /// layer quantised by [`QB`] as the files before `SHOVENN4` hold it.
    fn at_qb(w2: &[f32], b2: &[f32]) -> Network {
        let w1: Vec<f32> = (0..12).map(|i| (i as f32 - 6.0) / 10.0).collect();
        let mut network = Network::from_float("akiba", 4, 3, 250.0, &w1, &[0.1, 0.2, 0.3], w2, b2)
            .expect("valid sizes");
        network.set_output_layer(w2, b2, QB).expect("fits");
        network
    }

    fn tiny() -> Network {
        at_qb(&[0.5; 6], &[-0.25])
    }

    #[test]
    fn float_weights_quantise_back_to_the_same_network() {
        for network in [tiny(), {
            let (w1, b1, w2, b2) = tiny().to_float();
            Network::from_float("akiba", 4, 3, 250.0, &w1, &b1, &w2, &b2).expect("fits")
        }] {
            let (w1, b1, w2, b2) = network.to_float();
            assert!((b2[0] + 0.25).abs() < 1e-6, "{b2:?}");
            let again =
                Network::from_float("akiba", 4, 3, 250.0, &w1, &b1, &w2, &b2).expect("fits");
            assert_eq!(again.to_float(), network.to_float());
        }
    }

    #[test]
    fn the_output_layer_takes_the_finest_factor_its_weights_fit() {
        let w1: Vec<f32> = (0..12).map(|i| (i as f32 - 6.0) / 10.0).collect();
        let w2 = [0.3, -1.7, 0.011, 0.77, -0.0049, 1.3];
        let at = |w2: &[f32]| {
            Network::from_float("akiba", 4, 3, 250.0, &w1, &[0.1, 0.2, 0.3], w2, &[-0.3])
                .expect("fits")
        };
        let fine = at(&w2);
        assert_eq!(fine.qb(), MAX_QB);
        // Its file says so and reads back the same; its answers are the float layer's to
        // a finer step than QB's (0.0049 is 0 at 1/64, 40 at 1/8192).
        let bytes = fine.to_bytes();
        assert_eq!(&bytes[..8], b"SHOVENN4");
        assert_eq!(Network::from_bytes(&bytes), Ok(fine.clone()));
        assert_eq!(fine.w2[4], -40);
        let (mover, other) = ([100i16, 0, 255], [0i16, 50, 255]);
        let float: f64 = mover
            .iter()
            .chain(&other)
            .zip(&w2)
            .map(|(&a, &w)| f64::from(a) / f64::from(QA) * f64::from(w))
            .sum::<f64>()
            - 0.3;
        let out = fine.output(&mover, &other, 0);
        assert!(
            (f64::from(out) - float * 250.0).abs() <= 0.5 + 1e-3,
            "{out} {float}"
        );
        let coarse = tiny().output(&mover, &other, 0);
        assert_ne!(out, coarse, "the test must tell the factors apart");
        // Weights that would overflow i16 at a fine factor take a coarser one.
        let wide = at(&[100.0, -3.0, 2.0, 1.0, 0.5, 0.25]);
        assert_eq!(wide.qb(), 256, "100·256 fits i16, 100·512 does not");
        assert_eq!(wide.w2[0], 25_600);
        // A factor out of range in a file is refused.
        let mut bad = bytes.clone();
        let at_qb = 8 + 1 + 5 + 12;
        bad[at_qb..at_qb + 4].copy_from_slice(&0u32.to_le_bytes());
        let body = bad.len() - 8;
        let checksum = fnv1a(&bad[..body]);
        bad[body..].copy_from_slice(&checksum.to_le_bytes());
        let error = Network::from_bytes(&bad).expect_err("factor 0");
        assert!(error.contains("output factor 0"), "{error}");
    }

    #[test]
    fn a_network_survives_its_file() {
        let network = tiny();
        assert_eq!(Network::from_bytes(&network.to_bytes()), Ok(network));
    }

    #[test]
    fn a_training_record_survives_its_file_and_changes_the_magic() {
        let plain = tiny().to_bytes();
        assert_eq!(&plain[..8], b"SHOVENN1");
        let network = tiny()
            .with_training("data: a.data (nodes=4000); hidden 3".into())
            .expect("short");
        let bytes = network.to_bytes();
        assert_eq!(&bytes[..8], b"SHOVENN2");
        let read = Network::from_bytes(&bytes).expect("valid");
        assert_eq!(read.training(), "data: a.data (nodes=4000); hidden 3");
        assert_eq!(read, network);
        assert_ne!(read.checksum(), tiny().checksum());
        // A record cut short, or a length that overruns the file, is refused.
        let error = |b: &[u8]| Network::from_bytes(b).expect_err("must be refused");
        assert!(error(&bytes[..bytes.len() - 9]).contains("bytes where"));
        let long = tiny().with_training("x".repeat(Network::MAX_TRAINING + 1));
        assert!(long.expect_err("too long").contains("longer than"));
    }

    #[test]
    fn output_buckets_survive_the_file_and_each_answers_with_its_own_layer() {
        let w1: Vec<f32> = (0..12).map(|i| (i as f32 - 6.0) / 10.0).collect();
        let w2: Vec<f32> = (0..18).map(|i| (i as f32 - 9.0) / 8.0).collect();
        let network = at_qb(&w2, &[-0.25, 0.0, 0.5]);
        assert_eq!(network.buckets(), 3);
        let bytes = network.to_bytes();
        assert_eq!(&bytes[..8], b"SHOVENN3");
        assert_eq!(Network::from_bytes(&bytes), Ok(network.clone()));
        let error = |b: &[u8]| Network::from_bytes(b).expect_err("must be refused");
        assert!(error(&bytes[..bytes.len() - 9]).contains("3 output bucket(s)"));
        // Bucket b reads weights 6b..6b + 6 and bias b.
        let (mover, other) = ([100i16, 0, 255], [0i16, 50, 255]);
        let outputs: Vec<i32> = (0..3).map(|b| network.output(&mover, &other, b)).collect();
        for (b, &out) in outputs.iter().enumerate() {
            let w = &network.w2[6 * b..6 * b + 6];
            let sum: i32 = mover
                .iter()
                .chain(&other)
                .zip(w)
                .map(|(&a, &w)| i32::from(a) * i32::from(w))
                .sum();
            let expected =
                (f64::from(sum + network.b2[b]) * 250.0 / f64::from(QA * network.qb())).round();
            assert_eq!(f64::from(out), expected, "bucket {b}");
        }
        assert!(outputs[0] != outputs[1] && outputs[1] != outputs[2]);
        let sizes = Network::from_float("akiba", 4, 3, 1.0, &w1, &[0.0; 3], &w2, &[0.0; 2]);
        assert!(sizes.expect_err("w2 for 3").contains("layer sizes"));
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let bytes = tiny().to_bytes();
        let error = |b: &[u8]| Network::from_bytes(b).expect_err("must be refused");
        assert!(error(&bytes[..bytes.len() - 3]).contains("bytes where"));
        assert!(error(&bytes[..12]).contains("truncated"));
        assert!(error(b"").contains("too short"));
        let mut flipped = bytes.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 1;
        assert!(error(&flipped).contains("checksum"));
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert!(error(&magic).contains("magic"));
    }

    #[test]
    fn sizes_that_do_not_fit_are_refused() {
        let result =
            Network::from_float("akiba", 4, 3, 1.0, &[0.0; 11], &[0.0; 3], &[0.0; 6], &[0.0]);
        assert!(result.expect_err("w1 short").contains("layer sizes"));
        let result = Network::from_float(
            "akiba",
            4,
            3,
            1.0,
            &[500.0; 12],
            &[0.0; 3],
            &[0.0; 6],
            &[0.0],
        );
        assert!(result.expect_err("too big").contains("does not fit"));
    }

    #[test]
    fn weights_whose_sums_could_leave_16_bits_are_refused() {
        // Each weight fits an i16 (100·255), but four active inputs could sum beyond it.
        let w1 = [100.0; 12];
        let result = Network::from_float("akiba", 4, 3, 1.0, &w1, &[0.0; 3], &[0.0; 6], &[0.0]);
        assert!(result.expect_err("sum too big").contains("16-bit"));
        let fits = Network::from_float(
            "akiba",
            4,
            3,
            1.0,
            &[30.0; 12],
            &[0.0; 3],
            &[0.0; 6],
            &[0.0],
        );
        assert!(fits.is_ok());
    }
}
