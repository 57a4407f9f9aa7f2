//! One game's protocol state: rules, position, searcher (or built-in player), the draw
//! adjudication options and the running search.
//!
//! [`Session<G>`] is written once against [`Game`]; the command loop sees it through the
//! object-safe [`GameSession`], so a new game needs only its entry in [`crate::game::with_game`].

use super::go::GoParams;
use super::output::Output;
use crate::cli::play_moves;
use crate::game::{Game, Outcome, Player};
use crate::matches::Adjudication;
use crate::perft;
use crate::players::{Bot, BotKind, random_seed};
use crate::search::{Info, Searcher};
use std::fmt::Display;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// Stack of the search thread: deep recursion with move lists on the stack.
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// What the command loop needs from a game, independent of its types.
pub(crate) trait GameSession {
    /// The game's name (its `Game` option value).
    fn name(&self) -> &'static str;
    /// The game's rule options as text after `option name `.
    fn rule_options(&self) -> &'static [&'static str];
    /// Sets a rule option and replays the current position under the new rules.
    /// `Ok(false)`: not an option of this game. On `Err` nothing changed.
    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<bool, String>;
    /// Allocates a table of the new size now, so that a size too large for the machine is
    /// reported; on `Err` the old table stays.
    fn set_hash(&mut self, megabytes: usize) -> Result<(), String>;
    /// Allocates the searcher if that has not happened yet (`isready`).
    fn prepare(&mut self);
    /// Sets the draw rules the game's rules lack (`MaxPlies`, `RepetitionDraw`).
    fn set_adjudication(&mut self, adjudication: Adjudication);
    /// Clears the search tables and goes back to the start position.
    fn new_game(&mut self);
    /// Replaces the position by `start` (`None`: the start position) plus `moves`, or
    /// leaves it unchanged and explains why not.
    fn set_position(&mut self, start: Option<&str>, moves: &[&str]) -> Result<(), String>;
    /// Starts a search on its own thread; it prints `info` lines and one `bestmove`.
    fn go(&mut self, params: &GoParams, multipv: usize, out: &Output) -> Result<(), String>;
    /// Whether a search is running (one that has printed its `bestmove` is not: it is
    /// joined here and its searcher taken back).
    fn is_searching(&mut self) -> bool;
    /// Asks a running search to stop and waits for it (its `bestmove` is then printed).
    fn stop(&mut self);
    fn game_over(&self) -> bool;
    fn p1_to_move(&self) -> bool;
    /// `p1win`, `p2win`, `draw` or `none`.
    fn result(&self) -> &'static str;
    fn diagram(&self) -> String;
    /// Perft divided by first move: the `<move>: <count>` lines and the total.
    fn perft(&self, depth: u32) -> (Vec<String>, u64);
}

/// What answers `go`: the search, or a built-in player (`shove --player`).
enum Mover<G: Game> {
    Search(Searcher<G>),
    Bot(Bot),
}

/// A search running on its own thread, which hands the mover back when it ends.
struct Running<G: Game> {
    handle: JoinHandle<Mover<G>>,
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it prints `bestmove`.
    done: Arc<AtomicBool>,
}

pub(crate) struct Session<G: Game> {
    rules: G::Rules,
    /// How the current position was given: `None` for the start position, else the
    /// position string; with `moves` it is replayed when a rule option changes.
    start: Option<String>,
    moves: Vec<String>,
    position: G,
    /// Hashes of the positions before `position` since `start` (repetition detection).
    history: Vec<u64>,
    hash_megabytes: usize,
    /// `None` until first needed, and while a search owns it.
    searcher: Option<Searcher<G>>,
    /// The built-in player that moves instead of the search; `None` while a search owns it.
    bot: Option<Bot>,
    adjudication: Adjudication,
    running: Option<Running<G>>,
}

impl<G: Game> Session<G> {
    pub(crate) fn new(hash_megabytes: usize, player: Option<BotKind>) -> Session<G> {
        let rules = G::Rules::default();
        Session {
            rules,
            start: None,
            moves: Vec::new(),
            position: G::start(rules),
            history: Vec::new(),
            hash_megabytes,
            searcher: None,
            bot: player.map(|kind| Bot::new(kind, random_seed())),
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
        let megabytes = self.hash_megabytes;
        self.searcher.get_or_insert_with(|| {
            tracing::debug!(megabytes, "allocating the searcher");
            Searcher::new(megabytes)
        })
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
    fn outcome(&self) -> Option<Outcome> {
        self.adjudication.outcome(&self.position, &self.history)
    }
}

fn info_line<M: Display>(info: &Info<M>) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        info.nodes,
        info.nps,
        info.time.as_millis(),
        info.hashfull
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for mv in &info.pv {
            line.push(' ');
            line.push_str(&mv.to_string());
        }
    }
    line
}

