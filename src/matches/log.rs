//! The match log (`--log FILE`): one finished game per line, enough to replay it with the
//! rules engine (`shove replay`).
//!
//! A line holds tab-separated fields: game number, game name, player 1's engine, player 2's
//! engine, result (`1-0`, `0-1`, `1/2-1/2`, from player 1's view), reason, opening position
//! string, moves (space-separated), rule options (`Name=value`, space-separated). Lines
//! starting with `#` are comments: the header, the match's settings and (from shove 0.2.0
//! on) the engines' own names and versions, `#engines` with `engine1=<id name>` and
//! `engine2=<id name>`. Readers skip comments, so logs with or without that line read alike.

use crate::game::{Outcome, Player};
use crate::games::{GameVisitor, with_game};
use crate::phrase::Phrase;
use crate::profile::Profile;
use std::fmt;
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

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
    /// Every kind, in the order of [`super::MatchReport::failures`] (their discriminants).
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

/// The comment line that starts every log.
pub const HEADER: &str =
    "# number\tgame\tplayer 1\tplayer 2\tresult\treason\topening\tmoves\trule options";

/// Starts the second line of a log: the match's settings (see
/// [`super::MatchConfig::settings`]), which `shove merge` compares.
pub const SETTINGS: &str = "#settings";

/// Starts the third line of a log: what the engines call themselves (`id name`), so that
/// a log says which versions played. Not part of the settings: logs written before it
/// existed still merge and resume.
pub const ENGINES: &str = "#engines";

/// The `#engines` line for the engines' `id name`s (`?` for an engine that sent none):
/// `engine1=…`, `engine2=…` and so on, in the order of the settings.
pub fn engines_line(id_names: &[Option<&str>]) -> String {
    let fields = id_names
        .iter()
        .enumerate()
        .map(|(i, name)| format!("\tengine{}={}", i + 1, clean(name.unwrap_or("?"))));
    std::iter::once(ENGINES.to_string()).chain(fields).collect()
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// 1-based; games 2k-1 and 2k share an opening with colours swapped.
    pub number: usize,
    pub game: String,
    /// Engine names of player 1 and player 2.
    pub players: [String; 2],
    pub outcome: Outcome,
    pub reason: String,
    pub opening: String,
    pub moves: Vec<String>,
    /// Rule options (name, value) the game was played under.
    pub rules: Vec<(String, String)>,
}

/// Tabs and line breaks would break the format; names and reasons never need them.
fn clean(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

/// A result as logs and records write it.
pub fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Player::One) => "1-0",
        Outcome::Win(Player::Two) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// The outcome a [`result_text`] names; `None` for any other text.
pub fn parse_result_text(text: &str) -> Option<Outcome> {
    [
        Outcome::Win(Player::One),
        Outcome::Win(Player::Two),
        Outcome::Draw,
    ]
    .into_iter()
    .find(|&outcome| result_text(outcome) == text)
}

/// Rule options as logs and records write them: `Name=value`, separated by whitespace.
/// `Err` holds the first that is not of that form.
pub fn parse_rule_options(text: &str) -> Result<Vec<(String, String)>, &str> {
    text.split_whitespace()
        .map(|option| {
            option
                .split_once('=')
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .ok_or(option)
        })
        .collect()
}

impl GameRecord {
    pub fn to_line(&self) -> String {
        let rules: Vec<String> = self
            .rules
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        [
            self.number.to_string(),
            clean(&self.game),
            clean(&self.players[0]),
            clean(&self.players[1]),
            result_text(self.outcome).to_string(),
            clean(&self.reason),
            clean(&self.opening),
            self.moves.join(" "),
            rules.join(" "),
        ]
        .join("\t")
    }

