//! End-to-end tests of `shove gui` in headless Chromium driven over WebDriver (fantoccini
//! talking to chromedriver): for each game, moves by clicking, an engine answer, a bad
//! move and a bad position string (an `#error`, the state unchanged), analysis lines
//! arriving, undo; engines that send illegal moves, crash or hang; a page without its
//! token and a page over the limit of open pages, each saying why. Screenshots of each
//! board at laptop and phone size go to target/gui-screenshots/.
//!
//! The tests read as what a person does; the steps are the methods of [`Page`].
//!
//! Without `chromium` and `chromedriver` the tests are skipped loudly, unless `CI` or
//! `SHOVE_REQUIRE_BROWSER` is set: then a missing browser is a failure.

use crate::browser;
use crate::gui_server;

use browser::{Browser, TempDir};
use fantoccini::Locator;
use gui_server::{Gui, fake_engine, ready_session};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The browser showing `shove gui`, and the steps a person takes in the page shown in it.
struct Page(Browser);

impl std::ops::Deref for Page {
    type Target = Browser;
    fn deref(&self) -> &Browser {
        &self.0
    }
}

impl Page {
    /// The browser, or `None` (after saying so) when it is missing and not required.
    async fn start() -> Option<Page> {
        Browser::start().await.map(Page)
    }

    async fn close(self) {
        self.0.close().await;
    }

    async fn position(&self) -> String {
        self.text("#position").await
    }

    /// Waits for `#error` to show a text holding `expected`; returns the text.
    async fn error_shown(&self, expected: &str, secs: u64) -> String {
        let v = self
            .wait_for(
                &format!(
                    "const e = document.getElementById('error'); \
                     return !e.hidden && e.textContent.includes({}) && e.textContent",
                    json!(expected)
                ),
                secs,
                &format!("#error saying {expected:?}"),
            )
            .await;
        v.as_str().unwrap_or_default().to_string()
    }

    async fn engine_ready(&self) {
        self.wait_for(
            "return document.querySelector('#engine-list .engine.ready')",
            20,
            "the engine to be ready",
        )
        .await;
    }

    async fn choose_game(&self, game: &str, cells: usize) {
        self.choose("#game", game).await;
        self.wait_for(
            &format!("return document.querySelectorAll('#board [data-cell]').length === {cells}"),
            10,
            "the board",
        )
        .await;
    }

    /// Asks engine 1 for a move with `movetime` ms.
    async fn engine_plays(&self, movetime: &str) {
        self.type_into("#movetime", movetime).await;
        self.click("#engine-play").await;
    }

    /// Analysis on, until lines and the best line's arrows are shown.
    async fn analyse(&self) {
        self.click("#analysis").await;
        self.wait_for(
            "const l = document.querySelectorAll('#analysis-lines .analysis-line'); \
             return l.length > 0 && l[0].textContent.includes('depth')",
            30,
            "analysis lines",
        )
        .await;
        self.wait_for(
            "return document.querySelectorAll('#board .arrow').length > 0",
            30,
            "arrows on the board",
        )
        .await;
    }

    /// Clicks a move of the move list (by ply) and waits until it is the current one.
    async fn jump_to(&self, css: &str, ply: usize) {
        self.click(css).await;
        self.wait_for(
            &format!("return document.querySelector(\"#moves [data-ply='{ply}']\").classList.contains('current')"),
            10,
            &format!("the jump to ply {ply}"),
        )
        .await;
    }

    async fn undo(&self) {
        let n = self.played().await.len();
        self.click("#undo").await;
        self.wait_for(
            &format!("return document.querySelectorAll('#moves [data-move]').length < {n}"),
            10,
            "undo",
        )
        .await;
    }

    /// A laptop-size screenshot scrolled to the element `css` (e.g. the eval graph below
    /// the fold).
    async fn screenshot_at(&self, name: &str, css: &str) {
        self.client
            .set_window_size(1366, 768)
            .await
            .expect("window size");
        self.js(&format!(
            "document.querySelector(\"{css}\").scrollIntoView({{ block: 'center' }}); return true"
        ))
        .await;
        self.take_screenshot(name).await;
    }

    /// Screenshots at 1400x1000 and phone size, then back to the laptop.
    async fn large_screenshots(&self, name: &str) {
        self.screenshot(&format!("{name}-1400x1000"), 1400, 1000)
            .await;
        self.screenshot(&format!("{name}-phone"), 390, 844).await;
        self.client
            .set_window_size(1366, 768)
            .await
            .expect("window size");
    }

    /// Screenshots at laptop and phone size, then back to the laptop.
    async fn screenshots(&self, name: &str) {
        self.screenshot(&format!("{name}-laptop"), 1366, 768).await;
        self.screenshot(&format!("{name}-phone"), 390, 844).await;
        self.client
            .set_window_size(1366, 768)
            .await
            .expect("window size");
    }

    /// The figures the page measures itself: printed, with generous bounds only (the
    /// machine is shared and loaded).
    async fn report_timings(&self) {
        let stats = self.js("return window.shoveStats").await;
        for (name, what) in [
            ("info", "engine info line printed → shown (ms)"),
            ("click", "click on a legal move → board updated (ms)"),
        ] {
            let mut v: Vec<f64> = serde_json::from_value(stats[name].clone()).unwrap_or_default();
            v.sort_by(f64::total_cmp);
            if v.is_empty() {
                continue;
            }
            let median = v[v.len() / 2];
            let p95 = v[(v.len() * 95 / 100).min(v.len() - 1)];
            eprintln!(
                "{what}: n {} median {median:.1} p95 {p95:.1} max {:.1}",
                v.len(),
                v[v.len() - 1]
            );
            assert!(median < 1000.0, "{what}: median {median}");
        }
    }
}

/// A bad move and a bad position string each give `#error` and change nothing.
async fn bad_input_keeps_the_state(page: &Page) {
    let position = page.position().await;
    let moves = page.played().await;
    page.type_into("#move-input", "zz9").await;
    page.click("#move-play").await;
    page.error_shown("zz9", 10).await;
    assert_eq!(page.position().await, position);
    assert_eq!(page.played().await, moves);

    page.type_into("#position-input", "not a position").await;
    page.click("#position-load").await;
    page.error_shown("bad position string", 10).await;
    assert_eq!(page.position().await, position);
    assert_eq!(page.played().await, moves);
}

