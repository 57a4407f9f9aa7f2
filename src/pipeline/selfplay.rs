//! `shove selfplay`: games between two copies of the engine in one process, at a fixed node
//! or depth budget, written as training data (see [`super::data`]).
//!
//! Games come in blocks of [`BLOCK`]: a block's openings are made by the openings generator
//! ([`super::openings::generate`]) from the block's own seed, and every searcher starts each
//! game with empty tables, so a game depends only on the settings, the seed and its number
//! — not on the threads or the shard that plays it. Shard K of N plays the blocks
//! `b % N == K - 1`. Each finished game is appended and flushed at once: stopping the
//! program loses only the games in progress.

use super::data::{self, Header, Sample};
use super::openings::{OpeningConfig, generate};
use super::playout::play_game;
use super::quiet::is_quiet;
use super::shard::Shard;
use crate::game::Outcome;
use crate::games::{GameVisitor, with_game};
use crate::matches::Adjudication;
use crate::nnue::{EvalKind, Network, choice};
use crate::profile::Profile;
use crate::progress::progress_bar;
use crate::rng;
use crate::search::{Limits, MATE, Score, Searcher};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Games per block of openings.
pub const BLOCK: usize = 16;

/// How hard each move is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Nodes(u64),
    Depth(u32),
}

impl Budget {
    /// The search limits of this budget.
    pub fn limits(self) -> Limits {
        match self {
            Budget::Nodes(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            Budget::Depth(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
        }
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Nodes(n) => write!(f, "nodes={n}"),
            Budget::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

/// Everything `shove selfplay` can be told.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    pub game: String,
    /// Rule options (name, value).
    pub rule_options: Vec<(String, String)>,
    /// Games of the whole (unsharded) run.
    pub games: usize,
    pub seed: u64,
    pub budget: Budget,
    /// Games played at the same time.
    pub concurrency: usize,
    pub adjudication: Adjudication,
    pub openings: OpeningConfig,
    pub shard: Shard,
    /// Transposition table of each searcher, in MB.
    pub hash_megabytes: usize,
    /// The evaluation the players search with (`None`: the game's default).
    pub evaluation: Option<EvalKind>,
    /// The network file (`None`: the built-in network).
    pub eval_file: Option<PathBuf>,
    pub out: PathBuf,
    pub progress: bool,
}

/// What a run produced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelfplayReport {
    pub games: usize,
    pub positions: usize,
    pub seconds: f64,
}

/// The header that names a run's settings; files with equal headers can be merged. Games
/// played with a network name it (`eval=network:<checksum>`); the classical evaluation adds
/// nothing, so such files compare equal to those made before networks existed.
pub fn header(config: &SelfplayConfig, game: &str, network: Option<&Network>) -> Header {
    let rules = if config.rule_options.is_empty() {
        "-".to_string()
    } else {
        let mut options: Vec<String> = config
            .rule_options
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        options.sort();
        options.join(";")
    };
    let o = &config.openings;
    let mut settings = vec![
        ("game".into(), game.to_string()),
        ("rules".into(), rules),
        ("budget".into(), config.budget.to_string()),
        (
            "openings".into(),
            format!(
                "plies={}-{};depth={};max_score={}",
                o.plies.0, o.plies.1, o.depth, o.max_score
            ),
        ),
        (
            "max_moves".into(),
            config.adjudication.max_plies.to_string(),
        ),
        (
            "repetition_draw".into(),
            config.adjudication.repetition_draw.to_string(),
        ),
    ];
    if let Some(network) = network {
        settings.push((
            "eval".into(),
            format!("network:{:016x}", network.checksum()),
        ));
    }
    Header::new(settings)
}

/// Plays the run's (or shard's) games, appending them to `config.out`.
pub fn run_selfplay(config: &SelfplayConfig) -> Result<SelfplayReport, String> {
    if config.concurrency == 0 {
        return Err("concurrency must be at least 1".into());
    }
    with_game(&config.game, Run { config })?
}

struct Run<'a> {
    config: &'a SelfplayConfig,
}

impl GameVisitor for Run<'_> {
    type Output = Result<SelfplayReport, String>;

