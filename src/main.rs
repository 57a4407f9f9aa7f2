//! The `shove` command line: its arguments are `shove::cli::args`, and
//! `shove::cli::dispatch` runs them. With no subcommand it speaks the engine protocol on
//! stdin/stdout (see protocol.md).

use clap::Parser;
use shove::cli::{args::Args, dispatch};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = Args::parse();
    shove::logging::init();
    match dispatch::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        // Errors go to stderr, with a failing exit status.
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