    pub fn parse(line: &str) -> Result<GameRecord, Phrase> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [number, game, p1, p2, result, reason, opening, moves, rules] = fields[..] else {
            return Err(Phrase::new("{n} fields, expected 9").with("n", fields.len()));
        };
        let number = match number.parse() {
            Ok(0) => return Err(Phrase::new("game number 0: games are numbered from 1")),
            Ok(n) => n,
            Err(_) => {
                return Err(
                    Phrase::new("game number '{number}' is not a number").with("number", number)
                );
            }
        };
        let outcome = parse_result_text(result).ok_or_else(|| {
            Phrase::new("result '{result}' is not 1-0, 0-1 or 1/2-1/2").with("result", result)
        })?;
        let rules = parse_rule_options(rules).map_err(|option| {
            Phrase::new("rule option '{option}' is not Name=value").with("option", option)
        })?;
        Ok(GameRecord {
            number,
            game: game.to_string(),
            players: [p1.to_string(), p2.to_string()],
            outcome,
            reason: reason.to_string(),
            opening: opening.to_string(),
            moves: moves.split_whitespace().map(str::to_string).collect(),
            rules,
        })
    }

    /// The engine (0 = `names[0]`) that lost by failing and how, read back from the reason
    /// the referee writes: `<name> loses: <kind>: …`.
    pub fn failure(&self, names: &[String; 2]) -> Option<(usize, FailureKind)> {
        let (name, rest) = self.reason.split_once(" loses: ")?;
        let engine = names.iter().position(|n| n == name)?;
        let kind = FailureKind::ALL
            .into_iter()
            .find(|k| rest.starts_with(&format!("{k}:")))?;
        Some((engine, kind))
    }
}

/// Reads every game of a log.
pub fn read_log(input: impl BufRead) -> Result<Vec<GameRecord>, Phrase> {
    let mut records = Vec::new();
    for (index, line) in input.lines().enumerate() {
        let line =
            line.map_err(|e| Phrase::new("cannot read the log: {reason}").with("reason", e))?;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let record = GameRecord::parse(&line).map_err(|e| {
            Phrase::new("log line {n}: {reason}")
                .with("n", index + 1)
                .with_phrase("reason", e)
        })?;
        records.push(record);
    }
    Ok(records)
}

/// Reads every game of the log at `path`, errors naming the file.
pub fn read_log_file(path: &Path) -> Result<Vec<GameRecord>, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    read_log(std::io::BufReader::new(file)).map_err(|e| format!("{}: {e}", path.display()))
}

/// The settings line of the log at `path` (without its `#settings` tag): logs with equal
/// settings are parts of one match.
pub fn settings(path: &Path) -> Result<String, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let line = std::io::BufReader::new(file)
        .lines()
        .nth(1)
        .transpose()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    line.as_deref()
        .and_then(|line| line.strip_prefix(SETTINGS))
        .map(|s| s.trim_start_matches('\t').to_string())
        .ok_or_else(|| {
            format!(
                "{}: no {SETTINGS} line (logs of an older shove have none)",
                path.display()
            )
        })
}

/// The `#engines` line of the log at `path` (without its tag), if it has one: logs of
/// shove before 0.2.0 have none.
pub fn engines(path: &Path) -> Result<Option<String>, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let line = std::io::BufReader::new(file)
        .lines()
        .nth(2)
        .transpose()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(line
        .as_deref()
        .and_then(|line| line.strip_prefix(ENGINES))
        .map(|s| s.trim_start_matches('\t').to_string()))
}

/// Cuts off a last line without its line break (the writer was stopped in the middle of
/// it), so that the log resumes from its last whole game.
pub fn drop_unfinished_line(path: &Path) -> Result<(), String> {
    let text = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if text.is_empty() || text.ends_with(b"\n") {
        return Ok(());
    }
    let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    tracing::warn!(
        "{}: its last line was cut off while being written; its game is played again",
        path.display()
    );
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|file| file.set_len(whole as u64))
        .map_err(|e| format!("cannot truncate {}: {e}", path.display()))
}

/// The differing `name=value` fields of two settings lines, for refusal messages.
pub fn differences(a: &str, b: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.split('\t').collect(), b.split('\t').collect());
    let mut out = Vec::new();
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (
            a.get(i).copied().unwrap_or(""),
            b.get(i).copied().unwrap_or(""),
        );
        if x != y {
            out.push(format!("'{x}' vs '{y}'"));
        }
    }
    out.join(", ")
}

/// `shove replay FILE [--game K]` on stdout; when a person sits at the terminal it waits
/// for Enter after each move.
pub fn replay_file(path: &Path, game: Option<usize>) -> Result<(), String> {
    let records = read_log_file(path)?;
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal() && std::io::stdout().is_terminal();
    let mut input = stdin.lock();
    let step: Option<&mut dyn BufRead> = if interactive { Some(&mut input) } else { None };
    replay(&records, game, &mut std::io::stdout().lock(), step)
}

