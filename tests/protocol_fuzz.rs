//! Protocol fuzzing against the real binary: bursts of random and mutated protocol lines —
//! valid commands of all three games, their mutations, huge numbers, long lines, bytes
//! that are not UTF-8, commands sent while searches run — and after each burst the engine
//! must answer `readyok`, have printed exactly one `bestmove` per `go` and only protocol
//! lines, and never panic.
//!
//! The run is bounded by time: `SHOVE_FUZZ_SECONDS` (default 3, shared by the games), so it
//! is short in CI and as long as wanted by hand, e.g.
//! `SHOVE_FUZZ_SECONDS=600 cargo test --release --test tools protocol_fuzz:: -- --nocapture`.
//! The seed is printed, and `SHOVE_FUZZ_SEED` replays a run.

use crate::binary;
use crate::playout;

use playout::play_random;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::game::MoveList;
use shove::games::{GameVisitor, with_game};
use shove::profile::Profile;
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Only a hung engine takes this long to answer `readyok` after `stop`.
const TIMEOUT: Duration = Duration::from_secs(60);
/// Lines per burst.
const BURST: usize = 120;

/// Valid lines for game `G`: positions reached by random moves, move lists, searches of
/// every kind, options, queries.
struct Corpus(u64);

impl GameVisitor for Corpus {
    type Output = Vec<String>;

    fn visit<G: Profile>(self) -> Vec<String> {
        let mut rng = StdRng::seed_from_u64(self.0);
        let mut lines: Vec<String> = [
            "uci",
            "ugi",
            "isready",
            "ucinewgame",
            "uginewgame",
            "position startpos",
            "go depth 3",
            "go nodes 3000",
            "go movetime 5",
            "go wtime 100 btime 100 winc 5 binc 5",
            "go p1time 50 p2time 50 movestogo 3",
            "go infinite",
            "go",
            "go mate 3",
            "go ponder wtime 200 btime 200",
            "go depth 2 searchmoves pass",
            "ponderhit",
            "stop",
            "query gameover",
            "query p1turn",
            "query result",
            "d",
            "perft 1",
            "perft 2",
            "setoption name Threads value 2",
            "setoption name Threads value 1",
            "setoption name Ponder value true",
            "setoption name Ponder value false",
            "setoption name MultiPV value 2",
            "setoption name MultiPV value 1",
            "setoption name Move Overhead value 10",
            "setoption name Clear Hash",
            "setoption name Hash value 4",
            "setoption name MaxPlies value 6",
            "setoption name MaxPlies value 0",
            "setoption name RepetitionDraw value true",
            "setoption name ExtraMove value false",
            "setoption name ExtraMove value true",
            "setoption name RepeatRule value ko",
            "setoption name AbraxasTarget value 13",
            "setoption name OffboardSectors value 3,3,3,3,3,3,3,3,3,3,3,3",
        ]
        .map(String::from)
        .to_vec();
        for _ in 0..12 {
            let mut position = G::start(G::Rules::default());
            let plies = rng.random_range(0..40);
            let moves = play_random(&mut rng, &mut position, plies);
            lines.push(format!("position startpos moves {}", moves.join(" ")));
            lines.push(format!("position fen {position}"));
            let mut list = MoveList::new();
            position.legal_moves(&mut list);
            let some: Vec<String> = list.iter().take(3).map(ToString::to_string).collect();
            lines.push(format!("go depth 4 searchmoves {}", some.join(" ")));
        }
        lines
    }
}

/// Words that replace numbers and moves: edge values and absurd ones.
const ODD_WORDS: &[&str] = &[
    "0",
    "1",
    "-1",
    "1.5",
    "1e3",
    "99999999999999999999999999",
    "18446744073709551615",
    "4294967296",
    "1000000000",
    "nan",
    "",
    "pass",
    "moves",
    "fen",
    "startpos",
    "infinite",
    "value",
    "name",
];

/// One random line (as bytes, since some are not UTF-8).
fn random_line(rng: &mut StdRng, corpus: &[String]) -> Vec<u8> {
    let base = &corpus[rng.random_range(0..corpus.len())];
    match rng.random_range(0..10) {
        // A valid line as it is.
        0..=3 => base.clone().into_bytes(),
        // Words replaced, dropped, doubled or swapped.
        4..=6 => {
            let mut words: Vec<String> = base.split(' ').map(String::from).collect();
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..words.len());
                match rng.random_range(0..4) {
                    0 => words[i] = ODD_WORDS[rng.random_range(0..ODD_WORDS.len())].into(),
                    1 if words.len() > 1 => {
                        words.remove(i);
                    }
                    2 => {
                        let word = words[i].clone();
                        words.insert(i, word);
                    }
                    _ => {
                        let j = rng.random_range(0..words.len());
                        words.swap(i, j);
                    }
                }
            }
            words
                .join(if rng.random_bool(0.1) { "\t" } else { " " })
                .into_bytes()
        }
        // Random bytes, some not UTF-8 (never a newline: one line each).
        7 => (0..rng.random_range(0..60))
            .map(|_| rng.random_range(0..=255u8))
            .filter(|&b| b != b'\n')
            .collect(),
        // A long line: a valid command with thousands of words after it.
        8 => {
            let mut line = base.clone();
            for _ in 0..rng.random_range(100..3000) {
                line.push(' ');
                line.push_str(ODD_WORDS[rng.random_range(0..ODD_WORDS.len())]);
            }
            line.into_bytes()
        }
        // Upper case, and a valid line with garbage glued on.
        _ => {
            let mut line = base.to_uppercase().into_bytes();
            line.extend_from_slice(b" \xc3\x28 \xff");
            line
        }
    }
}

