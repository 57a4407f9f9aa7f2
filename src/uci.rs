//! The engine protocol on stdin/stdout: UCI-style commands with the UGI additions (`ugi`,
//! `uginewgame`, `query`, `p1time`…), as described in `protocol.md`.
//!
//! The command loop reads and answers commands on the calling thread; `go` starts the search
//! on a thread of its own, which owns the [`crate::search::Searcher`] until it has printed
//! `bestmove` and hands it back when joined. So `isready`, `stop`, `quit` and the read-only
//! commands are answered while a search runs, and commands that would change the state the
//! search depends on are refused until it ends.

mod go;
mod output;
mod session;

use crate::cli::{MAX_HASH_MB, MAX_PERFT_DEPTH, MAX_THREADS};
use crate::game::Game;
use crate::games::{GAME_NAMES, GameVisitor, with_game};
use crate::matches::Adjudication;
use crate::nnue::EvalKind;
use crate::nnue::choice::{self, EMBEDDED};
use crate::players::BotKind;
use crate::search::{ParamChanges, Skill};
use output::Output;
use session::{GameSession, GoSettings, Session};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Default transposition table size in MB (the `Hash` option).
pub const DEFAULT_HASH_MB: usize = 64;
pub use crate::search::MAX_MULTIPV;
/// Largest `MaxPlies` value.
pub const MAX_PLIES_LIMIT: usize = 1_000_000;
/// Default `Move Overhead` in ms: the time kept per move for sending it.
pub const DEFAULT_MOVE_OVERHEAD_MS: usize = 20;
/// Largest `Move Overhead` value.
pub const MAX_MOVE_OVERHEAD_MS: usize = 5000;

/// Makes the session of the game it is given to.
struct NewSession<'a> {
    hash_megabytes: usize,
    threads: usize,
    player: Option<BotKind>,
    rule_options: &'a [(String, String)],
}

impl GameVisitor for NewSession<'_> {
    type Output = Box<dyn GameSession>;
    fn visit<G: Game>(self) -> Box<dyn GameSession> {
        Box::new(Session::<G>::new(
            self.hash_megabytes,
            self.threads,
            self.player,
            self.rule_options,
        ))
    }
}

/// Reads and checks a network file for the game it names.
struct CheckNetwork<'a>(&'a Path);

impl GameVisitor for CheckNetwork<'_> {
    type Output = Result<(), String>;
    fn visit<G: Game>(self) -> Result<(), String> {
        choice::load::<G>(self.0).map(|_| ())
    }
}

/// Whether an option is a rule option of a game, and its value a valid one there.
struct RuleOf<'a> {
    name: &'a str,
    value: &'a str,
}

impl GameVisitor for RuleOf<'_> {
    type Output = Result<bool, String>;
    fn visit<G: Game>(self) -> Result<bool, String> {
        G::set_rule_option(&mut G::Rules::default(), self.name, self.value).map_err(String::from)
    }
}

/// A network file chosen with `EvalFile`, and the game it is for.
struct EvalFile {
    path: PathBuf,
    game: String,
}

/// Runs the protocol on the process's stdin and stdout until `quit` or end of input.
/// `options` (name, value) are set first, as by `setoption` (the command line's rule flags);
/// with `player` a built-in player answers `go` instead of the search.
pub fn run_stdio(options: &[(&str, &str)], player: Option<BotKind>) -> Result<(), String> {
    run(io::stdin().lock(), io::stdout(), options, player)
}

