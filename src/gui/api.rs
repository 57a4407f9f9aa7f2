//! The page's API as plain functions of the request body: one function per endpoint, the
//! same code whether the answer goes out over HTTP (`shove gui`, [`super::server`]) or from
//! the engine's Web Worker on the static site (web/, docs/web.md). Nothing here knows the
//! transport: a body comes in as bytes and an [`Answer`] goes out.

use super::state::{self, Line};
use crate::game::{Outcome, Player};
use crate::matches::log::{GameRecord, read_log, result_text};
use crate::phrase::{Phrase, Phrased};
use crate::puzzles::format::{PuzzleFile, THEMES};
use crate::record::{self, Record, Variation};
use crate::review::{ReviewSettings, ReviewWatch};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::{Arc, OnceLock};

/// An endpoint's answer: an HTTP status and its body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Body,
}

/// JSON, or the text of a saved game record.
#[derive(Debug)]
pub enum Body {
    Json(Value),
    Text(String),
}

impl Answer {
    pub fn ok(value: Value) -> Answer {
        Answer {
            status: 200,
            body: Body::Json(value),
        }
    }

    /// `{"error": English, "phrase": the same to translate}` ([`Phrase`]), which the page
    /// shows in `#error`.
    pub fn error(status: u16, message: Phrase) -> Answer {
        let body = json!({ "error": message.to_string(), "phrase": message.to_json() });
        Answer {
            status,
            body: Body::Json(body),
        }
    }

    /// A refused request (400).
    pub fn bad(message: Phrase) -> Answer {
        Answer::error(400, message)
    }
}

/// The body read as JSON, or the 400 answer saying why it could not be.
fn read_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, Answer> {
    serde_json::from_slice(body)
        .map_err(|e| Answer::bad(Phrase::new("bad request: {reason}").with("reason", e)))
}

fn json_of<T: Serialize>(value: T) -> Answer {
    match serde_json::to_value(value) {
        Ok(value) => Answer::ok(value),
        Err(e) => Answer::bad(Phrase::plain(e)),
    }
}

/// A function's value, or the 400 answer with its message.
fn answer_of(result: Result<Value, Phrase>) -> Answer {
    match result {
        Ok(value) => Answer::ok(value),
        Err(e) => Answer::bad(e),
    }
}

/// `GET /api/games`: every game's rule options.
pub fn games() -> Answer {
    Answer::ok(state::games())
}

/// `POST /api/state` with a [`Line`]: its state, or what is wrong with it.
pub fn game_state(body: &[u8]) -> Answer {
    let line: Line = match read_json(body) {
        Ok(line) => line,
        Err(answer) => return answer,
    };
    match state::state(&line) {
        Ok(state) => json_of(state),
        Err(e) => Answer::bad(e),
    }
}

/// `POST /api/log` with the text of a `shove match --log` file: its games, each checked by
/// replaying it.
pub fn match_log(body: &[u8]) -> Answer {
    let records = match read_log(body) {
        Ok(records) if records.is_empty() => {
            return Answer::bad(Phrase::new("the log has no games"));
        }
        Ok(records) => records,
        Err(e) => return Answer::bad(e),
    };
    let mut games = Vec::new();
    for record in records {
        if let Err(e) = state::state(&line_of(&record)) {
            let bad = Phrase::new("log game {number}: {reason}")
                .with("number", record.number)
                .with_phrase("reason", e);
            return Answer::bad(bad);
        }
        games.push(json!({
            "number": record.number,
            "game": record.game,
            "players": record.players,
            "result": result_text(record.outcome),
            "reason": record.reason,
            "start": record.opening,
            "moves": record.moves,
            "rules": record.rules,
        }));
    }
    Answer::ok(Value::Array(games))
}

fn line_of(record: &GameRecord) -> Line {
    Line {
        game: record.game.clone(),
        rules: record.rules.clone(),
        start: Some(record.opening.clone()),
        moves: record.moves.clone(),
    }
}

/// What the page saves: the main line, the other lines tried, and who played it.
#[derive(Deserialize)]
struct SaveRequest {
    line: Line,
    #[serde(default)]
    variations: Vec<PageVariation>,
    #[serde(default)]
    players: [String; 2],
    /// The player (1 or 2) who resigned at the end of the main line.
    #[serde(default)]
    resigned: Option<u8>,
}

