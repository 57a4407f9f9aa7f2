//! The puzzles page of `shove gui` in headless Chromium, as a person uses it: a shipped
//! Akiba puzzle solved by clicking (the opponent's replies playing themselves), another
//! failed with a wrong move and the solution shown, the rating and streak following, the
//! theme filter, and a link by id. Screenshots go to target/gui-screenshots/puzzle-*.png.
//!
//! Without `chromium` and `chromedriver` the test is skipped loudly, unless `CI` or
//! `SHOVE_REQUIRE_BROWSER` is set: then a missing browser is a failure (as tests/gui.rs).

// This test uses only the server of the shared helpers.
#[allow(dead_code)]
#[path = "common/gui_server.rs"]
mod gui_server;

use fantoccini::{Client, ClientBuilder, Locator};
use gui_server::Gui;
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use shove::puzzles::format::{Puzzle, PuzzleFile};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn find_in_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Headless Chromium with its chromedriver and a fresh profile (removed at the end).
struct Browser {
    client: Client,
    _driver: Process,
    profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

impl Browser {
    async fn start() -> Option<Browser> {
        let chromium = find_in_path(&["chromium", "chromium-browser", "google-chrome"]);
        let driver = find_in_path(&["chromedriver"]);
        let (Some(chromium), Some(driver)) = (chromium, driver) else {
            let required = std::env::var_os("CI").is_some()
                || std::env::var_os("SHOVE_REQUIRE_BROWSER").is_some();
            assert!(
                !required,
                "chromium and chromedriver are required (CI or SHOVE_REQUIRE_BROWSER is set)"
            );
            eprintln!("\n*** SKIPPED: the browser tests need chromium and chromedriver ***\n");
            return None;
        };
        let port = free_port();
        let driver = Process(
            Command::new(driver)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        );
        let profile =
            std::env::temp_dir().join(format!("shove-puzzles-test-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&profile).expect("a profile directory");
        let Value::Object(capabilities) = json!({
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--window-size=1366,768",
                    format!("--user-data-dir={}", profile.display()),
                ],
            }
        }) else {
            unreachable!("a JSON object")
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        let client = loop {
            match ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&format!("http://127.0.0.1:{port}"))
                .await
            {
                Ok(client) => break client,
                Err(e) if Instant::now() > deadline => panic!("no WebDriver session: {e}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        };
        Some(Browser {
            client,
            _driver: driver,
            profile,
        })
    }

    async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, Vec::new())
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    async fn wait_for(&self, script: &str, secs: u64, what: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let v = self.js(script).await;
            if !matches!(&v, Value::Null | Value::Bool(false)) && v != json!("") {
                return v;
            }
            if Instant::now() > deadline {
                let error = self
                    .js("return document.getElementById('error').textContent")
                    .await;
                let status = self.text("#puzzle-status").await;
                panic!("timed out waiting for {what} (#error: {error}, status: {status})");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn open(&self, url: &str) {
        self.client.goto(url).await.expect("the page loads");
        self.wait_for(
            "return document.body.dataset.ready === 'true'",
            20,
            "the page",
        )
        .await;
    }

    async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
    }

    async fn text(&self, css: &str) -> String {
        self.js(&format!(
            "const e = document.querySelector('{css}'); return e ? e.textContent : ''"
        ))
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
    }

    /// Waits for the puzzle's state (`solving`, `wrong`, `solved`, `failed`) with nothing
    /// being played.
    async fn wait_state(&self, state: &str, secs: u64) {
        self.wait_for(
            &format!(
                "const s = document.getElementById('puzzle-status'); \
                 return s.dataset.state === '{state}' && s.dataset.busy === 'false'"
            ),
            secs,
            &format!("the puzzle to be {state}"),
        )
        .await;
    }

    /// Clicks an Akiba push: its marble, then the square it goes to.
    async fn click_push(&self, mv: &str) {
        let (from, to) = mv.split_at(2);
        self.click(&format!("#board [data-cell='{from}']")).await;
        self.wait_for(
            &format!("return document.querySelector(\"#board [data-cell='{from}']\").classList.contains('selected')"),
            5,
            "the selected marble",
        )
        .await;
        self.click(&format!("#board [data-cell='{to}']")).await;
    }

    async fn rating(&self) -> i64 {
        self.text("#puzzle-rating").await.parse().expect("a rating")
    }

    async fn screenshot(&self, name: &str) {
        tokio::time::sleep(Duration::from_millis(400)).await;
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/gui-screenshots");
        std::fs::create_dir_all(&dir).expect("screenshot directory");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("screenshot written");
    }
}

/// Whether every solver move of `puzzle` is a push (no `pass`), so clicks can make it.
fn clickable(puzzle: &Puzzle) -> bool {
    puzzle.solution.iter().all(|m| m.len() == 4)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_puzzle_is_solved_by_clicking_and_another_failed() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let set = PuzzleFile::parse(
        &std::fs::read_to_string("positions/puzzles/akiba.txt").expect("the Akiba set"),
    );
    // One with an opponent's reply to wait for, and one to fail.
    let solve = set
        .puzzles
        .iter()
        .map(|(_, p)| p)
        .find(|p| clickable(p) && p.solution.len() >= 3)
        .expect("a puzzle with a reply");
    let fail = set
        .puzzles
        .iter()
        .map(|(_, p)| p)
        .find(|p| p.id != solve.id)
        .expect("a second puzzle");
    let gui = Gui::start(&[]);
    let token = gui.token.clone().expect("a token");
    browser
        .open(&format!(
            "{}/puzzles?token={token}#game=akiba&id={}",
            gui.origin(),
            solve.id
        ))
        .await;
    assert_eq!(browser.text("#puzzle-link").await, solve.id);
    assert!(browser.text("#goal").await.contains("find the best move"));
    let start_rating = browser.rating().await;
    browser.screenshot("puzzle-start").await;

    // Solve: each solver move by clicking; the replies come by themselves.
    let solver_moves: Vec<usize> = {
        let v = browser
            .js("return [...document.querySelectorAll('#puzzle-moves li')].length")
            .await;
        assert_eq!(v, json!(0));
        let position: shove::akiba::Position = solve.position.parse().expect("a position");
        let mut position = position;
        let solver = shove::game::Game::to_move(&position);
        let mut indices = Vec::new();
        for (i, text) in solve.solution.iter().enumerate() {
            if shove::game::Game::to_move(&position) == solver {
                indices.push(i);
            }
            let mv = shove::game::Game::parse_move(&position, text).expect("a legal move");
            shove::game::Game::play(&mut position, mv);
        }
        indices
    };
    for &i in &solver_moves {
        browser
            .wait_for(
                &format!(
                    "const s = document.getElementById('puzzle-status'); \
                     return s.dataset.busy === 'false' && s.dataset.ply === '{i}'"
                ),
                20,
                &format!("the solver's move {}", i + 1),
            )
            .await;
        browser.click_push(&solve.solution[i]).await;
    }
    browser.wait_state("solved", 20).await;
    assert!(browser.text("#puzzle-status").await.starts_with("Solved!"));
    let played = browser
        .js("return [...document.querySelectorAll('#puzzle-moves li')].map(e => e.dataset.move)")
        .await;
    assert_eq!(played, json!(solve.solution));
    let themes = browser.text("#puzzle-themes").await;
    assert!(
        solve.themes.iter().all(|t| themes.contains(t.as_str())),
        "{themes}"
    );
    let solved_rating = browser.rating().await;
    assert!(
        solved_rating > start_rating,
        "{start_rating} → {solved_rating}"
    );
    assert_eq!(browser.text("#puzzle-streak").await, "1");
    browser.screenshot("puzzle-solved").await;

    // Fail: a legal move that is not the solution's, then the solution.
    browser
        .client
        .goto(&format!(
            "{}/puzzles#game=akiba&id={}",
            gui.origin(),
            fail.id
        ))
        .await
        .expect("the link opens");
    browser
        .wait_for(
            &format!(
                "return document.getElementById('puzzle-link').textContent === '{}'",
                fail.id
            ),
            10,
            "the linked puzzle",
        )
        .await;
    browser.wait_state("solving", 10).await;
    let wrong = browser
        .client
        .execute_async(
            "const [position, right, done] = arguments;
             fetch('/api/state', { method: 'POST', headers: { 'content-type': 'application/json',
                 authorization: 'Bearer ' + sessionStorage.getItem('shove-token') },
               body: JSON.stringify({ game: 'akiba', rules: [], start: position, moves: [] }) })
               .then(r => r.json())
               .then(s => done(s.legal.find(m => m.from && m.to && m.text !== right).text),
                     e => done('error ' + e))",
            vec![json!(fail.position), json!(fail.solution[0])],
        )
        .await
        .expect("a wrong move");
    let wrong = wrong.as_str().expect("move text").to_string();
    browser.click_push(&wrong).await;
    browser.wait_state("wrong", 20).await;
    let status = browser.text("#puzzle-status").await;
    assert!(status.contains("not the best move"), "{status}");
    let failed_rating = browser.rating().await;
    assert!(
        failed_rating < solved_rating,
        "{solved_rating} → {failed_rating}"
    );
    assert_eq!(browser.text("#puzzle-streak").await, "0");
    browser.screenshot("puzzle-wrong").await;
    // Retry puts the position back; then the solution is shown step by step.
    browser.click("#retry").await;
    browser.wait_state("solving", 10).await;
    browser.click("#show-solution").await;
    browser.wait_state("failed", 30).await;
    let played = browser
        .js("return [...document.querySelectorAll('#puzzle-moves li')].map(e => e.dataset.move)")
        .await;
    assert_eq!(played, json!(fail.solution));
    assert_eq!(
        browser.rating().await,
        failed_rating,
        "a puzzle is rated once"
    );
    browser.screenshot("puzzle-failed").await;

    // The theme filter: the next puzzle has the theme chosen.
    let theme = "long";
    browser
        .client
        .find(Locator::Css("#theme"))
        .await
        .expect("the theme filter")
        .select_by_value(theme)
        .await
        .expect("a theme to choose");
    browser
        .wait_for(
            &format!(
                "return document.getElementById('puzzle-link').textContent !== '{}'",
                fail.id
            ),
            10,
            "the next puzzle",
        )
        .await;
    let id = browser.text("#puzzle-link").await;
    let next = set
        .puzzles
        .iter()
        .find(|(_, p)| p.id == id)
        .expect("a puzzle of the set");
    assert!(
        next.1.themes.iter().any(|t| t == theme),
        "{id}: {:?}",
        next.1.themes
    );

    // A bad link says so and keeps the puzzle shown.
    browser
        .client
        .goto(&format!("{}/puzzles#game=akiba&id=nope", gui.origin()))
        .await
        .expect("the page loads");
    browser
        .wait_for(
            "const e = document.getElementById('error'); return !e.hidden && e.textContent.includes(\"no akiba puzzle has the id 'nope'\")",
            10,
            "the bad link's error",
        )
        .await;
    browser
        .client
        .clone()
        .close()
        .await
        .expect("the browser closes");
}
