//! The `shove` command line: thin clap wrappers around the library.
//! With no subcommand it speaks the engine protocol on stdin/stdout (see protocol.md).

use clap::{Parser, Subcommand};
use shove::akiba::{self, RepeatRule};
use shove::cli;
use shove::game::{Game, GameVisitor, with_game};
use shove::matches::{self, Adjudication, EngineConfig, MatchConfig, TimeControl, stats::Sprt};
use shove::offboard;
use shove::pipeline::merge;
use shove::pipeline::openings::OpeningConfig;
use shove::pipeline::selfplay::{self, Budget, SelfplayConfig};
use shove::pipeline::shard::Shard;
use shove::pipeline::tune::{TuneConfig, TuneRun};
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
    #[command(flatten)]
    game: GameArg,
    /// Akiba: captures do not give an extra move (rule 4 off).
    #[arg(long, global = true)]
    no_extra_move: bool,
    /// Akiba: how repeating a row is prevented: `pushback` (spec rule 5, the default) or
    /// `ko`.
    #[arg(long, global = true, value_name = "RULE")]
    repeat_rule: Option<RepeatRule>,
    /// Offboard: the values 1..3 of scoring sectors 1..12, comma-separated (default
    /// 1,2,3,3,2,1,1,2,3,3,2,1). These default values and the start cells are
    /// reconstructions (shared/spec/offboard.md): change the values here, the start with
    /// --fen.
    #[arg(long, global = true, value_name = "V1,..,V12")]
    offboard_sectors: Option<String>,
    /// Abraxas: the sheet, `s1`..`s6` (the engine's own sheets, not the printed ones) or a
    /// 9-row sheet map (`*` a dot, digits runs of plain cells, rows y = 8 down to 0).
    #[arg(long, global = true, value_name = "SHEET")]
    abraxas_sheet: Option<String>,
    /// Abraxas: stones owned to win, 11 (default) or 13.
    #[arg(long, global = true, value_name = "N")]
    abraxas_target: Option<String>,
    /// Abraxas: blue stop stones per player, 3 (default) or 2.
    #[arg(long, global = true, value_name = "N")]
    abraxas_blue: Option<String>,
    /// In protocol mode, play a built-in reference player instead of searching: `random`,
    /// `greedy` (best one-move material gain) or `material-ab:<depth>` (fixed-depth
    /// alpha-beta on material only).
    #[arg(long, global = true, value_name = "NAME")]
    player: Option<BotKind>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// `--game`, taken before the subcommand or by every subcommand that plays a game (not a
