//! The run of matches and tournaments. Worker threads play whole games ([`super::play`]),
//! each game between the two engines of one pairing and refereed by the rules engine; the
//! calling thread collects the finished games, keeps the statistics of every pairing
//! ([`super::plan::Tally`]), the log and the progress bar, and stops a match on an SPRT
//! verdict. A match is one pairing, a tournament ([`super::tournament`]) many: both are a
//! [`Plan`] run by [`run_plan`].
//!
//! An engine that fails (illegal move, time loss, crash, hang, protocol error) loses that
//! game and its process is replaced before the next one, so one bad answer never ends a
//! run.

use super::config::{MatchConfig, RunConfig};
use super::engine::Engine;
use super::log::{self, result_text};
use super::openings;
use super::plan::{Plan, Tally};
use super::play::{Finished, Shared, play_games};
use super::report::MatchReport;
use super::resume;
use crate::game::Game;
use crate::games::{GameVisitor, with_game};
use crate::profile::Profile;
use crate::progress::progress_bar;
use crate::search_hints::SearchHints;
use indicatif::ProgressBar;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

/// Engine options (name, value).
type EngineOptions = Vec<(String, String)>;

/// Plays the match; the report is also what an SPRT verdict cut short.
pub fn run_match(config: &MatchConfig) -> Result<MatchReport, String> {
    if config.games == 0 {
        return Err("a match needs at least one game".into());
    }
    let plan = Plan {
        run: &config.run,
        kind: "match",
        engines: &config.engines,
        pairings: vec![[0, 1]],
        pairs: config.games.div_ceil(2),
        sprt: config.sprt,
        settings: config.settings(),
    };
    let mut reports = run_plan(&plan, &|reports| reports[0].score_line())?;
    Ok(reports.remove(0))
}

/// Plays a plan; the reports, one per pairing, are also what an SPRT verdict cut short.
/// `message` says the state of the run next to the progress bar.
pub(crate) fn run_plan(
    plan: &Plan,
    message: &dyn Fn(&[MatchReport]) -> String,
) -> Result<Vec<MatchReport>, String> {
    if plan.run.concurrency == 0 {
        return Err("concurrency must be at least 1".into());
    }
    with_game(&plan.run.game, Run { plan, message })?
}

struct Run<'a> {
    plan: &'a Plan<'a>,
    message: &'a dyn Fn(&[MatchReport]) -> String,
}

impl GameVisitor for Run<'_> {
    type Output = Result<Vec<MatchReport>, String>;

    /// Sets the run up (rules, openings, engines, this shard's games, the log and the games
    /// it already holds), then plays the rest.
    fn visit<G: Profile>(self) -> Result<Vec<MatchReport>, String> {
        let plan = self.plan;
        let config = plan.run;
        let (rules, rule_options) = referee_rules::<G>(plan)?;
        let options: Vec<Vec<(String, String)>> = plan
            .engines
            .iter()
            .map(|e| config.options.iter().chain(&e.options).cloned().collect())
            .collect();
        let openings = shuffled_openings::<G>(plan, rules)?;
        let engines_line = engines_line::<G>(plan, &options)?;
        let mut games = shard_games(plan)?;
        let resumed = match &config.log {
            Some(path) if config.resume && path.exists() => {
                resume::resumed_games(plan, path, &games, &engines_line)?
            }
            _ => Vec::new(),
        };
        games.retain(|&index| !resumed.iter().any(|r| r.number == index + 1));
        let log = resume::open_log(plan, !resumed.is_empty(), &engines_line)?;
        let shared = Shared::<G> {
            plan,
            rule_options,
            options,
            openings,
            games,
            next_game: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        };
        let mut tally = plan.tally();
        for record in &resumed {
            tally.add_record(record)?;
        }
        let progress = progress_bar(
            config.progress,
            (resumed.len() + shared.games.len()) as u64,
            "games",
        );
        progress.inc(resumed.len() as u64);
        play_rest(&shared, tally, log, &progress, self.message)
    }
}

/// The referee's rules from the run's options, and those options that are rules (for the
/// log). The referee plays by one set of rules: an engine's own rule option, by which it
/// would lose, is an error.
fn referee_rules<G: Game>(plan: &Plan) -> Result<(G::Rules, EngineOptions), String> {
    let mut rules = G::Rules::default();
    let mut rule_options = Vec::new();
    for (name, value) in &plan.run.options {
        if G::set_rule_option(&mut rules, name, value)? {
            rule_options.push((name.clone(), value.clone()));
        }
    }
    for engine in plan.engines {
        for (name, value) in &engine.options {
            if G::set_rule_option(&mut G::Rules::default(), name, value)? {
                return Err(format!(
                    "{}: {name} is a rule option: the rule flags set it for every engine and \
                     the referee",
                    engine.name
                ));
            }
        }
    }
    Ok((rules, rule_options))
}

