//! The engine protocol on stdin/stdout (protocol.md). Being written.

/// Runs the protocol on the process's stdin and stdout until `quit` or end of input.
pub fn run_stdio() -> Result<(), String> {
    Err("the protocol is not implemented yet".into())
}
