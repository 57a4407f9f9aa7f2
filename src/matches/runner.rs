//! The game loop of matches and tournaments. Worker threads play whole games, each game
//! between the two engines of one pairing and refereed by the rules engine; the calling
//! thread collects the finished games, keeps the statistics of every pairing, the log and
//! the progress bar, and stops a match on an SPRT verdict. A match is one pairing, a
//! tournament ([`super::tournament`]) many: both are a [`Plan`] run by [`run_plan`].
//!
//! An engine that fails (illegal move, time loss, crash, hang, protocol error) loses that
//! game and its process is replaced before the next one, so one bad answer never ends a
//! run.

use super::adjudication::Adjudication;
use super::engine::{Engine, Failure, split_command};
use super::log::{self, GameRecord, HEADER, SETTINGS, result_text};
use super::openings;
use super::stats::{Pentanomial, Sprt, Verdict};
use super::tc::TimeControl;
use crate::game::{Game, Outcome, Player};
use crate::games::{GameVisitor, with_game};
use crate::pipeline::shard::Shard;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::collections::HashMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::thread;
use std::time::Duration;

/// One engine of a match or tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Shown in results and logs.
    pub name: String,
    /// Program and arguments.
    pub command: Vec<String>,
    pub tc: TimeControl,
    /// Engine options (name, value) for this engine only, sent after those of the run.
    pub options: Vec<(String, String)>,
}

impl EngineConfig {
    /// Both engines from their command lines (split as a shell would). Without a given
    /// name an engine is called by its command with the program's directory left out; two
    /// equal names get `#1` and `#2`.
    pub fn pair(
        command_lines: [&str; 2],
        names: [Option<String>; 2],
        tcs: [TimeControl; 2],
    ) -> Result<[EngineConfig; 2], String> {
        let mut configs = Vec::new();
        for ((line, name), tc) in command_lines.into_iter().zip(names).zip(tcs) {
            let command = split_command(line).map_err(|e| e.to_string())?;
            let name = name.unwrap_or_else(|| {
                let program = std::path::Path::new(&command[0])
                    .file_name()
                    .map_or_else(|| command[0].clone(), |f| f.to_string_lossy().into_owned());
                std::iter::once(program)
                    .chain(command[1..].iter().cloned())
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            configs.push(EngineConfig {
                name,
                command,
                tc,
                options: Vec::new(),
            });
        }
        let [mut first, mut second]: [EngineConfig; 2] = configs
            .try_into()
            .map_err(|_| "two engines are needed".to_string())?;
        if first.name == second.name {
            first.name.push_str(" #1");
            second.name.push_str(" #2");
        }
        Ok([first, second])
    }
}

/// Parses `NAME=VALUE` (an engine option of `--option`).
pub fn parse_engine_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("'{text}' is not NAME=VALUE")),
    }
}

/// What a match and a tournament are told besides their engines and how many games.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Game name (see [`crate::games::GAME_NAMES`]).
    pub game: String,
    /// Openings file; `None`: the game's built-in set, or its start position.
    pub openings: Option<PathBuf>,
    /// Seed of the shuffle that orders the openings: pair `k` of a pairing plays the
    /// `k`-th opening of the shuffled set, so each opening is played once per pair and a
    /// pairing longer than the set cycles through it again.
    pub seed: u64,
    /// Games played at the same time, each with its own engine processes.
    pub concurrency: usize,
    pub adjudication: Adjudication,
    /// Engine options (name, value) sent to every engine; the game's rule options among
    /// them also rule the referee.
    pub options: Vec<(String, String)>,
    /// Slack on top of a move's time allowance before it loses on time.
    pub margin: Duration,
    /// Longest wait for an answer that no time control bounds (start-up, `isready`, moves
    /// under depth or node limits): past it the engine is taken as hung.
    pub timeout: Duration,
    pub log: Option<PathBuf>,
    /// Keep the games `log` already holds, from this run cut off earlier (its settings
    /// must be these), and play only the rest: hours of games survive a stopped machine.
    pub resume: bool,
    /// Draw a progress bar on stderr.
    pub progress: bool,
    /// The part of the game pairs to play: pair `p` belongs to shard `p % N + 1`. A shard
    /// plays all of its pairs (an SPRT verdict is reported, not acted on), so the shards'
    /// logs merge into exactly the unsharded run.
    pub shard: Shard,
}

