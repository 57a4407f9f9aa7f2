//! The engine protocol end to end: each test starts the `shove` binary with piped stdin and
//! stdout and holds a whole session with it, as a GUI or the cutegames match runner would.
//!
//! Every line the engine prints is checked against the protocol's line forms, so stray
//! output fails the test. Reads time out (a reader thread feeds a channel), so a hung
//! engine fails instead of hanging; no test depends on how fast the engine is otherwise.
//! Legality of every `bestmove` and the expected diagrams come from the library.

use crate::engine;
use crate::network;

use engine::{Engine, TIMEOUT};
use network::network_file;
use shove::akiba::{Position, RepeatRule, Rules};
use shove::cli::play_moves;
use shove::game::{Game, MoveList, Outcome, Player};
use shove::matches::Adjudication;
use std::io::Write;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const START: &str = "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1";
/// White to move has exactly one legal move, `a1a2` (`a1b1` is banned by rule 5).
const ONE_MOVE: &str = "6B/7/7/7/7/R6/W6 w 0 0 - a1b1 1";
/// White has won seven reds: the game is over.
const WHITE_WON: &str = "6B/7/7/7/7/7/W6 b 7 0 - - 1";
/// White's `b1a1` pushes the red off a1 and wins the seventh red.
const ONE_CAPTURE: &str = "7/7/7/7/7/7/RW4B w 6 0 - - 1";
/// A middlegame with captures available for both sides.
const MIDDLEGAME: &str = "W1W1B1B/W2R1B1/1RRR3/1RR1RRW/2RRB2/B2R1W1/B4WW w 1 0 - - 9";

// ---------------------------------------------------------------------------------------
// The engine process
// ---------------------------------------------------------------------------------------

/// The engine in a session whose every line is checked to be a protocol line.
impl Engine {
    fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// The engine with command-line arguments (e.g. `--player random`).
    fn start_with(args: &[&str]) -> Engine {
        Engine::launch(args, check_line)
    }

    /// Sends a command that must be answered by exactly one error line; returns it.
    fn expect_error(&mut self, command: &str) -> String {
        self.send(command);
        let line = self.recv();
        if !line.starts_with("info string error: ") {
            self.fail(&format!(
                "'{command}' should give an error line, got '{line}'"
            ));
        }
        self.sync();
        line
    }

    /// Sends a command that must be answered by nothing.
    fn expect_silence(&mut self, command: &str) {
        self.send(command);
        self.sync();
    }

    fn query(&mut self, question: &str) -> String {
        self.send(&format!("query {question}"));
        let line = self.recv();
        match line.strip_prefix("response ") {
            Some(answer) => answer.to_string(),
            None => self.fail(&format!("expected a response, got '{line}'")),
        }
    }

    /// The `d` output (without the trailing `readyok`).
    fn diagram(&mut self) -> Vec<String> {
        self.send("d");
        self.send("isready");
        let mut lines = self.recv_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `go …` and reads up to `bestmove`; every line before it must be a search
    /// `info` line. Returns the info lines and the move.
    fn search(&mut self, go: &str) -> (Vec<String>, String) {
        self.send(go);
        self.finish_search()
    }

    fn finish_search(&mut self) -> (Vec<String>, String) {
        let mut lines = self.recv_until(|l| l.starts_with("bestmove"));
        let last = lines.pop().expect("at least the bestmove line");
        for line in &lines {
            if !line.starts_with("info depth ") {
                self.fail(&format!("unexpected line during a search: '{line}'"));
            }
        }
        let best = last["bestmove ".len()..].to_string();
        (lines, best)
    }

    /// Sends `go …` that must be answered by one `info string` line first (an error or a
    /// note), then a search; returns that line and the move.
    fn search_noted(&mut self, go: &str) -> (String, String) {
        self.send(go);
        let note = self.recv();
        if !note.starts_with("info string ") {
            self.fail(&format!(
                "'{go}' should give an info string first, got '{note}'"
            ));
        }
        let (_, best) = self.finish_search();
        (note, best)
    }
}

// ---------------------------------------------------------------------------------------
// What the engine may print
// ---------------------------------------------------------------------------------------

fn is_move(text: &str) -> bool {
    text == "pass"
        || (text.len() == 4
            && text.bytes().enumerate().all(|(i, b)| {
                if i % 2 == 0 {
                    (b'a'..=b'g').contains(&b)
                } else {
                    (b'1'..=b'7').contains(&b)
                }
            }))
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// `info depth D seldepth S multipv K score cp|mate N nodes N nps N time MS hashfull H pv …`.
fn check_search_info(line: &str) -> Result<(), String> {
    let tokens: Vec<&str> = line.split(' ').collect();
    let expected_keys = [
        (1, "depth"),
        (3, "seldepth"),
        (5, "multipv"),
        (7, "score"),
        (10, "nodes"),
        (12, "nps"),
        (14, "time"),
        (16, "hashfull"),
        (18, "pv"),
    ];
    if tokens.len() < 20 {
        return Err("too short".into());
    }
    for (index, key) in expected_keys {
        if tokens[index] != key {
            return Err(format!("expected '{key}' as word {index}"));
        }
    }
    for index in [2, 4, 6, 11, 13, 15, 17] {
        if !is_number(tokens[index]) {
            return Err(format!("word {index} is not a number"));
        }
    }
    if !matches!(tokens[8], "cp" | "mate") {
        return Err("score is not cp or mate".into());
    }
    if tokens[9]
        .strip_prefix('-')
        .unwrap_or(tokens[9])
        .parse::<u32>()
        .is_err()
    {
        return Err("score value is not a number".into());
    }
    if !tokens[19..].iter().all(|m| is_move(m)) {
        return Err("pv has a word that is not a move".into());
    }
    Ok(())
}

/// Whether `line` is one of the lines the protocol defines.
fn check_line(line: &str) -> Result<(), String> {
    let words: Vec<&str> = line.split(' ').collect();
    let ok = match words.as_slice() {
        ["uciok" | "ugiok" | "readyok"] => true,
        ["id", "name", "shove", version] => !version.is_empty(),
        ["id", "name", "shove", version, "player", player] => {
            !version.is_empty() && !player.is_empty()
        }
        ["id", "author", "The", "shove", "developers"] => true,
        ["option", "name", ..] => true,
        ["bestmove", mv] => *mv == "(none)" || *mv == "0000" || is_move(mv),
        ["bestmove", mv, "ponder", reply] => is_move(mv) && is_move(reply),
        [
            "response",
            "true" | "false" | "p1win" | "p2win" | "draw" | "none",
        ] => true,
        ["info", "string", ..] => true,
        ["info", "depth", ..] => return check_search_info(line),
        ["nodes", n] => is_number(n),
        [mv, n] => mv.strip_suffix(':').is_some_and(is_move) && is_number(n),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err("unknown form".into())
    }
}

// ---------------------------------------------------------------------------------------
// The library's view of positions
// ---------------------------------------------------------------------------------------

fn position_after(start: Option<&str>, moves: &[String], rules: Rules) -> Position {
    let mut position = match start {
        None => Position::start(rules),
        Some(text) => Position::parse(text, rules).expect("a valid position string"),
    };
    play_moves(&mut position, &moves.join(" ")).expect("legal moves");
    position
}

/// What `d` must print for a position.
fn expected_diagram(position: &Position) -> Vec<String> {
    position
        .diagram()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("info string {l}"))
        .collect()
}

fn assert_legal(position: &Position, mv: &str) {
    assert!(
        position.parse_move(mv).is_ok(),
        "bestmove {mv} is not legal in {position}"
    );
}

fn legal_moves(position: &Position) -> Vec<<Position as Game>::Move> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves.to_vec()
}