/// Commands the fuzzer must not send: `quit` ends the session, and deep perft runs on the
/// command thread for hours by design.
fn harmless(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line).to_ascii_lowercase();
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.first() {
        Some(&"quit") => false,
        Some(&"perft") => words.get(1).is_some_and(|d| matches!(*d, "0" | "1" | "2")),
        _ => true,
    }
}

/// Whether the engine will answer this line with a `bestmove` (every `go` does).
fn is_go(line: &[u8]) -> bool {
    String::from_utf8_lossy(line)
        .split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("go"))
}

/// Whether the engine will answer this line with `readyok` (`isready` without arguments).
fn is_isready(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let words: Vec<&str> = text.split_whitespace().collect();
    matches!(words.as_slice(), [w] if w.eq_ignore_ascii_case("isready"))
}

/// A line the protocol defines (loosely: its first word).
fn is_protocol_line(line: &str) -> bool {
    let words: Vec<&str> = line.split(' ').collect();
    match words.as_slice() {
        ["readyok" | "uciok" | "ugiok"] => true,
        [
            "id" | "option" | "info" | "response" | "bestmove" | "nodes",
            _,
            ..,
        ] => true,
        [mv, n] => mv.ends_with(':') && n.bytes().all(|b| b.is_ascii_digit()),
        _ => false,
    }
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: thread::JoinHandle<String>,
}

impl Engine {
    fn start(game: &str) -> Engine {
        let (mut child, stdin, lines) = binary::start_engine(&["--game", game], Stdio::piped());
        let mut stderr = child.stderr.take().expect("piped");
        let stderr = thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Engine {
            child,
            stdin,
            lines,
            stderr,
        }
    }

    fn send(&mut self, line: &[u8]) {
        self.stdin.write_all(line).expect("write to the engine");
        self.stdin.write_all(b"\n").expect("write to the engine");
    }

    /// Stops whatever runs and reads everything up to the `readyok` of its own `isready`,
    /// after `readyoks` earlier ones (answers to `isready` lines of the burst).
    fn settle(&mut self, readyoks: usize, context: &str) -> Vec<String> {
        self.send(b"stop");
        self.send(b"isready");
        self.stdin.flush().expect("flush");
        let mut lines = Vec::new();
        let mut seen = 0;
        loop {
            match self.lines.recv_timeout(TIMEOUT) {
                Ok(line) if line == "readyok" && seen == readyoks => return lines,
                Ok(line) if line == "readyok" => seen += 1,
                Ok(line) => lines.push(line),
                Err(RecvTimeoutError::Timeout) => panic!("no readyok after {context}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the engine died after {context}"),
            }
        }
    }
}

fn fuzz_game(game: &str, seed: u64, deadline: Instant) -> (usize, usize) {
    let corpus = with_game(game, Corpus(seed)).expect("a known game");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = Engine::start(game);
    let (mut sent, mut gos) = (0, 0);
    loop {
        let burst: Vec<Vec<u8>> = (0..BURST)
            .map(|_| random_line(&mut rng, &corpus))
            .filter(|line| harmless(line))
            .collect();
        for line in &burst {
            engine.send(line);
        }
        let expected = burst.iter().filter(|line| is_go(line)).count();
        let context = format!("a burst of {} lines ({game}, seed {seed})", burst.len());
        let readyoks = burst.iter().filter(|line| is_isready(line)).count();
        let answers = engine.settle(readyoks, &context);
        let bestmoves = answers
            .iter()
            .filter(|l| l.starts_with("bestmove "))
            .count();
        let show = || {
            burst
                .iter()
                .map(|l| {
                    String::from_utf8_lossy(l)
                        .chars()
                        .take(200)
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(
            bestmoves,
            expected,
            "{context}: {bestmoves} bestmoves for {expected} go commands\n--- sent ---\n{}",
            show()
        );
        if let Some(line) = answers.iter().find(|l| !is_protocol_line(l)) {
            panic!(
                "{context}: not a protocol line: '{line}'\n--- sent ---\n{}",
                show()
            );
        }
        sent += burst.len();
        gos += expected;
        if Instant::now() >= deadline {
            break;
        }
    }
    engine.send(b"quit");
    engine.stdin.flush().expect("flush");
    let status = engine.child.wait().expect("wait for the engine");
    let stderr = engine.stderr.join().expect("stderr reader");
    assert!(!stderr.contains("panicked"), "{game}: a panic:\n{stderr}");
    assert!(status.success(), "{game}: exit status {status}\n{stderr}");
    (sent, gos)
}

#[test]
fn random_protocol_lines_never_break_the_engine() {
    let seconds: f64 = std::env::var("SHOVE_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let seed: u64 = std::env::var("SHOVE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(rand::random);
    println!("SHOVE_FUZZ_SEED={seed}");
    for (i, game) in ["akiba", "offboard", "abraxas"].into_iter().enumerate() {
        let deadline = Instant::now() + Duration::from_secs_f64(seconds / 3.0);
        let (sent, gos) = fuzz_game(game, seed.wrapping_add(i as u64), deadline);
        println!("{game}: {sent} lines, {gos} go commands");
        assert!(sent >= BURST / 2, "{game}: only {sent} lines");
    }
}