impl<G: Game> GameSession for Session<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn rule_options(&self) -> &'static [&'static str] {
        G::rule_options()
    }

    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let mut rules = self.rules;
        if !G::set_rule_option(&mut rules, name, value)? {
            return Ok(false);
        }
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        let (position, history) =
            Self::build(rules, self.start.as_deref(), &moves).map_err(|e| {
                format!(
                    "option {name} = {value} does not fit the current position ({e}); \
                     the rules stay as they were"
                )
            })?;
        self.rules = rules;
        self.position = position;
        self.history = history;
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
                let mut searcher = Searcher::new(0);
                searcher.set_hash(megabytes)?;
                self.searcher = Some(searcher);
            }
        }
        self.hash_megabytes = megabytes;
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
        self.position = G::start(self.rules);
        self.history.clear();
    }

    fn set_position(&mut self, start: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let (position, history) = Self::build(self.rules, start, moves)?;
        self.start = start.map(str::to_string);
        self.moves = moves.iter().map(|m| m.to_string()).collect();
        self.position = position;
        self.history = history;
        Ok(())
    }

    fn go(&mut self, params: &GoParams, multipv: usize, out: &Output) -> Result<(), String> {
        let limits = params.limits(self.position.to_move())?;
        let over = self.outcome().is_some();
        let megabytes = self.hash_megabytes;
        let (mut mover, stop) = match self.bot.take() {
            Some(bot) => (Mover::Bot(bot), Arc::new(AtomicBool::new(false))),
            None => {
                let searcher = self
                    .searcher
                    .take()
                    .unwrap_or_else(|| Searcher::new(megabytes));
                let stop = searcher.stop_flag();
                (Mover::Search(searcher), stop)
            }
        };
        stop.store(false, Ordering::SeqCst);
        let done = Arc::new(AtomicBool::new(false));
        let root = self.position.clone();
        let history = self.history.clone();
        let out = out.clone();
        let (thread_stop, thread_done) = (Arc::clone(&stop), Arc::clone(&done));
        tracing::debug!(?limits, multipv, position = %root, "search starts");
        let handle = thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let best = match &mut mover {
                    // An adjudicated game is over although the rules still offer moves.
                    _ if over => None,
                    Mover::Bot(bot) => bot.choose(&root, &thread_stop),
                    Mover::Search(searcher) => {
                        let result =
                            searcher.search(&root, &history, &limits, multipv, &mut |info| {
                                out.line(&info_line(info));
                            });
                        tracing::debug!(
                            best = ?result.best,
                            score = %result.score,
                            depth = result.depth,
                            nodes = result.nodes,
                            "search ends"
                        );
                        result.best
                    }
                };
                // `go infinite` answers only after `stop`, even if the search ran out of
                // depth first; `stop` unparks this thread.
                while limits.infinite && !thread_stop.load(Ordering::SeqCst) {
                    thread::park_timeout(Duration::from_millis(100));
                }
                thread_done.store(true, Ordering::SeqCst);
                out.line(&format!(
                    "bestmove {}",
                    best.map_or_else(|| "(none)".to_string(), |m| m.to_string())
                ));
                mover
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.running = Some(Running { handle, stop, done });
        Ok(())
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

    fn game_over(&self) -> bool {
        self.outcome().is_some()
    }

    fn p1_to_move(&self) -> bool {
        self.position.to_move() == Player::One
    }

    fn result(&self) -> &'static str {
        match self.outcome() {
            None => "none",
            Some(Outcome::Win(Player::One)) => "p1win",
            Some(Outcome::Win(Player::Two)) => "p2win",
            Some(Outcome::Draw) => "draw",
        }
    }

    fn diagram(&self) -> String {
        self.position.diagram()
    }

    fn perft(&self, depth: u32) -> (Vec<String>, u64) {
        if depth == 0 {
            return (Vec::new(), 1);
        }
        let divided = perft::divide(&self.position, depth);
        let total = divided.iter().map(|&(_, count)| count).sum();
        let lines = divided
            .iter()
            .map(|(mv, count)| format!("{mv}: {count}"))
            .collect();
        (lines, total)
    }
}

impl<G: Game> Drop for Session<G> {
    fn drop(&mut self) {
        self.stop();
    }
}
