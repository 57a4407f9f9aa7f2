//! The puzzles page (`/puzzles`): its files, and the shipped sets as JSON
//! (`/puzzles/sets.json`, [`super::api::puzzle_sets`]). The page draws positions with `board.js` and asks
//! `/api/state` for the legal moves, as the main page does; the solver's rating lives in the
//! browser (docs/gui.md, Puzzles).

use axum::Router;
use axum::http::header;
use axum::routing::get;

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
        get(|| async { axum::Json(super::api::puzzle_sets().clone()) }),
    )
}