impl RunConfig {
    /// The settings fields shared by matches and tournaments, after the engines.
    pub(crate) fn settings_fields(&self) -> [String; 5] {
        let options: Vec<String> = self
            .options
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        [
            format!(
                "openings={}",
                self.openings
                    .as_ref()
                    .map_or_else(|| "built-in".to_string(), |p| p.display().to_string())
            ),
            format!("seed={}", self.seed),
            format!("max_moves={}", self.adjudication.max_plies),
            format!("repetition_draw={}", self.adjudication.repetition_draw),
            format!("options={}", options.join(";")),
        ]
    }
}

/// Joins settings fields into a settings line: tabs and line breaks would break it.
pub(crate) fn settings_line(fields: impl IntoIterator<Item = String>) -> String {
    fields
        .into_iter()
        .map(|field| field.replace(['\t', '\n', '\r'], " "))
        .collect::<Vec<_>>()
        .join("\t")
}

/// Everything `shove match` can be told.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub run: RunConfig,
    pub engines: [EngineConfig; 2],
    /// Number of games, rounded up to whole pairs (with `sprt`: the most to play).
    pub games: usize,
    pub sprt: Option<Sprt>,
}

impl MatchConfig {
    /// The settings that make two logs parts of one match (`shove merge` checks them):
    /// tab-separated `name=value` fields. The shard is not among them.
    pub fn settings(&self) -> String {
        let engine = |i: usize| {
            let e = &self.engines[i];
            format!(
                "engine{}={} | {} | {}",
                i + 1,
                e.name,
                e.command.join(" "),
                e.tc
            )
        };
        let [openings, seed, max_moves, repetition, options] = self.run.settings_fields();
        settings_line([
            format!("game={}", self.run.game),
            engine(0),
            engine(1),
            openings,
            seed,
            format!("games={}", 2 * self.games.div_ceil(2)),
            max_moves,
            repetition,
            options,
            format!(
                "sprt={}",
                self.sprt.map_or_else(|| "-".to_string(), |s| s.to_string())
            ),
        ])
    }
}

/// How an engine lost a game other than by playing it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    IllegalMove,
    TimeLoss,
    Crash,
    Hang,
    ProtocolError,
}

impl FailureKind {
    /// Every kind, in the order of [`MatchReport::failures`] (their discriminants).
    pub const ALL: [FailureKind; 5] = [
        FailureKind::IllegalMove,
        FailureKind::TimeLoss,
        FailureKind::Crash,
        FailureKind::Hang,
        FailureKind::ProtocolError,
    ];
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FailureKind::IllegalMove => "illegal move",
            FailureKind::TimeLoss => "time loss",
            FailureKind::Crash => "crash",
            FailureKind::Hang => "hang",
            FailureKind::ProtocolError => "protocol error",
        })
    }
}

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
    fn games(&self) -> usize {
        2 * self.pairs * self.pairings.len()
    }

    /// The reports to count games into, one per pairing.
    fn tally(&self) -> Tally {
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
    fn add_game(&mut self, index: usize, outcome: Outcome, failure: Option<(usize, FailureKind)>) {
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

    fn verdict(&self) -> bool {
        self.reports.iter().any(|r| r.verdict.is_some())
    }
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

    fn visit<G: Game>(self) -> Result<Vec<MatchReport>, String> {
        run_game::<G>(self.plan, self.message)
    }
}

/// What the workers share.
struct Shared<'a, G: Game> {
    plan: &'a Plan<'a>,
    /// The rule options among the engine options, for the log.
    rule_options: Vec<(String, String)>,
    /// Per engine: the run's options, then its own.
    options: Vec<Vec<(String, String)>>,
    openings: Vec<G>,
    /// The 0-based game indices to play (this shard's), in order.
    games: Vec<usize>,
    next_game: AtomicUsize,
    /// Set on an SPRT verdict: games in progress are abandoned.
    stop: AtomicBool,
}

/// A game played to its end.
struct Finished {
    /// 0-based game index.
    index: usize,
    record: GameRecord,
    /// The engine that lost by failing, by its place in the pairing (0: the first), and how.
    failure: Option<(usize, FailureKind)>,
}