/// Runs the protocol over any line source and sink (stdout in the binary, buffers in
/// tests) until `quit` or end of input; a running search is then stopped and its
/// `bestmove` printed before returning. Ends early if the output cannot be written.
pub fn run(
    mut input: impl BufRead,
    output: impl Write + Send + 'static,
    options: &[(&str, &str)],
    player: Option<BotKind>,
) -> Result<(), String> {
    let mut engine = Engine::new(Output::new(output), player);
    for (name, value) in options {
        let words: Vec<&str> = ["name", name, "value", value]
            .iter()
            .flat_map(|w| w.split_whitespace())
            .collect();
        engine.set_option(&words)?;
    }
    // What the command line set is the default that `uci` lists, and the rules a game
    // starts with when it is chosen again.
    engine.startup = options
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) => {
                tracing::debug!("end of input");
                break;
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the protocol input");
                break;
            }
        }
        let line = String::from_utf8_lossy(&buffer);
        if engine.command(&line) == Flow::Quit || engine.out.is_broken() {
            break;
        }
    }
    engine.session.stop();
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

struct Engine {
    out: Output,
    hash_megabytes: usize,
    threads: usize,
    multipv: usize,
    skill: Skill,
    /// `UCI_LimitStrength` and `UCI_Elo`: when set, the Elo decides the level (through the
    /// game's table at each `go`, so that the order of `Game` and these does not matter).
    limit_strength: bool,
    uci_elo: i32,
    ponder: bool,
    move_overhead: Duration,
    /// `Evaluation` as set (`None`: the game's default). Kept across changes of game, so
    /// that the engine does not depend on the order in which options were set.
    evaluation: Option<EvalKind>,
    /// `EvalFile` as set (`None`: the built-in network); it applies while its game is played.
    eval_file: Option<EvalFile>,
    /// `SearchParams`: changes to every game's search margins.
    search_params: ParamChanges,
    /// The options (name, value) given on the command line.
    startup: Vec<(String, String)>,
    /// The rule options (name, value) of every game, as last set on the command line or by
    /// `setoption`: a game chosen with `Game` starts with those that are its own.
    rules: Vec<(String, String)>,
    /// `MaxPlies` and `RepetitionDraw`: kept here so that they survive a change of game.
    adjudication: Adjudication,
    player: Option<BotKind>,
    session: Box<dyn GameSession>,
}

/// Commands refused while a search runs, because they change the tables or rules it works
/// with. (`position` is not among them: the search has its own copy of its position.)
const BUSY_COMMANDS: &[&str] = &["setoption", "ucinewgame", "uginewgame", "perft"];

