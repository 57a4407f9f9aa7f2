//! The lessons page (`/learn`): its files, and the lessons' API as thin routes over the
//! plain functions of [`crate::lessons::api`] (`POST /api/learn/lessons`, `POST
//! /api/learn/check`), behind the token like the rest of the API. The page draws the
//! exercises' positions with `board.js` and asks `/api/state` for their legal moves.

use super::guard::{self, Access};
use crate::phrase::Phrase;
use axum::Router;
use axum::body::Bytes;
use axum::http::{StatusCode, header};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use std::sync::Arc;

/// The page's own files: path, content type, text.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/learn",
        "text/html; charset=utf-8",
        include_str!("assets/learn.html"),
    ),
    (
        "/learn.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/learn.js"),
    ),
    (
        "/learn.css",
        "text/css; charset=utf-8",
        include_str!("assets/learn.css"),
    ),
];

/// The routes of the lessons page, for [`super::server::router`] to merge.
pub fn routes(access: Arc<Access>) -> Router {
    let mut router = Router::new();
    for &(path, content_type, text) in ASSETS {
        router = router.route(
            path,
            get(move || async move { ([(header::CONTENT_TYPE, content_type)], text) }),
        );
    }
    let api = Router::new()
        .route(
            "/api/learn/lessons",
            post(|body: Bytes| async move { answer(crate::lessons::api::lessons(&body)) }),
        )
        .route(
            "/api/learn/check",
            post(|body: Bytes| async move { answer(crate::lessons::api::check(&body)) }),
        )
        .route_layer(from_fn_with_state(access, guard::token));
    router.merge(api)
}

/// The function's answer, or a 400 with `{error, phrase}` as the page reads it.
fn answer(result: Result<Value, Phrase>) -> Response {
    match result {
        Ok(value) => axum::Json(value).into_response(),
        Err(e) => {
            let body = json!({ "error": e.to_string(), "phrase": e.to_json() });
            (StatusCode::BAD_REQUEST, axum::Json(body)).into_response()
        }
    }
}
