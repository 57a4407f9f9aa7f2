//! Who may use the server. It listens on 127.0.0.1 only, but every page open in the user's
//! browser can reach 127.0.0.1, so (as Jupyter's server does) it also refuses:
//! - a `Host` other than the loopback names with its port (a DNS-rebinding page names its
//!   own host);
//! - a `POST` or WebSocket upgrade whose `Origin` is not the server's own page (another
//!   site's script; browsers always send `Origin` on these);
//! - an API call or WebSocket without the secret token printed at start (`?token=` in the
//!   address, `Authorization: Bearer`, or the cookie the printed address sets), unless
//!   `--no-token`.
//!
//! Opening the printed address sets the token as an `HttpOnly`, `SameSite=Strict` cookie
//! (named with the port, so two servers do not share one), so that a link copied from the
//! address bar opens in another tab of the same browser; another browser has no cookie
//! and still needs the printed address.
//!
//! Refusals are `403` with `{"error": …}`, which the page shows in `#error`.

use crate::phrase::Phrase;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rand::TryRng;
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

/// The host names of the loopback interface a browser may use for this server.
const LOOPBACK_NAMES: [&str; 3] = ["127.0.0.1", "localhost", "[::1]"];

/// What a request must show to be served.
pub struct Access {
    port: u16,
    /// `None` with `--no-token`.
    token: Option<String>,
}

impl Access {
    pub fn new(port: u16, token: Option<String>) -> Access {
        Access { port, token }
    }

    /// The cookie that carries the token for this server's pages.
    fn cookie_name(&self) -> String {
        format!("shove-token-{}", self.port)
    }

    fn is_own_host(&self, host: &str) -> bool {
        LOOPBACK_NAMES
            .iter()
            .any(|name| host.eq_ignore_ascii_case(&format!("{name}:{}", self.port)))
    }

    fn is_own_origin(&self, origin: &str) -> bool {
        LOOPBACK_NAMES
            .iter()
            .any(|name| origin.eq_ignore_ascii_case(&format!("http://{name}:{}", self.port)))
    }

    /// Compared in constant time, so the answer's timing does not tell how much of a
    /// guess was right.
    fn is_token(&self, given: Option<&str>) -> bool {
        match (&self.token, given) {
            (None, _) => true,
            (Some(token), Some(given)) => {
                constant_time_eq::constant_time_eq(token.as_bytes(), given.as_bytes())
            }
            (Some(_), None) => false,
        }
    }
}

/// 32 bytes from the operating system's generator, as 64 hexadecimal digits.
pub fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    rand::rngs::SysRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| format!("cannot draw a random token from the operating system: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn refuse(message: Phrase) -> Response {
    let body = json!({ "error": message.to_string(), "phrase": message.to_json() });
    (StatusCode::FORBIDDEN, axum::Json(body)).into_response()
}

fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Middleware on every request: the `Host` check, and the `Origin` check on whatever can
/// change something (every method but `GET`/`HEAD`, and WebSocket upgrades).
pub async fn same_site(
    State(access): State<Arc<Access>>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    let host = header_text(headers, header::HOST);
    if !host.is_some_and(|h| access.is_own_host(h)) {
        return refuse(
            Phrase::new(
                "Host {host} is not this server: shove gui answers only to 127.0.0.1:{port}, \
                 localhost:{port} or [::1]:{port}",
            )
            .with("host", host.unwrap_or("(none)"))
            .with("port", access.port),
        );
    }
    let changes = !matches!(*request.method(), Method::GET | Method::HEAD)
        || headers.contains_key(header::UPGRADE)
        || request.uri().path() == "/ws";
    if changes {
        let origin = header_text(headers, header::ORIGIN);
        if !origin.is_some_and(|o| access.is_own_origin(o)) {
            return refuse(
                Phrase::new(
                    "Origin {origin} is not this server's page: shove gui takes requests only \
                     from http://127.0.0.1:{port}/ (or localhost)",
                )
                .with("origin", origin.unwrap_or("(none)"))
                .with("port", access.port),
            );
        }
    }
    next.run(request).await
}

#[derive(Deserialize)]
struct TokenParameter {
    token: Option<String>,
}

/// Middleware on the API and the WebSocket (not on the page's own files, so the page can
/// load and ask for the token): the token, from `?token=` (the WebSocket cannot send
/// headers) or `Authorization: Bearer`.
pub async fn token(State(access): State<Arc<Access>>, request: Request, next: Next) -> Response {
    let from_query = Query::<TokenParameter>::try_from_uri(request.uri())
        .ok()
        .and_then(|Query(p)| p.token);
    let from_header = header_text(request.headers(), header::AUTHORIZATION)
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_string);
    let given = from_query
        .or(from_header)
        .or_else(|| cookie(request.headers(), &access.cookie_name()));
    if !access.is_token(given.as_deref()) {
        let refusal = if given.is_some() {
            Phrase::new(
                "wrong token: open the address shove gui printed at start \
                 (http://127.0.0.1:{port}/?token=…)",
            )
        } else {
            Phrase::new(
                "no token: open the address shove gui printed at start \
                 (http://127.0.0.1:{port}/?token=…)",
            )
        };
        return refuse(refusal.with("port", access.port));
    }
    next.run(request).await
}

/// The value of cookie `name` in the request's `Cookie` headers.
fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, value)| value.to_string())
}

/// Middleware on every request: the page opened with the right `?token=` gets the token
/// as a cookie (`HttpOnly`: no script reads it; `SameSite=Strict`: no other site's page
/// sends it), so that its links open in other tabs without the token.
pub async fn remember(State(access): State<Arc<Access>>, request: Request, next: Next) -> Response {
    let given = Query::<TokenParameter>::try_from_uri(request.uri())
        .ok()
        .and_then(|Query(p)| p.token);
    let page = request.uri().path() == "/";
    let mut response = next.run(request).await;
    if let (true, Some(token), Some(given)) = (page, &access.token, given)
        && access.is_token(Some(&given))
    {
        let cookie = format!(
            "{}={token}; HttpOnly; SameSite=Strict; Path=/",
            access.cookie_name()
        );
        if let Ok(value) = header::HeaderValue::from_str(&cookie) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_loopback_names_with_the_port_are_this_server() {
        let access = Access::new(7357, Some("abc".into()));
        for host in [
            "127.0.0.1:7357",
            "localhost:7357",
            "LOCALHOST:7357",
            "[::1]:7357",
        ] {
            assert!(access.is_own_host(host), "{host}");
        }
        for host in [
            "127.0.0.1:7358",
            "127.0.0.1",
            "evil.example:7357",
            "127.0.0.1.evil:7357",
        ] {
            assert!(!access.is_own_host(host), "{host}");
        }
        assert!(access.is_own_origin("http://127.0.0.1:7357"));
        assert!(access.is_own_origin("http://localhost:7357"));
        for origin in [
            "http://evil.example",
            "https://127.0.0.1:7357",
            "http://127.0.0.1:80",
            "null",
        ] {
            assert!(!access.is_own_origin(origin), "{origin}");
        }
    }

    #[test]
    fn the_token_must_match_exactly() {
        let access = Access::new(1, Some("abc".into()));
        assert!(access.is_token(Some("abc")));
        for wrong in [None, Some(""), Some("ab"), Some("abcd"), Some("abd")] {
            assert!(!access.is_token(wrong), "{wrong:?}");
        }
        assert!(Access::new(1, None).is_token(None));
    }

    #[test]
    fn tokens_are_fresh_random_hex() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
