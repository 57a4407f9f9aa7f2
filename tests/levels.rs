//! Strength levels (`Skill Level`, `--level`; src/search/skill.rs) through the protocol,
//! in every game: a weak level plays the same game again from the same start, differs from
//! full strength, searches within its node cap with several lines; an out-of-range level
//! is refused naming the option and the level in force stays; `UCI_LimitStrength` +
//! `UCI_Elo` play the level the game's table gives, whatever the order of the options.

use shove::profile::Profile;
use shove::search::Skill;
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

/// The most nodes any `info` line of a search reports.
fn most_nodes(lines: &[String]) -> u64 {
    lines
        .iter()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|&w| w == "nodes")?;
            words.get(at + 1)?.parse().ok()
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn a_weak_level_searches_within_its_node_cap_with_several_lines() {
    let mut engine = Engine::start(&[]);
    engine.send("setoption name Skill Level value 0");
    let (_, lines) = engine.best(&[]);
    assert!(most_nodes(&lines) <= 1000, "{lines:?}");
    assert!(lines.iter().any(|l| l.contains(" multipv 4 ")), "{lines:?}");
}

#[test]
fn a_weak_level_searches_all_its_lines_before_its_node_cap_counts() {
    // Abraxas' first move may go on any of 64 holes: level 0's 32 lines at depth 1 cost
    // more than its 1,000 nodes, and all are searched; no second iteration starts.
    let lines_at_0 = shove::abraxas::Position::LEVEL_0_LINES;
    assert_eq!(lines_at_0, 32);
    let mut engine = Engine::start(&["--game", "abraxas"]);
    engine.send("setoption name Skill Level value 0");
    let (_, lines) = engine.best(&[]);
    let at_depth_1 = lines
        .iter()
        .filter(|l| l.starts_with("info depth 1 "))
        .count();
    assert_eq!(at_depth_1, lines_at_0, "{lines:?}");
    assert!(most_nodes(&lines) > 1000, "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
}

/// The most nodes a search reports with `options` sent in that order (then `go depth 8`
/// from the start).
fn nodes_with(options: &[&str]) -> u64 {
    let mut engine = Engine::start(&[]);
    for option in options {
        engine.send(&format!("setoption name {option}"));
    }
    let (_, lines) = engine.best(&[]);
    most_nodes(&lines)
}

#[test]
fn uci_elo_plays_the_level_of_the_games_table_in_any_order() {
    let levels = shove::offboard::Position::LEVEL_ELO;
    // Offboard's level 3 (2,000 nodes) by its Elo, whatever the order of the options.
    let elo = format!("UCI_Elo value {}", levels[3]);
    let options = [
        "Game value offboard",
        "UCI_LimitStrength value true",
        elo.as_str(),
    ];
    let cap = Skill::new(3).unwrap().node_cap();
    for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]] {
        let sent: Vec<&str> = order.iter().map(|&i| options[i]).collect();
        let nodes = nodes_with(&sent);
        assert!(
            nodes <= cap && nodes > Skill::new(2).unwrap().node_cap() / 2,
            "{sent:?}: {nodes} nodes"
        );
    }
    // Without UCI_LimitStrength the Elo does nothing: the full search to depth 8.
    assert!(nodes_with(&["Game value offboard", &elo]) > 4 * cap);
    // Out of range: refused, naming the option.
    let mut engine = Engine::start(&[]);
    let lines = engine.until("setoption name UCI_Elo value 99999", "info string");
    assert!(
        lines
            .last()
            .is_some_and(|l| l.starts_with("info string error: option UCI_Elo value '99999'")),
        "{lines:?}"
    );
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
    // Level 3 still: more nodes than level 0's cap, at most its own.
    let (_, lines) = engine.best(&[]);
    let nodes = most_nodes(&lines);
    assert!(
        nodes > Skill::new(0).unwrap().node_cap() && nodes <= Skill::new(3).unwrap().node_cap(),
        "{nodes}: {lines:?}"
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
    let nodes: Vec<u64> = text
        .lines()
        .filter(|l| l.starts_with("depth "))
        .filter_map(|l| {
            l.split("nodes")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .collect();
    assert!(
        !nodes.is_empty() && nodes.iter().all(|&n| n <= 1000),
        "level 0 searches at most 1,000 nodes: {text}"
    );
}
