//! The puzzles page of `shove gui` in headless Chromium, as a person uses it: a shipped
//! Akiba puzzle solved by clicking (the opponent's replies playing themselves), another
//! failed with a wrong move and the solution shown, the rating and streak following, the
//! theme filter, a link by id, and the page in German (no English left, a bad link's error
//! in German). Screenshots go to target/gui-screenshots/puzzle-*.png.
//!
//! Without `chromium` and `chromedriver` the test is skipped loudly, unless `CI` or
//! `SHOVE_REQUIRE_BROWSER` is set: then a missing browser is a failure (as tests/gui.rs).

use crate::browser;
use crate::gui_server;

use browser::Browser;
use gui_server::Gui;
use serde_json::json;
use shove::puzzles::format::{Puzzle, PuzzleFile};

/// The browser showing the puzzles page, and the steps of solving in it.
struct Page(Browser);

impl std::ops::Deref for Page {
    type Target = Browser;
    fn deref(&self) -> &Browser {
        &self.0
    }
}

impl Page {
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
}

/// Whether every solver move of `puzzle` is a push (no `pass`), so clicks can make it.
fn clickable(puzzle: &Puzzle) -> bool {
    puzzle.solution.iter().all(|m| m.len() == 4)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_puzzle_is_solved_by_clicking_and_another_failed() {
    let Some(browser) = Browser::start().await.map(Page) else {
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
    browser.take_screenshot("puzzle-start").await;

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
    browser.take_screenshot("puzzle-solved").await;

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
    browser.take_screenshot("puzzle-wrong").await;
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
    browser.take_screenshot("puzzle-failed").await;

    // The theme filter: the next puzzle has the theme chosen.
    let theme = "long";
    browser.choose("#theme", theme).await;
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

    // In German (the switch kept for the next visit): the page's words, the goal and the
    // status from the server's words, the themes; no English left; a bad link's error.
    browser.choose("#language", "de").await;
    browser.click("#next-puzzle").await;
    // The bad link's puzzle is already being solved: wait for the next one, which clears
    // the link's error once its position has come.
    browser
        .wait_for(
            "return document.getElementById('error').hidden",
            10,
            "the next puzzle in German",
        )
        .await;
    browser.wait_state("solving", 10).await;
    assert_eq!(browser.text("#next-puzzle").await, "Nächste Aufgabe");
    let goal = browser.text("#goal").await;
    assert!(goal.ends_with("am Zug: finde den besten Zug"), "{goal}");
    assert_eq!(browser.text("#puzzle-status").await, "Du bist am Zug");
    let left = browser.foreign_words(&browser::words_of("de")).await;
    assert!(
        left.is_empty(),
        "English on the German puzzles page: {left:?}"
    );
    browser.screenshot("puzzle-de", 1400, 1000).await;
    browser.screenshot("puzzle-de-phone", 390, 844).await;
    browser
        .go_to(&format!("{}/puzzles#game=akiba&id=nope", gui.origin()))
        .await;
    browser
        .wait_for(
            "const e = document.getElementById('error'); return !e.hidden && e.textContent.includes(\"keine akiba-Aufgabe hat die Kennung 'nope'\")",
            10,
            "the bad link's error in German",
        )
        .await;
    browser.0.close().await;
}

/// The movers of `puzzle`'s solution moves (Akiba), 1 or 2.
fn akiba_movers(puzzle: &Puzzle) -> Vec<usize> {
    let mut position: shove::akiba::Position = puzzle.position.parse().expect("a position");
    let mut movers = Vec::new();
    for text in &puzzle.solution {
        movers.push(shove::game::Game::to_move(&position).index() + 1);
        let mv = shove::game::Game::parse_move(&position, text).expect("a legal move");
        shove::game::Game::play(&mut position, mv);
    }
    movers
}

/// The puzzles page shows the players' bars and the last move as the board page does; a
/// solver's own move before another of theirs is reported as theirs; a puzzle solved again
/// by its link changes neither rating nor streak; a new solver starts among the easiest
/// puzzles; a link of another game typed into the open tab switches everything, and a bad
/// one changes nothing.
#[tokio::test(flavor = "multi_thread")]
async fn the_puzzles_page_keeps_score_and_rates_each_puzzle_once() {
    let Some(browser) = Browser::start().await.map(Page) else {
        return;
    };
    let set = PuzzleFile::parse(
        &std::fs::read_to_string("positions/puzzles/akiba.txt").expect("the Akiba set"),
    );
    // A puzzle where the solver moves twice in a row (an extra move after a capture).
    let (twice, movers) = set
        .puzzles
        .iter()
        .map(|(_, p)| (p, akiba_movers(p)))
        .find(|(p, movers)| clickable(p) && movers.len() >= 2 && movers[0] == movers[1])
        .expect("a puzzle with two solver moves in a row");
    let gui = Gui::start(&[]);
    let token = gui.token.clone().expect("a token");
    browser
        .open(&format!(
            "{}/puzzles?token={token}#game=akiba&id={}",
            gui.origin(),
            twice.id
        ))
        .await;
    // A new solver starts at the easy end: at most the set's 10th percentile.
    let mut ratings: Vec<i32> = set.puzzles.iter().map(|(_, p)| p.rating).collect();
    ratings.sort_unstable();
    let start = browser.rating().await;
    assert!(
        start <= i64::from(ratings[ratings.len() / 10]),
        "a new solver starts at {start}"
    );
    // The bars: reds won and marbles left, as on the board page.
    assert!(browser.text("#player-bottom").await.contains("/7 reds"));
    assert!(browser.text("#player-top").await.contains("marbles left"));
    browser.click_push(&twice.solution[0]).await;
    browser
        .wait_for(
            "const s = document.getElementById('puzzle-status'); return s.dataset.ply === '1' && s.dataset.busy === 'false'",
            20,
            "the first move",
        )
        .await;
    let status = browser.text("#puzzle-status").await;
    assert_eq!(
        status,
        format!("You played {}: your move again", twice.solution[0])
    );
    assert!(
        browser.text("#last-move").await.starts_with(&format!(
            "1. {}: {}",
            ["White", "Black"][movers[0] - 1],
            twice.solution[0]
        )),
        "{}",
        browser.text("#last-move").await
    );
    for i in 1..twice.solution.len() {
        if movers[i] != movers[0] {
            continue;
        }
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
        browser.click_push(&twice.solution[i]).await;
    }
    browser.wait_state("solved", 20).await;
    let rating = browser.rating().await;
    assert!(rating > start, "{start} → {rating}");
    assert_eq!(browser.text("#puzzle-streak").await, "1");
    // After the solve the header follows the position shown.
    let goal = browser.text("#goal").await;
    assert!(!goal.contains("find the best move"), "{goal}");
    browser
        .screenshot("puzzle-bars-1400x1000", 1400, 1000)
        .await;
    browser.screenshot("puzzle-bars-phone", 390, 844).await;

    // The same puzzle again by its id: solved, and nothing changes.
    browser.js("location.reload(); return true").await;
    browser
        .wait_for(
            "return document.body.dataset.ready === 'true'",
            20,
            "the page again",
        )
        .await;
    browser.wait_state("solving", 10).await;
    assert_eq!(browser.text("#puzzle-link").await, twice.id);
    for i in 0..twice.solution.len() {
        if movers[i] != movers[0] {
            continue;
        }
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
        browser.click_push(&twice.solution[i]).await;
    }
    browser.wait_state("solved", 20).await;
    assert_eq!(browser.rating().await, rating, "a puzzle is rated once");
    assert_eq!(browser.text("#puzzle-streak").await, "1");
    assert!(browser.text("#puzzle-status").await.contains("done before"));

    // Offboard by a link typed into this tab: the points shown; then a bad Akiba link
    // changes nothing of it.
    let offboard = PuzzleFile::parse(
        &std::fs::read_to_string("positions/puzzles/offboard.txt").expect("the Offboard set"),
    );
    let first = &offboard.puzzles[0].1;
    browser
        .client
        .goto(&format!(
            "{}/puzzles#game=offboard&id={}",
            gui.origin(),
            first.id
        ))
        .await
        .expect("the link opens");
    browser
        .wait_for(
            "return document.querySelectorAll('#board [data-cell]').length === 61 \
               && document.getElementById('game').value === 'offboard'",
            10,
            "the Offboard puzzle",
        )
        .await;
    assert!(browser.text("#player-bottom").await.contains("to win)"));
    let rating = browser.text("#puzzle-rating").await;
    browser
        .client
        .goto(&format!("{}/puzzles#game=akiba&id=nope", gui.origin()))
        .await
        .expect("the link opens");
    browser
        .wait_for(
            "const e = document.getElementById('error'); return !e.hidden && e.textContent.includes('nope')",
            10,
            "the bad link's error",
        )
        .await;
    assert_eq!(
        browser
            .js("return [document.getElementById('game').value, document.querySelectorAll('#board [data-cell]').length, document.getElementById('puzzle-link').textContent]")
            .await,
        json!(["offboard", 61, first.id])
    );
    assert_eq!(browser.text("#puzzle-rating").await, rating);
    browser.0.close().await;
}
