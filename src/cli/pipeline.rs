//! `shove selfplay`, `shove tune` and `shove puzzles`: the command line's settings become
//! the pipeline's, and its reports are printed.

use super::args::{PuzzlesArgs, SelfplayArgs, TuneArgs};
use crate::pipeline::openings::OpeningConfig;
use crate::pipeline::selfplay::{self, Budget, SelfplayConfig};
use crate::pipeline::tune::{TuneConfig, TuneRun};

/// `shove selfplay`: prints the games and positions written, and positions/s.
pub fn selfplay(
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
        concurrency: args.concurrency.unwrap_or_else(super::cores),
        adjudication: args.adjudication.rules(),
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
pub fn puzzles(
    args: PuzzlesArgs,
    game: &str,
    rule_options: Vec<(String, String)>,
) -> Result<(), String> {
    let out = args.out.ok_or("give --out FILE (or --check FILE)")?;
    let budget = match args.nodes {
        Some(nodes) => Budget::Nodes(nodes),
        None => Budget::Depth(args.depth.unwrap_or(6)),
    };
    let check_depth = args.check_depth.unwrap_or(match budget {
        Budget::Depth(d) => d,
        Budget::Nodes(_) => 4,
    });
    let config = crate::puzzles::generate::GenerateConfig {
        game: game.to_string(),
        rule_options,
        from: args.from,
        out,
        count: args.count,
        max_per_rating: args.max_per_rating,
        budget,
        check_depth,
        balanced: args.balanced,
        multi_move: args.multi_move,
        hard: args.hard,
        seed: args.seed,
        shard: args.shard,
        resume: args.resume,
        progress: !args.quiet,
    };
    let report = crate::puzzles::generate::generate(&config)?;
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
pub fn check_puzzles(args: &PuzzlesArgs, game: Option<&str>) -> Result<(), String> {
    let path = args.check.as_deref().ok_or("no set to check")?;
    let threads = args.threads.unwrap_or_else(super::cores);
    let rewrite = args.rewrite.as_deref();
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file = crate::puzzles::format::PuzzleFile::parse(&text);
    let report =
        crate::puzzles::check::check_set(&file, game, args.depth, threads, rewrite.is_some())
            .map_err(|e| format!("{}: {e}", path.display()))?;
    for error in &report.errors {
        println!("{}: {error}", path.display());
    }
    if let Some(out) = rewrite {
        std::fs::write(out, crate::puzzles::check::rewrite(&text, &file, &report))
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        println!(
            "{}: {} of {} {} puzzles good at depth {} and rated again ({} with two or more solver moves that count), {} left out",
            out.display(),
            report.good.len(),
            report.puzzles,
            report.game,
            report.depth,
            report.multi_move,
            report.puzzles - report.good.len()
        );
        return Ok(());
    }
    if report.errors.is_empty() {
        println!(
            "{}: {} {} puzzles, all good at depth {} ({} with two or more solver moves that count)",
            path.display(),
            report.puzzles,
            report.game,
            report.depth,
            report.multi_move
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
pub fn tune(args: TuneArgs, game: &str) -> Result<(), String> {
    let run = TuneRun {
        game: game.to_string(),
        data: args.data,
        config: TuneConfig {
            lambda: args.lambda,
            epochs: args.epochs,
            learning_rate: args.learning_rate,
            max_score: args.max_score,
            quiet_only: !args.all_positions,
            threads: args.threads.unwrap_or_else(super::cores),
            ..TuneConfig::default()
        },
        out: args.out,
        progress: !args.quiet,
    };
    print!("{}", crate::pipeline::tune::run_tune(&run)?);
    Ok(())
}
