//! The games of a run ([`Plan`]: which pairings play how many pairs) and their statistics
//! counted game by game ([`Tally`]).

use super::config::{EngineConfig, RunConfig};
use super::log::FailureKind;
use super::log::GameRecord;
use super::report::MatchReport;
use super::stats::Sprt;
use crate::game::Outcome;
use std::collections::HashMap;

/// The games of a run. Each pairing of two engines plays `pairs` game pairs, pair `k` the
/// `k`-th opening with colours swapped (its first engine is player 1 in the first game);
/// the games are numbered pairing after pairing, so game `i` (0-based) belongs to pairing
/// `i / (2 * pairs)` and the games of one pair are `2k` and `2k + 1` as in a match.
pub(crate) struct Plan<'a> {
    pub run: &'a RunConfig,
    /// `match` or `tournament`, for messages.
    pub kind: &'static str,
    pub engines: &'a [EngineConfig],
    /// Indices into `engines`.
    pub pairings: Vec<[usize; 2]>,
    /// Game pairs per pairing.
    pub pairs: usize,
    /// Only for a single pairing: stop on its verdict.
    pub sprt: Option<Sprt>,
    /// The log's settings line (see [`MatchConfig::settings`]).
    pub settings: String,
}

impl Plan<'_> {
    pub(super) fn games(&self) -> usize {
        2 * self.pairs * self.pairings.len()
    }

    /// The reports to count games into, one per pairing.
    pub(super) fn tally(&self) -> Tally {
        let names = self
            .pairings
            .iter()
            .map(|pair| pair.map(|e| self.engines[e].name.clone()))
            .collect();
        Tally::new(self.pairs, names, self.sprt)
    }
}

/// The statistics of every pairing of a run, counted game by game in any order.
pub(crate) struct Tally {
    pairs: usize,
    pub reports: Vec<MatchReport>,
    pair_scores: Vec<HashMap<usize, (usize, usize, usize)>>,
}

impl Tally {
    /// Empty reports for pairings of these engines' names, `pairs` game pairs each.
    pub(crate) fn new(pairs: usize, names: Vec<[String; 2]>, sprt: Option<Sprt>) -> Tally {
        Tally {
            pairs,
            pair_scores: vec![HashMap::new(); names.len()],
            reports: names
                .into_iter()
                .map(|names| MatchReport::new(names, sprt))
                .collect(),
        }
    }

    /// Counts game `index` (0-based, of the whole run); `failure` names the engine by its
    /// place in the pairing (0: the pairing's first).
    pub(super) fn add_game(
        &mut self,
        index: usize,
        outcome: Outcome,
        failure: Option<(usize, FailureKind)>,
    ) {
        let (pairing, local) = (index / (2 * self.pairs), index % (2 * self.pairs));
        self.reports[pairing].add_game(local, outcome, failure, &mut self.pair_scores[pairing]);
    }

    /// Counts a logged game; one that does not belong to the run is an error.
    pub(crate) fn add_record(&mut self, record: &GameRecord) -> Result<(), String> {
        let index = record.number - 1;
        let pairing = index / (2 * self.pairs);
        let Some(report) = self.reports.get(pairing) else {
            return Err(format!(
                "game {} is beyond the {} games of the run",
                record.number,
                2 * self.pairs * self.reports.len()
            ));
        };
        let failure = record.failure(&report.names);
        self.add_game(index, record.outcome, failure);
        Ok(())
    }

    pub(super) fn verdict(&self) -> bool {
        self.reports.iter().any(|r| r.verdict.is_some())
    }
}
