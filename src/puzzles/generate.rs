//! `shove puzzles FROM… --out FILE`: puzzles from the positions of played games.
//!
//! A position is kept when the side to move has one move clearly best ([`Judge::only_move`])
//! that a one-ply look does not already give away ([`obvious`]). The solution goes on
//! through the opponent's best replies for as long as the solver's move stays the only good
//! one, and ends on a solver's move (lichess's generator does the same).
//!
//! The games are the units of work: shuffled by the seed, shard K of N takes the games
//! `g % N == K - 1`, in that order, and a game's puzzles are appended and flushed when the
//! game is done. `--resume` reads the file back and goes on after the last game it has a
//! puzzle from (games after it that gave none are looked at again: the same settings give
//! the same answers).

use super::format::{Puzzle, PuzzleFile, header_line, rules_text};
use super::judge::{DEPTH_STEP, Judge};
use super::sources::{self, SourceGame};
use super::{rating, themes};
use crate::game::Game;
use crate::game::Outcome;
use crate::games::{GameVisitor, with_game};
use crate::nnue::choice;
use crate::pipeline::selfplay::Budget;
use crate::pipeline::shard::Shard;
use crate::profile::Profile;
use crate::search::MATE;
use crate::search_hints::SearchHints;
use rustc_hash::{FxHashMap, FxHashSet};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Puzzles taken from one game at most, so that a set comes from many games.
pub const MAX_PER_GAME: usize = 2;
/// Moves of a solution at most (both sides).
pub const MAX_SOLUTION: usize = 12;
/// How often progress is written when stderr is not a terminal.
const PROGRESS_EVERY: Duration = Duration::from_secs(60);

/// Everything `shove puzzles` is told to make a set.
#[derive(Clone, Debug)]
pub struct GenerateConfig {
    pub game: String,
    pub rule_options: Vec<(String, String)>,
    pub from: Vec<PathBuf>,
    pub out: PathBuf,
    /// Puzzles of the whole run (all shards together).
    pub count: usize,
    /// Puzzles of one rating at most (`None`: no limit), so that the easiest puzzles,
    /// which are the most common, leave room for harder ones.
    pub max_per_rating: Option<usize>,
    pub budget: Budget,
    pub seed: u64,
    pub shard: Shard,
    pub resume: bool,
    pub progress: bool,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GenerateReport {
    /// Games looked through in this run.
    pub games: usize,
    /// Positions searched.
    pub candidates: usize,
    /// Puzzles written in this run.
    pub kept: usize,
    /// Puzzles the file held before (`--resume`).
    pub resumed: usize,
    pub seconds: f64,
}

impl GenerateReport {
    /// Candidate positions and kept puzzles per minute.
    pub fn rates(&self) -> (f64, f64) {
        let minutes = (self.seconds / 60.0).max(1e-9);
        (self.candidates as f64 / minutes, self.kept as f64 / minutes)
    }
}

/// Makes the run's (or shard's) puzzles, appending them to `config.out`.
pub fn generate(config: &GenerateConfig) -> Result<GenerateReport, String> {
    with_game(&config.game, Run(config))?
}

struct Run<'a>(&'a GenerateConfig);

impl GameVisitor for Run<'_> {
    type Output = Result<GenerateReport, String>;
    fn visit<G: Profile>(self) -> Self::Output {
        run::<G>(self.0)
    }
}

/// The header settings of a run; a file is resumed only under the same ones.
fn settings<G: Game>(config: &GenerateConfig, games: usize) -> Vec<(String, String)> {
    let check_depth = match config.budget {
        Budget::Depth(d) => d.saturating_sub(DEPTH_STEP).max(1).to_string(),
        Budget::Nodes(_) => "-".into(),
    };
    vec![
        ("game".into(), G::NAME.into()),
        ("rules".into(), rules_text(&config.rule_options)),
        ("budget".into(), config.budget.to_string()),
        ("check_depth".into(), check_depth),
        ("seed".into(), config.seed.to_string()),
        (
            "max_per_rating".into(),
            config.max_per_rating.map_or("-".into(), |n| n.to_string()),
        ),
        ("games".into(), games.to_string()),
        ("shard".into(), config.shard.to_string()),
    ]
}

/// A permutation of `0..n` from `seed` (Fisher–Yates with splitmix64).
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut state = seed;
    let mut next = || {
        let (next_state, output) = crate::rng::splitmix(state);
        state = next_state;
        output
    };
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// The game a puzzle id names (`GGGGG-P`: game number, ply).
fn game_of_id(id: &str) -> Option<usize> {
    id.split_once('-')?.0.parse().ok()
}