    fn visit<G: Profile>(self) -> Self::Output {
        play::<G>(self.config)
    }
}

/// The seed of block `block` of a run seeded with `seed` (splitmix64 of both).
fn block_seed(seed: u64, block: usize) -> u64 {
    rng::mix(seed ^ (block as u64).wrapping_mul(rng::GOLDEN_GAMMA))
}

fn play<G: Profile>(config: &SelfplayConfig) -> Result<SelfplayReport, String> {
    let rules = crate::games::rules::<G>(&config.rule_options)?;
    let network = choice::resolve::<G>(config.evaluation, config.eval_file.as_deref())?;
    let header = header(config, G::NAME, network.as_deref());
    let mut file = data::open_append(&config.out, &header)?;
    let blocks: Vec<usize> = (0..config.games.div_ceil(BLOCK))
        .filter(|&b| config.shard.owns(b))
        .collect();
    let total_games: usize = blocks
        .iter()
        .map(|&b| BLOCK.min(config.games - b * BLOCK))
        .sum();
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    let progress = progress_bar(config.progress, total_games as u64, "games");
    let mut report = SelfplayReport {
        games: 0,
        positions: 0,
        seconds: 0.0,
    };
    let mut write_error = None;
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Vec<Sample>>();
        for _ in 0..config.concurrency.min(blocks.len()) {
            let sender = sender.clone();
            let (next, blocks, network) = (&next, &blocks, &network);
            scope.spawn(move || {
                let mut searchers = [
                    Searcher::<G>::new(config.hash_megabytes),
                    Searcher::<G>::new(config.hash_megabytes),
                ];
                for searcher in &mut searchers {
                    searcher.set_network(network.clone());
                }
                while let Some(&block) = blocks.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let count = BLOCK.min(config.games - block * BLOCK);
                    let start = G::start(rules);
                    let openings = generate(
                        std::slice::from_ref(&start),
                        &config.openings,
                        None,
                        count,
                        block_seed(config.seed, block),
                        1,
                    );
                    for i in 0..count {
                        // The generator gives up only on hopeless settings; then the start.
                        let opening = openings.get(i).unwrap_or(&start);
                        let number = (block * BLOCK + i) as u64;
                        let samples = game_samples(config, opening, number, &mut searchers);
                        if sender.send(samples).is_err() {
                            return;
                        }
                    }
                }
            });
        }
        drop(sender);
        for samples in receiver {
            let mut text = String::new();
            for sample in &samples {
                text.push_str(&sample.to_string());
                text.push('\n');
            }
            if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                write_error.get_or_insert(format!("cannot write {}: {e}", config.out.display()));
            }
            report.games += 1;
            report.positions += samples.len();
            let seconds = start.elapsed().as_secs_f64().max(1e-9);
            progress.inc(1);
            progress.set_message(format!(
                "{} positions, {:.0} positions/s",
                report.positions,
                report.positions as f64 / seconds
            ));
        }
    });
    progress.finish_and_clear();
    report.seconds = start.elapsed().as_secs_f64();
    match write_error {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// A search score as one number from the side to move's view: mates as ±(MATE - moves).
fn score_value(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - n,
        Score::Mate(n) => -MATE - n,
    }
}

/// One game from `opening` ([`play_game`]), as training samples.
fn game_samples<G: Profile>(
    config: &SelfplayConfig,
    opening: &G,
    number: u64,
    searchers: &mut [Searcher<G>; 2],
) -> Vec<Sample> {
    // (position string, score, side to move, quiet) of every position searched.
    let mut seen = Vec::new();
    let outcome = play_game(
        opening,
        &config.budget.limits(),
        &config.adjudication,
        searchers,
        |position, result| {
            seen.push((
                position.to_string(),
                score_value(result.score),
                position.to_move(),
                is_quiet(position),
            ));
        },
    );
    seen.into_iter()
        .map(|(text, score, side, quiet)| Sample {
            position: text,
            score,
            result: match outcome {
                Outcome::Win(p) if p == side => 1.0,
                Outcome::Win(_) => 0.0,
                Outcome::Draw => 0.5,
            },
            quiet,
            game: number,
        })
        .collect()
}
