//! The `shove` command line: thin wrappers around the library; the arguments are
//! `shove::cli::args`. With no subcommand it speaks the engine protocol on stdin/stdout
//! (see protocol.md).

use clap::Parser;
use shove::akiba;
use shove::cli::{
    self,
    args::{
        Args, Command, EvalArgs, GameArg, MatchArgs, PuzzlesArgs, ReviewArgs, RuleArgs,
        SelfplayArgs, TournamentArgs, TuneArgs,
    },
};
use shove::game::Game;
use shove::games::{GameVisitor, with_game};
use shove::matches::{self, Adjudication, EngineConfig, MatchConfig, RunConfig, TournamentConfig};
use shove::pipeline::merge;
use shove::pipeline::openings::OpeningConfig;
use shove::pipeline::selfplay::{self, Budget, SelfplayConfig};
use shove::pipeline::tune::{TuneConfig, TuneRun};
use shove::players::BotKind;
use shove::search::ParamChanges;
use shove::search::Skill;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    let args = Args::parse();
    shove::logging::init();
    exit(run(args))
}

/// Chooses the game (the subcommand's `--game`, else the one before it, else Akiba) and
/// refuses flags before the subcommand that it does not take.
fn run(args: Args) -> Result<(), String> {
    let Args {
        game: outer_game,
        rules: outer_rules,
        player,
        threads,
        level,
        eval,
        search_params,
        command,
    } = args;
    if let Some(command) = &command {
        for (flag, given) in [
            ("--player", player.is_some()),
            ("--threads", threads.is_some()),
            ("--level", level.is_some()),
            ("--eval", eval.kind.is_some()),
            ("--eval-file", eval.file.is_some()),
            ("--search-params", search_params.is_some()),
        ] {
            if given {
                return Err(format!(
                    "{flag} before a subcommand applies to protocol mode only, not to '{}'",
                    command.name()
                ));
            }
        }
    }
    let (game, rules) = match &command {
        None => (outer_game, outer_rules),
        Some(
            Command::Perft { position, .. }
            | Command::Show { position, .. }
            | Command::Analyze { position, .. },
        ) => (
            merge_game(&position.game, &outer_game),
            position.rules.clone().or(outer_rules),
        ),
        Some(Command::Match(match_args)) => (
            merge_game(&match_args.game, &outer_game),
            match_args.rules.clone().or(outer_rules),
        ),
        Some(Command::Tournament(args)) => (
            merge_game(&args.game, &outer_game),
            args.rules.clone().or(outer_rules),
        ),
        Some(Command::Openings(openings)) => (
            merge_game(&openings.game, &outer_game),
            openings.rules.clone().or(outer_rules),
        ),
        Some(Command::Selfplay(args)) => (
            merge_game(&args.game, &outer_game),
            args.rules.clone().or(outer_rules),
        ),
        // A set names its game and rules.
        Some(Command::Puzzles(args)) if args.check.is_some() => {
            no_rule_flags(&args.rules.clone().or(outer_rules), "puzzles --check")?;
            let game = merge_game(&args.game, &outer_game).name;
            return check_puzzles(args, game.as_deref());
        }
        Some(Command::Puzzles(args)) => (
            merge_game(&args.game, &outer_game),
            args.rules.clone().or(outer_rules),
        ),
        Some(Command::Tune(args)) => {
            no_rule_flags(&outer_rules, "tune")?;
            (merge_game(&args.game, &outer_game), RuleArgs::default())
        }
        // Each input names its own game and settings.
        Some(Command::Merge { files, out }) => {
            no_rule_flags(&outer_rules, "merge")?;
            if outer_game.name.is_some() {
                return Err("--game does not apply to 'merge': the inputs name their game".into());
            }
            return merge::merge(files, out.as_deref()).map(|text| print!("{text}"));
        }
        Some(Command::Bench { game, .. }) => {
            no_rule_flags(&outer_rules, "bench")?;
            (merge_game(game, &outer_game), RuleArgs::default())
        }
        // A log names the game and rules of each of its lines.
        Some(Command::Replay { file, number }) => {
            no_rule_flags(&outer_rules, "replay")?;
            if outer_game.name.is_some() {
                return Err("--game does not apply to 'replay': the log names each game".into());
            }
            return matches::log::replay_file(file, *number);
        }
        // A record or log names its game and rules.
        Some(Command::Record { file, number }) => {
            no_rule_flags(&outer_rules, "record")?;
            if outer_game.name.is_some() {
                return Err("--game does not apply to 'record': the file names the game".into());
            }
            return shove::record::load(file, *number).map(|record| print!("{record}"));
        }
        Some(Command::Review(args)) => {
            no_rule_flags(&outer_rules, "review")?;
            if outer_game.name.is_some() {
                return Err("--game does not apply to 'review': the file names the game".into());
            }
            return review(args).map(|text| print!("{text}"));
        }
        // The logs name the players and games.
        Some(Command::Rate { files, anchor }) => {
            no_rule_flags(&outer_rules, "rate")?;
            if outer_game.name.is_some() {
                return Err("--game does not apply to 'rate': the logs name their games".into());
            }
            return matches::rating::rate_logs(files, anchor.as_deref())
                .map(|ratings| print!("{ratings}"));
        }
        // The page chooses the game and rules; engines are child processes.
        Some(Command::Gui {
            port,
            engines,
            open,
            no_token,
            idle_limit,
        }) => {
            no_rule_flags(&outer_rules, "gui")?;
            if outer_game.name.is_some() {
                return Err("--game does not apply to 'gui': the page chooses the game".into());
            }
            return shove::gui::run(shove::gui::GuiConfig {
                port: *port,
                engines: engines.clone(),
                open: *open,
                no_token: *no_token,
                idle_limit: std::time::Duration::from_secs(*idle_limit),
            });
        }
    };
    let name = match (game.name, eval_file(&command, &eval)) {
        (Some(name), _) => name,
        // A network names its game: `shove --eval-file offboard.nnue` plays Offboard, so a
        // runner's later `setoption name Game value offboard` keeps that network.
        (None, Some(file)) => shove::nnue::choice::game_of(file)?,
        (None, None) => akiba::Position::NAME.to_string(),
    };
    let run = Run {
        rule_options: rules.options(),
        player,
        threads,
        level,
        eval,
        search_params,
        command,
    };
    with_game(&name, run)?
}