/// Prints each selected game move by move with a diagram after each. `game` picks one game
/// by its number; with `step` a line is read from it before each move (a person pressing
/// Enter).
pub fn replay(
    records: &[GameRecord],
    game: Option<usize>,
    out: &mut dyn Write,
    mut step: Option<&mut dyn BufRead>,
) -> Result<(), String> {
    let selected: Vec<&GameRecord> = records
        .iter()
        .filter(|r| game.is_none_or(|k| r.number == k))
        .collect();
    if selected.is_empty() {
        return Err(match game {
            Some(k) => format!("the log has no game {k}"),
            None => "the log has no games".into(),
        });
    }
    let io = |e: std::io::Error| format!("cannot write: {e}");
    for record in selected {
        // Checked in full before anything is printed.
        let frames = with_game(&record.game, Frames { record })??;
        for (index, frame) in frames.iter().enumerate() {
            if index > 0
                && index < frames.len() - 1
                && let Some(input) = step.as_deref_mut()
            {
                out.flush().map_err(io)?;
                let mut line = String::new();
                input
                    .read_line(&mut line)
                    .map_err(|e| format!("cannot read: {e}"))?;
            }
            write!(out, "{frame}").map_err(io)?;
        }
    }
    out.flush().map_err(io)
}

/// A game's replay as text: the start, one piece per move, and the result.
struct Frames<'a> {
    record: &'a GameRecord,
}

impl GameVisitor for Frames<'_> {
    type Output = Result<Vec<String>, String>;

    fn visit<G: Profile>(self) -> Result<Vec<String>, String> {
        let record = self.record;
        let number = record.number;
        let mut rules = G::Rules::default();
        for (name, value) in &record.rules {
            if !G::set_rule_option(&mut rules, name, value)? {
                return Err(format!("game {number}: unknown rule option '{name}'"));
            }
        }
        let mut position = G::parse(&record.opening, rules)
            .map_err(|e| format!("game {number}: bad opening: {e}"))?;
        let mut frames = vec![format!(
            "game {number} ({}): player 1 {}, player 2 {}\nopening: {}\n\n{}",
            G::NAME,
            record.players[0],
            record.players[1],
            record.opening,
            position.diagram()
        )];
        for (index, text) in record.moves.iter().enumerate() {
            let mover = match position.to_move() {
                Player::One => "player 1",
                Player::Two => "player 2",
            };
            let mv = position
                .parse_move(text)
                .map_err(|e| format!("game {number}, move {}: {e}", index + 1))?;
            position.play(mv);
            frames.push(format!(
                "\nmove {}: {mover} plays {text}\n\n{}",
                index + 1,
                position.diagram()
            ));
        }
        frames.push(format!(
            "\nresult {} ({})\n\n",
            result_text(record.outcome),
            record.reason
        ));
        Ok(frames)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> GameRecord {
        GameRecord {
            number: 3,
            game: "akiba".into(),
            players: ["shove".into(), "shove --player random".into()],
            outcome: Outcome::Win(Player::Two),
            reason: "illegal move z9z9 by shove".into(),
            opening: "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1".into(),
            moves: vec!["a7a6".into(), "b1b2".into()],
            rules: vec![("ExtraMove".into(), "false".into())],
        }
    }

    #[test]
    fn lines_round_trip() {
        let line = record().to_line();
        assert_eq!(line.split('\t').count(), 9);
        assert_eq!(GameRecord::parse(&line).unwrap(), record());
        let mut empty = record();
        empty.moves.clear();
        empty.rules.clear();
        assert_eq!(GameRecord::parse(&empty.to_line()).unwrap(), empty);
    }

    #[test]
    fn bad_lines_are_reported() {
        let text = format!("{HEADER}\n\n{}\nnot a game\n", record().to_line());
        let error = read_log(text.as_bytes()).unwrap_err().to_string();
        assert!(error.starts_with("log line 4:"), "{error}");
        let mut zero = record();
        zero.number = 0;
        let error = GameRecord::parse(&zero.to_line()).unwrap_err().to_string();
        assert!(error.contains("numbered from 1"), "{error}");
    }

    #[test]
    fn replay_prints_every_move() {
        let mut out = Vec::new();
        replay(&[record()], Some(3), &mut out, None).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("move 2: player 2 plays b1b2"), "{text}");
        assert!(text.contains("result 0-1 (illegal move z9z9 by shove)"));
        assert!(replay(&[record()], Some(4), &mut Vec::new(), None).is_err());
        let mut bad = record();
        bad.moves.push("a5a6".into());
        bad.moves.push("a1a1".into());
        let error = replay(&[bad], None, &mut Vec::new(), None).unwrap_err();
        assert!(error.contains("move 4"), "{error}");
    }
}
