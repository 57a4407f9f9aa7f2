//! The `shove` binary as the end-to-end tests run it: one-shot commands with their output,
//! engine processes that hold a protocol session, and a scratch directory per test.

// Each test crate includes this file and uses only what it needs of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;

pub const SHOVE: &str = env!("CARGO_BIN_EXE_shove");

/// A fresh, empty directory for one test's files, named after the test crate and `test`.
pub fn scratch(test: &str) -> PathBuf {
    let name = format!("{}-{test}", env!("CARGO_CRATE_NAME"));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// Runs `shove` with `args` to its end (with no `SHOVE_LOG` log).
pub fn shove(args: &[&str]) -> Output {
    Command::new(SHOVE)
        .args(args)
        .env_remove("SHOVE_LOG")
        .output()
        .expect("run shove")
}

/// Starts `shove` with `args` for a protocol session: stdin and stdout piped, stderr as
/// given, and a thread that sends each line of stdout to the receiver, so that a read can
/// time out and a hung engine fails the test instead of hanging it.
pub fn start_engine(args: &[&str], stderr: Stdio) -> (Child, ChildStdin, Receiver<String>) {
    let mut child = Command::new(SHOVE)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .env_remove("SHOVE_LOG")
        .spawn()
        .expect("start the engine");
    let stdout = child.stdout.take().expect("stdout is piped");
    let (sender, lines) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let stdin = child.stdin.take().expect("stdin is piped");
    (child, stdin, lines)
}