/// The shortest move sequence from the start after which `player` has just captured and
/// is in an extra move (breadth-first, so always the same sequence).
fn capture_line(player: Player) -> Vec<String> {
    let mut frontier: Vec<(Position, Vec<String>)> =
        vec![(Position::start(Rules::default()), Vec::new())];
    for _ in 0..6 {
        let mut next = Vec::new();
        for (position, line) in &frontier {
            for mv in legal_moves(position) {
                let mut child = position.clone();
                child.play(mv);
                let mut child_line = line.clone();
                child_line.push(mv.to_string());
                if position.to_move() == player
                    && position.is_capture(mv)
                    && child.to_move() == player
                {
                    return child_line;
                }
                next.push((child, child_line));
            }
        }
        frontier = next;
    }
    panic!("no capture by {player:?} within six moves of the start");
}

fn p1_text(position: &Position) -> &'static str {
    if position.to_move() == Player::One {
        "true"
    } else {
        "false"
    }
}

fn outcome_text(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "none",
        Some(Outcome::Win(Player::One)) => "p1win",
        Some(Outcome::Win(Player::Two)) => "p2win",
        Some(Outcome::Draw) => "draw",
    }
}

// ---------------------------------------------------------------------------------------
// Handshakes and options
// ---------------------------------------------------------------------------------------

fn check_handshake(command: &str, ok: &str) {
    let mut engine = Engine::start();
    engine.send(command);
    engine.expect(&format!("id name shove {}", env!("CARGO_PKG_VERSION")));
    engine.expect("id author The shove developers");
    let options = engine.recv_until(|l| l == ok);
    assert_eq!(
        options[..options.len() - 1],
        [
            "option name Hash type spin default 64 min 1 max 16384",
            "option name Threads type spin default 1 min 1 max 256",
            "option name Clear Hash type button",
            "option name Evaluation type combo default network var classical var network",
            "option name EvalFile type string default <embedded>",
            "option name SearchParams type string default none",
            "option name Ponder type check default false",
            "option name MultiPV type spin default 1 min 1 max 64",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 604 min 604 max 3369",
            "option name Move Overhead type spin default 20 min 0 max 5000",
            "option name Game type combo default akiba var akiba var offboard var abraxas",
            "option name MaxPlies type spin default 0 min 0 max 1000000",
            "option name RepetitionDraw type check default false",
            "option name ExtraMove type check default true",
            "option name RepeatRule type combo default pushback var pushback var ko",
        ]
    );
    engine.sync();
    engine.quit();
}

#[test]
fn uci_handshake() {
    check_handshake("uci", "uciok");
}

#[test]
fn ugi_handshake() {
    check_handshake("ugi", "ugiok");
}

#[test]
fn good_option_values_are_accepted() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.recv_until(|l| l == "uciok");
    for command in [
        "setoption name Hash value 16",
        "setoption name hash value 1",
        "setoption name HASH value 8",
        "setoption name MultiPV value 3",
        "setoption name Game value akiba",
        "setoption name game value AKIBA",
        "setoption name ExtraMove value false",
        "setoption name extramove value TRUE",
        "setoption name RepeatRule value ko",
        "setoption name RepeatRule value pushback",
        "setoption name Threads value 2",
        "setoption name threads value 1",
        "setoption name Ponder value true",
        "setoption name Ponder value false",
        "setoption name Move Overhead value 0",
        "setoption name move overhead value 50",
        "setoption name Clear Hash",
    ] {
        engine.expect_silence(command);
    }
    // MultiPV 3 reports three lines per depth.
    engine.send("position startpos");
    let (infos, best) = engine.search("go depth 2");
    assert_legal(&Position::start(Rules::default()), &best);
    let multipv: Vec<&str> = infos
        .iter()
        .map(|l| l.split(' ').nth(6).expect("a multipv value"))
        .collect();
    assert_eq!(multipv, ["1", "2", "3", "1", "2", "3"]);
    engine.expect_silence("setoption name MultiPV value 1");
    let (infos, _) = engine.search("go depth 2");
    assert_eq!(infos.len(), 2);
    assert!(infos.iter().all(|l| l.contains(" multipv 1 ")));
    engine.quit();
}

#[test]
fn rule_options_apply_to_the_current_position() {
    let mut engine = Engine::start();
    engine.send("position startpos moves a7a6");
    let moves = vec!["a7a6".to_string()];
    for (command, rules) in [
        (
            "setoption name ExtraMove value false",
            Rules {
                extra_move: false,
                repeat: RepeatRule::PushBack,
            },
        ),
        (
            "setoption name RepeatRule value ko",
            Rules {
                extra_move: false,
                repeat: RepeatRule::Ko,
            },
        ),
        (
            "setoption name ExtraMove value true",
            Rules {
                extra_move: true,
                repeat: RepeatRule::Ko,
            },
        ),
    ] {
        engine.expect_silence(command);
        let expected = expected_diagram(&position_after(None, &moves, rules));
        assert_eq!(engine.diagram(), expected, "after '{command}'");
    }
    // The rules stay for the next position and the next game.
    engine.send("ucinewgame");
    let rules = Rules {
        extra_move: true,
        repeat: RepeatRule::Ko,
    };
    assert_eq!(engine.diagram(), expected_diagram(&Position::start(rules)));
    engine.quit();
}

#[test]
fn a_rule_change_that_breaks_the_moves_is_refused() {
    // In an extra move `pass` is legal; without extra moves the replay fails at `pass`.
    let mut moves = capture_line(Player::One);
    moves.push("pass".into());
    let mut engine = Engine::start();
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    let before = engine.diagram();
    assert_eq!(
        before,
        expected_diagram(&position_after(None, &moves, Rules::default()))
    );
    let error = engine.expect_error("setoption name ExtraMove value false");
    assert!(error.contains("ExtraMove"), "{error}");
    assert!(error.contains("'pass'"), "{error}");
    assert_eq!(engine.diagram(), before);
    engine.quit();
}

