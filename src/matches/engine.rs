//! One engine process of a match: started from a command line, spoken to over UGI (or UCI
//! when it does not know `ugi`), every read bounded by a deadline so that a hung engine
//! costs a game, never the match.

use super::tc::Dialect;
use crate::phrase::Phrase;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Splits a command line the way a POSIX shell splits words: blanks separate, `'…'` is
/// literal, `"…"` keeps blanks and honours `\"`, `\\`, `\$` and `` \` ``, and a backslash
/// outside quotes takes the next character literally. No expansion of any kind.
pub fn split_command(line: &str) -> Result<Vec<String>, Phrase> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => {
                            return Err(
                                Phrase::new("unterminated ' in '{line}'").with("line", line)
                            );
                        }
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => {
                                return Err(
                                    Phrase::new("unterminated \" in '{line}'").with("line", line)
                                );
                            }
                        },
                        Some(c) => word.push(c),
                        None => {
                            return Err(
                                Phrase::new("unterminated \" in '{line}'").with("line", line)
                            );
                        }
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => {
                        return Err(
                            Phrase::new("'{line}' ends with a lone backslash").with("line", line)
                        );
                    }
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(Phrase::new("empty engine command"));
    }
    Ok(words)
}

/// Why an engine could not give an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No answer before the deadline.
    Timeout,
    /// The process closed its output (exited or crashed); with its exit status if known.
    Crash(String),
    /// It answered something that breaks the protocol.
    Protocol(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Timeout => f.write_str("no answer in time"),
            Failure::Crash(status) => write!(f, "the engine process ended ({status})"),
            Failure::Protocol(why) => f.write_str(why),
        }
    }
}

/// A running engine process.
pub struct Engine {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines of its stdout with the moment they were read.
    lines: Receiver<(Instant, String)>,
    dialect: Dialect,
    /// What the engine calls itself (`id name`), if it says.
    id_name: Option<String>,
}

