//! The command line's arguments (clap). Each subcommand takes only the flags it uses: the
//! rule flags ([`RuleArgs`]) only where a game is played under rules, `--player` only in
//! protocol mode (no subcommand). `--game` and the rule flags may also stand before the
//! subcommand (`shove --game offboard perft 3`); `main` merges the two places.

use crate::games;
use crate::matches::{self, Format, TimeControl, stats::Sprt};
use crate::nnue::{EvalKind, Network, choice};
use crate::options::FlagValue;
use crate::pipeline::shard::Shard;
use crate::players::BotKind;
use crate::search::ParamChanges;
use crate::search_hints::SearchHints;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::sync::Arc;

/// Without a subcommand: the engine protocol on stdin/stdout (protocol.md).
#[derive(Parser)]
#[command(
    name = "shove",
    version,
    about = "An engine for marble-pushing board games (Akiba, Offboard, Abraxas)",
    long_about = "An engine for marble-pushing board games (Akiba, Offboard, Abraxas).\n\n\
                  Without a subcommand it speaks the engine protocol on stdin/stdout \
                  (protocol.md); the options below then set up protocol mode. --game and \
                  the rule flags may also be given before a subcommand that takes them.\n\n\
                  The rules of each game as the engine plays them: \
                  docs/rules/engine/akiba.md, docs/rules/engine/offboard.md, \
                  docs/rules/engine/abraxas.md."
)]
pub struct Args {
    #[command(flatten)]
    pub game: GameArg,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Protocol mode only: a built-in reference player answers `go` instead of the search:
    /// `random`, `greedy` (best one-move material gain) or `material-ab:<depth>`
    /// (fixed-depth alpha-beta on material only).
    #[arg(long, value_name = "NAME")]
    pub player: Option<BotKind>,
    /// Protocol mode only: search threads (lazy SMP), 1..=256; sets the `Threads` option.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Protocol mode only: the playing strength, 0..=20 (20, the default, is full
    /// strength); sets the `Skill Level` option.
    #[arg(long, value_name = "N")]
    pub level: Option<u32>,
    /// Protocol mode only: `--eval` and `--eval-file` set the `Evaluation` and `EvalFile`
    /// options.
    #[command(flatten)]
    pub eval: EvalArgs,
    /// Protocol mode only: changes to the game's search margins, `name=value,…` (sets the
    /// `SearchParams` option; for matches and tuning, protocol.md).
    #[arg(long, value_name = "CHANGES")]
    pub search_params: Option<ParamChanges>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// `--eval` and `--eval-file`: which evaluation the search uses.
#[derive(clap::Args, Clone, Default)]
pub struct EvalArgs {
    /// The evaluation: `classical` or `network` (default: the one matches showed stronger
    /// for the game, docs/strength.md).
    #[arg(long = "eval", value_name = "KIND")]
    pub kind: Option<EvalKind>,
    /// A network file to use instead of the built-in network (docs/nnue.md).
    #[arg(long = "eval-file", value_name = "FILE")]
    pub file: Option<PathBuf>,
}

impl EvalArgs {
    /// The network to search with (`None`: classical), or why the choice cannot be had.
    pub fn network<G: SearchHints>(&self) -> Result<Option<Arc<Network>>, String> {
        choice::resolve::<G>(self.kind, self.file.as_deref())
    }
}

/// `--game`: before the subcommand or on every subcommand that plays a game.
#[derive(clap::Args, Clone, Default)]
pub struct GameArg {
    /// The game: `akiba` (default), `offboard` or `abraxas`.
    #[arg(long = "game", value_name = "NAME")]
    pub name: Option<String>,
}

/// The rule flags: the games' rule options (docs/rules/), each flag declared with its
/// option ([`crate::options::RuleOption`]); a flag of another game than the one played is an
/// error. Holds the flags given, as engine options (name, value) in the games' order.
#[derive(Clone, Default)]
pub struct RuleArgs {
    options: Vec<(String, String)>,
}

impl RuleArgs {
    /// These flags, each given one overriding `outer`'s (the flags before the subcommand).
    pub fn or(self, outer: RuleArgs) -> RuleArgs {
        let given = |args: &RuleArgs, name: &str| {
            args.options
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        let options = games::rule_options()
            .iter()
            .filter_map(|(_, option, _)| {
                let value = given(&self, option.name).or_else(|| given(&outer, option.name))?;
                Some((option.name.to_string(), value))
            })
            .collect();
        RuleArgs { options }
    }

    /// Whether any rule flag is given.
    pub fn any(&self) -> bool {
        !self.options.is_empty()
    }

    /// The flags given, as engine options (name, value).
    pub fn options(&self) -> Vec<(String, String)> {
        self.options.clone()
    }
}

impl clap::FromArgMatches for RuleArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut args = RuleArgs::default();
        args.update_from_arg_matches(matches)?;
        Ok(args)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        let mut given = Vec::new();
        for (_, option, _) in games::rule_options() {
            let flag = option.flag;
            let value = match flag.value {
                FlagValue::Sets(value) => matches.get_flag(flag.long).then(|| value.to_string()),
                FlagValue::Named(_) => matches.get_one::<String>(flag.long).cloned(),
            };
            given.extend(value.map(|value| (option.name.to_string(), value)));
        }
        *self = RuleArgs { options: given }.or(std::mem::take(self));
        Ok(())
    }
}

