//! shove in the browser: the page's API ([`shove::gui::api`]) and its engine
//! ([`shove::gui::local`]), exported to the Web Worker that runs them (web/worker.js). The
//! worker passes the page's requests in as they came and posts back what comes out, so the
//! static site runs the same Rust as `shove gui` for game state, moves, records, review,
//! puzzles and search.

use shove::games::{GameVisitor, with_game};
use shove::gui::api::{self, Answer, Body, ReviewRequest};
use shove::gui::local::{self, Go, LocalEngine};
use shove::nnue::choice;
use shove::profile::Profile;
use shove::review::ReviewWatch;
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// A panic's message goes to the console before the worker's call fails; the page then
/// starts a new worker (web/worker.js).
#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| console_error(&format!("shove: {info}"))));
}

/// `{"status": N, "json": …}` or `{"status": N, "text": "…"}`.
fn answer_json(answer: Answer) -> String {
    let body = match answer.body {
        Body::Json(value) => serde_json::json!({ "status": answer.status, "json": value }),
        Body::Text(text) => serde_json::json!({ "status": answer.status, "text": text }),
    };
    body.to_string()
}

/// The endpoint at `path` of the page's API with the request body, answered at once;
/// `None` for a path it does not have (the worker answers 404).
#[wasm_bindgen]
pub fn answer(path: &str, body: &[u8]) -> Option<String> {
    api::answer(path, body).map(answer_json)
}

thread_local! {
    /// Where the running review's progress goes: the worker's function that posts it.
    static PROGRESS: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

fn tell_progress(done: usize, all: usize) {
    PROGRESS.with(|progress| {
        if let Some(f) = &*progress.borrow() {
            let _ = f.call2(&JsValue::NULL, &(done as f64).into(), &(all as f64).into());
        }
    });
}

/// `POST /api/review` with its body; `progress(done, all)` is called after each position.
#[wasm_bindgen]
pub fn review(body: &[u8], progress: js_sys::Function) -> String {
    let request = match ReviewRequest::read(body) {
        Ok(request) => request,
        Err(answer) => return answer_json(answer),
    };
    PROGRESS.with(|p| *p.borrow_mut() = Some(progress));
    let answer = request.run(Arc::new(ReviewWatch::notifying(tell_progress)));
    PROGRESS.with(|p| *p.borrow_mut() = None);
    answer_json(answer)
}

/// The `engines` event: this worker's one engine.
#[wasm_bindgen]
pub fn engines_event() -> String {
    local::engines_event().to_string()
}

/// The `ready` event of engine slot `slot`.
#[wasm_bindgen]
pub fn ready_event(slot: usize) -> String {
    local::ready_event(slot).to_string()
}

/// `shove bench --game GAME` run here: the same positions, depth, network and timing (the
/// searches alone), its report as text, for examples/web_bench.rs.
#[wasm_bindgen]
pub fn bench(game: &str) -> String {
    struct Bench;
    impl GameVisitor for Bench {
        type Output = Result<String, String>;
        fn visit<G: Profile>(self) -> Result<String, String> {
            let mut report = Vec::new();
            shove::cli::bench::<G>(None, 1, choice::resolve::<G>(None, None)?, &mut report)?;
            Ok(String::from_utf8_lossy(&report).into_owned())
        }
    }
    match with_game(game, Bench) {
        Ok(Ok(report)) => report,
        Ok(Err(e)) => format!("error: {e}"),
        Err(phrase) => format!("error: {phrase}"),
    }
}

/// Panics, for the page's test that a worker which dies is replaced and the game kept.
#[wasm_bindgen]
pub fn panic_for_test() {
    panic!("a panic asked for by the page's test");
}

/// The page's engine: one searcher per game, kept between searches.
#[wasm_bindgen]
#[derive(Default)]
pub struct Engine {
    engine: LocalEngine,
}

#[wasm_bindgen]
impl Engine {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Engine {
        Engine::default()
    }

    /// Searches the page's `go` message (JSON), calling `emit` with each event as JSON
    /// text; a message that cannot be read is an error event.
    pub fn go(&mut self, message: &str, emit: &js_sys::Function) {
        let mut send = |event: serde_json::Value| {
            let _ = emit.call1(&JsValue::NULL, &event.to_string().into());
        };
        match serde_json::from_str::<Go>(message) {
            Ok(go) => self.engine.go(&go, &mut send, &js_sys::Date::now),
            Err(e) => send(serde_json::json!({
                "type": "error",
                "message": format!("bad message from the page: {e}"),
                "phrase": {"text": "bad message from the page: {reason}", "values": {"reason": e.to_string()}},
                "dead": false,
            })),
        }
    }
}
