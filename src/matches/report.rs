//! The outcome of a match ([`MatchReport`]): wins, losses and draws from the first engine's
//! view, the pentanomial of game pairs, the SPRT and the games lost by failing.

use super::log::{FailureKind, GameRecord};
use super::stats::{Pentanomial, Sprt, Verdict};
use crate::game::{Outcome, Player};
use std::collections::HashMap;
use std::fmt;

/// The outcome of a match, from the first engine's view.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    pub names: [String; 2],
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// Over complete pairs only.
    pub pentanomial: Pentanomial,
    pub sprt: Option<Sprt>,
    pub verdict: Option<Verdict>,
    /// Games each engine lost by failing, indexed like [`FailureKind::ALL`].
    pub failures: [[u64; 5]; 2],
    /// Complete pairs in which each engine won once: the colour decided the opening,
    /// whoever played it.
    pub split_pairs: u64,
}

impl MatchReport {
    pub fn new(names: [String; 2], sprt: Option<Sprt>) -> MatchReport {
        MatchReport {
            names,
            wins: 0,
            losses: 0,
            draws: 0,
            pentanomial: Pentanomial::default(),
            sprt,
            verdict: None,
            failures: [[0; 5]; 2],
            split_pairs: 0,
        }
    }

    /// Counts game `index` (0-based; the first engine is player 1 in even games).
    /// `pair_scores` holds, per pair so far, the first engine's half points, the number
    /// of its games finished and how many of them were won; a completed pair enters the
    /// pentanomial and the SPRT.
    pub fn add_game(
        &mut self,
        index: usize,
        outcome: Outcome,
        failure: Option<(usize, FailureKind)>,
        pair_scores: &mut HashMap<usize, (usize, usize, usize)>,
    ) {
        let first_player = if index.is_multiple_of(2) {
            Player::One
        } else {
            Player::Two
        };
        let half_points = match outcome {
            Outcome::Win(p) if p == first_player => {
                self.wins += 1;
                2
            }
            Outcome::Win(_) => {
                self.losses += 1;
                0
            }
            Outcome::Draw => {
                self.draws += 1;
                1
            }
        };
        if let Some((engine, kind)) = failure {
            self.failures[engine][kind as usize] += 1;
        }
        let pair = pair_scores.entry(index / 2).or_insert((0, 0, 0));
        pair.0 += half_points;
        pair.1 += 1;
        pair.2 += usize::from(outcome != Outcome::Draw);
        if pair.1 == 2 {
            self.pentanomial.add(pair.0);
            if pair.0 == 2 && pair.2 == 2 {
                self.split_pairs += 1;
            }
            if let Some(sprt) = &self.sprt
                && self.verdict.is_none()
            {
                self.verdict = sprt.verdict(sprt.llr(&self.pentanomial));
            }
        }
    }

