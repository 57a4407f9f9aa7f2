//! The static site (web/build.sh, docs/web.md) in headless Chromium, served by a plain
//! static file server (`python3 -m http.server`) with no shove process running: games
//! against level 1 played by clicking, a hint, an analysis stopped, a review, a puzzle
//! solved, a link opened in another tab, a bad position string refused with the game kept,
//! a worker that dies replaced with the game kept, the same search as the native engine,
//! `movetime 1000` answered in time, the site served under a path, and no error in the
//! console.
//!
//! The site is built by `.ci/run` (`web/build.sh`) and named by `SHOVE_WEB_SITE`; without
//! it these tests say so and pass, unless `SHOVE_REQUIRE_WEB` is set (CI).

#[path = "common/browser.rs"]
mod browser;
#[path = "common/static_server.rs"]
mod static_server;

use browser::Browser;
use serde_json::{Value, json};
use static_server::StaticServer;
use std::path::PathBuf;
use std::process::Command;

fn site() -> Option<PathBuf> {
    match std::env::var_os("SHOVE_WEB_SITE") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            assert!(
                dir.join("index.html").is_file(),
                "SHOVE_WEB_SITE={} holds no site: run web/build.sh {}",
                dir.display(),
                dir.display()
            );
            Some(dir)
        }
        None => {
            assert!(
                std::env::var_os("SHOVE_REQUIRE_WEB").is_none(),
                "SHOVE_REQUIRE_WEB is set but SHOVE_WEB_SITE names no site (web/build.sh DIR)"
            );
            eprintln!("\n*** SKIPPED: set SHOVE_WEB_SITE to a site built by web/build.sh ***\n");
            None
        }
    }
}

/// The timing test has the machine to itself: the others, which run side by side, hold
/// this shared and it holds it alone (a search cut at 1,000 ms is answered late when
/// four browsers beside it take the cores).
static TIMING: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

/// The site and the browser, or `None` when either is missing and not required.
async fn start() -> Option<(StaticServer, Browser)> {
    let dir = site()?;
    let browser = Browser::start().await?;
    Some((StaticServer::start(&dir), browser))
}

async fn played(page: &Browser) -> usize {
    page.js("return document.querySelectorAll('#moves [data-move]').length")
        .await
        .as_u64()
        .unwrap_or(0) as usize
}

async fn engine_ready(page: &Browser) {
    page.wait_for(
        "return document.querySelector('#engine-list .engine.ready')",
        30,
        "the engine in its worker to be ready",
    )
    .await;
}

/// A person's move: a different clickable move each turn (from-cell, then to-cell), or a
/// move without cells (pass, slide, stay) from the list.
async fn person_moves(page: &Browser, turn: usize) {
    let v = page
        .js(&format!(
            "const all = [...document.querySelectorAll('#legal-moves [data-to]')]
               .sort((x, y) => (y.dataset.from ? 1 : 0) - (x.dataset.from ? 1 : 0)
                              || x.dataset.move.length - y.dataset.move.length);
             const b = all[{} % Math.max(all.length, 1)];
             return b ? [b.dataset.from || null, b.dataset.to] : null",
            turn * 7
        ))
        .await;
    if v.is_null() {
        page.click("#legal-moves [data-move]").await;
        return;
    }
    let [from, to]: [Value; 2] = serde_json::from_value(v).expect("a clickable move");
    if let Some(from) = from.as_str() {
        page.click(&format!("#board [data-cell='{from}']")).await;
    }
    page.click(&format!(
        "#board [data-cell='{}']",
        to.as_str().expect("a cell")
    ))
    .await;
}

/// The review depth chosen (its options have no value attribute but their text).
async fn set_review_depth(page: &Browser, depth: &str) {
    page.js(&format!(
        "const s = document.getElementById('review-depth'); s.value = {}; \
         s.dispatchEvent(new Event('change'))",
        json!(depth)
    ))
    .await;
}

/// What the console said at level `error` (Chromium's log, kept by the page's hook).
async fn console_errors(page: &Browser) -> Value {
    page.js("return window.__errors || []").await
}

async fn watch_console(page: &Browser) {
    page.js("window.__errors = []; \
             addEventListener('error', e => window.__errors.push(String(e.message))); \
             addEventListener('unhandledrejection', e => window.__errors.push(String(e.reason))); \
             const error = console.error; \
             console.error = (...a) => { window.__errors.push(a.join(' ')); error(...a); };")
        .await;
}

