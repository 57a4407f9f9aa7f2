//! An engine process held in a protocol session by a test: lines sent and received with a
//! timeout, a transcript of both for failure messages, and each line received checked by
//! the test's own rule of what the engine may print. Tests add their own steps to it.

// Each test crate includes this file and uses only what it needs of it.
#![allow(dead_code)]

use crate::binary;
use std::io::Write;
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Generous: only a hung engine takes this long to answer.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// What a test lets the engine print: `Err` says why a line is not allowed.
pub type LineCheck = fn(&str) -> Result<(), String>;

/// Every line is allowed.
pub fn any_line(_: &str) -> Result<(), String> {
    Ok(())
}

pub struct Engine {
    pub child: Child,
    /// `None` once the input is closed.
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    /// Everything sent and received, for failure messages.
    pub transcript: Vec<String>,
    check: LineCheck,
}

impl Engine {
    /// `shove` started with `args`, each line it prints held to `check`.
    pub fn launch(args: &[&str], check: LineCheck) -> Engine {
        let (child, stdin, lines) = binary::start_engine(args, Stdio::inherit());
        Engine {
            child,
            stdin: Some(stdin),
            lines,
            transcript: vec![format!("$ shove {}", args.join(" "))],
            check,
        }
    }

    pub fn fail(&self, message: &str) -> ! {
        panic!(
            "{message}\n--- transcript ---\n{}",
            self.transcript.join("\n")
        );
    }

    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("write to the engine");
        stdin.flush().expect("flush to the engine");
    }

    /// The next line, held to the line check; fails after [`TIMEOUT`].
    pub fn recv(&mut self) -> String {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                if let Err(why) = (self.check)(&line) {
                    self.fail(&format!("not a protocol line ({why}): '{line}'"));
                }
                line
            }
            Err(RecvTimeoutError::Timeout) => self.fail("the engine did not answer in time"),
            Err(RecvTimeoutError::Disconnected) => self.fail("the engine closed its output"),
        }
    }

    pub fn expect(&mut self, expected: &str) {
        let line = self.recv();
        if line != expected {
            self.fail(&format!("expected '{expected}', got '{line}'"));
        }
    }

    /// Lines up to and including the first one for which `last` holds.
    pub fn recv_until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.recv();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// `isready` must be answered by `readyok` next: proves nothing else was printed.
    pub fn sync(&mut self) {
        self.send("isready");
        self.expect("readyok");
    }

    /// Waits for the engine to exit, after `quit` or the end of its input.
    pub fn wait(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("poll the engine") {
                return status;
            }
            if Instant::now() > deadline {
                self.fail("the engine did not exit");
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn close_stdin(&mut self) {
        self.transcript.push("> <end of input>".into());
        self.stdin = None;
    }

    /// `quit`, then the engine must exit with status 0 without printing anything more.
    pub fn quit(mut self) {
        self.send("quit");
        let status = self.wait();
        assert!(status.success(), "exit status {status}");
        self.assert_no_more_output();
    }

    pub fn assert_no_more_output(&mut self) {
        if let Ok(line) = self.lines.recv_timeout(TIMEOUT) {
            self.fail(&format!("unexpected output at the end: '{line}'"));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
