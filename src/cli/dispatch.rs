//! Which game a command runs for (the subcommand's `--game`, else the one before it, else
//! the one a network names, else Akiba), and the command run for it. With no subcommand,
//! the engine protocol on stdin/stdout (protocol.md).

use super::args::{Args, Command, EvalArgs, GameArg, RuleArgs};
use super::{matches, pipeline};
use crate::akiba;
use crate::game::Game;
use crate::games::{GameVisitor, with_game};
use crate::pipeline::merge;
use crate::pipeline::openings::OpeningConfig;
use crate::players::BotKind;
use crate::profile::Profile;
use crate::search::{ParamChanges, Skill};
use std::path::Path;

/// Chooses the game (the subcommand's `--game`, else the one before it, else Akiba) and
/// refuses flags before the subcommand that it does not take.
pub fn run(args: Args) -> Result<(), String> {
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
    // A command that takes `--game` and the rule flags itself: its own, else those before it.
    let own = |game: &GameArg, rules: &RuleArgs| {
        (
            merge_game(game, &outer_game),
            rules.clone().or(outer_rules.clone()),
        )
    };
    // A command whose input names its game and rules takes neither before it.
    let from_input =
        |command: &str, because: &str| named_by_input(&outer_game, &outer_rules, command, because);
    let (game, rules) = match &command {
        None => (outer_game, outer_rules),
        Some(
            Command::Perft { position, .. }
            | Command::Show { position, .. }
            | Command::Analyze { position, .. },
        ) => own(&position.game, &position.rules),
        Some(Command::Match(args)) => own(&args.game, &args.rules),
        Some(Command::Tournament(args)) => own(&args.game, &args.rules),
        Some(Command::Openings(args)) => own(&args.game, &args.rules),
        Some(Command::Selfplay(args)) => own(&args.game, &args.rules),
        // A set names its game and rules.
        Some(Command::Puzzles(args)) if args.check.is_some() => {
            let (game, rules) = own(&args.game, &args.rules);
            no_rule_flags(&rules, "puzzles --check")?;
            return pipeline::check_puzzles(args, game.name.as_deref());
        }
        Some(Command::Puzzles(args)) => own(&args.game, &args.rules),
        Some(Command::Tune(args)) => {
            no_rule_flags(&outer_rules, "tune")?;
            (merge_game(&args.game, &outer_game), RuleArgs::default())
        }
        // Each input names its own game and settings.
        Some(Command::Merge { files, out }) => {
            from_input("merge", "the inputs name their game")?;
            return merge::merge(files, out.as_deref()).map(|text| print!("{text}"));
        }
        Some(Command::Bench { game, .. }) => {
            no_rule_flags(&outer_rules, "bench")?;
            (merge_game(game, &outer_game), RuleArgs::default())
        }
        Some(Command::Params { game }) => {
            no_rule_flags(&outer_rules, "params")?;
            (merge_game(game, &outer_game), RuleArgs::default())
        }
        // A log names the game and rules of each of its lines.
        Some(Command::Replay { file, number }) => {
            from_input("replay", "the log names each game")?;
            return crate::matches::log::replay_file(file, *number);
        }
        // A record or log names its game and rules.
        Some(Command::Record { file, number }) => {
            from_input("record", "the file names the game")?;
            return crate::record::load(file, *number).map(|record| print!("{record}"));
        }
        Some(Command::Review(args)) => {
            from_input("review", "the file names the game")?;
            return super::review(args).map(|text| print!("{text}"));
        }
        // The logs name the players and games.
        Some(Command::Rate { files, anchor }) => {
            from_input("rate", "the logs name their games")?;
            return crate::matches::rating::rate_logs(files, anchor.as_deref())
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
            from_input("gui", "the page chooses the game")?;
            return crate::gui::run(crate::gui::GuiConfig {
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
        (None, Some(file)) => crate::nnue::choice::game_of(file)?,
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

/// A command whose input names its game and rules (`because` says how, or the page chooses
/// them): `--game` and the rule flags before it would be ignored, so they are refused.
fn named_by_input(
    game: &GameArg,
    rules: &RuleArgs,
    command: &str,
    because: &str,
) -> Result<(), String> {
    no_rule_flags(rules, command)?;
    if game.name.is_some() {
        return Err(format!("--game does not apply to '{command}': {because}"));
    }
    Ok(())
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

    fn visit<G: Profile>(self) -> Result<(), String> {
        let Some(command) = self.command else {
            // Protocol mode keeps a network of another game for when that game is chosen;
            // on the command line, `--game` and the file must agree.
            if let Some(file) = &self.eval.file {
                let game = crate::nnue::choice::game_of(file)?;
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
            return crate::uci::run_stdio(&options, self.player);
        };
        let rules = || crate::games::rules::<G>(&self.rule_options);
        match command {
            Command::Perft {
                position,
                depth,
                divide,
            } => super::perft::<G>(rules()?, position.fen.as_deref(), depth, divide),
            Command::Show { position } => super::show::<G>(rules()?, position.fen.as_deref()),
            Command::Analyze {
                position,
                moves,
                depth,
                movetime,
                hash,
                threads,
                level,
                eval,
            } => super::analyze::<G>(
                rules()?,
                position.fen.as_deref(),
                moves.as_deref(),
                depth,
                movetime,
                super::SearcherSetup {
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
            } => super::bench::<G>(depth, threads, eval.network::<G>()?, &mut std::io::stdout()),
            Command::Params { .. } => super::params::<G>(&mut std::io::stdout()),
            Command::Match(match_args) => {
                matches::play_match(*match_args, G::NAME, self.rule_options)
            }
            Command::Tournament(args) => matches::tournament(*args, G::NAME, self.rule_options),
            Command::Openings(args) => {
                let config = OpeningConfig {
                    plies: args.plies,
                    depth: args.depth,
                    max_score: args.max_score.unwrap_or(G::BALANCED_SCORE),
                    max_nodes: args.max_nodes,
                    ..OpeningConfig::for_game::<G>()
                };
                let threads = args.threads.unwrap_or_else(super::cores);
                let trials = match args.trials {
                    0 => None,
                    games => Some(super::opening_trials(
                        games,
                        args.trial_nodes,
                        args.trial_wins,
                        args.eval.network::<G>()?,
                        args.adjudication.rules(),
                    )?),
                };
                let command = command_line();
                super::openings::<G>(
                    rules()?,
                    &args.starts,
                    args.starts_file.as_deref(),
                    &config,
                    trials.as_ref(),
                    args.count,
                    args.seed,
                    threads,
                    &command,
                    args.out.as_deref(),
                )
            }
            Command::Selfplay(args) => pipeline::selfplay(
                *args,
                G::NAME,
                OpeningConfig::for_game::<G>(),
                self.rule_options,
            ),
            Command::Tune(args) => pipeline::tune(*args, G::NAME),
            Command::Puzzles(args) => pipeline::puzzles(*args, G::NAME, self.rule_options),
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
