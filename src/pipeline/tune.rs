//! `shove tune`: Texel tuning of a game's linear evaluation (`eval = Σ wᵢ·fᵢ`, see
//! [`crate::linear`]) on self-play data.
//!
//! Each position's feature vector is extracted once, by the engine's own code, so the
//! model's evaluation is the engine's exactly. First the sigmoid scale K is fitted so that
//! `sigmoid(K·eval)` with the current weights best predicts the game results; then Adam
//! minimises the mean squared error between `sigmoid(K·Σ wᵢ·fᵢ)` and a blend of the game
//! result and `sigmoid(K·search score)`, on a training set, with a held-out validation set
//! (whole games, so the two sets share no game).

use super::data::{self, Selection};
use crate::linear::Sparse;
use crate::profile::Profile;
use crate::search_hints::SearchHints;
use std::path::PathBuf;
use std::time::Instant;

/// How to tune.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Share of the game result in the target; the rest is the search score's.
    pub lambda: f64,
    pub epochs: usize,
    /// Adam's step size at the start, in evaluation units; it falls linearly to a tenth.
    pub learning_rate: f64,
    /// One game in this many goes to the validation set.
    pub validation_one_in: u64,
    /// Positions whose search score is beyond this (decided games, mates) are left out.
    pub max_score: i32,
    /// Only quiet positions (quiescence value equal to the static evaluation).
    pub quiet_only: bool,
    /// Fixed K instead of fitting it.
    pub k: Option<f64>,
    /// Terms kept at their starting weight.
    pub frozen: Vec<bool>,
    pub threads: usize,
}

impl Default for TuneConfig {
    fn default() -> Self {
        TuneConfig {
            lambda: 0.5,
            epochs: 400,
            learning_rate: 2.0,
            validation_one_in: 10,
            max_score: 2000,
            quiet_only: true,
            k: None,
            frozen: Vec::new(),
            threads: 1,
        }
    }
}

/// Feature vectors and labels of many positions, stored flat.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Position `i`'s features are `entries[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<u32>,
    entries: Vec<(u16, i16)>,
    /// Game result, side to move's view (0, 0.5, 1).
    results: Vec<f32>,
    /// Search score, side to move's view.
    scores: Vec<f32>,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.results.len()
    }

    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Adds a position's features and labels.
    pub fn push(&mut self, features: &Sparse, score: i32, result: f32) -> Result<(), String> {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        for &(term, value) in &features.0 {
            let value = i16::try_from(value)
                .map_err(|_| format!("feature value {value} of term {term} is out of range"))?;
            self.entries.push((term, value));
        }
        let end = u32::try_from(self.entries.len())
            .map_err(|_| "too many feature entries for one data set".to_string())?;
        self.offsets.push(end);
        self.results.push(result);
        self.scores.push(score as f32);
        Ok(())
    }

    fn features(&self, i: usize) -> &[(u16, i16)] {
        &self.entries[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    fn eval(&self, i: usize, weights: &[f64]) -> f64 {
        self.features(i)
            .iter()
            .map(|&(t, v)| weights[usize::from(t)] * f64::from(v))
            .sum()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Training and validation sets read from data files.
pub struct Loaded {
    pub train: Dataset,
    pub validation: Dataset,
    /// Positions in the files, and how many were left out (not quiet, score too large,
    /// over).
    pub read: usize,
    pub skipped: usize,
}

/// Reads data files of game `G` (all with the same header) into feature vectors.
pub fn load<G: SearchHints>(paths: &[PathBuf], config: &TuneConfig) -> Result<Loaded, String> {
    if G::term_names().is_empty() {
        return Err(format!(
            "{}'s evaluation is not written as weighted terms yet: nothing to tune",
            G::NAME
        ));
    }
    let (mut train, mut validation) = (Dataset::default(), Dataset::default());
    let selection = Selection {
        validation_one_in: config.validation_one_in,
        quiet_only: config.quiet_only,
        max_score: config.max_score,
        max_positions: None,
    };
    let counts =
        data::read_positions::<G>(paths, &selection, |sample, position, to_validation| {
            let mut features = Sparse::default();
            position.features(&mut features);
            let set = if to_validation {
                &mut validation
            } else {
                &mut train
            };
            set.push(&features, sample.score, sample.result)
        })?;
    let loaded = Loaded {
        train,
        validation,
        read: counts.read,
        skipped: counts.skipped,
    };
    Ok(loaded)
}

/// What a tuning run found.
#[derive(Clone, Debug)]
pub struct TuneReport {
    pub k: f64,
    /// Mean squared error with the starting weights, on training and validation sets.
    pub train_before: f64,
    pub validation_before: f64,
    /// With the tuned weights rounded to integers (what the engine would use).
    pub train_after: f64,
    pub validation_after: f64,
    pub weights: Vec<i32>,
    pub seconds: f64,
}

/// Runs `work(range)` over `len` items on `threads` threads and adds up the results.
fn parallel_sum<T: Send>(
    len: usize,
    threads: usize,
    work: impl Fn(std::ops::Range<usize>) -> T + Sync,
    add: impl Fn(T, T) -> T,
) -> T {
    let threads = threads.clamp(1, len.max(1));
    let chunk = len.div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let work = &work;
                scope.spawn(move || work(t * chunk..((t + 1) * chunk).min(len)))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a tuning thread panicked"))
            .reduce(add)
            .expect("at least one thread")
    })
}

/// Mean squared error of `sigmoid(K·eval)` against `targets`.
fn error(set: &Dataset, targets: &[f64], weights: &[f64], k: f64, threads: usize) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let sum = parallel_sum(
        set.len(),
        threads,
        |range| {
            range
                .map(|i| (sigmoid(k * set.eval(i, weights)) - targets[i]).powi(2))
                .sum::<f64>()
        },
        |a, b| a + b,
    );
    sum / set.len() as f64
}

