//! Headless Chromium driven over WebDriver (fantoccini talking to chromedriver), for the
//! browser tests of `shove gui` (tests/gui.rs, tests/gui_puzzles.rs): started with a fresh
//! profile, and the steps every page's test takes (scripts, waiting, clicking, choosing,
//! screenshots into target/gui-screenshots/).
//!
//! Without `chromium` and `chromedriver` [`Browser::start`] says so loudly and the test is
//! skipped, unless `CI` or `SHOVE_REQUIRE_BROWSER` is set: then a missing browser is a
//! failure.

// Each test crate includes this file and uses only what it needs of it.
#![allow(dead_code)]

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process killed when the test ends, however it ends.
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

/// A fresh directory removed at the end (the browser profile, a match log).
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> TempDir {
        let path = std::env::temp_dir().join(format!(
            "shove-gui-test-{}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&path).expect("a temporary directory");
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One headless Chromium window with its chromedriver and a fresh profile.
pub struct Browser {
    pub client: Client,
    _driver: Process,
    _profile: TempDir,
}

impl Browser {
    /// The browser, or `None` (after saying so) when chromium or chromedriver is missing
    /// and not required.
    pub async fn start() -> Option<Browser> {
        let chromium = find_in_path(&["chromium", "chromium-browser", "google-chrome"]);
        let driver = find_in_path(&["chromedriver"]);
        let (Some(chromium), Some(driver)) = (chromium, driver) else {
            let required = std::env::var_os("CI").is_some()
                || std::env::var_os("SHOVE_REQUIRE_BROWSER").is_some();
            assert!(
                !required,
                "chromium and chromedriver are required (CI or SHOVE_REQUIRE_BROWSER is set): \
                 apt-get install chromium chromium-driver"
            );
            eprintln!(
                "\n*** SKIPPED: the browser tests need chromium and chromedriver \
                 (apt-get install chromium chromium-driver) ***\n"
            );
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
        let profile = TempDir::new();
        let Value::Object(capabilities) = json!({
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--window-size=1366,768",
                    format!("--user-data-dir={}", profile.0.display()),
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
            _profile: profile,
        })
    }

    pub async fn close(self) {
        self.client.close().await.expect("the browser closes");
    }

    pub async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, Vec::new())
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Waits until the script returns something truthy; panics with `what` (and the
    /// page's `#error`) after `secs`.
    pub async fn wait_for(&self, script: &str, secs: u64, what: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let v = self.js(script).await;
            let truthy =
                !matches!(&v, Value::Null | Value::Bool(false)) && v != json!(0) && v != json!("");
            if truthy {
                return v;
            }
            if Instant::now() > deadline {
                let error = self
                    .js("const e = document.getElementById('error'); return e && e.textContent")
                    .await;
                panic!("timed out waiting for {what} (#error: {error})");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Opens the address without waiting for the page to start.
    pub async fn go_to(&self, url: &str) {
        self.client.goto(url).await.expect("the page loads");
    }

    /// Opens the address and waits until the page has started (`body[data-ready]`).
    pub async fn open(&self, url: &str) {
        self.go_to(url).await;
        self.wait_for(
            "return document.body.dataset.ready === 'true'",
            20,
            "the page",
        )
        .await;
    }

    /// Clicks `css`, again if the page redrew it between finding and clicking it.
    pub async fn click(&self, css: &str) {
        for attempt in 1.. {
            let clicked = self
                .client
                .find(Locator::Css(css))
                .await
                .unwrap_or_else(|e| panic!("no element {css}: {e}"))
                .click()
                .await;
            match clicked {
                Ok(_) => return,
                Err(e) if attempt < 3 && e.to_string().contains("stale element") => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("cannot click {css}: {e}"),
            }
        }
    }

    /// Chooses `value` in the select `css`, as a person does.
    pub async fn choose(&self, css: &str, value: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("cannot choose {value} in {css}: {e}"));
    }

    /// The text of `css` (empty when there is no such element).
    pub async fn text(&self, css: &str) -> String {
        self.js(&format!(
            "const e = document.querySelector({}); return e ? e.textContent : ''",
            json!(css)
        ))
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
    }

    /// The words the page shows (text, placeholders, titles; not code, `<pre>` nor the
    /// language switch's own names) that are neither in `words` nor notation, each with
    /// the text it stands in: what a reader of another language would still see in
    /// English.
    pub async fn foreign_words(&self, words: &HashSet<String>) -> Vec<(String, String)> {
        let texts = self
            .js(
                "const out = [];
                 const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
                 for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                   const e = n.parentElement;
                   if (!e || e.closest('code, pre, #language, script, style')) continue;
                   if (!e.getClientRects().length) continue;
                   out.push(n.textContent);
                 }
                 for (const e of document.querySelectorAll('[placeholder], [title]')) {
                   if (e.getClientRects().length) out.push(e.placeholder || '', e.title || '');
                 }
                 for (const o of document.querySelectorAll('select:not(#language) option')) out.push(o.textContent);
                 return out;",
            )
            .await;
        let texts: Vec<String> = serde_json::from_value(texts).expect("texts");
        let mut out = Vec::new();
        for text in texts {
            for word in split_words(&text) {
                if !words.contains(&word) && !is_notation(&word) {
                    out.push((word, text.trim().to_string()));
                }
            }
        }
        out
    }

    /// Sets the window size, scrolls to the top and writes a screenshot.
    pub async fn screenshot(&self, name: &str, width: u32, height: u32) {
        self.client
            .set_window_size(width, height)
            .await
            .expect("window size");
        self.js("window.scrollTo(0, 0); return true").await;
        self.take_screenshot(name).await;
    }

    /// A screenshot of the window as it is, to target/gui-screenshots/NAME.png.
    pub async fn take_screenshot(&self, name: &str) {
        tokio::time::sleep(Duration::from_millis(400)).await;
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/gui-screenshots");
        std::fs::create_dir_all(&dir).expect("screenshot directory");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("screenshot written");
    }
}

/// Names every language writes alike: games, languages, the engine and the Elo scale.
#[rustfmt::skip]
const NAMES: &[&str] = &[
    "shove", "akiba", "offboard", "abraxas", "elo", "english", "deutsch", "français",
];

/// The words the board and puzzles pages in `language` may show, lower case: the values of
/// its dictionary (src/gui/assets/lang-LANGUAGE.js) and [`NAMES`].
pub fn words_of(language: &str) -> HashSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: PathBuf| {
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let mut words: HashSet<String> = NAMES.iter().map(|n| n.to_string()).collect();
    let dictionary = read(root.join(format!("src/gui/assets/lang-{language}.js")));
    for line in dictionary
        .lines()
        .filter(|l| l.trim_start().starts_with('"'))
    {
        let entry: Value =
            serde_json::from_str(&format!("{{{}}}", line.trim().trim_end_matches(',')))
                .unwrap_or_else(|e| panic!("lang-{language}.js: {line}: {e}"));
        if let Some(said) = entry.as_object().and_then(|o| o.values().next()?.as_str()) {
            words.extend(split_words(said));
        }
    }
    words
}

/// The words a Rules page in `language` may show, lower case: [`words_of`] and the prose of
/// its rule books (docs/rules/LANGUAGE/*.md, without code).
pub fn rule_book_words(language: &str) -> HashSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: PathBuf| {
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let mut words = words_of(language);
    for game in ["akiba", "offboard", "abraxas"] {
        let book = read(root.join(format!("docs/rules/{language}/{game}.md")));
        let mut in_code = false;
        let mut text = String::new();
        for line in book.lines() {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
                continue;
            }
            if !in_code {
                text.push_str(line);
                text.push('\n');
            }
        }
        // Inline code (which may run over a line's end) is every other piece between
        // backticks.
        let prose: Vec<&str> = text.split('`').step_by(2).collect();
        words.extend(split_words(&prose.join(" ")));
    }
    words
}

/// The words of `text`, lower case.
pub fn split_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().any(char::is_alphabetic))
        .map(str::to_lowercase)
        .collect()
}

/// Cell names, moves, position-string words and single letters (`a1`, `f1f2`, `xd4b7`,
/// `s1`, `p`): notation, the same in every language.
fn is_notation(word: &str) -> bool {
    let letters = word.chars().filter(char::is_ascii_alphabetic).count();
    let digits = word.chars().filter(char::is_ascii_digit).count();
    word.chars().count() == 1 || (digits > 0 && letters <= digits + 1)
}
