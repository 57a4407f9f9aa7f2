//! One game's protocol state: rules, position, searcher (or built-in player), the draw
//! adjudication options and the running search.
//!
//! [`Session<G>`] is written once against [`Game`]; the command loop sees it through the
//! object-safe [`GameSession`], so a new game needs only its entry in [`crate::games::with_game`].

use super::go::GoParams;
use super::output::Output;
use crate::cli::play_moves;
use crate::game::Game;
use crate::game::{Outcome, Player};
use crate::matches::Adjudication;
use crate::nnue::{self, EvalKind, Network};
use crate::options::{RuleInfo, RuleOption};
use crate::perft;
use crate::players::{Bot, BotKind, random_seed};
use crate::profile::Profile;
use crate::search::{ParamChanges, Score, SearchParams, Searcher, Skill};
use crate::search_hints::SearchHints;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Stack of the search thread: deep recursion with move lists on the stack.
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// What the command loop needs from a game, independent of its types.
pub(crate) trait GameSession {
    /// The game's name (its `Game` option value).
    fn name(&self) -> &'static str;
    /// The game's rule options.
    fn rule_options(&self) -> Vec<RuleInfo>;
    /// Sets a rule option and replays the current position under the new rules.
    /// `Ok(false)`: not an option of this game. On `Err` nothing changed.
    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<bool, String>;
    /// Allocates a table of the new size now, so that a size too large for the machine is
    /// reported; on `Err` the old table stays.
    fn set_hash(&mut self, megabytes: usize) -> Result<(), String>;
    /// Searches with this many threads from now on.
    fn set_threads(&mut self, threads: usize);
    /// Empties the search tables (`Clear Hash`).
    fn clear_hash(&mut self);
    /// The evaluation the game uses unless told otherwise.
    fn default_evaluation(&self) -> EvalKind;
    /// Evaluates with `kind` (the game's default when `None`) and the network in `file`
    /// (the built-in one when `None`); on `Err` the evaluation in force stays.
    fn set_evaluation(&mut self, kind: Option<EvalKind>, file: Option<&Path>)
    -> Result<(), String>;
    /// Searches with the game's margins changed by `changes` (the `SearchParams` option);
    /// on `Err` (a name this game's search does not have) nothing changed.
    fn set_search_params(&mut self, changes: &ParamChanges) -> Result<(), String>;
    /// Allocates the searcher if that has not happened yet (`isready`).
    fn prepare(&mut self);
    /// Sets the draw rules the game's rules lack (`MaxPlies`, `RepetitionDraw`).
    fn set_adjudication(&mut self, adjudication: Adjudication);
    /// Clears the search tables and goes back to the start position.
    fn new_game(&mut self);
    /// Replaces the position by `start` (`None`: the start position) plus `moves`, or
    /// changes nothing and explains why not.
    fn set_position(&mut self, start: Option<&str>, moves: &[&str]) -> Result<(), String>;
    /// After a rejected `position`: no position until the next valid one, so that nothing
    /// the GUI did not send is ever searched.
    fn forget_position(&mut self);
    /// Answers `go …` with exactly one `bestmove`: prints an error line for what it cannot
    /// use and starts a search with the rest on its own thread (which prints `info` lines
    /// and the `bestmove`), or answers `bestmove 0000` at once without a position.
    fn go(&mut self, args: &[&str], settings: &GoSettings, out: &Output);
    /// `ponderhit`: the running `go ponder` search becomes a timed one.
    fn ponderhit(&mut self) -> Result<(), String>;
    /// Whether a search is running (one that has printed its `bestmove` is not: it is
    /// joined here and its searcher taken back).
    fn is_searching(&mut self) -> bool;
    /// Asks a running search to stop and waits for it (its `bestmove` is then printed).
    fn stop(&mut self);
    fn game_over(&self) -> Result<bool, String>;
    fn p1_to_move(&self) -> Result<bool, String>;
    /// `p1win`, `p2win`, `draw` or `none`.
    fn result(&self) -> Result<&'static str, String>;
    fn diagram(&self) -> Result<String, String>;
    /// Perft divided by first move: the `<move>: <count>` lines and the total.
    fn perft(&self, depth: u32) -> Result<(Vec<String>, u64), String>;
}