/// The openings (the file's, else the game's built-in set) in the
/// order of the run's seed.
fn shuffled_openings<G: Profile>(plan: &Plan, rules: G::Rules) -> Result<Vec<G>, String> {
    let config: &RunConfig = plan.run;
    let text = match &config.openings {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?,
        None => G::OPENINGS.to_string(),
    };
    let source = config
        .openings
        .as_ref()
        .map_or_else(|| "built-in".to_string(), |p| p.display().to_string());
    let mut openings =
        openings::parse::<G>(&text, rules).map_err(|e| format!("openings {source}: {e}"))?;
    openings.shuffle(&mut StdRng::seed_from_u64(config.seed));
    if plan.pairs > openings.len() {
        tracing::warn!(
            "{} game pairs per pairing but {} openings ({source}): openings repeat, so the \
             games of deterministic engines repeat too",
            plan.pairs,
            openings.len()
        );
    }
    Ok(openings)
}

/// Starts every engine once with its `options`, to fail fast on a wrong command or option
/// instead of losing every game, and learns what the engines call themselves: the log's
/// `#engines` line.
fn engines_line<G: Game>(plan: &Plan, options: &[Vec<(String, String)>]) -> Result<String, String> {
    let mut id_names: Vec<Option<String>> = Vec::new();
    for (engine, options) in plan.engines.iter().zip(options) {
        let process = Engine::start(
            &engine.name,
            &engine.command,
            G::NAME,
            options,
            plan.run.timeout,
        )?;
        id_names.push(process.id_name().map(str::to_string));
    }
    let id_names: Vec<Option<&str>> = id_names.iter().map(Option::as_deref).collect();
    Ok(log::engines_line(&id_names))
}

/// The 0-based indices of the games this shard plays.
fn shard_games(plan: &Plan) -> Result<Vec<usize>, String> {
    let shard = plan.run.shard;
    let games: Vec<usize> = (0..plan.games())
        .filter(|&index| shard.owns(index / 2))
        .collect();
    if games.is_empty() {
        return Err(format!(
            "shard {shard} has no games: {} pairs in all",
            plan.games() / 2
        ));
    }
    Ok(games)
}

/// Plays the games not yet played on `concurrency` workers and counts each as it finishes
/// into `tally`, the log and the progress bar, until all are played or a verdict stops the
/// run (a shard plays all of its games).
fn play_rest<G: SearchHints>(
    shared: &Shared<G>,
    mut tally: Tally,
    mut log: Option<BufWriter<File>>,
    progress: &ProgressBar,
    message: &dyn Fn(&[MatchReport]) -> String,
) -> Result<Vec<MatchReport>, String> {
    let config = shared.plan.run;
    let stop_on_verdict = |tally: &Tally| {
        if tally.verdict() && config.shard.is_whole() {
            shared.stop.store(true, Ordering::SeqCst);
        }
    };
    stop_on_verdict(&tally);
    progress.set_message(message(&tally.reports));
    let mut log_error = None;
    thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        for worker in 0..config.concurrency.min(shared.games.len()) {
            let sender = sender.clone();
            thread::Builder::new()
                .name(format!("match worker {worker}"))
                .spawn_scoped(scope, move || play_games(shared, &sender))
                .map_err(|e| format!("cannot start a worker thread: {e}"))?;
        }
        drop(sender);
        for finished in receiver {
            let Finished {
                index,
                record,
                failure,
            } = finished;
            tally.add_game(index, record.outcome, failure);
            stop_on_verdict(&tally);
            if failure.is_some() {
                progress.suspend(|| {
                    tracing::warn!("game {}: {}", record.number, record.reason);
                });
            }
            tracing::info!(
                game = record.number,
                result = result_text(record.outcome),
                reason = %record.reason,
                "game over"
            );
            if let Some(writer) = &mut log {
                let written =
                    writeln!(writer, "{}", record.to_line()).and_then(|()| writer.flush());
                if let Err(e) = written {
                    log_error.get_or_insert(format!("cannot write the log: {e}"));
                }
            }
            progress.inc(1);
            progress.set_message(message(&tally.reports));
        }
        Ok::<(), String>(())
    })?;
    progress.finish_and_clear();
    match log_error {
        Some(error) => Err(error),
        None => Ok(tally.reports),
    }
}
