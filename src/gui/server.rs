//! The HTTP routes: the page and its modules (embedded in the binary), the game state, the
//! rule options, match logs, game records and the engines' WebSocket; behind the checks of
//! [`super::guard`] and the bounds on what one client can start.

use super::guard::{self, Access};
use super::session;
use super::state::{self, Line};
use crate::game::{Outcome, Player};
use crate::matches::log::{GameRecord, read_log, result_text};
use crate::phrase::{Phrase, Phrased};
use crate::record::{self, Record, Variation};
use crate::review::ReviewWatch;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::{CloseFrame, Message};
use axum::extract::{DefaultBodyLimit, State, WebSocketUpgrade};
use axum::http::{StatusCode, header};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Pages (WebSocket sessions, each with its own engine processes) served at once.
pub const MAX_SESSIONS: usize = 8;
/// The largest request body: a match log of some 16 000 games.
pub const MAX_BODY_MB: usize = 16;
/// The largest message from the page (a game line).
const MAX_MESSAGE_BYTES: usize = 1 << 20;
/// WebSocket close code 1013, "try again later": the refusal of a session over the limit.
const TRY_AGAIN_LATER: u16 = 1013;

/// The page's files: path, content type, text.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("assets/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/board.js"),
    ),
    (
        "/engines.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/engines.js"),
    ),
    (
        "/graph.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/graph.js"),
    ),
    (
        "/tree.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/tree.js"),
    ),
    (
        "/review.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/review.js"),
    ),
    (
        "/api.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/api.js"),
    ),
    (
        "/i18n.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/i18n.js"),
    ),
    (
        "/lang-de.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/lang-de.js"),
    ),
    (
        "/lang-fr.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/lang-fr.js"),
    ),
    (
        "/rules.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/rules.js"),
    ),
    // The Rules page of each game: docs/rules/, rendered by rules.js.
    (
        "/rules/akiba",
        "text/html; charset=utf-8",
        include_str!("assets/rules.html"),
    ),
    (
        "/rules/offboard",
        "text/html; charset=utf-8",
        include_str!("assets/rules.html"),
    ),
    (
        "/rules/abraxas",
        "text/html; charset=utf-8",
        include_str!("assets/rules.html"),
    ),
];

/// The rule books (docs/rules/, and their German and French translations in docs/rules/de/
/// and docs/rules/fr/), for the Rules page: path, text.
const RULE_BOOKS: &[(&str, &str)] = &[
    ("/rules/akiba.md", include_str!("../../docs/rules/akiba.md")),
    (
        "/rules/offboard.md",
        include_str!("../../docs/rules/offboard.md"),
    ),
    (
        "/rules/abraxas.md",
        include_str!("../../docs/rules/abraxas.md"),
    ),
    (
        "/rules/de/akiba.md",
        include_str!("../../docs/rules/de/akiba.md"),
    ),
    (
        "/rules/de/offboard.md",
        include_str!("../../docs/rules/de/offboard.md"),
    ),
    (
        "/rules/de/abraxas.md",
        include_str!("../../docs/rules/de/abraxas.md"),
    ),
    (
        "/rules/fr/akiba.md",
        include_str!("../../docs/rules/fr/akiba.md"),
    ),
    (
        "/rules/fr/offboard.md",
        include_str!("../../docs/rules/fr/offboard.md"),
    ),
    (
        "/rules/fr/abraxas.md",
        include_str!("../../docs/rules/fr/abraxas.md"),
    ),
];

/// What every page gets.
struct Config {
    /// The engine command lines: each page starts one process of each, no more.
    engines: Vec<String>,
    /// One permit per open page.
    sessions: Arc<Semaphore>,
    /// How long an infinite search runs without a new request from its page.
    idle_limit: Duration,
    /// One review at a time: each is a search of every position of a game.
    reviews: Arc<Semaphore>,
    /// The review running, by the id its page gave it: its progress and its cancel flag.
    review: Mutex<Option<(String, Arc<ReviewWatch>)>>,
}

