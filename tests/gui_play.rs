//! Playing against the engine in headless Chromium, by clicking: a resignation ends the
//! game (no move taken, the engine stopped, the record keeps result and reason); the
//! evaluation bar never shows a weak level's own search; the engine plays its whole turn
//! whenever it is its turn, also after going back and playing a move again; what was said
//! of one game goes with it (New game, another game). Players' complaints, each by
//! clicking: a review counts from move 1; Copy link says the variations stay behind;
//! Offboard's re-placement said in words; Abraxas' marks, hole names and red/blue choice
//! plain to see; a big score fits the eval bar.
//!
//! Without `chromium` and `chromedriver` the tests are skipped loudly, unless `CI` or
//! `SHOVE_REQUIRE_BROWSER` is set: then a missing browser is a failure.

use crate::browser;
use crate::gui_server;

use browser::Browser;
use gui_server::Gui;
use serde_json::json;
use std::collections::HashSet;
use std::time::Duration;

/// The page at phone size does not scroll sideways.
async fn fits_the_phone(page: &Browser, what: &str) {
    let [wide, window]: [u64; 2] = serde_json::from_value(
        page.js("return [document.documentElement.scrollWidth, innerWidth]")
            .await,
    )
    .expect("two widths");
    assert!(
        wide <= window,
        "{what}: {wide} px wide on a {window} px phone"
    );
}

/// Whose turn the player bars show: 1, 2, or 0 (nobody's: the game is over).
async fn to_move(page: &Browser) -> u64 {
    page.js(
        "const bars = [...document.querySelectorAll('.player-bar')]; \
         const b = bars.find(b => b.querySelector('.turn')); \
         return b ? (b.querySelector('.swatch').classList.contains('p2') \
           || b.querySelector('.swatch').classList.contains('black') \
           || b.querySelector('.swatch').classList.contains('yellow') ? 2 : 1) : 0",
    )
    .await
    .as_u64()
    .expect("a side")
}

/// Waits until it is player one's turn with no engine thinking: the engine's whole turn
/// played.
async fn wait_for_my_turn(page: &Browser, what: &str) {
    page.wait_for(
        "const b = document.querySelector('#player-bottom'); \
         return b.querySelector('.turn') && !document.getElementById('status').textContent.includes('thinking')",
        60,
        what,
    )
    .await;
}

/// After *Resign* the board takes no move (no badge "to move", no legal move listed, a
/// click plays nothing), the engine does not answer, and the record keeps the result and
/// the reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_ends_the_game() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.type_into("#movetime", "100").await;
    page.choose("#play-mode", "p1").await;
    page.click_move(0).await;
    page.wait_for_moves(2, 60, "the engine's answer").await;
    wait_for_my_turn(&page, "my turn").await;
    page.click("#resign").await;
    assert_eq!(page.text("#status").await, "White resigned: Black wins");
    assert_eq!(to_move(&page).await, 0, "no side to move after resigning");
    assert_eq!(
        page.js("return document.querySelectorAll('#legal-moves [data-move]').length")
            .await,
        json!(0)
    );
    assert_eq!(
        page.js("return document.getElementById('resign').disabled")
            .await,
        true
    );
    // A click on the board and a typed move play nothing; the engine stays quiet.
    page.click("#board [data-cell='a6']").await;
    page.click("#board [data-cell='b6']").await;
    page.type_into("#move-input", "a6b6").await;
    page.click("#move-play").await;
    page.click("#engine-play").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(page.played().await.len(), 2);
    assert_eq!(page.text("#status").await, "White resigned: Black wins");
    let record = page.save_game().await;
    assert!(record.contains("Result: 0-1"), "{record}");
    assert!(record.contains("Reason: player 1 resigned"), "{record}");
    page.close().await;
}