async fn play_a_game(page: &Page, url: &str, game: &str, cells: usize) {
    page.open(url).await;
    page.choose_game(game, cells).await;
    let contents = page
        .js("return [...new Set([...document.querySelectorAll('#board [data-cell]')].map(e => e.dataset.content))]")
        .await;
    assert!(
        contents.as_array().is_some_and(|c| !c.is_empty()),
        "{contents}"
    );
    assert_eq!(
        page.js("return document.getElementById('status').dataset.result")
            .await,
        "none"
    );

    let start = page.position().await;
    let mv = page.click_move(0).await;
    page.wait_for_moves(1, 10, "the clicked move in the move list")
        .await;
    assert_eq!(page.played().await, vec![mv.clone()]);
    let after_one = page.position().await;
    assert_ne!(after_one, start);

    page.engine_plays("200").await;
    page.wait_for_moves(2, 60, "the engine's move").await;

    page.analyse().await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    page.screenshots(game).await;
    page.status_fits().await;
    page.click("#analysis").await;

    bad_input_keeps_the_state(page).await;

    // Engine vs engine plays on by itself until it is switched off.
    page.choose("#play-mode", "ee").await;
    page.wait_for(
        "return document.querySelectorAll('#moves [data-move]').length >= 4 \
           || document.getElementById('status').dataset.result !== 'none'",
        60,
        "engine vs engine",
    )
    .await;
    page.choose("#play-mode", "none").await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    let line = page.played().await;
    assert!(line.len() >= 4, "{line:?}");
    let back = line.len() - 2;
    page.jump_to(&format!("#moves [data-ply='{back}']"), back)
        .await;
    page.jump_to("#last", line.len()).await;

    // Back to two moves, one undo at a time; the last undo takes back the engine's move.
    while page.played().await.len() > 1 {
        page.undo().await;
    }
    assert_eq!(page.position().await, after_one);
    assert_eq!(page.played().await, vec![mv]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_game_is_played_analysed_and_undone_in_the_browser() {
    let Some(page) = Page::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    for (game, cells) in [("akiba", 49), ("offboard", 61), ("abraxas", 64)] {
        play_a_game(&page, &gui.url, game, cells).await;
        page.report_timings().await;
    }
    page.close().await;
}

/// *Hint* shows the engine's best move (a legal move) in words and as an arrow, and plays
/// nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_shows_a_legal_move_without_playing_it() {
    let Some(page) = Page::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.engine_ready().await;
    let mv = page.click_move(0).await;
    page.wait_for_moves(1, 10, "the clicked move").await;
    let position = page.position().await;
    page.type_into("#movetime", "200").await;
    page.click("#hint").await;
    let hint = page
        .wait_for(
            "const t = document.getElementById('hint-text'); \
             return t.dataset.move && t.textContent.startsWith('Hint: ') && t.dataset.move",
            30,
            "the hint",
        )
        .await;
    let hint = hint.as_str().expect("a move").to_string();
    assert_eq!(page.text("#hint-text").await, format!("Hint: {hint}"));
    let legal = page
        .js("return [...document.querySelectorAll('#legal-moves [data-move]')].map(e => e.dataset.move)")
        .await;
    let legal: Vec<String> = serde_json::from_value(legal).expect("legal moves");
    assert!(legal.contains(&hint), "{hint} not in {legal:?}");
    page.wait_for(
        "return document.querySelectorAll('#board .arrow').length > 0",
        5,
        "the hint's arrow",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(page.position().await, position);
    assert_eq!(page.played().await, vec![mv]);
    page.screenshot("hint", 1366, 768).await;
    // A move played takes the hint away.
    page.click_move(0).await;
    page.wait_for_moves(2, 10, "the second move").await;
    assert_eq!(page.text("#hint-text").await, "");
    page.close().await;
}

/// *Save game* downloads a record that `shove record` accepts as it is; *Open game* loads
/// it back; a damaged record is refused naming its line and field, the game unchanged; the
/// address's fragment opens the same position.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_saved_reopened_and_linked() {
    let Some(page) = Page::start().await else {
        return;
    };
    let dir = TempDir::new();
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    let mut moves = Vec::new();
    for _ in 0..3 {
        moves.push(page.click_move(0).await);
        page.wait_for_moves(moves.len(), 10, "the clicked move")
            .await;
    }
    let position = page.position().await;

    let text = page.save_game().await;
    let saved = dir.0.join("game.txt");
    std::fs::write(&saved, &text).expect("record written");
    let out = Command::new(env!("CARGO_BIN_EXE_shove"))
        .arg("record")
        .arg(&saved)
        .output()
        .expect("shove record runs");
    assert!(
        out.status.success(),
        "{}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
    for (i, mv) in moves.iter().enumerate() {
        let n = i + 1;
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{n}. ")) && l.ends_with(&format!(" {mv}"))),
            "move {n} {mv} in\n{text}"
        );
    }

    // The link: the address's fragment, opened afresh.
    let href = page.js("return location.href").await;
    let fragment = href
        .as_str()
        .and_then(|h| h.split_once('#'))
        .map(|(_, f)| f.to_string());
    let fragment = fragment.expect("a fragment in the address");
    assert!(fragment.starts_with("game=akiba"), "{fragment}");
    page.click("#new-game").await;
    page.wait_for_moves(0, 10, "a new game").await;
    page.go_to("about:blank").await;
    page.open(&format!("{}#{fragment}", gui.url)).await;
    page.wait_for_moves(3, 10, "the linked game").await;
    assert_eq!(page.played().await, moves);
    assert_eq!(page.position().await, position);

    // Open game.
    page.click("#new-game").await;
    page.wait_for_moves(0, 10, "a new game").await;
    page.choose_game("offboard", 61).await;
    page.client
        .find(Locator::Css("#open-file"))
        .await
        .expect("#open-file")
        .send_keys(&saved.display().to_string())
        .await
        .expect("choose the record");
    page.wait_for_moves(3, 10, "the opened game").await;
    assert_eq!(page.played().await, moves);
    assert_eq!(page.position().await, position);
    assert_eq!(
        page.js("return document.getElementById('game').value")
            .await,
        "akiba"
    );
    page.screenshot("record-opened", 1366, 768).await;

    // A damaged record: an illegal second move.
    let (index, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("2. "))
        .expect("move 2");
    let damaged_line = format!("{} a1a1", line.rsplit_once(' ').expect("a move").0);
    let damaged: String = text
        .lines()
        .map(|l| if l == line { damaged_line.as_str() } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    let bad = dir.0.join("damaged.txt");
    std::fs::write(&bad, damaged).expect("record written");
    page.client
        .find(Locator::Css("#open-file"))
        .await
        .expect("#open-file")
        .send_keys(&bad.display().to_string())
        .await
        .expect("choose the record");
    let error = page
        .error_shown(&format!("line {}, move 2", index + 1), 10)
        .await;
    assert!(error.contains("a1a1"), "{error}");
    assert_eq!(page.played().await, moves);
    assert_eq!(page.position().await, position);
    page.close().await;
}

/// `shove review --depth N --json` of a record, with the search the page's review uses (one
/// thread, 16 MB of hash).
fn shove_review(record: &Path, depth: u32) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_shove"))
        .args(["review", "--depth", &depth.to_string(), "--threads", "1"])
        .args(["--hash", "16", "--json", "--quiet"])
        .arg(record)
        .output()
        .expect("shove review runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// The marks of a review's moves, `""` for none.
fn marks_of(review: &Value) -> Vec<String> {
    review["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["mark"].as_str().unwrap_or("").to_string())
        .collect()
}

impl Page {
    /// Saves the game shown, reviews the record with `shove review --depth N` and *Review
    /// game* in the page at the same depth; checks the page's marks (in the move list and
    /// on the graph) and mark counts against the command's, and that the graph draws the
    /// review's evaluation of every position. Returns the command's review.
    async fn review_as_shove_review_does(&self, dir: &Path, depth: u32) -> Value {
        let record = dir.join("game.txt");
        std::fs::write(&record, self.save_game().await).expect("record written");
        let review = shove_review(&record, depth);
        let expected = marks_of(&review);
        assert_eq!(expected.len(), self.played().await.len());

        // The options have no value attributes (their text is the value): chosen by script.
        self.js(&format!(
            "document.getElementById('review-depth').value = '{depth}'; return true"
        ))
        .await;
        self.click("#review").await;
        self.wait_for(
            "return document.querySelectorAll('#review-info .review-player').length === 2",
            120,
            "the review",
        )
        .await;
        let marks = self
            .js("return [...document.querySelectorAll('#moves [data-move]')].map(e => e.dataset.mark || '')")
            .await;
        let marks: Vec<String> = serde_json::from_value(marks).expect("marks");
        eprintln!("marks: {marks:?}");
        assert_eq!(marks, expected);
        for (i, player) in review["players"]
            .as_array()
            .expect("players")
            .iter()
            .enumerate()
        {
            let text = self
                .text(&format!("#review-info [data-player=\"{}\"]", i + 1))
                .await;
            let counts = format!(
                "{} ?! · {} ? · {} ??",
                player["inaccuracies"], player["mistakes"], player["blunders"]
            );
            assert!(text.ends_with(&counts), "{text} vs {counts}");
        }

        // The graph: a point for every position, a dot for every marked move.
        let dots = self
            .js("return [...document.querySelectorAll('#graph [data-mark-ply]')].map(e => [Number(e.dataset.markPly), e.dataset.mark])")
            .await;
        let dots: Vec<(usize, String)> = serde_json::from_value(dots).expect("dots");
        let marked: Vec<(usize, String)> = expected
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.is_empty())
            .map(|(i, m)| (i + 1, m.clone()))
            .collect();
        assert_eq!(dots, marked);
        let points = self
            .js("return document.querySelector('#graph .graph-line').getAttribute('points').trim().split(/\\s+/).length")
            .await;
        assert_eq!(points, json!(expected.len() + 1));
        review
    }

    /// Clicks `css` (a marked move in the list or its dot on the graph): the page shows the
    /// position before move `ply` with the review's best move there as an arrow and in
    /// words.
    async fn best_move_is_shown(&self, css: &str, review: &Value, ply: usize) {
        let best = review["moves"][ply - 1]["best"]
            .as_str()
            .expect("a best move")
            .to_string();
        self.click(css).await;
        self.wait_for(
            &format!(
                "return document.getElementById('review-best').dataset.ply === '{ply}' \
                   && !document.getElementById('review-best').hidden"
            ),
            10,
            &format!("the best move before move {ply}"),
        )
        .await;
        let shown_ply = self
            .js("return document.querySelectorAll('#moves .move:not(.ahead)').length")
            .await;
        assert_eq!(shown_ply, json!(ply - 1), "the position before move {ply}");
        assert_eq!(
            self.js("return document.getElementById('review-best').dataset.move")
                .await,
            best
        );
        let text = self.text("#review-best").await;
        assert!(text.contains(&format!("best was {best} (eval ")), "{text}");
        let arrow = self
            .js("const a = document.querySelector('#board .best-move'); return a && a.dataset.move")
            .await;
        assert_eq!(arrow, best);
        assert!(
            self.js("return document.querySelectorAll('#board .best-move .arrow.best').length")
                .await
                .as_u64()
                .is_some_and(|n| n > 0)
                || !best.chars().any(|c| c.is_ascii_digit()),
            "the arrow of {best} drawn"
        );
    }

    /// `/api/games` as the page reads it (with its token).
    async fn api_games(&self) -> Value {
        self.client
            .execute_async(
                "const done = arguments[arguments.length - 1]; \
                 fetch('/api/games', { headers: { authorization: 'Bearer ' + sessionStorage.getItem('shove-token') } }) \
                   .then(r => r.json()).then(done, e => done('cannot read: ' + e))",
                Vec::new(),
            )
            .await
            .expect("/api/games")
    }

    /// The status line under the board is inside the window and shows all its words.
    async fn status_fits(&self) {
        let fits = self
            .js(
                "const s = document.getElementById('status'), r = s.getBoundingClientRect(); \
                 return [r.left >= 0 && r.right <= document.documentElement.clientWidth \
                   && s.scrollWidth <= s.clientWidth, s.textContent]",
            )
            .await;
        assert_eq!(fits[0], true, "the status line does not fit: {}", fits[1]);
    }

    /// The result shown under the board: `data-result` and the words.
    async fn result_shown(&self) -> (String, String) {
        let result = self
            .js("return document.getElementById('status').dataset.result")
            .await;
        (
            result.as_str().unwrap_or_default().to_string(),
            self.text("#status").await,
        )
    }

    /// A person's move: a legal move clicked on the board if one can be, else its button
    /// (a pass, a slide, an Abraxas capture).
    async fn person_moves(&self, turn: usize) -> String {
        let clickable = self
            .js("return document.querySelectorAll('#legal-moves [data-to]').length > 0")
            .await;
        if clickable == true {
            // A different choice each turn, so that the game does not go round in a cycle
            // with a deterministic opponent.
            return self.click_move(turn * 7).await;
        }
        let mv = self
            .js("return document.querySelector('#legal-moves [data-move]').dataset.move")
            .await;
        let mv = mv.as_str().expect("a legal move").to_string();
        self.click(&format!("#legal-moves [data-move='{mv}']"))
            .await;
        mv
    }
}

/// A whole game against the engine at level 0, a person clicking moves until it ends: the
/// result is shown, and every engine move was searched at Skill Level 0 (within its node
/// cap of 1,000). Then *Review game* marks it as `shove review` does on the saved record,
/// and clicking a marked move (in the list, and its dot on the graph) shows the position
/// before it with the review's best move as an arrow and in words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_against_level_0_is_played_and_reviewed() {
    let Some(page) = Page::start().await else {
        return;
    };
    let dir = TempDir::new();
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    let (game, cells) = GAME_AGAINST_LEVEL_0;
    page.choose_game(game, cells).await;
    page.engine_ready().await;
    page.type_into("#movetime", "100").await;
    page.choose("#level", "0").await;
    page.choose("#play-mode", "p1").await;
    let started = Instant::now();
    loop {
        let n = page.played().await.len();
        assert!(n < 300, "the game goes on: {:?}", page.played().await);
        page.person_moves(n).await;
        page.wait_for(
            &format!("return document.querySelectorAll('#moves [data-move]').length > {n}"),
            10,
            "your move",
        )
        .await;
        // The engine answers (more than once when the rules give it more moves), until it
        // is your decision again or the game is over.
        page.wait_for(
            "return document.getElementById('status').dataset.result !== 'none' \
               || (document.querySelector('#player-bottom.active') \
                   && !document.getElementById('status').textContent.includes('thinking'))",
            60,
            &format!("the engine's answer to move {}", n + 1),
        )
        .await;
        if page.result_shown().await.0 != "none" {
            break;
        }
    }
    let moves = page.played().await;
    let (result, words) = page.result_shown().await;
    eprintln!(
        "{game} against level 0: {result} ({words}) after {} moves in {:.1} s",
        moves.len(),
        started.elapsed().as_secs_f64()
    );
    let winner = match result.as_str() {
        "p1win" => 0,
        "p2win" => 1,
        other => panic!("not a result of {game}: {other} ({words})"),
    };
    let games = page.api_games().await;
    let name = games
        .as_array()
        .and_then(|g| g.iter().find(|g| g["name"] == game))
        .and_then(|g| g["players"][winner].as_str())
        .expect("the players' names")
        .to_string();
    let name = name[..1].to_uppercase() + &name[1..];
    assert_eq!(words, format!("{name} wins"));

    // The engine's moves: one `go` each, all after `Skill Level` 0, each search within
    // level 0's 1,000 nodes once its first iteration (all its lines at depth 1) is done.
    let engine_moves = page
        .js("return document.querySelectorAll('#moves .move.p2').length")
        .await;
    let log = page.text("#engine-log").await;
    let sent: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("[1] > "))
        .map(|l| &l[6..])
        .collect();
    let level_set = sent
        .iter()
        .position(|l| l.starts_with("setoption name Skill Level"))
        .expect("Skill Level sent");
    assert_eq!(
        sent[level_set], "setoption name Skill Level value 0",
        "{log}"
    );
    assert!(
        sent[level_set + 1..]
            .iter()
            .all(|l| !l.starts_with("setoption name Skill Level")),
        "{log}"
    );
    let goes = sent.iter().filter(|l| l.starts_with("go ")).count();
    assert!(
        !sent[..level_set].iter().any(|l| l.starts_with("go ")),
        "{log}"
    );
    assert_eq!(json!(goes), engine_moves, "{log}");
    // (depth, nodes) of each info line.
    let infos: Vec<(u32, u64)> = log
        .lines()
        .filter(|l| l.starts_with("[1] < info"))
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let field = |name: &str| {
                let at = words.iter().position(|&w| w == name)?;
                words.get(at + 1)?.parse::<u64>().ok()
            };
            Some((u32::try_from(field("depth")?).ok()?, field("nodes")?))
        })
        .collect();
    assert!(
        infos.len() >= goes
            && infos
                .iter()
                .all(|&(depth, nodes)| depth == 1 || nodes <= 1000),
        "level 0 searches at most 1,000 nodes after depth 1: {infos:?}"
    );
    page.screenshot("level-0-game-over", 1366, 768).await;

    page.choose("#play-mode", "none").await;
    let review = page.review_as_shove_review_does(&dir.0, 4).await;
    let marked: Vec<usize> = marks_of(&review)
        .iter()
        .enumerate()
        .filter(|(_, m)| !m.is_empty())
        .map(|(i, _)| i + 1)
        .collect();
    assert!(
        !marked.is_empty(),
        "no move of the game is marked: {review}"
    );
    let first = marked[0];
    page.best_move_is_shown(&format!("#moves [data-ply='{first}']"), &review, first)
        .await;
    let last = marked[marked.len() - 1];
    page.best_move_is_shown(&format!("#graph [data-mark-ply='{last}']"), &review, last)
        .await;
    page.screenshot(&format!("review-{game}-game"), 1366, 768)
        .await;
    page.screenshot_at(&format!("review-{game}-game-graph"), "#graph")
        .await;
    // A hint here is at full strength again.
    page.click("#hint").await;
    page.wait_for(
        "return document.getElementById('hint-text').dataset.move",
        30,
        "the hint",
    )
    .await;
    let log = page.text("#engine-log").await;
    let last_level = log
        .lines()
        .rfind(|l| l.starts_with("[1] > setoption name Skill Level"));
    assert_eq!(
        last_level,
        Some("[1] > setoption name Skill Level value 20"),
        "{log}"
    );
    // Another position: the best move goes away.
    page.click("#last").await;
    page.wait_for(
        "return document.getElementById('review-best').hidden \
           && !document.querySelector('#board .best-move')",
        10,
        "the best move hidden",
    )
    .await;
    page.close().await;
}

