//! The training run: load, fit K, learn with AdamW, and write the network file (quantised)
//! whenever an epoch reaches a new lowest validation loss.

use crate::data::{Loaded, MAX_SCORE, load};
use crate::model::{Batch, Model, Weights, err, logits, loss, set_loss, sigmoid, target};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use shove::games::{GameVisitor, with_game};
use shove::nnue::Network;
use shove::pipeline::data::{Selection, read_header};
use shove::pipeline::tune::fit_k;
use shove::profile::Profile;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    /// AdamW's step size; it drops to a tenth for the last quarter of the epochs.
    pub learning_rate: f64,
    /// Share of the game result in the target; the rest is the search score's.
    pub lambda: f64,
    pub validation_one_in: u64,
    pub seed: u64,
    pub max_positions: Option<usize>,
    /// Train on quiet positions only (see [`Selection::quiet_only`]).
    pub quiet_only: bool,
    /// An output layer per output bucket of the game ([`Evaluation::network_bucket`]).
    pub output_buckets: bool,
    /// The sigmoid scale of search scores; `None` fits it to the results with the
    /// classical weights. A fit on data whose scores nearly always decide the game gives a
    /// K so large that most targets sit at 0 or 1, and the network learns no gradation.
    pub k: Option<f64>,
    /// A network file to start from instead of random weights (the same game, hidden size
    /// and buckets): a next generation that keeps what the data of the last one taught.
    pub init: Option<PathBuf>,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hidden: 64,
            epochs: 30,
            batch: 1024,
            learning_rate: 0.001,
            lambda: 0.5,
            validation_one_in: 10,
            seed: 1,
            max_positions: None,
            quiet_only: false,
            output_buckets: false,
            k: None,
            init: None,
        }
    }
}

impl TrainConfig {
    fn check(&self) -> Result<(), String> {
        if !(1..=4096).contains(&self.hidden) {
            return Err(format!("--hidden {}: expected 1 to 4096", self.hidden));
        }
        if self.epochs == 0 || self.batch == 0 {
            return Err("--epochs and --batch must be at least 1".into());
        }
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0) {
            return Err(format!(
                "--lr {}: expected a positive number",
                self.learning_rate
            ));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(format!("--lambda {}: expected 0 to 1", self.lambda));
        }
        if self.validation_one_in < 2 {
            return Err(format!(
                "--validation-one-in {}: expected at least 2 (1 would leave nothing to train on)",
                self.validation_one_in
            ));
        }
        if let Some(k) = self.k.filter(|k| !(k.is_finite() && *k > 0.0)) {
            return Err(format!("--k {k}: expected a positive number"));
        }
        if self.max_positions == Some(0) {
            return Err("--max-positions 0: nothing to train on".into());
        }
        Ok(())
    }
}

/// A whole run: which game, which data, where the network goes.
#[derive(Clone, Debug)]
pub struct TrainRun {
    pub game: String,
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    pub config: TrainConfig,
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub k: f64,
    pub train_positions: usize,
    pub validation_positions: usize,
    /// Losses of the classical evaluation (`sigmoid(K·eval)`) on both sets.
    pub classical_train: f64,
    pub classical_validation: f64,
    /// Float model's training loss after each epoch (NaN-free), and validation loss (NaN
    /// when there is no validation set).
    pub train_losses: Vec<f64>,
    pub validation_losses: Vec<f64>,
    /// The epoch kept (1-based) and the loss of the quantised network on the validation set.
    pub best_epoch: usize,
    pub quantised_validation: f64,
    /// Largest and mean |engine − float| evaluation over the validation positions.
    pub quantisation_max: f64,
    pub quantisation_mean: f64,
    pub seconds: f64,
    pub bytes: usize,
}

/// Trains and writes the network; `print` receives the progress lines.
pub fn run(run: &TrainRun, print: &mut dyn FnMut(&str)) -> Result<TrainReport, String> {
    run.config.check()?;
    with_game(&run.game, Visit { run, print })?
}

struct Visit<'a, 'p> {
    run: &'a TrainRun,
    print: &'p mut dyn FnMut(&str),
}

impl GameVisitor for Visit<'_, '_> {
    type Output = Result<TrainReport, String>;

    fn visit<G: Profile>(self) -> Self::Output {
        train::<G>(self.run, self.print)
    }
}

/// The engine's network for `G` from float weights (scale 1/K), with its training record.
fn quantise<G: Profile>(
    weights: &Weights,
    hidden: usize,
    k: f64,
    training: String,
) -> Result<Network, String> {
    let network = weights
        .to_network(G::NAME, G::NETWORK_INPUTS, hidden, (1.0 / k) as f32)?
        .with_training(training)?;
    network.check::<G>()?;
    Ok(network)
}

