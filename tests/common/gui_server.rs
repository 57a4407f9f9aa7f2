//! `shove gui` as a child process, for the browser tests (tests/gui.rs) and the server's
//! security tests (tests/gui_security.rs): started on a free port, its address and token
//! read from the first line it prints, killed when the test ends however it ends.

use axum::http::header;
use futures_util::StreamExt;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

pub struct Gui {
    child: Child,
    /// The address printed, with `?token=…` unless `--no-token`.
    pub url: String,
    pub port: u16,
    pub token: Option<String>,
}

impl Gui {
    /// `shove gui --port 0` with `args` (`--engine …`, `--no-token`, …).
    pub fn start(args: &[&str]) -> Gui {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shove"))
            .args(["gui", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("shove gui starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut first = String::new();
        let read = BufReader::new(stdout).read_line(&mut first);
        if read.is_err() || first.is_empty() {
            let _ = child.kill();
            panic!("shove gui printed no line: {read:?}");
        }
        let url = first
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("first line: {first:?}"))
            .to_string();
        let rest = url
            .strip_prefix("http://127.0.0.1:")
            .unwrap_or_else(|| panic!("{url}"));
        let (port, path) = rest.split_at(rest.find('/').unwrap_or_else(|| panic!("{url}")));
        let port = port.parse().unwrap_or_else(|e| panic!("{url}: {e}"));
        let token = match path.strip_prefix("/?token=") {
            Some(token) => Some(token.to_string()),
            None => {
                assert_eq!(path, "/", "{url}");
                None
            }
        };
        Gui {
            child,
            url,
            port,
            token,
        }
    }

    /// The server's own origin, as its page sends it.
    pub fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The page's address without the token.
    pub fn bare_url(&self) -> String {
        format!("{}/", self.origin())
    }

    /// The processes the server has started and that are still running (not zombies): its
    /// engines.
    pub fn children(&self) -> usize {
        let pid = self.child.id().to_string();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            panic!("counting the engine processes needs /proc");
        };
        entries
            .filter_map(Result::ok)
            .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
            .filter(|stat| {
                // pid (comm) state ppid …: comm may hold spaces, so read after its ')'.
                let fields: Vec<&str> = stat
                    .rsplit_once(')')
                    .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
                fields.len() > 1 && fields[0] != "Z" && fields[1] == pid
            })
            .count()
    }
}

impl Gui {
    /// Waits (up to 20 s) until the server has `n` engine processes running.
    pub async fn wait_children(&self, n: usize) {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while self.children() != n {
            assert!(
                std::time::Instant::now() < deadline,
                "{} engine processes, not {n}",
                self.children()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A protocol engine in sh that answers the handshake, does `on_go` for `go`, answers
/// `stop` with `bestmove (none)` and ends on `quit`.
pub fn fake_engine(on_go: &str) -> String {
    format!(
        "sh -c 'while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; \
         \"query gameover\") echo response false;; go*) {on_go};; \
         stop) echo \"bestmove (none)\";; quit) exit 0;; esac; done'"
    )
}

/// The page's WebSocket, as the page opens it (its Origin, `?token=`).
pub async fn open_session(gui: &Gui) -> Result<Socket, tungstenite::Error> {
    let mut request = format!(
        "ws://127.0.0.1:{}/ws?token={}",
        gui.port,
        gui.token.as_deref().unwrap_or("")
    )
    .into_client_request()?;
    request.headers_mut().insert(
        header::ORIGIN,
        gui.origin().parse().expect("an origin header"),
    );
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(socket, _)| socket)
}

/// The next message of `socket` as JSON, within 20 s.
pub async fn next_event(socket: &mut Socket) -> Value {
    let message = tokio::time::timeout(Duration::from_secs(20), socket.next())
        .await
        .expect("an event within 20 s")
        .expect("the socket is open")
        .expect("a message");
    match message {
        Message::Text(text) => serde_json::from_str(&text).expect("JSON"),
        other => panic!("not an event: {other:?}"),
    }
}

/// Reads events until one of type `kind`; returns it.
pub async fn wait_event(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let event = next_event(socket).await;
        if event["type"] == kind {
            return event;
        }
        assert_ne!(event["type"], "error", "{event}");
    }
}

/// A session that works: the engine list, then its engine ready.
pub async fn ready_session(gui: &Gui) -> Socket {
    let mut socket = open_session(gui).await.expect("the page's WebSocket opens");
    assert_eq!(next_event(&mut socket).await["type"], "engines");
    wait_event(&mut socket, "ready").await;
    socket
}

/// Writes `games.log` in `dir`: a short `shove match --log` of two games between two quick
/// players.
pub fn write_match_log(dir: &Path) -> PathBuf {
    let log = dir.join("games.log");
    let exe = env!("CARGO_BIN_EXE_shove");
    let status = Command::new(exe)
        .args(["match", &format!("'{exe}' --player random")])
        .arg(format!("'{exe}' --player greedy"))
        .args([
            "--games",
            "2",
            "--tc",
            "depth=1",
            "--max-moves",
            "20",
            "--quiet",
            "--log",
        ])
        .arg(&log)
        .stdout(Stdio::null())
        .status()
        .expect("shove match runs");
    assert!(status.success());
    log
}