/// The game played to its end against level 0 (and its number of board cells): the one
/// whose game ends soonest with this test's person (Akiba 27 moves, Offboard 34, Abraxas
/// 40 on 2026-11-25).
const GAME_AGAINST_LEVEL_0: (&str, usize) = ("akiba", 49);

/// *Review game* marks the moves as `shove review --depth 4 --json` marks the same game,
/// and gives the same mark counts per player, in each game; a marked move clicked shows
/// the review's best move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_marks_the_moves_as_shove_review_does() {
    let Some(page) = Page::start().await else {
        return;
    };
    let dir = TempDir::new();
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    for (game, cells) in [("akiba", 49), ("offboard", 61), ("abraxas", 64)] {
        page.choose_game(game, cells).await;
        for n in 1..=8 {
            page.person_moves(0).await;
            page.wait_for_moves(n, 10, "the clicked move").await;
        }
        let review = page.review_as_shove_review_does(&dir.0, 4).await;
        let marked = marks_of(&review).iter().position(|m| !m.is_empty());
        if let Some(index) = marked {
            let ply = index + 1;
            page.best_move_is_shown(&format!("#graph [data-mark-ply='{ply}']"), &review, ply)
                .await;
        }
        page.screenshot(&format!("review-{game}"), 1366, 768).await;
        page.screenshot_at(&format!("review-{game}-graph"), "#graph")
            .await;
    }
    page.close().await;
}

