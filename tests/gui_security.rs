//! `shove gui` refuses what does not come from its own page, and bounds what one client can
//! start (docs/gui.md, Security): requests from another Origin, to another Host, without
//! the token or with a wrong one, a ninth page, an oversized match log, an analysis left
//! alone, a restart or a slot beyond the `--engine` list, a WebSocket message over 1 MiB.
//! Each refusal is checked with its answer, with no engine process started (the server's
//! children are counted in /proc), and the honest page still served. No browser: requests
//! go over hyper-util and tokio-tungstenite (run with `--nocapture` to see every refusal
//! and its answer).

use crate::gui_server;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use futures_util::{SinkExt, StreamExt};
use gui_server::{Gui, fake_engine, next_event, open_session, ready_session, wait_event};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// One request: method, path with query, headers (a `Host` given here replaces the real
/// one), body. Returns the status and the body as text.
async fn request(
    gui: &Gui,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> (StatusCode, String) {
    let build = || {
        let mut builder = Request::builder()
            .method(method.clone())
            .uri(format!("http://127.0.0.1:{}{path}", gui.port));
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        builder.body(Body::from(body.clone())).expect("a request")
    };
    let client = Client::builder(TokioExecutor::new()).build_http::<Body>();
    let mut attempt = 1;
    let response = loop {
        match client.request(build()).await {
            Ok(response) => break response,
            // A server that refuses a body by its length answers and closes before the
            // body is all sent, and the client may fail on writing before it reads the
            // answer. Ask again: it is the answer that is checked.
            Err(error) if body.len() > 1 << 20 && attempt < 5 => {
                eprintln!("{method} {path}: {error}; asked again");
                attempt += 1;
            }
            Err(error) => panic!("the server answers: {error}"),
        }
    };
    let status = response.status();
    let bytes = axum::body::to_bytes(Body::new(response.into_body()), usize::MAX)
        .await
        .expect("the body");
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// The headers of a WebSocket upgrade, for requests that must be refused before it.
const UPGRADE: [(&str, &str); 4] = [
    ("connection", "upgrade"),
    ("upgrade", "websocket"),
    ("sec-websocket-version", "13"),
    ("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ=="),
];

/// What the page sends: its origin and the token.
fn honest(gui: &Gui) -> Vec<(String, String)> {
    vec![
        ("origin".into(), gui.origin()),
        (
            "authorization".into(),
            format!("Bearer {}", gui.token.as_deref().unwrap_or("")),
        ),
    ]
}

/// The honest page still works: its files, the API and a session with its engine.
async fn honest_page_works(gui: &Gui) {
    let (status, page) = request(gui, Method::GET, "/", &[], Vec::new()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("<script"), "{page}");
    let headers = honest(gui);
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let (status, games) = request(gui, Method::GET, "/api/games", &headers, Vec::new()).await;
    assert_eq!(status, StatusCode::OK, "{games}");
    assert!(games.contains("offboard"), "{games}");
    let line = json!({"game": "akiba", "moves": ["f1f2"]}).to_string();
    let (status, state) = request(gui, Method::POST, "/api/state", &headers, line.into()).await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert!(state.contains("\"to_move\":2"), "{state}");
    let before = gui.children();
    let socket = ready_session(gui).await;
    assert_eq!(gui.children(), before + 1);
    drop(socket);
    gui.wait_children(before).await;
}

/// Sends the request, checks it is refused with 403 and an error naming `why`, and prints
/// the answer.
async fn refused(gui: &Gui, what: &str, method: Method, path: &str, headers: &[(&str, &str)]) {
    let body = if method == Method::POST {
        json!({"game": "akiba"}).to_string().into_bytes()
    } else {
        Vec::new()
    };
    let (status, answer) = request(gui, method.clone(), path, headers, body).await;
    eprintln!("{what}: {method} {path} → {status} {answer}");
    assert_eq!(status, StatusCode::FORBIDDEN, "{what}: {answer}");
    let error: Value = serde_json::from_str(&answer).expect("a JSON answer");
    assert!(error["error"].as_str().is_some_and(|e| !e.is_empty()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_origins_hosts_and_tokens_are_refused_and_start_nothing() {
    let gui = Gui::start(&["--engine", &fake_engine("echo \"bestmove (none)\"")]);
    let token = gui.token.clone().expect("a token in the printed address");
    let own = gui.origin();
    let bearer = format!("Bearer {token}");
    let with_token = format!("/api/games?token={token}");
    let ws = format!("/ws?token={token}");
    let foreign_host = format!("attacker.example:{}", gui.port);
    let rebound = format!("http://attacker.example:{}", gui.port);
    let other_port = format!("http://127.0.0.1:{}", gui.port.wrapping_add(1));
    let evil = "http://evil.example";
    let auth = ("authorization", bearer.as_str());

    // Another site's script: the WebSocket upgrade and each POST.
    let mut upgrade = UPGRADE.to_vec();
    upgrade.push(("origin", evil));
    refused(&gui, "foreign Origin, upgrade", Method::GET, &ws, &upgrade).await;
    for path in [
        "/api/state",
        "/api/log",
        "/api/record/save",
        "/api/record/open",
    ] {
        refused(
            &gui,
            "foreign Origin, POST",
            Method::POST,
            path,
            &[("origin", evil), auth],
        )
        .await;
        refused(
            &gui,
            "Origin of another port, POST",
            Method::POST,
            path,
            &[("origin", &other_port), auth],
        )
        .await;
        refused(&gui, "no Origin, POST", Method::POST, path, &[auth]).await;
    }
    let mut upgrade = UPGRADE.to_vec();
    upgrade.push(("origin", &other_port));
    refused(
        &gui,
        "Origin of another port, upgrade",
        Method::GET,
        &ws,
        &upgrade,
    )
    .await;
    refused(&gui, "no Origin, upgrade", Method::GET, &ws, &UPGRADE).await;

    // A DNS-rebinding page: its own host name, so also its own origin.
    for path in ["/", "/app.js", with_token.as_str()] {
        refused(
            &gui,
            "foreign Host",
            Method::GET,
            path,
            &[("host", &foreign_host)],
        )
        .await;
    }
    refused(
        &gui,
        "foreign Host, POST",
        Method::POST,
        "/api/state",
        &[("host", &foreign_host), ("origin", &rebound), auth],
    )
    .await;
    let mut upgrade = UPGRADE.to_vec();
    upgrade.extend([
        ("host", foreign_host.as_str()),
        ("origin", rebound.as_str()),
    ]);
    refused(&gui, "foreign Host, upgrade", Method::GET, &ws, &upgrade).await;

    // The right origin without the token, or with a wrong one.
    // The token with its last digit changed.
    let last = if token.ends_with('0') { '1' } else { '0' };
    let wrong = format!("{}{last}", &token[..token.len() - 1]);
    assert_ne!(wrong, token);
    let wrong_bearer = format!("Bearer {wrong}");
    refused(&gui, "no token", Method::GET, "/api/games", &[]).await;
    refused(
        &gui,
        "wrong token",
        Method::GET,
        &format!("/api/games?token={wrong}"),
        &[],
    )
    .await;
    for path in [
        "/api/state",
        "/api/log",
        "/api/record/save",
        "/api/record/open",
    ] {
        refused(
            &gui,
            "no token, POST",
            Method::POST,
            path,
            &[("origin", &own)],
        )
        .await;
        refused(
            &gui,
            "wrong token, POST",
            Method::POST,
            path,
            &[("origin", &own), ("authorization", &wrong_bearer)],
        )
        .await;
    }
    let mut upgrade = UPGRADE.to_vec();
    upgrade.push(("origin", &own));
    refused(&gui, "no token, upgrade", Method::GET, "/ws", &upgrade).await;
    refused(
        &gui,
        "wrong token, upgrade",
        Method::GET,
        &format!("/ws?token={wrong}"),
        &upgrade,
    )
    .await;

    assert_eq!(gui.children(), 0, "an engine was started");
    honest_page_works(&gui).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ninth_page_is_refused_and_the_eight_go_on() {
    let gui = Gui::start(&["--engine", &fake_engine("echo \"bestmove (none)\"")]);
    let mut sessions = Vec::new();
    for _ in 0..8 {
        sessions.push(ready_session(&gui).await);
    }
    assert_eq!(gui.children(), 8);

    let mut ninth = open_session(&gui)
        .await
        .expect("the upgrade itself is answered");
    let answer = tokio::time::timeout(Duration::from_secs(10), ninth.next())
        .await
        .expect("an answer within 10 s");
    eprintln!("ninth page: 101 Switching Protocols, then {answer:?}");
    match answer {
        Some(Ok(Message::Close(Some(frame)))) => {
            assert_eq!(frame.code, CloseCode::Again);
            // The reason is a phrase for the page to translate, within a close frame's 123 bytes.
            assert!(frame.reason.len() <= 123, "{}", frame.reason);
            let phrase: Value = serde_json::from_str(&frame.reason).expect("a phrase as JSON");
            assert_eq!(
                phrase,
                json!({"text": "shove gui serves at most {n} pages at once: close one and reload this one",
                       "values": {"n": "8"}})
            );
        }
        other => panic!("not a refusal: {other:?}"),
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(gui.children(), 8, "the ninth page started an engine");

    // The eight still play.
    let go = json!({"type": "go", "slot": 0, "id": 5, "line": {"game": "akiba"}, "movetime": 50});
    sessions[7]
        .send(Message::text(go.to_string()))
        .await
        .expect("sent");
    let best = wait_event(&mut sessions[7], "bestmove").await;
    assert_eq!(best["id"], 5);

    // A page closed makes room for another.
    sessions
        .pop()
        .expect("a session")
        .close(None)
        .await
        .expect("closed");
    gui.wait_children(7).await;
    sessions.push(ready_session(&gui).await);
    assert_eq!(gui.children(), 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_log_is_refused_with_a_clear_error() {
    let gui = Gui::start(&["--engine", &fake_engine("echo \"bestmove (none)\"")]);
    let headers = honest(&gui);
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let big = "# a comment line of a log\n".repeat((17 << 20) / 26);
    for (path, what) in [
        ("/api/log", "the match log"),
        ("/api/state", "the game line"),
        ("/api/record/save", "the game line"),
        ("/api/record/open", "the game record"),
        ("/api/review", "the game line"),
    ] {
        let (status, answer) =
            request(&gui, Method::POST, path, &headers, big.clone().into_bytes()).await;
        eprintln!(
            "oversized body ({} bytes): POST {path} → {status} {answer}",
            big.len()
        );
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        let error: Value = serde_json::from_str(&answer).expect("JSON");
        assert_eq!(
            error["error"],
            format!("{what} is larger than 16 MiB, the most shove gui reads")
        );
    }
    assert_eq!(gui.children(), 0);

    // A real log is read.
    let dir = std::env::temp_dir().join(format!("shove-gui-security-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let log = gui_server::write_match_log(&dir);
    let text = std::fs::read(&log).expect("the log");
    let _ = std::fs::remove_dir_all(&dir);
    let (status, answer) = request(&gui, Method::POST, "/api/log", &headers, text).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let games: Value = serde_json::from_str(&answer).expect("JSON");
    assert_eq!(games.as_array().map(Vec::len), Some(2));
    honest_page_works(&gui).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_left_alone_is_stopped() {
    let gui = Gui::start(&["--engine", &fake_engine(":"), "--idle-limit", "1"]);
    let mut socket = ready_session(&gui).await;
    let go = json!({"type": "go", "slot": 0, "id": 9, "line": {"game": "offboard"}});
    let started = Instant::now();
    socket
        .send(Message::text(go.to_string()))
        .await
        .expect("sent");
    let mut sent = Vec::new();
    let idle = loop {
        let event = next_event(&mut socket).await;
        if event["type"] == "sent" {
            sent.push(event["line"].as_str().unwrap_or("").to_string());
        }
        if event["type"] == "idle" {
            break event;
        }
        assert_ne!(event["type"], "error", "{event}");
    };
    assert!(started.elapsed() >= Duration::from_secs(1));
    assert!(sent.iter().any(|l| l == "go infinite"), "{sent:?}");
    assert_eq!(idle["id"], 9);
    assert!(
        idle["message"]
            .as_str()
            .is_some_and(|m| m.contains("after 1 s")),
        "{idle}"
    );
    let stop = next_event(&mut socket).await;
    assert_eq!(stop["type"], "sent");
    assert_eq!(stop["line"], "stop");
    let best = wait_event(&mut socket, "bestmove").await;
    assert_eq!(best["id"], 9);
    assert_eq!(best["move"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_token_origin_and_host_are_still_checked() {
    let gui = Gui::start(&["--no-token", "--engine", &fake_engine(":")]);
    assert_eq!(gui.token, None);
    assert_eq!(gui.url, gui.bare_url());
    let (status, games) = request(&gui, Method::GET, "/api/games", &[], Vec::new()).await;
    assert_eq!(status, StatusCode::OK, "{games}");
    let own = gui.origin();
    let (status, _) = request(
        &gui,
        Method::POST,
        "/api/state",
        &[("origin", &own)],
        json!({"game": "abraxas"}).to_string().into(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    refused(
        &gui,
        "--no-token, foreign Origin",
        Method::POST,
        "/api/state",
        &[("origin", "http://evil.example")],
    )
    .await;
    let host = format!("attacker.example:{}", gui.port);
    refused(
        &gui,
        "--no-token, foreign Host",
        Method::GET,
        "/api/games",
        &[("host", &host)],
    )
    .await;
    assert_eq!(gui.children(), 0);
    honest_page_works(&gui).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_starts_one_process_per_engine_and_no_more() {
    let fake = fake_engine("echo \"bestmove (none)\"");
    let gui = Gui::start(&["--engine", &fake, "--engine", &fake]);
    let mut socket = open_session(&gui)
        .await
        .expect("the page's WebSocket opens");
    let engines = next_event(&mut socket).await;
    assert_eq!(engines["engines"].as_array().map(Vec::len), Some(2));
    wait_event(&mut socket, "ready").await;
    wait_event(&mut socket, "ready").await;
    assert_eq!(gui.children(), 2);

    // Restart replaces the slot's process; it never adds one.
    for _ in 0..5 {
        let restart = json!({"type": "restart", "slot": 1});
        socket
            .send(Message::text(restart.to_string()))
            .await
            .expect("sent");
        let ready = wait_event(&mut socket, "ready").await;
        assert_eq!(ready["slot"], 1);
        assert_eq!(gui.children(), 2);
    }

    // A slot outside the --engine list starts nothing.
    let go = json!({"type": "go", "slot": 2, "id": 1, "line": {"game": "akiba"}, "movetime": 10});
    socket
        .send(Message::text(go.to_string()))
        .await
        .expect("sent");
    let error = next_event(&mut socket).await;
    eprintln!("go to a third engine of two: {error}");
    assert_eq!(error["type"], "error");
    assert_eq!(error["message"], "there is no engine 3");
    assert_eq!(gui.children(), 2);

    // A level out of range is refused by name; nothing is sent to the engine.
    let go = json!({"type": "go", "slot": 0, "id": 2, "line": {"game": "akiba"}, "movetime": 10, "level": 21});
    socket
        .send(Message::text(go.to_string()))
        .await
        .expect("sent");
    let error = next_event(&mut socket).await;
    assert_eq!(error["type"], "error");
    assert_eq!(
        error["message"],
        "level 21 is out of range: levels are 0 to 20"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_message_ends_its_session_only() {
    let gui = Gui::start(&["--engine", &fake_engine(":")]);
    let mut honest = ready_session(&gui).await;
    let mut flooding = ready_session(&gui).await;
    assert_eq!(gui.children(), 2);
    let moves = vec!["f1f2"; (2 << 20) / 7];
    let go = json!({"type": "go", "slot": 0, "id": 1, "line": {"game": "akiba", "moves": moves}});
    let _ = flooding.send(Message::text(go.to_string())).await;
    let end = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            match flooding.next().await {
                Some(Ok(Message::Close(frame))) => break format!("Close({frame:?})"),
                Some(Ok(_)) => continue,
                Some(Err(e)) => break format!("error: {e}"),
                None => break "end of stream".to_string(),
            }
        }
    })
    .await
    .expect("the session ends within 20 s");
    eprintln!("a 2 MiB message: {end}");
    gui.wait_children(1).await;
    let go = json!({"type": "go", "slot": 0, "id": 2, "line": {"game": "akiba"}, "movetime": 10});
    honest
        .send(Message::text(go.to_string()))
        .await
        .expect("sent");
    let sent = wait_event(&mut honest, "sent").await;
    assert!(
        sent["line"]
            .as_str()
            .is_some_and(|l| l.starts_with("setoption")),
        "{sent}"
    );
}

/// The printed address sets the token as an `HttpOnly`, `SameSite=Strict` cookie named with
/// the port (a wrong token sets none); the cookie opens the API as the token does, a wrong
/// one or another server's does not, and the Origin check stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_printed_address_sets_a_cookie_that_stands_for_the_token() {
    let gui = Gui::start(&["--engine", &fake_engine("echo \"bestmove (none)\"")]);
    let token = gui.token.clone().expect("a token");
    let client = Client::builder(TokioExecutor::new()).build_http::<Body>();
    let page = |query: String| {
        Request::builder()
            .uri(format!("http://127.0.0.1:{}/?token={query}", gui.port))
            .body(Body::empty())
            .expect("a request")
    };
    let response = client.request(page(token.clone())).await.expect("the page");
    assert_eq!(response.status(), StatusCode::OK);
    let cookie = response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("a cookie")
        .to_string();
    assert_eq!(
        cookie,
        format!(
            "shove-token-{}={token}; HttpOnly; SameSite=Strict; Path=/",
            gui.port
        )
    );
    let response = client
        .request(page("wrong".into()))
        .await
        .expect("the page");
    assert!(response.headers().get("set-cookie").is_none());

    let pair = cookie.split(';').next().expect("name=value").to_string();
    let (status, body) = request(
        &gui,
        Method::GET,
        "/api/games",
        &[("cookie", &pair)],
        vec![],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let wrong = format!("shove-token-{}=abc", gui.port);
    let other_server = format!("shove-token-1={token}");
    for cookie in [wrong.as_str(), other_server.as_str()] {
        let (status, body) = request(
            &gui,
            Method::GET,
            "/api/games",
            &[("cookie", cookie)],
            vec![],
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{cookie}: {body}");
    }
    let state = br#"{"game":"akiba"}"#.to_vec();
    let json = ("content-type", "application/json");
    let (status, body) = request(
        &gui,
        Method::POST,
        "/api/state",
        &[("cookie", &pair), ("origin", "http://evil.example"), json],
        state.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let origin = gui.origin();
    let (status, body) = request(
        &gui,
        Method::POST,
        "/api/state",
        &[("cookie", &pair), ("origin", &origin), json],
        state,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(gui.children(), 0);
}
