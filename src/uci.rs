//! The engine protocol on stdin/stdout: UCI-style commands with the UGI additions (`ugi`,
//! `uginewgame`, `query`, `p1time`…), as described in `protocol.md`.
//!
//! The command loop reads and answers commands on the calling thread; `go` starts the search
//! on a thread of its own, which owns the [`crate::search::Searcher`] until it has printed
//! `bestmove` and hands it back when joined. So `isready`, `stop`, `quit` and the read-only
//! commands are answered while a search runs, and commands that would change the state the
//! search depends on are refused until it ends.

mod go;
mod options;
mod output;
mod session;

use crate::cli::MAX_PERFT_DEPTH;
use crate::games::{GAME_NAMES, GameVisitor, with_game};
use crate::matches::Adjudication;
use crate::players::BotKind;
use crate::profile::Profile;
use crate::search::{ParamChanges, Skill};
pub use options::{DEFAULT_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, MAX_PLIES_LIMIT};
use options::{Engine, EngineOption, Kind, Shown};
use output::Output;
use session::{GameSession, GoSettings, Session};
use std::io::{self, BufRead, Write};

/// Makes the session of the game it is given to.
struct NewSession<'a> {
    hash_megabytes: usize,
    threads: usize,
    player: Option<BotKind>,
    rule_options: &'a [(String, String)],
}

impl GameVisitor for NewSession<'_> {
    type Output = Box<dyn GameSession>;
    fn visit<G: Profile>(self) -> Box<dyn GameSession> {
        Box::new(Session::<G>::new(
            self.hash_megabytes,
            self.threads,
            self.player,
            self.rule_options,
        ))
    }
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
            move_overhead: crate::search::DEFAULT_MOVE_OVERHEAD,
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

    /// The value given on the command line for option `name`.
    fn startup_value(&self, name: &str) -> Option<&str> {
        self.startup
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
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
        for option in options::OPTIONS {
            let kind = option.kind.protocol_type();
            let default = match option.default {
                Shown::Given(default) => self
                    .startup_value(option.name)
                    .map_or_else(default, |value| kind.shown(value)),
                Shown::InForce(value) => value(self),
                Shown::None => String::new(),
            };
            out.line(&kind.line(option.name, &default));
        }
        for option in self.session.rule_options() {
            let default = self.startup_value(option.name).map_or_else(
                || option.default.to_string(),
                |value| option.kind.shown(value),
            );
            out.line(&option.kind.line(option.name, &default));
        }
        out.line(ok);
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
        let option = options::find(&name);
        if let Some(EngineOption {
            name: button,
            kind: Kind::Button(press),
            ..
        }) = option
        {
            if value_at.is_some() {
                return Err(format!(
                    "setoption: '{button}' is a button and takes no value"
                ));
            }
            press(self);
            return Ok(());
        }
        let value = match value_at {
            Some(i) if i + 1 < args.len() => args[i + 1..].join(" "),
            _ => return Err(format!("setoption: missing value for option '{name}'")),
        };
        let Some(option) = option else {
            return self.set_rule_option(&name, &value);
        };
        match option.kind {
            Kind::Button(_) => unreachable!("pressed above"),
            Kind::Check(set) => set(self, options::check(&name, &value)?),
            Kind::Spin { range, set } => {
                let (min, max) = range();
                set(self, options::spin(&name, &value, min, max)?)?;
            }
            Kind::Combo(_, set) | Kind::String(set) => set(self, &value)?,
        }
        Ok(())
    }

    /// `Game`: a session of `game` with the settings so far, unless it is the one played.
    fn switch_game(&mut self, game: &'static str) {
        if game == self.session.name() {
            return;
        }
        tracing::info!(game, "switching game");
        self.session = self.new_session(game);
        if self.evaluation.is_some() || self.eval_file.is_some() {
            self.apply_evaluation();
        }
        if let Err(error) = self.session.set_search_params(&self.search_params) {
            tracing::error!(%error, "the search parameters of the new game");
        }
    }

    /// A rule option: applied at once if it is the current game's, else checked against
    /// the game it belongs to and kept for when that game is chosen (a runner may send the
    /// rule options before `Game`). Either way it is remembered across changes of game.
    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let current = self.session.name();
        if !self.session.set_rule_option(name, value)? {
            let owner = crate::games::rule_options()
                .into_iter()
                .find(|(game, option, _)| {
                    *game != current && option.name.eq_ignore_ascii_case(name)
                });
            let Some((game, _, check)) = owner else {
                return Err(format!("unknown option '{name}' (game {current})"));
            };
            check(name, value)?;
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
