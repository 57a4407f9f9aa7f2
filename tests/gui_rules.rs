//! The Rules pages of `shove gui` in headless Chromium, as a player reads them: for each
//! game in English, German and French, the players' rule book (docs/rules/) with every
//! board diagram drawn from a position the server accepts, no English left in German or
//! French, and nothing wider than the window, on a desktop (1400×1000) and on a phone
//! (390×844). Screenshots go to target/gui-screenshots/rules-GAME-LANGUAGE-SIZE.png.
//!
//! Without `chromium` and `chromedriver` the test is skipped loudly, unless `CI` or
//! `SHOVE_REQUIRE_BROWSER` is set: then a missing browser is a failure (as tests/gui.rs).

use crate::browser;
use crate::gui_server;

use browser::{Browser, rule_book_words};
use gui_server::Gui;
use serde_json::json;

/// The diagrams (`board` code blocks) of a players' rule book.
fn diagrams_in(path: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines().filter(|l| l.trim() == "```board").count()
}

#[tokio::test(flavor = "multi_thread")]
async fn rules_pages_draw_every_diagram_and_fit_a_phone() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let gui = Gui::start(&["--no-token"]);
    for language in ["en", "de", "fr"] {
        let words = (language != "en").then(|| rule_book_words(language));
        for game in ["akiba", "offboard", "abraxas"] {
            let book = match language {
                "en" => format!("docs/rules/{game}.md"),
                _ => format!("docs/rules/{language}/{game}.md"),
            };
            let diagrams = diagrams_in(&book);
            assert!(diagrams >= 4, "{book}: only {diagrams} diagrams");
            browser
                .go_to(&format!("{}/rules/{game}", gui.origin()))
                .await;
            browser
                .js(&format!(
                    "localStorage.setItem('shove-language', {}); location.reload(); return true",
                    json!(language)
                ))
                .await;
            browser
                .wait_for(
                    &format!(
                        "const box = document.getElementById('rules-text'); \
                         return box && box.dataset.language === '{language}' && box.dataset.boards === 'drawn'"
                    ),
                    20,
                    &format!("the {language} rules of {game} with their diagrams"),
                )
                .await;
            let drawn = browser
                .js(
                    "return [...document.querySelectorAll('#rules-text [data-board]')] \
                     .map(d => d.classList.contains('rules-board-error') ? d.textContent : d.querySelectorAll('svg .cell').length)",
                )
                .await;
            let drawn: Vec<serde_json::Value> = serde_json::from_value(drawn).expect("a list");
            assert_eq!(drawn.len(), diagrams, "{book}: {drawn:?}");
            assert!(
                drawn
                    .iter()
                    .all(|d| d.as_u64().is_some_and(|cells| cells > 0)),
                "{book}: a diagram not drawn: {drawn:?}"
            );
            let heading = browser.text("#rules-text h1").await;
            assert!(heading.starts_with(&game[..1].to_uppercase()), "{heading}");
            if let Some(words) = &words {
                let left = browser.foreign_words(words).await;
                assert!(left.is_empty(), "English on {book}'s page: {left:?}");
            }
            for (size, width, height) in [("wide", 1400, 1000), ("phone", 390, 844)] {
                browser
                    .screenshot(&format!("rules-{game}-{language}-{size}"), width, height)
                    .await;
                let fits = browser
                    .js("return [document.documentElement.scrollWidth, innerWidth]")
                    .await;
                let [scroll, inner] = [fits[0].as_u64(), fits[1].as_u64()];
                assert!(
                    scroll.is_some() && scroll <= inner,
                    "{book} at {width}×{height}: {scroll:?} wide in a window of {inner:?}"
                );
            }
        }
    }
    browser.close().await;
}
