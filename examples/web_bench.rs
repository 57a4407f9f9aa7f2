//! The engine in the browser against the native engine, on the same positions in the same
//! run (docs/web.md, Speed and size): each game's `shove bench` positions searched at the
//! bench depth by `shove bench` (one thread) and, in headless Chromium, by the static site's
//! Web Worker, a fresh worker (empty table) per position as `bench` takes a fresh searcher.
//! Prints per game the nodes of both (they must be equal) and the nodes per second.
//!
//!   web/build.sh site && cargo run --release --example web_bench -- site [ROUNDS]
//!
//! Run it on an idle machine: it is a timing.

#[path = "../tests/common/browser.rs"]
mod browser;
#[path = "../tests/common/static_server.rs"]
mod static_server;

use browser::Browser;
use static_server::StaticServer;
use std::path::Path;
use std::process::Command;

/// `shove bench --game G`: the positions, the total nodes and the nodes per second.
fn native(game: &str) -> (Vec<String>, u64, f64) {
    let out = Command::new("target/release/shove")
        .args(["bench", "--game", game])
        .output()
        .expect("target/release/shove bench runs (cargo build --release)");
    let text = String::from_utf8_lossy(&out.stdout);
    let positions = text
        .lines()
        .filter_map(|l| l.split_once(": best ").map(|(fen, _)| fen.to_string()))
        .collect();
    let last = text.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split_whitespace().collect();
    let nodes = words.first().and_then(|w| w.parse().ok()).unwrap_or(0);
    let nps = words.get(2).and_then(|w| w.parse().ok()).unwrap_or(0.0);
    (positions, nodes, nps)
}

fn depth(game: &str) -> u32 {
    match game {
        "offboard" => 8,
        "abraxas" => 10,
        _ => 12,
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1);
    let site = args.next().expect("usage: web_bench SITE_DIR [ROUNDS]");
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(3);
    let server = StaticServer::start(Path::new(&site));
    let page = Browser::start().await.expect("chromium and chromedriver");
    page.go_to(&server.url).await;
    println!("game      round  native nodes  native nps  wasm nodes  wasm nps  wasm/native");
    for game in ["akiba", "offboard", "abraxas"] {
        for round in 1..=rounds {
            let (positions, native_nodes, native_nps) = native(game);
            let script = format!(
                "const positions = {positions:?}; let nodes = 0, ms = 0; \
                 const module = await WebAssembly.compileStreaming(fetch('/shove_web_bg.wasm')); \
                 for (const start of positions) {{ \
                   const r = await new Promise(resolve => {{ \
                     const w = new Worker('/worker.js', {{ type: 'module' }}); let last = null; \
                     w.onmessage = ({{ data }}) => {{ \
                       if (data.kind === 'ready') w.postMessage({{ kind: 'go', message: JSON.stringify( \
                         {{ type: 'go', slot: 0, id: 1, line: {{ game: '{game}', start }}, depth: {depth} }}) }}); \
                       if (data.kind === 'event') {{ const e = JSON.parse(data.event); \
                         if (e.line && e.line.startsWith('info ')) last = e.line; }} \
                       if (data.kind === 'idle') {{ w.terminate(); resolve([last, data.ms]); }} \
                     }}; \
                     w.postMessage({{ kind: 'init', module }}); \
                   }}); \
                   const words = r[0].split(' '); \
                   nodes += Number(words[words.indexOf('nodes') + 1]); ms += r[1]; \
                 }} \
                 return [nodes, ms];",
                depth = depth(game)
            );
            let result = page
                .js(&format!("return (async () => {{ {script} }})()"))
                .await;
            let nodes = result[0].as_f64().unwrap_or(0.0);
            let ms = result[1].as_f64().unwrap_or(f64::NAN);
            let wasm_nps = nodes / (ms / 1000.0);
            println!(
                "{game:<9} {round:>5}  {native_nodes:>12}  {native_nps:>10.0}  {nodes:>10}  {wasm_nps:>8.0}  {:>11.2}",
                wasm_nps / native_nps
            );
        }
    }
    page.close().await;
}
