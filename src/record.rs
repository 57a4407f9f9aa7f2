//! Game records: one finished or unfinished game as a text file a person can keep, read and
//! share (docs/records.md). A few `Key: value` header lines name the game, its rule options,
//! the start position, the players, the result, the date and the engine; then one line per
//! move, `N. pK move` (ply number, mover, move), because with extra moves the mover is not
//! simply the other player.
//!
//! Reading a record ([`Record::from_str`]) replays it by the rules of its game, so a record
//! that parses is a game that happened; every error names the line and the field.

use crate::game::{Game, Outcome, Player};
use crate::games::{GameVisitor, with_game};
use crate::matches::log::{self, GameRecord, result_text};
use crate::phrase::{Phrase, Phrased};
use std::fmt;
use std::str::FromStr;

/// The first line [`Record`]'s `Display` writes (a comment: readers skip `#` lines).
pub const FIRST_LINE: &str = "# shove game record (docs/records.md)";

/// A game: where it started, under which rules, who played, the moves and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game's name (`akiba`, `offboard`, `abraxas`).
    pub game: String,
    /// Rule options (name, value) the game is played under; the game's defaults for the rest.
    pub rules: Vec<(String, String)>,
    /// The position string the moves start from.
    pub start: String,
    /// Names of player 1 and player 2 (empty: unknown).
    pub players: [String; 2],
    /// How the game ended; `None` while it goes on (`*`).
    pub result: Option<Outcome>,
    /// Why it ended, when not by the rules alone (e.g. a time loss); empty: not given.
    pub reason: String,
    /// The day it was played, `YYYY-MM-DD`; empty: unknown.
    pub date: String,
    /// The program that wrote the record, e.g. `shove 0.1.0`; empty: unknown.
    pub engine: String,
    /// The moves in the game's notation.
    pub moves: Vec<String>,
    /// Other lines tried from positions of the game (a move tree), each branching off the
    /// main line or an earlier variation.
    pub variations: Vec<Variation>,
}

/// A line that replaces move `ply` of its parent line and goes on from there:
/// `Variation K[ of J]: N. MOVE MOVE …` in the text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// The line it branches off: 0 the main line, `J` the J-th variation (1-based, an
    /// earlier one).
    pub parent: usize,
    /// The ply (1-based, from the start) of its first move: it follows the parent's first
    /// `ply - 1` moves.
    pub ply: usize,
    /// Its own moves, from `ply` on.
    pub moves: Vec<String>,
}

/// What is wrong with a record, and where: the 1-based line and the field there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// 0 when the problem is the record as a whole (e.g. a header line missing).
    pub line: usize,
    /// A header key as written, or a move or variation by its number.
    pub field: Phrase,
    pub message: Phrase,
}

impl Phrased for RecordError {
    fn phrase(&self) -> Phrase {
        let phrase = if self.line == 0 {
            Phrase::new("{field}: {reason}")
        } else {
            Phrase::new("record line {line}, {field}: {reason}").with("line", self.line)
        };
        phrase
            .with_phrase("field", self.field.clone())
            .with_phrase("reason", self.message.clone())
    }
}

crate::phrase::display_as_phrase!(RecordError);

impl std::error::Error for RecordError {}

fn error(line: usize, field: Phrase, message: Phrase) -> RecordError {
    RecordError {
        line,
        field,
        message,
    }
}

/// A header key as the record writes it (not translated: it is part of the format).
fn key(name: &str) -> Phrase {
    Phrase::plain(name)
}

/// The field of move `n` (1-based).
fn move_field(n: usize) -> Phrase {
    Phrase::new("move {n}").with("n", n)
}

/// The field of variation `n` (1-based).
fn variation_field(n: usize) -> Phrase {
    Phrase::new("variation {n}").with("n", n)
}

/// The result as records and logs write it: `1-0`, `0-1`, `1/2-1/2`, or `*` (not over).
pub fn result_field(result: Option<Outcome>) -> &'static str {
    result.map_or("*", result_text)
}

/// The result a [`result_field`] names (`None` inside: not over); `None` for any other text.
fn parse_result(text: &str) -> Option<Option<Outcome>> {
    match text {
        "*" => Some(None),
        text => log::parse_result_text(text).map(Some),
    }
}