/// A variation as the page sends and gets it (docs/records.md, Variations).
#[derive(Deserialize, Serialize)]
struct PageVariation {
    /// 0: the main line; J: the J-th variation.
    parent: usize,
    ply: usize,
    moves: Vec<String>,
}

/// `POST /api/record/save` with a [`SaveRequest`]: the game as a game record
/// (docs/records.md), read back before it is sent so that what the page downloads is what
/// `shove record` and `shove review` accept.
pub fn save_record(body: &[u8]) -> Answer {
    let request: SaveRequest = match read_json(body) {
        Ok(request) => request,
        Err(answer) => return answer,
    };
    let record = match record_of(request.line) {
        Ok(record) => Record {
            players: request.players,
            result: match (record.result, request.resigned) {
                (None, Some(1)) => Some(Outcome::Win(Player::Two)),
                (None, Some(2)) => Some(Outcome::Win(Player::One)),
                (result, _) => result,
            },
            reason: match (record.result, request.resigned) {
                (None, Some(p @ 1..=2)) => format!("player {p} resigned"),
                _ => String::new(),
            },
            variations: request
                .variations
                .into_iter()
                .map(|v| Variation {
                    parent: v.parent,
                    ply: v.ply,
                    moves: v.moves,
                })
                .collect(),
            date: record::today(),
            engine: record::engine_version(),
            ..record
        },
        Err(e) => return Answer::bad(e),
    };
    let text = record.to_string();
    if let Err(e) = text.parse::<Record>() {
        let bad = Phrase::new("the game cannot be written as a record: {reason}").with("reason", e);
        return Answer::bad(bad);
    }
    Answer {
        status: 200,
        body: Body::Text(text),
    }
}

/// The page's line as a game record (game, rules, start, result, moves), or why it does not
/// replay; players, date and engine are left for the caller.
fn record_of(line: Line) -> Result<Record, Phrase> {
    let state = state::state(&line)?;
    Ok(Record {
        game: state.game.to_string(),
        rules: line.rules,
        start: state.start,
        players: Default::default(),
        result: state::outcome_of_word(state.result),
        reason: String::new(),
        date: String::new(),
        engine: String::new(),
        moves: line.moves,
        variations: Vec::new(),
    })
}

/// `POST /api/record/open` with the text of a game record: its game as a line, or the
/// record's error naming the line and the field.
pub fn open_record(body: &[u8]) -> Answer {
    let Ok(text) = std::str::from_utf8(body) else {
        return Answer::bad(Phrase::new("the game record is not UTF-8 text"));
    };
    match text.parse::<Record>() {
        Ok(r) => Answer::ok(json!({
            "game": r.game,
            "rules": r.rules,
            "start": r.start,
            "moves": r.moves,
            "players": r.players,
            "result": record::result_field(r.result),
            "variations": r.variations.iter().map(|v| PageVariation {
                parent: v.parent,
                ply: v.ply,
                moves: v.moves.clone(),
            }).collect::<Vec<_>>(),
        })),
        Err(e) => Answer::bad(e.phrase()),
    }
}

/// The deepest review the page may ask for (`shove review` has no such bound).
pub const MAX_REVIEW_DEPTH: u32 = 12;

/// A review the page asked for, checked and ready to run ([`ReviewRequest::run`]).
pub struct ReviewRequest {
    record: Record,
    depth: Option<u32>,
    /// The page's name for it, by which it asks the progress and cancels.
    pub id: String,
}

impl ReviewRequest {
    /// `POST /api/review` with `{line, depth, id}`: the line as a record and the depth of
    /// each position's search (none: the game's default, as `shove review`'s), or the
    /// answer refusing it.
    pub fn read(body: &[u8]) -> Result<ReviewRequest, Answer> {
        #[derive(Deserialize)]
        struct Request {
            line: Line,
            depth: Option<u32>,
            #[serde(default)]
            id: String,
        }
        let request: Request = read_json(body)?;
        if let Some(depth) = request
            .depth
            .filter(|d| !(1..=MAX_REVIEW_DEPTH).contains(d))
        {
            return Err(Answer::bad(
                Phrase::new("review depth {depth} is out of range: 1 to {max}")
                    .with("depth", depth)
                    .with("max", MAX_REVIEW_DEPTH),
            ));
        }
        Ok(ReviewRequest {
            record: record_of(request.line).map_err(Answer::bad)?,
            depth: request.depth,
            id: request.id,
        })
    }

