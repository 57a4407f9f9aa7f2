//! `shove puzzles --check FILE`: every line a puzzle, every solution legal and ending on the
//! solver's move, every solver move (where there is a choice) still the only good one at the
//! check depth, at least one of them a real choice, every theme a known one, none a
//! near-duplicate of an earlier good one ([`Taken`]; so `--rewrite` cleans a joined set).
//! All problems are reported, each with its line. With `rerate`, every good puzzle is also
//! rated again by the levels as they play now, so that a set outlives a new network or
//! search (`--rewrite`).

use super::format::{Puzzle, PuzzleFile, parse_rules_text};
use super::judge::{Judge, MIN_CHOICES, counts, unique};
use super::rating;
use super::taken::{self, Taken};
use super::themes::THEMES;
use crate::games::{GameVisitor, with_game};
use crate::nnue::choice;
use crate::profile::Profile;
use std::collections::{HashMap, HashSet};

/// What a check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    pub game: String,
    pub depth: u32,
    /// Puzzle lines read.
    pub puzzles: usize,
    /// `line N: reason`, in line order.
    pub errors: Vec<String>,
    /// Good puzzles with two or more solver moves that count ([`counts`]).
    pub multi_move: usize,
    /// The line of every good puzzle, with its new rating when the check rated them again.
    pub good: Vec<(usize, Option<i32>)>,
}

/// Checks the set `file`. The game is `game`, else the one the set's header names; the
/// rules are the header's (none: the defaults); the depth is `depth`, else the header's
/// `check_depth`. `Err` only when the set cannot be checked at all.
pub fn check_set(
    file: &PuzzleFile,
    game: Option<&str>,
    depth: Option<u32>,
    threads: usize,
    rerate: bool,
) -> Result<CheckReport, String> {
    let game = match (game, file.get("game")) {
        (Some(given), Some(named)) if !given.eq_ignore_ascii_case(named) => {
            return Err(format!("a set of {named} puzzles, not of {given}"));
        }
        (Some(name), _) | (None, Some(name)) => name.to_string(),
        (None, None) => {
            return Err("the set names no game (no '# shove puzzles' header): give --game".into());
        }
    };
    let depth = match (depth, file.get("check_depth").map(str::parse::<u32>)) {
        (Some(d), _) | (None, Some(Ok(d))) => d,
        _ => return Err("the set names no check depth: give --depth".into()),
    };
    if depth == 0 {
        return Err("the check depth must be at least 1".into());
    }
    with_game(
        &game,
        Check {
            file,
            depth,
            threads: threads.max(1),
            rerate,
        },
    )?
}

struct Check<'a> {
    file: &'a PuzzleFile,
    depth: u32,
    threads: usize,
    rerate: bool,
}

impl GameVisitor for Check<'_> {
    type Output = Result<CheckReport, String>;

    fn visit<G: Profile>(self) -> Self::Output {
        let options = parse_rules_text(self.file.get("rules").unwrap_or("-"))?;
        let rules = crate::games::rules::<G>(&options)?;
        let network = choice::resolve::<G>(None, None)?;
        let puzzles = &self.file.puzzles;
        let chunk = puzzles.len().div_ceil(self.threads).max(1);
        let mut found: Vec<(usize, String)> = self.file.errors.clone();
        let mut multi_move = 0;
        let mut good = Vec::new();
        std::thread::scope(|scope| {
            let workers: Vec<_> = puzzles
                .chunks(chunk)
                .map(|part| {
                    let network = network.clone();
                    scope.spawn(move || {
                        let mut judge = Judge::<G>::new(network);
                        let mut errors = Vec::new();
                        let mut good = Vec::new();
                        for (line, puzzle) in part {
                            match check_puzzle(&mut judge, puzzle, rules, self.depth) {
                                Ok(checked) => {
                                    let rating = self.rerate.then(|| {
                                        rating::rate(&mut judge, &checked.start, &checked.moves).1
                                    });
                                    let positions =
                                        taken::positions(&checked.start, &checked.moves);
                                    good.push((*line, rating, checked.counted >= 2, positions));
                                }
                                Err(e) => {
                                    errors.push((*line, format!("puzzle {}: {e}", puzzle.id)))
                                }
                            }
                        }
                        (errors, good)
                    })
                })
                .collect();
            for worker in workers {
                match worker.join() {
                    Ok((errors, kept)) => {
                        found.extend(errors);
                        good.extend(kept);
                    }
                    Err(_) => found.push((0, "a check thread failed".into())),
                }
            }
        });
        good.sort();
        let ids: HashMap<usize, &str> = puzzles
            .iter()
            .map(|(line, p)| (*line, p.id.as_str()))
            .collect();
        let mut taken = Taken::default();
        let mut kept = Vec::new();
        for (line, rating, multi, positions) in good {
            match taken.clash(&positions) {
                Some(earlier) => found.push((
                    line,
                    format!(
                        "puzzle {}: a near-duplicate of puzzle {} (line {earlier}): one's start is the other's or along its solution",
                        ids.get(&line).unwrap_or(&"?"),
                        ids.get(&earlier).unwrap_or(&"?")
                    ),
                )),
                None => {
                    taken.take(line, &positions);
                    multi_move += usize::from(multi);
                    kept.push((line, rating));
                }
            }
        }
        found.sort();
        Ok(CheckReport {
            game: G::NAME.to_string(),
            depth: self.depth,
            puzzles: puzzles.len() + self.file.errors.len(),
            errors: found
                .into_iter()
                .map(|(line, e)| format!("line {line}: {e}"))
                .collect(),
            multi_move,
            good: kept,
        })
    }
}

