//! The lessons page of `shove gui` in headless Chromium, as a learner uses it: one lesson
//! of each game clicked through to the end (a wrong move explained and retried on the
//! way), the tick kept for the finished lesson, the link from the board page, and the
//! page in German and French with none of its words left in English. Screenshots of an
//! exercise of each game in each language, desktop and phone, go to
//! target/gui-screenshots/learn-*.png.
//!
//! Without `chromium` and `chromedriver` the test is skipped loudly, unless `CI` or
//! `SHOVE_REQUIRE_BROWSER` is set: then a missing browser is a failure (as tests/gui.rs).

use crate::browser;
use crate::gui_server;

use browser::Browser;
use gui_server::Gui;
use serde_json::json;

/// The browser showing the lessons page, and the steps of a learner in it.
struct Page(Browser);

impl std::ops::Deref for Page {
    type Target = Browser;
    fn deref(&self) -> &Browser {
        &self.0
    }
}

impl Page {
    /// Waits for the exercise `index` (from 0) in the verdict `state` (`trying`, `wrong`,
    /// `right`), nothing being asked of the server.
    async fn wait_verdict(&self, index: usize, state: &str) {
        self.wait_for(
            &format!(
                "const v = document.getElementById('verdict'); \
                 return document.getElementById('dots').dataset.index === '{index}' \
                   && v.dataset.state === '{state}' && v.dataset.busy === 'false'"
            ),
            20,
            &format!("exercise {} to be {state}", index + 1),
        )
        .await;
    }

    /// Clicks a move from one cell to another: the marble, then where it goes.
    async fn click_move(&self, from: &str, to: &str) {
        self.click(&format!("#board [data-cell='{from}']")).await;
        self.wait_for(
            &format!("return document.querySelector(\"#board [data-cell='{from}']\").classList.contains('selected')"),
            5,
            "the selected marble",
        )
        .await;
        self.click(&format!("#board [data-cell='{to}']")).await;
    }

    async fn click_cell(&self, cell: &str) {
        self.click(&format!("#board [data-cell='{cell}']")).await;
    }

    /// Opens a lesson by its address and waits for its first exercise.
    async fn open_lesson(&self, origin: &str, game: &str, lesson: &str) {
        self.go_to(&format!("{origin}/learn#game={game}&lesson={lesson}"))
            .await;
        // Loaded afresh: a new address that differs only in its fragment would not be.
        self.client.refresh().await.expect("the page reloads");
        self.wait_for(
            "return document.body.dataset.ready === 'true'",
            20,
            "the page",
        )
        .await;
        self.wait_verdict(0, "trying").await;
    }

    async fn next(&self) {
        self.click("#next").await;
    }
}

/// The words of every lesson text in `language` (`de`, `fr`): lesson data, not the
/// dictionary's.
fn lesson_words(language: usize) -> std::collections::HashSet<String> {
    let mut words = std::collections::HashSet::new();
    for (game, text) in shove::lessons::files() {
        let lessons = shove::lessons::api::read(game, text).expect("the shipped lessons");
        for lesson in lessons {
            words.extend(browser::split_words(&lesson.title.0[language]));
            for e in &lesson.exercises {
                for text in [Some(&e.say), Some(&e.task), e.done.as_ref()]
                    .into_iter()
                    .flatten()
                    .chain(e.wrong.iter().map(|w| &w.why))
                {
                    words.extend(browser::split_words(&text.0[language]));
                }
            }
        }
    }
    words
}

