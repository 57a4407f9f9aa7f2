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
//! (docs/strength.md).

use shove::game::Game;
use shove::linear::Sparse;
use shove::nnue::InputList;
use shove::pipeline::data::{self, Header};
use shove::pipeline::selfplay::rules_from_header;
use shove::pipeline::tune::Dataset;
use std::path::PathBuf;

/// Positions whose search score is beyond this (decided games, mates) are left out.
pub const MAX_SCORE: i32 = 2000;

/// Which positions to read.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// One game in this many goes to the validation set (at least 2).
    pub validation_one_in: u64,
    /// Stop after this many positions are kept (training and validation together).
    pub max_positions: Option<usize>,
    /// Keep only quiet positions (quiescence score = static evaluation), as `shove tune`.
    pub quiet_only: bool,
}

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
        mover: &[u16],
        other: &[u16],
        score: i32,
        result: f32,
        classical: i32,
    ) -> Result<(), String> {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        for list in [mover, other] {
            self.inputs.extend_from_slice(list);
            let end = u32::try_from(self.inputs.len())
                .map_err(|_| "too many inputs for one data set (use --max-positions)")?;
            self.offsets.push(end);
        }
        self.results.push(result);
        self.scores.push(score as f32);
        self.classical.push(classical as f32);
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
        4 * self.offsets.len() + 2 * self.inputs.len() + 12 * self.len()
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

/// Reads data files of game `G`. All must name `G` in their header and agree on every
/// setting but the rules (as `shove tune` requires); each file's positions are read under
/// its own rules.
pub fn load<G: Game>(paths: &[PathBuf], config: &LoadConfig) -> Result<Loaded<G>, String> {
    if paths.is_empty() {
        return Err("no data files given".into());
    }
    let mut loaded = Loaded {
        train: Positions::default(),
        validation: Positions::default(),
        validation_positions: Vec::new(),
        classical_features: Dataset::default(),
        read: 0,
        skipped: 0,
    };
    let limit = config.max_positions.unwrap_or(usize::MAX);
    let one_in = config.validation_one_in.max(1);
    let mut first: Option<(Header, &PathBuf)> = None;
    let (mut mover, mut other) = (InputList::new(), InputList::new());
    for (file_index, path) in paths.iter().enumerate() {
        let header = data::read_header(path)?;
        if header.get("game") != Some(G::NAME) {
            return Err(format!(
                "{} holds {} positions, not {}",
                path.display(),
                header.get("game").unwrap_or("(no game)"),
                G::NAME
            ));
        }
        match &first {
            Some((first, first_path)) if !first.same_apart_from_rules(&header) => {
                return Err(format!(
                    "{} and {} were made with different settings (only the rules may differ)",
                    first_path.display(),
                    path.display()
                ));
            }
            Some(_) => {}
            None => first = Some((header.clone(), path)),
        }
        let rules =
            rules_from_header::<G>(&header).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut error = None;
        data::read(path, |sample| {
            if error.is_some() {
                return;
            }
            loaded.read += 1;
            let kept = loaded.train.len() + loaded.validation.len();
            if (config.quiet_only && !sample.quiet)
                || sample.score.abs() > MAX_SCORE
                || kept >= limit
            {
                loaded.skipped += 1;
                return;
            }
            let position = match G::parse(&sample.position, rules) {
                Ok(p) => p,
                Err(e) => {
                    error = Some(format!(
                        "{}: position '{}': {e}",
                        path.display(),
                        sample.position
                    ));
                    return;
                }
            };
            if position.outcome().is_some() {
                loaded.skipped += 1;
                return;
            }
            let me = position.to_move();
            position.network_inputs(me, &mut mover);
            position.network_inputs(me.other(), &mut other);
            if let Some(&bad) = mover
                .iter()
                .chain(other.iter())
                .find(|&&i| usize::from(i) >= G::NETWORK_INPUTS)
            {
                error = Some(format!(
                    "input {bad} of position '{}' is beyond {}'s {} inputs",
                    sample.position,
                    G::NAME,
                    G::NETWORK_INPUTS
                ));
                return;
            }
            // The split of `shove tune`: whole games to one side; the file index keeps
            // equal game numbers of different runs apart.
            let key =
                (sample.game ^ ((file_index as u64) << 40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let to_validation = (key >> 32).is_multiple_of(one_in);
            let classical = position.evaluate();
            let pushed = if to_validation {
                loaded.validation_positions.push(position);
                loaded
                    .validation
                    .push(&mover, &other, sample.score, sample.result, classical)
            } else {
                // K is fitted on the quiet positions only, as `shove tune` fits it, so the
                // network's scale is the classical evaluation's whatever positions it
                // trains on (on tactical positions the static evaluation predicts worse,
                // which would pull K down and stretch the network's units).
                let features = if sample.quiet {
                    let mut features = Sparse::default();
                    position.features(&mut features);
                    loaded
                        .classical_features
                        .push(&features, sample.score, sample.result)
                } else {
                    Ok(())
                };
                features.and_then(|()| {
                    loaded
                        .train
                        .push(&mover, &other, sample.score, sample.result, classical)
                })
            };
            if let Err(e) = pushed {
                error = Some(e);
            }
        })?;
        if let Some(e) = error {
            return Err(e);
        }
    }
    Ok(loaded)
}