/// The level selector lists the 21 levels with each one's Elo as `/api/games` gives it for
/// the game shown, and follows the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_level_selector_shows_each_level_s_elo() {
    let Some(page) = Page::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    let games = page.api_games().await;
    page.choose("#level", "5").await;
    for (game, cells) in [("offboard", 61), ("abraxas", 64), ("akiba", 49)] {
        page.choose_game(game, cells).await;
        let elo = games
            .as_array()
            .and_then(|g| g.iter().find(|g| g["name"] == game))
            .map(|g| g["levels"].clone())
            .expect("the game's levels");
        let elo: Vec<i64> = serde_json::from_value(elo).expect("21 numbers");
        assert_eq!(elo.len(), 21);
        let options = page
            .js("return [...document.querySelectorAll('#level option')].map(o => [o.value, o.textContent])")
            .await;
        let options: Vec<(String, String)> = serde_json::from_value(options).expect("options");
        let expected: Vec<(String, String)> = (0..=20)
            .map(|l| {
                let name = if l == 20 {
                    "Level 20 (full strength)".to_string()
                } else {
                    format!("Level {l}")
                };
                (l.to_string(), format!("{name} · Elo {}", elo[l]))
            })
            .collect();
        assert_eq!(options, expected, "{game}");
        assert_eq!(
            page.js("return document.getElementById('level').value")
                .await,
            "5",
            "the level chosen stays when the game changes"
        );
        page.screenshot(&format!("levels-{game}"), 1366, 768).await;
    }
    page.close().await;
}

