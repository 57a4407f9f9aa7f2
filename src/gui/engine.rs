//! One engine child process driven over the protocol exactly as an outside GUI would:
//! `uci`, `isready`, `setoption`, `position`, `query`, `go`, `stop`. An actor task owns the
//! process; the page's session sends it [`Request`]s and gets every output line and the
//! outcome of each search back as JSON events. A `bestmove` is passed on only once the
//! library's rules accept it; a crash, a hang or an illegal move becomes an error event
//! and the game state is left to the page, untouched.

use super::state::{Line, check_move};
use crate::matches::split_command;
use crate::phrase::Phrase;
use crate::search::Skill;
use serde_json::{Value, json};
use std::process::Stdio;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout_at};

/// How long start-up, `isready` and `query` may take.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long past its movetime (or past `stop`) a search may take to print `bestmove`.
const BESTMOVE_GRACE: Duration = Duration::from_secs(5);

/// What the page asks of an engine.
pub enum Request {
    /// Search the end of `line`: for `movetime` ms, or until [`Request::Stop`] when `None`.
    Go {
        id: u64,
        line: Line,
        movetime: Option<u64>,
        multipv: usize,
        /// `Skill Level` to play at; `None`: full strength (hints and analysis).
        level: Option<u32>,
    },
    Stop,
    /// Kill the process (if any) and start the command again.
    Restart,
}

/// A running search.
struct Search {
    id: u64,
    line: Line,
    /// When `bestmove` must have come (none while an infinite search runs).
    deadline: Option<Instant>,
    /// When an infinite search is stopped if the page has asked nothing new meanwhile (a
    /// page left open, or a client that only starts searches).
    idle_stop: Option<Instant>,
}

/// Why talking to the engine failed.
enum Failure {
    /// The process ended (or closed its output).
    Died(Phrase),
    /// No answer in time; the process is killed.
    Hung(Phrase),
}

struct Process {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
}

/// The actor: one slot of the page's engines.
pub struct Engine {
    slot: usize,
    command: String,
    events: mpsc::UnboundedSender<Value>,
    process: Option<Process>,
    /// The game the engine has been set to (`setoption name Game`).
    game: Option<String>,
    /// The `Skill Level` last sent since the game was set (`None`: the engine's default,
    /// full strength), so that an engine without the option is sent it only when a level
    /// is asked for.
    level: Option<u32>,
    search: Option<Search>,
    idle_limit: Duration,
}

/// Milliseconds since the epoch, so the page can tell how long a line took to show.
fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

impl Engine {
    /// Starts the actor task for `command`; its events go to `events`.
    pub fn spawn(
        slot: usize,
        command: String,
        events: mpsc::UnboundedSender<Value>,
        idle_limit: Duration,
    ) -> mpsc::UnboundedSender<Request> {
        let (tx, rx) = mpsc::unbounded_channel();
        let engine = Engine {
            slot,
            command,
            events,
            process: None,
            game: None,
            level: None,
            search: None,
            idle_limit,
        };
        tokio::spawn(engine.run(rx));
        tx
    }

    fn emit(&self, mut event: Value) {
        event["slot"] = json!(self.slot);
        // The page may be gone; then nobody needs the event.
        let _ = self.events.send(event);
    }

    fn error(&self, id: Option<u64>, message: Phrase) {
        let message = Phrase::new("engine {n} ({command}): {reason}")
            .with("n", self.slot + 1)
            .with("command", &self.command)
            .with_phrase("reason", message);
        self.emit(json!({
            "type": "error",
            "id": id,
            "message": message.to_string(),
            "phrase": message.to_json(),
            "dead": self.process.is_none(),
        }));
    }