/// Against level 1 the bar shows no evaluation of the engine's own weak search: nothing,
/// until a full-strength look at the position (a hint) gives one; an ended game shows its
/// result and not a mate in 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bar_shows_no_weak_level_s_evaluation() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.type_into("#movetime", "100").await;
    page.choose("#level", "1").await;
    page.choose("#play-mode", "p1").await;
    for k in 0..3 {
        page.click_move(k * 5).await;
        page.wait_for_moves(2 * k + 2, 60, "the engine's answer")
            .await;
        wait_for_my_turn(&page, "my turn").await;
        assert_eq!(
            page.js("return [document.getElementById('evalbar').dataset.share, document.querySelector('.evalbar-text').textContent]")
                .await,
            json!(["", ""]),
            "level 1's own search in the bar"
        );
    }
    page.click("#hint").await;
    page.wait_for(
        "return document.getElementById('hint-text').dataset.move",
        30,
        "the hint",
    )
    .await;
    let text = page
        .wait_for(
            "return document.querySelector('.evalbar-text').textContent",
            10,
            "the hint's evaluation in the bar",
        )
        .await;
    assert!(
        text.as_str().is_some_and(|t| t.len() <= 5),
        "{text} does not fit the bar"
    );
    // The label fits the bar.
    let widths = page
        .js("const l = document.querySelector('.evalbar-text'), b = document.getElementById('evalbar'); \
             return [l.scrollWidth, b.clientWidth, l.textContent]")
        .await;
    assert!(
        widths[0].as_u64() <= widths[1].as_u64(),
        "the label is cut: {widths}"
    );
    // A value of ±10 and more fits too.
    let widths = page
        .js("const l = document.querySelector('.evalbar-text'), b = document.getElementById('evalbar'); \
             l.textContent = '-10.1'; return [l.scrollWidth, b.clientWidth]")
        .await;
    assert!(
        widths[0].as_u64() <= widths[1].as_u64(),
        "-10.1 is cut: {widths}"
    );
    page.close().await;
}

/// Abraxas against the engine: after its turn (of one decision or several) it is the
/// person's turn again; going back to the start and playing the same move again, the
/// engine plays its whole turn again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_plays_its_whole_turn_after_going_back() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.choose("#game", "abraxas").await;
    page.wait_for(
        "return document.querySelectorAll('#board [data-cell]').length === 64",
        10,
        "the Abraxas board",
    )
    .await;
    page.type_into("#movetime", "100").await;
    page.choose("#play-mode", "p1").await;
    let first = page.click_move(0).await;
    // My turn may hold more decisions (a stop stone or a pass): pass them.
    page.wait_for(
        "return document.querySelectorAll('#moves [data-move]').length >= 1",
        10,
        "my move",
    )
    .await;
    while page
        .js("return !!document.querySelector('#player-bottom .turn') && !!document.querySelector(\"#legal-moves [data-move='pass']\")")
        .await
        == true
    {
        page.click("#legal-moves [data-move='pass']").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    wait_for_my_turn(&page, "the engine's whole turn").await;
    let line = page.played().await;
    assert!(line.len() >= 2, "{line:?}");
    // Back to the start, the same move again: the engine is to move and plays.
    page.click("#first").await;
    page.wait_for(
        "return !document.querySelector('#moves .current')",
        10,
        "the start",
    )
    .await;
    page.click_cells(&first).await;
    page.wait_for(
        "return document.querySelector(\"#moves [data-ply='1']\").classList.contains('current')",
        10,
        "the move played again",
    )
    .await;
    while page
        .js("return !!document.querySelector('#player-bottom .turn') && !!document.querySelector(\"#legal-moves [data-move='pass']\")")
        .await
        == true
    {
        page.click("#legal-moves [data-move='pass']").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    wait_for_my_turn(&page, "the engine's whole turn again").await;
    let at = page
        .js("const c = document.querySelector('#moves .current'); return c ? Number(c.dataset.ply) : 0")
        .await;
    assert!(at.as_u64().is_some_and(|n| n >= 2), "ply {at}");
    page.close().await;
}

/// New game and another game clear what was said of the game before (a review cancelled,
/// a link copied, a record opened) and the board's flip.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_game_and_another_game_forget_the_old_one() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    // Offboard: a review at depth 12 lasts long enough to be cancelled.
    page.choose("#game", "offboard").await;
    page.wait_for(
        "return document.querySelectorAll('#board [data-cell]').length === 61",
        10,
        "the Offboard board",
    )
    .await;
    page.click_move(0).await;
    page.wait_for_moves(1, 60, "my move").await;
    page.js("document.getElementById('review-depth').value = '12'; return true")
        .await;
    page.click("#review").await;
    page.wait_for(
        "return /^reviewing: move 1 of 1$/.test(document.getElementById('review-progress').textContent)",
        10,
        "the review's progress from move 1",
    )
    .await;
    page.click("#review-cancel").await;
    page.wait_for(
        "return document.getElementById('review-progress').textContent === 'review cancelled'",
        60,
        "the review cancelled",
    )
    .await;
    page.click("#copy-link").await;
    page.wait_for(
        "return document.getElementById('link-status').textContent",
        5,
        "the link copied",
    )
    .await;
    page.click("#new-game").await;
    page.wait_for_moves(0, 60, "a new game").await;
    assert_eq!(
        page.js("return [document.getElementById('link-status').textContent, document.getElementById('review-progress').textContent]")
            .await,
        json!(["", ""])
    );
    // Flipped in Offboard, Akiba comes the right way up.
    page.click("#flip").await;
    let bottom = page.text("#player-bottom").await;
    assert!(bottom.starts_with("Yellow"), "{bottom}");
    page.choose("#game", "akiba").await;
    page.wait_for(
        "return document.querySelectorAll('#board [data-cell]').length === 49",
        10,
        "the Akiba board",
    )
    .await;
    let bottom = page.text("#player-bottom").await;
    assert!(bottom.starts_with("White"), "{bottom}");
    page.close().await;
}

