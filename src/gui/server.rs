//! The HTTP routes: the page and its modules (embedded in the binary), the game state, the
//! rule options, match logs, game records and the engines' WebSocket; behind the checks of
//! [`super::guard`] and the bounds on what one client can start.

use super::api::{self, Answer, Body};
use super::guard::{self, Access};
use super::session;
use crate::phrase::Phrase;
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
        "/info.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/info.js"),
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
        "/players.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/players.js"),
    ),
    (
        "/review.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/review.js"),
    ),
    (
        "/inbrowser.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/inbrowser.js"),
    ),
    (
        "/site.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/site.js"),
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
        .route("/api/games", get(|| async { respond(api::games()) }))
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

/// An [`Answer`] of the page's API as an HTTP response.
fn respond(answer: Answer) -> Response {
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::BAD_REQUEST);
    match answer.body {
        Body::Json(value) => (status, axum::Json(value)).into_response(),
        Body::Text(text) => (
            status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            text,
        )
            .into_response(),
    }
}

/// An endpoint of [`api`] given the body read, or the status and message saying why it
/// could not be read; `what` names the body in that message.
fn endpoint(
    body: Result<Bytes, BytesRejection>,
    what: &'static str,
    answer: fn(&[u8]) -> Answer,
) -> Response {
    match read_body(body, what) {
        Ok(body) => respond(answer(&body)),
        Err((status, message)) => json_status(status, message),
    }
}

async fn game_state(body: Result<Bytes, BytesRejection>) -> Response {
    endpoint(body, "the game line", api::game_state)
}

async fn match_log(body: Result<Bytes, BytesRejection>) -> Response {
    endpoint(body, "the match log", api::match_log)
}

async fn save_record(body: Result<Bytes, BytesRejection>) -> Response {
    endpoint(body, "the game line", api::save_record)
}

async fn open_record(body: Result<Bytes, BytesRejection>) -> Response {
    endpoint(body, "the game record", api::open_record)
}

/// `POST /api/review` ([`api::ReviewRequest`]) on a blocking thread; one review at a time
/// (`429` while one runs).
async fn review_game(
    State(config): State<Arc<Config>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match read_body(body, "the game line") {
        Ok(body) => body,
        Err((status, message)) => return json_status(status, message),
    };
    let request = match api::ReviewRequest::read(&body) {
        Ok(request) => request,
        Err(answer) => return respond(answer),
    };
    let Ok(_permit) = config.reviews.clone().try_acquire_owned() else {
        let busy = Phrase::new("a review is already running: wait for it to finish");
        return json_status(StatusCode::TOO_MANY_REQUESTS, busy);
    };
    let watch = Arc::new(ReviewWatch::default());
    set_review(&config, Some((request.id.clone(), watch.clone())));
    let review = tokio::task::spawn_blocking(move || request.run(watch)).await;
    set_review(&config, None);
    match review {
        Ok(answer) => respond(answer),
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