impl Engine {
    fn new(out: Output, player: Option<BotKind>) -> Engine {
        let mut engine = Engine {
            out,
            hash_megabytes: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            skill: Skill::default(),
            limit_strength: false,
            uci_elo: crate::games::level_elo_range().0,
            ponder: false,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS as u64),
            evaluation: None,
            eval_file: None,
            search_params: ParamChanges::default(),
            startup: Vec::new(),
            rules: Vec::new(),
            adjudication: Adjudication::default(),
            player,
            session: Box::new(Session::<crate::akiba::Position>::new(
                DEFAULT_HASH_MB,
                1,
                player,
                &[],
            )),
        };
        engine.session = engine.new_session(GAME_NAMES[0]);
        engine
    }

    /// The session of one of [`GAME_NAMES`], with the rule options set so far.
    fn new_session(&self, game: &str) -> Box<dyn GameSession> {
        let session = NewSession {
            hash_megabytes: self.hash_megabytes,
            threads: self.threads,
            player: self.player,
            rule_options: &self.rules,
        };
        let mut session = with_game(game, session)
            .unwrap_or_else(|_| unreachable!("{game} is one of GAME_NAMES"));
        session.set_adjudication(self.adjudication);
        session
    }

    /// The value given on the command line for option `name`, or `default`.
    fn startup_value<'a>(&'a self, name: &str, default: &'a str) -> &'a str {
        self.startup
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map_or(default, |(_, v)| v.as_str())
    }

    /// Handles one input line.
    fn command(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, args)) = tokens.split_first() else {
            return Flow::Continue;
        };
        tracing::debug!(line = line.trim_end(), "received");
        let command = first.to_ascii_lowercase();
        if BUSY_COMMANDS.contains(&command.as_str()) && self.session.is_searching() {
            self.out.error(&format!(
                "'{first}' is not allowed while a search is running (send 'stop' first)"
            ));
            return Flow::Continue;
        }
        if command == "go" && self.session.is_searching() {
            // One `bestmove` per `go`, in order: the running search answers first.
            self.out
                .error("'go' while a search is running: stopping it first");
            self.session.stop();
        }
        let no_args = matches!(
            command.as_str(),
            "uci"
                | "ugi"
                | "isready"
                | "ucinewgame"
                | "uginewgame"
                | "stop"
                | "quit"
                | "d"
                | "ponderhit"
        );
        if no_args && !args.is_empty() {
            self.out.error(&format!(
                "'{first}' takes no arguments, got '{}'",
                args.join(" ")
            ));
            return Flow::Continue;
        }
        let result = match command.as_str() {
            "uci" => {
                self.identify("uciok");
                Ok(())
            }
            "ugi" => {
                self.identify("ugiok");
                Ok(())
            }
            "isready" => {
                if !self.session.is_searching() {
                    self.session.prepare();
                }
                self.out.line("readyok");
                Ok(())
            }
            "setoption" => self.set_option(args),
            "ucinewgame" | "uginewgame" => {
                self.session.new_game();
                Ok(())
            }
            "position" => self
                .position(args)
                .inspect_err(|_| self.session.forget_position()),
            "go" => {
                let settings = GoSettings {
                    multipv: self.multipv,
                    skill: self.skill,
                    elo: self.limit_strength.then_some(self.uci_elo),
                    ponder: self.ponder,
                    move_overhead: self.move_overhead,
                };
                self.session.go(args, &settings, &self.out);
                Ok(())
            }
            "ponderhit" => self.session.ponderhit(),
            "stop" => {
                self.session.stop();
                Ok(())
            }
            "quit" => return Flow::Quit,
            "query" => self.query(args),
            "d" => self.session.diagram().map(|diagram| {
                for line in diagram.lines().filter(|l| !l.trim().is_empty()) {
                    self.out.line(&format!("info string {line}"));
                }
            }),
            "perft" => self.perft(args),
            _ => Err(format!("unknown command '{first}'")),
        };
        if let Err(message) = result {
            self.out.error(&message);
        }
        Flow::Continue
    }

    /// The reply to `uci` / `ugi`: identity, options, then `ok`.
    fn identify(&self, ok: &str) {
        let out = &self.out;
        let player = self
            .player
            .map_or_else(String::new, |kind| format!(" player {kind}"));
        out.line(&format!(
            "id name shove {}{player}",
            env!("CARGO_PKG_VERSION")
        ));
        out.line("id author The shove developers");
        let default_hash = DEFAULT_HASH_MB.to_string();
        out.line(&format!(
            "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
            self.startup_value("Hash", &default_hash)
        ));
        out.line(&format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            self.startup_value("Threads", "1")
        ));
        out.line("option name Clear Hash type button");
        out.line(&format!(
            "option name Evaluation type combo default {} var classical var network",
            self.evaluation
                .unwrap_or_else(|| self.session.default_evaluation())
        ));
        out.line(&format!(
            "option name EvalFile type string default {}",
            self.startup_value("EvalFile", EMBEDDED)
        ));
        out.line(&format!(
            "option name SearchParams type string default {}",
            self.startup_value("SearchParams", "none")
        ));
        out.line("option name Ponder type check default false");
        out.line(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        out.line(&format!(
            "option name Skill Level type spin default {} min 0 max {}",
            self.startup_value("Skill Level", &Skill::MAX_LEVEL.to_string()),
            Skill::MAX_LEVEL
        ));
        let (elo_min, elo_max) = crate::games::level_elo_range();
        out.line(&format!(
            "option name UCI_LimitStrength type check default {}",
            self.startup_value("UCI_LimitStrength", "false")
                .to_ascii_lowercase()
        ));
        out.line(&format!(
            "option name UCI_Elo type spin default {} min {elo_min} max {elo_max}",
            self.startup_value("UCI_Elo", &elo_min.to_string())
        ));
        out.line(&format!(
            "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
        ));
        let vars: String = GAME_NAMES
            .iter()
            .map(|name| format!(" var {name}"))
            .collect();
        out.line(&format!(
            "option name Game type combo default {}{vars}",
            self.startup_value("Game", GAME_NAMES[0])
                .to_ascii_lowercase()
        ));
        out.line(&format!(
            "option name MaxPlies type spin default 0 min 0 max {MAX_PLIES_LIMIT}"
        ));
        out.line("option name RepetitionDraw type check default false");
        for option in self.session.rule_options() {
            out.line(&format!(
                "option name {}",
                self.with_startup_default(option)
            ));
        }
        out.line(ok);
    }

    /// A rule option line (`ExtraMove type check default true`) with the default replaced
    /// by the value given on the command line, if any.
    fn with_startup_default(&self, option: &str) -> String {
        let words: Vec<&str> = option.split(' ').collect();
        let (Some(&name), Some(at)) = (words.first(), words.iter().position(|&w| w == "default"))
        else {
            return option.to_string();
        };
        match self
            .startup
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some((_, value)) if at + 1 < words.len() => {
                let mut words: Vec<&str> = words.clone();
                words[at + 1] = value.as_str();
                words.join(" ")
            }
            _ => option.to_string(),
        }
    }

    /// `setoption name <name> value <value>`.
    fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        if !args.first().is_some_and(|t| t.eq_ignore_ascii_case("name")) {
            return Err("setoption: expected 'setoption name <name> value <value>'".into());
        }
        let value_at = args.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        if name.is_empty() {
            return Err("setoption: missing option name".into());
        }
        if name.eq_ignore_ascii_case("Clear Hash") {
            if value_at.is_some() {
                return Err("setoption: 'Clear Hash' is a button and takes no value".into());
            }
            self.session.clear_hash();
            return Ok(());
        }
        let value = match value_at {
            Some(i) if i + 1 < args.len() => args[i + 1..].join(" "),
            _ => return Err(format!("setoption: missing value for option '{name}'")),
        };
        if name.eq_ignore_ascii_case("Hash") {
            let megabytes = spin(&name, &value, 1, MAX_HASH_MB)?;
            self.session.set_hash(megabytes)?;
            self.hash_megabytes = megabytes;
        } else if name.eq_ignore_ascii_case("Threads") {
            self.threads = spin(&name, &value, 1, MAX_THREADS)?;
            self.session.set_threads(self.threads);
        } else if name.eq_ignore_ascii_case("Ponder") {
            self.ponder = check(&name, &value)?;
        } else if name.eq_ignore_ascii_case("Move Overhead") {
            let millis = spin(&name, &value, 0, MAX_MOVE_OVERHEAD_MS)?;
            self.move_overhead = Duration::from_millis(millis as u64);
        } else if name.eq_ignore_ascii_case("Evaluation") {
            let kind: EvalKind = value
                .parse()
                .map_err(|e| format!("option Evaluation: {e}"))?;
            self.evaluation = Some(kind);
            self.apply_evaluation();
        } else if name.eq_ignore_ascii_case("EvalFile") {
            self.eval_file = if value == EMBEDDED {
                None
            } else {
                // Checked for its own game now, so that a bad file is refused when named.
                let path = PathBuf::from(&value);
                let game = choice::game_of(&path)?;
                with_game(&game, CheckNetwork(&path))??;
                Some(EvalFile { path, game })
            };
            self.apply_evaluation();
        } else if name.eq_ignore_ascii_case("SearchParams") {
            let changes: ParamChanges = value
                .parse()
                .map_err(|e| format!("option SearchParams: {e}"))?;
            self.session
                .set_search_params(&changes)
                .map_err(|e| format!("option SearchParams: {e}"))?;
            self.search_params = changes;
        } else if name.eq_ignore_ascii_case("Skill Level") {
            let level = spin(&name, &value, 0, Skill::MAX_LEVEL as usize)?;
            self.skill = Skill::new(level as u32)?;
        } else if name.eq_ignore_ascii_case("UCI_LimitStrength") {
            self.limit_strength = check(&name, &value)?;
        } else if name.eq_ignore_ascii_case("UCI_Elo") {
            let (low, high) = crate::games::level_elo_range();
            self.uci_elo = spin(&name, &value, low.max(0) as usize, high.max(0) as usize)? as i32;
        } else if name.eq_ignore_ascii_case("MultiPV") {
            self.multipv = spin(&name, &value, 1, MAX_MULTIPV)?;
        } else if name.eq_ignore_ascii_case("MaxPlies") {
            self.adjudication.max_plies = spin(&name, &value, 0, MAX_PLIES_LIMIT)?;
            self.session.set_adjudication(self.adjudication);
        } else if name.eq_ignore_ascii_case("RepetitionDraw") {
            self.adjudication.repetition_draw = check(&name, &value)?;
            self.session.set_adjudication(self.adjudication);
        } else if name.eq_ignore_ascii_case("Game") {
            let Some(&game) = GAME_NAMES.iter().find(|n| n.eq_ignore_ascii_case(&value)) else {
                return Err(format!(
                    "option Game value '{value}' is not one of: {}",
                    GAME_NAMES.join(", ")
                ));
            };
            if game != self.session.name() {
                tracing::info!(game, "switching game");
                self.session = self.new_session(game);
                if self.evaluation.is_some() || self.eval_file.is_some() {
                    self.apply_evaluation();
                }
                if let Err(error) = self.session.set_search_params(&self.search_params) {
                    tracing::error!(%error, "the search parameters of the new game");
                }
            }
        } else {
            self.set_rule_option(&name, &value)?;
        }
        Ok(())
    }

    /// A rule option: applied at once if it is the current game's, else checked against
    /// the game it belongs to and kept for when that game is chosen (a runner may send the
    /// rule options before `Game`). Either way it is remembered across changes of game.
    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let current = self.session.name();
        if !self.session.set_rule_option(name, value)? {
            let mut owner = None;
            for &game in GAME_NAMES.iter().filter(|&&game| game != current) {
                if with_game(game, RuleOf { name, value })?? {
                    owner = Some(game);
                    break;
                }
            }
            let Some(game) = owner else {
                return Err(format!("unknown option '{name}' (game {current})"));
            };
            self.out.line(&format!(
                "info string option {name} is a rule of {game}, not of {current}: \
                 it applies once Game is {game}"
            ));
        }
        self.rules.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.rules.push((name.to_string(), value.to_string()));
        Ok(())
    }

    /// Gives the current game the evaluation chosen with `Evaluation` and `EvalFile`, as
    /// far as it applies to that game, and says in an `info string` what does not (a
    /// network file of another game; a network the game does not have).
    fn apply_evaluation(&mut self) {
        let game = self.session.name();
        let file = match &self.eval_file {
            Some(file) if file.game != game => {
                self.out.line(&format!(
                    "info string EvalFile {} is a network for {}: {game} keeps its built-in \
                     network, and the file applies again once Game is {}",
                    file.path.display(),
                    file.game,
                    file.game
                ));
                None
            }
            file => file.as_ref().map(|file| file.path.as_path()),
        };
        if let Err(error) = self.session.set_evaluation(self.evaluation, file) {
            self.out.line(&format!(
                "info string {error}; {game} plays with its default evaluation"
            ));
            if let Err(error) = self.session.set_evaluation(None, None) {
                tracing::error!(%error, "the game's default evaluation");
            }
        }
    }

    /// `position startpos|fen <position string> [moves <move>…]`.
    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args.iter().position(|t| t.eq_ignore_ascii_case("moves"));
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match setup.split_first() {
            Some((kind, rest)) if kind.eq_ignore_ascii_case("startpos") => {
                if !rest.is_empty() {
                    return Err(format!(
                        "position: unexpected '{}' after 'startpos'",
                        rest.join(" ")
                    ));
                }
                None
            }
            Some((kind, rest)) if kind.eq_ignore_ascii_case("fen") => {
                if rest.is_empty() {
                    return Err("position: missing position string after 'fen'".into());
                }
                Some(rest.join(" "))
            }
            Some((kind, _)) => {
                return Err(format!(
                    "position: expected 'startpos' or 'fen', got '{kind}'"
                ));
            }
            None => return Err("position: expected 'startpos' or 'fen'".into()),
        };
        self.session
            .set_position(start.as_deref(), moves)
            .map_err(|e| format!("position: {e}"))
    }

    /// `query gameover|p1turn|result` → `response …`.
    fn query(&mut self, args: &[&str]) -> Result<(), String> {
        let [question] = args else {
            return Err("query: expected one of 'gameover', 'p1turn', 'result'".into());
        };
        let answer = match question.to_ascii_lowercase().as_str() {
            "gameover" => bool_text(self.session.game_over()?),
            "p1turn" => bool_text(self.session.p1_to_move()?),
            "result" => self.session.result()?,
            _ => {
                return Err(format!(
                    "query: unknown question '{question}' (expected 'gameover', 'p1turn' or 'result')"
                ));
            }
        };
        self.out.line(&format!("response {answer}"));
        Ok(())
    }

    /// `perft <depth>`: the same lines as `shove perft --divide`.
    fn perft(&mut self, args: &[&str]) -> Result<(), String> {
        let [text] = args else {
            return Err(format!("perft: expected one depth 0..={MAX_PERFT_DEPTH}"));
        };
        let depth = match text.parse::<u32>() {
            Ok(d) if d <= MAX_PERFT_DEPTH => d,
            _ => {
                return Err(format!(
                    "perft: depth '{text}' is not a whole number in 0..={MAX_PERFT_DEPTH}"
                ));
            }
        };
        let (lines, nodes) = self.session.perft(depth)?;
        for line in lines {
            self.out.line(&line);
        }
        self.out.line(&format!("nodes {nodes}"));
        Ok(())
    }
}