/// The page's files for anyone on this host; the API and the WebSocket with the token.
pub fn router(engines: Vec<String>, access: Access, idle_limit: Duration) -> Router {
    let access = Arc::new(access);
    let config = Arc::new(Config {
        engines,
        sessions: Arc::new(Semaphore::new(MAX_SESSIONS)),
        idle_limit,
        reviews: Arc::new(Semaphore::new(1)),
        review: Mutex::new(None),
    });
    let api = Router::new()
        .route("/api/games", get(|| async { json_ok(state::games()) }))
        .route("/api/state", post(game_state))
        .route("/api/log", post(match_log))
        .route("/api/record/save", post(save_record))
        .route("/api/record/open", post(open_record))
        .route("/api/review", post(review_game))
        .route("/api/review/progress", post(review_progress))
        .route("/api/review/cancel", post(review_cancel))
        .route("/ws", get(websocket))
        .route_layer(from_fn_with_state(access.clone(), guard::token))
        .with_state(config);
    let mut router = Router::new();
    for &(path, content_type, text) in ASSETS {
        router = router.route(
            path,
            get(move || async move { ([(header::CONTENT_TYPE, content_type)], text) }),
        );
    }
    for &(path, text) in RULE_BOOKS {
        let content_type = "text/markdown; charset=utf-8";
        router = router.route(
            path,
            get(move || async move { ([(header::CONTENT_TYPE, content_type)], text) }),
        );
    }
    router
        .merge(api)
        // The puzzles page (src/gui/puzzles.rs).
        .merge(super::puzzles::routes())
        // The lessons page (src/gui/learn.rs).
        .merge(super::learn::routes(access.clone()))
        .layer(DefaultBodyLimit::max(MAX_BODY_MB << 20))
        .layer(from_fn_with_state(access.clone(), guard::remember))
        .layer(from_fn_with_state(access, guard::same_site))
}

fn json_ok(value: Value) -> Response {
    axum::Json(value).into_response()
}

/// A 400 answer the page shows in `#error`.
fn json_error(message: Phrase) -> Response {
    json_status(StatusCode::BAD_REQUEST, message)
}

/// `{"error": English, "phrase": the same to translate}` ([`Phrase`]).
fn json_status(status: StatusCode, message: Phrase) -> Response {
    let body = json!({ "error": message.to_string(), "phrase": message.to_json() });
    (status, axum::Json(body)).into_response()
}

/// The body, or the status and message saying why it could not be read (too large: `413`);
/// `what` is a phrase of its own (`the game line`).
fn read_body(
    body: Result<Bytes, BytesRejection>,
    what: &'static str,
) -> Result<Bytes, (StatusCode, Phrase)> {
    body.map_err(|rejection| {
        let status = rejection.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            let limit = Phrase::new("{what} is larger than {limit} MiB, the most shove gui reads")
                .with_phrase("what", Phrase::new(what))
                .with("limit", MAX_BODY_MB);
            (status, limit)
        } else {
            let cannot = Phrase::new("cannot read {what}: {reason}")
                .with_phrase("what", Phrase::new(what))
                .with("reason", rejection);
            (status, cannot)
        }
    })
}

/// The body read as JSON, or the status and message saying why it could not be.
fn read_json<T: DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
    what: &'static str,
) -> Result<T, (StatusCode, Phrase)> {
    let body = read_body(body, what)?;
    serde_json::from_slice(&body).map_err(|e| {
        let bad = Phrase::new("bad request: {reason}").with("reason", e);
        (StatusCode::BAD_REQUEST, bad)
    })
}

/// `POST /api/state` with a [`Line`]: its state, or what is wrong with it.
async fn game_state(body: Result<Bytes, BytesRejection>) -> Response {
    let line: Line = match read_json(body, "the game line") {
        Ok(value) => value,
        Err((status, message)) => return json_status(status, message),
    };
    match state::state(&line) {
        Ok(state) => match serde_json::to_value(state) {
            Ok(value) => json_ok(value),
            Err(e) => json_error(Phrase::plain(e)),
        },
        Err(e) => json_error(e),
    }
}