/// global flag: `replay` has a `--game K` of its own).
#[derive(clap::Args)]
struct GameArg {
    /// The game: `akiba` (default), `offboard` or `abraxas`.
    #[arg(long = "game", value_name = "NAME")]
    name: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the move sequences of a given length (checks the move generator).
    Perft {
        #[command(flatten)]
        game: GameArg,
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
        #[command(flatten)]
        game: GameArg,
        /// Position string (default: the start position).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Search a position and print each iteration and the best line.
    Analyze {
        #[command(flatten)]
        game: GameArg,
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
        #[command(flatten)]
        game: GameArg,
        /// Search depth (default: 12 for Akiba, 8 for Offboard, 10 for Abraxas); the node count is
        /// deterministic for a given depth.
        #[arg(long)]
        depth: Option<u32>,
    },
    /// Make a balanced opening set: random playouts from the start position(s), kept when a
    /// deeper search scores them near zero, no two alike; deterministic for a seed.
    Openings(Box<OpeningsArgs>),
    /// Play two engines against each other and measure the first one's strength.
    Match(Box<MatchArgs>),
    /// Play the engine against itself and write every position with its search score and
    /// the game's result (training data for `shove tune`; format in docs/pipeline.md).
    Selfplay(Box<SelfplayArgs>),
    /// Fit the evaluation weights to self-play data (Texel tuning) and write them as a
    /// Rust source file.
    Tune(Box<TuneArgs>),
    /// Combine the logs of sharded matches into one result, or sharded self-play data
    /// files into one file; inputs with different settings are refused.
    Merge {
        /// Match logs (`--log`) or self-play data files, all of one kind.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the merged log or data file here (needed for data files).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
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
struct OpeningsArgs {
    #[command(flatten)]
    game: GameArg,
    /// A start position string (repeatable: candidates take the starts in turn; Abraxas
    /// sheets are part of the string). Default: the game's start position.
    #[arg(long = "start", value_name = "POSITION")]
    starts: Vec<String>,
    /// Number of openings.
    #[arg(long, default_value_t = 2000)]
    count: usize,
    /// Seed of the random playouts.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies from the start, MIN..MAX (inclusive).
    #[arg(long, default_value = "4..10", value_parser = parse_plies)]
    plies: (usize, usize),
    /// Depth of the search that judges each candidate.
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Largest absolute judging score kept (1/100 of a marble, point or stone).
    #[arg(long, default_value_t = 60)]
    max_score: i32,
    /// Threads judging candidates (default: every core); the result does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Write the set here instead of to stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// `MIN..MAX` random plies.
fn parse_plies(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{text}' is not MIN..MAX (e.g. 4..10)");
    let (low, high) = text.split_once("..").ok_or_else(bad)?;
    let low: usize = low.trim().parse().map_err(|_| bad())?;
    let high: usize = high.trim().parse().map_err(|_| bad())?;
    if low > high {
        return Err(format!("'{text}': MIN is more than MAX"));
    }
    Ok((low, high))
}

#[derive(clap::Args)]
struct MatchArgs {
    #[command(flatten)]
    game: GameArg,
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
    /// Play only shard K of N: the game pairs p with p % N = K - 1 (see `shove merge`).
    #[arg(long, default_value = "1/1", value_name = "K/N")]
    shard: Shard,
}

#[derive(clap::Args)]
struct SelfplayArgs {
    #[command(flatten)]
    game: GameArg,
    /// Append the positions to this file (created with its header if absent).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Games of the whole run (all shards together).
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Seed of the openings; the same seed and settings give the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 1000, conflicts_with = "depth")]
    nodes: u64,
    /// Search each move to this depth instead of a node budget.
    #[arg(long)]
    depth: Option<u32>,
    /// Games played at the same time (default: one per core).
    #[arg(long)]
    concurrency: Option<usize>,
    /// A game still going on after this many moves is drawn (0: no limit).
    #[arg(long, default_value_t = 400, value_name = "N")]
    max_moves: usize,
    /// Do not draw a game at the third occurrence of a position.
    #[arg(long)]
    no_repetition_draw: bool,
    /// Transposition table of each of the two searchers per game, in MB.
    #[arg(long, default_value_t = 4)]
    hash: usize,
    /// Play only shard K of N: the blocks of 16 games b with b % N = K - 1.
    #[arg(long, default_value = "1/1", value_name = "K/N")]
    shard: Shard,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

#[derive(clap::Args)]
struct TuneArgs {
    #[command(flatten)]
    game: GameArg,
    /// Self-play data files (`shove selfplay --out`), all with the same settings.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Write the tuned weights as Rust source here (e.g. src/akiba/weights.rs).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Passes of Adam over the training set.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Share of the game result in the target (the rest: the search score).
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// Adam's first step size, in evaluation units.
    #[arg(long, default_value_t = 2.0)]
    learning_rate: f64,
    /// Positions with a search score beyond this are left out.
    #[arg(long, default_value_t = 2000)]
    max_score: i32,
    /// Use every position, not only quiet ones.
    #[arg(long)]
    all_positions: bool,
    /// Threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress lines.
    #[arg(long)]
    quiet: bool,
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn main() -> ExitCode {
    let args = Args::parse();
    shove::logging::init();
    let game = match &args.command {
        Some(
            Command::Perft { game, .. }
            | Command::Show { game, .. }
            | Command::Analyze { game, .. }
            | Command::Bench { game, .. },
        ) => game.name.clone().or(args.game.name.clone()),
        Some(Command::Match(match_args)) => match_args.game.name.clone().or(args.game.name.clone()),
        Some(Command::Openings(openings)) => openings.game.name.clone().or(args.game.name.clone()),
        Some(Command::Selfplay(a)) => a.game.name.clone().or(args.game.name.clone()),
        Some(Command::Tune(a)) => a.game.name.clone().or(args.game.name.clone()),
        Some(Command::Merge { files, out }) => {
            return exit(merge::merge(files, out.as_deref()).map(|text| print!("{text}")));
        }
        // A log names the game of each of its lines.
        Some(Command::Replay { file, game }) => {
            return exit(matches::log::replay_file(file, *game));
        }
        None => args.game.name.clone(),
    }
    .unwrap_or_else(|| akiba::Position::NAME.to_string());
    let run = Run {
        rule_options: rule_options(&args),
        player: args.player,
        command: args.command,
    };
    exit(with_game(&game, run).and_then(|result| result))
}

/// Errors go to stderr, with a failing exit status.
fn exit(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The rule flags given, as engine options (name, value).
fn rule_options(args: &Args) -> Vec<(String, String)> {
    let mut options = Vec::new();
    if args.no_extra_move {
        options.push(("ExtraMove".to_string(), "false".to_string()));
    }
    if let Some(rule) = args.repeat_rule {
        options.push(("RepeatRule".to_string(), rule.to_string()));
    }
    for (name, value) in [
        (offboard::SECTORS_OPTION, &args.offboard_sectors),
        ("AbraxasSheet", &args.abraxas_sheet),
        ("AbraxasTarget", &args.abraxas_target),
        ("AbraxasBlue", &args.abraxas_blue),
    ] {
        if let Some(value) = value {
            options.push((name.to_string(), value.clone()));
        }
    }
    options
}

/// A command, run for the game chosen with `--game`.
struct Run {
    rule_options: Vec<(String, String)>,
    player: Option<BotKind>,
    command: Option<Command>,
}

impl GameVisitor for Run {
    type Output = Result<(), String>;

    fn visit<G: Game>(self) -> Result<(), String> {
        let Some(command) = self.command else {
            let mut options = vec![("Game", G::NAME)];
            options.extend(
                self.rule_options
                    .iter()
                    .map(|(n, v)| (n.as_str(), v.as_str())),
            );
            return shove::uci::run_stdio(&options, self.player);
        };
        let rules = || cli::rules::<G>(&self.rule_options);
        match command {
            Command::Perft {
                depth, fen, divide, ..
            } => cli::perft::<G>(rules()?, fen.as_deref(), depth, divide),
            Command::Show { fen, .. } => cli::show::<G>(rules()?, fen.as_deref()),
            Command::Analyze {
                fen,
                moves,
                depth,
                movetime,
                hash,
                ..
            } => cli::analyze::<G>(
                rules()?,
                fen.as_deref(),
                moves.as_deref(),
                depth,
                movetime,
                hash,
            ),
            Command::Bench { depth, .. } => cli::bench::<G>(depth),
            Command::Match(match_args) => play_match(*match_args, G::NAME, self.rule_options),
            Command::Openings(args) => {
                let config = OpeningConfig {
                    plies: args.plies,
                    depth: args.depth,
                    max_score: args.max_score,
                    ..OpeningConfig::default()
                };
                let threads = args.threads.unwrap_or_else(|| {
                    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
                });
                let command = command_line();
                cli::openings::<G>(
                    rules()?,
                    &args.starts,
                    &config,
                    args.count,
                    args.seed,
                    threads,
                    &command,
                    args.out.as_deref(),
                )
            }
            Command::Selfplay(a) => selfplay(*a, G::NAME, self.rule_options),
            Command::Tune(a) => tune(*a, G::NAME),
            Command::Replay { .. } | Command::Merge { .. } => {
                unreachable!("replay and merge are run before choosing a game")
            }
        }
    }
}

/// This process's command line as a shell would take it back (the program called `shove`),
/// for the header of what it writes.
fn command_line() -> String {
    let quote = |arg: String| {
        if !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=,:".contains(c))
        {
            arg
        } else {
            format!("'{}'", arg.replace('\'', "'\\''"))
        }
    };
    std::iter::once("shove".to_string())
        .chain(std::env::args().skip(1).map(quote))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `shove match`: the rule flags become rule options of both engines and the referee.
fn play_match(
    args: MatchArgs,
    game: &str,
    mut options: Vec<(String, String)>,
) -> Result<(), String> {
    options.extend(args.options);
    let engines = EngineConfig::pair(
        [&args.engine1, &args.engine2],
        [args.name1, args.name2],
        [args.tc1.unwrap_or(args.tc), args.tc2.unwrap_or(args.tc)],
    )?;
    let config = MatchConfig {
        game: game.to_string(),
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
        shard: args.shard,
    };
    let report = matches::run_match(&config)?;
    print!("{report}");
    Ok(())
}

/// `shove selfplay`: prints the games and positions written, and positions/s.
fn selfplay(
    args: SelfplayArgs,
    game: &str,
    rule_options: Vec<(String, String)>,
) -> Result<(), String> {
    let config = SelfplayConfig {
        game: game.to_string(),
        rule_options,
        games: args.games,
        seed: args.seed,
        budget: match args.depth {
            Some(depth) => Budget::Depth(depth),
            None => Budget::Nodes(args.nodes),
        },
        concurrency: args.concurrency.unwrap_or_else(cores),
        adjudication: Adjudication {
            max_plies: args.max_moves,
            repetition_draw: !args.no_repetition_draw,
        },
        openings: OpeningConfig::default(),
        shard: args.shard,
        hash_megabytes: args.hash,
        out: args.out,
        progress: !args.quiet,
    };
    let report = selfplay::run_selfplay(&config)?;
    println!(
        "{} games, {} positions in {:.1} s: {:.0} positions/s ({} threads)",
        report.games,
        report.positions,
        report.seconds,
        report.positions as f64 / report.seconds.max(1e-9),
        config.concurrency
    );
    Ok(())
}

/// `shove tune`: prints the errors before and after and the changed weights.
fn tune(args: TuneArgs, game: &str) -> Result<(), String> {
    let run = TuneRun {
        game: game.to_string(),
        data: args.data,
        config: TuneConfig {
            lambda: args.lambda,
            epochs: args.epochs,
            learning_rate: args.learning_rate,
            max_score: args.max_score,
            quiet_only: !args.all_positions,
            threads: args.threads.unwrap_or_else(cores),
            ..TuneConfig::default()
        },
        out: args.out,
        progress: !args.quiet,
    };
    print!("{}", shove::pipeline::tune::run_tune(&run)?);
    Ok(())
}
