//! The engine in the browser against the native engine, on the same positions in the same
//! run (docs/web.md, Speed and size): each game's `shove bench` positions searched at the
//! bench depth by `shove bench` (one thread) and, in headless Chromium, by the static site's
//! Web Worker running the same `bench` (web/src/lib.rs): the same searches, each timed
//! alone on the same clock (`Instant`, which is `performance.now()` in the browser).
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

/// The last line of a bench report, `<N> nodes <M> nps`: (N, M).
fn totals(report: &str) -> (u64, f64) {
    let last = report.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split_whitespace().collect();
    let nodes = words.first().and_then(|w| w.parse().ok()).unwrap_or(0);
    let nps = words
        .get(2)
        .and_then(|w| w.parse().ok())
        .unwrap_or(f64::NAN);
    (nodes, nps)
}

/// `shove bench --game G`, native.
fn native(game: &str) -> String {
    let out = Command::new("target/release/shove")
        .args(["bench", "--game", game])
        .output()
        .expect("target/release/shove bench runs (cargo build --release)");
    String::from_utf8_lossy(&out.stdout).into_owned()
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
            let (native_nodes, native_nps) = totals(&native(game));
            let script = format!(
                "const module = await WebAssembly.compileStreaming(fetch('/shove_web_bg.wasm')); \
                 return await new Promise(resolve => {{ \
                   const w = new Worker('/worker.js', {{ type: 'module' }}); \
                   w.onmessage = ({{ data }}) => {{ \
                     if (data.kind === 'ready') w.postMessage({{ kind: 'bench', game: '{game}' }}); \
                     if (data.kind === 'bench' || data.kind === 'crash') {{ w.terminate(); resolve(data.report || 'error: ' + data.message); }} \
                   }}; \
                   w.postMessage({{ kind: 'init', module }}); \
                 }});"
            );
            let report = page
                .js(&format!("return (async () => {{ {script} }})()"))
                .await;
            let (nodes, wasm_nps) = totals(report.as_str().unwrap_or_default());
            println!(
                "{game:<9} {round:>5}  {native_nodes:>12}  {native_nps:>10.0}  {nodes:>10}  {wasm_nps:>8.0}  {:>11.2}",
                wasm_nps / native_nps
            );
        }
    }
    page.close().await;
}