/// In each game a game against level 1 played by clicking until the engine has answered
/// five times; then a hint, an analysis stopped within 100 ms, and a bad position string.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_game_is_played_against_level_1_in_the_static_site() {
    let _shared = TIMING.read().await;
    let Some((server, page)) = start().await else {
        return;
    };
    for (game, cells) in [("akiba", 49), ("offboard", 61), ("abraxas", 64)] {
        page.open(&server.url).await;
        watch_console(&page).await;
        engine_ready(&page).await;
        page.choose("#game", game).await;
        page.wait_for(
            &format!("return document.querySelectorAll('#board [data-cell]').length === {cells}"),
            10,
            "the board",
        )
        .await;
        page.choose("#level", "1").await;
        page.js(
            "const m = document.getElementById('movetime'); m.value = '100'; \
                 m.dispatchEvent(new Event('change'))",
        )
        .await;
        page.choose("#play-mode", "p1").await;
        for answer in 0..5 {
            if page
                .js("return document.getElementById('status').dataset.result")
                .await
                != "none"
            {
                break;
            }
            let before = played(&page).await;
            person_moves(&page, answer).await;
            page.wait_for(
                &format!(
                    "return document.querySelectorAll('#moves [data-move]').length > {before}"
                ),
                10,
                "the clicked move",
            )
            .await;
            // The engine's whole turn, until it is the person's decision or the end.
            page.wait_for(
                "return document.getElementById('status').dataset.result !== 'none' \
                   || (document.querySelector('#player-bottom.active') \
                       && !document.getElementById('status').textContent.includes('thinking'))",
                30,
                &format!("{game}: the engine's answer {}", answer + 1),
            )
            .await;
        }
        page.screenshot(&format!("web-{game}"), 1400, 1000).await;
        page.choose("#play-mode", "none").await;

        // A hint: a legal move in words, nothing played.
        let moves = played(&page).await;
        if page
            .js("return document.getElementById('status').dataset.result")
            .await
            == "none"
        {
            page.click("#hint").await;
            page.wait_for(
                "return document.getElementById('hint-text').textContent.length > 0",
                30,
                "the hint",
            )
            .await;
            assert_eq!(played(&page).await, moves, "{game}: a hint plays nothing");

            // Analysis: lines, then Stop ends it at once.
            page.click("#analysis").await;
            page.wait_for(
                "const l = document.querySelectorAll('#analysis-lines .analysis-line'); \
                 return l.length > 0 && l[0].textContent.includes('depth')",
                30,
                "analysis lines",
            )
            .await;
            let stopped = page
                .js("const t0 = performance.now(); \
                     document.getElementById('analysis').click(); \
                     return new Promise(r => { const check = () => \
                       document.getElementById('analysis').getAttribute('aria-pressed') === 'false' \
                         ? r(performance.now() - t0) : setTimeout(check, 5); check(); })")
                .await;
            let ms = stopped.as_f64().expect("the time to stop");
            assert!(ms < 100.0, "{game}: Stop took {ms} ms");
        }

        // A bad position string: the same message as the native page, the game kept.
        let position = page.text("#position").await;
        page.js("document.getElementById('position-input').value = 'not a position'")
            .await;
        page.click("#position-load").await;
        page.wait_for(
            "const e = document.getElementById('error'); \
             return !e.hidden && e.textContent.includes('bad position string')",
            10,
            "the bad position string's message",
        )
        .await;
        assert_eq!(page.text("#position").await, position);
        assert_eq!(played(&page).await, moves);
        assert_eq!(
            console_errors(&page).await,
            json!([]),
            "{game}: console errors"
        );
    }
    page.close().await;
}

/// A search in a fresh worker (its own empty table, as `shove bench` takes a fresh
/// searcher per position): the page's `go` message, the events' lines, and the time from
/// sending the `go` to the `bestmove` on the page's clock.
const SEARCH_IN_A_WORKER: &str = "
  const [go] = arguments;
  return new Promise(resolve => {
    const lines = []; let sent = 0;
    const w = new Worker('/worker.js', { type: 'module' });
    w.onmessage = ({ data }) => {
      if (data.kind === 'ready') { sent = performance.now(); w.postMessage({ kind: 'go', message: JSON.stringify(go) }); }
      if (data.kind === 'event') {
        const e = JSON.parse(data.event);
        if (e.line) lines.push(e.line);
        if (e.type === 'bestmove') { w.terminate(); resolve([lines, performance.now() - sent]); }
      }
    };
    WebAssembly.compileStreaming(fetch('/shove_web_bg.wasm')).then(module => w.postMessage({ kind: 'init', module }));
  });";

async fn search_in_a_worker(page: &Browser, go: Value) -> (Vec<String>, f64) {
    let result = page
        .client
        .execute(SEARCH_IN_A_WORKER, vec![go])
        .await
        .expect("the worker's search");
    let lines = serde_json::from_value(result[0].clone()).expect("lines");
    (lines, result[1].as_f64().expect("a time"))
}