impl clap::Args for RuleArgs {
    fn augment_args(command: clap::Command) -> clap::Command {
        games::rule_options()
            .into_iter()
            .fold(command, |command, (_, option, valid)| {
                let flag = option.flag;
                let arg = clap::Arg::new(flag.long).long(flag.long).help(flag.help);
                command.arg(match flag.value {
                    FlagValue::Sets(_) => arg.action(clap::ArgAction::SetTrue),
                    FlagValue::Named(value_name) => {
                        let name = option.name;
                        arg.value_name(value_name).value_parser(move |value: &str| {
                            valid(name, value).map(|()| value.to_string())
                        })
                    }
                })
            })
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// The position a command starts from: the game, its rules and a position string.
#[derive(clap::Args)]
pub struct PositionArgs {
    #[command(flatten)]
    pub game: GameArg,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Position string (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
}

/// One variant per subcommand.
#[derive(Subcommand)]
pub enum Command {
    /// Count the move sequences of a given length (checks the move generator).
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        /// Number of plies, 0..=20.
        depth: u32,
        /// One line per legal move with its own count.
        #[arg(long)]
        divide: bool,
    },
    /// Print a board diagram of a position.
    Show {
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Search a position and print each iteration and the best line.
    Analyze {
        #[command(flatten)]
        position: PositionArgs,
        /// Moves played from the position, space-separated (e.g. "f1f2 a1a2").
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
        /// Search threads (lazy SMP), 1..=256.
        #[arg(long, default_value_t = 1, value_name = "N")]
        threads: usize,
        /// Also print the move a weaker level, 0..=19, would play (20: full strength).
        #[arg(long, value_name = "N")]
        level: Option<u32>,
        #[command(flatten)]
        eval: EvalArgs,
    },
    /// Search a fixed set of positions to a fixed depth under the default rules; prints
    /// `<N> nodes <M> nps`.
    Bench {
        #[command(flatten)]
        game: GameArg,
        /// Search depth (default: 12 for Akiba, 8 for Offboard, 10 for Abraxas); the node
        /// count is deterministic for a given depth with one thread.
        #[arg(long)]
        depth: Option<u32>,
        /// Search threads (lazy SMP), 1..=256; with more than one the node count varies, and
        /// every position is searched with one thread too and the speedup printed.
        #[arg(long, default_value_t = 1, value_name = "N")]
        threads: usize,
        #[command(flatten)]
        eval: EvalArgs,
    },
    /// Print the search parameters SPSA tunes with this game's values, their ranges and
    /// steps, as OpenBench's SPSA input: `name, int, value, min, max, step, r_end` (what
    /// docs/scripts/spsa.py reads).
    Params {
        #[command(flatten)]
        game: GameArg,
    },
    /// Make a balanced opening set: random playouts from the start position(s), kept when a
    /// deeper search scores them near zero, no two alike; deterministic for a seed.
    Openings(Box<OpeningsArgs>),
    /// Play two engines against each other and measure the first one's strength.
    Match(Box<MatchArgs>),
    /// Play a tournament of many engines (round robin or gauntlet): standings with Elo on
    /// one scale, a crosstable and every pairing's W-L-D and pentanomial counts.
    Tournament(Box<TournamentArgs>),
    /// Play the engine against itself and write every position with its search score and
    /// the game's result (training data for `shove tune`; format in docs/pipeline.md).
    Selfplay(Box<SelfplayArgs>),
    /// Fit the evaluation weights to self-play data (Texel tuning) and write them as a
    /// Rust source file.
    Tune(Box<TuneArgs>),
    /// Make puzzles (one clearly best move, with the whole solution, a rating and themes)
    /// from played games, or check a set with --check (format in docs/puzzles.md).
    Puzzles(Box<PuzzlesArgs>),
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
    /// Step through the games of a match log, printing the board after every move (the
    /// log names each game's rules).
    Replay {
        /// A log written by `shove match --log`.
        file: PathBuf,
        /// Only the game with this number (as numbered in the log).
        #[arg(long, value_name = "K")]
        number: Option<usize>,
    },
    /// Print a game as a game record (docs/records.md): game K of a `shove match --log`
    /// log, or a record (checked by replaying it).
    Record {
        /// A game record, or a log written by `shove match --log`.
        file: PathBuf,
        /// The game with this number in a log (as numbered there).
        #[arg(long, value_name = "K")]
        number: Option<usize>,
    },
    /// Search every position of a game and mark each move `?!`, `?` or `??` by the winning
    /// chance it lost, with each player's accuracy (docs/review.md).
    Review(Box<ReviewArgs>),
    /// Fit every player of the logs' games to one Elo scale (maximum likelihood, the
    /// random player at 0), with 95% error bars.
    Rate {
        /// Logs written by `shove match --log`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The player rated 0, as the logs name it (default: the one playing
        /// `--player random`).
        #[arg(long, value_name = "NAME")]
        anchor: Option<String>,
    },
    /// Serve the web GUI on 127.0.0.1 (see docs/gui.md).
    Gui {
        /// Port to listen on; 0 picks a free one.
        #[arg(long, default_value_t = 7357)]
        port: u16,
        /// An engine's command line, quoted as one argument (repeatable; default: this
        /// program in protocol mode).
        #[arg(long = "engine", value_name = "COMMAND")]
        engines: Vec<String>,
        /// Open the page in the desktop's browser.
        #[arg(long)]
        open: bool,
        /// Serve without the secret token in the address (for scripts): any program on
        /// this machine can then drive the engines (see docs/gui.md, Security).
        #[arg(long)]
        no_token: bool,
        /// Stop an analysis (go infinite) after this many seconds without a new request
        /// from its page.
        #[arg(long, value_name = "SECONDS", default_value_t = 1800,
              value_parser = clap::value_parser!(u64).range(1..=604_800))]
        idle_limit: u64,
    },
}

impl Command {
    /// The subcommand's name, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Perft { .. } => "perft",
            Command::Show { .. } => "show",
            Command::Analyze { .. } => "analyze",
            Command::Bench { .. } => "bench",
            Command::Params { .. } => "params",
            Command::Openings(_) => "openings",
            Command::Match(_) => "match",
            Command::Tournament(_) => "tournament",
            Command::Replay { .. } => "replay",
            Command::Record { .. } => "record",
            Command::Review(_) => "review",
            Command::Rate { .. } => "rate",
            Command::Gui { .. } => "gui",
            Command::Selfplay(_) => "selfplay",
            Command::Tune(_) => "tune",
            Command::Puzzles(_) => "puzzles",
            Command::Merge { .. } => "merge",
        }
    }
}

