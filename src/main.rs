//! The `shove` command line: thin clap wrappers around the library.
//! With no subcommand it speaks the engine protocol on stdin/stdout (see protocol.md).

use clap::{Parser, Subcommand};
use shove::akiba::{self, RepeatRule};
use shove::cli;
use shove::game::Game;
use shove::matches::{self, Adjudication, EngineConfig, MatchConfig, TimeControl, stats::Sprt};
use shove::players::BotKind;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

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
    /// In protocol mode, play a built-in reference player instead of searching: `random`,
    /// `greedy` (best one-move material gain) or `material-ab:<depth>` (fixed-depth
    /// alpha-beta on material only).
    #[arg(long, global = true, value_name = "NAME")]
    player: Option<BotKind>,
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
    /// Play two engines against each other and measure the first one's strength.
    Match(Box<MatchArgs>),
    /// Step through the games of a match log, printing the board after every move.
    Replay {
        /// A log written by `shove match --log`.
        file: PathBuf,
        /// Only the game with this number.
        #[arg(long, value_name = "K")]
        game: Option<usize>,
    },
}

#[derive(clap::Args)]
struct MatchArgs {
    /// The first engine's command line, quoted as one argument
    /// (e.g. "./target/release/shove --player greedy"); it is split as a shell would.
    engine1: String,
    /// The second engine's command line.
    engine2: String,
    /// Number of games, rounded up to whole pairs (each opening is played with both colours).
    /// With --sprt, the most that are played.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Time control of both engines: depth=N, nodes=N, movetime=MS or clock=S+INC (seconds).
    #[arg(long, default_value = "movetime=100", value_name = "TC")]
    tc: TimeControl,
    /// Time control of the first engine only (overrides --tc).
    #[arg(long, value_name = "TC")]
    tc1: Option<TimeControl>,
    /// Time control of the second engine only (overrides --tc).
    #[arg(long, value_name = "TC")]
    tc2: Option<TimeControl>,
    /// The game played.
    #[arg(long = "game", default_value = "akiba", value_name = "NAME")]
    game_name: String,
    /// Opening positions, one position string per line (default: the game's built-in
    /// balanced set).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Games played at the same time, each with its own engine processes.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// A game still going on after this many moves from its opening (every push and pass
    /// counted) is drawn (0: no limit).
    #[arg(long, default_value_t = 400, value_name = "N")]
    max_moves: usize,
    /// Do not draw a game at the third occurrence of a position.
    #[arg(long)]
    no_repetition_draw: bool,
    /// Write every finished game to this file (one line each; see `shove replay`).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Stop once the sequential probability ratio test decides between elo0 and elo1
    /// (normalized Elo; alpha and beta default to 0.05).
    #[arg(long, value_name = "elo0=E0,elo1=E1[,alpha=A,beta=B]")]
    sprt: Option<Sprt>,
    /// Engine option sent to both engines (repeatable), e.g. Hash=16; the game's rule
    /// options also apply to the referee.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = matches::parse_engine_option)]
    options: Vec<(String, String)>,
    /// Name of the first engine in results and logs (default: its command).
    #[arg(long)]
    name1: Option<String>,
    /// Name of the second engine.
    #[arg(long)]
    name2: Option<String>,
    /// Milliseconds a move may exceed its movetime or the clock before it loses on time.
    #[arg(long, default_value_t = 200, value_name = "MS")]
    margin: u64,
    /// Seconds to wait for an answer no time control bounds (start-up, depth and node
    /// limits) before the engine is taken as hung and loses the game.
    #[arg(long, default_value_t = 60, value_name = "SECONDS")]
    timeout: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
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
            shove::uci::run_stdio(
                &[("ExtraMove", extra_move), ("RepeatRule", &repeat_rule)],
                args.player,
            )
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
        Some(Command::Match(match_args)) => play_match(*match_args, rules),
        Some(Command::Replay { file, game }) => matches::log::replay_file(&file, game),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `shove match`: the Akiba rule flags become rule options of the match when they differ
/// from the defaults.
fn play_match(args: MatchArgs, rules: akiba::Rules) -> Result<(), String> {
    let mut options = Vec::new();
    if args.game_name.eq_ignore_ascii_case(akiba::Position::NAME) {
        if !rules.extra_move {
            options.push(("ExtraMove".to_string(), "false".to_string()));
        }
        if rules.repeat != RepeatRule::default() {
            options.push(("RepeatRule".to_string(), rules.repeat.to_string()));
        }
    }
    options.extend(args.options);
    let engines = EngineConfig::pair(
        [&args.engine1, &args.engine2],
        [args.name1, args.name2],
        [args.tc1.unwrap_or(args.tc), args.tc2.unwrap_or(args.tc)],
    )?;
    let config = MatchConfig {
        game: args.game_name,
        engines,
        openings: args.openings,
        games: args.games,
        concurrency: args.concurrency,
        adjudication: Adjudication {
            max_plies: args.max_moves,
            repetition_draw: !args.no_repetition_draw,
        },
        options,
        margin: Duration::from_millis(args.margin),
        timeout: Duration::from_secs(args.timeout),
        sprt: args.sprt,
        log: args.log,
        progress: !args.quiet,
    };
    let report = matches::run_match(&config)?;
    print!("{report}");
    Ok(())
}