fn bool_text(value: bool) -> &'static str {
    if value { "true" } else { "false" }
}

/// Parses a check option's value.
fn check(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "option {name} value '{value}' is not true or false"
        )),
    }
}

/// Parses a spin option's value.
fn spin(name: &str, value: &str, min: usize, max: usize) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "option {name} value '{value}' is not a whole number in {min}..={max}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A writer whose bytes stay readable after `run` has consumed it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &str) -> Vec<String> {
        let output = Shared::default();
        run(
            io::Cursor::new(input.to_string()),
            output.clone(),
            &[],
            None,
        )
        .unwrap();
        let bytes = output.0.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn runs_over_any_reader_and_writer() {
        let lines =
            session("isready\n\nposition startpos moves a7a6\nquery p1turn\nperft 1\nbogus\n");
        assert_eq!(lines[0], "readyok");
        assert_eq!(lines[1], "response false");
        assert_eq!(lines[lines.len() - 2], "nodes 8");
        assert_eq!(
            lines[lines.len() - 1],
            "info string error: unknown command 'bogus'"
        );
    }

    #[test]
    fn end_of_input_stops_an_infinite_search() {
        let lines = session("go infinite\n");
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove")).count(),
            1
        );
    }

    #[test]
    fn quit_ends_the_session() {
        let lines = session("go depth 2\nquit\nisready\n");
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
        assert!(!lines.contains(&"readyok".to_string()));
    }
}
