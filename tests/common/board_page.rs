//! The board page's steps as the browser tests take them (tests/gui.rs, tests/gui_play.rs):
//! typing, clicking a legal move on the board, waiting for the move list, saving the
//! record. Include it beside common/browser.rs as `mod board_page`.

use crate::browser::Browser;
use fantoccini::Locator;
use serde_json::Value;

impl Browser {
    /// Types `text` into the input `css`, replacing what it held.
    pub async fn type_into(&self, css: &str, text: &str) {
        let input = self.client.find(Locator::Css(css)).await.expect(css);
        input.clear().await.expect("clear");
        input.send_keys(text).await.expect("send keys");
    }

    /// The moves in the move list.
    pub async fn played(&self) -> Vec<String> {
        let v = self
            .js("return [...document.querySelectorAll('#moves [data-move]')].map(e => e.dataset.move)")
            .await;
        serde_json::from_value(v).expect("a list of moves")
    }

    /// Waits until the move list holds `n` moves.
    pub async fn wait_for_moves(&self, n: usize, secs: u64, what: &str) {
        self.wait_for(
            &format!("return document.querySelectorAll('#moves [data-move]').length === {n}"),
            secs,
            what,
        )
        .await;
    }

    /// Clicks the `pick`-th (modulo their number) legal move that can be clicked, pushes
    /// first and shorter moves first: from-cell then to-cell, or the target of a
    /// placement. Returns the move.
    pub async fn click_move(&self, pick: usize) -> String {
        let v = self
            .js(&format!(
                "const all = [...document.querySelectorAll('#legal-moves [data-to]')]
                   .sort((x, y) => (y.dataset.from ? 1 : 0) - (x.dataset.from ? 1 : 0)
                                  || x.dataset.move.length - y.dataset.move.length);
                 const b = all[{pick} % Math.max(all.length, 1)];
                 return b ? [b.dataset.move, b.dataset.from || null, b.dataset.to] : null"
            ))
            .await;
        let [mv, from, to]: [Value; 3] = serde_json::from_value(v).expect("a clickable move");
        if let Some(from) = from.as_str() {
            self.click(&format!("#board [data-cell='{from}']")).await;
            self.wait_for(
                &format!("return document.querySelector(\"#board [data-cell='{from}']\").classList.contains('selected')"),
                5,
                "the selected cell",
            )
            .await;
        }
        let to = to.as_str().expect("a target cell");
        self.click(&format!("#board [data-cell='{to}']")).await;
        mv.as_str().expect("move text").to_string()
    }

    /// Clicks the cells of `mv` (a push `a1b2` or a placement `e3`).
    pub async fn click_cells(&self, mv: &str) {
        for k in (0..mv.len()).step_by(2) {
            self.click(&format!("#board [data-cell='{}']", &mv[k..k + 2]))
                .await;
        }
    }

    /// Clicks *Save game*; returns the text downloaded.
    pub async fn save_game(&self) -> String {
        self.js("document.getElementById('save-link').removeAttribute('download'); return true")
            .await;
        self.click("#save-game").await;
        self.wait_for(
            "return document.getElementById('save-link').download",
            10,
            "the download",
        )
        .await;
        let text = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1]; \
                 fetch(document.getElementById('save-link').href) \
                   .then(r => r.text()).then(done, e => done('cannot read: ' + e))",
                Vec::new(),
            )
            .await
            .expect("the downloaded record");
        text.as_str().expect("text").to_string()
    }
}
