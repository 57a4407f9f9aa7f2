//! The `shove` command line: thin clap wrappers around the library.

use clap::{Parser, Subcommand};
use shove::akiba::{self, RepeatRule};
use shove::cli;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "shove", version, about = "An engine for marble-pushing board games")]
struct Args {
    /// Captures do not give an extra move (Akiba rule 4 off).
    #[arg(long, global = true)]
    no_extra_move: bool,
    /// How repeating a row is prevented: `pushback` (spec rule 5) or `ko`.
    #[arg(long, global = true, value_name = "RULE", default_value = "pushback")]
    repeat_rule: RepeatRule,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the move sequences of a given length (checks the move generator).
    Perft {
        /// Number of plies, 0..=20.
        depth: u32,
        /// Position string (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// One line per legal move with its own count.
        #[arg(long)]
        divide: bool,
    },
    /// Print a board diagram of a position.
    Show {
        /// Position string (default: the start position).
        #[arg(long)]
        fen: Option<String>,
    },
}

fn main() -> ExitCode {
    let args = Args::parse();
    let rules = akiba::Rules {
        extra_move: !args.no_extra_move,
        repeat: args.repeat_rule,
    };
    let result = match args.command {
        Command::Perft { depth, fen, divide } => cli::perft::<akiba::Position>(rules, fen.as_deref(), depth, divide),
        Command::Show { fen } => cli::show::<akiba::Position>(rules, fen.as_deref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