/// Engine 1 asked for a move fails: `#error` says `expected`, the game is unchanged; a
/// dead engine is restarted from its button.
async fn engine_failure_is_shown(page: &Page, url: &str, expected: &str, dead: bool) {
    page.open(url).await;
    page.engine_ready().await;
    let position = page.position().await;
    page.engine_plays("100").await;
    page.error_shown(expected, 30).await;
    assert_eq!(page.position().await, position);
    assert!(page.played().await.is_empty());
    if dead {
        page.click("#restart-0").await;
        page.engine_ready().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engines_that_misbehave_leave_the_game_as_it_was() {
    let Some(page) = Page::start().await else {
        return;
    };
    let illegal = Gui::start(&["--engine", &fake_engine("echo bestmove a1a1")]);
    engine_failure_is_shown(&page, &illegal.url, "illegal move", false).await;
    let crash = Gui::start(&["--engine", &fake_engine("exit 3")]);
    engine_failure_is_shown(&page, &crash.url, "stopped running", true).await;
    // Said in the page's language: the choice is kept for the next visit of this address.
    page.choose("#language", "de").await;
    engine_failure_is_shown(&page, &crash.url, "läuft nicht mehr", true).await;
    page.choose("#language", "en").await;
    let hang = Gui::start(&["--engine", &fake_engine(":")]);
    engine_failure_is_shown(&page, &hang.url, "hung", true).await;
    page.close().await;
}

/// A short `shove match --log` between two quick players; returns the log and the moves
/// of its first game.
fn write_match_log(dir: &Path) -> (PathBuf, Vec<String>) {
    let log = gui_server::write_match_log(dir);
    let text = std::fs::read_to_string(&log).expect("the log");
    let first_game = text
        .lines()
        .find(|l| !l.starts_with('#'))
        .expect("a game in the log");
    let moves: Vec<String> = first_game
        .split('\t')
        .nth(7)
        .expect("moves")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    assert!(!moves.is_empty());
    (log, moves)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_log_is_stepped_through() {
    let Some(page) = Page::start().await else {
        return;
    };
    let dir = TempDir::new();
    let (log, moves) = write_match_log(&dir.0);
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.client
        .find(Locator::Css("#log-file"))
        .await
        .expect("#log-file")
        .send_keys(&log.display().to_string())
        .await
        .expect("choose the log");
    page.wait_for(
        "return document.querySelectorAll('#log-games option').length === 2",
        10,
        "the log's games",
    )
    .await;
    page.wait_for_moves(moves.len(), 10, "the first game's moves")
        .await;
    assert_eq!(page.played().await, moves);
    let start = page.position().await;
    let last = moves.len();
    page.jump_to(&format!("#moves [data-ply='{last}']"), last)
        .await;
    assert_ne!(page.position().await, start);
    page.click("#first").await;
    page.wait_for(
        &format!(
            "return document.getElementById('position').textContent === {}",
            json!(start)
        ),
        10,
        "the jump back to the start",
    )
    .await;
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_without_its_token_or_over_the_limit_says_why() {
    let Some(page) = Page::start().await else {
        return;
    };
    let gui = Gui::start(&["--engine", &fake_engine("echo \"bestmove (none)\"")]);

    // The address without the token: the page loads but the server answers nothing.
    page.go_to(&gui.bare_url()).await;
    let error = page.error_shown("no token", 20).await;
    assert!(error.contains("?token="), "{error}");
    page.screenshot("no-token", 1366, 768).await;
    assert_eq!(gui.children(), 0);

    // Eight pages are open elsewhere: the ninth is told so.
    let mut others = Vec::new();
    for _ in 0..8 {
        others.push(ready_session(&gui).await);
    }
    page.open(&gui.url).await;
    page.error_shown("at most 8 pages", 20).await;
    page.screenshot("ninth-page", 1366, 768).await;
    assert_eq!(gui.children(), 8);

    // One closed, the page reloaded without the token in the address (the tab kept it):
    // it works.
    others.pop();
    gui.wait_children(7).await;
    page.open(&gui.bare_url()).await;
    page.engine_ready().await;
    let mv = page.click_move(0).await;
    page.wait_for_moves(1, 10, "the clicked move").await;
    assert_eq!(page.played().await, vec![mv]);
    assert_eq!(
        page.js("return document.getElementById('error').hidden")
            .await,
        true
    );
    page.close().await;
}

/// The engine list names a started engine by its `id name`: shove with its version (the
/// crate's), a built-in player with its name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_list_shows_the_version() {
    let Some(page) = Page::start().await else {
        return;
    };
    let shove = env!("CARGO_BIN_EXE_shove");
    let greedy = format!("{shove} --player greedy");
    let gui = Gui::start(&["--engine", shove, "--engine", &greedy]);
    page.open(&gui.url).await;
    let names = page
        .wait_for(
            "const rows = [...document.querySelectorAll('#engine-list .engine')]; \
             return rows.length === 2 && rows.every(r => r.classList.contains('ready')) \
               && rows.map(r => r.querySelector('.name').textContent)",
            30,
            "both engines to start",
        )
        .await;
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        names,
        json!([
            format!("1: shove {version}"),
            format!("2: shove {version} player greedy")
        ])
    );
    page.close().await;
}

impl Page {
    /// The moves of the other lines shown in the move list (`.variation .var-move`), once
    /// there are `n`.
    async fn variation_moves(&self, n: usize) -> Vec<String> {
        self.wait_for(
            &format!("return document.querySelectorAll('#moves .var-move').length === {n}"),
            10,
            &format!("{n} moves of other lines"),
        )
        .await;
        let v = self
            .js("return [...document.querySelectorAll('#moves .var-move')].map(e => e.dataset.varMove)")
            .await;
        serde_json::from_value(v).expect("a list of moves")
    }

    /// Opens `url` in a new window of the same browser, which then is the one driven.
    async fn open_in_new_window(&self, url: &str) {
        let window = self.client.new_window(false).await.expect("a new window");
        self.client
            .switch_to_window(window.handle)
            .await
            .expect("switch to the new window");
        self.go_to(url).await;
    }
}

/// Playing at an earlier move starts a variation and keeps the old line, which can be
/// opened again, promoted and deleted; *Save game* writes the variations (read back by
/// `shove record`), *Open game* shows them again, and a malformed variation is refused
/// with its line and reason, the game shown staying. *Copy link* gives an address without
/// the token, naming the level and the players, that opens the same game in another
/// window of the same browser (the cookie set by the printed address) and not in another
/// browser (no cookie). Playing as player two turns the board; *Resign* ends the game and
/// the record says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variations_links_and_resigning_in_the_browser() {
    let Some(page) = Page::start().await else {
        return;
    };
    let dir = TempDir::new();
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    let mut line = Vec::new();
    for k in 0..4 {
        line.push(page.click_move(k * 3).await);
        page.wait_for_moves(line.len(), 10, "the clicked move")
            .await;
    }

    // Another move at move 3: a variation; the old line stays, shown beside it.
    page.jump_to("#moves [data-ply='2']", 2).await;
    let other = page.click_move(7).await;
    assert_ne!(other, line[2]);
    page.wait_for_moves(3, 10, "the new line").await;
    assert_eq!(page.played().await[..2], line[..2]);
    assert_eq!(page.variation_moves(2).await, line[2..]);
    page.screenshot("variation", 1400, 1000).await;

    // The old line opened again from the variation, then the new one made the main line.
    page.click("#moves .var-move").await;
    page.wait_for_moves(4, 10, "the old line").await;
    assert_eq!(page.played().await, line);
    assert_eq!(page.variation_moves(1).await, vec![other.clone()]);
    page.click("#moves .var-move").await;
    page.wait_for_moves(3, 10, "the new line").await;
    assert_eq!(
        page.js("return document.getElementById('promote').disabled")
            .await,
        false
    );
    page.click("#promote").await;
    page.wait_for(
        "return document.getElementById('promote').disabled",
        5,
        "the line promoted",
    )
    .await;

    // Saved with its variation, checked by `shove record`, opened back.
    let text = page.save_game().await;
    let variation = format!("Variation 1: 3. {}", line[2..].join(" "));
    assert!(text.contains(&variation), "{variation} in\n{text}");
    let saved = dir.0.join("tree.txt");
    std::fs::write(&saved, &text).expect("record written");
    let out = Command::new(env!("CARGO_BIN_EXE_shove"))
        .arg("record")
        .arg(&saved)
        .output()
        .expect("shove record runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
    page.click("#new-game").await;
    page.wait_for_moves(0, 10, "a new game").await;
    page.client
        .find(Locator::Css("#open-file"))
        .await
        .expect("#open-file")
        .send_keys(&saved.display().to_string())
        .await
        .expect("choose the record");
    page.wait_for_moves(3, 10, "the opened game").await;
    assert_eq!(page.variation_moves(2).await, line[2..]);
    assert!(page.text("#record-info").await.contains("1 variation"));

    // A malformed variation: refused with its line, the game shown stays.
    let bad_text = text.replace(&variation, &format!("Variation 1: 3. {} a1a1", line[2]));
    let bad = dir.0.join("bad-variation.txt");
    std::fs::write(&bad, &bad_text).expect("record written");
    let bad_line = bad_text
        .lines()
        .position(|l| l.starts_with("Variation 1:"))
        .expect("the variation")
        + 1;
    page.client
        .find(Locator::Css("#open-file"))
        .await
        .expect("#open-file")
        .send_keys(&bad.display().to_string())
        .await
        .expect("choose the record");
    let error = page
        .error_shown(&format!("record line {bad_line}, variation 1: move 4"), 10)
        .await;
    assert!(error.contains("a1a1"), "{error}");
    assert_eq!(page.variation_moves(2).await, line[2..]);

    // Playing as player two at level 2: the board turned, the link names both.
    page.choose("#level", "2").await;
    page.choose("#play-mode", "p2").await;
    let bottom = page.text("#player-bottom").await;
    assert!(
        bottom.starts_with("Black") && bottom.contains("you"),
        "{bottom}"
    );
    assert!(page.text("#player-top").await.contains("(level 2)"));
    page.click("#copy-link").await;
    let link = page
        .js("return document.getElementById('link').value")
        .await;
    let link = link.as_str().expect("the link").to_string();
    assert!(!link.contains("token"), "{link}");
    assert!(link.starts_with(&gui.bare_url()), "{link}");
    for part in ["level=2", "play=p2", "players=shove"] {
        assert!(link.contains(part), "{part} in {link}");
    }
    page.screenshot("link-copied", 1400, 1000).await;

    // The link in another window of this browser: the same game, playing on.
    let first = page.client.window().await.expect("this window");
    page.open_in_new_window(&link).await;
    page.wait_for(
        "return document.body.dataset.ready === 'true'",
        20,
        "the linked page",
    )
    .await;
    page.wait_for(
        "return document.querySelectorAll('#moves [data-move]').length >= 3",
        20,
        "the linked game",
    )
    .await;
    assert_eq!(
        page.played().await[..3],
        [&line[..2], std::slice::from_ref(&other)].concat()[..]
    );
    assert_eq!(
        page.js("return [document.getElementById('level').value, document.getElementById('play-mode').value]")
            .await,
        json!(["2", "p2"])
    );
    assert_eq!(
        page.js("return document.getElementById('error').hidden")
            .await,
        true
    );
    // Another browser has no cookie: it is told to open the printed address.
    page.client.close_window().await.expect("close the window");
    page.client
        .switch_to_window(first)
        .await
        .expect("back to the first window");
    page.client
        .delete_all_cookies()
        .await
        .expect("cookies deleted");
    page.open_in_new_window(&link).await;
    page.error_shown("no token", 20).await;
    page.client.close_window().await.expect("close the window");
    let windows = page.client.windows().await.expect("windows");
    page.client
        .switch_to_window(windows[0].clone())
        .await
        .expect("back to the first window");

    // Resign as player two: the result shown and recorded.
    page.wait_for(
        "return !document.getElementById('resign').disabled",
        30,
        "your turn to resign",
    )
    .await;
    page.click("#resign").await;
    assert_eq!(page.text("#status").await, "Black resigned: White wins");
    let record = page.save_game().await;
    assert!(record.contains("Result: 1-0"), "{record}");
    assert!(record.contains("Reason: player 2 resigned"), "{record}");
    assert!(record.contains("(level 2)"), "{record}");
    page.close().await;
}

/// The Abraxas position of a full-strength game where player one's placement on b7
/// completes lines and the capture is `xd4b6` or `xd4b7` (`shove match`, 2026-11-28).
const ABRAXAS_BEFORE_A_CAPTURE: &str = "s5 R7/8/1R6/7R/3R3R/8/8/8 nw 1 p - 17 0 2 3 3 4";

/// Every turn visible and Abraxas by hand: a push marks both its cells and slides its
/// marbles in, the line under the board says what the move did; the eval bar shows the
/// engine's last evaluation while you play (and hides it when asked); Offboard's board
/// names its edge cells and writes the points as "N points (6 to win)"; an Abraxas
/// capture is made by clicking the ringed line stones, a blue stone placed by choosing
/// blue; the Rules page of each game opens from the board. *Review game* with the game's
/// default depth shows its progress and can be cancelled, and no second review starts
/// while one runs. Screenshots of the three boards at 1400x1000 and phone size.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_turn_is_shown_and_abraxas_is_played_by_hand() {
    let Some(page) = Page::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.engine_ready().await;

    // Akiba: a push, both its ends ringed, its marbles sliding in.
    let mv = page.click_move(0).await;
    page.wait_for_moves(1, 10, "the clicked move").await;
    let rings = page
        .js("return [...document.querySelectorAll('#board [data-last]')].map(e => e.dataset.last).sort()")
        .await;
    assert_eq!(rings, json!([&mv[..2], &mv[2..]]));
    assert!(
        page.js("return document.querySelectorAll('#board .marble.arrive').length")
            .await
            .as_u64()
            .is_some_and(|n| n >= 1)
    );
    assert_eq!(page.text("#last-move").await, format!("1. White: {mv}"));

    // Against the engine: the bar shows its last evaluation; hidden when asked.
    page.type_into("#movetime", "100").await;
    page.choose("#play-mode", "p1").await;
    page.wait_for_moves(2, 30, "the engine's move").await;
    page.wait_for(
        "return document.getElementById('evalbar').dataset.share !== '' \
           && document.querySelector('.evalbar-text').textContent !== ''",
        30,
        "the engine's evaluation in the bar",
    )
    .await;
    page.click("#show-eval").await;
    assert_eq!(
        page.js("return [document.getElementById('evalbar').classList.contains('hidden-eval'), document.querySelector('.evalbar-text').textContent]")
            .await,
        json!([true, ""])
    );
    page.click("#show-eval").await;
    page.choose("#play-mode", "none").await;

    page.large_screenshots("board-akiba").await;

    // Offboard: edge cells named, points against the target.
    page.choose_game("offboard", 61).await;
    let names = page
        .js("return [...document.querySelectorAll('#board .board-coord')].map(e => e.textContent)")
        .await;
    let names: Vec<String> = serde_json::from_value(names).expect("names");
    assert_eq!(names.len(), 24, "{names:?}");
    assert!(names.contains(&"a1".to_string()) && names.contains(&"i9".to_string()));
    assert!(
        page.text("#player-bottom")
            .await
            .contains("0 points (6 to win)")
    );
    page.click_move(0).await;
    page.wait_for_moves(1, 10, "the clicked move").await;
    // Review: progress with Cancel, no second review meanwhile.
    assert_eq!(
        page.js("return document.getElementById('review-depth').selectedOptions[0].textContent")
            .await,
        "default (depth 6)"
    );
    page.js("document.getElementById('review-depth').value = '12'; return true")
        .await;
    page.click("#review").await;
    page.wait_for(
        "return /^reviewing: move \\d+ of 1$/.test(document.getElementById('review-progress').textContent) \
           && document.getElementById('review').disabled \
           && !document.getElementById('review-cancel').hidden",
        10,
        "the review's progress",
    )
    .await;
    page.click("#review-cancel").await;
    page.wait_for(
        "return document.getElementById('review-progress').textContent === 'review cancelled' \
           && !document.getElementById('review').disabled",
        60,
        "the review cancelled",
    )
    .await;
    page.js("document.getElementById('review-depth').value = ''; return true")
        .await;
    page.click("#review").await;
    page.wait_for(
        "return document.querySelectorAll('#review-info .review-player').length === 2",
        60,
        "the review at the default depth",
    )
    .await;
    page.large_screenshots("board-offboard").await;

    // Abraxas: a capture by clicking the line stones, a blue stone by choosing blue.
    page.choose_game("abraxas", 64).await;
    page.type_into("#position-input", ABRAXAS_BEFORE_A_CAPTURE)
        .await;
    page.click("#position-load").await;
    page.wait_for(
        "return !document.getElementById('stone-choice').hidden",
        10,
        "the choice of stone",
    )
    .await;
    page.click("#board [data-cell='b7']").await;
    page.wait_for_moves(1, 10, "the placement").await;
    assert!(
        page.js("return document.querySelector(\"#board [data-cell='d4']\").classList.contains('in-line')")
            .await
            == true
    );
    assert!(
        page.text("#last-move")
            .await
            .contains("a line: capture next")
    );
    page.click("#board [data-cell='d4']").await;
    page.wait_for(
        "return document.querySelector(\"#board [data-cell='d4']\").classList.contains('picked')",
        5,
        "d4 picked",
    )
    .await;
    assert_eq!(
        page.played().await.len(),
        1,
        "two captures hold d4: none played yet"
    );
    page.click("#board [data-cell='b7']").await;
    page.wait_for_moves(2, 10, "the capture").await;
    assert_eq!(page.played().await[1], "xd4b7");
    assert!(
        page.text("#last-move").await.contains("took 2: d4 b7"),
        "{}",
        page.text("#last-move").await
    );
    page.large_screenshots("board-abraxas").await;
    page.type_into("#position-input", ABRAXAS_BEFORE_A_CAPTURE)
        .await;
    page.click("#position-load").await;
    page.wait_for_moves(0, 10, "the position again").await;
    page.click("#stone-choice input[value='blue']").await;
    page.click("#board [data-cell='c1']").await;
    page.wait_for_moves(1, 10, "the blue stone").await;
    assert_eq!(page.played().await, vec!["!c1".to_string()]);
    assert!(
        page.text("#last-move")
            .await
            .contains("blue stop stone on c1")
    );

    // In German: the page's words, the status from the server's words, the level list.
    page.choose("#language", "de").await;
    assert_eq!(page.text("#new-game").await, "Neue Partie");
    assert_eq!(page.text("#undo").await, "↶ Zurücknehmen");
    assert_eq!(page.text("#analysis").await, "▶ Analyse");
    assert!(
        page.text("#status").await.contains("am Zug"),
        "{}",
        page.text("#status").await
    );
    assert!(
        page.text("#level option[value=\"3\"]")
            .await
            .starts_with("Stufe 3")
    );
    page.screenshot("board-abraxas-de", 1400, 1000).await;
    let german = browser::words_of("de");
    let left = page.foreign_words(&german).await;
    assert!(
        left.is_empty(),
        "English on the German Abraxas board: {left:?}"
    );
    for (game, cells) in [("offboard", 61), ("akiba", 49), ("abraxas", 64)] {
        page.choose_game(game, cells).await;
        let left = page.foreign_words(&german).await;
        assert!(
            left.is_empty(),
            "English on the German {game} board: {left:?}"
        );
    }
    // The page opened in German (the choice kept) says the same.
    page.js("location.reload(); return true").await;
    page.wait_for(
        "return document.body.dataset.ready === 'true' && document.documentElement.lang === 'de'",
        20,
        "the page again",
    )
    .await;
    page.engine_ready().await;
    let left = page.foreign_words(&german).await;
    assert!(
        left.is_empty(),
        "English on the German page opened anew: {left:?}"
    );
    // The server's refusal of a typed move, in German.
    page.type_into("#move-input", "pass").await;
    page.click("#move-play").await;
    page.error_shown("Zug 1: unerlaubter Zug 'pass' in dieser Stellung", 10)
        .await;
    page.choose("#language", "fr").await;
    assert_eq!(page.text("#new-game").await, "Nouvelle partie");
    page.choose("#language", "en").await;

    // The Rules page of the game shown.
    let rules = page
        .js("return document.getElementById('rules-link').href")
        .await;
    let rules = rules.as_str().expect("the rules link").to_string();
    assert!(rules.contains("/rules/abraxas"), "{rules}");
    page.go_to(&rules).await;
    page.wait_for(
        "const h = document.querySelector('#rules-text h1'); return h && h.textContent.startsWith('Abraxas')",
        10,
        "the rules",
    )
    .await;
    // The players' rule book with its diagrams (every page in every language is checked by
    // tests/gui_rules.rs).
    page.wait_for(
        "return document.getElementById('rules-text').dataset.boards === 'drawn'",
        10,
        "the diagrams",
    )
    .await;
    assert!(
        page.js("return document.querySelectorAll('#rules-text h2').length")
            .await
            .as_u64()
            .is_some_and(|n| n > 3)
    );
    page.screenshot("rules-abraxas", 1400, 1000).await;
    // The language switch shows the rule book's translation.
    page.choose("#language", "de").await;
    page.wait_for(
        "const h = [...document.querySelectorAll('#rules-text h2')].map(e => e.textContent); \
         return h.includes('Das Spielbrett') && h.includes('Ein Zug')",
        10,
        "the German rules",
    )
    .await;
    let left = page.foreign_words(&browser::rule_book_words("de")).await;
    assert!(
        left.is_empty(),
        "English on the German rules page: {left:?}"
    );
    page.screenshot("rules-abraxas-de", 1400, 1000).await;
    page.choose("#language", "fr").await;
    page.wait_for(
        "const h = [...document.querySelectorAll('#rules-text h2')].map(e => e.textContent); \
         return h.includes('Le plateau') && h.includes('Un tour')",
        10,
        "the French rules",
    )
    .await;
    page.choose("#language", "en").await;
    page.close().await;
}