#[test]
fn bad_option_values_are_rejected() {
    let mut engine = Engine::start();
    engine.send("ugi");
    engine.recv_until(|l| l == "ugiok");
    engine.expect_silence("setoption name MultiPV value 2");
    engine.send("position startpos moves g1g2");
    let before = engine.diagram();
    for command in [
        "setoption name Hash value 0",
        "setoption name Hash value 65537",
        "setoption name Hash value -1",
        "setoption name Hash value lots",
        "setoption name Hash value 99999999999999999999999999",
        "setoption name Hash",
        "setoption name Hash value",
        "setoption name MultiPV value 0",
        "setoption name MultiPV value 65",
        "setoption name ExtraMove value yes",
        "setoption name RepeatRule value superko",
        "setoption name Game value chess",
        "setoption name Ponder value maybe",
        "setoption name Threads value 0",
        "setoption name Threads value 257",
        "setoption name Move Overhead value -1",
        "setoption name Move Overhead value 5001",
        "setoption name Clear Hash value 1",
        "setoption name value 3",
        "setoption Hash 16",
        "setoption",
    ] {
        engine.expect_error(command);
    }
    // Nothing changed: the same position, still two PV lines.
    assert_eq!(engine.diagram(), before);
    let (infos, _) = engine.search("go depth 1");
    assert_eq!(infos.len(), 2);
    engine.quit();
}

/// The node count of a search's last iteration: what tells two evaluations apart.
fn last_nodes(infos: &[String]) -> String {
    let last = infos.last().expect("at least one iteration");
    let words: Vec<&str> = last.split(' ').collect();
    let at = words
        .iter()
        .position(|&w| w == "nodes")
        .expect("a nodes field");
    words[at + 1].to_string()
}