/// The data files of a run as its training record names them: each file with the settings
/// of its header. Read once, before the epochs.
fn describe_data(paths: &[PathBuf]) -> Result<String, String> {
    let files = paths
        .iter()
        .map(|path| {
            let name = path
                .file_name()
                .unwrap_or(path.as_os_str())
                .to_string_lossy();
            let settings: Vec<String> = read_header(path)?
                .settings
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect();
            Ok(format!("{name} ({})", settings.join(" ")))
        })
        .collect::<Result<Vec<String>, String>>()?;
    Ok(files.join(", "))
}

/// What a network file records of its training: the tool, how many positions were used,
/// every setting of the run, and last the data ([`describe_data`]), so that a record cut to
/// what a file holds loses only the tail of a long list of files.
fn training_record(
    data: &str,
    c: &TrainConfig,
    (train, validation): (usize, usize),
    (k, how): (f64, &str),
    epoch: usize,
    init: Option<&str>,
) -> String {
    let mut record = format!(
        "shove-train {}; {train} training and {validation} validation positions; \
         hidden {}, epoch {epoch} of {}, batch {}, lr {}, lambda {}, K {k:.6} ({how}), seed {}, \
         validation one game in {}{}{}{}{}; data: {}",
        env!("CARGO_PKG_VERSION"),
        c.hidden,
        c.epochs,
        c.batch,
        c.learning_rate,
        c.lambda,
        c.seed,
        c.validation_one_in,
        if c.quiet_only {
            ", quiet positions only"
        } else {
            ""
        },
        c.max_positions
            .map(|n| format!(", at most {n} positions"))
            .unwrap_or_default(),
        if c.output_buckets {
            ", output buckets"
        } else {
            ""
        },
        init.map(|from| format!(", started from {from}"))
            .unwrap_or_default(),
        data,
    );
    // Hundreds of shard files would not fit the file's record: keep its beginning.
    if record.len() > Network::MAX_TRAINING {
        let end = record.floor_char_boundary(Network::MAX_TRAINING - '…'.len_utf8());
        record.truncate(end);
        record.push('…');
    }
    record
}

/// Writes the network file, making its folder.
fn write_network(path: &Path, network: &Network) -> Result<(), String> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(path, network.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A loss for the report: "none" for a set without positions.
fn shown(loss: f64) -> String {
    if loss.is_nan() {
        "none (no validation games)".into()
    } else {
        format!("{loss:.6}")
    }
}

fn mean_squared<I: Iterator<Item = (f64, f64)>>(pairs: I) -> f64 {
    let (sum, n) = pairs.fold((0.0, 0usize), |(s, n), (p, t)| (s + (p - t).powi(2), n + 1));
    if n == 0 { f64::NAN } else { sum / n as f64 }
}

/// The model of the network file at `path`, which must be for `G` with at most `hidden`
/// units and `buckets` output layers (or one, copied to each), and its description for the
/// training record. Its output layer is rescaled from the file's K (the inverse of its
/// scale) to this run's `k`, so that it starts from the same evaluations. A wider run keeps
/// the file's units and adds units of `fresh` (the run's random start) whose output weights
/// are 0: the wider network starts from the same evaluations and learns what the added
/// units can add.
fn starting_model<G: Profile>(
    path: &Path,
    fresh: &Weights,
    hidden: usize,
    buckets: usize,
    k: f64,
) -> Result<(Model, String), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("--init {}: {e}", path.display()))?;
    let network = Network::from_bytes(&bytes)
        .and_then(|n| n.check::<G>().map(|()| n))
        .map_err(|e| format!("--init {}: {e}", path.display()))?;
    // A network of one output layer may start each bucket of a bucketed one.
    let spread = network.buckets() == 1 && buckets > 1;
    let narrow = network.hidden();
    if narrow > hidden || (network.buckets() != buckets && !spread) {
        return Err(format!(
            "--init {}: {narrow} hidden units and {} output buckets, the run asks for {hidden} (at least the file's) and {buckets} (--hidden, --output-buckets)",
            path.display(),
            network.buckets()
        ));
    }
    let rescale = (k * f64::from(network.scale())) as f32;
    let (w1, b1, w2, b2) = network.to_float();
    let mut weights = fresh.clone();
    for (row, file_row) in weights.w1.chunks_mut(hidden).zip(w1.chunks(narrow)) {
        row[..narrow].copy_from_slice(file_row);
    }
    weights.b1[..narrow].copy_from_slice(&b1);
    for (bucket, layer) in weights.w2.chunks_mut(2 * hidden).enumerate() {
        let from = if spread { 0 } else { bucket };
        layer.fill(0.0);
        for (half, file_half) in layer
            .chunks_mut(hidden)
            .zip(w2[2 * narrow * from..][..2 * narrow].chunks(narrow))
        {
            for (w, &file_w) in half.iter_mut().zip(file_half) {
                *w = file_w * rescale;
            }
        }
        weights.b2[bucket] = b2[from] * rescale;
    }
    let name = path
        .file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy();
    Ok((
        Model::from_weights(G::NETWORK_INPUTS, hidden, &weights)?,
        format!("{name} (checksum {:016x})", network.checksum()),
    ))
}

