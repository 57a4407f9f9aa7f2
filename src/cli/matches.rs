//! `shove match` and `shove tournament`: the command line's settings become the runner's.

use super::args::{MatchArgs, RunArgs, TournamentArgs};
use crate::matches::{self, EngineConfig, MatchConfig, RunConfig, TournamentConfig};
use crate::search::Skill;
use std::time::Duration;

impl RunArgs {
    /// The run's settings for `game`: the rule flags' options (`rule_options`, which the
    /// referee applies too), then the level and options given for every engine.
    fn config(
        self,
        game: &str,
        mut rule_options: Vec<(String, String)>,
    ) -> Result<RunConfig, String> {
        if let Some(level) = self.level {
            Skill::new(level)?;
            rule_options.push(("Skill Level".to_string(), level.to_string()));
        }
        rule_options.extend(self.options);
        Ok(RunConfig {
            game: game.to_string(),
            openings: self.openings,
            seed: self.seed,
            shard: self.shard,
            concurrency: self.concurrency,
            adjudication: self.adjudication.rules(),
            options: rule_options,
            margin: Duration::from_millis(self.margin),
            timeout: Duration::from_secs(self.timeout),
            log: self.log,
            resume: self.resume,
            progress: !self.quiet,
        })
    }
}

/// `shove match`: the rule flags become rule options of both engines and the referee.
pub fn play_match(
    args: MatchArgs,
    game: &str,
    rule_options: Vec<(String, String)>,
) -> Result<(), String> {
    let engines = EngineConfig::pair(
        [&args.engine1, &args.engine2],
        [args.name1, args.name2],
        [args.tc1.unwrap_or(args.tc), args.tc2.unwrap_or(args.tc)],
    )?;
    let config = MatchConfig {
        run: args.run.config(game, rule_options)?,
        engines,
        games: args.games,
        sprt: args.sprt,
    };
    let report = matches::run_match(&config)?;
    print!("{report}");
    Ok(())
}

/// `shove tournament`: as `shove match`, with the engines and their own settings.
pub fn tournament(
    args: TournamentArgs,
    game: &str,
    rule_options: Vec<(String, String)>,
) -> Result<(), String> {
    let config = TournamentConfig {
        run: args.run.config(game, rule_options)?,
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