    async fn run(mut self, mut requests: mpsc::UnboundedReceiver<Request>) {
        self.restart().await;
        loop {
            let deadline = self
                .search
                .as_ref()
                .and_then(|s| s.deadline.or(s.idle_stop));
            let next_line = async {
                match self.process.as_mut() {
                    Some(p) => p.stdout.next_line().await,
                    None => std::future::pending().await,
                }
            };
            let timer = async {
                match deadline {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                request = requests.recv() => match request {
                    Some(request) => self.handle(request).await,
                    // The page closed: the process is killed on drop.
                    None => break,
                },
                line = next_line => match line {
                    Ok(Some(line)) => self.on_line(&line),
                    Ok(None) | Err(_) => self.died(Phrase::new("stopped running")).await,
                },
                () = timer => match self.search.as_ref().map(|s| s.deadline) {
                    Some(None) => self.idle_stop().await,
                    _ => self.hung(Phrase::new("sent no bestmove in time")),
                },
            }
        }
        if let Some(mut p) = self.process.take() {
            let _ = p.stdin.write_all(b"quit\n").await;
        }
    }

    /// Stops an infinite search that ran [`Engine::idle_limit`] without a new request.
    async fn idle_stop(&mut self) {
        let Some(search) = &mut self.search else {
            return;
        };
        search.deadline = Some(Instant::now() + BESTMOVE_GRACE);
        let id = search.id;
        let message = Phrase::new(
            "analysis stopped after {seconds} s without a new request from the page \
             (start it again to go on)",
        )
        .with("seconds", self.idle_limit.as_secs());
        self.emit(json!({
            "type": "idle",
            "id": id,
            "message": message.to_string(),
            "phrase": message.to_json(),
        }));
        if let Err(f) = self.send("stop").await {
            self.fail(Some(id), f).await;
        }
    }

    async fn handle(&mut self, request: Request) {
        match request {
            Request::Go {
                id,
                line,
                movetime,
                multipv,
                level,
            } => {
                if let Err(failure) = self.go(id, line, movetime, multipv, level).await {
                    self.fail(Some(id), failure).await;
                }
            }
            Request::Stop => {
                if let Some(search) = &mut self.search {
                    search.deadline = Some(Instant::now() + BESTMOVE_GRACE);
                    if let Err(f) = self.send("stop").await {
                        self.fail(None, f).await;
                    }
                }
            }
            Request::Restart => self.restart().await,
        }
    }

    /// An output line outside the sequences below: passed on, and `bestmove` checked.
    fn on_line(&mut self, line: &str) {
        self.emit(json!({"type": "line", "line": line, "t": now_ms()}));
        let mut words = line.split_whitespace();
        if words.next() != Some("bestmove") {
            return;
        }
        let Some(search) = self.search.take() else {
            return;
        };
        let mv = words.next().unwrap_or("");
        if mv == "(none)" {
            self.emit(json!({"type": "bestmove", "id": search.id, "move": null}));
            return;
        }
        match check_move(&search.line, mv) {
            Ok(()) => self.emit(json!({"type": "bestmove", "id": search.id, "move": mv})),
            Err(e) => self.error(
                Some(search.id),
                Phrase::new("sent an illegal move: {reason}").with_phrase("reason", e),
            ),
        }
    }

    /// Sets the engine up for `line` and starts the search; a search still running is
    /// stopped first and its `bestmove` dropped.
    async fn go(
        &mut self,
        id: u64,
        line: Line,
        movetime: Option<u64>,
        multipv: usize,
        level: Option<u32>,
    ) -> Result<(), Failure> {
        if self.process.is_none() {
            self.error(Some(id), Phrase::new("not running (restart it)"));
            return Ok(());
        }
        if self.search.take().is_some() {
            self.send("stop").await?;
            self.expect("bestmove", BESTMOVE_GRACE).await?;
        }
        let game = line.game.to_ascii_lowercase();
        if self.game.as_deref() != Some(&game) {
            self.send(&format!("setoption name Game value {game}"))
                .await?;
            self.game = Some(game);
            self.level = None;
        }
        let full = Skill::MAX_LEVEL;
        if self.level.unwrap_or(full) != level.unwrap_or(full) {
            let level = level.unwrap_or(full);
            self.send(&format!("setoption name Skill Level value {level}"))
                .await?;
            self.level = Some(level);
        }
        for (name, value) in &line.rules {
            self.send(&format!("setoption name {name} value {value}"))
                .await?;
        }
        self.send(&format!("setoption name MultiPV value {multipv}"))
            .await?;
        let start = match line.start.as_deref().map(str::trim) {
            None | Some("") | Some("startpos") => "startpos".to_string(),
            Some(fen) => format!("fen {fen}"),
        };
        let mut command = format!("position {start}");
        if !line.moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&line.moves.join(" "));
        }
        self.send(&command).await?;
        self.send("query gameover").await?;
        let answer = self.expect("response", ANSWER_TIMEOUT).await?;
        if answer.split_whitespace().nth(1) == Some("true") {
            self.emit(json!({"type": "bestmove", "id": id, "move": null}));
            return Ok(());
        }
        self.send("isready").await?;
        self.expect("readyok", ANSWER_TIMEOUT).await?;
        self.send(&match movetime {
            Some(ms) => format!("go movetime {ms}"),
            None => "go infinite".to_string(),
        })
        .await?;
        self.search = Some(Search {
            id,
            line,
            deadline: movetime
                .map(|ms| Instant::now() + Duration::from_millis(ms) + BESTMOVE_GRACE),
            idle_stop: movetime.is_none().then(|| Instant::now() + self.idle_limit),
        });
        Ok(())
    }

    async fn send(&mut self, command: &str) -> Result<(), Failure> {
        let Some(p) = self.process.as_mut() else {
            return Err(Failure::Died(Phrase::new("not running")));
        };
        let mut bytes = command.as_bytes().to_vec();
        bytes.push(b'\n');
        match p.stdin.write_all(&bytes).await {
            Ok(()) => {
                let _ = p.stdin.flush().await;
                self.emit(json!({"type": "sent", "line": command}));
                Ok(())
            }
            Err(e) => Err(Failure::Died(
                Phrase::new("cannot be written to: {reason}").with("reason", e),
            )),
        }
    }

    /// Reads lines, passing each on, until one starts with `word`; an `info string
    /// error:` line on the way is reported too (a rule option the engine refused).
    async fn expect(&mut self, word: &str, within: Duration) -> Result<String, Failure> {
        let deadline = Instant::now() + within;
        loop {
            let Some(p) = self.process.as_mut() else {
                return Err(Failure::Died(Phrase::new("not running")));
            };
            match timeout_at(deadline, p.stdout.next_line()).await {
                Err(_) => {
                    let late = Phrase::new("no '{word}' within {seconds} s")
                        .with("word", word)
                        .with("seconds", within.as_secs());
                    return Err(Failure::Hung(late));
                }
                Ok(Ok(Some(line))) => {
                    self.emit(json!({"type": "line", "line": line, "t": now_ms()}));
                    if line.split_whitespace().next() == Some(word) {
                        return Ok(line);
                    }
                    if let Some(message) = line.strip_prefix("info string error:") {
                        self.error(None, Phrase::plain(message.trim()));
                    }
                }
                Ok(Ok(None)) | Ok(Err(_)) => {
                    return Err(Failure::Died(
                        Phrase::new("stopped running (waiting for '{word}')").with("word", word),
                    ));
                }
            }
        }
    }

    async fn fail(&mut self, id: Option<u64>, failure: Failure) {
        let id = id.or(self.search.as_ref().map(|s| s.id));
        self.search = None;
        match failure {
            Failure::Died(why) => {
                self.kill().await;
                self.error(id, why);
            }
            Failure::Hung(why) => {
                self.kill().await;
                self.error(
                    id,
                    Phrase::new("hung: {why}; killed").with_phrase("why", why),
                );
            }
        }
    }

    async fn died(&mut self, why: Phrase) {
        let id = self.search.as_ref().map(|s| s.id);
        let status = match self.process.as_mut() {
            Some(p) => match tokio::time::timeout(Duration::from_secs(1), p.child.wait()).await {
                Ok(Ok(status)) => Phrase::new("{why} ({status})")
                    .with_phrase("why", why)
                    .with("status", status),
                _ => why,
            },
            None => why,
        };
        self.fail(id, Failure::Died(status)).await;
    }

    fn hung(&mut self, why: Phrase) {
        let id = self.search.take().map(|s| s.id);
        if let Some(p) = self.process.as_mut() {
            let _ = p.child.start_kill();
        }
        self.process = None;
        self.error(
            id,
            Phrase::new("hung: {why}; killed").with_phrase("why", why),
        );
    }

    async fn kill(&mut self) {
        if let Some(mut p) = self.process.take() {
            let _ = p.child.kill().await;
        }
        self.game = None;
        self.level = None;
    }

    /// (Re)starts the process and waits for `uciok` and `readyok`.
    async fn restart(&mut self) {
        self.kill().await;
        self.search = None;
        match self.start().await {
            Ok(name) => self.emit(json!({"type": "ready", "name": name})),
            Err(failure) => self.fail(None, failure).await,
        }
    }

    async fn start(&mut self) -> Result<String, Failure> {
        let words = split_command(&self.command).map_err(Failure::Died)?;
        let Some((program, args)) = words.split_first() else {
            return Err(Failure::Died(Phrase::new("empty command")));
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| {
                Failure::Died(Phrase::new("cannot be started: {reason}").with("reason", e))
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(Failure::Died(Phrase::new("has no pipes")));
        };
        self.process = Some(Process {
            child,
            stdin,
            stdout: BufReader::new(stdout).lines(),
        });
        self.send("uci").await?;
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        let mut name = self.command.clone();
        loop {
            let line = self.expect_any(deadline).await?;
            if let Some(n) = line.strip_prefix("id name ") {
                name = n.trim().to_string();
            }
            if line.trim() == "uciok" {
                break;
            }
        }
        self.send("isready").await?;
        self.expect("readyok", ANSWER_TIMEOUT).await?;
        Ok(name)
    }

    async fn expect_any(&mut self, deadline: Instant) -> Result<String, Failure> {
        let Some(p) = self.process.as_mut() else {
            return Err(Failure::Died(Phrase::new("not running")));
        };
        match timeout_at(deadline, p.stdout.next_line()).await {
            Err(_) => Err(Failure::Hung(Phrase::new("no 'uciok' in time"))),
            Ok(Ok(Some(line))) => {
                self.emit(json!({"type": "line", "line": line, "t": now_ms()}));
                Ok(line)
            }
            Ok(Ok(None)) | Ok(Err(_)) => {
                Err(Failure::Died(Phrase::new("stopped running at start-up")))
            }
        }
    }
}