/// The set's text (`file` read from it) again with only its good puzzles, each with the
/// rating the check gave it (its old one if it was not rated again), and every comment and
/// header line as it was: a line that is neither a puzzle nor a bad line stays.
pub fn rewrite(text: &str, file: &PuzzleFile, report: &CheckReport) -> String {
    let good: HashMap<usize, Option<i32>> = report.good.iter().copied().collect();
    let puzzles: HashMap<usize, &Puzzle> =
        file.puzzles.iter().map(|(line, p)| (*line, p)).collect();
    let bad: HashSet<usize> = file.errors.iter().map(|(line, _)| *line).collect();
    let mut out = String::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        match (puzzles.get(&number), good.get(&number)) {
            (Some(puzzle), Some(rating)) => {
                let mut puzzle = (*puzzle).clone();
                puzzle.rating = rating.unwrap_or(puzzle.rating);
                out.push_str(&puzzle.to_string());
            }
            (Some(_), None) => continue,
            (None, _) if bad.contains(&number) => continue,
            (None, _) => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// A puzzle that passed: its solver moves that count, and its start and moves as played.
pub struct Checked<G: Profile> {
    pub counted: usize,
    pub start: G,
    pub moves: Vec<G::Move>,
}

/// Checks one puzzle, or says what is wrong with it.
pub fn check_puzzle<G: Profile>(
    judge: &mut Judge<G>,
    puzzle: &Puzzle,
    rules: G::Rules,
    depth: u32,
) -> Result<Checked<G>, String> {
    let known = |theme: &str| {
        THEMES
            .iter()
            .filter(|(game, _)| *game == "all" || *game == G::NAME)
            .any(|(_, themes)| themes.contains(&theme))
    };
    if let Some(theme) = puzzle.themes.iter().find(|t| !known(t)) {
        return Err(format!("'{theme}' is not a theme of {}", G::NAME));
    }
    let mut position =
        G::parse(&puzzle.position, rules).map_err(|e| format!("bad position string: {e}"))?;
    if position.outcome().is_some() {
        return Err("the game is already over in the position".into());
    }
    let start = position.clone();
    let solver = position.to_move();
    let mut history = Vec::new();
    let mut moves = Vec::new();
    let mut last_mover = solver;
    let mut counted = 0;
    for (i, text) in puzzle.solution.iter().enumerate() {
        if position.outcome().is_some() {
            return Err(format!(
                "solution move {} '{text}' comes after the game is over",
                i + 1
            ));
        }
        let mv = position
            .parse_move(text)
            .map_err(|e| format!("solution move {}: {e}", i + 1))?;
        last_mover = position.to_move();
        if last_mover == solver && position.count_legal_moves() > 1 {
            let lines = judge
                .lines_at(&position, &history, depth)
                .ok_or_else(|| format!("solution move {}: no search result", i + 1))?;
            if lines.best.0 != mv {
                return Err(format!(
                    "solution move {} '{text}' is not the best at depth {depth}: {} ({}) is",
                    i + 1,
                    lines.best.0,
                    lines.best.1
                ));
            }
            if !unique(&lines) {
                let (second, score) = lines
                    .second
                    .map_or(("none".into(), String::new()), |(m, s)| {
                        (m.to_string(), format!(" ({s})"))
                    });
                return Err(format!(
                    "solution move {} '{text}' ({}) is not the only good move at depth {depth}: {second}{score} is close",
                    i + 1,
                    lines.best.1
                ));
            }
            counted += usize::from(counts(&position));
        }
        history.push(position.hash());
        position.play(mv);
        moves.push(mv);
    }
    if last_mover != solver {
        return Err("the solution ends on the opponent's move, not the solver's".into());
    }
    if counted == 0 {
        return Err(format!(
            "the puzzle is a guess: no solver move has {MIN_CHOICES} or more legal moves to choose from"
        ));
    }
    Ok(Checked {
        counted,
        start,
        moves,
    })
}