#[derive(clap::Args)]
pub struct OpeningsArgs {
    #[command(flatten)]
    pub game: GameArg,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// A start position string (repeatable: candidates take the starts in turn; Abraxas
    /// sheets are part of the string). Default: the game's start position.
    #[arg(long = "start", value_name = "POSITION")]
    pub starts: Vec<String>,
    /// Start positions from a file, one a line (`#` lines skipped), after any --start: an
    /// opening set. With `--plies 0..0` each is one candidate, so the command keeps those of
    /// a set that pass a deeper judge or trial games (docs/strength.md).
    #[arg(long = "starts", value_name = "FILE")]
    pub starts_file: Option<PathBuf>,
    /// Number of openings.
    #[arg(long, default_value_t = 2000)]
    pub count: usize,
    /// Seed of the random playouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies from the start, MIN..MAX (inclusive).
    #[arg(long, default_value = "4..10", value_parser = parse_plies)]
    pub plies: (usize, usize),
    /// Depth of the search that judges each candidate.
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Largest absolute judging score kept (1/100 of a marble, point or stone; default:
    /// 60, Abraxas 200).
    #[arg(long)]
    pub max_score: Option<i32>,
    /// Threads judging candidates (default: every core); the result does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Most nodes a judging search may take; a candidate it cannot judge within them is
    /// dropped (a deep judge needs more: Offboard's depth 12 takes about 1.4 M).
    #[arg(long, default_value_t = crate::pipeline::openings::JUDGE_NODES)]
    pub max_nodes: u64,
    /// Trial games of the engine against itself from each balanced candidate (0: none): it
    /// is kept only when each colour wins --trial-wins of them. For games whose balanced
    /// scores still leave the colour deciding (docs/strength.md).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub trials: usize,
    /// Nodes a move of the first trial game; game g of N searches nodes·(1 + g/2N).
    #[arg(long, default_value_t = 16000, value_name = "NODES")]
    pub trial_nodes: u64,
    /// Wins each colour needs among the trial games.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub trial_wins: usize,
    /// The trial games' evaluation (default: the game's).
    #[command(flatten)]
    pub eval: EvalArgs,
    /// How the trial games end when the rules do not end them.
    #[command(flatten)]
    pub adjudication: AdjudicationArgs,
    /// Write the set here instead of to stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `MIN..MAX` random plies.
pub fn parse_plies(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{text}' is not MIN..MAX (e.g. 4..10)");
    let (low, high) = text.split_once("..").ok_or_else(bad)?;
    let low: usize = low.trim().parse().map_err(|_| bad())?;
    let high: usize = high.trim().parse().map_err(|_| bad())?;
    if low > high {
        return Err(format!("'{text}': MIN is more than MAX"));
    }
    Ok((low, high))
}

/// How matches, tournaments and self-play end a game that the rules have not ended.
#[derive(clap::Args)]
pub struct AdjudicationArgs {
    /// A game still going on after this many moves from its opening (every decision
    /// counted: a push, a pass, a stop) is drawn (0: no limit).
    #[arg(long, default_value_t = 400, value_name = "N")]
    pub max_moves: usize,
    /// Do not draw a game at the third occurrence of a position.
    #[arg(long)]
    pub no_repetition_draw: bool,
}

impl AdjudicationArgs {
    /// The draw rules these flags ask for.
    pub fn rules(&self) -> matches::Adjudication {
        matches::Adjudication {
            max_plies: self.max_moves,
            repetition_draw: !self.no_repetition_draw,
        }
    }
}

/// What a match and a tournament share: the openings, how games are played and ended,
/// the log, and the level and options every engine gets.
#[derive(clap::Args)]
pub struct RunArgs {
    /// Opening positions, one position string per line (default: the game's built-in
    /// balanced set); each is played once per pair, with both colours.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Games played at the same time, each with its own engine processes.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seed of the shuffle that orders the openings (more pairs than openings repeat them,
    /// with a warning).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub adjudication: AdjudicationArgs,
    /// Write every finished game to this file (one line each; see `shove replay`).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Resume the run the --log file holds (one cut off): keep its games and play the
    /// rest. Its settings must be those the log names.
    #[arg(long, requires = "log")]
    pub resume: bool,
    /// Every engine plays at this strength level, 0..=20 (the `Skill Level` option; an
    /// engine's own `--level` in its command line sets one engine's).
    #[arg(long, value_name = "N")]
    pub level: Option<u32>,
    /// Engine option sent to every engine (repeatable), e.g. Hash=16; the game's rule
    /// options also apply to the referee.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = matches::parse_engine_option)]
    pub options: Vec<(String, String)>,
    /// Milliseconds a move may exceed its movetime or the clock before it loses on time.
    #[arg(long, default_value_t = 200, value_name = "MS")]
    pub margin: u64,
    /// Seconds to wait for an answer no time control bounds (start-up, depth and node
    /// limits) before the engine is taken as hung and loses the game.
    #[arg(long, default_value_t = 60, value_name = "SECONDS")]
    pub timeout: u64,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Play only shard K of N: the game pairs p with p % N = K - 1 (see `shove merge`).
    #[arg(long, default_value = "1/1", value_name = "K/N")]
    pub shard: Shard,
}

#[derive(clap::Args)]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArg,
    // The rule flags apply to both engines (as engine options) and to the referee.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// The first engine's command line, quoted as one argument
    /// (e.g. "./target/release/shove --player greedy"); it is split as a shell would.
    pub engine1: String,
    /// The second engine's command line.
    pub engine2: String,
    /// Number of games, rounded up to whole pairs (each opening is played with both colours).
    /// With --sprt, the most that are played.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Time control of both engines: depth=N, nodes=N, movetime=MS or clock=S+INC (seconds).
    #[arg(long, default_value = "movetime=100", value_name = "TC")]
    pub tc: TimeControl,
    /// Time control of the first engine only (overrides --tc).
    #[arg(long, value_name = "TC")]
    pub tc1: Option<TimeControl>,
    /// Time control of the second engine only (overrides --tc).
    #[arg(long, value_name = "TC")]
    pub tc2: Option<TimeControl>,
    #[command(flatten)]
    pub run: RunArgs,
    /// Stop once the sequential probability ratio test decides between elo0 and elo1
    /// (normalized Elo; alpha and beta default to 0.05).
    #[arg(long, value_name = "elo0=E0,elo1=E1[,alpha=A,beta=B]")]
    pub sprt: Option<Sprt>,
    /// Name of the first engine in results and logs (default: its command).
    #[arg(long)]
    pub name1: Option<String>,
    /// Name of the second engine.
    #[arg(long)]
    pub name2: Option<String>,
}

#[derive(clap::Args)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub game: GameArg,
    // The rule flags apply to every engine (as engine options) and to the referee.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// `round-robin` (every engine against every other) or `gauntlet` (the first engine
    /// against each of the others).
    #[arg(long, default_value = "round-robin", value_name = "FORMAT")]
    pub format: Format,
    /// An engine: its name in results and logs, and its command line, split as a shell
    /// would (repeatable, at least two), e.g. --engine "greedy=./shove --player greedy".
    #[arg(long = "engine", value_name = "NAME=COMMAND", required = true)]
    pub engines: Vec<String>,
    /// Time control of every engine: depth=N, nodes=N, movetime=MS or clock=S+INC.
    #[arg(long, default_value = "movetime=100", value_name = "TC")]
    pub tc: TimeControl,
    /// One engine's own time control (repeatable; overrides --tc for it).
    #[arg(long = "engine-tc", value_name = "NAME=TC")]
    pub engine_tcs: Vec<String>,
    /// An engine option sent to one engine only (repeatable), e.g. "weak:Skill Level=3".
    #[arg(long = "engine-option", value_name = "NAME:OPTION=VALUE")]
    pub engine_options: Vec<String>,
    /// Games of each pairing, rounded up to whole pairs (each opening with both colours).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub games_per_pair: usize,
    #[command(flatten)]
    pub run: RunArgs,
    /// The engine rated 0 (default: the one named random or playing `--player random`,
    /// else the first engine).
    #[arg(long, value_name = "NAME")]
    pub anchor: Option<String>,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct ReviewArgs {
    /// A game record (docs/records.md), or a log written by `shove match --log`.
    pub file: PathBuf,
    /// The game with this number in a log.
    #[arg(long, value_name = "K")]
    pub number: Option<usize>,
    /// Search each position to this depth (default: the game's review depth,
    /// docs/review.md).
    #[arg(long, conflicts_with = "movetime")]
    pub depth: Option<u32>,
    /// Search each position for this many milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search a move marked `?` or `??` again this many plies deeper before the mark
    /// stands, 0..=8 (0: marks stand as found; default: the game's, docs/review.md).
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(0..=8))]
    pub confirm: Option<u32>,
    /// Search threads (lazy SMP), 1..=256.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Write the review as JSON (for tools and the GUI).
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(clap::Args)]
pub struct SelfplayArgs {
    #[command(flatten)]
    pub game: GameArg,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Append the positions to this file (created with its header if absent).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Games of the whole run (all shards together).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Seed of the openings; the same seed and settings give the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 1000, conflicts_with = "depth")]
    pub nodes: u64,
    /// Search each move to this depth instead of a node budget.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Games played at the same time (default: one per core).
    #[arg(long)]
    pub concurrency: Option<usize>,
    #[command(flatten)]
    pub adjudication: AdjudicationArgs,
    /// Transposition table of each of the two searchers per game, in MB.
    #[arg(long, default_value_t = 4)]
    pub hash: usize,
    /// Play only shard K of N: the blocks of 16 games b with b % N = K - 1.
    #[arg(long, default_value = "1/1", value_name = "K/N")]
    pub shard: Shard,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub eval: EvalArgs,
}