/// The engine options that shape a `go`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GoSettings {
    pub multipv: usize,
    /// `Ponder`: `bestmove` names the expected reply (`ponder <move>`).
    pub ponder: bool,
    pub move_overhead: Duration,
    /// `Skill Level`.
    pub skill: Skill,
    /// `UCI_Elo` while `UCI_LimitStrength` is on: it decides the level, by the game's table.
    pub elo: Option<i32>,
}

/// Why there is no position to work on.
const NO_POSITION: &str = "no valid position (the last 'position' command was rejected)";

/// What answers `go`: the search, or a built-in player (`shove --player`).
enum Mover<G: SearchHints> {
    Search(Searcher<G>),
    Bot(Box<Bot>),
}

/// A search running on its own thread, which hands the mover back when it ends.
struct Running<G: SearchHints> {
    handle: JoinHandle<Mover<G>>,
    stop: Arc<AtomicBool>,
    /// Set while a `go ponder` search waits for `ponderhit`.
    ponder: Arc<AtomicBool>,
    /// Set by the search thread just before it prints `bestmove`.
    done: Arc<AtomicBool>,
}

pub(crate) struct Session<G: Profile> {
    rules: G::Rules,
    /// How the current position was given: `None` for the start position, else the
    /// position string; with `moves` it is replayed when a rule option changes.
    start: Option<String>,
    moves: Vec<String>,
    /// `None` after a rejected `position` command, until the next valid one.
    position: Option<G>,
    /// Hashes of the positions before `position` since `start` (repetition detection).
    history: Vec<u64>,
    hash_megabytes: usize,
    threads: usize,
    /// The network searches evaluate with; `None`: the classical evaluation.
    network: Option<Arc<Network>>,
    /// The search's margins: the game's own, changed by the `SearchParams` option.
    params: SearchParams,
    /// `None` until first needed, and while a search owns it.
    searcher: Option<Searcher<G>>,
    /// The built-in player that moves instead of the search; `None` while a search owns it.
    bot: Option<Box<Bot>>,
    adjudication: Adjudication,
    running: Option<Running<G>>,
}

impl<G: Profile> Session<G> {
    /// A session at the start position under the default rules changed by those of
    /// `rule_options` (name, value) that are this game's.
    pub(crate) fn new(
        hash_megabytes: usize,
        threads: usize,
        player: Option<BotKind>,
        rule_options: &[(String, String)],
    ) -> Session<G> {
        let mut rules = G::Rules::default();
        for (name, value) in rule_options {
            let mut changed = rules;
            if G::set_rule_option(&mut changed, name, value) == Ok(true) {
                rules = changed;
            }
        }
        Session {
            rules,
            start: None,
            moves: Vec::new(),
            position: Some(G::start(rules)),
            history: Vec::new(),
            hash_megabytes,
            threads,
            network: nnue::choice::resolve::<G>(None, None).unwrap_or_else(|error| {
                tracing::error!(%error, "falling back to the classical evaluation");
                None
            }),
            params: SearchParams::of::<G>(),
            searcher: None,
            bot: player.map(|kind| Box::new(Bot::new(kind, random_seed()))),
            adjudication: Adjudication::default(),
            running: None,
        }
    }

    /// The position `start` + `moves` under `rules`, with its history.
    fn build(
        rules: G::Rules,
        start: Option<&str>,
        moves: &[&str],
    ) -> Result<(G, Vec<u64>), String> {
        let mut position = match start {
            None => G::start(rules),
            Some(text) => G::parse(text, rules).map_err(|e| format!("bad position string: {e}"))?,
        };
        let history = play_moves(&mut position, &moves.join(" "))?;
        Ok((position, history))
    }

