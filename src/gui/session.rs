//! One page's WebSocket: its engines (one actor each, started when the page connects and
//! killed when it goes) and the messages between them and the page.
//!
//! Page → server: `{"type":"go","slot":0,"id":7,"line":{…},"movetime":1000,"multipv":1}`
//! (no `movetime`: `go infinite`; `"level":N` with 0..=20 plays at `Skill Level` N, none at
//! full strength), `{"type":"stop","slot":0}`, `{"type":"restart","slot":0}`.
//! Server → page: the engine list, then the engines' events (see [`super::engine`]).
//! A page gets one process per `--engine` command line and no more: `restart` replaces
//! the slot's process, and a slot outside the list is an error.

use super::engine::{Engine, Request};
use super::state::Line;
use crate::phrase::Phrase;
use crate::search::Skill;
use axum::extract::ws::{Message, WebSocket};
use serde::Deserialize;
use serde_json::json;
use std::time::Duration;
use tokio::sync::mpsc;

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum PageMessage {
    Go {
        slot: usize,
        id: u64,
        line: Line,
        movetime: Option<u64>,
        #[serde(default = "one")]
        multipv: usize,
        level: Option<u32>,
    },
    Stop {
        slot: usize,
    },
    Restart {
        slot: usize,
    },
}

fn one() -> usize {
    1
}

/// Runs until the page closes the socket. An infinite search is stopped after `idle_limit`
/// without a new request.
pub async fn run(mut socket: WebSocket, commands: Vec<String>, idle_limit: Duration) {
    let (events_tx, mut events) = mpsc::unbounded_channel();
    let list: Vec<_> = commands
        .iter()
        .enumerate()
        .map(|(slot, command)| json!({"slot": slot, "command": command}))
        .collect();
    if socket
        .send(Message::text(
            json!({"type": "engines", "engines": list}).to_string(),
        ))
        .await
        .is_err()
    {
        return;
    }
    let engines: Vec<_> = commands
        .into_iter()
        .enumerate()
        .map(|(slot, command)| Engine::spawn(slot, command, events_tx.clone(), idle_limit))
        .collect();
    loop {
        tokio::select! {
            message = socket.recv() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                let reply = match serde_json::from_str::<PageMessage>(&text) {
                    Ok(message) => forward(&engines, message).err(),
                    Err(e) => Some(Phrase::new("bad message from the page: {reason}").with("reason", e)),
                };
                if let Some(message) = reply {
                    let event = json!({
                        "type": "error",
                        "message": message.to_string(),
                        "phrase": message.to_json(),
                        "dead": false,
                    });
                    if socket.send(Message::text(event.to_string())).await.is_err() {
                        break;
                    }
                }
            }
            Some(event) = events.recv() => {
                if socket.send(Message::text(event.to_string())).await.is_err() {
                    break;
                }
            }
        }
    }
}

fn forward(engines: &[mpsc::UnboundedSender<Request>], message: PageMessage) -> Result<(), Phrase> {
    let (slot, request) = match message {
        PageMessage::Go {
            slot,
            id,
            line,
            movetime,
            multipv,
            level,
        } => {
            if let Some(level) = level.filter(|&l| l > Skill::MAX_LEVEL) {
                return Err(
                    Phrase::new("level {level} is out of range: levels are 0 to {max}")
                        .with("level", level)
                        .with("max", Skill::MAX_LEVEL),
                );
            }
            (
                slot,
                Request::Go {
                    id,
                    line,
                    movetime,
                    multipv: multipv.clamp(1, crate::uci::MAX_MULTIPV),
                    level,
                },
            )
        }
        PageMessage::Stop { slot } => (slot, Request::Stop),
        PageMessage::Restart { slot } => (slot, Request::Restart),
    };
    engines
        .get(slot)
        .ok_or_else(|| Phrase::new("there is no engine {n}").with("n", slot + 1))?
        .send(request)
        .map_err(|_| Phrase::new("engine {n} has stopped").with("n", slot + 1))
}