/// The search range of [`fit_k`]: from scores worth almost nothing to one unit deciding
/// the game.
const K_RANGE: (f64, f64) = (1e-5, 1.0);

/// The K that makes `sigmoid(K·eval)` predict the game results best (golden-section
/// search over log K). Fails when the best K is an end of the range: the results do not
/// fix a scale then (a few games, or results that do not follow the evaluation), and a K
/// at the bound would write a network or weights of meaningless units.
pub fn fit_k(set: &Dataset, weights: &[f64], threads: usize) -> Result<f64, String> {
    let results: Vec<f64> = set.results.iter().map(|&r| f64::from(r)).collect();
    let e = |log_k: f64| error(set, &results, weights, log_k.exp(), threads);
    let (mut lo, mut hi) = (K_RANGE.0.ln(), K_RANGE.1.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut ea, mut eb) = (e(a), e(b));
    for _ in 0..60 {
        if ea < eb {
            hi = b;
            b = a;
            eb = ea;
            a = hi - ratio * (hi - lo);
            ea = e(a);
        } else {
            lo = a;
            a = b;
            ea = eb;
            b = lo + ratio * (hi - lo);
            eb = e(b);
        }
    }
    let k = ((lo + hi) / 2.0).exp();
    // The search ends about 2e-12 (in ln K) from an end it converges to, hence the margin.
    let positions = set.len();
    if k < K_RANGE.0 * 1.001 {
        return Err(format!(
            "K cannot be fitted on these {positions} positions: their game results do not follow \
             the evaluation (the best K is the lower end of the range, {:e}); play more games",
            K_RANGE.0
        ));
    }
    if k > K_RANGE.1 / 1.001 {
        return Err(format!(
            "K cannot be fitted on these {positions} positions: the side the evaluation favours \
             wins every game, so the results fix no scale (the best K is the upper end of the \
             range, {}); play more games, from closer positions",
            K_RANGE.1
        ));
    }
    Ok(k)
}

fn targets(set: &Dataset, k: f64, lambda: f64) -> Vec<f64> {
    (0..set.len())
        .map(|i| {
            lambda * f64::from(set.results[i])
                + (1.0 - lambda) * sigmoid(k * f64::from(set.scores[i]))
        })
        .collect()
}