#[test]
fn network_files_are_checked_and_a_bad_one_changes_nothing() {
    let dir = std::env::temp_dir().join(format!("shove-protocol-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = network_file::<Position>(&dir, "akiba.nnue");
    let mut bytes = std::fs::read(&good).expect("just written");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    let damaged = dir.join("damaged.nnue");
    std::fs::write(&damaged, bytes).expect("temp dir writable");

    let mut engine = Engine::start();
    engine.send("uci");
    engine.recv_until(|l| l == "uciok");
    engine.expect_silence("setoption name Evaluation value classical");
    engine.send("position startpos");
    let (classical, _) = engine.search("go depth 4");
    engine.expect_silence(&format!("setoption name EvalFile value {good}"));
    engine.expect_silence("setoption name Evaluation value network");
    engine.expect_silence("ucinewgame");
    engine.send("position startpos");
    let (network, best) = engine.search("go depth 4");
    assert!(!best.is_empty());
    assert_ne!(last_nodes(&classical), last_nodes(&network));
    for (command, reason) in [
        (
            format!("setoption name EvalFile value {}", damaged.display()),
            "checksum",
        ),
        (
            "setoption name EvalFile value /no/such/file.nnue".into(),
            "cannot read",
        ),
        ("setoption name Evaluation value neural".into(), "neural"),
    ] {
        let error = engine.expect_error(&command);
        assert!(error.contains(reason), "'{command}' gave '{error}'");
    }
    // The good network is still in force, then the classical evaluation comes back.
    engine.expect_silence("ucinewgame");
    engine.send("position startpos");
    let (again, _) = engine.search("go depth 4");
    assert_eq!(last_nodes(&again), last_nodes(&network));
    engine.expect_silence("setoption name Evaluation value classical");
    engine.expect_silence("ucinewgame");
    engine.send("position startpos");
    let (back, _) = engine.search("go depth 4");
    assert_eq!(last_nodes(&back), last_nodes(&classical));
    engine.quit();
    std::fs::remove_dir_all(&dir).ok();
}

/// The last iteration's node count of `go depth 4` from Offboard's start, in an engine
/// started with `args` and then told the game as a runner does.
fn offboard_nodes(args: &[&str]) -> String {
    let mut engine = Engine::start_with(args);
    engine.send("uci");
    engine.recv_until(|l| l == "uciok");
    engine.expect_silence("setoption name Game value offboard");
    engine.send("position startpos");
    engine.send("go depth 4");
    let nodes = last_nodes(&search_infos(&mut engine));
    engine.quit();
    nodes
}

/// The `info depth` lines of the running search, up to its `bestmove`, read without the
/// Akiba line check (other games' moves are not Akiba's).
fn search_infos(engine: &mut Engine) -> Vec<String> {
    let mut infos = Vec::new();
    loop {
        let line = engine.lines.recv_timeout(TIMEOUT).expect("the search ends");
        if line.starts_with("bestmove") {
            return infos;
        }
        if line.starts_with("info depth") {
            infos.push(line);
        }
    }
}

/// The last iteration's node count of `go depth 4` from `game`'s start with `Evaluation`
/// set to `evaluation`, then `setup` sent, and no `isready` unless `setup` has one (a runner
/// need not send it).
fn start_nodes(game: &str, evaluation: &str, setup: &[&str]) -> String {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.recv_until(|l| l == "uciok");
    engine.send(&format!("setoption name Game value {game}"));
    engine.send(&format!("setoption name Evaluation value {evaluation}"));
    for command in setup {
        engine.send(command);
    }
    engine.send("position startpos");
    // Deep enough that the two evaluations' trees differ in size in every game (at depth
    // 4 pruning left Abraxas' two the same size).
    engine.send("go depth 5");
    let nodes = last_nodes(&search_infos(&mut engine));
    engine.quit();
    nodes
}

/// A search evaluates as `Evaluation` says whether or not `isready` made the searcher
/// first: `go`, or `Hash` before any `isready`, must not make one with another evaluation.
#[test]
fn the_evaluation_does_not_wait_for_isready() {
    for game in ["akiba", "offboard", "abraxas"] {
        let mut ready = Vec::new();
        for evaluation in ["classical", "network"] {
            let nodes = start_nodes(game, evaluation, &["isready"]);
            for setup in [&[][..], &["setoption name Hash value 8"]] {
                assert_eq!(
                    start_nodes(game, evaluation, setup),
                    nodes,
                    "{game}, {evaluation}, {setup:?}"
                );
            }
            ready.push(nodes);
        }
        assert_ne!(
            ready[0], ready[1],
            "{game}: the two evaluations search different trees"
        );
    }
}

/// `shove match "shove --eval-file offboard.nnue" … --game offboard` must play with that
/// network: the file chooses the start-up game, and the runner's `Game` keeps it.
#[test]
fn a_network_file_chooses_the_game() {
    let dir = std::env::temp_dir().join(format!("shove-protocol-game-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = network_file::<shove::offboard::Position>(&dir, "offboard.nnue");

    let mut engine = Engine::start_with(&["--eval-file", &file]);
    engine.send("uci");
    let options = engine.recv_until(|l| l == "uciok");
    let game = "option name Game type combo default offboard var akiba var offboard var abraxas";
    assert!(options.contains(&game.to_string()), "{options:?}");
    engine.quit();

    let named = offboard_nodes(&["--eval-file", &file]);
    assert_eq!(
        named,
        offboard_nodes(&["--game", "offboard", "--eval-file", &file])
    );
    assert_ne!(named, offboard_nodes(&["--game", "offboard"]));

    // An unreadable file is refused at start-up, naming it.
    let missing = dir.join("missing.nnue");
    let output = Command::new(env!("CARGO_BIN_EXE_shove"))
        .args(["--eval-file", &missing.display().to_string()])
        .stdin(Stdio::null())
        .output()
        .expect("run the engine");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("missing.nnue"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

// ---------------------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------------------

#[test]
fn position_with_moves() {
    let mut engine = Engine::start();
    let moves: Vec<String> = ["a7a6", "b1b2", "g1g2"].map(String::from).to_vec();
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    let expected = position_after(None, &moves, Rules::default());
    assert_eq!(engine.diagram(), expected_diagram(&expected));

    engine.send(&format!("position fen {MIDDLEGAME} moves a7b7"));
    let expected = position_after(Some(MIDDLEGAME), &["a7b7".into()], Rules::default());
    assert_eq!(engine.diagram(), expected_diagram(&expected));

    // Moves are case-insensitive; `moves` with nothing after it is the position itself.
    engine.send(
        "position fen WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1 moves A7A6",
    );
    let expected = position_after(None, &["a7a6".into()], Rules::default());
    assert_eq!(engine.diagram(), expected_diagram(&expected));
    engine.send("position startpos moves");
    assert_eq!(
        engine.diagram(),
        expected_diagram(&Position::start(Rules::default()))
    );
    engine.quit();
}

const NO_POSITION: &str =
    "info string error: no valid position (the last 'position' command was rejected)";

impl Engine {
    /// After a rejected `position`: `go`, `query`, `d` and `perft` say there is none.
    fn expect_no_position(&mut self) {
        self.send("go depth 2");
        self.expect(NO_POSITION);
        self.expect("bestmove 0000");
        for command in ["query p1turn", "query gameover", "d", "perft 1"] {
            self.send(command);
            self.expect(NO_POSITION);
        }
        self.sync();
    }
}

#[test]
fn a_rejected_position_is_never_searched() {
    let mut engine = Engine::start();
    let moves: Vec<String> = vec!["a7a6".into(), "b1b2".into()];
    let good = format!("position startpos moves {}", moves.join(" "));
    for command in [
        "position",
        "position fen",
        "position fen moves a7a6",
        "position startpos a7a6",
        "position somewhere",
        "position fen W",
        "position fen WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW x 0 0 - - 1",
        "position fen WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WQ w 0 0 - - 1",
        "position fen WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1 extra",
        "position startpos moves a7a6 a7a6",
        "position startpos moves a7a6 b1b2 zz",
        "position startpos moves pass",
    ] {
        engine.send(&good);
        engine.expect_error(command);
        engine.expect_no_position();
    }
    // The error names the bad move and where it is in the list.
    let error = engine.expect_error("position startpos moves a7a6 b1b2 b2b3");
    assert!(error.contains("move 3"), "{error}");
    assert!(error.contains("'b2b3'"), "{error}");
    let error = engine.expect_error(&format!("position fen {START} moves a7a6 b1b2 q9"));
    assert!(error.contains("move 3"), "{error}");
    assert!(error.contains("q9"), "{error}");
    engine.expect_no_position();
    // A rule option can still be set, and the next valid position restores everything.
    engine.expect_silence("setoption name ExtraMove value false");
    engine.expect_silence("setoption name ExtraMove value true");
    engine.send(&good);
    let position = position_after(None, &moves, Rules::default());
    assert_eq!(engine.diagram(), expected_diagram(&position));
    assert_eq!(engine.query("p1turn"), p1_text(&position));
    let (_, best) = engine.search("go depth 2");
    assert_legal(&position, &best);
    // So does a new game.
    engine.expect_error("position startpos moves zz");
    engine.send("ucinewgame");
    let (_, best) = engine.search("go depth 2");
    assert_legal(&Position::start(Rules::default()), &best);
    engine.quit();
}

#[test]
fn new_game_resets_the_position() {
    let mut engine = Engine::start();
    for command in ["ucinewgame", "uginewgame"] {
        engine.send("position startpos moves a7a6");
        engine.expect_silence(command);
        assert_eq!(
            engine.diagram(),
            expected_diagram(&Position::start(Rules::default()))
        );
    }
    engine.quit();
}

// ---------------------------------------------------------------------------------------
// Searching
// ---------------------------------------------------------------------------------------

#[test]
fn go_depth_gives_a_legal_move() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.recv_until(|l| l == "uciok");
    engine.sync();
    engine.send("ucinewgame");
    let moves: Vec<String> = vec!["a7a6".into()];
    engine.send("position startpos moves a7a6");
    let (infos, best) = engine.search("go depth 4");
    let depths: Vec<&str> = infos
        .iter()
        .map(|l| l.split(' ').nth(2).expect("a depth"))
        .collect();
    assert_eq!(depths, ["1", "2", "3", "4"]);
    assert_legal(&position_after(None, &moves, Rules::default()), &best);
    engine.sync();
    engine.quit();
}

#[test]
fn go_nodes_and_movetime() {
    let mut engine = Engine::start();
    let start = Position::start(Rules::default());
    engine.send("position startpos");
    for go in [
        "go nodes 1",
        "go nodes 5000",
        "go movetime 100",
        "go movetime 0",
    ] {
        let (_, best) = engine.search(go);
        assert_legal(&start, &best);
    }
    engine.send(&format!("position fen {MIDDLEGAME}"));
    let middlegame = Position::parse(MIDDLEGAME, Rules::default()).unwrap();
    for go in [
        "go wtime 1000 btime 1000 winc 10 binc 10",
        "go p1time 500 p2time 500 p1inc 0 p2inc 0 movestogo 10",
        "go wtime 0 btime 0",
        "go depth 3 nodes 100000 movetime 10000",
    ] {
        let (_, best) = engine.search(go);
        assert_legal(&middlegame, &best);
    }
    engine.quit();
}

#[test]
fn go_infinite_runs_until_stop() {
    let mut engine = Engine::start();
    engine.send("position startpos moves a7a6");
    engine.send("go infinite");
    // Answered during the search, before any bestmove.
    engine.send("isready");
    let mut lines = engine.recv_until(|l| l == "readyok");
    lines.pop();
    assert!(
        lines.iter().all(|l| l.starts_with("info depth ")),
        "{lines:?}"
    );
    // Read-only commands work during the search; changing ones are refused.
    engine.send("query p1turn");
    let answer = engine.recv_until(|l| l.starts_with("response"));
    assert_eq!(answer.last().unwrap(), "response false");
    for command in [
        "setoption name Hash value 1",
        "ucinewgame",
        "uginewgame",
        "perft 1",
    ] {
        engine.send(command);
        let lines = engine.recv_until(|l| !l.starts_with("info depth "));
        let last = lines.last().unwrap();
        assert!(
            last.starts_with("info string error: ") && last.contains("search"),
            "'{command}' during a search: {last}"
        );
    }
    engine.send("stop");
    let (_, best) = engine.finish_search();
    assert_legal(
        &position_after(None, &["a7a6".into()], Rules::default()),
        &best,
    );
    // Exactly one bestmove: a second stop says nothing; searching works again.
    engine.expect_silence("stop");
    // `position` during a search sets the next search's position, and a `go` during a
    // search stops it first: one bestmove each, in order.
    engine.send("go infinite");
    engine.send("position startpos");
    engine.send("go depth 1");
    let lines = engine.recv_until(|l| l.starts_with("info string"));
    assert_eq!(
        lines.last().unwrap(),
        "info string error: 'go' while a search is running: stopping it first"
    );
    let (_, first) = engine.finish_search();
    assert_legal(
        &position_after(None, &["a7a6".into()], Rules::default()),
        &first,
    );
    let (_, second) = engine.finish_search();
    assert_legal(&Position::start(Rules::default()), &second);
    engine.sync();
    engine.send("position startpos moves a7a6");
    let (_, best) = engine.search("go depth 1");
    assert_legal(
        &position_after(None, &["a7a6".into()], Rules::default()),
        &best,
    );
    engine.quit();
}

#[test]
fn a_bare_go_is_infinite() {
    let mut engine = Engine::start();
    engine.send("go");
    engine.sync_during_search();
    engine.send("stop");
    let (_, best) = engine.finish_search();
    assert_legal(&Position::start(Rules::default()), &best);
    engine.quit();
}

impl Engine {
    /// `isready` during a search: `readyok` before the bestmove.
    fn sync_during_search(&mut self) {
        self.send("isready");
        let mut lines = self.recv_until(|l| l == "readyok");
        lines.pop();
        assert!(
            lines.iter().all(|l| l.starts_with("info depth ")),
            "{lines:?}"
        );
    }
}

#[test]
fn a_single_legal_move_is_played() {
    let position = Position::parse(ONE_MOVE, Rules::default()).unwrap();
    assert_eq!(legal_moves(&position).len(), 1);
    let mut engine = Engine::start();
    engine.send(&format!("position fen {ONE_MOVE}"));
    for go in [
        "go depth 5",
        "go movetime 50",
        "go nodes 10",
        "go wtime 100 btime 100",
    ] {
        let (_, best) = engine.search(go);
        assert_eq!(best, "a1a2");
    }
    engine.quit();
}

#[test]
fn a_finished_game_has_no_best_move() {
    let position = Position::parse(WHITE_WON, Rules::default()).unwrap();
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::One)));
    let mut engine = Engine::start();
    engine.send(&format!("position fen {WHITE_WON}"));
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("result"), "p1win");
    for go in [
        "go depth 3",
        "go movetime 10",
        "go nodes 100",
        "go wtime 100 btime 100",
    ] {
        let (infos, best) = engine.search(go);
        assert!(infos.is_empty());
        assert_eq!(best, "(none)");
    }
    // Even here `go infinite` answers only after `stop`.
    engine.send("go infinite");
    engine.sync_during_search();
    engine.send("stop");
    let (_, best) = engine.finish_search();
    assert_eq!(best, "(none)");
    // No move is legal after the end.
    engine.expect_error(&format!("position fen {WHITE_WON} moves g7g6"));
    engine.quit();
}

#[test]
fn every_go_ends_in_one_bestmove() {
    let mut engine = Engine::start();
    engine.send("position startpos moves a7a6");
    let position = position_after(None, &["a7a6".into()], Rules::default());
    // A bad, unknown or repeated parameter is an error line; the rest is searched.
    for command in [
        "go depth -1 nodes 2000",
        "go depth 1000 depth 2",
        "go depth four movetime 20",
        "go depth movetime 20",
        "go nodes 0 depth 2",
        "go nodes 99999999999999999999999999 depth 1",
        "go movetime -100 depth 2",
        "go movetime 1.5 depth 2",
        "go movetime 99999999999999 nodes 1000",
        "go wtime -1 btime 100",
        "go p1time 100 p2time 100 p1inc -5 p2inc 0",
        "go wtime 100 p1time 100 btime 100",
        "go depth 3 depth 4",
        "go fast depth 2",
        "go searchmoves searchmoves depth 1",
    ] {
        let (line, best) = engine.search_noted(command);
        assert!(line.starts_with("info string error: go: "), "{line}");
        assert_legal(&position, &best);
    }
    // No usable limit for the side to move: a short default search, said so.
    for command in [
        "go wtime 1000 winc 10",
        "go movestogo 0",
        "go depth 0",
        "go nodes -5",
        "go movetime",
    ] {
        engine.send(command);
        let mut lines = engine.recv_until(|l| l.starts_with("bestmove"));
        let best = lines.pop().unwrap();
        assert_legal(&position, &best["bestmove ".len()..]);
        let note = "info string go: no limit for the side to move (no depth, nodes, \
                    movetime, mate, infinite or p2time/btime): searching 100 ms";
        assert!(lines.iter().any(|l| l == note), "'{command}': {lines:?}");
    }
    // `infinite` with other limits: they end the search, `stop` the wait for bestmove.
    engine.send("go infinite depth 2");
    engine.sync_during_search();
    engine.send("stop");
    let (infos, best) = engine.finish_search();
    assert_legal(&position, &best);
    assert!(infos.iter().all(|l| !l.starts_with("info depth 3 ")));
    engine.quit();
}

/// The words of a `bestmove` line.
fn bestmove_words(line: &str) -> Vec<String> {
    line.split(' ').map(str::to_string).collect()
}

#[test]
fn ponder_option_names_the_expected_reply() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    // Off (the default): exactly two words, as cutegames requires
    // (src/engine/engine_ugi.cpp accepts nothing else and would wait forever).
    engine.send("go depth 4");
    let lines = engine.recv_until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmove_words(lines.last().unwrap()).len(), 2);
    // On: the second move of the last principal variation.
    engine.expect_silence("setoption name Ponder value true");
    engine.send("go depth 4");
    let lines = engine.recv_until(|l| l.starts_with("bestmove"));
    let words = bestmove_words(lines.last().unwrap());
    let pv: Vec<&str> = lines[lines.len() - 2]
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split(' ')
        .collect();
    assert_eq!(words.len(), 4, "{words:?}");
    assert_eq!((words[1].as_str(), words[3].as_str()), (pv[0], pv[1]));
    // A single legal move whose line ends the game has no reply to name.
    engine.send(&format!("position fen {WHITE_WON}"));
    assert_eq!(engine.search("go depth 2").1, "(none)");
    engine.quit();
}