/// Every page (the board of each game while playing against the engine, the puzzles of
/// each game, the Rules of each game) in German and in French shows no word that is not
/// in the page's dictionary (the Rules pages: or in the rule book of that language).
/// Screenshots of each at 1400x1000 and phone size.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_speaks_the_page_s_language() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    let games = [("akiba", 49), ("offboard", 61), ("abraxas", 64)];
    // English first: its screenshots only (English is every dictionary's key).
    for language in ["en", "de", "fr"] {
        let english = language == "en";
        let words = if english {
            HashSet::new()
        } else {
            browser::words_of(language)
        };
        page.choose("#language", language).await;
        page.type_into("#movetime", "100").await;
        for (game, cells) in games {
            page.choose("#game", game).await;
            page.wait_for(
                &format!(
                    "return document.querySelectorAll('#board [data-cell]').length === {cells}"
                ),
                10,
                "the board",
            )
            .await;
            page.choose("#level", "3").await;
            page.choose("#play-mode", "p2").await;
            page.wait_for(
                "return document.querySelectorAll('#moves [data-move]').length > 0",
                30,
                "the engine's move",
            )
            .await;
            page.choose("#play-mode", "none").await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            let left = page.foreign_words(&words).await;
            assert!(
                english || left.is_empty(),
                "{language} {game} board: {left:?}"
            );
            page.screenshot(&format!("lang-{language}-{game}-1400x1000"), 1400, 1000)
                .await;
            page.screenshot(&format!("lang-{language}-{game}-phone"), 390, 844)
                .await;
            fits_the_phone(&page, &format!("{language} {game} board")).await;
            page.client
                .set_window_size(1366, 768)
                .await
                .expect("window size");
            page.click("#new-game").await;
            page.wait_for_moves(0, 60, "a new game").await;
        }
        for (game, cells) in games {
            page.go_to(&format!("{}/puzzles#game={game}", gui.origin()))
                .await;
            page.wait_for(
                &format!(
                    "return document.body.dataset.ready === 'true' \
                       && document.querySelectorAll('#board [data-cell]').length === {cells}"
                ),
                20,
                "the puzzle",
            )
            .await;
            let left = page.foreign_words(&words).await;
            assert!(
                english || left.is_empty(),
                "{language} {game} puzzles: {left:?}"
            );
            page.screenshot(
                &format!("lang-{language}-puzzle-{game}-1400x1000"),
                1400,
                1000,
            )
            .await;
            page.screenshot(&format!("lang-{language}-puzzle-{game}-phone"), 390, 844)
                .await;
            fits_the_phone(&page, &format!("{language} {game} puzzles")).await;
        }
        let book = if english {
            HashSet::new()
        } else {
            browser::rule_book_words(language)
        };
        for (game, _) in games {
            page.go_to(&format!("{}/rules/{game}?lang={language}", gui.origin()))
                .await;
            page.wait_for(
                "const h = document.querySelector('#rules-text h1'); return h && h.textContent",
                10,
                "the rules",
            )
            .await;
            let left = page.foreign_words(&book).await;
            assert!(
                english || left.is_empty(),
                "{language} {game} rules: {left:?}"
            );
            page.screenshot(
                &format!("lang-{language}-rules-{game}-1400x1000"),
                1400,
                1000,
            )
            .await;
            page.screenshot(&format!("lang-{language}-rules-{game}-phone"), 390, 844)
                .await;
            fits_the_phone(&page, &format!("{language} {game} rules")).await;
        }
        page.go_to(&gui.url).await;
        page.wait_for(
            "return document.body.dataset.ready === 'true'",
            20,
            "the board page",
        )
        .await;
        page.client
            .set_window_size(1366, 768)
            .await
            .expect("window size");
    }
    page.close().await;
}

/// Akiba's winning capture (the seventh red, akiba-tactics-02): the line under the board
/// says what it took and not "moves again", and the bar shows the result, not a mate in
/// one found before the move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_won_game_shows_its_result_and_no_extra_move() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.type_into(
        "#position-input",
        "1W5/2WRR2/RB5/B1R2B1/1RB1RW1/BBBW3/3R3 b 0 6 - - 15",
    )
    .await;
    page.click("#position-load").await;
    page.wait_for(
        "return document.getElementById('position').textContent.startsWith('1W5/')",
        10,
        "the position",
    )
    .await;
    page.click("#analysis").await;
    page.wait_for(
        "return document.querySelector('.evalbar-text').textContent.includes('M')",
        30,
        "the mate in the bar",
    )
    .await;
    page.click("#analysis").await;
    page.click_cells("b5a5").await;
    page.wait_for_moves(1, 60, "the winning capture").await;
    assert_eq!(
        page.js("return document.getElementById('status').dataset.result")
            .await,
        "p2win"
    );
    let last = page.text("#last-move").await;
    assert!(last.contains("captured 1 red"), "{last}");
    assert!(!last.contains("moves again"), "{last}");
    assert_eq!(page.text(".evalbar-text").await, "0-1");
    page.close().await;
}