/// `POST /api/log` with the text of a `shove match --log` file: its games, each checked by
/// replaying it.
async fn match_log(body: Result<Bytes, BytesRejection>) -> Response {
    let body = match read_body(body, "the match log") {
        Ok(body) => body,
        Err((status, message)) => return json_status(status, message),
    };
    let records = match read_log(&body[..]) {
        Ok(records) if records.is_empty() => {
            return json_error(Phrase::new("the log has no games"));
        }
        Ok(records) => records,
        Err(e) => return json_error(e),
    };
    let mut games = Vec::new();
    for record in records {
        if let Err(e) = state::state(&line_of(&record)) {
            let bad = Phrase::new("log game {number}: {reason}")
                .with("number", record.number)
                .with_phrase("reason", e);
            return json_error(bad);
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
    json_ok(Value::Array(games))
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
#[derive(Deserialize, serde::Serialize)]
struct PageVariation {
    /// 0: the main line; J: the J-th variation.
    parent: usize,
    ply: usize,
    moves: Vec<String>,
}

/// `POST /api/record/save` with a [`SaveRequest`]: the game as a game record
/// (docs/records.md), read back before it is sent so that what the page downloads is what
/// `shove record` and `shove review` accept.
async fn save_record(body: Result<Bytes, BytesRejection>) -> Response {
    let request: SaveRequest = match read_json(body, "the game line") {
        Ok(value) => value,
        Err((status, message)) => return json_status(status, message),
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
        Err(e) => return json_error(e),
    };
    let text = record.to_string();
    if let Err(e) = text.parse::<Record>() {
        let bad = Phrase::new("the game cannot be written as a record: {reason}").with("reason", e);
        return json_error(bad);
    }
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
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
        result: outcome_of(state.result),
        reason: String::new(),
        date: String::new(),
        engine: String::new(),
        moves: line.moves,
        variations: Vec::new(),
    })
}

/// The result of a [`state::State`] (`p1win`, `p2win`, `draw`, `none`) as a record's.
fn outcome_of(result: &str) -> Option<Outcome> {
    match result {
        "p1win" => Some(Outcome::Win(Player::One)),
        "p2win" => Some(Outcome::Win(Player::Two)),
        "draw" => Some(Outcome::Draw),
        _ => None,
    }
}

/// `POST /api/record/open` with the text of a game record: its game as a line, or the
/// record's error naming the line and the field.
async fn open_record(body: Result<Bytes, BytesRejection>) -> Response {
    let body = match read_body(body, "the game record") {
        Ok(body) => body,
        Err((status, message)) => return json_status(status, message),
    };
    let Ok(text) = std::str::from_utf8(&body) else {
        return json_error(Phrase::new("the game record is not UTF-8 text"));
    };
    match text.parse::<Record>() {
        Ok(r) => json_ok(json!({
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
        Err(e) => json_error(e.phrase()),
    }
}

/// The deepest review the page may ask for (`shove review` has no such bound).
const MAX_REVIEW_DEPTH: u32 = 12;

/// What the page asks reviewed: the line, the depth of each position's search (none: the
/// game's default, as `shove review`'s) and an id for [`review_progress`] and
/// [`review_cancel`].
#[derive(Deserialize)]
struct ReviewRequest {
    line: Line,
    depth: Option<u32>,
    #[serde(default)]
    id: String,
}

/// `POST /api/review` with a [`ReviewRequest`]: `shove review --json` of the line
/// (src/review.rs), one search thread; one review at a time (`429` while one runs).
async fn review_game(
    State(config): State<Arc<Config>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let request: ReviewRequest = match read_json(body, "the game line") {
        Ok(value) => value,
        Err((status, message)) => return json_status(status, message),
    };
    if let Some(depth) = request
        .depth
        .filter(|d| !(1..=MAX_REVIEW_DEPTH).contains(d))
    {
        return json_error(
            Phrase::new("review depth {depth} is out of range: 1 to {max}")
                .with("depth", depth)
                .with("max", MAX_REVIEW_DEPTH),
        );
    }
    let Ok(_permit) = config.reviews.clone().try_acquire_owned() else {
        let busy = Phrase::new("a review is already running: wait for it to finish");
        return json_status(StatusCode::TOO_MANY_REQUESTS, busy);
    };
    let record = match record_of(request.line) {
        Ok(record) => record,
        Err(e) => return json_error(e),
    };
    let watch = Arc::new(ReviewWatch::default());
    set_review(&config, Some((request.id, watch.clone())));
    let settings = crate::review::ReviewSettings {
        limits: crate::search::Limits {
            depth: request.depth,
            ..Default::default()
        },
        threads: 1,
        hash_megabytes: 16,
        confirmation_plies: None,
        json: true,
        progress: false,
        watch: Some(watch),
    };
    let review =
        tokio::task::spawn_blocking(move || crate::review::review_record(&record, &settings)).await;
    set_review(&config, None);
    match review {
        Ok(Ok(review)) => match serde_json::to_value(review) {
            Ok(value) => json_ok(value),
            Err(e) => json_error(Phrase::plain(e)),
        },
        Ok(Err(e)) if e == crate::review::cancelled() => json_ok(json!({ "cancelled": true })),
        Ok(Err(e)) => json_error(Phrase::new("review: {reason}").with_phrase("reason", e)),
        Err(e) => json_status(
            StatusCode::INTERNAL_SERVER_ERROR,
            Phrase::new("review: {reason}").with("reason", e),
        ),
    }
}

fn set_review(config: &Config, review: Option<(String, Arc<ReviewWatch>)>) {
    // A poisoned lock only means a panic elsewhere while it was held; the value is whole.
    *config.review.lock().unwrap_or_else(|e| e.into_inner()) = review;
}

/// The running review if it has the id `{"id": …}` of the body.
fn review_with_id(
    config: &Config,
    body: Result<Bytes, BytesRejection>,
) -> Option<Arc<ReviewWatch>> {
    #[derive(Deserialize)]
    struct Id {
        id: String,
    }
    let Id { id } = read_json(body, "the review id").ok()?;
    let running = config.review.lock().unwrap_or_else(|e| e.into_inner());
    running
        .as_ref()
        .filter(|(running, _)| !id.is_empty() && *running == id)
        .map(|(_, watch)| watch.clone())
}

/// `POST /api/review/progress` with `{"id": …}`: `{"done": N, "all": M}` positions of the
/// review with that id, or `{"running": false}`.
async fn review_progress(
    State(config): State<Arc<Config>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    match review_with_id(&config, body) {
        Some(watch) => json_ok(json!({
            "running": true,
            "done": watch.done.load(Ordering::Relaxed),
            "all": watch.all.load(Ordering::Relaxed),
        })),
        None => json_ok(json!({ "running": false })),
    }
}

/// `POST /api/review/cancel` with `{"id": …}`: the review with that id stops after the
/// position it is searching; its request answers `{"cancelled": true}`.
async fn review_cancel(
    State(config): State<Arc<Config>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let cancelled = review_with_id(&config, body)
        .inspect(|watch| watch.cancel())
        .is_some();
    json_ok(json!({ "cancelled": cancelled }))
}

/// Why a page over [`MAX_SESSIONS`] is refused: the phrase as JSON text, which fits the
/// 123 bytes of a WebSocket close reason.
fn refusal() -> String {
    Phrase::new("shove gui serves at most {n} pages at once: close one and reload this one")
        .with("n", MAX_SESSIONS)
        .to_json()
        .to_string()
}

fn line_of(record: &GameRecord) -> Line {
    Line {
        game: record.game.clone(),
        rules: record.rules.clone(),
        start: Some(record.opening.clone()),
        moves: record.moves.clone(),
    }
}

/// A page's session, if fewer than [`MAX_SESSIONS`] are open. Over the limit the socket is
/// opened only to be closed at once with the reason, a phrase as JSON (see [`refusal`]),
/// which the page can read and translate (it cannot read the body of a refused upgrade);
/// nothing is started.
async fn websocket(ws: WebSocketUpgrade, State(config): State<Arc<Config>>) -> Response {
    let ws = ws.max_message_size(MAX_MESSAGE_BYTES);
    let Ok(permit) = config.sessions.clone().try_acquire_owned() else {
        return ws.on_upgrade(|mut socket| async move {
            let close = CloseFrame {
                code: TRY_AGAIN_LATER,
                reason: refusal().into(),
            };
            let _ = socket.send(Message::Close(Some(close))).await;
        });
    };
    let engines = config.engines.clone();
    let idle_limit = config.idle_limit;
    ws.on_upgrade(move |socket| async move {
        session::run(socket, engines, idle_limit).await;
        drop(permit);
    })
}