#[derive(clap::Args)]
pub struct PuzzlesArgs {
    #[command(flatten)]
    pub game: GameArg,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// The games to look in: match logs (`shove match --log`), self-play data files
    /// (`shove selfplay --out`) or game records; games of other games or rules are skipped.
    #[arg(value_name = "FROM")]
    pub from: Vec<PathBuf>,
    /// Append the puzzles to this file (created with its header if absent).
    #[arg(long, value_name = "FILE", required_unless_present = "check")]
    pub out: Option<PathBuf>,
    /// Check the set in FILE instead of making one: legal solutions, every solver move the
    /// only good one at the check depth (the set's own, or --depth); the set names its game.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "from", "count", "max_per_rating", "nodes", "seed", "resume", "check_depth", "balanced", "multi_move", "hard"])]
    pub check: Option<PathBuf>,
    /// With --check: write the set again to FILE with only the puzzles that pass, each rated
    /// again by the levels as they play now (after a new network or search), every comment
    /// and header kept; the bad ones are listed and the command succeeds.
    #[arg(long, value_name = "FILE", requires = "check")]
    pub rewrite: Option<PathBuf>,
    /// Puzzles of the whole run (all shards together).
    #[arg(long, default_value_t = 300)]
    pub count: usize,
    /// At most this many puzzles of one rating (each rating is a level's Elo), so that the
    /// easy puzzles, the most common, leave room for harder ones.
    #[arg(long, value_name = "N")]
    pub max_per_rating: Option<usize>,
    /// Search depth of the deepest search; every solver move also leads 2 less deep. With
    /// --check: the depth to check at. Default 6.
    #[arg(long, conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Every solver move is also the only good one at this depth, the one `--check` uses by
    /// default. Default: the depth (4 with --nodes).
    #[arg(long, value_name = "D")]
    pub check_depth: Option<u32>,
    /// Keep a full set's spread: at least half its puzzles with two or more solver moves
    /// that count (5 or more legal moves), 15 % each at or below level 5's Elo and at or
    /// above level 15's.
    #[arg(long)]
    pub balanced: bool,
    /// Keep only puzzles with two or more solver moves that count, and rate no others: how
    /// a set whose one-move half is full grows (join the run's puzzles to it).
    #[arg(long)]
    pub multi_move: bool,
    /// Keep only puzzles rated at or above level 15's Elo, the hard band: how a set whose
    /// hard band is short grows (join the run's puzzles to it).
    #[arg(long)]
    pub hard: bool,
    /// Search each position with this many nodes instead of a depth (the two depths are
    /// the deepest completed and 2 less).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Seed of the order the games are looked through in.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Do only shard K of N: the games g (numbered over all FROM files) with g % N = K - 1.
    #[arg(long, default_value = "1/1", value_name = "K/N")]
    pub shard: Shard,
    /// Go on with the --out file of a run that was cut off (same settings and games).
    #[arg(long)]
    pub resume: bool,
    /// Threads of --check (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(clap::Args)]
pub struct TuneArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Self-play data files (`shove selfplay --out`), made with the same settings (the rules
    /// may differ: each file is read under its own).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Write the tuned weights as Rust source here (e.g. src/akiba/weights.rs).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Passes of Adam over the training set.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Share of the game result in the target (the rest: the search score).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Adam's first step size, in evaluation units.
    #[arg(long, default_value_t = 2.0)]
    pub learning_rate: f64,
    /// Positions with a search score beyond this are left out.
    #[arg(long, default_value_t = 2000)]
    pub max_score: i32,
    /// Use every position, not only quiet ones.
    #[arg(long)]
    pub all_positions: bool,
    /// Threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress lines.
    #[arg(long)]
    pub quiet: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_argument_definitions_are_consistent() {
        Args::command().debug_assert();
    }
}
