//! Self-play data turned into network inputs: both views' active inputs of every kept
//! position, stored flat (`u16` indices and `u32` offsets, a few hundred bytes a position),
//! with the labels the loss needs.
//!
//! The positions kept and the training/validation split are those of `shove tune`
//! (`shove::pipeline::tune::load`): not over, |score| ≤ 2000, whole games to one side by the
//! same hash of the game number and file, so the classical evaluation's K and the network
//! are judged on the same positions. Unlike the tuner the trainer keeps positions that are
//! not quiet unless asked (`quiet_only`): the search evaluates such positions at every
//! quiescence stand-pat, and networks that never saw one played 60–160 Elo weaker
//! (docs/experiments.md).

use shove::linear::Sparse;
use shove::nnue::Inputs;
use shove::pipeline::data::{self, Selection};
use shove::pipeline::tune::Dataset;
use shove::profile::Profile;
use std::path::PathBuf;

/// Positions whose search score is beyond this (decided games, mates) are left out.
pub const MAX_SCORE: i32 = 2000;

/// Inputs and labels of many positions.
#[derive(Clone, Debug, Default)]
pub struct Positions {
    /// Position `i`'s side-to-move inputs are `inputs[offsets[2i]..offsets[2i + 1]]`, the
    /// other player's `inputs[offsets[2i + 1]..offsets[2i + 2]]`.
    offsets: Vec<u32>,
    inputs: Vec<u16>,
    /// Game result from the side to move's view (0, 0.5, 1).
    pub results: Vec<f32>,
    /// Search score from the side to move's view, evaluation units.
    pub scores: Vec<f32>,
    /// The classical evaluation (the game's own weights), for comparison.
    pub classical: Vec<f32>,
    /// The output bucket ([`Evaluation::network_bucket`]).
    pub buckets: Vec<u8>,
}

impl Positions {
    pub fn len(&self) -> usize {
        self.results.len()
    }

    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    pub fn push(
        &mut self,
        mover: &Inputs,
        other: &Inputs,
        score: i32,
        result: f32,
        classical: i32,
        bucket: usize,
    ) -> Result<(), String> {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        for list in [mover, other] {
            self.inputs.extend(list.iter());
            let end = u32::try_from(self.inputs.len())
                .map_err(|_| "too many inputs for one data set (use --max-positions)")?;
            self.offsets.push(end);
        }
        self.results.push(result);
        self.scores.push(score as f32);
        self.classical.push(classical as f32);
        self.buckets
            .push(u8::try_from(bucket).map_err(|_| format!("output bucket {bucket}"))?);
        Ok(())
    }

    /// The side to move's and the other player's active inputs of position `i`.
    pub fn inputs(&self, i: usize) -> (&[u16], &[u16]) {
        let at = |k: usize| self.offsets[k] as usize;
        (
            &self.inputs[at(2 * i)..at(2 * i + 1)],
            &self.inputs[at(2 * i + 1)..at(2 * i + 2)],
        )
    }

    /// Bytes held, for the report.
    pub fn bytes(&self) -> usize {
        4 * self.offsets.len() + 2 * self.inputs.len() + 13 * self.len()
    }
}

/// What the data files gave.
pub struct Loaded<G> {
    pub train: Positions,
    pub validation: Positions,
    /// The validation positions themselves, to measure the quantised network on them.
    pub validation_positions: Vec<G>,
    /// The quiet training positions' classical features, to fit K as `shove tune` does.
    pub classical_features: Dataset,
    /// Positions in the files, and how many were left out (not quiet, score too large,
    /// over, or beyond `max_positions`).
    pub read: usize,
    pub skipped: usize,
}

/// Reads data files of game `G`, as `shove tune` does ([`data::read_positions`]).
pub fn load<G: Profile>(paths: &[PathBuf], selection: &Selection) -> Result<Loaded<G>, String> {
    let mut loaded = Loaded {
        train: Positions::default(),
        validation: Positions::default(),
        validation_positions: Vec::new(),
        classical_features: Dataset::default(),
        read: 0,
        skipped: 0,
    };
    let mut views = [Inputs::new(); 2];
    let counts = data::read_positions::<G>(paths, selection, |sample, position, to_validation| {
        let me = position.to_move();
        position.network_inputs(&mut views);
        let (mover, other) = (&views[me.index()], &views[me.other().index()]);
        if let Some(bad) = mover
            .iter()
            .chain(other.iter())
            .find(|&i| usize::from(i) >= G::NETWORK_INPUTS)
        {
            return Err(format!(
                "input {bad} of position '{}' is beyond {}'s {} inputs",
                sample.position,
                G::NAME,
                G::NETWORK_INPUTS
            ));
        }
        let classical = position.evaluate();
        let bucket = position.network_bucket();
        if to_validation {
            loaded.validation_positions.push(position);
            return loaded.validation.push(
                mover,
                other,
                sample.score,
                sample.result,
                classical,
                bucket,
            );
        }
        // K is fitted on the quiet positions only, as `shove tune` fits it, so the
        // network's scale is the classical evaluation's whatever positions it trains on
        // (on tactical positions the static evaluation predicts worse, which would pull K
        // down and stretch the network's units).
        if sample.quiet {
            let mut features = Sparse::default();
            position.features(&mut features);
            loaded
                .classical_features
                .push(&features, sample.score, sample.result)?;
        }
        loaded
            .train
            .push(mover, other, sample.score, sample.result, classical, bucket)
    })?;
    loaded.read = counts.read;
    loaded.skipped = counts.skipped;
    Ok(loaded)
}
