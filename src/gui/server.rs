//! The HTTP routes: the page and its modules (embedded in the binary), the game state, the
//! rule options, match logs and the engines' WebSocket.

use super::session;
use super::state::{self, Line};
use crate::matches::log::{GameRecord, read_log, result_text};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use std::sync::Arc;

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
];

/// The engine command lines every page gets.
struct Config {
    engines: Vec<String>,
}

pub fn router(engines: Vec<String>) -> Router {
    let mut router = Router::new();
    for &(path, content_type, text) in ASSETS {
        router = router.route(
            path,
            get(move || async move { ([(header::CONTENT_TYPE, content_type)], text) }),
        );
    }
    router
        .route("/api/games", get(|| async { json_ok(state::games()) }))
        .route("/api/state", post(game_state))
        .route("/api/log", post(match_log))
        .route("/ws", get(websocket))
        .with_state(Arc::new(Config { engines }))
}

fn json_ok(value: Value) -> Response {
    axum::Json(value).into_response()
}

/// A 400 answer the page shows in `#error`.
fn json_error(message: String) -> Response {
    (
        StatusCode::BAD_REQUEST,
        axum::Json(json!({ "error": message })),
    )
        .into_response()
}

/// `POST /api/state` with a [`Line`]: its state, or what is wrong with it.
async fn game_state(body: Bytes) -> Response {
    let line: Line = match serde_json::from_slice(&body) {
        Ok(line) => line,
        Err(e) => return json_error(format!("bad request: {e}")),
    };
    match state::state(&line) {
        Ok(state) => match serde_json::to_value(state) {
            Ok(value) => json_ok(value),
            Err(e) => json_error(e.to_string()),
        },
        Err(e) => json_error(e),
    }
}

/// `POST /api/log` with the text of a `shove match --log` file: its games, each checked by
/// replaying it.
async fn match_log(body: Bytes) -> Response {
    let records = match read_log(&body[..]) {
        Ok(records) if records.is_empty() => return json_error("the log has no games".into()),
        Ok(records) => records,
        Err(e) => return json_error(e),
    };
    let mut games = Vec::new();
    for record in records {
        if let Err(e) = state::state(&line_of(&record)) {
            return json_error(format!("log game {}: {e}", record.number));
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

fn line_of(record: &GameRecord) -> Line {
    Line {
        game: record.game.clone(),
        rules: record.rules.clone(),
        start: Some(record.opening.clone()),
        moves: record.moves.clone(),
    }
}

async fn websocket(ws: WebSocketUpgrade, State(config): State<Arc<Config>>) -> Response {
    let engines = config.engines.clone();
    ws.on_upgrade(move |socket| session::run(socket, engines))
}