fn train<G: Profile>(run: &TrainRun, print: &mut dyn FnMut(&str)) -> Result<TrainReport, String> {
    let config = &run.config;
    let start = Instant::now();
    let buckets = if config.output_buckets {
        if G::NETWORK_BUCKETS == 1 {
            return Err(format!("--output-buckets: {} has none", G::NAME));
        }
        G::NETWORK_BUCKETS
    } else {
        1
    };
    let loaded: Loaded<G> = load(
        &run.data,
        &Selection {
            validation_one_in: config.validation_one_in,
            quiet_only: config.quiet_only,
            max_score: MAX_SCORE,
            max_positions: config.max_positions,
        },
    )?;
    let (train, validation) = (&loaded.train, &loaded.validation);
    if train.is_empty() {
        return Err(
            "no training positions (are the data files empty, or all filtered out?)".into(),
        );
    }
    print(&format!(
        "{}: {} positions read, {} training and {} validation kept, {} left out; {:.1} MB of inputs; loaded in {:.1} s",
        G::NAME,
        loaded.read,
        train.len(),
        validation.len(),
        loaded.skipped,
        (train.bytes() + validation.bytes()) as f64 / 1e6,
        start.elapsed().as_secs_f64()
    ));

    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let classical_weights: Vec<f64> = G::weights().iter().map(|&w| f64::from(w)).collect();
    let (k, how) = match config.k {
        Some(k) => (k, "given"),
        None if loaded.classical_features.is_empty() => {
            return Err("no quiet training positions to fit K on".into());
        }
        None => (
            fit_k(&loaded.classical_features, &classical_weights, threads).map_err(|e| {
                format!("fitting K on the quiet training positions: {e}, or give --k")
            })?,
            "fitted",
        ),
    };
    let lambda = config.lambda;
    let classical_loss = |set: &crate::data::Positions| {
        mean_squared((0..set.len()).map(|i| {
            (
                sigmoid(k * f64::from(set.classical[i])),
                target(set, i, k, lambda),
            )
        }))
    };
    let classical_train = classical_loss(train);
    let classical_validation = classical_loss(validation);
    print(&format!(
        "K = {k:.6} ({how}; scale {:.1}); classical evaluation: training loss {classical_train:.6}, validation loss {}",
        1.0 / k,
        shown(classical_validation)
    ));

    let counts = (train.len(), validation.len());
    let data = describe_data(&run.data)?;
    // The first layer's initial scale suits the number of inputs a position sets.
    let n = train.len().min(1000);
    let total: usize = (0..n).map(|i| train.inputs(i).0.len()).sum();
    let typical_active = total / n.max(1);
    let fresh = Model::new(
        G::NETWORK_INPUTS,
        config.hidden,
        buckets,
        typical_active,
        config.seed,
    )?;
    let (model, init) = match &config.init {
        None => (fresh, None),
        Some(path) => {
            let (model, from) =
                starting_model::<G>(path, &fresh.weights()?, config.hidden, buckets, k)?;
            print(&format!(
                "starting from {from}: validation loss {}",
                shown(set_loss(&model, validation, config.batch, k, lambda)?)
            ));
            (model, Some(from))
        }
    };
    let init = init.as_deref();
    let mut optimiser = AdamW::new(
        model.vars(),
        ParamsAdamW {
            lr: config.learning_rate,
            weight_decay: 0.0,
            ..ParamsAdamW::default()
        },
    )
    .map_err(err)?;
    let mut rng = StdRng::seed_from_u64(config.seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let drop_at = (config.epochs * 3).div_ceil(4);
    let mut train_losses = Vec::new();
    let mut validation_losses = Vec::new();
    let mut best: Option<(f64, usize, Weights)> = None;
    let train_start = Instant::now();
    for epoch in 1..=config.epochs {
        let epoch_start = Instant::now();
        let rate = if epoch > drop_at {
            config.learning_rate * 0.1
        } else {
            config.learning_rate
        };
        optimiser.set_learning_rate(rate);
        order.shuffle(&mut rng);
        let mut sum = 0.0;
        for chunk in order.chunks(config.batch) {
            let batch = Batch::new(train, chunk, (G::NETWORK_INPUTS, buckets), k, lambda)?;
            let l = loss(&model.forward(&batch)?, &batch.targets)?;
            optimiser.backward_step(&l).map_err(err)?;
            sum += f64::from(l.to_scalar::<f32>().map_err(err)?) * chunk.len() as f64;
        }
        let seconds = epoch_start.elapsed().as_secs_f64();
        // The running mean over the epoch's batches, as the weights moved.
        let train_loss = sum / train.len() as f64;
        let validation_loss = set_loss(&model, validation, config.batch, k, lambda)?;
        print(&format!(
            "epoch {epoch}/{}: training loss {train_loss:.6}, validation loss {}, {:.0} positions/s, lr {rate}",
            config.epochs,
            shown(validation_loss),
            train.len() as f64 / seconds
        ));
        // Without a validation set the latest epoch is kept.
        let judged = if validation.is_empty() {
            -(epoch as f64)
        } else {
            validation_loss
        };
        if best.as_ref().is_none_or(|(b, _, _)| judged < *b) {
            // Written at once, so a run stopped early leaves its best network so far.
            let weights = model.weights()?;
            let record = training_record(&data, config, counts, (k, how), epoch, init);
            write_network(
                &run.out,
                &quantise::<G>(&weights, config.hidden, k, record)?,
            )?;
            best = Some((judged, epoch, weights));
        }
        train_losses.push(train_loss);
        validation_losses.push(validation_loss);
    }
    let train_seconds = train_start.elapsed().as_secs_f64();
    let (_, best_epoch, weights) = best.ok_or("no epoch was run")?;

    let record = training_record(&data, config, counts, (k, how), best_epoch, init);
    let network = quantise::<G>(&weights, config.hidden, k, record)?;
    let float_evaluations: Vec<f64> = logits(
        &Model::from_weights(G::NETWORK_INPUTS, config.hidden, &weights)?,
        validation,
        config.batch,
    )?
    .iter()
    .map(|&o| f64::from(o) / k)
    .collect();
    let engine_evaluations: Vec<i32> = loaded
        .validation_positions
        .iter()
        .map(|p| network.evaluate(p))
        .collect();
    let differences: Vec<f64> = float_evaluations
        .iter()
        .zip(&engine_evaluations)
        .map(|(&f, &q)| (f - f64::from(q)).abs())
        .collect();
    let quantisation_max = differences.iter().copied().fold(0.0, f64::max);
    let quantisation_mean = differences.iter().sum::<f64>() / differences.len().max(1) as f64;
    let quantised_validation = mean_squared(
        engine_evaluations
            .iter()
            .enumerate()
            .map(|(i, &e)| (sigmoid(k * f64::from(e)), target(validation, i, k, lambda))),
    );
    let bytes = network.to_bytes();
    let report = TrainReport {
        k,
        train_positions: train.len(),
        validation_positions: validation.len(),
        classical_train,
        classical_validation,
        best_epoch,
        quantised_validation,
        quantisation_max,
        quantisation_mean,
        seconds: start.elapsed().as_secs_f64(),
        bytes: bytes.len(),
        train_losses,
        validation_losses,
    };
    if !validation.is_empty() {
        print(&format!(
            "quantised network on the validation positions: |engine - float| at most {quantisation_max:.1}, mean {quantisation_mean:.2} evaluation units"
        ));
    }
    let kept = if validation.is_empty() {
        format!(
            "kept the last epoch (no validation games): training loss {:.6}",
            report.train_losses[best_epoch - 1]
        )
    } else {
        format!(
            "kept epoch {best_epoch}: validation loss {:.6} (quantised {quantised_validation:.6}) vs classical {classical_validation:.6}",
            report.validation_losses[best_epoch - 1]
        )
    };
    print(&format!(
        "{}: {kept}; {} training positions, hidden {}, {} epochs in {train_seconds:.1} s ({:.1} s in all); {} bytes written to {}",
        G::NAME,
        train.len(),
        config.hidden,
        config.epochs,
        report.seconds,
        bytes.len(),
        run.out.display()
    ));
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings come before the files, so that a cut keeps them.
    #[test]
    fn a_record_of_many_files_is_cut_to_what_a_file_holds() {
        let data: Vec<String> = (0..2000)
            .map(|i| format!("shard-{i:04}-of-2000-with-a-long-name.data (game=akiba)"))
            .collect();
        let record = training_record(
            &data.join(", "),
            &TrainConfig::default(),
            (1, 1),
            (0.004, "fitted"),
            1,
            None,
        );
        assert!(record.len() <= Network::MAX_TRAINING, "{}", record.len());
        assert!(record.ends_with('…'));
        assert!(record.starts_with("shove-train "));
        assert!(record.contains("; 1 training and 1 validation positions; hidden "));
        assert!(
            record.contains("K 0.004000 (fitted), seed "),
            "{record:.300}"
        );
        assert!(record.contains("; data: shard-0000-of-2000"));
        let network = Network::from_float("akiba", 1, 1, 1.0, &[0.0], &[0.0], &[0.0; 2], &[0.0])
            .expect("tiny");
        assert!(network.with_training(record).is_ok());
    }
}
