//! A quantised network and its file format.
//!
//! The file (little-endian): the magic `SHOVENN1`; the game's name (one length byte, then
//! the name); the input count and hidden size (`u32` each); the scale (`f32`, evaluation
//! units per logit); the first layer's weights (`i16`, input-major), its biases (`i16`);
//! the output weights (`i16`, the side to move's half first) and bias (`i32`); last an
//! FNV-1a checksum (`u64`) of everything before it, so a damaged file is refused rather
//! than played with.

use crate::game::{Game, Player};
use crate::nnue::InputList;

/// The first layer's scale: a float weight w is stored as `round(QA·w)`, and clipped ReLU
/// clips the accumulator to `0..=QA` (1.0 in the float model).
pub const QA: i32 = 255;
/// The output layer's scale: `round(QB·w)`; the output bias is stored times `QA·QB`.
pub const QB: i32 = 64;

const MAGIC: &[u8; 8] = b"SHOVENN1";
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
    w2: Vec<i16>,
    b2: i32,
}

impl Network {
    /// Quantises a float network (the trainer's model; its arithmetic in docs/nnue.md).
    /// Fails when the sizes do not fit together or a weight does not fit its integer.
    #[allow(clippy::too_many_arguments)]
    pub fn from_float(
        game: &str,
        inputs: usize,
        hidden: usize,
        scale: f32,
        w1: &[f32],
        b1: &[f32],
        w2: &[f32],
        b2: f32,
    ) -> Result<Network, String> {
        if w1.len() != inputs * hidden || b1.len() != hidden || w2.len() != 2 * hidden {
            return Err(format!(
                "layer sizes do not fit {inputs} inputs and {hidden} hidden units \
                 (w1 {}, b1 {}, w2 {})",
                w1.len(),
                b1.len(),
                w2.len()
            ));
        }
        let quantise = |values: &[f32], factor: i32, what: &str| -> Result<Vec<i16>, String> {
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
        };
        let b2 = (b2 * (QA * QB) as f32).round();
        if !b2.is_finite() || b2.abs() > i32::MAX as f32 {
            return Err(format!("output bias {b2} does not fit"));
        }
        let network = Network {
            game: game.to_string(),
            inputs,
            hidden,
            scale,
            w1: quantise(w1, QA, "first-layer")?,
            b1: quantise(b1, QA, "first-layer bias")?,
            w2: quantise(w2, QB, "output")?,
            b2: b2 as i32,
        };
        network.check_header()?;
        Ok(network)
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
        Ok(())
    }

    /// Whether this network is for game `G` as this build lists its inputs.
    pub fn check<G: Game>(&self) -> Result<(), String> {
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
        Ok(())
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
        out.extend_from_slice(MAGIC);
        out.push(self.game.len() as u8);
        out.extend_from_slice(self.game.as_bytes());
        out.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
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
        if reader.take(MAGIC.len())? != MAGIC {
            return Err("not a shove network file (bad magic)".into());
        }
        let name_len = usize::from(reader.take(1)?[0]);
        let game = std::str::from_utf8(reader.take(name_len)?)
            .map_err(|_| "the game name is not UTF-8")?
            .to_string();
        let inputs = reader.u32()? as usize;
        let hidden = reader.u32()? as usize;
        let scale = f32::from_le_bytes(reader.array()?);
        let mut network = Network {
            game,
            inputs,
            hidden,
            scale,
            w1: Vec::new(),
            b1: Vec::new(),
            w2: Vec::new(),
            b2: 0,
        };
        network.check_header()?;
        let expected = MAGIC.len() + 1 + name_len + 12 + 2 * (inputs * hidden + 3 * hidden) + 4;
        if body.len() != expected {
            return Err(format!(
                "{} bytes where {inputs} inputs and {hidden} hidden units need {}",
                bytes.len(),
                expected + 8
            ));
        }
        if fnv1a(body) != u64::from_le_bytes(*checksum) {
            return Err("checksum mismatch (the file is damaged)".into());
        }
        network.w1 = reader.i16s(inputs * hidden)?;
        network.b1 = reader.i16s(hidden)?;
        network.w2 = reader.i16s(2 * hidden)?;
        network.b2 = i32::from_le_bytes(reader.array()?);
        Ok(network)
    }

    /// Evaluation of `position` from scratch, from the side to move's view (what
    /// [`crate::nnue::Evaluator`] computes incrementally). The network must be for `G`.
    pub fn evaluate<G: Game>(&self, position: &G) -> i32 {
        let mut inputs = InputList::new();
        let mut accumulators = vec![0; 2 * self.hidden];
        for (player, accumulator) in [Player::One, Player::Two]
            .into_iter()
            .zip(accumulators.chunks_mut(self.hidden))
        {
            position.network_inputs(player, &mut inputs);
            self.refresh(&inputs, accumulator);
        }
        let (one, two) = accumulators.split_at(self.hidden);
        match position.to_move() {
            Player::One => self.output(one, two),
            Player::Two => self.output(two, one),
        }
    }

    /// Sets `accumulator` to the biases plus the columns of `inputs`.
    pub(super) fn refresh(&self, inputs: &[u16], accumulator: &mut [i32]) {
        for (a, &b) in accumulator.iter_mut().zip(&self.b1) {
            *a = i32::from(b);
        }
        for &input in inputs {
            self.add(input, accumulator);
        }
    }

    #[inline]
    pub(super) fn add(&self, input: u16, accumulator: &mut [i32]) {
        let start = usize::from(input) * self.hidden;
        for (a, &w) in accumulator
            .iter_mut()
            .zip(&self.w1[start..start + self.hidden])
        {
            *a += i32::from(w);
        }
    }

    #[inline]
    pub(super) fn sub(&self, input: u16, accumulator: &mut [i32]) {
        let start = usize::from(input) * self.hidden;
        for (a, &w) in accumulator
            .iter_mut()
            .zip(&self.w1[start..start + self.hidden])
        {
            *a -= i32::from(w);
        }
    }

    /// The output from the two accumulators, the side to move's first, in evaluation units.
    pub(super) fn output(&self, mover: &[i32], other: &[i32]) -> i32 {
        let (w_mover, w_other) = self.w2.split_at(self.hidden);
        let half = |acc: &[i32], w: &[i16]| -> i64 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| a.clamp(0, QA) * i32::from(w))
                .sum::<i32>() as i64
        };
        let out = half(mover, w_mover) + half(other, w_other) + i64::from(self.b2);
        let eval = (out as f64 * f64::from(self.scale) / f64::from(QA * QB)).round() as i64;
        eval.clamp(-MAX_EVAL, MAX_EVAL) as i32
    }
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

    fn tiny() -> Network {
        let w1: Vec<f32> = (0..12).map(|i| (i as f32 - 6.0) / 10.0).collect();
        Network::from_float(
            "akiba",
            4,
            3,
            250.0,
            &w1,
            &[0.1, 0.2, 0.3],
            &[0.5; 6],
            -0.25,
        )
        .expect("valid sizes")
    }

    #[test]
    fn a_network_survives_its_file() {
        let network = tiny();
        assert_eq!(Network::from_bytes(&network.to_bytes()), Ok(network));
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
        let result = Network::from_float("akiba", 4, 3, 1.0, &[0.0; 11], &[0.0; 3], &[0.0; 6], 0.0);
        assert!(result.expect_err("w1 short").contains("layer sizes"));
        let result =
            Network::from_float("akiba", 4, 3, 1.0, &[500.0; 12], &[0.0; 3], &[0.0; 6], 0.0);
        assert!(result.expect_err("too big").contains("does not fit"));
    }
}