/// The network file named for protocol mode or for a command that searches.
fn eval_file<'a>(command: &'a Option<Command>, protocol: &'a EvalArgs) -> Option<&'a Path> {
    let eval = match command {
        None => protocol,
        Some(Command::Analyze { eval, .. } | Command::Bench { eval, .. }) => eval,
        Some(Command::Selfplay(args)) => &args.eval,
        Some(_) => return None,
    };
    eval.file.as_deref()
}

fn merge_game(inner: &GameArg, outer: &GameArg) -> GameArg {
    GameArg {
        name: inner.name.clone().or(outer.name.clone()),
    }
}

/// `bench` and `replay` play under fixed or logged rules: rule flags would be ignored.
fn no_rule_flags(rules: &RuleArgs, command: &str) -> Result<(), String> {
    if rules.any() {
        return Err(format!("rule flags do not apply to '{command}'"));
    }
    Ok(())
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

/// A command, run for the game chosen with `--game`.
struct Run {
    rule_options: Vec<(String, String)>,
    player: Option<BotKind>,
    threads: Option<usize>,
    level: Option<u32>,
    eval: EvalArgs,
    search_params: Option<ParamChanges>,
    command: Option<Command>,
}

impl GameVisitor for Run {
    type Output = Result<(), String>;

    fn visit<G: Game>(self) -> Result<(), String> {
        let Some(command) = self.command else {
            // Protocol mode keeps a network of another game for when that game is chosen;
            // on the command line, `--game` and the file must agree.
            if let Some(file) = &self.eval.file {
                let game = shove::nnue::choice::game_of(file)?;
                if game != G::NAME {
                    return Err(format!(
                        "network {} is for {game}, not for {} (--game)",
                        file.display(),
                        G::NAME
                    ));
                }
            }
            let threads = self.threads.map(|n| n.to_string());
            let evaluation = self.eval.kind.map(|kind| kind.to_string());
            let eval_file = self.eval.file.as_ref().map(|f| f.display().to_string());
            let mut options = vec![("Game", G::NAME)];
            options.extend(threads.as_deref().map(|n| ("Threads", n)));
            let level = self.level.map(|n| n.to_string());
            options.extend(level.as_deref().map(|n| ("Skill Level", n)));
            // The file first: `Evaluation network` may need it.
            options.extend(eval_file.as_deref().map(|f| ("EvalFile", f)));
            options.extend(evaluation.as_deref().map(|k| ("Evaluation", k)));
            let search_params = self.search_params.as_ref().map(|c| c.to_string());
            options.extend(search_params.as_deref().map(|c| ("SearchParams", c)));
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
                position,
                depth,
                divide,
            } => cli::perft::<G>(rules()?, position.fen.as_deref(), depth, divide),
            Command::Show { position } => cli::show::<G>(rules()?, position.fen.as_deref()),
            Command::Analyze {
                position,
                moves,
                depth,
                movetime,
                hash,
                threads,
                level,
                eval,
            } => cli::analyze::<G>(
                rules()?,
                position.fen.as_deref(),
                moves.as_deref(),
                depth,
                movetime,
                cli::SearcherSetup {
                    hash_megabytes: hash,
                    threads,
                    network: eval.network::<G>()?,
                    skill: Skill::new(level.unwrap_or(Skill::MAX_LEVEL))?,
                },
            ),
            Command::Bench {
                depth,
                threads,
                eval,
                ..
            } => cli::bench::<G>(depth, threads, eval.network::<G>()?),
            Command::Match(match_args) => play_match(*match_args, G::NAME, self.rule_options),
            Command::Tournament(args) => tournament(*args, G::NAME, self.rule_options),
            Command::Openings(args) => {
                let config = OpeningConfig {
                    plies: args.plies,
                    depth: args.depth,
                    max_score: args.max_score.unwrap_or(G::BALANCED_SCORE),
                    ..OpeningConfig::for_game::<G>()
                };
                let threads = args.threads.unwrap_or_else(cores);
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
            Command::Selfplay(args) => selfplay(
                *args,
                G::NAME,
                OpeningConfig::for_game::<G>(),
                self.rule_options,
            ),
            Command::Tune(args) => tune(*args, G::NAME),
            Command::Puzzles(args) => puzzles(*args, G::NAME, self.rule_options),
            Command::Replay { .. }
            | Command::Record { .. }
            | Command::Review(_)
            | Command::Rate { .. }
            | Command::Gui { .. }
            | Command::Merge { .. } => {
                unreachable!("replay, record, gui and merge are run before choosing a game")
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
    if let Some(level) = args.level {
        Skill::new(level)?;
        options.push(("Skill Level".to_string(), level.to_string()));
    }
    options.extend(args.options);
    let engines = EngineConfig::pair(
        [&args.engine1, &args.engine2],
        [args.name1, args.name2],
        [args.tc1.unwrap_or(args.tc), args.tc2.unwrap_or(args.tc)],
    )?;
    let config = MatchConfig {
        run: RunConfig {
            game: game.to_string(),
            openings: args.openings,
            seed: args.seed,
            shard: args.shard,
            concurrency: args.concurrency,
            adjudication: Adjudication {
                max_plies: args.max_moves,
                repetition_draw: !args.no_repetition_draw,
            },
            options,
            margin: Duration::from_millis(args.margin),
            timeout: Duration::from_secs(args.timeout),
            log: args.log,
            resume: args.resume,
            progress: !args.quiet,
        },
        engines,
        games: args.games,
        sprt: args.sprt,
    };
    let report = matches::run_match(&config)?;
    print!("{report}");
    Ok(())
}

/// `shove tournament`: as `shove match`, with the engines and their own settings.
fn tournament(
    args: TournamentArgs,
    game: &str,
    mut options: Vec<(String, String)>,
) -> Result<(), String> {
    if let Some(level) = args.level {
        Skill::new(level)?;
        options.push(("Skill Level".to_string(), level.to_string()));
    }
    options.extend(args.options);
    let config = TournamentConfig {
        run: RunConfig {
            game: game.to_string(),
            openings: args.openings,
            seed: args.seed,
            shard: args.shard,
            concurrency: args.concurrency,
            adjudication: Adjudication {
                max_plies: args.max_moves,
                repetition_draw: !args.no_repetition_draw,
            },
            options,
            margin: Duration::from_millis(args.margin),
            timeout: Duration::from_secs(args.timeout),
            log: args.log,
            resume: args.resume,
            progress: !args.quiet,
        },
        format: args.format,
        engines: TournamentConfig::engines(
            &args.engines,
            args.tc,
            &args.engine_tcs,
            &args.engine_options,
        )?,
        games_per_pair: args.games_per_pair,
        anchor: args.anchor,
    };
    let report = matches::run_tournament(&config)?;
    if args.json {
        println!("{}", report.to_json());
    } else {
        print!("{report}");
    }
    Ok(())
}

/// `shove review`: the limits checked as `analyze` checks them.
fn review(args: &ReviewArgs) -> Result<String, String> {
    cli::check_search_setup(args.depth, args.threads, args.hash)?;
    let limits = shove::search::Limits {
        depth: args.depth,
        movetime: args.movetime.map(Duration::from_millis),
        ..Default::default()
    };
    let settings = shove::review::ReviewSettings {
        limits,
        threads: args.threads,
        hash_megabytes: args.hash,
        confirmation_plies: args.confirm,
        json: args.json,
        progress: !args.quiet,
        watch: None,
    };
    shove::review::review_file(&args.file, args.number, &settings)
}

/// `shove selfplay`: prints the games and positions written, and positions/s.
fn selfplay(
    args: SelfplayArgs,
    game: &str,
    openings: OpeningConfig,
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
        openings,
        shard: args.shard,
        hash_megabytes: args.hash,
        evaluation: args.eval.kind,
        eval_file: args.eval.file,
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

/// `shove puzzles`: prints the puzzles written and the rates.
fn puzzles(
    args: PuzzlesArgs,
    game: &str,
    rule_options: Vec<(String, String)>,
) -> Result<(), String> {
    let out = args.out.ok_or("give --out FILE (or --check FILE)")?;
    let config = shove::puzzles::generate::GenerateConfig {
        game: game.to_string(),
        rule_options,
        from: args.from,
        out,
        count: args.count,
        max_per_rating: args.max_per_rating,
        budget: match args.nodes {
            Some(nodes) => Budget::Nodes(nodes),
            None => Budget::Depth(args.depth.unwrap_or(6)),
        },
        seed: args.seed,
        shard: args.shard,
        resume: args.resume,
        progress: !args.quiet,
    };
    let report = shove::puzzles::generate::generate(&config)?;
    let (candidates, kept) = report.rates();
    println!(
        "{} puzzles from {} candidate positions of {} games in {:.1} s: {candidates:.0} candidates/min, {kept:.1} puzzles/min{}",
        report.kept,
        report.candidates,
        report.games,
        report.seconds,
        if report.resumed > 0 {
            format!(" ({} puzzles were there before)", report.resumed)
        } else {
            String::new()
        }
    );
    Ok(())
}

/// `shove puzzles --check`: one line per problem, then a summary; failing if any.
fn check_puzzles(args: &PuzzlesArgs, game: Option<&str>) -> Result<(), String> {
    let path = args.check.as_deref().ok_or("no set to check")?;
    let threads = args.threads.unwrap_or_else(cores);
    let report = shove::puzzles::check::check_file(path, game, args.depth, threads)?;
    for error in &report.errors {
        println!("{}: {error}", path.display());
    }
    if report.errors.is_empty() {
        println!(
            "{}: {} {} puzzles, all good at depth {}",
            path.display(),
            report.puzzles,
            report.game,
            report.depth
        );
        Ok(())
    } else {
        Err(format!(
            "{}: {} of {} puzzle lines are bad (checked at depth {})",
            path.display(),
            report.errors.len(),
            report.puzzles,
            report.depth
        ))
    }
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

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