#[test]
fn go_ponder_waits_for_ponderhit_or_stop() {
    let mut engine = Engine::start();
    engine.send("position startpos moves a7a6");
    let position = position_after(None, &["a7a6".into()], Rules::default());
    // Pondering spends no clock: even a search that ends by depth waits for `ponderhit`.
    engine.send("go ponder depth 2 wtime 1000 btime 1000");
    thread::sleep(Duration::from_millis(100));
    engine.sync_during_search();
    engine.send("ponderhit");
    let (_, best) = engine.finish_search();
    assert_legal(&position, &best);
    // With a clock, `ponderhit` turns it into a timed search (of about 1/30 of 3 s).
    engine.send("go ponder wtime 3000 btime 3000");
    thread::sleep(Duration::from_millis(300));
    engine.sync_during_search();
    engine.send("ponderhit");
    let (_, best) = engine.finish_search();
    assert_legal(&position, &best);
    // `stop` while pondering answers at once.
    engine.send("go ponder wtime 100000 btime 100000");
    engine.sync_during_search();
    engine.send("stop");
    let (_, best) = engine.finish_search();
    assert_legal(&position, &best);
    // No search, or one that does not ponder: nothing to hit.
    engine.expect_error("ponderhit");
    engine.send("go infinite");
    engine.sync_during_search();
    engine.send("ponderhit");
    let lines = engine.recv_until(|l| l.starts_with("info string"));
    assert!(lines.last().unwrap().contains("no search is pondering"));
    engine.send("stop");
    engine.finish_search();
    engine.quit();
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    let (infos, best) = engine.search("go depth 4 searchmoves a6b6 a7b7");
    assert!(["a6b6", "a7b7"].contains(&best.as_str()), "{best}");
    for info in &infos {
        let first = info
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert!(["a6b6", "a7b7"].contains(&first), "{info}");
    }
    // Bad moves are an error; the search runs over the good ones, or all.
    let (error, best) = engine.search_noted("go searchmoves zz g1g2 a7a5 depth 2");
    assert!(
        error.contains("'zz'") && error.contains("'a7a5'"),
        "{error}"
    );
    assert!(error.ends_with("searching the others"), "{error}");
    assert_eq!(best, "g1g2");
    let (error, best) = engine.search_noted("go depth 2 searchmoves b2b3");
    assert!(error.ends_with("searching all moves"), "{error}");
    assert_legal(&Position::start(Rules::default()), &best);
    // The restriction was for one search only.
    let (infos, _) = engine.search("go depth 3");
    assert_eq!(infos.len(), 3);
    engine.quit();
}