/// The engine in the worker searches as the native engine does: on each game's `shove
/// bench` positions at the bench depth, the same best move, score and nodes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_worker_searches_as_the_native_engine() {
    let _shared = TIMING.read().await;
    let Some((server, page)) = start().await else {
        return;
    };
    page.open(&server.url).await;
    for (game, depth) in [("akiba", 12), ("offboard", 8), ("abraxas", 10)] {
        let bench = Command::new(env!("CARGO_BIN_EXE_shove"))
            .args(["bench", "--game", game, "--depth", &depth.to_string()])
            .output()
            .expect("shove bench runs");
        let bench = String::from_utf8_lossy(&bench.stdout).to_string();
        // `<position>: best <move> score <score> nodes <n>`
        let positions: Vec<(&str, &str)> = bench
            .lines()
            .filter_map(|l| l.split_once(": best "))
            .collect();
        assert!(positions.len() >= 4, "{game}: {bench}");
        for (start, native) in positions {
            let go = json!({"type": "go", "slot": 0, "id": 1, "depth": depth,
                            "line": {"game": game, "start": start}});
            let (lines, _) = search_in_a_worker(&page, go).await;
            let info = lines
                .iter()
                .rfind(|l| l.starts_with(&format!("info depth {depth} ")))
                .unwrap_or_else(|| panic!("{game} {start}: {lines:?}"));
            let w: Vec<&str> = info.split_whitespace().collect();
            let at = |k: &str| w.iter().position(|x| *x == k).map(|i| w[i + 1]);
            let score = w
                .iter()
                .position(|x| *x == "score")
                .map(|i| format!("{} {}", w[i + 1], w[i + 2]));
            let best = lines
                .iter()
                .find_map(|l| l.strip_prefix("bestmove "))
                .unwrap_or_default();
            let worker = format!(
                "{best} score {} nodes {}",
                score.unwrap_or_default(),
                at("nodes").unwrap_or_default()
            );
            assert_eq!(worker, native, "{game} {start}");
        }
    }
    page.close().await;
}

/// `movetime 1000` answers within 1,100 ms on the page's clock, the worker already started.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_movetime_search_answers_in_time() {
    let _alone = TIMING.write().await;
    let Some((server, page)) = start().await else {
        return;
    };
    page.open(&server.url).await;
    for game in ["akiba", "offboard", "abraxas"] {
        let go = json!({"type": "go", "slot": 0, "id": 1, "movetime": 1000,
                        "line": {"game": game}});
        let (lines, ms) = search_in_a_worker(&page, go).await;
        eprintln!("{game}: movetime 1000 answered in {ms:.0} ms");
        assert!(
            lines.iter().any(|l| l.starts_with("bestmove ")),
            "{lines:?}"
        );
        assert!(
            (900.0..=1100.0).contains(&ms),
            "{game}: movetime 1000 took {ms:.0} ms"
        );
    }
    page.close().await;
}

