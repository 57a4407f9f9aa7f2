//! The puzzles page (`/puzzles`): its files, and the shipped sets as JSON
//! (`/puzzles/sets.json`), read from the sets built into the binary
//! ([`crate::puzzles::SETS`]). The page draws positions with `board.js` and asks
//! `/api/state` for the legal moves, as the main page does; the solver's rating lives in the
//! browser (docs/gui.md, Puzzles).

use crate::puzzles::format::PuzzleFile;
use crate::puzzles::themes::THEMES;
use axum::Router;
use axum::http::header;
use axum::routing::get;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The page's own files: path, content type, text.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/puzzles",
        "text/html; charset=utf-8",
        include_str!("assets/puzzles.html"),
    ),
    (
        "/puzzles.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/puzzles.js"),
    ),
    (
        "/glicko.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/glicko.js"),
    ),
    (
        "/puzzles.css",
        "text/css; charset=utf-8",
        include_str!("assets/puzzles.css"),
    ),
];

/// The routes of the puzzles page, for [`super::server::router`] to merge: the files and
/// the sets are public (nothing here starts anything).
pub fn routes() -> Router {
    let mut router = Router::new();
    for &(path, content_type, text) in ASSETS {
        router = router.route(
            path,
            get(move || async move { ([(header::CONTENT_TYPE, content_type)], text) }),
        );
    }
    router.route(
        "/puzzles/sets.json",
        get(|| async { axum::Json(sets().clone()) }),
    )
}

/// Every game's set, read once: `[{game, levels, themes, puzzles: [{id, position,
/// solution, rating, themes}]}]`.
fn sets() -> &'static Value {
    static SETS: OnceLock<Value> = OnceLock::new();
    SETS.get_or_init(|| {
        let sets: Vec<Value> = crate::puzzles::SETS
            .iter()
            .map(|(game, text)| set(game, text))
            .collect();
        Value::Array(sets)
    })
}

fn set(game: &str, text: &str) -> Value {
    let file = PuzzleFile::parse(text);
    let puzzles: Vec<Value> = file
        .puzzles
        .iter()
        .map(|(_, p)| {
            json!({
                "id": p.id,
                "position": p.position,
                "solution": p.solution,
                "rating": p.rating,
                "themes": p.themes,
            })
        })
        .collect();
    let themes: Vec<&str> = THEMES
        .iter()
        .filter(|(g, _)| *g == "all" || *g == game)
        .flat_map(|(_, themes)| themes.iter().copied())
        .collect();
    json!({ "game": game, "themes": themes, "puzzles": puzzles })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_set_is_served_whole() {
        let sets = sets().as_array().unwrap();
        assert_eq!(sets.len(), crate::puzzles::SETS.len());
        for (set, (game, text)) in sets.iter().zip(crate::puzzles::SETS) {
            assert_eq!(set["game"], *game);
            let file = PuzzleFile::parse(text);
            assert!(file.errors.is_empty(), "{game}: {:?}", file.errors);
            assert_eq!(
                set["puzzles"].as_array().map(Vec::len),
                Some(file.puzzles.len())
            );
            assert!(set["themes"].as_array().is_some_and(|t| t.len() > 5));
        }
    }
}
