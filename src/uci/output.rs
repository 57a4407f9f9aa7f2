//! The protocol's output channel: whole lines, each flushed at once, shared by the command
//! loop and the search thread.

use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

struct Inner {
    writer: Box<dyn Write + Send>,
    /// Set after the first failed write (the GUI went away): later lines are dropped.
    broken: bool,
}

/// A cloneable handle on the protocol output. A line is written and flushed under one lock,
/// so lines from the command loop (`readyok`, `response …`) and from the search thread
/// (`info …`, `bestmove …`) never interleave.
#[derive(Clone)]
pub(crate) struct Output {
    inner: Arc<Mutex<Inner>>,
}

impl Output {
    pub(crate) fn new(writer: impl Write + Send + 'static) -> Output {
        Output {
            inner: Arc::new(Mutex::new(Inner {
                writer: Box::new(writer),
                broken: false,
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes one protocol line (without its newline) and flushes it.
    pub(crate) fn line(&self, text: &str) {
        let mut inner = self.lock();
        if inner.broken {
            return;
        }
        let result = writeln!(inner.writer, "{text}").and_then(|()| inner.writer.flush());
        match result {
            Ok(()) => tracing::debug!(line = text, "sent"),
            Err(e) => {
                tracing::warn!(error = %e, "cannot write to the protocol output; giving up");
                inner.broken = true;
            }
        }
    }

    /// `info string error: <message>`: the one line every rejected command answers with.
    pub(crate) fn error(&self, message: &str) {
        tracing::info!(message, "rejected command");
        self.line(&format!("info string error: {message}"));
    }

    /// Whether writing has failed: the command loop then ends.
    pub(crate) fn is_broken(&self) -> bool {
        self.lock().broken
    }
}