#[test]
fn go_mate_stops_at_a_proven_win() {
    let mut engine = Engine::start();
    engine.send(&format!("position fen {ONE_CAPTURE}"));
    let (infos, best) = engine.search("go mate 1");
    assert_eq!(best, "b1a1");
    assert_eq!(infos.len(), 1, "{infos:?}");
    assert!(infos[0].contains(" score mate 1 "), "{infos:?}");
    engine.quit();
}

#[test]
fn clear_hash_makes_searches_repeat() {
    let mut engine = Engine::start();
    engine.send(&format!("position fen {MIDDLEGAME}"));
    let nodes = |infos: &[String]| -> Vec<String> {
        infos
            .iter()
            .map(|l| {
                l.split(" nodes ")
                    .nth(1)
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let (first, _) = engine.search("go depth 6");
    let (again, _) = engine.search("go depth 6");
    assert_ne!(
        nodes(&first),
        nodes(&again),
        "the second search used the table"
    );
    engine.expect_silence("setoption name Clear Hash");
    let (cleared, _) = engine.search("go depth 6");
    assert_eq!(nodes(&first), nodes(&cleared));
    engine.quit();
}

#[test]
fn threads_search_together() {
    let mut engine = Engine::start_with(&["--threads", "2"]);
    engine.send("uci");
    let options = engine.recv_until(|l| l == "uciok");
    assert!(options.contains(&"option name Threads type spin default 2 min 1 max 256".into()));
    engine.send(&format!("position fen {MIDDLEGAME}"));
    let middlegame = Position::parse(MIDDLEGAME, Rules::default()).unwrap();
    for go in ["go depth 7", "go nodes 20000", "go movetime 50"] {
        let (infos, best) = engine.search(go);
        assert!(!infos.is_empty());
        assert_legal(&middlegame, &best);
    }
    engine.expect_silence("setoption name Threads value 3");
    engine.send("go infinite");
    engine.sync_during_search();
    engine.send("stop");
    let (_, best) = engine.finish_search();
    assert_legal(&middlegame, &best);
    engine.expect_silence("setoption name Threads value 1");
    let (_, best) = engine.search("go depth 5");
    assert_legal(&middlegame, &best);
    engine.quit();
}

#[test]
fn option_defaults_follow_the_command_line() {
    let mut engine = Engine::start_with(&["--no-extra-move", "--repeat-rule", "ko"]);
    engine.send("uci");
    let options = engine.recv_until(|l| l == "uciok");
    for line in [
        "option name ExtraMove type check default false",
        "option name RepeatRule type combo default ko var pushback var ko",
        "option name Game type combo default akiba var akiba var offboard var abraxas",
    ] {
        assert!(options.contains(&line.to_string()), "{line}: {options:?}");
    }
    // A game chosen again starts with the command line's rules.
    let rules = Rules {
        extra_move: false,
        repeat: RepeatRule::Ko,
    };
    engine.expect_silence("setoption name Game value offboard");
    engine.expect_silence("setoption name Game value akiba");
    assert_eq!(engine.diagram(), expected_diagram(&Position::start(rules)));
    engine.quit();
    let mut engine = Engine::start_with(&[
        "--game",
        "offboard",
        "--offboard-sectors",
        "3,3,3,3,3,3,3,3,3,3,3,3",
    ]);
    engine.send("ugi");
    let options = engine.recv_until(|l| l == "ugiok");
    for line in [
        "option name Game type combo default offboard var akiba var offboard var abraxas",
        "option name OffboardSectors type string default 3,3,3,3,3,3,3,3,3,3,3,3",
    ] {
        assert!(options.contains(&line.to_string()), "{line}: {options:?}");
    }
    engine.quit();
}

#[test]
fn quit_during_a_search_prints_its_bestmove() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.sync_during_search();
    engine.send("quit");
    let (_, best) = engine.finish_search();
    assert_legal(&Position::start(Rules::default()), &best);
    let status = engine.wait();
    assert!(status.success(), "exit status {status}");
    engine.assert_no_more_output();
}

// ---------------------------------------------------------------------------------------
// Queries, diagram, perft
// ---------------------------------------------------------------------------------------

#[test]
fn queries_follow_extra_moves() {
    let mut engine = Engine::start();
    engine.send("ugi");
    engine.recv_until(|l| l == "ugiok");
    engine.sync();
    engine.send("uginewgame");
    engine.send("position startpos");
    assert_eq!(engine.query("p1turn"), "true");
    assert_eq!(engine.query("gameover"), "false");
    assert_eq!(engine.query("result"), "none");
    for (player, p1) in [(Player::One, "true"), (Player::Two, "false")] {
        let line = capture_line(player);
        let mut moves: Vec<String> = Vec::new();
        for mv in line.iter().cloned().chain(["pass".to_string()]) {
            moves.push(mv);
            engine.send(&format!("position startpos moves {}", moves.join(" ")));
            let position = position_after(None, &moves, Rules::default());
            assert_eq!(
                engine.query("p1turn"),
                p1_text(&position),
                "after {moves:?}"
            );
            assert_eq!(engine.query("gameover"), "false");
            assert_eq!(engine.query("result"), "none");
        }
        // Right after the capture the capturer is still to move; the pass hands over.
        engine.send(&format!("position startpos moves {}", line.join(" ")));
        assert_eq!(
            engine.query("p1turn"),
            p1,
            "after {player:?}'s capture {line:?}"
        );
        engine.send(&format!("position startpos moves {} pass", line.join(" ")));
        let other = if p1 == "true" { "false" } else { "true" };
        assert_eq!(engine.query("p1turn"), other);
    }
    for command in ["query", "query turn", "query p1turn now"] {
        engine.expect_error(command);
    }
    engine.quit();
}

#[test]
fn diagram_lines_are_info_strings() {
    let mut engine = Engine::start();
    let lines = engine.diagram();
    assert_eq!(lines, expected_diagram(&Position::start(Rules::default())));
    assert!(lines.iter().all(|l| l.starts_with("info string ")));
    engine.expect_error("d now");
    engine.quit();
}

#[test]
fn perft_counts_like_the_cli() {
    let mut engine = Engine::start();
    engine.send("perft 3");
    let lines = engine.recv_until(|l| l.starts_with("nodes "));
    assert_eq!(lines.last().unwrap(), "nodes 640");
    let start = Position::start(Rules::default());
    let divided: Vec<String> = shove::perft::divide(&start, 3)
        .iter()
        .map(|(mv, n)| format!("{mv}: {n}"))
        .collect();
    assert_eq!(lines[..lines.len() - 1], divided[..]);
    engine.send("perft 1");
    let lines = engine.recv_until(|l| l.starts_with("nodes "));
    assert_eq!(lines.len(), 9);
    assert_eq!(lines[8], "nodes 8");
    engine.send("perft 0");
    engine.expect("nodes 1");
    for command in ["perft", "perft -1", "perft x", "perft 21", "perft 2 3"] {
        engine.expect_error(command);
    }
    engine.quit();
}

// ---------------------------------------------------------------------------------------
// Bad input and the end of input
// ---------------------------------------------------------------------------------------

#[test]
fn garbage_is_reported_and_ignored() {
    let mut engine = Engine::start();
    let moves: Vec<String> = vec!["g1g2".into()];
    engine.send("position startpos moves g1g2");
    let before = engine.diagram();
    for command in [
        "hello",
        "xyzzy 1 2 3",
        "ponderhit",
        "UCI extra",
        "isready now",
        "ucinewgame please",
        "stop it",
        "\u{1b}[31mred",
    ] {
        let error = engine.expect_error(command);
        assert!(error.len() > "info string error: ".len());
    }
    // Blank lines are ignored.
    engine.expect_silence("");
    engine.expect_silence("   \t ");
    // Invalid UTF-8 is an unknown command, not the end of the session.
    engine.transcript.push("> <invalid utf-8>".into());
    let stdin = engine.stdin.as_mut().unwrap();
    stdin.write_all(b"\xff\xfe garbage\n").unwrap();
    stdin.flush().unwrap();
    let line = engine.recv();
    assert!(line.starts_with("info string error: "), "{line}");
    engine.sync();
    // Nothing changed.
    assert_eq!(engine.diagram(), before);
    engine.send("perft 1");
    let lines = engine.recv_until(|l| l.starts_with("nodes "));
    let expected = legal_moves(&position_after(None, &moves, Rules::default())).len();
    assert_eq!(lines.last().unwrap(), &format!("nodes {expected}"));
    // Commands are case-insensitive, and `stop` with no search says nothing.
    engine.expect_silence("STOP");
    engine.send("IsReady");
    engine.expect("readyok");
    engine.quit();
}

#[test]
fn end_of_input_exits_cleanly() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.recv_until(|l| l == "uciok");
    engine.close_stdin();
    let status = engine.wait();
    assert!(status.success(), "exit status {status}");
    engine.assert_no_more_output();
}

#[test]
fn end_of_input_during_a_search_prints_bestmove() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.sync_during_search();
    engine.close_stdin();
    let (_, best) = engine.finish_search();
    assert_legal(&Position::start(Rules::default()), &best);
    let status = engine.wait();
    assert!(status.success(), "exit status {status}");
    engine.assert_no_more_output();
}