/// A puzzle solved by clicking, a review with its progress, a link opened in another tab
/// showing the same game, and a worker that panics replaced with the game kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_review_links_and_a_crash_in_the_static_site() {
    let _shared = TIMING.read().await;
    let Some((server, page)) = start().await else {
        return;
    };
    // A one-move Akiba puzzle of the shipped set, solved by clicking its push.
    let set = shove::puzzles::format::PuzzleFile::parse(
        &std::fs::read_to_string("positions/puzzles/akiba.txt").expect("the Akiba set"),
    );
    let puzzle = set
        .puzzles
        .iter()
        .map(|(_, p)| p)
        .find(|p| p.solution.len() == 1 && p.solution[0].len() == 4)
        .expect("a one-push puzzle");
    page.open(&format!(
        "{}puzzles/#game=akiba&id={}",
        server.url, puzzle.id
    ))
    .await;
    watch_console(&page).await;
    page.wait_for(
        "const s = document.getElementById('puzzle-status'); \
         return s.dataset.state === 'solving' && s.dataset.busy === 'false'",
        20,
        "the puzzle",
    )
    .await;
    let (from, to) = puzzle.solution[0].split_at(2);
    page.click(&format!("#board [data-cell='{from}']")).await;
    page.click(&format!("#board [data-cell='{to}']")).await;
    page.wait_for(
        "return document.getElementById('puzzle-status').dataset.state === 'solved'",
        20,
        "the puzzle solved",
    )
    .await;
    page.screenshot("web-puzzle", 1400, 1000).await;
    assert_eq!(
        console_errors(&page).await,
        json!([]),
        "puzzles: console errors"
    );

    // The board: four moves, a review with its progress, then a link in another tab.
    page.open(&server.url).await;
    watch_console(&page).await;
    engine_ready(&page).await;
    for turn in 0..4 {
        let before = played(&page).await;
        person_moves(&page, turn).await;
        page.wait_for(
            &format!("return document.querySelectorAll('#moves [data-move]').length > {before}"),
            10,
            "a move",
        )
        .await;
    }
    set_review_depth(&page, "4").await;
    page.click("#review").await;
    page.wait_for(
        "return document.querySelectorAll('#moves [data-mark], #review-info:not(:empty)').length > 0 \
           && document.getElementById('review-cancel').hidden",
        60,
        "the review",
    )
    .await;
    // A review at the default depth, cancelled as soon as it runs: its worker is ended.
    set_review_depth(&page, "").await;
    page.js("document.getElementById('review').click(); \
             setTimeout(() => document.getElementById('review-cancel').click(), 30)")
        .await;
    page.wait_for(
        "return document.getElementById('review-progress').textContent === 'review cancelled'",
        5,
        "the review cancelled",
    )
    .await;
    let position = page.text("#position").await;
    page.click("#copy-link").await;
    let link = page
        .wait_for(
            "const l = document.getElementById('link').value; return l.includes('#') && l",
            10,
            "the link",
        )
        .await;
    let link = link.as_str().expect("a link").to_string();
    let first = page.client.window().await.expect("this window");
    let window = page.client.new_window(false).await.expect("a new window");
    page.client
        .switch_to_window(window.handle)
        .await
        .expect("the new window");
    page.open(&link).await;
    page.wait_for(
        &format!(
            "return document.getElementById('position').textContent === {}",
            json!(position)
        ),
        20,
        "the linked game",
    )
    .await;
    page.client.close_window().await.expect("closed");
    page.client.switch_to_window(first).await.expect("back");

    // A panic in the engine's worker: said, the worker replaced, the game kept and played on.
    let moves = played(&page).await;
    page.js("window.shoveCrashTest()").await;
    page.wait_for(
        "const e = document.getElementById('error'); \
         return !e.hidden && e.textContent.includes('started again')",
        20,
        "the crash said",
    )
    .await;
    assert_eq!(page.text("#position").await, position);
    assert_eq!(played(&page).await, moves);
    engine_ready(&page).await;
    page.click("#hint").await;
    page.wait_for(
        "return document.getElementById('hint-text').textContent.length > 0",
        30,
        "a hint from the new worker",
    )
    .await;
    page.close().await;
}

/// The site served under a path, as a GitHub Pages project site is (`/<project>/`): the
/// board page's engine answers, and its Puzzles, Learn and Rules links open their pages
/// with their styles, modules and rule book.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_site_works_under_a_path() {
    let _shared = TIMING.read().await;
    let Some(dir) = site() else {
        return;
    };
    let Some(page) = Browser::start().await else {
        return;
    };
    let parent = std::env::temp_dir().join(format!("shove-web-path-{}", std::process::id()));
    std::fs::create_dir_all(&parent).expect("a temporary folder");
    let project = parent.join("project");
    let _ = std::fs::remove_file(&project);
    std::os::unix::fs::symlink(std::fs::canonicalize(&dir).expect("the site"), &project)
        .expect("a link to the site");
    let server = StaticServer::start(&parent);
    let root = format!("{}project/", server.url);
    page.open(&root).await;
    watch_console(&page).await;
    engine_ready(&page).await;
    page.click("#hint").await;
    page.wait_for(
        "return document.getElementById('hint-text').textContent.length > 0",
        30,
        "a hint from the engine in its worker",
    )
    .await;
    for (link, ready) in [
        (
            "#puzzles-link",
            "document.querySelectorAll('#board [data-cell]').length > 0",
        ),
        (
            "#learn-link",
            "document.querySelectorAll('#lessons li').length > 5",
        ),
        (
            "#rules-link",
            "document.getElementById('rules-text')?.dataset.boards === 'drawn'",
        ),
    ] {
        page.open(&root).await;
        engine_ready(&page).await;
        // The Rules link opens a new tab: its address is followed here instead.
        let href = page
            .js(&format!("return document.querySelector('{link}').href"))
            .await;
        page.go_to(href.as_str().expect("the link's address")).await;
        // Under /project/, styled (style.css loaded), its module run.
        page.wait_for(
            &format!(
                "return location.pathname.startsWith('/project/') \
                   && getComputedStyle(document.body).backgroundImage !== 'none' \
                   && {ready}"
            ),
            30,
            &format!("{link}'s page under /project/"),
        )
        .await;
    }
    assert_eq!(console_errors(&page).await, json!([]), "console errors");
    page.close().await;
    let _ = std::fs::remove_file(&project);
    let _ = std::fs::remove_dir(&parent);
}