impl Engine {
    /// Starts `command`, shakes hands and sets `options` (name, value); the `Game` option is
    /// set to `game` if the engine offers one. Waits for each answer at most `timeout`.
    pub fn start(
        name: &str,
        command: &[String],
        game: &str,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<Engine, String> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| format!("{name}: empty command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{name}: cannot start '{program}': {e}"))?;
        let (sender, lines) = mpsc::channel();
        if let Some(stdout) = child.stdout.take() {
            thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if sender.send((Instant::now(), line)).is_err() {
                        break;
                    }
                }
            });
        }
        // Engine chatter on stderr would garble the progress bar: it becomes log lines.
        if let Some(stderr) = child.stderr.take() {
            let engine = name.to_string();
            thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    tracing::info!(engine, "stderr: {line}");
                }
            });
        }
        let stdin = child.stdin.take();
        let mut engine = Engine {
            name: name.to_string(),
            child,
            stdin,
            lines,
            dialect: Dialect::Ugi,
            id_name: None,
        };
        engine
            .handshake(game, options, timeout)
            .map_err(|e| format!("{name}: {e}"))?;
        Ok(engine)
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The engine's `id name` (its name and version, e.g. `shove 0.4.0`), if it sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        tracing::debug!(engine = self.name, line, "to engine");
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Failure::Crash("input closed".into()))?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| Failure::Crash(format!("cannot write to it: {e}")))
    }

    /// The next line before `deadline`, with the moment it was read.
    fn recv(&mut self, deadline: Instant) -> Result<(Instant, String), Failure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((at, line)) => {
                tracing::debug!(engine = self.name, line, "from engine");
                Ok((at, line))
            }
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                // The output is closed; give the process a moment to be reaped.
                let status = (0..20)
                    .find_map(|_| {
                        let status = self.child.try_wait().ok().flatten();
                        if status.is_none() {
                            thread::sleep(Duration::from_millis(5));
                        }
                        status
                    })
                    .map_or_else(|| "output closed".to_string(), |s| s.to_string());
                Err(Failure::Crash(status))
            }
        }
    }

    /// Reads until a line for which `done` holds; an `info string error:` line (how shove
    /// refuses a command) fails at once.
    fn recv_until(
        &mut self,
        deadline: Instant,
        done: impl Fn(&str) -> bool,
    ) -> Result<(Instant, String), Failure> {
        loop {
            let (at, line) = self.recv(deadline)?;
            if done(&line) {
                return Ok((at, line));
            }
            if let Some(message) = line.strip_prefix("info string error:") {
                return Err(Failure::Protocol(format!(
                    "the engine refused a command:{message}"
                )));
            }
        }
    }

    /// `ugi` + `isready`: a UGI engine answers `ugiok` first; one that only knows UCI answers
    /// `readyok` without it and is then greeted with `uci`.
    fn handshake(
        &mut self,
        game: &str,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<(), Failure> {
        let deadline = Instant::now() + timeout;
        self.send("ugi")?;
        self.send("isready")?;
        let mut offered = Vec::new();
        let mut id_name = None;
        let mut note_option = |line: &str| {
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                offered.push(name.to_ascii_lowercase());
            }
            if let Some(name) = line.strip_prefix("id name ") {
                id_name = Some(name.trim().to_string());
            }
        };
        let mut ugi = false;
        loop {
            let (_, line) = self.recv(deadline)?;
            note_option(&line);
            match line.trim() {
                "ugiok" => ugi = true,
                "readyok" => break,
                _ => {}
            }
        }
        if !ugi {
            self.dialect = Dialect::Uci;
            self.send("uci")?;
            loop {
                let (_, line) = self.recv(deadline)?;
                note_option(&line);
                if line.trim() == "uciok" {
                    break;
                }
            }
        }
        self.id_name = id_name;
        if offered.iter().any(|o| o == "game") {
            self.send(&format!("setoption name Game value {game}"))?;
        }
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.sync(deadline)
    }

    /// `isready` → `readyok`, failing on any refused command before it.
    fn sync(&mut self, deadline: Instant) -> Result<(), Failure> {
        self.send("isready")?;
        self.recv_until(deadline, |l| l.trim() == "readyok")
            .map(|_| ())
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Failure> {
        self.send(match self.dialect {
            Dialect::Ugi => "uginewgame",
            Dialect::Uci => "ucinewgame",
        })?;
        self.sync(Instant::now() + timeout)
    }

    /// Sends the position and `go`, and returns the move text of `bestmove` with the time
    /// from sending `go` to reading it. Fails after `limit`.
    pub fn best_move(
        &mut self,
        position: &str,
        go: &str,
        limit: Duration,
    ) -> Result<(String, Duration), Failure> {
        self.send(position)?;
        let start = Instant::now();
        self.send(go)?;
        let (at, line) = self.recv_until(start + limit, |l| {
            l.split_whitespace().next() == Some("bestmove")
        })?;
        let mv = line
            .split_whitespace()
            .nth(1)
            .ok_or_else(|| Failure::Protocol(format!("'{line}' names no move")))?;
        Ok((mv.to_string(), at.saturating_duration_since(start)))
    }
}

impl Drop for Engine {
    /// `quit`, a short grace period, then the process is killed (a hung engine never
    /// reads `quit`).
    fn drop(&mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(line: &str) -> Vec<String> {
        split_command(line).unwrap()
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            split("./shove --player random"),
            ["./shove", "--player", "random"]
        );
        assert_eq!(split("  a   b\tc  "), ["a", "b", "c"]);
        assert_eq!(split("'/my dir/shove' -x"), ["/my dir/shove", "-x"]);
        assert_eq!(split(r#""a \"b\" \n" c"#), [r#"a "b" \n"#, "c"]);
        assert_eq!(split(r"a\ b 'x'y''"), ["a b", "xy"]);
        assert_eq!(split("''"), [""]);
        for bad in ["", "   ", "'open", "\"open", "trailing\\"] {
            assert!(split_command(bad).is_err(), "accepted '{bad}'");
        }
    }
}