// ---------------------------------------------------------------------------------------
// A whole game as cutegames plays it
// ---------------------------------------------------------------------------------------

/// Plays one game the way cutegames' UGI runner talks to an engine started with `args`,
/// from `start` (`None`: `startpos`) for at most `max_plies` moves; returns the moves played.
/// With `adjudication` the engine is given `MaxPlies` and `RepetitionDraw` and must end the
/// game itself, exactly when the library's referee says so.
fn cutegames_game(
    start: Option<&str>,
    max_plies: usize,
    args: &[&str],
    adjudication: Adjudication,
) -> Vec<String> {
    let position_command = |moves: &[String]| {
        let mut command = match start {
            None => "position startpos".to_string(),
            Some(text) => format!("position fen {text}"),
        };
        if !moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&moves.join(" "));
        }
        command
    };
    let mut engine = Engine::start_with(args);
    engine.send("ugi");
    engine.recv_until(|l| l == "ugiok");
    engine.send("setoption name Hash value 16");
    engine.send(&format!(
        "setoption name MaxPlies value {}",
        adjudication.max_plies
    ));
    engine.send(&format!(
        "setoption name RepetitionDraw value {}",
        adjudication.repetition_draw
    ));
    engine.sync();
    engine.send("uginewgame");
    // Who starts.
    engine.send(&position_command(&[]));
    let first = Position::parse(start.unwrap_or(START), Rules::default()).unwrap();
    assert_eq!(engine.query("p1turn"), p1_text(&first));

    let mut moves: Vec<String> = Vec::new();
    let mut clocks = [200i64, 200];
    let increment = 10;
    loop {
        let mut position = Position::parse(start.unwrap_or(START), Rules::default()).unwrap();
        let history = play_moves(&mut position, &moves.join(" ")).unwrap();
        let outcome = adjudication.outcome(&position, &history);
        engine.send(&position_command(&moves));
        assert_eq!(engine.query("p1turn"), p1_text(&position));
        engine.sync();
        engine.send(&position_command(&moves));
        engine.send(&position_command(&moves));
        let over = engine.query("gameover");
        assert_eq!(over, if outcome.is_some() { "true" } else { "false" });
        if over == "true" || moves.len() >= max_plies {
            assert_eq!(engine.query("result"), outcome_text(outcome));
            break;
        }
        let side = position.to_move().index();
        let began = Instant::now();
        let (_, best) = engine.search(&format!(
            "go p1time {} p2time {} p1inc {increment} p2inc {increment}",
            clocks[0], clocks[1]
        ));
        // The clocks only shape the requests; running out is not judged here.
        clocks[side] = (clocks[side] - began.elapsed().as_millis() as i64).max(1) + increment;
        assert_legal(&position, &best);
        moves.push(best);
    }
    engine.quit();
    moves
}

