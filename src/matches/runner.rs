//! The match loop. Worker threads each own one process of each engine and play whole games,
//! refereed by the rules engine; the calling thread collects the finished games, keeps the
//! statistics, the log and the progress bar, and stops the match on an SPRT verdict.
//!
//! An engine that fails (illegal move, time loss, crash, hang, protocol error) loses that
//! game and its process is replaced before the next one, so one bad answer never ends a
//! match.

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

/// One side of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Shown in results and logs.
    pub name: String,
    /// Program and arguments.
    pub command: Vec<String>,
    pub tc: TimeControl,
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
            let command = split_command(line)?;
            let name = name.unwrap_or_else(|| {
                let program = std::path::Path::new(&command[0])
                    .file_name()
                    .map_or_else(|| command[0].clone(), |f| f.to_string_lossy().into_owned());
                std::iter::once(program)
                    .chain(command[1..].iter().cloned())
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            configs.push(EngineConfig { name, command, tc });
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

/// Everything `shove match` can be told.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Game name (see [`crate::games::GAME_NAMES`]).
    pub game: String,
    pub engines: [EngineConfig; 2],
    /// Openings file; `None`: the game's built-in set, or its start position.
    pub openings: Option<PathBuf>,
    /// Seed of the shuffle that orders the openings: pair `k` plays the `k`-th opening of
    /// the shuffled set, so each opening is played once per pair and a match longer than
    /// the set cycles through it again.
    pub seed: u64,
    /// Number of games, rounded up to whole pairs (with `sprt`: the most to play).
    pub games: usize,
    /// Games played at the same time, each with its own engine processes.
    pub concurrency: usize,
    pub adjudication: Adjudication,
    /// Engine options (name, value) sent to both engines; the game's rule options among
    /// them also rule the referee.
    pub options: Vec<(String, String)>,
    /// Slack on top of a move's time allowance before it loses on time.
    pub margin: Duration,
    /// Longest wait for an answer that no time control bounds (start-up, `isready`, moves
    /// under depth or node limits): past it the engine is taken as hung.
    pub timeout: Duration,
    pub sprt: Option<Sprt>,
    pub log: Option<PathBuf>,
    /// Keep the games `log` already holds, from this match cut off earlier (its settings
    /// must be these), and play only the rest: hours of games survive a stopped machine.
    pub resume: bool,
    /// Draw a progress bar on stderr.
    pub progress: bool,
    /// The part of the game pairs to play: pair `p` belongs to shard `p % N + 1`. A shard
    /// plays all of its pairs (an SPRT verdict is reported, not acted on), so the shards'
    /// logs merge into exactly the unsharded match.
    pub shard: Shard,
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
        let options: Vec<String> = self
            .options
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        [
            format!("game={}", self.game),
            engine(0),
            engine(1),
            format!(
                "openings={}",
                self.openings
                    .as_ref()
                    .map_or_else(|| "built-in".to_string(), |p| p.display().to_string())
            ),
            format!("seed={}", self.seed),
            format!("games={}", 2 * self.games.div_ceil(2)),
            format!("max_moves={}", self.adjudication.max_plies),
            format!("repetition_draw={}", self.adjudication.repetition_draw),
            format!("options={}", options.join(";")),
            format!(
                "sprt={}",
                self.sprt.map_or_else(|| "-".to_string(), |s| s.to_string())
            ),
        ]
        .map(|field| field.replace(['\t', '\n', '\r'], " "))
        .join("\t")
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
    if config.concurrency == 0 {
        return Err("concurrency must be at least 1".into());
    }
    with_game(&config.game, Run { config })?
}

struct Run<'a> {
    config: &'a MatchConfig,
}

impl GameVisitor for Run<'_> {
    type Output = Result<MatchReport, String>;

    fn visit<G: Game>(self) -> Result<MatchReport, String> {
        run_game::<G>(self.config)
    }
}

/// What the workers share.
struct Shared<'a, G: Game> {
    config: &'a MatchConfig,
    /// The rule options among the engine options, for the log.
    rule_options: Vec<(String, String)>,
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
    /// The engine (0 or 1) that lost by failing, and how.
    failure: Option<(usize, FailureKind)>,
}