    /// Counts a logged game (its number is 1-based), with the failure its reason names.
    pub fn add_record(
        &mut self,
        record: &GameRecord,
        pair_scores: &mut HashMap<usize, (usize, usize, usize)>,
    ) {
        let failure = record.failure(&self.names);
        self.add_game(record.number - 1, record.outcome, failure, pair_scores);
    }

    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// `Score of <A> vs <B>: W - L - D [score] N`, as cutechess prints it.
    pub fn score_line(&self) -> String {
        let games = self.games();
        let score = if games == 0 {
            0.0
        } else {
            (self.wins as f64 + self.draws as f64 / 2.0) / games as f64
        };
        format!(
            "Score of {} vs {}: {} - {} - {} [{score:.3}] {games}",
            self.names[0], self.names[1], self.wins, self.losses, self.draws
        )
    }
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.score_line())?;
        let draw_ratio = 100.0 * self.draws as f64 / self.games().max(1) as f64;
        let pairs = self.pentanomial.pairs();
        match self.pentanomial.estimate() {
            Some(e) => writeln!(
                f,
                "Elo difference: {:.1} +/- {:.1}, LOS: {:.1} %, DrawRatio: {draw_ratio:.1} %, pairs: {pairs}",
                e.elo,
                e.error,
                100.0 * e.los
            )?,
            None => writeln!(f, "Elo difference: n/a (no complete game pair)")?,
        }
        let [a, b, c, d, e] = self.pentanomial.0;
        writeln!(f, "Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}]")?;
        if pairs > 0 {
            writeln!(
                f,
                "Pairs won once by each engine (the colour decided): {} of {pairs} ({:.1} %)",
                self.split_pairs,
                100.0 * self.split_pairs as f64 / pairs as f64
            )?;
        }
        if let Some(sprt) = &self.sprt {
            let llr = sprt.llr(&self.pentanomial);
            let (lower, upper) = sprt.bounds();
            let share = 100.0 * if llr >= 0.0 { llr / upper } else { llr / lower };
            write!(
                f,
                "SPRT: llr {llr:.2} ({share:.1}%), lbound {lower:.2}, ubound {upper:.2}"
            )?;
            match self.verdict {
                Some(verdict) => writeln!(f, " - {verdict}")?,
                None => writeln!(f, " - no verdict yet")?,
            }
        }
        for (name, counts) in self.names.iter().zip(&self.failures) {
            let parts: Vec<String> = FailureKind::ALL
                .iter()
                .zip(counts)
                .filter(|&(_, &n)| n > 0)
                .map(|(kind, n)| format!("{kind}: {n}"))
                .collect();
            if !parts.is_empty() {
                writeln!(f, "Games lost by failure, {name}: {}", parts.join(", "))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_count_per_pair_and_stop_on_a_verdict() {
        let sprt: Sprt = "elo0=0,elo1=5".parse().unwrap();
        let mut report = MatchReport::new(["A".into(), "B".into()], Some(sprt));
        let mut pairs = HashMap::new();
        // Game 0: A is player 1 and wins; game 1: A is player 2, B fails and loses.
        report.add_game(0, Outcome::Win(Player::One), None, &mut pairs);
        assert_eq!(report.pentanomial.pairs(), 0);
        let failure = Some((1, FailureKind::Hang));
        report.add_game(1, Outcome::Win(Player::Two), failure, &mut pairs);
        assert_eq!((report.wins, report.losses, report.draws), (2, 0, 0));
        assert_eq!(report.pentanomial, Pentanomial([0, 0, 0, 0, 1]));
        assert_eq!(report.failures[1][FailureKind::Hang as usize], 1);
        // Games of a pair may finish in any order.
        report.add_game(3, Outcome::Draw, None, &mut pairs);
        report.add_game(2, Outcome::Draw, None, &mut pairs);
        assert_eq!(report.pentanomial, Pentanomial([0, 0, 1, 0, 1]));
        assert_eq!(report.split_pairs, 0);
        // Each engine wins with player 1: the colour decided.
        report.add_game(4, Outcome::Win(Player::One), None, &mut pairs);
        report.add_game(5, Outcome::Win(Player::One), None, &mut pairs);
        assert_eq!(report.pentanomial, Pentanomial([0, 0, 2, 0, 1]));
        assert_eq!(report.split_pairs, 1);
        let mut index = 6;
        while report.verdict.is_none() {
            report.add_game(index, Outcome::Win(Player::One), None, &mut pairs);
            report.add_game(index + 1, Outcome::Win(Player::Two), None, &mut pairs);
            index += 2;
            assert!(index < 1000, "no verdict");
        }
        assert_eq!(report.verdict, Some(Verdict::H1));
    }

    #[test]
    fn report_lines() {
        let mut report = MatchReport::new(["A".into(), "B".into()], None);
        report.wins = 5;
        report.losses = 3;
        report.draws = 2;
        report.pentanomial = Pentanomial([0, 1, 2, 1, 1]);
        report.failures[1][0] = 2;
        let text = report.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Score of A vs B: 5 - 3 - 2 [0.600] 10");
        assert!(lines[1].starts_with("Elo difference: "), "{text}");
        assert_eq!(lines[2], "Ptnml(0-2): [0, 1, 2, 1, 1]");
        assert_eq!(
            lines[3],
            "Pairs won once by each engine (the colour decided): 0 of 5 (0.0 %)"
        );
        assert_eq!(lines[4], "Games lost by failure, B: illegal move: 2");
    }
}