/// The page's own links keep the game: Puzzles from an Offboard game opens Offboard's
/// puzzles, their Play link the Offboard game on screen; the browser's Back brings the board
/// back with its engine connected (the dot and Hint say the same).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_s_links_and_back_keep_the_game_and_its_engine() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.choose("#game", "offboard").await;
    page.wait_for(
        "return document.querySelectorAll('#board [data-cell]').length === 61",
        10,
        "the Offboard board",
    )
    .await;
    page.click_move(0).await;
    page.wait_for_moves(1, 60, "my move").await;
    let position = page.text("#position").await;

    page.click("#puzzles-link").await;
    page.wait_for(
        "return document.body.dataset.ready === 'true' && location.pathname === '/puzzles' \
           && document.querySelectorAll('#board [data-cell]').length === 61",
        20,
        "Offboard's puzzles",
    )
    .await;
    page.click("#play-link").await;
    page.wait_for(
        &format!(
            "return document.body.dataset.ready === 'true' && \
             document.getElementById('position').textContent === {}",
            json!(position)
        ),
        20,
        "the Offboard game back from the puzzles' Play link",
    )
    .await;

    // To the puzzles again, and back with the browser's Back.
    page.click("#puzzles-link").await;
    page.wait_for(
        "return document.body.dataset.ready === 'true' && location.pathname === '/puzzles'",
        20,
        "the puzzles again",
    )
    .await;
    page.client.back().await.expect("back");
    page.wait_for(
        &format!(
            "return document.body.dataset.ready === 'true' && \
             document.getElementById('position').textContent === {} && \
             document.querySelector('#engine-list .engine.ready') !== null",
            json!(position)
        ),
        20,
        "the game and a ready engine after Back",
    )
    .await;
    page.click("#hint").await;
    page.wait_for(
        "const h = document.getElementById('hint-text').textContent; \
         const e = document.getElementById('error'); \
         return h.length > 0 && e.hidden",
        30,
        "a hint after Back, and no error",
    )
    .await;
    page.close().await;
}

/// What is on screen follows a language switch: a server's refusal (a bad position
/// string, a link that does not replay), a lesson's verdict on a move, a puzzle link's
/// error, each said again in German and in French.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_on_screen_are_said_again_in_the_new_language() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.choose("#language", "en").await;
    let error_is = |text: &'static str| {
        format!(
            "const e = document.getElementById('error'); return !e.hidden && e.textContent === {}",
            json!(text)
        )
    };
    page.type_into("#position-input", "8/7/7/7/7/7/7 w 0 0 - - 1")
        .await;
    page.click("#position-load").await;
    page.wait_for(
        &error_is("bad position string: board field: unknown character '8' in rank 7"),
        10,
        "the English refusal",
    )
    .await;
    page.choose("#language", "de").await;
    page.wait_for(
        &error_is("ungültiger Stellungsstring: Brettangabe: unbekanntes Zeichen '8' in Reihe 7"),
        5,
        "the refusal in German",
    )
    .await;
    page.choose("#language", "fr").await;
    page.wait_for(
        &error_is("chaîne de position invalide : champ du plateau : caractère inconnu « 8 » dans la rangée 7"),
        5,
        "the refusal in French",
    )
    .await;

    // A link that does not replay: the server's reason inside the page's own words.
    page.choose("#language", "en").await;
    page.go_to(&format!(
        "{}#game=akiba&start=8/7/7/7/7/7/7%20w%200%200%20-%20-%201",
        gui.origin()
    ))
    .await;
    page.client.refresh().await.expect("reload");
    page.wait_for(
        &error_is("link: bad position string: board field: unknown character '8' in rank 7"),
        20,
        "the link's refusal",
    )
    .await;
    page.choose("#language", "de").await;
    page.wait_for(
        &error_is(
            "Link: ungültiger Stellungsstring: Brettangabe: unbekanntes Zeichen '8' in Reihe 7",
        ),
        5,
        "the link's refusal in German",
    )
    .await;

    // A lesson's verdict: the rules' reason for a move the exercise does not list.
    page.choose("#language", "en").await;
    page.go_to(&format!(
        "{}/learn#game=akiba&lesson=first-push",
        gui.origin()
    ))
    .await;
    page.client.refresh().await.expect("reload");
    page.wait_for(
        "return document.body.dataset.ready === 'true' \
           && document.getElementById('verdict').dataset.state === 'trying'",
        20,
        "the lesson",
    )
    .await;
    page.click_cells("d4d3").await;
    page.wait_for(
        "return document.getElementById('verdict').dataset.state === 'wrong'",
        10,
        "the verdict",
    )
    .await;
    let english = page.text("#verdict").await;
    assert!(english.contains("d4d3: not this time."), "{english}");
    page.choose("#language", "de").await;
    let german = page.text("#verdict").await;
    assert!(german.starts_with("d4d3: diesmal nicht."), "{german}");
    assert!(!german.contains("holds no white marble"), "{german}");

    // A puzzle link's error.
    page.choose("#language", "en").await;
    // Not reloaded after: the page shows a puzzle in place of the bad link and puts that
    // puzzle's id in the address, so a reload would open it without the error.
    page.go_to(&format!(
        "{}/puzzles#game=akiba&id=no-such-puzzle",
        gui.origin()
    ))
    .await;
    page.wait_for(
        "return document.body.dataset.ready === 'true'",
        60,
        "the puzzles page",
    )
    .await;
    page.wait_for(
        &error_is("no akiba puzzle has the id 'no-such-puzzle'"),
        10,
        "the puzzle link's error",
    )
    .await;
    page.choose("#language", "fr").await;
    let french = page.text("#error").await;
    assert!(!french.contains("puzzle has the id"), "{french}");
    page.close().await;
}