fn player_tag(player: Player) -> &'static str {
    match player {
        Player::One => "p1",
        Player::Two => "p2",
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`, for the `Date` of a new record.
pub fn today() -> String {
    let seconds = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date(seconds / 86_400)
}

/// The calendar date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The program writing records now, for their `Engine` line.
pub fn engine_version() -> String {
    format!("shove {}", env!("CARGO_PKG_VERSION"))
}

impl Record {
    /// The positions of the game under `G`: the start, then the one after each move.
    /// Fails (naming the field, without a line) when the record is not a game of `G` under
    /// its rules; a record that parsed from text always replays under its own game.
    pub fn positions<G: Game>(&self) -> Result<Vec<G>, RecordError> {
        self.replay::<G>(&Lines::default())
    }

    /// A `shove match --log` game as a record, checked by replaying it.
    pub fn from_log(log: &GameRecord) -> Result<Record, String> {
        let record = Record {
            game: log.game.clone(),
            rules: log.rules.clone(),
            start: log.opening.clone(),
            players: log.players.clone(),
            result: Some(log.outcome),
            reason: log.reason.clone(),
            date: String::new(),
            engine: String::new(),
            moves: log.moves.clone(),
            variations: Vec::new(),
        };
        record
            .check(&Lines::default())
            .map_err(|e| format!("log game {} does not replay: {e}", log.number))?;
        Ok(record)
    }

    /// Replays the record under its own game.
    fn check(&self, lines: &Lines) -> Result<(), RecordError> {
        with_game(
            &self.game,
            Check {
                record: self,
                lines,
            },
        )
        .map_err(|e| error(lines.game, key("Game"), e))?
    }

    fn replay<G: Game>(&self, lines: &Lines) -> Result<Vec<G>, RecordError> {
        if !self.game.eq_ignore_ascii_case(G::NAME) {
            return Err(error(
                lines.game,
                key("Game"),
                Phrase::new("a record of {record}, not of {game}")
                    .with("record", &self.game)
                    .with("game", G::NAME),
            ));
        }
        let mut rules = G::Rules::default();
        for (name, value) in &self.rules {
            let known = G::set_rule_option(&mut rules, name, value)
                .map_err(|e| error(lines.rules, key("Rules"), e))?;
            if !known {
                return Err(error(
                    lines.rules,
                    key("Rules"),
                    Phrase::new("{option} is not a rule option of {game}")
                        .with("option", name)
                        .with("game", G::NAME),
                ));
            }
        }
        let start = match self.start.trim() {
            "startpos" => G::start(rules),
            text => {
                G::parse(text, rules).map_err(|e| error(lines.start, key("Start"), e.phrase()))?
            }
        };
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        positions.push(start);
        for (index, text) in self.moves.iter().enumerate() {
            let line = lines.moves.get(index).copied().unwrap_or(0);
            let field = move_field(index + 1);
            let mut position = positions[index].clone();
            if let Some(&mover) = lines.movers.get(index)
                && mover != position.to_move()
            {
                return Err(error(
                    line,
                    field,
                    Phrase::new("'{move}' is written for {mover}, but it is {player}'s decision")
                        .with("move", text)
                        .with("mover", player_tag(mover))
                        .with("player", player_tag(position.to_move())),
                ));
            }
            let mv = position
                .parse_move(text)
                .map_err(|e| error(line, field, e.phrase()))?;
            position.play(mv);
            positions.push(position);
        }
        let last = positions.last().expect("the start is always there");
        if let Some(outcome) = last.outcome()
            && self.result != Some(outcome)
        {
            return Err(error(
                lines.result,
                key("Result"),
                Phrase::new("'{result}', but the game ends {outcome} by the rules")
                    .with("result", result_field(self.result))
                    .with("outcome", result_text(outcome)),
            ));
        }
        for index in 0..self.variations.len() {
            let line = lines.variations.get(index).copied().unwrap_or(0);
            self.check_variation::<G>(index, &positions[0])
                .map_err(|message| error(line, variation_field(index + 1), message))?;
        }
        Ok(positions)
    }

    /// The whole line of variation `index` (0-based): its parent's moves before its ply,
    /// then its own; `None` for a variation that names no earlier line.
    pub fn variation_line(&self, index: usize) -> Option<Vec<String>> {
        let variation = self.variations.get(index)?;
        let parent = match variation.parent {
            0 => self.moves.clone(),
            j if j <= index => self.variation_line(j - 1)?,
            _ => return None,
        };
        let keep = variation.ply.checked_sub(1)?;
        let mut line: Vec<String> = parent.get(..keep)?.to_vec();
        line.extend(variation.moves.iter().cloned());
        Some(line)
    }

    /// Variation `index` branches off a line written before it, replaces one of that
    /// line's moves with another, and replays from `start`.
    fn check_variation<G: Game>(&self, index: usize, start: &G) -> Result<(), Phrase> {
        let variation = &self.variations[index];
        if variation.parent > index {
            return Err(
                Phrase::new("branches off variation {n}, which is not written before it")
                    .with("n", variation.parent),
            );
        }
        let parent = if variation.parent == 0 {
            self.moves.clone()
        } else {
            self.variation_line(variation.parent - 1)
                .ok_or_else(|| Phrase::new("its parent line does not replay"))?
        };
        let of = match variation.parent {
            0 => Phrase::new("the main line"),
            j => variation_field(j),
        };
        if variation.ply == 0 || variation.ply > parent.len() {
            return Err(Phrase::new(
                "starts at move {ply}, but {line} has moves 1 to {last}: a variation replaces \
                 one of them",
            )
            .with("ply", variation.ply)
            .with_phrase("line", of)
            .with("last", parent.len()));
        }
        let Some(first) = variation.moves.first() else {
            return Err(Phrase::new("has no moves"));
        };
        if *first == parent[variation.ply - 1] {
            return Err(Phrase::new(
                "its first move {move} is move {ply} of {line} itself, not another line",
            )
            .with("move", first)
            .with("ply", variation.ply)
            .with_phrase("line", of));
        }
        let mut position = start.clone();
        for text in &parent[..variation.ply - 1] {
            let mv = position.parse_move(text).map_err(|e| e.phrase())?;
            position.play(mv);
        }
        for (offset, text) in variation.moves.iter().enumerate() {
            let mv = position.parse_move(text).map_err(|e| {
                Phrase::new("move {n}: {reason}")
                    .with("n", variation.ply + offset)
                    .with_phrase("reason", e.phrase())
            })?;
            position.play(mv);
        }
        Ok(())
    }
}

/// The game in the file at `path`: a record, or game `number` of a `shove match --log` log
/// (told apart by the log's first line). A log of one game needs no number.
pub fn load(path: &std::path::Path, number: Option<usize>) -> Result<Record, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let name = path.display();
    if text.lines().next() == Some(crate::matches::log::HEADER) {
        let games =
            crate::matches::log::read_log(text.as_bytes()).map_err(|e| format!("{name}: {e}"))?;
        let game = match number {
            Some(k) => games.iter().find(|g| g.number == k),
            None if games.len() == 1 => games.first(),
            None => {
                return Err(format!(
                    "{name} is a match log of {} games: choose one with --number K",
                    games.len()
                ));
            }
        };
        let game = game.ok_or_else(|| match number {
            Some(k) => format!("{name}: the log has no game {k}"),
            None => format!("{name}: the log has no games"),
        })?;
        return Record::from_log(game).map_err(|e| format!("{name}: {e}"));
    }
    if number.is_some() {
        return Err(format!(
            "{name} is a game record, not a match log: --number does not apply"
        ));
    }
    text.parse().map_err(|e| format!("{name}: {e}"))
}

/// Where each field stood in the text, for error messages (0: not from text).
#[derive(Default)]
struct Lines {
    game: usize,
    rules: usize,
    start: usize,
    result: usize,
    moves: Vec<usize>,
    movers: Vec<Player>,
    variations: Vec<usize>,
}

struct Check<'a> {
    record: &'a Record,
    lines: &'a Lines,
}

impl GameVisitor for Check<'_> {
    type Output = Result<(), RecordError>;
    fn visit<G: Game>(self) -> Result<(), RecordError> {
        self.record.replay::<G>(self.lines).map(|_| ())
    }
}

impl fmt::Display for Record {
    /// The record as text; the movers are written from the replay, so the record must be a
    /// game of its own game (as every record read or made from a log is).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules: Vec<String> = self
            .rules
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        writeln!(f, "{FIRST_LINE}")?;
        let rules = rules.join(" ");
        let values = [
            self.game.as_str(),
            &rules,
            &self.start,
            &self.players[0],
            &self.players[1],
            result_field(self.result),
            &self.reason,
            &self.date,
            &self.engine,
        ];
        for (key, value) in KEYS.iter().zip(values) {
            // A line break in a value would end the header line early.
            let value = value.replace(['\n', '\r'], " ");
            match value.trim() {
                "" => writeln!(f, "{key}:")?,
                value => writeln!(f, "{key}: {value}")?,
            }
        }
        writeln!(f)?;
        let movers = with_game(&self.game, Movers(self))
            .ok()
            .and_then(Result::ok);
        for (index, mv) in self.moves.iter().enumerate() {
            match movers.as_ref().and_then(|m| m.get(index)) {
                Some(&mover) => writeln!(f, "{}. {} {mv}", index + 1, player_tag(mover))?,
                None => writeln!(f, "{}. {mv}", index + 1)?,
            }
        }
        if !self.variations.is_empty() {
            writeln!(f)?;
        }
        for (index, v) in self.variations.iter().enumerate() {
            let of = match v.parent {
                0 => String::new(),
                j => format!(" of {j}"),
            };
            writeln!(
                f,
                "Variation {}{of}: {}. {}",
                index + 1,
                v.ply,
                v.moves.join(" ")
            )?;
        }
        Ok(())
    }
}

/// Who decided each move.
struct Movers<'a>(&'a Record);

impl GameVisitor for Movers<'_> {
    type Output = Result<Vec<Player>, RecordError>;
    fn visit<G: Game>(self) -> Self::Output {
        let positions = self.0.positions::<G>()?;
        Ok(positions[..positions.len() - 1]
            .iter()
            .map(G::to_move)
            .collect())
    }
}

/// `Variation K[ of J]: N. MOVE MOVE …`, the variation numbered `expected` (0-based).
fn parse_variation(line: &str, expected: usize) -> Result<Variation, Phrase> {
    let form = || Phrase::new("'{line}' is not 'Variation K[ of J]: N. MOVE …'").with("line", line);
    let (head, body) = line.split_once(':').ok_or_else(form)?;
    let head: Vec<&str> = head.split_whitespace().skip(1).collect();
    let (number, parent) = match head[..] {
        [k] => (k, "0"),
        [k, of, j] if of.eq_ignore_ascii_case("of") => (k, j),
        _ => return Err(form()),
    };
    if number != (expected + 1).to_string() {
        return Err(Phrase::new("numbered '{number}', expected '{expected}'")
            .with("number", number)
            .with("expected", expected + 1));
    }
    let parent: usize = parent.parse().map_err(|_| {
        Phrase::new("'of {parent}' does not name a variation by its number").with("parent", parent)
    })?;
    let mut words = body.split_whitespace();
    let ply = words
        .next()
        .and_then(|w| w.strip_suffix('.'))
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(|| {
            Phrase::new("{reason}: no move number 'N.'").with_phrase("reason", form())
        })?;
    Ok(Variation {
        parent,
        ply,
        moves: words.map(str::to_string).collect(),
    })
}

/// Movers (`p1`, `p2`) are written for all the moves or for none.
fn some_movers() -> Phrase {
    Phrase::new("movers given for some moves only")
}

/// Header keys, each allowed once, in the order `Display` writes them.
const KEYS: [&str; 9] = [
    "Game", "Rules", "Start", "Player1", "Player2", "Result", "Reason", "Date", "Engine",
];
/// Keys a record cannot do without.
const REQUIRED: [&str; 3] = ["Game", "Start", "Result"];

impl FromStr for Record {
    type Err = RecordError;

    fn from_str(text: &str) -> Result<Record, RecordError> {
        let mut values: [Option<(usize, String)>; KEYS.len()] = Default::default();
        let mut lines = Lines::default();
        let mut moves = Vec::new();
        let mut variations = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let number = index + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let first = line.split_whitespace().next().unwrap_or("");
            if let Some(ply) = first.strip_suffix('.')
                && variations.is_empty()
            {
                let field = move_field(moves.len() + 1);
                if ply != (moves.len() + 1).to_string() {
                    return Err(error(
                        number,
                        field,
                        Phrase::new("numbered '{number}', expected '{expected}.'")
                            .with("number", first)
                            .with("expected", moves.len() + 1),
                    ));
                }
                let words: Vec<&str> = line.split_whitespace().skip(1).collect();
                let (mover, mv) = match words[..] {
                    [mv] if mv != "p1" && mv != "p2" => (None, mv),
                    ["p1", mv] => (Some(Player::One), mv),
                    ["p2", mv] => (Some(Player::Two), mv),
                    _ => {
                        return Err(error(
                            number,
                            field,
                            Phrase::new("'{line}' is not 'N. p1|p2 MOVE'").with("line", line),
                        ));
                    }
                };
                // A record without movers is read as one; movers given are checked.
                if let Some(mover) = mover {
                    if lines.movers.len() != moves.len() {
                        return Err(error(number, field, some_movers()));
                    }
                    lines.movers.push(mover);
                }
                lines.moves.push(number);
                moves.push(mv.to_string());
                continue;
            }
            if first.eq_ignore_ascii_case("variation") {
                let variation = parse_variation(line, variations.len()).map_err(|message| {
                    error(number, variation_field(variations.len() + 1), message)
                })?;
                variations.push(variation);
                lines.variations.push(number);
                continue;
            }
            if !variations.is_empty() {
                return Err(error(
                    number,
                    Phrase::new("moves"),
                    Phrase::new("'{line}' after the variations: they come last").with("line", line),
                ));
            }
            let Some((key, value)) = line.split_once(':') else {
                return Err(error(
                    number,
                    Phrase::new("header"),
                    Phrase::new("'{line}' is neither 'Key: value' nor a move 'N. p1|p2 MOVE'")
                        .with("line", line),
                ));
            };
            let key = key.trim();
            let Some(slot) = KEYS.iter().position(|k| k.eq_ignore_ascii_case(key)) else {
                return Err(error(
                    number,
                    self::key(key),
                    Phrase::new("unknown header key (expected one of {keys})")
                        .with("keys", KEYS.join(", ")),
                ));
            };
            if !moves.is_empty() {
                return Err(error(
                    number,
                    self::key(KEYS[slot]),
                    Phrase::new("header line after the moves"),
                ));
            }
            if let Some((first, _)) = &values[slot] {
                return Err(error(
                    number,
                    self::key(KEYS[slot]),
                    Phrase::new("given twice (first on line {line})").with("line", first),
                ));
            }
            values[slot] = Some((number, value.trim().to_string()));
        }
        if !lines.movers.is_empty() && lines.movers.len() != moves.len() {
            return Err(error(0, Phrase::new("moves"), some_movers()));
        }
        for name in REQUIRED {
            let slot = KEYS.iter().position(|k| *k == name).expect("a key");
            if values[slot].is_none() {
                let missing = Phrase::new("no '{key}:' line").with("key", name);
                return Err(error(0, key(name), missing));
            }
        }
        let mut take = |key: &str| -> (usize, String) {
            let slot = KEYS.iter().position(|k| *k == key).expect("a key");
            values[slot].take().unwrap_or_default()
        };
        let (game_line, game) = take("Game");
        let (rules_line, rules_text) = take("Rules");
        let (start_line, start) = take("Start");
        let (result_line, result_text) = take("Result");
        let rules = log::parse_rule_options(&rules_text).map_err(|option| {
            let form = Phrase::new("'{option}' is not Name=value").with("option", option);
            error(rules_line, key("Rules"), form)
        })?;
        let result = parse_result(&result_text).ok_or_else(|| {
            error(
                result_line,
                key("Result"),
                Phrase::new("'{result}' is not 1-0, 0-1, 1/2-1/2 or *")
                    .with("result", &result_text),
            )
        })?;
        let record = Record {
            game: game.to_ascii_lowercase(),
            rules,
            start,
            players: [take("Player1").1, take("Player2").1],
            result,
            reason: take("Reason").1,
            date: take("Date").1,
            engine: take("Engine").1,
            moves,
            variations,
        };
        lines.game = game_line;
        lines.rules = rules_line;
        lines.start = start_line;
        lines.result = result_line;
        record.check(&lines)?;
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_417), "2025-11-25");
    }
}