#[tokio::test(flavor = "multi_thread")]
async fn one_lesson_of_each_game_is_played_to_its_end() {
    let Some(browser) = Browser::start().await.map(Page) else {
        return;
    };
    let gui = Gui::start(&[]);
    let token = gui.token.clone().expect("a token");
    let origin = gui.origin();
    // The board page links to the lessons of the game shown.
    browser.open(&format!("{origin}/?token={token}")).await;
    let href = browser
        .js("return document.getElementById('learn-link').getAttribute('href')")
        .await;
    assert_eq!(href, json!("/learn#game=akiba"));
    browser.click("#learn-link").await;
    browser
        .wait_for(
            "return document.body.dataset.ready === 'true' && document.querySelectorAll('#lessons li').length > 5",
            20,
            "the list of Akiba's lessons",
        )
        .await;
    assert!(
        browser
            .text("#list-intro")
            .await
            .starts_with("Akiba: 0 of 7 lessons done")
    );

    // Akiba, the first lesson: a wrong move explained, retried, then both exercises.
    browser
        .click("#lessons li[data-lesson='first-push'] button")
        .await;
    browser.wait_verdict(0, "trying").await;
    assert_eq!(
        browser.text("#task").await,
        "Push your marble north, to d5."
    );
    browser.click_move("d4", "e4").await;
    browser.wait_verdict(0, "wrong").await;
    let said = browser.text("#verdict").await;
    assert!(
        said.contains("That is east. North is up, towards rank 7."),
        "{said}"
    );
    browser.take_screenshot("learn-akiba-wrong").await;
    assert!(
        !browser
            .js("return document.getElementById('retry').hidden")
            .await
            .as_bool()
            .expect("a flag")
    );
    browser.click("#retry").await;
    browser.wait_verdict(0, "trying").await;
    // A move the exercise does not list is explained by the rules' reason.
    browser.click_move("d4", "d3").await;
    browser.wait_verdict(0, "wrong").await;
    let said = browser.text("#verdict").await;
    assert!(
        said.contains("after this move d5 holds no white marble"),
        "{said}"
    );
    browser.click("#retry").await;
    browser.wait_verdict(0, "trying").await;
    browser.click_move("d4", "d5").await;
    browser.wait_verdict(0, "right").await;
    assert_eq!(browser.text("#next").await, "Next exercise");
    browser.next().await;
    browser.wait_verdict(1, "trying").await;
    browser.click_move("a1", "b1").await;
    browser.wait_verdict(1, "right").await;
    assert!(browser.text("#verdict").await.starts_with("Behind a1"));
    assert_eq!(browser.text("#next").await, "Lesson done: next lesson");
    browser.next().await;
    browser
        .wait_for(
            "return document.getElementById('lesson-title').textContent === 'Pushing a row'",
            10,
            "the next lesson",
        )
        .await;
    // An illegal push the exercise explains: the rule that forbids it.
    browser.wait_verdict(0, "trying").await;
    browser.click_move("d4", "e4").await;
    browser.wait_verdict(0, "wrong").await;
    assert!(
        browser
            .text("#verdict")
            .await
            .contains("no room for your finger")
    );
    // The list ticks the finished lesson, also after a reload.
    browser.click("#to-list").await;
    browser.go_to(&format!("{origin}/learn#game=akiba")).await;
    browser
        .wait_for(
            "const li = document.querySelector(\"#lessons li[data-lesson='first-push']\"); \
             return li && li.dataset.done === 'true' && li.querySelector('.tick').textContent === '✓'",
            20,
            "the tick of the finished lesson",
        )
        .await;
    assert_eq!(
        browser
            .js("return document.querySelector(\"#lessons li[data-lesson='push-row']\").dataset.done")
            .await,
        json!("false")
    );
    browser.screenshot("learn-list", 1400, 1000).await;
    browser.screenshot("learn-list-phone", 390, 844).await;

    // Offboard: moves, a wrong one explained and retried.
    browser.open_lesson(&origin, "offboard", "moves").await;
    browser.click_move("e5", "f6").await;
    browser.wait_verdict(0, "wrong").await;
    assert!(
        browser
            .text("#verdict")
            .await
            .contains("That is north-east")
    );
    browser.click("#retry").await;
    browser.wait_verdict(0, "trying").await;
    browser.click_move("e5", "e6").await;
    browser.wait_verdict(0, "right").await;
    browser.next().await;
    browser.wait_verdict(1, "trying").await;
    browser.click_move("e4", "e5").await;
    browser.wait_verdict(1, "right").await;
    assert_eq!(browser.text("#next").await, "Lesson done: next lesson");

    // Abraxas: red and blue stones; the blue stone the rules forbid, explained, retried.
    browser
        .open_lesson(&origin, "abraxas", "red-and-blue")
        .await;
    browser.click_cell("d2").await;
    browser.wait_verdict(0, "right").await;
    browser.next().await;
    browser.wait_verdict(1, "trying").await;
    browser.click("input[name=stone][value=blue]").await;
    browser.click_cell("d2").await;
    browser.wait_verdict(1, "wrong").await;
    assert!(browser.text("#verdict").await.contains("Not allowed"));
    browser.click("#retry").await;
    browser.wait_verdict(1, "trying").await;
    browser.click("input[name=stone][value=red]").await;
    browser.click_cell("d2").await;
    browser.wait_verdict(1, "right").await;
    browser.next().await;
    browser
        .wait_for(
            "return document.getElementById('lesson-title').textContent === 'Completing a line and taking it'",
            10,
            "the next lesson",
        )
        .await;

    // In German and French: the page's words and the lessons' own, no English left; an
    // exercise of each game on a desktop and a phone.
    let exercises = [
        ("akiba", "push-off"),
        ("offboard", "sectors"),
        ("abraxas", "capture"),
    ];
    for (index, language) in [(0, "en"), (1, "de"), (2, "fr")] {
        browser
            .js(&format!(
                "localStorage.setItem('shove-language', '{language}'); return true"
            ))
            .await;
        let mut words = browser::words_of(if language == "en" { "de" } else { language });
        words.extend(lesson_words(index));
        for (game, lesson) in exercises {
            browser.open_lesson(&origin, game, lesson).await;
            if language != "en" {
                let left = browser.foreign_words(&words).await;
                assert!(
                    left.is_empty(),
                    "English on the {language} lessons page ({game}): {left:?}"
                );
            }
            browser
                .screenshot(&format!("learn-{game}-{language}"), 1400, 1000)
                .await;
            browser
                .screenshot(&format!("learn-{game}-{language}-phone"), 390, 844)
                .await;
        }
    }
    browser.0.close().await;
}
