//! Logs go to stderr (never stdout, which belongs to the protocol), filtered by `SHOVE_LOG`.

/// Installs the stderr subscriber; the level comes from `SHOVE_LOG` (default `warn`).
pub fn init() {
    let level = std::env::var("SHOVE_LOG")
        .ok()
        .and_then(|v| v.parse::<tracing::Level>().ok())
        .unwrap_or(tracing::Level::WARN);
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .try_init();
}
