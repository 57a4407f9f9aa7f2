//! Strength levels (`Skill Level`, `--level`; src/search/skill.rs) through the protocol,
//! in every game: a weak level plays the same game again from the same start, differs from
//! full strength, searches shallowly with several lines; an out-of-range level is refused
//! naming the option and the level in force stays.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const SHOVE: &str = env!("CARGO_BIN_EXE_shove");

struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(SHOVE)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
    }

    /// Sends `line` and reads up to the line starting with `last`.
    fn until(&mut self, line: &str, last: &str) -> Vec<String> {
        self.send(line);
        let mut lines = Vec::new();
        loop {
            let mut text = String::new();
            assert!(
                self.output.read_line(&mut text).unwrap() > 0,
                "engine ended"
            );
            let text = text.trim_end().to_string();
            let done = text.starts_with(last);
            lines.push(text);
            if done {
                return lines;
            }
        }
    }

    /// The engine's move after `moves` from the start.
    fn best(&mut self, moves: &[String]) -> (String, Vec<String>) {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.send(&position);
        let lines = self.until("go depth 8", "bestmove");
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        (best, lines)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

/// The first `plies` moves a level plays against itself in `game`.
fn self_play(game: &str, level: Option<u32>, plies: usize) -> Vec<String> {
    let level = level.map(|l| l.to_string());
    let mut args = vec!["--game", game];
    if let Some(level) = &level {
        args.extend(["--level", level]);
    }
    let mut engine = Engine::start(&args);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let (best, _) = engine.best(&moves);
        if best == "(none)" || best == "0000" {
            break;
        }
        moves.push(best);
    }
    moves
}

#[test]
fn a_weak_level_plays_the_same_game_again_and_not_the_full_strength_one() {
    for game in ["akiba", "offboard", "abraxas"] {
        let weak = self_play(game, Some(2), 16);
        assert_eq!(weak.len(), 16, "{game}: {weak:?}");
        assert_eq!(
            self_play(game, Some(2), 16),
            weak,
            "{game}: not reproducible"
        );
        let full = self_play(game, None, 16);
        assert_ne!(full, weak, "{game}: level 2 plays as level 20");
        assert_eq!(
            self_play(game, Some(20), 16),
            full,
            "{game}: level 20 is not full strength"
        );
    }
}

#[test]
fn a_weak_level_searches_shallow_with_several_lines() {
    let mut engine = Engine::start(&[]);
    engine.send("setoption name Skill Level value 0");
    let (_, lines) = engine.best(&[]);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(
        infos.iter().all(|l| l.starts_with("info depth 1 ")),
        "{lines:?}"
    );
    assert!(infos.iter().any(|l| l.contains(" multipv 4 ")), "{lines:?}");
}

#[test]
fn an_out_of_range_level_is_refused_and_the_level_kept() {
    let mut engine = Engine::start(&[]);
    let lines = engine.until("uci", "uciok");
    assert!(
        lines.contains(&"option name Skill Level type spin default 20 min 0 max 20".to_string()),
        "{lines:?}"
    );
    engine.send("setoption name Skill Level value 3");
    for bad in ["21", "-1", "three"] {
        let lines = engine.until(
            &format!("setoption name Skill Level value {bad}"),
            "info string",
        );
        let error = lines.last().unwrap();
        assert!(
            error.starts_with("info string error: option Skill Level value '"),
            "{error}"
        );
        assert!(error.contains(bad), "{error}");
    }
    // Level 3 still: depth at most 2.
    let (_, lines) = engine.best(&[]);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    // The command line refuses it too.
    for args in [
        &["--level", "21"][..],
        &["analyze", "--level", "21", "--depth", "2"][..],
    ] {
        let output = Command::new(SHOVE)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!output.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("21"),
            "{args:?}"
        );
    }
}

#[test]
fn analyze_names_the_move_a_level_plays() {
    let output = Command::new(SHOVE)
        .args(["analyze", "--level", "0", "--depth", "4"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success());
    assert!(
        text.lines().any(|l| l.starts_with("level 0 plays ")),
        "{text}"
    );
    assert!(
        text.contains("depth  1/"),
        "level 0 searches to depth 1: {text}"
    );
}