fn run<G: Profile>(config: &GenerateConfig) -> Result<GenerateReport, String> {
    if config.count == 0 {
        return Err("--count must be at least 1".into());
    }
    if let Budget::Depth(0) | Budget::Nodes(0) = config.budget {
        return Err("the search budget must be at least depth 1 or 1 node".into());
    }
    let rules = crate::games::rules::<G>(&config.rule_options)?;
    let network = choice::resolve::<G>(None, None)?;
    let sources = sources::read::<G>(&config.from, rules)?;
    if sources.games.is_empty() {
        return Err(format!(
            "no {} games under these rules in the files ({} of other games or rules)",
            G::NAME,
            sources.skipped
        ));
    }
    let header = header_line(&settings::<G>(config, sources.games.len()));
    let order: Vec<usize> = shuffled(sources.games.len(), config.seed)
        .into_iter()
        .filter(|&g| config.shard.owns(g))
        .collect();
    let target = config.count.div_ceil(config.shard.count);

    let mut seen = FxHashSet::default();
    let mut per_rating = FxHashMap::default();
    let mut report = GenerateReport::default();
    let mut start_at = 0;
    let existing = std::fs::read_to_string(&config.out).unwrap_or_default();
    if !existing.trim().is_empty() {
        if !config.resume {
            return Err(format!(
                "{} already holds puzzles: add --resume to go on with it, or choose another file",
                config.out.display()
            ));
        }
        if existing.lines().next() != Some(header.as_str()) {
            return Err(format!(
                "{} was made with other settings or games: its first line is not\n{header}",
                config.out.display()
            ));
        }
        let file = PuzzleFile::parse(&existing);
        if let Some((line, e)) = file.errors.first() {
            return Err(format!("{}: line {line}: {e}", config.out.display()));
        }
        let mut last = None;
        for (line, puzzle) in &file.puzzles {
            let bad = || {
                format!(
                    "{}: line {line}: not a puzzle of this run",
                    config.out.display()
                )
            };
            let game = game_of_id(&puzzle.id).ok_or_else(bad)?;
            let index = order.iter().position(|&g| g == game).ok_or_else(bad)?;
            last = last.max(Some(index));
            *per_rating.entry(puzzle.rating).or_insert(0) += 1;
            remember(
                &puzzle_line::<G>(puzzle, rules)
                    .map_err(|e| format!("{}: line {line}: {e}", config.out.display()))?,
                &mut seen,
            );
        }
        report.resumed = file.puzzles.len();
        start_at = last.map_or(0, |i| i + 1);
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&config.out)
        .map_err(|e| format!("cannot open {}: {e}", config.out.display()))?;
    if existing.trim().is_empty() {
        writeln!(file, "{header}")
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", config.out.display()))?;
    }

    let mut judge = Judge::<G>::new(network);
    let started = Instant::now();
    let progress = crate::progress::progress_bar(config.progress, order.len() as u64, "games");
    progress.set_position(start_at as u64);
    let mut last_line = Instant::now();
    for &game in &order[start_at..] {
        if report.resumed + report.kept >= target {
            break;
        }
        let room = |rating: i32, per_rating: &FxHashMap<i32, usize>| {
            config
                .max_per_rating
                .is_none_or(|most| per_rating.get(&rating).copied().unwrap_or(0) < most)
        };
        let mut puzzles = puzzles_of_game(
            &mut judge,
            game,
            &sources.games[game],
            config.budget,
            &mut seen,
            &mut report,
        );
        puzzles.retain(|puzzle| {
            let kept = room(puzzle.rating, &per_rating);
            if kept {
                *per_rating.entry(puzzle.rating).or_insert(0) += 1;
            }
            kept
        });
        // The count is exact: the rest of the last game's puzzles are left out.
        puzzles.truncate(target.saturating_sub(report.resumed + report.kept));
        let mut text = String::new();
        for puzzle in &puzzles {
            text.push_str(&puzzle.to_string());
            text.push('\n');
        }
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", config.out.display()))?;
        report.kept += puzzles.len();
        report.games += 1;
        report.seconds = started.elapsed().as_secs_f64();
        let (candidates, kept) = report.rates();
        let message = format!(
            "{} puzzles of {target}, {} candidates: {candidates:.0} candidates/min, {kept:.1} puzzles/min",
            report.resumed + report.kept,
            report.candidates
        );
        progress.inc(1);
        progress.set_message(message.clone());
        if config.progress && progress.is_hidden() && last_line.elapsed() >= PROGRESS_EVERY {
            eprintln!(
                "{}/{} games: {message}",
                start_at + report.games,
                order.len()
            );
            last_line = Instant::now();
        }
    }
    progress.finish_and_clear();
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// The moves of a puzzle read under `rules`, checked by replaying them.
fn puzzle_line<G: Game>(puzzle: &Puzzle, rules: G::Rules) -> Result<(G, Vec<G::Move>), String> {
    let start =
        G::parse(&puzzle.position, rules).map_err(|e| format!("bad position string: {e}"))?;
    let mut position = start.clone();
    let mut moves = Vec::new();
    for (i, text) in puzzle.solution.iter().enumerate() {
        let mv = position
            .parse_move(text)
            .map_err(|e| format!("solution move {}: {e}", i + 1))?;
        position.play(mv);
        moves.push(mv);
    }
    Ok((start, moves))
}

/// Marks the start and every position of a kept solution as taken.
fn remember<G: Game>((start, moves): &(G, Vec<G::Move>), seen: &mut FxHashSet<u64>) {
    let mut position = start.clone();
    seen.insert(position.hash());
    for &mv in moves {
        position.play(mv);
        seen.insert(position.hash());
    }
}

/// The puzzles of one game, at most [`MAX_PER_GAME`].
fn puzzles_of_game<G: Profile>(
    judge: &mut Judge<G>,
    game: usize,
    source: &SourceGame<G>,
    budget: Budget,
    seen: &mut FxHashSet<u64>,
    report: &mut GenerateReport,
) -> Vec<Puzzle> {
    let mut puzzles = Vec::new();
    for (ply, position) in source.positions.iter().enumerate() {
        if puzzles.len() >= MAX_PER_GAME {
            break;
        }
        if position.outcome().is_some()
            || position.count_legal_moves() < 2
            || seen.contains(&position.hash())
        {
            continue;
        }
        report.candidates += 1;
        let Some(made) = make(judge, position, budget) else {
            continue;
        };
        let (_, elo) = rating::rate(judge, position, &made.solution);
        let themes = themes::themes(position, &made.solution, made.score);
        remember(&(position.clone(), made.solution.clone()), seen);
        puzzles.push(Puzzle {
            id: format!("{game:05}-{ply}"),
            position: position.to_string(),
            solution: made.solution.iter().map(ToString::to_string).collect(),
            rating: elo,
            themes,
        });
    }
    puzzles
}

/// A solution found from a position, and the first move's score.
struct Made<M> {
    solution: Vec<M>,
    score: crate::search::Score,
}

/// The puzzle at `start`, if it is one.
fn make<G: Profile>(judge: &mut Judge<G>, start: &G, budget: Budget) -> Option<Made<G::Move>> {
    let solver = start.to_move();
    let (first, score) = judge.only_move(start, &[], budget)?;
    if obvious(start, first) {
        return None;
    }
    let mut solution = vec![first];
    // How long the solution is when it ends on a solver's move that was a real choice.
    let mut good = 1;
    let mut position = start.clone();
    let mut history = vec![position.hash()];
    position.play(first);
    while solution.len() < MAX_SOLUTION && position.outcome().is_none() {
        let mv = if position.to_move() != solver {
            judge.best_move(&position, &history, budget)?
        } else if position.count_legal_moves() == 1 {
            let mut moves = crate::game::MoveList::new();
            position.legal_moves(&mut moves);
            moves[0]
        } else {
            match judge.only_move(&position, &history, budget) {
                Some((mv, _)) => {
                    good = solution.len() + 1;
                    mv
                }
                None => break,
            }
        };
        solution.push(mv);
        history.push(position.hash());
        position.play(mv);
        if position.outcome() == Some(Outcome::Win(solver)) {
            good = solution.len();
        }
    }
    solution.truncate(good);
    Some(Made { solution, score })
}

/// Whether a one-ply look finds `mv`: it is the only move with the best static evaluation
/// right after it (the mover's view; a win counts as the most).
pub fn obvious<G: SearchHints>(position: &G, mv: G::Move) -> bool {
    let mover = position.to_move();
    let mut moves = crate::game::MoveList::new();
    position.legal_moves(&mut moves);
    let score = |m: G::Move| {
        let mut child = position.clone();
        child.play(m);
        match child.outcome() {
            Some(Outcome::Win(p)) if p == mover => MATE,
            Some(Outcome::Win(_)) => -MATE,
            Some(Outcome::Draw) => 0,
            None if child.to_move() == mover => child.evaluate(),
            None => -child.evaluate(),
        }
    };
    let best = score(mv);
    moves.iter().all(|&m| m == mv || score(m) < best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shuffle_is_a_permutation_fixed_by_the_seed() {
        let a = shuffled(50, 7);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_eq!(a, shuffled(50, 7));
        assert_ne!(a, shuffled(50, 8));
    }

    #[test]
    fn ids_name_their_game() {
        assert_eq!(game_of_id("00042-17"), Some(42));
        assert_eq!(game_of_id("x"), None);
    }
}