fn run_game<G: Game>(
    plan: &Plan,
    message: &dyn Fn(&[MatchReport]) -> String,
) -> Result<Vec<MatchReport>, String> {
    let config = plan.run;
    let mut rules = G::Rules::default();
    let mut rule_options = Vec::new();
    for (name, value) in &config.options {
        if G::set_rule_option(&mut rules, name, value)? {
            rule_options.push((name.clone(), value.clone()));
        }
    }
    // The referee plays by one set of rules: an engine of its own rules would lose by them.
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
    let options: Vec<Vec<(String, String)>> = plan
        .engines
        .iter()
        .map(|e| config.options.iter().chain(&e.options).cloned().collect())
        .collect();
    let openings_text = match &config.openings {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?,
        None => {
            openings::built_in(G::NAME).map_or_else(|| G::start(rules).to_string(), str::to_string)
        }
    };
    let source = config
        .openings
        .as_ref()
        .map_or_else(|| "built-in".to_string(), |p| p.display().to_string());
    let mut openings = openings::parse::<G>(&openings_text, rules)
        .map_err(|e| format!("openings {source}: {e}"))?;
    openings.shuffle(&mut StdRng::seed_from_u64(config.seed));
    if plan.pairs > openings.len() {
        tracing::warn!(
            "{} game pairs per pairing but {} openings ({source}): openings repeat, so the \
             games of deterministic engines repeat too",
            plan.pairs,
            openings.len()
        );
    }
    // Fail fast on a wrong command or option instead of losing every game; learn what the
    // engines call themselves for the log.
    let mut id_names: Vec<Option<String>> = Vec::new();
    for (engine, options) in plan.engines.iter().zip(&options) {
        let process = Engine::start(
            &engine.name,
            &engine.command,
            G::NAME,
            options,
            config.timeout,
        )?;
        id_names.push(process.id_name().map(str::to_string));
    }
    let id_names: Vec<Option<&str>> = id_names.iter().map(Option::as_deref).collect();
    let engines_line = log::engines_line(&id_names);
    let mut games: Vec<usize> = (0..plan.games())
        .filter(|&index| config.shard.owns(index / 2))
        .collect();
    if games.is_empty() {
        return Err(format!(
            "shard {} has no games: {} pairs in all",
            config.shard,
            plan.games() / 2
        ));
    }
    let resumed = match &config.log {
        Some(path) if config.resume && path.exists() => {
            resumed_games(plan, path, &games, &engines_line)?
        }
        _ => Vec::new(),
    };
    games.retain(|&index| !resumed.iter().any(|r| r.number == index + 1));
    let mut log = match &config.log {
        Some(path) if !resumed.is_empty() => {
            let file = OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot append to log {}: {e}", path.display()))?;
            Some(BufWriter::new(file))
        }
        Some(path) => {
            let file = File::create(path)
                .map_err(|e| format!("cannot create log {}: {e}", path.display()))?;
            let mut writer = BufWriter::new(file);
            writeln!(writer, "{HEADER}")
                .and_then(|()| writeln!(writer, "{SETTINGS}\t{}", plan.settings))
                .and_then(|()| writeln!(writer, "{engines_line}"))
                .and_then(|()| writer.flush())
                .map_err(|e| format!("cannot write the log: {e}"))?;
            Some(writer)
        }
        None => None,
    };
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
    if tally.verdict() && config.shard.is_whole() {
        shared.stop.store(true, Ordering::SeqCst);
    }
    let progress = progress_bar(config.progress, (resumed.len() + shared.games.len()) as u64);
    progress.inc(resumed.len() as u64);
    progress.set_message(message(&tally.reports));
    let mut log_error = None;
    thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        for worker in 0..config.concurrency.min(shared.games.len()) {
            let sender = sender.clone();
            let shared = &shared;
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
            if tally.verdict() && config.shard.is_whole() {
                shared.stop.store(true, Ordering::SeqCst);
            }
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

/// The games of the log at `path` when a run resumes: the log must come from a run with
/// these settings, and hold each game once and only games of this shard (`games`, 0-based).
/// If it names the engines that played (`#engines`, `engines_line` is ours), they must be
/// the same: the rest of a run is not played by another version. A last line cut off
/// mid-write (the machine stopped) is dropped from the file: its game is played again.
fn resumed_games(
    plan: &Plan,
    path: &Path,
    games: &[usize],
    engines_line: &str,
) -> Result<Vec<GameRecord>, String> {
    let kind = plan.kind;
    let (logged, ours) = (log::settings(path)?, &plan.settings);
    if logged != *ours {
        return Err(format!(
            "cannot resume {}: it comes from a {kind} with other settings: {}",
            path.display(),
            log::differences(&logged, ours)
        ));
    }
    let ours = engines_line
        .strip_prefix(log::ENGINES)
        .unwrap_or(engines_line)
        .trim_start_matches('\t');
    if let Some(logged) = log::engines(path)?
        && logged != ours
    {
        return Err(format!(
            "cannot resume {}: it was played by other engines: {}",
            path.display(),
            log::differences(&logged, ours)
        ));
    }
    log::drop_unfinished_line(path)?;
    let records = log::read_log_file(path)?;
    for (i, record) in records.iter().enumerate() {
        if !games.contains(&(record.number - 1)) {
            return Err(format!(
                "cannot resume {}: game {} is not one of shard {}'s games",
                path.display(),
                record.number,
                plan.run.shard
            ));
        }
        if records[..i].iter().any(|r| r.number == record.number) {
            return Err(format!(
                "cannot resume {}: it holds game {} twice",
                path.display(),
                record.number
            ));
        }
    }
    Ok(records)
}

/// The games bar on stderr (hidden when not a terminal), shared with `shove selfplay`.
pub(crate) fn progress_bar(visible: bool, games: u64) -> ProgressBar {
    use std::io::IsTerminal;
    if !visible || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:20} {pos}/{len} games [{elapsed_precise}, eta {eta}] {wide_msg}",
    ) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// A worker: plays the next game until none is left or the run is stopped. It keeps the
/// processes of the last game's two engines for the next (at most two per worker).
fn play_games<G: Game>(shared: &Shared<G>, sender: &Sender<Finished>) {
    let mut engines: Vec<Option<Engine>> = shared.plan.engines.iter().map(|_| None).collect();
    while !shared.stop.load(Ordering::SeqCst) {
        let next = shared.next_game.fetch_add(1, Ordering::SeqCst);
        let Some(&index) = shared.games.get(next) else {
            break;
        };
        let Some(finished) = play_game(shared, index, &mut engines) else {
            break;
        };
        if sender.send(finished).is_err() {
            break;
        }
    }
}

/// One game; `None` when the run was stopped during it. `engines` are indexed like the
/// plan's; a failed engine is dropped and started afresh for the next game, and engines
/// of other pairings are stopped.
fn play_game<G: Game>(
    shared: &Shared<G>,
    index: usize,
    engines: &mut [Option<Engine>],
) -> Option<Finished> {
    let plan = shared.plan;
    let config = plan.run;
    let pairing = plan.pairings[index / (2 * plan.pairs)];
    let local = index % (2 * plan.pairs);
    let start = &shared.openings[(local / 2) % shared.openings.len()];
    // The engine playing each player: the pairing's first engine is player 1 in even games.
    let engine_of = if local.is_multiple_of(2) {
        pairing
    } else {
        [pairing[1], pairing[0]]
    };
    for (engine, slot) in engines.iter_mut().enumerate() {
        if !pairing.contains(&engine) {
            *slot = None;
        }
    }
    let spec = |engine: usize| &plan.engines[engine];
    let mut record = GameRecord {
        number: index + 1,
        game: G::NAME.to_string(),
        players: engine_of.map(|e| spec(e).name.clone()),
        outcome: Outcome::Draw,
        reason: String::new(),
        opening: start.to_string(),
        moves: Vec::new(),
        rules: shared.rule_options.clone(),
    };
    let player_of = |engine: usize| {
        if engine_of[0] == engine {
            Player::One
        } else {
            Player::Two
        }
    };
    let lost = |mut record: GameRecord, engine: usize, kind: FailureKind, why: String| {
        record.outcome = Outcome::Win(player_of(engine).other());
        record.reason = format!("{} loses: {kind}: {why}", spec(engine).name);
        let place = usize::from(pairing[0] != engine);
        Some(Finished {
            index,
            record,
            failure: Some((place, kind)),
        })
    };
    for engine in pairing {
        let slot = &mut engines[engine];
        if slot.is_none() {
            match Engine::start(
                &spec(engine).name,
                &spec(engine).command,
                G::NAME,
                &shared.options[engine],
                config.timeout,
            ) {
                Ok(started) => *slot = Some(started),
                Err(why) => return lost(record, engine, FailureKind::Crash, why),
            }
        }
        if let Some(process) = slot
            && let Err(failure) = process.new_game(config.timeout)
        {
            *slot = None;
            let kind = failure_kind(&failure, false);
            return lost(record, engine, kind, format!("starting a game: {failure}"));
        }
    }

    let mut position = start.clone();
    let mut history: Vec<u64> = Vec::new();
    let mut clocks =
        [Player::One, Player::Two].map(|p| spec(engine_of[p.index()]).tc.start_clock());
    let increments = [Player::One, Player::Two].map(|p| spec(engine_of[p.index()]).tc.increment());
    loop {
        if let Some(outcome) = position.outcome() {
            record.outcome = outcome;
            record.reason = "by the rules".into();
            break;
        }
        if let Some(reason) = config.adjudication.draw(&position, &history) {
            record.outcome = Outcome::Draw;
            record.reason = reason.to_string();
            break;
        }
        if shared.stop.load(Ordering::SeqCst) {
            return None;
        }
        let side = position.to_move().index();
        let engine = engine_of[side];
        let tc = spec(engine).tc;
        let Some(process) = engines[engine].as_mut() else {
            return lost(record, engine, FailureKind::Crash, "no process".into());
        };
        let mut command = format!("position fen {start}");
        if !record.moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&record.moves.join(" "));
        }
        let go = tc.go(process.dialect(), clocks, increments);
        let allowance = tc.allowance(clocks[side], config.margin);
        let answer = process.best_move(&command, &go, allowance.unwrap_or(config.timeout));
        let failure = match answer {
            Ok((_, elapsed)) if allowance.is_some_and(|a| elapsed > a) => Some((
                FailureKind::TimeLoss,
                format!(
                    "took {} ms, {} ms allowed",
                    elapsed.as_millis(),
                    allowance.unwrap_or_default().as_millis()
                ),
            )),
            Ok((text, elapsed)) => match position.parse_move(&text) {
                Ok(mv) => {
                    if let Some(left) = &mut clocks[side] {
                        *left = left.saturating_sub(elapsed) + increments[side];
                    }
                    history.push(position.hash());
                    position.play(mv);
                    record.moves.push(mv.to_string());
                    None
                }
                Err(e) => Some((FailureKind::IllegalMove, e.to_string())),
            },
            Err(failure) => Some((
                failure_kind(&failure, allowance.is_some()),
                failure.to_string(),
            )),
        };
        if let Some((kind, why)) = failure {
            engines[engine] = None;
            let ply = record.moves.len() + 1;
            return lost(record, engine, kind, format!("move {ply}: {why}"));
        }
    }
    Some(Finished {
        index,
        record,
        failure: None,
    })
}