#[test]
fn cutegames_dialogue_for_whole_games() {
    // From the middlegame captures come at once; from the start the game is longer.
    let mut extra_moves = 0;
    for start in [Some(MIDDLEGAME), None] {
        let moves = cutegames_game(start, 60, &[], Adjudication::default());
        let mut position = Position::parse(start.unwrap_or(START), Rules::default()).unwrap();
        for mv in &moves {
            let mover = position.to_move();
            position.play(position.parse_move(mv).unwrap());
            if position.to_move() == mover && position.outcome().is_none() {
                extra_moves += 1;
            }
        }
    }
    assert!(extra_moves > 0, "no extra move happened in the games");
}

/// Counts the moves after which the mover is still to move (extra moves).
fn extra_moves(start: Option<&str>, moves: &[String]) -> usize {
    let mut position = Position::parse(start.unwrap_or(START), Rules::default()).unwrap();
    let mut extra = 0;
    for mv in moves {
        let mover = position.to_move();
        position.play(position.parse_move(mv).unwrap());
        if position.to_move() == mover && position.outcome().is_none() {
            extra += 1;
        }
    }
    extra
}

#[test]
fn cutegames_dialogue_ends_adjudicated_games() {
    // cutegames never ends a game itself: the engine's options do. With the search the game
    // from the start runs into the move limit (or a repetition).
    let limit = Adjudication {
        max_plies: 24,
        repetition_draw: true,
    };
    let moves = cutegames_game(None, usize::MAX, &[], limit);
    assert!(moves.len() <= 24, "{} moves", moves.len());
    // Built-in players answer the same dialogue; random games from the middlegame have
    // extra moves and end by the rules, a repetition or the limit.
    let mut extra = 0;
    for player in ["random", "greedy"] {
        let limit = Adjudication {
            max_plies: 150,
            repetition_draw: true,
        };
        let moves = cutegames_game(Some(MIDDLEGAME), usize::MAX, &["--player", player], limit);
        assert!(moves.len() <= 150);
        extra += extra_moves(Some(MIDDLEGAME), &moves);
    }
    assert!(extra > 0, "no extra move happened in the games");
}

/// White and Black each step a marble out and back: the start recurs every four moves.
const CYCLE: &str = "a7a6 g7g6 a5a6 g5g6";

#[test]
fn repetition_and_move_limit_options() {
    let mut engine = Engine::start();
    let twice = format!("position startpos moves {CYCLE} {CYCLE}");
    engine.send(&twice);
    assert_eq!(engine.query("gameover"), "false");
    engine.expect_silence("setoption name RepetitionDraw value true");
    // The third occurrence of the start position.
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("result"), "draw");
    for go in ["go depth 3", "go nodes 100", "go wtime 100 btime 100"] {
        let (infos, best) = engine.search(go);
        assert!(infos.is_empty());
        assert_eq!(best, "(none)");
    }
    engine.send(&format!("position startpos moves {CYCLE}"));
    assert_eq!(engine.query("gameover"), "false");
    // The limit counts the moves after the position: four here.
    engine.expect_silence("setoption name MaxPlies value 4");
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("result"), "draw");
    engine.send("position startpos moves a7a6 g7g6 a5a6");
    assert_eq!(engine.query("gameover"), "false");
    let (_, best) = engine.search("go depth 2");
    assert_legal(
        &position_after(
            None,
            &["a7a6".into(), "g7g6".into(), "a5a6".into()],
            Rules::default(),
        ),
        &best,
    );
    // A result by the rules stands.
    engine.send(&format!("position fen {WHITE_WON}"));
    assert_eq!(engine.query("result"), "p1win");
    // Both options survive a change of game and back.
    engine.expect_silence("setoption name Game value offboard");
    engine.expect_silence("setoption name Game value akiba");
    engine.send(&twice);
    assert_eq!(engine.query("result"), "draw");
    engine.expect_silence("setoption name MaxPlies value 0");
    engine.expect_silence("setoption name RepetitionDraw value false");
    assert_eq!(engine.query("gameover"), "false");
    for command in [
        "setoption name MaxPlies value -1",
        "setoption name MaxPlies value x",
        "setoption name MaxPlies value 1000001",
        "setoption name RepetitionDraw value maybe",
    ] {
        engine.expect_error(command);
    }
    engine.quit();
}

#[test]
fn built_in_players_speak_the_protocol() {
    for player in ["random", "greedy", "material-ab:3"] {
        let mut engine = Engine::start_with(&["--player", player]);
        engine.send("uci");
        engine.expect(&format!(
            "id name shove {} player {player}",
            env!("CARGO_PKG_VERSION")
        ));
        engine.recv_until(|l| l == "uciok");
        engine.send(&format!("position fen {MIDDLEGAME}"));
        let middlegame = Position::parse(MIDDLEGAME, Rules::default()).unwrap();
        let (infos, best) = engine.search("go movetime 10");
        assert!(infos.is_empty(), "{infos:?}");
        assert_legal(&middlegame, &best);
        // `go infinite` still waits for `stop`.
        engine.send("go infinite");
        engine.sync();
        engine.send("stop");
        let (_, best) = engine.finish_search();
        assert_legal(&middlegame, &best);
        engine.send(&format!("position fen {WHITE_WON}"));
        assert_eq!(engine.search("go depth 1").1, "(none)");
        engine.quit();
    }
    let mut engine = Engine::start_with(&["--player", "greedy"]);
    // Greedy takes the move that wins material.
    engine.send(&format!("position fen {ONE_CAPTURE}"));
    assert_eq!(engine.search("go depth 1").1, "b1a1");
    engine.quit();
}
