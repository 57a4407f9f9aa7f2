//! The `shove` command line: thin clap wrappers around the library.
//! With no subcommand it speaks the engine protocol on stdin/stdout (see protocol.md).

use clap::{Parser, Subcommand};
use shove::akiba::{self, RepeatRule};
use shove::cli;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "shove",
    version,
    about = "An engine for marble-pushing board games"
)]
struct Args {
    /// Captures do not give an extra move (Akiba rule 4 off).
    #[arg(long, global = true)]
    no_extra_move: bool,
    /// How repeating a row is prevented: `pushback` (spec rule 5) or `ko`.
    #[arg(long, global = true, value_name = "RULE", default_value = "pushback")]
    repeat_rule: RepeatRule,
    #[command(subcommand)]
    command: Option<Command>,
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
    /// Search a position and print each iteration and the best line.
    Analyze {
        /// Position string (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the position, space-separated (e.g. "a7b7 g1f1").
        #[arg(long)]
        moves: Option<String>,
        /// Search to this depth (default 10 when no limit is given).
        #[arg(long, conflicts_with = "movetime")]
        depth: Option<u32>,
        /// Search for this many milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Search a fixed set of positions to a fixed depth; prints `<N> nodes <M> nps`.
    Bench {
        /// Search depth (the node count is deterministic for a given depth).
        #[arg(long, default_value_t = cli::BENCH_DEPTH)]
        depth: u32,
    },
}

fn main() -> ExitCode {
    let args = Args::parse();
    shove::logging::init();
    let rules = akiba::Rules {
        extra_move: !args.no_extra_move,
        repeat: args.repeat_rule,
    };
    let result = match args.command {
        None => {
            let extra_move = if args.no_extra_move { "false" } else { "true" };
            let repeat_rule = args.repeat_rule.to_string();
            shove::uci::run_stdio(&[("ExtraMove", extra_move), ("RepeatRule", &repeat_rule)])
        }
        Some(Command::Perft { depth, fen, divide }) => {
            cli::perft::<akiba::Position>(rules, fen.as_deref(), depth, divide)
        }
        Some(Command::Show { fen }) => cli::show::<akiba::Position>(rules, fen.as_deref()),
        Some(Command::Analyze {
            fen,
            moves,
            depth,
            movetime,
            hash,
        }) => cli::analyze::<akiba::Position>(
            rules,
            fen.as_deref(),
            moves.as_deref(),
            depth,
            movetime,
            hash,
        ),
        Some(Command::Bench { depth }) => cli::bench(depth),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