fn run_game<G: Game>(config: &MatchConfig) -> Result<MatchReport, String> {
    let mut rules = G::Rules::default();
    let mut rule_options = Vec::new();
    for (name, value) in &config.options {
        if G::set_rule_option(&mut rules, name, value)? {
            rule_options.push((name.clone(), value.clone()));
        }
    }
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
    let pairs = config.games.div_ceil(2);
    if pairs > openings.len() {
        tracing::warn!(
            "{pairs} game pairs but {} openings ({source}): openings repeat, so the games \
             of deterministic engines repeat too",
            openings.len()
        );
    }
    // Fail fast on a wrong command or option instead of losing every game; learn what the
    // engines call themselves for the log.
    let mut id_names: [Option<String>; 2] = [None, None];
    for (engine, id_name) in config.engines.iter().zip(&mut id_names) {
        let process = Engine::start(
            &engine.name,
            &engine.command,
            G::NAME,
            &config.options,
            config.timeout,
        )?;
        *id_name = process.id_name().map(str::to_string);
    }
    let engines_line = log::engines_line(id_names.each_ref().map(Option::as_deref));
    let mut games: Vec<usize> = (0..2 * pairs)
        .filter(|&index| config.shard.owns(index / 2))
        .collect();
    if games.is_empty() {
        return Err(format!(
            "shard {} has no games: {pairs} pairs in all",
            config.shard
        ));
    }
    let resumed = match &config.log {
        Some(path) if config.resume && path.exists() => {
            resumed_games(config, path, &games, &engines_line)?
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
                .and_then(|()| writeln!(writer, "{SETTINGS}\t{}", config.settings()))
                .and_then(|()| writeln!(writer, "{engines_line}"))
                .map_err(|e| format!("cannot write the log: {e}"))?;
            Some(writer)
        }
        None => None,
    };
    let shared = Shared::<G> {
        config,
        rule_options,
        openings,
        games,
        next_game: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let names = config.engines.clone().map(|e| e.name);
    let mut report = MatchReport::new(names, config.sprt);
    let mut pair_scores: HashMap<usize, (usize, usize, usize)> = HashMap::new();
    for record in &resumed {
        report.add_record(record, &mut pair_scores);
    }
    if report.verdict.is_some() && config.shard.is_whole() {
        shared.stop.store(true, Ordering::SeqCst);
    }
    let progress = progress_bar(config.progress, (resumed.len() + shared.games.len()) as u64);
    progress.inc(resumed.len() as u64);
    progress.set_message(report.score_line());
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
            report.add_game(index, record.outcome, failure, &mut pair_scores);
            if report.verdict.is_some() && config.shard.is_whole() {
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
            progress.set_message(report.score_line());
        }
        Ok::<(), String>(())
    })?;
    progress.finish_and_clear();
    match log_error {
        Some(error) => Err(error),
        None => Ok(report),
    }
}

/// The games of the log at `path` when a match resumes: the log must come from a match with
/// these settings, and hold each game once and only games of this shard (`games`, 0-based).
/// If it names the engines that played (`#engines`, `engines_line` is ours), they must be
/// the same: the rest of a match is not played by another version.
fn resumed_games(
    config: &MatchConfig,
    path: &Path,
    games: &[usize],
    engines_line: &str,
) -> Result<Vec<GameRecord>, String> {
    let (logged, ours) = (log::settings(path)?, config.settings());
    if logged != ours {
        return Err(format!(
            "cannot resume {}: it comes from a match with other settings: {}",
            path.display(),
            log::differences(&logged, &ours)
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
    let records = log::read_log_file(path)?;
    for (i, record) in records.iter().enumerate() {
        if !games.contains(&(record.number - 1)) {
            return Err(format!(
                "cannot resume {}: game {} is not one of shard {}'s games",
                path.display(),
                record.number,
                config.shard
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

/// A worker: plays the next game until none is left or the match is stopped.
fn play_games<G: Game>(shared: &Shared<G>, sender: &Sender<Finished>) {
    let mut engines: [Option<Engine>; 2] = [None, None];
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

/// One game; `None` when the match was stopped during it. `engines` are indexed by engine
/// (0 = first); a failed engine is dropped and started afresh for the next game.
fn play_game<G: Game>(
    shared: &Shared<G>,
    index: usize,
    engines: &mut [Option<Engine>; 2],
) -> Option<Finished> {
    let config = shared.config;
    let start = &shared.openings[(index / 2) % shared.openings.len()];
    // The engine playing each player: the first engine is player 1 in even games.
    let engine_of = if index.is_multiple_of(2) {
        [0, 1]
    } else {
        [1, 0]
    };
    let name = |engine: usize| config.engines[engine].name.clone();
    let mut record = GameRecord {
        number: index + 1,
        game: G::NAME.to_string(),
        players: engine_of.map(name),
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
        record.reason = format!("{} loses: {kind}: {why}", config.engines[engine].name);
        Some(Finished {
            index,
            record,
            failure: Some((engine, kind)),
        })
    };
    for (engine, slot) in engines.iter_mut().enumerate() {
        let spec = &config.engines[engine];
        if slot.is_none() {
            match Engine::start(
                &spec.name,
                &spec.command,
                G::NAME,
                &config.options,
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
        [Player::One, Player::Two].map(|p| config.engines[engine_of[p.index()]].tc.start_clock());
    let increments =
        [Player::One, Player::Two].map(|p| config.engines[engine_of[p.index()]].tc.increment());
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
        let tc = config.engines[engine].tc;
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
