//! The command line of the training tool; the work is in the library.

use clap::Parser;
use shove_train::trainer::{TrainConfig, TrainRun, run};
use std::path::PathBuf;
use std::process::ExitCode;

/// Trains a network for one of shove's games from `shove selfplay` data files and writes
/// the network file (docs/nnue.md).
#[derive(Parser, Debug)]
#[command(name = "shove-train", version)]
struct Cli {
    /// The game: akiba, offboard or abraxas.
    #[arg(long)]
    game: String,
    /// Where the network file goes (parent folders are made).
    #[arg(long)]
    out: PathBuf,
    /// Self-play data files of that game (made alike; only the rules and the evaluation that
    /// played may differ).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Hidden units.
    #[arg(long, default_value_t = 64)]
    hidden: usize,
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 1024)]
    batch: usize,
    /// AdamW's learning rate (a tenth of it for the last quarter of the epochs).
    #[arg(long, default_value_t = 0.001)]
    lr: f64,
    /// Share of the game result in the target (the rest: the search score).
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// One game in this many is held out for validation.
    #[arg(long, default_value_t = 10)]
    validation_one_in: u64,
    /// Seed of the starting weights and the shuffling.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Use at most this many positions.
    #[arg(long)]
    max_positions: Option<usize>,
    /// Train on quiet positions only (those `shove tune` uses); by default every position.
    #[arg(long)]
    quiet_only: bool,
    /// An output layer per output bucket of the game (Akiba: by the marbles left; Abraxas:
    /// by the leader's stones; Offboard has one), chosen by the position: bullet's output
    /// buckets.
    #[arg(long)]
    output_buckets: bool,
    /// The sigmoid scale of search scores (default: fitted to the game results with the
    /// classical weights, as `shove tune` does).
    #[arg(long)]
    k: Option<f64>,
    /// Start from this network file (same game and buckets, or one output layer copied to
    /// every bucket; at most --hidden units, the added ones starting with output weights 0)
    /// instead of random weights: a next generation trained on new data, or a wider one.
    #[arg(long)]
    init: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let train_run = TrainRun {
        game: cli.game,
        data: cli.data,
        out: cli.out,
        config: TrainConfig {
            hidden: cli.hidden,
            epochs: cli.epochs,
            batch: cli.batch,
            learning_rate: cli.lr,
            lambda: cli.lambda,
            validation_one_in: cli.validation_one_in,
            seed: cli.seed,
            max_positions: cli.max_positions,
            quiet_only: cli.quiet_only,
            output_buckets: cli.output_buckets,
            k: cli.k,
            init: cli.init,
        },
    };
    match run(&train_run, &mut |line| println!("{line}")) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
