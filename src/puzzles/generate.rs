//! `shove puzzles FROM… --out FILE`: puzzles from the positions of played games.
//!
//! A position is kept when the side to move has one move clearly best ([`Judge::only_move`]);
//! when a one-ply look already gives it away ([`obvious`]) only as an easy puzzle (rated at
//! or below level [`EASY_LEVEL`]'s Elo), a first lesson for a beginner. The solution goes on
//! through the opponent's best replies for as long as the solver's move stays the only good
//! one, and ends on a solver's move (lichess's generator does the same).
//!
//! `--balanced` sets keep the spread the players need: at least half the puzzles with two or
//! more solver moves that count ([`counts`]), and [`BAND_SHARE`] each at or below level
//! [`EASY_LEVEL`]'s Elo and at or above level [`HARD_LEVEL`]'s.
//!
//! The games are the units of work: shuffled by the seed, shard K of N takes the games
//! `g % N == K - 1`, in that order, and a game's puzzles are appended and flushed when the
//! game is done. `--resume` reads the file back and goes on after the last game it has a
//! puzzle from (games after it that gave none are looked at again: the same settings give
//! the same answers).

use super::format::{Puzzle, PuzzleFile, header_line, rules_text};
use super::judge::{Judge, counted, counts};
use super::sources::{self, SourceGame};
use super::taken::{self, Taken};
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
use rustc_hash::FxHashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Puzzles taken from one game at most, so that a set comes from many games.
pub const MAX_PER_GAME: usize = 2;
/// Moves of a solution at most (both sides).
pub const MAX_SOLUTION: usize = 12;
/// The level whose Elo and below is a `--balanced` set's easy band.
pub const EASY_LEVEL: usize = 5;
/// The level whose Elo and above is a `--balanced` set's hard band.
pub const HARD_LEVEL: usize = 15;
/// The share of a `--balanced` set each of the easy and the hard band has at least.
pub const BAND_SHARE: f64 = 0.15;
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
    /// The depth at which every solver move is also the only good one, and at which
    /// `--check` checks the set by default.
    pub check_depth: u32,
    /// Keep the spread of a set for players (the module's doc).
    pub balanced: bool,
    /// Keep only puzzles with two or more counted solver moves (the rest are not rated):
    /// how a set whose one-move half is full grows.
    pub multi_move: bool,
    /// Keep only puzzles in the hard band (rated at or above level [`HARD_LEVEL`]'s Elo):
    /// how a set whose hard band is short grows.
    pub hard: bool,
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
    vec![
        ("game".into(), G::NAME.into()),
        ("rules".into(), rules_text(&config.rule_options)),
        ("budget".into(), config.budget.to_string()),
        ("check_depth".into(), config.check_depth.to_string()),
        ("seed".into(), config.seed.to_string()),
        (
            "max_per_rating".into(),
            config.max_per_rating.map_or("-".into(), |n| n.to_string()),
        ),
        (
            "balanced".into(),
            if config.balanced { "yes" } else { "no" }.into(),
        ),
        (
            "multi_move".into(),
            if config.multi_move { "yes" } else { "no" }.into(),
        ),
        ("hard".into(), if config.hard { "yes" } else { "no" }.into()),
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

/// Where a `--balanced` set has room: puzzles of one band at most, with one counted solver
/// move at most. The caps leave any full set of `target` with at least [`BAND_SHARE`] of it
/// in each of the easy and the hard band, and at least half with two counted moves.
#[derive(Clone, Copy, Debug)]
struct Quota {
    target: usize,
    easy_elo: i32,
    hard_elo: i32,
    /// Puzzles kept: easy, middle, hard band; with one counted move.
    bands: [usize; 3],
    one_move: usize,
}

impl Quota {
    fn new<G: Profile>(target: usize) -> Self {
        Quota {
            target,
            easy_elo: G::LEVEL_ELO[EASY_LEVEL],
            hard_elo: G::LEVEL_ELO[HARD_LEVEL],
            bands: [0; 3],
            one_move: 0,
        }
    }

    fn band(&self, rating: i32) -> usize {
        if rating <= self.easy_elo {
            0
        } else if rating >= self.hard_elo {
            2
        } else {
            1
        }
    }

    /// Most puzzles of `band`: the easy and the hard band twice their share each, the
    /// middle the rest but three shares, so a full set has at least one share in each of
    /// the other two.
    fn cap(&self, band: usize) -> usize {
        let share = (self.target as f64 * BAND_SHARE).ceil() as usize;
        if band == 1 {
            self.target.saturating_sub(3 * share)
        } else {
            2 * share
        }
    }

    fn one_move_room(&self) -> bool {
        self.one_move < self.target / 2
    }

    fn room(&self, rating: i32, counted: usize) -> bool {
        let band = self.band(rating);
        self.bands[band] < self.cap(band) && (counted >= 2 || self.one_move_room())
    }

    fn add(&mut self, rating: i32, counted: usize) {
        let band = self.band(rating);
        self.bands[band] += 1;
        self.one_move += usize::from(counted < 2);
    }
}

fn run<G: Profile>(config: &GenerateConfig) -> Result<GenerateReport, String> {
    if config.count == 0 {
        return Err("--count must be at least 1".into());
    }
    if let Budget::Depth(0) | Budget::Nodes(0) = config.budget {
        return Err("the search budget must be at least depth 1 or 1 node".into());
    }
    if config.check_depth == 0 {
        return Err("the check depth must be at least 1".into());
    }
    if let Budget::Depth(d) = config.budget
        && config.check_depth > d
    {
        return Err(format!(
            "the check depth ({}) is deeper than the search ({d})",
            config.check_depth
        ));
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

    let mut taken = Taken::default();
    let mut per_rating = FxHashMap::default();
    let mut quota = Quota::new::<G>(target);
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
            let made = puzzle_line::<G>(puzzle, rules)
                .map_err(|e| format!("{}: line {line}: {e}", config.out.display()))?;
            quota.add(puzzle.rating, counted(&made.0, &made.1));
            taken.take(*line, &taken::positions(&made.0, &made.1));
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
        let made = puzzles_of_game(
            &mut judge,
            game,
            &sources.games[game],
            config,
            (config.multi_move || (config.balanced && !quota.one_move_room())).then_some(2),
            &mut taken,
            &mut report,
        );
        let mut puzzles = Vec::new();
        for (puzzle, counted) in made {
            if room(puzzle.rating, &per_rating)
                && (!config.hard || puzzle.rating >= G::LEVEL_ELO[HARD_LEVEL])
                && (!config.balanced || quota.room(puzzle.rating, counted))
            {
                *per_rating.entry(puzzle.rating).or_insert(0) += 1;
                quota.add(puzzle.rating, counted);
                puzzles.push(puzzle);
            }
        }
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

/// The puzzles of one game, at most [`MAX_PER_GAME`], each with its solver moves that count
/// ([`counts`]); with `min_counted`, only those with that many (the rest are not rated).
fn puzzles_of_game<G: Profile>(
    judge: &mut Judge<G>,
    game: usize,
    source: &SourceGame<G>,
    config: &GenerateConfig,
    min_counted: Option<usize>,
    taken: &mut Taken,
    report: &mut GenerateReport,
) -> Vec<(Puzzle, usize)> {
    let mut puzzles = Vec::new();
    for (ply, position) in source.positions.iter().enumerate() {
        if puzzles.len() >= MAX_PER_GAME {
            break;
        }
        if position.outcome().is_some()
            || !counts(position)
            || taken.start_is_taken(position.hash())
        {
            continue;
        }
        report.candidates += 1;
        let Some(made) = make(judge, position, config.budget, config.check_depth) else {
            continue;
        };
        // A candidate that is no near-duplicate takes its positions whether it is kept or
        // not, so that none of them is judged again.
        let positions = taken::positions(position, &made.solution);
        if taken.clash(&positions).is_some() {
            continue;
        }
        taken.take(game, &positions);
        let counted = counted(position, &made.solution);
        if min_counted.is_some_and(|least| counted < least) {
            continue;
        }
        let (_, elo) = rating::rate(judge, position, &made.solution);
        if made.obvious && elo > G::LEVEL_ELO[EASY_LEVEL] {
            continue;
        }
        let themes = themes::themes(position, &made.solution, made.score);
        puzzles.push((
            Puzzle {
                id: format!("{game:05}-{ply}"),
                position: position.to_string(),
                solution: made.solution.iter().map(ToString::to_string).collect(),
                rating: elo,
                themes,
            },
            counted,
        ));
    }
    puzzles
}

/// A solution found from a position, the first move's score, and whether a one-ply look
/// finds that move.
struct Made<M> {
    solution: Vec<M>,
    score: crate::search::Score,
    obvious: bool,
}

/// The puzzle at `start`, if it is one.
fn make<G: Profile>(
    judge: &mut Judge<G>,
    start: &G,
    budget: Budget,
    check_depth: u32,
) -> Option<Made<G::Move>> {
    let solver = start.to_move();
    let (first, score) = judge.only_move(start, &[], budget, check_depth)?;
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
            match judge.only_move(&position, &history, budget, check_depth) {
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
    Some(Made {
        obvious: obvious(start, first),
        solution,
        score,
    })
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
    fn a_full_balanced_set_has_its_bands_and_its_multi_move_half() {
        type G = crate::akiba::Position;
        let (easy, middle, hard) = (G::LEVEL_ELO[0], G::LEVEL_ELO[10], G::LEVEL_ELO[20]);
        // However the puzzles come, whatever has room is kept until the target is full.
        for order in [
            [middle, easy, hard],
            [hard, middle, easy],
            [easy, hard, middle],
        ] {
            let mut quota = Quota::new::<G>(100);
            let mut kept = Vec::new();
            'fill: for round in 0..1000 {
                for rating in order {
                    let counted = 1 + round % 2;
                    if kept.len() == 100 {
                        break 'fill;
                    }
                    if quota.room(rating, counted) {
                        quota.add(rating, counted);
                        kept.push((rating, counted));
                    }
                }
            }
            assert_eq!(kept.len(), 100);
            let count = |r: i32| kept.iter().filter(|k| k.0 == r).count();
            assert!(count(easy) >= 15 && count(hard) >= 15, "{kept:?}");
            assert!(kept.iter().filter(|k| k.1 >= 2).count() >= 50);
        }
    }

    #[test]
    fn ids_name_their_game() {
        assert_eq!(game_of_id("00042-17"), Some(42));
        assert_eq!(game_of_id("x"), None);
    }
}