/// A timeout is a time loss when the time control judged the move, else a hang.
fn failure_kind(failure: &Failure, timed: bool) -> FailureKind {
    match failure {
        Failure::Timeout if timed => FailureKind::TimeLoss,
        Failure::Timeout => FailureKind::Hang,
        Failure::Crash(_) => FailureKind::Crash,
        Failure::Protocol(_) => FailureKind::ProtocolError,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_names() {
        let tc = TimeControl::Depth(1);
        let [a, b] = EngineConfig::pair(
            ["/usr/bin/shove --player random", "'/my dir/shove'"],
            [None, None],
            [tc, tc],
        )
        .unwrap();
        assert_eq!(a.name, "shove --player random");
        assert_eq!(a.command, ["/usr/bin/shove", "--player", "random"]);
        assert_eq!(b.name, "shove");
        let [a, b] = EngineConfig::pair(["./shove", "shove"], [None, None], [tc, tc]).unwrap();
        assert_eq!((a.name.as_str(), b.name.as_str()), ("shove #1", "shove #2"));
        let [a, _] =
            EngineConfig::pair(["./shove", "shove"], [Some("new".into()), None], [tc, tc]).unwrap();
        assert_eq!(a.name, "new");
        assert!(EngineConfig::pair(["", "shove"], [None, None], [tc, tc]).is_err());
    }

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