/// Tunes `initial` on `train`, reporting the error on both sets before and after.
/// `on_epoch(epoch, training error)` is called now and then for progress.
pub fn tune(
    train: &Dataset,
    validation: &Dataset,
    initial: &[i32],
    config: &TuneConfig,
    on_epoch: &mut dyn FnMut(usize, f64),
) -> Result<TuneReport, String> {
    if train.is_empty() {
        return Err(
            "no training positions (are the data files empty, or all filtered out?)".into(),
        );
    }
    let start = Instant::now();
    let terms = initial.len();
    let threads = config.threads.max(1);
    let mut weights: Vec<f64> = initial.iter().map(|&w| f64::from(w)).collect();
    let k = match config.k {
        Some(k) => k,
        None => fit_k(train, &weights, threads)?,
    };
    let train_targets = targets(train, k, config.lambda);
    let validation_targets = targets(validation, k, config.lambda);
    let train_before = error(train, &train_targets, &weights, k, threads);
    let validation_before = error(validation, &validation_targets, &weights, k, threads);

    let free: Vec<bool> = (0..terms)
        .map(|t| !config.frozen.get(t).copied().unwrap_or(false))
        .collect();
    let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-12);
    let mut m = vec![0.0; terms];
    let mut v = vec![0.0; terms];
    for epoch in 0..config.epochs {
        let gradient = parallel_sum(
            train.len(),
            threads,
            |range| {
                let mut g = vec![0.0; terms];
                for i in range {
                    let s = sigmoid(k * train.eval(i, &weights));
                    let d = (s - train_targets[i]) * s * (1.0 - s);
                    for &(t, value) in train.features(i) {
                        g[usize::from(t)] += d * f64::from(value);
                    }
                }
                g
            },
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
        let scale = 2.0 * k / train.len() as f64;
        let progress = epoch as f64 / config.epochs as f64;
        let rate = config.learning_rate * (1.0 - 0.9 * progress);
        let t = (epoch + 1) as i32;
        for j in (0..terms).filter(|&j| free[j]) {
            let g = gradient[j] * scale;
            m[j] = beta1 * m[j] + (1.0 - beta1) * g;
            v[j] = beta2 * v[j] + (1.0 - beta2) * g * g;
            let m_hat = m[j] / (1.0 - beta1.powi(t));
            let v_hat = v[j] / (1.0 - beta2.powi(t));
            weights[j] -= rate * m_hat / (v_hat.sqrt() + epsilon);
        }
        if epoch % 50 == 0 || epoch + 1 == config.epochs {
            on_epoch(epoch, error(train, &train_targets, &weights, k, threads));
        }
    }
    let rounded: Vec<i32> = weights.iter().map(|w| w.round() as i32).collect();
    let as_f64: Vec<f64> = rounded.iter().map(|&w| f64::from(w)).collect();
    Ok(TuneReport {
        k,
        train_before,
        validation_before,
        train_after: error(train, &train_targets, &as_f64, k, threads),
        validation_after: error(validation, &validation_targets, &as_f64, k, threads),
        weights: rounded,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The Rust source of a game's `weights.rs`, one commented line per term.
pub fn weights_source(game: &str, names: &[String], weights: &[i32], note: &str) -> String {
    let mut text = format!(
        "//! The {game} evaluation's weights, indexed like `eval::term`: the engine's defaults.\n\
         //! `shove tune --game {game} --out <this file>` rewrites it; the build includes it.\n"
    );
    for line in note.lines() {
        text.push_str(&format!("//! {line}\n"));
    }
    text.push_str("\n#[rustfmt::skip]\npub const WEIGHTS: [i32; super::eval::term::COUNT] = [\n");
    for (name, weight) in names.iter().zip(weights) {
        text.push_str(&format!("    {weight}, // {name}\n"));
    }
    text.push_str("];\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_fit_finds_the_scale_of_the_results() {
        // One feature; results drawn so that sigmoid(0.01 · eval) is exact on average.
        let mut set = Dataset::default();
        for value in -300..=300 {
            let p = sigmoid(0.01 * f64::from(value));
            // Each value gets 20 results, the share of wins closest to p.
            let wins = (p * 20.0).round() as usize;
            for i in 0..20 {
                let mut f = Sparse::default();
                crate::linear::Terms::add(&mut f, 0, value);
                set.push(&f, 0, if i < wins { 1.0 } else { 0.0 }).unwrap();
            }
        }
        let k = fit_k(&set, &[1.0], 1).expect("a scale");
        assert!((k - 0.01).abs() < 0.0005, "{k}");
        // Results that go against the evaluation fix no scale: refused, not K = 1e-5.
        let mut against = Dataset::default();
        for value in -300..=300 {
            let mut f = Sparse::default();
            crate::linear::Terms::add(&mut f, 0, value);
            against
                .push(&f, 0, if value < 0 { 1.0 } else { 0.0 })
                .unwrap();
        }
        let refused = fit_k(&against, &[1.0], 1).expect_err("no scale");
        assert!(
            refused.contains("601 positions") && refused.contains("lower end"),
            "{refused}"
        );
        // Nor do results always won by the side the evaluation favours: any K fits them
        // better than a smaller one.
        let mut decided = Dataset::default();
        for value in (-300..=300).filter(|&v| v != 0) {
            let mut f = Sparse::default();
            crate::linear::Terms::add(&mut f, 0, value);
            decided
                .push(&f, 0, if value > 0 { 1.0 } else { 0.0 })
                .unwrap();
        }
        let refused = fit_k(&decided, &[1.0], 1).expect_err("no scale");
        assert!(
            refused.contains("600 positions") && refused.contains("upper end"),
            "{refused}"
        );
    }
}

/// `shove tune`: the data, the settings and where to write the weights.
#[derive(Clone, Debug)]
pub struct TuneRun {
    pub game: String,
    pub data: Vec<PathBuf>,
    pub config: TuneConfig,
    /// The Rust source of the weights goes here (e.g. `src/akiba/weights.rs`).
    pub out: Option<PathBuf>,
    pub progress: bool,
}

/// Loads, tunes and writes; returns the report to print.
pub fn run_tune(run: &TuneRun) -> Result<String, String> {
    crate::games::with_game(&run.game, Visit { run })?
}

struct Visit<'a> {
    run: &'a TuneRun,
}

impl crate::games::GameVisitor for Visit<'_> {
    type Output = Result<String, String>;

    fn visit<G: Profile>(self) -> Self::Output {
        let run = self.run;
        let start = Instant::now();
        let loaded = load::<G>(&run.data, &run.config)?;
        let load_seconds = start.elapsed().as_secs_f64();
        let mut text = format!(
            "{} positions read, {} used ({} training, {} validation), {} left out; loaded in {load_seconds:.1} s\n",
            loaded.read,
            loaded.train.len() + loaded.validation.len(),
            loaded.train.len(),
            loaded.validation.len(),
            loaded.skipped
        );
        let progress = run.progress;
        let report = tune(
            &loaded.train,
            &loaded.validation,
            G::weights(),
            &run.config,
            &mut |epoch, e| {
                if progress {
                    eprintln!("epoch {epoch}: training error {e:.6}");
                }
            },
        )?;
        let names = G::term_names();
        text.push_str(&format!(
            "K = {:.6}\nerror before: training {:.6}, validation {:.6}\nerror after:  training {:.6}, validation {:.6}\ntuned in {:.1} s ({} epochs)\n",
            report.k,
            report.train_before,
            report.validation_before,
            report.train_after,
            report.validation_after,
            report.seconds,
            run.config.epochs
        ));
        for ((name, old), new) in names.iter().zip(G::weights()).zip(&report.weights) {
            if old != new {
                text.push_str(&format!("  {name}: {old} -> {new}\n"));
            }
        }
        if let Some(out) = &run.out {
            let note = format!(
                "Tuned on {} positions (K {:.6}, lambda {}): validation error {:.6} -> {:.6}.",
                loaded.train.len(),
                report.k,
                run.config.lambda,
                report.validation_before,
                report.validation_after
            );
            let source = weights_source(G::NAME, &names, &report.weights, &note);
            std::fs::write(out, source)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            text.push_str(&format!("weights written to {}\n", out.display()));
        }
        Ok(text)
    }
}