    fn searcher(&mut self) -> &mut Searcher<G> {
        let (megabytes, threads, params) = (self.hash_megabytes, self.threads, self.params);
        let network = &self.network;
        self.searcher.get_or_insert_with(|| {
            tracing::debug!(megabytes, threads, "allocating the searcher");
            new_searcher(megabytes, threads, network, params)
        })
    }

    fn current(&self) -> Result<&G, String> {
        self.position
            .as_ref()
            .ok_or_else(|| NO_POSITION.to_string())
    }

    fn join(&mut self) {
        if let Some(running) = self.running.take() {
            match running.handle.join() {
                Ok(Mover::Search(searcher)) => self.searcher = Some(searcher),
                Ok(Mover::Bot(bot)) => self.bot = Some(bot),
                Err(_) => tracing::error!("the search thread panicked; its tables are lost"),
            }
        }
    }

    /// The result of the game, by the rules or by the adjudication options.
    fn outcome(&self) -> Result<Option<Outcome>, String> {
        Ok(self.adjudication.outcome(self.current()?, &self.history))
    }
}

/// A searcher with the session's table size, threads and evaluation. Every searcher a
/// session makes comes from here, so one made by `go` or `Hash` before any `isready`
/// evaluates as `Evaluation` and `EvalFile` say, as one made by `isready` does.
fn new_searcher<G: SearchHints>(
    megabytes: usize,
    threads: usize,
    network: &Option<Arc<Network>>,
    params: SearchParams,
) -> Searcher<G> {
    let mut searcher = Searcher::new(megabytes);
    searcher.set_threads(threads);
    searcher.set_network(network.clone());
    searcher.set_params(params);
    searcher
}

/// The legal moves among `texts` (`go searchmoves`), and an error naming the others.
fn search_moves<G: Game>(position: &G, texts: &[String]) -> (Vec<G::Move>, Option<String>) {
    let mut moves = Vec::new();
    let mut problems = Vec::new();
    for text in texts {
        match position.parse_move(text) {
            Ok(mv) => moves.push(mv),
            Err(e) => problems.push(e.to_string()),
        }
    }
    if problems.is_empty() {
        return (moves, None);
    }
    let searched = if moves.is_empty() {
        "all moves"
    } else {
        "the others"
    };
    let problem = format!(
        "go: searchmoves: {}; searching {searched}",
        problems.join("; ")
    );
    (moves, Some(problem))
}