/// A record saved from a tab opened by a game's link credits each move to who played it:
/// the engine's moves before the link at the level they were played at, those after at
/// the level of the new tab, the person's as the person's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_from_a_linked_tab_names_who_played_each_move() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.type_into("#movetime", "100").await;
    page.choose("#level", "2").await;
    page.choose("#play-mode", "p1").await;
    page.click_move(0).await;
    page.wait_for_moves(1, 60, "my move").await;
    wait_for_my_turn(&page, "the engine's answer at level 2").await;
    let link = page
        .js("return document.getElementById('link').value")
        .await;
    let link = link.as_str().expect("the link").to_string();

    let tab = page.client.new_window(true).await.expect("a new tab");
    page.client
        .switch_to_window(tab.handle)
        .await
        .expect("to the new tab");
    page.open(&link).await;
    assert_eq!(
        page.js("return document.getElementById('level').value")
            .await,
        "2"
    );
    assert_eq!(
        page.js("return document.getElementById('play-mode').value")
            .await,
        "p1"
    );
    page.type_into("#movetime", "100").await;
    page.choose("#level", "5").await;
    let before = page.played().await.len();
    page.click_move(0).await;
    page.wait_for_moves(before + 1, 60, "my move in the new tab")
        .await;
    wait_for_my_turn(&page, "the engine's answer at level 5").await;
    let record = page.save_game().await;
    let line = |key: &str| {
        record
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_else(|| panic!("no {key} in {record}"))
            .to_string()
    };
    assert_eq!(line("Player1: "), "you", "{record}");
    let engine = line("Player2: ");
    let (at_2, at_5) = engine
        .split_once(", ")
        .unwrap_or_else(|| panic!("one engine name for two levels: {record}"));
    assert!(at_2.ends_with("(level 2)"), "{record}");
    assert!(at_5.ends_with("(level 5)"), "{record}");
    page.close().await;
}

/// Screenshots of the page as it is, at 1400x1000 and at phone size, then back to
/// 1400x1000.
async fn shots(page: &Browser, name: &str) {
    page.screenshot(&format!("{name}-1400x1000"), 1400, 1000)
        .await;
    page.screenshot(&format!("{name}-phone"), 390, 844).await;
    fits_the_phone(page, name).await;
    page.client
        .set_window_size(1400, 1000)
        .await
        .expect("window size");
}

/// Chooses `game` and waits for its board (`cells` cells).
async fn choose_game(page: &Browser, game: &str, cells: usize) {
    page.choose("#game", game).await;
    page.wait_for(
        &format!("return document.querySelectorAll('#board [data-cell]').length === {cells}"),
        10,
        "the board",
    )
    .await;
}

