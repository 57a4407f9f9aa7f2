//! `shove gui`: a web GUI served on 127.0.0.1. The page (plain HTML, CSS and JavaScript
//! modules, embedded in the binary) draws the board; the server answers with the library's
//! rules and drives engines as child processes over the protocol, as any outside GUI
//! would. See docs/gui.md.

pub mod api;
#[cfg(feature = "native")]
mod engine;
#[cfg(feature = "native")]
mod guard;
#[cfg(feature = "native")]
mod learn;
pub mod local;
#[cfg(feature = "native")]
mod puzzles;
#[cfg(feature = "native")]
mod server;
#[cfg(feature = "native")]
mod session;
pub mod state;

#[cfg(feature = "native")]
use std::io::Write;
#[cfg(feature = "native")]
use std::time::Duration;

/// What `shove gui` was asked for.
#[cfg(feature = "native")]
pub struct GuiConfig {
    /// 0 picks a free port.
    pub port: u16,
    /// Engine command lines; empty: this executable in protocol mode.
    pub engines: Vec<String>,
    /// Open the page in the desktop's browser.
    pub open: bool,
    /// Serve the API without the secret token (for scripts; any local process can then
    /// use it).
    pub no_token: bool,
    /// How long an analysis (`go infinite`) runs without a new request from its page.
    pub idle_limit: Duration,
}

/// Serves until the process is ended. The first line on stdout is
/// `listening on http://127.0.0.1:<port>/?token=<token>` (without `?token=…` under
/// `--no-token`).
#[cfg(feature = "native")]
pub fn run(config: GuiConfig) -> Result<(), String> {
    let token = if config.no_token {
        None
    } else {
        Some(guard::new_token()?)
    };
    let mut engines = config.engines;
    if engines.is_empty() {
        let exe = std::env::current_exe()
            .map_err(|e| format!("cannot find this executable to run as the engine: {e}"))?;
        engines.push(quote(&exe.to_string_lossy()));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", config.port))
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", config.port))?;
        let address = listener
            .local_addr()
            .map_err(|e| format!("cannot read the listening address: {e}"))?;
        let url = match &token {
            Some(token) => format!("http://{address}/?token={token}"),
            None => format!("http://{address}/"),
        };
        let mut stdout = std::io::stdout();
        writeln!(stdout, "listening on {url}")
            .and_then(|()| stdout.flush())
            .map_err(|e| format!("cannot write to stdout: {e}"))?;
        if config.open {
            open_browser(&url);
        }
        let access = guard::Access::new(address.port(), token);
        axum::serve(listener, server::router(engines, access, config.idle_limit))
            .await
            .map_err(|e| format!("server stopped: {e}"))
    })
}

/// Single-quotes a path for [`crate::matches::split_command`].
#[cfg(feature = "native")]
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Best effort: the page works without it, so failing only prints a note.
#[cfg(feature = "native")]
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}