    /// `shove review --json` of the line (src/review.rs) on one search thread, watched by
    /// `watch`: `{"cancelled": true}` when it was cancelled.
    pub fn run(self, watch: Arc<ReviewWatch>) -> Answer {
        let settings = ReviewSettings {
            limits: crate::search::Limits {
                depth: self.depth,
                ..Default::default()
            },
            threads: 1,
            hash_megabytes: 16,
            confirmation_plies: None,
            json: true,
            progress: false,
            watch: Some(watch),
        };
        match crate::review::review_record(&self.record, &settings) {
            Ok(review) => json_of(review),
            Err(e) if e == crate::review::cancelled() => Answer::ok(json!({ "cancelled": true })),
            Err(e) => Answer::bad(Phrase::new("review: {reason}").with_phrase("reason", e)),
        }
    }
}

/// `GET /puzzles/sets.json`: every game's shipped set, read once: `[{game, themes,
/// puzzles: [{id, position, solution, rating, themes}]}]`.
pub fn puzzle_sets() -> &'static Value {
    static SETS: OnceLock<Value> = OnceLock::new();
    SETS.get_or_init(|| {
        let sets: Vec<Value> = crate::puzzles::sets()
            .into_iter()
            .map(|(game, text)| puzzle_set(game, text))
            .collect();
        Value::Array(sets)
    })
}

fn puzzle_set(game: &str, text: &str) -> Value {
    let file = PuzzleFile::parse(text);
    let puzzles: Vec<Value> = file
        .puzzles
        .iter()
        .map(|(_, p)| {
            json!({
                "id": p.id,
                "position": p.position,
                "solution": p.solution,
                "rating": p.rating,
                "themes": p.themes,
            })
        })
        .collect();
    let themes: Vec<&str> = THEMES
        .iter()
        .filter(|(g, _)| *g == "all" || *g == game)
        .flat_map(|(_, themes)| themes.iter().copied())
        .collect();
    json!({ "game": game, "themes": themes, "puzzles": puzzles })
}

/// The endpoints that answer at once, by path (the lessons' are
/// [`crate::lessons::api`]'s) (a review needs its watch: see
/// [`ReviewRequest`]); `None` for a path that is not one of them.
pub fn answer(path: &str, body: &[u8]) -> Option<Answer> {
    Some(match path {
        "/api/games" => games(),
        "/api/state" => game_state(body),
        "/api/log" => match_log(body),
        "/api/record/save" => save_record(body),
        "/api/record/open" => open_record(body),
        "/puzzles/sets.json" => Answer::ok(puzzle_sets().clone()),
        "/api/learn/lessons" => answer_of(crate::lessons::api::lessons(body)),
        "/api/learn/check" => answer_of(crate::lessons::api::check(body)),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_set_is_served_whole() {
        let sets = puzzle_sets().as_array().unwrap();
        assert_eq!(sets.len(), crate::puzzles::sets().len());
        for (set, (game, text)) in sets.iter().zip(crate::puzzles::sets()) {
            assert_eq!(set["game"], *game);
            let file = PuzzleFile::parse(text);
            assert!(file.errors.is_empty(), "{game}: {:?}", file.errors);
            assert_eq!(
                set["puzzles"].as_array().map(Vec::len),
                Some(file.puzzles.len())
            );
            assert!(set["themes"].as_array().is_some_and(|t| t.len() > 5));
        }
    }

    #[test]
    fn a_bad_body_is_refused_with_the_reason_and_a_bad_line_with_the_rules() {
        let answer = game_state(b"{not json");
        assert_eq!(answer.status, 400);
        let Body::Json(body) = answer.body else {
            panic!("JSON expected")
        };
        assert!(body["error"].as_str().unwrap().starts_with("bad request: "));
        let answer = game_state(br#"{"game":"akiba","moves":["z9z9"]}"#);
        assert_eq!(answer.status, 400);
        let answer = game_state(br#"{"game":"akiba","moves":[]}"#);
        assert_eq!(answer.status, 200);
        assert!(answer_of("/api/nothing").is_none());
    }

    fn answer_of(path: &str) -> Option<Answer> {
        answer(path, b"")
    }
}