/// The review's progress counts from the first move: as soon as *Review game* is clicked
/// it says "reviewing: move 1 of 3", never "move 0 of 3".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_review_counts_from_move_1() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.client
        .set_window_size(1400, 1000)
        .await
        .expect("window size");
    choose_game(&page, "offboard", 61).await;
    page.choose("#play-mode", "none").await;
    for n in 1..=3 {
        page.click_move(n).await;
        page.wait_for_moves(n, 20, "the move played").await;
    }
    // Depth 12: the review lasts long enough to be read and cancelled.
    page.client
        .find(fantoccini::Locator::Css("#review-depth"))
        .await
        .expect("the review's depth")
        .select_by_label("12")
        .await
        .expect("depth 12");
    page.click("#review").await;
    let first = page
        .wait_for(
            "return document.getElementById('review-progress').textContent",
            10,
            "the review's progress",
        )
        .await;
    assert_eq!(first, "reviewing: move 1 of 3");
    shots(&page, "review-progress").await;
    page.click("#review-cancel").await;
    page.wait_for(
        "return document.getElementById('review-progress').textContent === 'review cancelled'",
        60,
        "the review cancelled",
    )
    .await;
    page.close().await;
}

/// Copy link says that the link holds the line shown and not its variations when the
/// move tree has some (a move played again differently after going back), and says
/// nothing of variations when it has none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn copy_link_says_the_variations_stay_behind() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.client
        .set_window_size(1400, 1000)
        .await
        .expect("window size");
    page.choose("#play-mode", "none").await;
    for n in 1..=3 {
        page.click_move(0).await;
        page.wait_for_moves(n, 20, "the move played").await;
    }
    let note = "the link holds the line shown, not its variations (Save game keeps them)";
    page.click("#copy-link").await;
    let said = page
        .wait_for(
            "return document.getElementById('link-status').textContent",
            5,
            "the link copied",
        )
        .await;
    let said = said.as_str().expect("text").to_string();
    assert!(
        said == "link copied" || said == "select the link and copy it",
        "{said}"
    );
    assert!(!said.contains("variations"), "{said}");
    shots(&page, "copy-link-no-variations").await;

    // Back to move 1, another second move: a variation.
    let line = page.played().await;
    page.click("#moves [data-ply='1']").await;
    page.wait_for(
        "return document.querySelector(\"#moves [data-ply='1']\").classList.contains('current')",
        10,
        "move 1 shown",
    )
    .await;
    let other = page.click_move(1).await;
    assert_ne!(other, line[1], "the same move again is no variation");
    page.wait_for(
        "return document.querySelectorAll('#moves .variation').length === 1",
        10,
        "the variation in the move list",
    )
    .await;
    page.click("#copy-link").await;
    let said = page
        .wait_for(
            "return document.getElementById('link-status').textContent",
            5,
            "the link copied",
        )
        .await;
    let said = said.as_str().expect("text").to_string();
    assert!(said.ends_with(&format!(" · {note}")), "{said}");
    shots(&page, "copy-link-variations").await;
    page.js(
        "document.getElementById('link-status').scrollIntoView({ block: 'center' }); return true",
    )
    .await;
    page.take_screenshot("copy-link-variations-status-1400x1000")
        .await;
    page.choose("#language", "de").await;
    let german = page.text("#link-status").await;
    assert!(
        german.ends_with(
            " · der Link enthält die gezeigte Variante, nicht die anderen (Partie speichern behält sie)"
        ),
        "{german}"
    );
    page.close().await;
}

/// Offboard's re-placement: a marble pushed into a sector already taken comes back; the
/// status then says that a normal move is allowed too, and the line under the board names
/// the re-placement in words, not only as `@e5` (in every language).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_re_placement_is_said_in_words() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.client
        .set_window_size(1400, 1000)
        .await
        .expect("window size");
    choose_game(&page, "offboard", 61).await;
    page.choose("#play-mode", "none").await;
    // The rule book's example: S3 already holds a Yellow marble; Red pushes another one
    // off b6 into it.
    page.type_into(
        "#position-input",
        "5/4Y1/4Y2/8/9/8/7/3RRY/5 r 3 0 ..y......... - 1",
    )
    .await;
    page.click("#position-load").await;
    page.wait_for(
        "return document.getElementById('position').textContent.startsWith('5/4Y1/4Y2/')",
        10,
        "the position",
    )
    .await;
    page.click_cells("b4b5").await;
    page.wait_for_moves(1, 20, "the push").await;
    // What is wrong, all said at the end.
    let mut wrong = Vec::new();
    let status = page.text("#status").await;
    if status
        != "Yellow to move: re-placement: put the returned marble on an empty cell, \
            or make a normal move (the marble is then out of the game)"
    {
        wrong.push(format!("status: {status}"));
    }
    // Both are offered: re-placements and normal moves.
    let kinds = page
        .js("const m = [...document.querySelectorAll('#legal-moves [data-move]')].map(b => b.dataset.move); \
             return [m.some(t => t.startsWith('@')), m.some(t => /^[a-i][1-9][a-i][1-9]$/.test(t))]")
        .await;
    assert_eq!(kinds, json!([true, true]), "re-placements and normal moves");
    let last = page.text("#last-move").await;
    assert!(last.contains("a marble comes back: re-place it"), "{last}");
    shots(&page, "offboard-replacement-pending").await;

    // The re-placement, by a click on an empty cell.
    page.click("#board [data-cell='e5']").await;
    page.wait_for_moves(2, 20, "the re-placement").await;
    assert_eq!(page.played().await[1], "@e5");
    shots(&page, "offboard-replaced").await;
    let said = [
        ("en", "2. Yellow: @e5 — the marble re-placed on e5"),
        ("de", "2. Gelb: @e5 — die Kugel auf e5 wieder eingesetzt"),
        ("fr", "2. Jaune : @e5 — la bille replacée sur e5"),
    ];
    for (language, expected) in said {
        page.choose("#language", language).await;
        let last = page.text("#last-move").await;
        if last != expected {
            wrong.push(format!("last move in {language}: {last}"));
        }
    }
    shots(&page, "offboard-replaced-fr").await;
    assert!(wrong.is_empty(), "{wrong:#?}");
    page.choose("#language", "en").await;
    page.close().await;
}