impl<G: Profile> GameSession for Session<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn rule_options(&self) -> Vec<RuleInfo> {
        G::rule_options().iter().map(RuleOption::info).collect()
    }

    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let mut rules = self.rules;
        if !G::set_rule_option(&mut rules, name, value)? {
            return Ok(false);
        }
        if self.position.is_some() {
            let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
            let (position, history) =
                Self::build(rules, self.start.as_deref(), &moves).map_err(|e| {
                    format!(
                        "option {name} = {value} does not fit the current position ({e}); \
                         the rules stay as they were"
                    )
                })?;
            self.position = Some(position);
            self.history = history;
        }
        self.rules = rules;
        // Table entries were computed under the old rules.
        if let Some(searcher) = &mut self.searcher {
            searcher.clear();
        }
        Ok(true)
    }

    fn set_hash(&mut self, megabytes: usize) -> Result<(), String> {
        match &mut self.searcher {
            Some(searcher) => searcher.set_hash(megabytes)?,
            None => {
                let mut searcher = new_searcher(0, self.threads, &self.network, self.params);
                searcher.set_hash(megabytes)?;
                self.searcher = Some(searcher);
            }
        }
        self.hash_megabytes = megabytes;
        Ok(())
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
        if let Some(searcher) = &mut self.searcher {
            searcher.set_threads(threads);
        }
    }

    fn clear_hash(&mut self) {
        if let Some(searcher) = &mut self.searcher {
            searcher.clear();
        }
    }

    fn default_evaluation(&self) -> EvalKind {
        EvalKind::default_for::<G>()
    }

    fn set_evaluation(
        &mut self,
        kind: Option<EvalKind>,
        file: Option<&Path>,
    ) -> Result<(), String> {
        self.network = nnue::choice::resolve::<G>(kind, file)?;
        if let Some(searcher) = &mut self.searcher {
            searcher.set_network(self.network.clone());
        }
        Ok(())
    }

    fn set_search_params(&mut self, changes: &ParamChanges) -> Result<(), String> {
        self.params = SearchParams::of::<G>().changed(changes)?;
        if let Some(searcher) = &mut self.searcher {
            searcher.set_params(self.params);
        }
        Ok(())
    }

    fn prepare(&mut self) {
        // A built-in player needs no table (it is in its slot whenever nothing runs).
        if self.running.is_none() && self.bot.is_none() {
            self.searcher();
        }
    }

    fn set_adjudication(&mut self, adjudication: Adjudication) {
        self.adjudication = adjudication;
    }

    fn new_game(&mut self) {
        if let Some(searcher) = &mut self.searcher {
            searcher.clear();
        }
        self.start = None;
        self.moves.clear();
        self.position = Some(G::start(self.rules));
        self.history.clear();
    }

    fn set_position(&mut self, start: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let (position, history) = Self::build(self.rules, start, moves)?;
        self.start = start.map(str::to_string);
        self.moves = moves.iter().map(|m| m.to_string()).collect();
        self.position = Some(position);
        self.history = history;
        Ok(())
    }

    fn forget_position(&mut self) {
        self.position = None;
        self.start = None;
        self.moves.clear();
        self.history.clear();
    }

    fn go(&mut self, args: &[&str], settings: &GoSettings, out: &Output) {
        let received = Instant::now();
        let Some(position) = &self.position else {
            out.error(NO_POSITION);
            out.line("bestmove 0000");
            return;
        };
        let (params, problems) = GoParams::parse(args);
        if let Some(problems) = problems {
            out.error(&problems);
        }
        let (search_moves, problem) = search_moves(position, &params.search_moves);
        if let Some(problem) = problem {
            out.error(&problem);
        }
        let (mut limits, note) = params.limits(position.to_move(), settings.move_overhead);
        limits.received = Some(received);
        if let Some(note) = note {
            out.line(&format!("info string {note}"));
        }
        let over = matches!(self.outcome(), Ok(Some(_)));
        let root = position.clone();
        let history = self.history.clone();
        let (threads, megabytes, params) = (self.threads, self.hash_megabytes, self.params);
        let network = &self.network;
        let (mut mover, stop, ponder) = match self.bot.take() {
            Some(bot) => (
                Mover::Bot(bot),
                Arc::new(AtomicBool::new(false)),
                Arc::new(AtomicBool::new(false)),
            ),
            None => {
                let mut searcher = self
                    .searcher
                    .take()
                    .unwrap_or_else(|| new_searcher(megabytes, threads, network, params));
                searcher.set_search_moves(&search_moves);
                let (stop, ponder) = (searcher.stop_flag(), searcher.ponder_flag());
                (Mover::Search(searcher), stop, ponder)
            }
        };
        stop.store(false, Ordering::SeqCst);
        ponder.store(limits.ponder, Ordering::SeqCst);
        let done = Arc::new(AtomicBool::new(false));
        let thread_out = out.clone();
        let (thread_stop, thread_ponder, thread_done) =
            (Arc::clone(&stop), Arc::clone(&ponder), Arc::clone(&done));
        let skill = settings
            .elo
            .map_or(settings.skill, |elo| Skill::from_elo(elo, &G::LEVEL_ELO));
        let limits = skill.limits(&limits);
        let multipv = skill.lines(settings.multipv, G::LEVEL_0_LINES);
        let seed = root.hash();
        let name_reply = settings.ponder;
        tracing::debug!(?limits, multipv, position = %root, "search starts");
        let spawned = thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let (best, reply) = match &mut mover {
                    // An adjudicated game is over although the rules still offer moves.
                    _ if over => (None, None),
                    Mover::Bot(bot) => (bot.choose(&root, &thread_stop), None),
                    Mover::Search(searcher) => {
                        // The latest score and first move of each line, for a weak level.
                        let mut lines: Vec<(Score, G::Move)> = Vec::new();
                        let result =
                            searcher.search(&root, &history, &limits, multipv, &mut |info| {
                                thread_out.line(&info.to_string());
                                if let Some(&mv) = info.pv.first() {
                                    let line = (info.score, mv);
                                    match lines.get_mut(info.multipv - 1) {
                                        Some(slot) => *slot = line,
                                        None => lines.push(line),
                                    }
                                }
                            });
                        tracing::debug!(
                            best = ?result.best,
                            score = %result.score,
                            depth = result.depth,
                            nodes = result.nodes,
                            "search ends"
                        );
                        match skill.pick(&lines, seed) {
                            Some(pick) if skill.enabled() && result.best.is_some() => {
                                (Some(pick), None)
                            }
                            _ => (result.best, result.pv.get(1).copied()),
                        }
                    }
                };
                // `go infinite` answers only after `stop`, `go ponder` after `stop` or
                // `ponderhit`, even if the search ended before; both unpark this thread.
                while (limits.infinite || thread_ponder.load(Ordering::SeqCst))
                    && !thread_stop.load(Ordering::SeqCst)
                {
                    thread::park_timeout(Duration::from_millis(100));
                }
                thread_done.store(true, Ordering::SeqCst);
                let mut line = format!(
                    "bestmove {}",
                    best.map_or_else(|| "(none)".to_string(), |m| m.to_string())
                );
                if let (true, Some(_), Some(reply)) = (name_reply, best, reply) {
                    line.push_str(&format!(" ponder {reply}"));
                }
                thread_out.line(&line);
                mover
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    stop,
                    ponder,
                    done,
                })
            }
            Err(e) => {
                // The mover went down with the closure: the next `go` makes a new one.
                out.error(&format!("cannot start the search thread: {e}"));
                out.line("bestmove 0000");
            }
        }
    }

    fn ponderhit(&mut self) -> Result<(), String> {
        match &self.running {
            Some(running)
                if !running.done.load(Ordering::SeqCst)
                    && running.ponder.swap(false, Ordering::SeqCst) =>
            {
                running.handle.thread().unpark();
                Ok(())
            }
            _ => Err("ponderhit: no search is pondering".into()),
        }
    }

    fn is_searching(&mut self) -> bool {
        match &self.running {
            None => false,
            Some(running) if running.done.load(Ordering::SeqCst) => {
                self.join();
                false
            }
            Some(_) => true,
        }
    }

    fn stop(&mut self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::SeqCst);
            running.handle.thread().unpark();
        }
        self.join();
    }

    fn game_over(&self) -> Result<bool, String> {
        Ok(self.outcome()?.is_some())
    }

    fn p1_to_move(&self) -> Result<bool, String> {
        Ok(self.current()?.to_move() == Player::One)
    }

    fn result(&self) -> Result<&'static str, String> {
        Ok(match self.outcome()? {
            None => "none",
            Some(Outcome::Win(Player::One)) => "p1win",
            Some(Outcome::Win(Player::Two)) => "p2win",
            Some(Outcome::Draw) => "draw",
        })
    }

    fn diagram(&self) -> Result<String, String> {
        Ok(self.current()?.diagram())
    }

    fn perft(&self, depth: u32) -> Result<(Vec<String>, u64), String> {
        let position = self.current()?;
        if depth == 0 {
            return Ok((Vec::new(), 1));
        }
        let divided = perft::divide(position, depth);
        let total = divided.iter().map(|&(_, count)| count).sum();
        let lines = divided
            .iter()
            .map(|(mv, count)| format!("{mv}: {count}"))
            .collect();
        Ok((lines, total))
    }
}

impl<G: Profile> Drop for Session<G> {
    fn drop(&mut self) {
        self.stop();
    }
}