/// The RGB distance of two computed colours.
fn colour_distance(a: &str, b: &str) -> f64 {
    let rgb = |css: &str| -> Vec<f64> {
        let inner = css
            .split_once('(')
            .and_then(|(_, rest)| rest.strip_suffix(')'))
            .unwrap_or_else(|| panic!("not a colour: {css}"));
        inner
            .split(',')
            .take(3)
            .map(|p| p.trim().parse().expect("a number"))
            .collect()
    };
    let (a, b) = (rgb(a), rgb(b));
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
}

/// How well each of the Abraxas plate's hole names stands out from what lies under it, as
/// drawn: two screenshots, with the names and without, and for each name the highest
/// contrast ratio (WCAG) between a pixel of its box with the name and the same pixel
/// without. Returns (name, ratio) pairs.
async fn plate_coord_contrasts(page: &Browser) -> Vec<(String, f64)> {
    tokio::time::sleep(Duration::from_millis(400)).await;
    let with = page.client.screenshot().await.expect("a screenshot");
    page.js("for (const e of document.querySelectorAll('.plate-coord')) e.style.visibility = 'hidden'; return true")
        .await;
    let without = page.client.screenshot().await.expect("a screenshot");
    page.js("for (const e of document.querySelectorAll('.plate-coord')) e.style.visibility = ''; return true")
        .await;
    let v = page
        .client
        .execute_async(
            "const [a, b, done] = arguments;
             const lum = (r, g, b) => [r, g, b].map(c => c / 255)
               .map(c => c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
               .reduce((s, c, i) => s + c * [0.2126, 0.7152, 0.0722][i], 0);
             const pixels = async bytes => {
               const img = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
               const c = new OffscreenCanvas(img.width, img.height);
               const g = c.getContext('2d');
               g.drawImage(img, 0, 0);
               return g.getImageData(0, 0, img.width, img.height);
             };
             Promise.all([pixels(a), pixels(b)]).then(([A, B]) => {
               const k = devicePixelRatio;
               done([...document.querySelectorAll('.plate-coord')].map(e => {
                 const r = e.getBoundingClientRect();
                 let best = 1;
                 for (let y = Math.max(0, Math.floor(r.top * k)); y < Math.min(A.height, Math.ceil(r.bottom * k)); y++) {
                   for (let x = Math.max(0, Math.floor(r.left * k)); x < Math.min(A.width, Math.ceil(r.right * k)); x++) {
                     const i = 4 * (y * A.width + x);
                     const la = lum(A.data[i], A.data[i + 1], A.data[i + 2]);
                     const lb = lum(B.data[i], B.data[i + 1], B.data[i + 2]);
                     best = Math.max(best, (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05));
                   }
                 }
                 return [e.textContent, best];
               }));
             }, e => done('cannot read: ' + e));",
            vec![json!(with), json!(without)],
        )
        .await
        .expect("the contrasts");
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{e}: {v}"))
}

/// Abraxas: the red/blue choice is in view at 1400x857 without scrolling; a line's holes
/// are marked in another colour than the last move; the hole names stand out from the
/// page and the sheet (a contrast ratio of 4.5 at least, where the old faint grey names
/// had about 2).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abraxas_marks_names_and_stone_choice_are_plain_to_see() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.open(&gui.url).await;
    page.client
        .set_window_size(1400, 857)
        .await
        .expect("window size");
    choose_game(&page, "abraxas", 64).await;
    page.choose("#play-mode", "none").await;
    let mut wrong = Vec::new();
    // The choice of red or blue, at the start, in view without scrolling.
    let choice = page
        .wait_for(
            "const c = document.getElementById('stone-choice'); \
             return !c.hidden && [c.getBoundingClientRect().top, c.getBoundingClientRect().bottom, innerHeight, scrollY]",
            10,
            "the red/blue choice",
        )
        .await;
    let [top, bottom, height, scrolled]: [f64; 4] =
        serde_json::from_value(choice).expect("four numbers");
    if !(top >= 0.0 && bottom <= height && scrolled == 0.0) {
        wrong.push(format!(
            "the red/blue choice at {top}..{bottom} of a {height} px window (scrolled {scrolled})"
        ));
    }
    page.take_screenshot("abraxas-stone-choice-1400x857").await;

    // The hole names, around the plate over the page and the sheet.
    for (name, ratio) in plate_coord_contrasts(&page).await {
        if ratio < 4.5 {
            wrong.push(format!(
                "the hole name {name} is faint: contrast {ratio:.2}"
            ));
        }
    }

    // d5 over a dot: after the slide, column d and row 5 are lines to take from.
    page.click("#board [data-cell='d5']").await;
    page.wait_for(
        "const s = document.querySelector(\"#legal-moves [data-move='slide']\"); if (s) s.click(); \
         return document.querySelectorAll('#board .cell.in-line').length >= 4",
        10,
        "the lines",
    )
    .await;
    let marks = page
        .js("const ring = document.querySelector('#board .last-ring'); \
             const hole = document.querySelector('#board .cell.in-line:not(.last) .hole'); \
             return ring && hole && [getComputedStyle(ring).stroke, getComputedStyle(hole).stroke]")
        .await;
    let [ring, hole]: [String; 2] =
        serde_json::from_value(marks.clone()).unwrap_or_else(|e| panic!("{e}: {marks}"));
    let distance = colour_distance(&ring, &hole);
    if distance < 80.0 {
        wrong.push(format!(
            "the last move ({ring}) and the line ({hole}) marked alike: {distance:.0} apart"
        ));
    }
    for (name, ratio) in plate_coord_contrasts(&page).await {
        if ratio < 4.5 {
            wrong.push(format!(
                "after the slide, the hole name {name} is faint: contrast {ratio:.2}"
            ));
        }
    }
    page.take_screenshot("abraxas-line-1400x857").await;
    shots(&page, "abraxas-line").await;
    assert!(wrong.is_empty(), "{wrong:#?}");
    page.close().await;
}

/// Akiba, White to move with eight marbles against two (`shove analyze --movetime 1000`:
/// +15.46, no mate in sight), as a link's `start`.
const BIG_LEAD: &str = "WW5/WW1R1B1/2RRR2/1RRRRR1/2RRR2/B2R1WW/5WW%20w%200%200%20-%20-%201";

/// The evaluation bar's label is not cut, also for a big score: Akiba with White a lot
/// of marbles ahead, opened by its link, the Hint's evaluation in the bar.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_big_score_fits_the_bar() {
    let Some(page) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&[]);
    page.client
        .set_window_size(1400, 1000)
        .await
        .expect("window size");
    page.open(&format!("{}#game=akiba&start={BIG_LEAD}", gui.url))
        .await;
    page.wait_for(
        &format!(
            "return document.body.dataset.ready === 'true' && document.getElementById('position').textContent === {}",
            json!(BIG_LEAD.replace("%20", " "))
        ),
        20,
        "the position of the link",
    )
    .await;
    page.click("#hint").await;
    page.wait_for(
        "return document.getElementById('hint-text').dataset.move",
        60,
        "the hint",
    )
    .await;
    let label = page
        .wait_for(
            "const l = document.querySelector('.evalbar-text'); \
             if (!l.textContent) return null; \
             const r = document.createRange(); r.selectNodeContents(l); \
             const t = r.getBoundingClientRect(), b = document.getElementById('evalbar').getBoundingClientRect(); \
             return [l.textContent, l.scrollWidth, l.clientWidth, t.left, t.right, b.left, b.right]",
            10,
            "the hint's evaluation in the bar",
        )
        .await;
    let (text, sizes): (String, [f64; 6]) = (
        label[0].as_str().expect("text").to_string(),
        serde_json::from_value(json!(label.as_array().expect("a list")[1..])).expect("sizes"),
    );
    assert!(
        text.split('.').next().is_some_and(|w| w.len() >= 3),
        "a score of 10 and more, not {text}"
    );
    let [scroll, client, left, right, bar_left, bar_right] = sizes;
    assert!(
        scroll <= client,
        "{text} is cut: {scroll} px in {client} px"
    );
    assert!(
        left >= bar_left && right <= bar_right,
        "{text} at {left}..{right} sticks out of the bar at {bar_left}..{bar_right}"
    );
    shots(&page, "evalbar-big-score").await;
    page.close().await;
}
