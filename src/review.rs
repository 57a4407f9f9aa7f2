//! Game review (`shove review`): every position of a game searched, each move judged by how
//! much it lowered the mover's winning chance, and each player's accuracy — lichess's
//! computer analysis, for every game (docs/review.md).
//!
//! Winning chances are `sigmoid(K · score)` with the game's own K
//! ([`Profile::RESULT_SCALE`]), so a position already lost cannot lose much more and a drop of
//! a hundred units matters most in a balanced position. Scores are from the side to move's
//! view; with extra moves the same player may move twice in a row, so every score is turned
//! to the mover's view by asking the position whose decision it is, never by alternation.

use crate::game::{Outcome, Player};
use crate::games::{GameVisitor, with_game};
use crate::nnue::Network;
use crate::phrase::{Phrase, Phrased};
use crate::profile::Profile;
use crate::record::Record;
use crate::search::{Limits, Score, Searcher};
use serde::Serialize;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A drop of the mover's winning chance (in percentage points, 0..100) of at least this
/// marks a move `?!`, `?` or `??` (lichess's thresholds: 0.1, 0.2 and 0.3 on its −1..1
/// scale).
pub const THRESHOLDS: [(f64, Mark); 3] = [
    (15.0, Mark::Blunder),
    (10.0, Mark::Mistake),
    (5.0, Mark::Inaccuracy),
];

/// How bad a move was.
/// Ordered by severity: `?!` < `?` < `??`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Mark {
    #[serde(rename = "?!")]
    Inaccuracy,
    #[serde(rename = "?")]
    Mistake,
    #[serde(rename = "??")]
    Blunder,
}

impl Mark {
    pub fn text(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// An evaluation from one player's view: the search's score (`mate N`: the player wins,
/// N > 0, or loses, N < 0, in |N| moves), or the result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    Cp(i32),
    Mate(i32),
    /// The game is over: the result from this player's view, 1 win, 0 draw, −1 loss.
    Over(i8),
}

impl Eval {
    fn from_score(score: Score) -> Eval {
        match score {
            Score::Cp(cp) => Eval::Cp(cp),
            Score::Mate(n) => Eval::Mate(n),
        }
    }

    fn from_outcome(outcome: Outcome, view: Player) -> Eval {
        Eval::Over(match outcome {
            Outcome::Win(p) if p == view => 1,
            Outcome::Win(_) => -1,
            Outcome::Draw => 0,
        })
    }

    /// The same evaluation from the other player's view.
    fn flip(self) -> Eval {
        match self {
            Eval::Cp(cp) => Eval::Cp(-cp),
            Eval::Mate(n) => Eval::Mate(-n),
            Eval::Over(r) => Eval::Over(-r),
        }
    }

    /// Winning chance in percent (0..100): a draw-free expected result, as lichess's win%.
    pub fn win_percent(self, scale: f64) -> f64 {
        match self {
            Eval::Cp(cp) => 100.0 / (1.0 + (-scale * f64::from(cp)).exp()),
            Eval::Mate(n) if n > 0 => 100.0,
            Eval::Mate(_) => 0.0,
            Eval::Over(result) => 50.0 + 50.0 * f64::from(result),
        }
    }
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eval::Cp(cp) => write!(f, "{:+.2}", f64::from(*cp) / 100.0),
            Eval::Mate(n) => write!(f, "#{n}"),
            Eval::Over(1) => write!(f, "won"),
            Eval::Over(0) => write!(f, "drawn"),
            Eval::Over(_) => write!(f, "lost"),
        }
    }
}

/// One move of the game, judged.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReview {
    /// 1-based, counting every move.
    pub ply: usize,
    /// Who decided it, 1 or 2.
    pub mover: u8,
    #[serde(rename = "move")]
    pub mv: String,
    /// The position before the move, searched, from the mover's view.
    pub before: Eval,
    /// The position after it, from the mover's view.
    pub after: Eval,
    /// The mover's winning chance (percent) before and after.
    pub win_before: f64,
    pub win_after: f64,
    /// The search's choice, when it differs from the move played.
    pub best: Option<String>,
    pub mark: Option<Mark>,
    /// The move was `?` or `??` at the review's search and a deeper one judged it milder:
    /// `before` and `after` are the deeper search's.
    pub rechecked: bool,
    /// Lichess's move accuracy (0..100) from the drop of winning chance.
    pub accuracy: f64,
}

/// A player's summary.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerReview {
    pub name: String,
    /// Lichess's game accuracy (0..100); `None` without moves.
    pub accuracy: Option<f64>,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
}

/// The review of a whole game.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    pub game: String,
    /// The search behind every evaluation, e.g. `depth 8`.
    pub search: String,
    pub moves: Vec<MoveReview>,
    pub players: [PlayerReview; 2],
}

/// How to search each position.
#[derive(Clone)]
pub struct ReviewConfig {
    pub limits: Limits,
    pub threads: usize,
    pub hash_megabytes: usize,
    /// `None`: the classical evaluation.
    pub network: Option<Arc<Network>>,
    /// Where a watcher can stop the review, the search running included.
    pub watch: Option<Arc<ReviewWatch>>,
    /// How many plies deeper a `?` or `??` is searched again before it stands
    /// ([`Profile::REVIEW_CONFIRMATION`]; 0: marks stand as found).
    pub confirmation_plies: u32,
}

/// Reviews `record`, a game of `G`; `progress` is told after each position searched
/// (positions done, positions in all) and stops the review by answering `false`. Without
/// a depth or a movetime each position is searched to [`Profile::REVIEW_DEPTH`].
pub fn review<G: Profile>(
    record: &Record,
    config: &ReviewConfig,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Review, Phrase> {
    let mut limits = config.limits;
    if limits.depth.is_none() && limits.movetime.is_none() && limits.nodes.is_none() {
        limits.depth = Some(G::REVIEW_DEPTH);
    }
    let positions = record.positions::<G>().map_err(|e| e.phrase())?;
    let mut searcher = Searcher::<G>::new(0);
    searcher.set_threads(config.threads);
    searcher
        .set_hash(config.hash_megabytes)
        .map_err(Phrase::plain)?;
    searcher.set_network(config.network.clone());
    if let Some(watch) = &config.watch {
        *watch.search.lock().unwrap_or_else(|e| e.into_inner()) = Some(searcher.stop_flag());
    }
    // Each position's evaluation (side to move's view) and the search's best move.
    let search_at = |searcher: &mut Searcher<G>, index: usize, limits: &Limits| {
        let position = &positions[index];
        match position.outcome() {
            Some(outcome) => (Eval::from_outcome(outcome, position.to_move()), None),
            None => {
                let history: Vec<u64> = positions[..index].iter().map(|p| p.hash()).collect();
                let result = searcher.search(position, &history, limits, 1, &mut |_| {});
                (Eval::from_score(result.score), result.best)
            }
        }
    };
    let mut evals: Vec<(Eval, Option<G::Move>)> = Vec::with_capacity(positions.len());
    for index in 0..positions.len() {
        evals.push(search_at(&mut searcher, index, &limits));
        if !progress(index + 1, positions.len()) {
            return Err(cancelled());
        }
    }
    let judge_move = |ply: usize, before: (Eval, Option<G::Move>), next: Eval| {
        judge(
            &positions[ply],
            &positions[ply + 1],
            &record.moves[ply],
            ply,
            before,
            next,
        )
    };
    let mut moves = Vec::with_capacity(record.moves.len());
    for ply in 0..record.moves.len() {
        moves.push(judge_move(ply, evals[ply], evals[ply + 1].0)?);
    }
    // A mistake or blunder stands only if a deeper search confirms it: the move is judged
    // again with both positions searched `confirmation_plies` deeper and keeps the milder
    // verdict. Searches of one depth find a mate at one position and miss it at the next,
    // and a lost position scored near 10% falls to 0% when the next search sees the mate:
    // such marks do not survive a deeper search, a real error's does (docs/review.md).
    let deeper = deeper_limits(&limits, config.confirmation_plies);
    let mut confirmed: Vec<Option<(Eval, Option<G::Move>)>> = vec![None; positions.len()];
    for ply in 0..moves.len() {
        if config.confirmation_plies == 0 || moves[ply].mark < Some(Mark::Mistake) {
            continue;
        }
        for index in [ply, ply + 1] {
            if confirmed[index].is_none() {
                confirmed[index] = Some(search_at(&mut searcher, index, &deeper));
                if !progress(positions.len(), positions.len()) {
                    return Err(cancelled());
                }
            }
        }
        if let (Some(before), Some((next, _))) = (confirmed[ply], confirmed[ply + 1]) {
            let again = judge_move(ply, before, next)?;
            if again.mark < moves[ply].mark {
                moves[ply] = MoveReview {
                    rechecked: true,
                    ..again
                };
            }
        }
    }
    // Player 1's winning chance through the game, for the volatility weights.
    let curve: Vec<f64> = positions
        .iter()
        .zip(&evals)
        .map(|(position, &(eval, _))| match position.to_move() {
            Player::One => eval.win_percent(G::RESULT_SCALE),
            Player::Two => eval.flip().win_percent(G::RESULT_SCALE),
        })
        .collect();
    let players = [Player::One, Player::Two].map(|player| {
        let name = record.players[player.index()].clone();
        player_review(name, player, &moves, &curve)
    });
    let search = match (limits.depth, limits.movetime) {
        (Some(depth), _) => format!("depth {depth}"),
        (None, Some(time)) => format!("movetime {} ms", time.as_millis()),
        (None, None) => "default".to_string(),
    };
    Ok(Review {
        game: G::NAME.to_string(),
        search,
        moves,
        players,
    })
}

/// The move `text`, played at `ply` from `position` to `next`, judged from the search of
/// `position` (its evaluation from the side to move's view and best move) and the
/// evaluation of `next` (from its side to move's view).
fn judge<G: Profile>(
    position: &G,
    next: &G,
    text: &str,
    ply: usize,
    (before, best): (Eval, Option<G::Move>),
    next_eval: Eval,
) -> Result<MoveReview, Phrase> {
    let mover = position.to_move();
    let after = match next.outcome() {
        Some(outcome) => Eval::from_outcome(outcome, mover),
        None if next.to_move() == mover => next_eval,
        None => next_eval.flip(),
    };
    let played = position.parse_move(text).map_err(|e| {
        Phrase::new("move {n}: {reason}")
            .with("n", ply + 1)
            .with_phrase("reason", e.phrase())
    })?;
    let best = best.filter(|&b| b != played);
    let scale = G::RESULT_SCALE;
    let (win_before, win_after) = (before.win_percent(scale), after.win_percent(scale));
    let drop = (win_before - win_after).max(0.0);
    // A forced win given away is judged by its drop like any move (a mate is 100%): a
    // position still clearly won is no blunder. The search's own choice is never marked.
    let mark = if best.is_none() {
        None
    } else {
        THRESHOLDS
            .iter()
            .find(|(threshold, _)| drop >= *threshold)
            .map(|&(_, mark)| mark)
    };
    Ok(MoveReview {
        ply: ply + 1,
        mover: mover.index() as u8 + 1,
        mv: played.to_string(),
        before,
        after,
        win_before,
        win_after,
        best: best.map(|b| b.to_string()),
        mark,
        rechecked: false,
        accuracy: move_accuracy(win_before, win_after),
    })
}

/// The search that confirms a mark: `plies` deeper, or for a time or node limit twice as
/// much per ply.
fn deeper_limits(limits: &Limits, plies: u32) -> Limits {
    let factor = 1u32 << plies.min(8);
    Limits {
        depth: limits.depth.map(|d| d + plies),
        movetime: limits.movetime.map(|t| t * factor),
        nodes: limits.nodes.map(|n| n.saturating_mul(u64::from(factor))),
        ..*limits
    }
}

/// `shove review FILE`: the game in `path` (a record, or game `number` of a match log)
/// reviewed under the default evaluation of its game, as text or as JSON; a progress bar on
/// stderr when `progress` and stderr is a terminal.
pub fn review_file(
    path: &std::path::Path,
    number: Option<usize>,
    config: &ReviewSettings,
) -> Result<String, String> {
    let record = crate::record::load(path, number)?;
    let review = review_record(&record, config).map_err(|e| e.to_string())?;
    if config.json {
        serde_json::to_string_pretty(&review)
            .map(|text| text + "\n")
            .map_err(|e| format!("cannot write JSON: {e}"))
    } else {
        Ok(review.to_string())
    }
}

/// `record` reviewed under the default evaluation of its game (`settings.json` aside).
pub fn review_record(record: &Record, settings: &ReviewSettings) -> Result<Review, Phrase> {
    with_game(&record.game, Visit { record, settings })?
}

/// The error of a review stopped through its [`ReviewWatch`].
pub fn cancelled() -> Phrase {
    Phrase::new("review cancelled")
}

/// The command line's choices for [`review_file`] (no depth and no movetime: the game's
/// [`Profile::REVIEW_DEPTH`]).
pub struct ReviewSettings {
    pub limits: Limits,
    pub threads: usize,
    pub hash_megabytes: usize,
    /// `None`: the game's [`Profile::REVIEW_CONFIRMATION`].
    pub confirmation_plies: Option<u32>,
    pub json: bool,
    pub progress: bool,
    /// Where a watcher (the GUI) reads the progress and asks to stop.
    pub watch: Option<Arc<ReviewWatch>>,
}

/// A running review as another thread sees it: positions searched, positions in all, and
/// a request to stop after the position being searched.
#[derive(Default)]
pub struct ReviewWatch {
    pub done: AtomicUsize,
    pub all: AtomicUsize,
    cancel: AtomicBool,
    /// The stop flag of the review's searcher, once it runs.
    search: Mutex<Option<Arc<AtomicBool>>>,
    /// Told each position searched (done, all): a browser's worker, which nobody can ask
    /// while it reviews, tells its page this way.
    notify: Option<fn(usize, usize)>,
}

impl ReviewWatch {
    /// A watch that also tells `notify` of each position searched.
    pub fn notifying(notify: fn(usize, usize)) -> ReviewWatch {
        ReviewWatch {
            notify: Some(notify),
            ..ReviewWatch::default()
        }
    }

    /// Stops the review: the search running ends at once, and no position after it is
    /// searched.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
        if let Some(stop) = &*self.search.lock().unwrap_or_else(|e| e.into_inner()) {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

struct Visit<'a> {
    record: &'a Record,
    settings: &'a ReviewSettings,
}

impl GameVisitor for Visit<'_> {
    type Output = Result<Review, Phrase>;
    fn visit<G: Profile>(self) -> Result<Review, Phrase> {
        let settings = self.settings;
        let config = ReviewConfig {
            limits: settings.limits,
            threads: settings.threads,
            hash_megabytes: settings.hash_megabytes,
            network: crate::nnue::choice::resolve::<G>(None, None).map_err(Phrase::plain)?,
            watch: settings.watch.clone(),
            confirmation_plies: settings
                .confirmation_plies
                .unwrap_or(G::REVIEW_CONFIRMATION),
        };
        let positions = self.record.moves.len() as u64 + 1;
        let bar = crate::progress::progress_bar(settings.progress, positions, "positions");
        let watch = settings.watch.as_deref();
        let review = review::<G>(self.record, &config, &mut |done, all| {
            bar.set_length(all as u64);
            bar.set_position(done as u64);
            watch.is_none_or(|w| {
                w.all.store(all, Ordering::Relaxed);
                w.done.store(done, Ordering::Relaxed);
                if let Some(notify) = w.notify {
                    notify(done, all);
                }
                !w.cancel.load(Ordering::Relaxed)
            })
        });
        bar.finish_and_clear();
        review
    }
}

/// Lichess's accuracy of one move from the mover's winning chance (percent) before and
/// after: 100 for no loss, falling steeply with the first points lost.
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    let drop = (win_before - win_after).max(0.0);
    (103.1668 * (-0.04354 * drop).exp() - 3.1669 + 1.0).clamp(0.0, 100.0)
}

/// Lichess's game accuracy of `player`: the mean of a volatility-weighted mean and the
/// harmonic mean of the player's move accuracies. A move's weight is the standard deviation
/// of player 1's winning chance over a window of positions around it (clamped to 0.5..12),
/// so moves in sharp phases count more than moves in a settled game.
fn player_review(
    name: String,
    player: Player,
    moves: &[MoveReview],
    curve: &[f64],
) -> PlayerReview {
    let number = player.index() as u8 + 1;
    let count = |mark| {
        moves
            .iter()
            .filter(|m| m.mover == number && m.mark == Some(mark))
            .count()
    };
    let window = (moves.len() / 10).clamp(2, 8).min(curve.len());
    let weights: Vec<f64> = (0..moves.len())
        .map(|ply| {
            let start = (ply + 1)
                .saturating_sub(window - 1)
                .min(curve.len() - window);
            standard_deviation(&curve[start..start + window]).clamp(0.5, 12.0)
        })
        .collect();
    let mine: Vec<(f64, f64)> = moves
        .iter()
        .zip(&weights)
        .filter(|(m, _)| m.mover == number)
        .map(|(m, &w)| (m.accuracy, w))
        .collect();
    let accuracy = (!mine.is_empty()).then(|| {
        let weighted =
            mine.iter().map(|(a, w)| a * w).sum::<f64>() / mine.iter().map(|(_, w)| w).sum::<f64>();
        let harmonic = mine.len() as f64 / mine.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        (weighted + harmonic) / 2.0
    });
    PlayerReview {
        name,
        accuracy,
        inaccuracies: count(Mark::Inaccuracy),
        mistakes: count(Mark::Mistake),
        blunders: count(Mark::Blunder),
    }
}

fn standard_deviation(values: &[f64]) -> f64 {
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64).sqrt()
}

impl fmt::Display for Review {
    /// One line per move (`ply. pK move mark  before -> after  best …`), then each player's
    /// accuracy and marks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "review ({}, {} per position)", self.game, self.search)?;
        for m in &self.moves {
            let mark = m.mark.map_or("", Mark::text);
            let mut line = format!(
                "{:>4}. p{} {:<8} {:<2}  {:>7} -> {:<7}  win {:>5.1}% -> {:>5.1}%",
                m.ply,
                m.mover,
                m.mv,
                mark,
                m.before.to_string(),
                m.after.to_string(),
                m.win_before,
                m.win_after
            );
            if let Some(best) = &m.best {
                line.push_str(&format!("  best {best}"));
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        for (index, p) in self.players.iter().enumerate() {
            let accuracy = p.accuracy.map_or("-".to_string(), |a| format!("{a:.1}%"));
            let name = if p.name.is_empty() { "" } else { " " };
            writeln!(
                f,
                "player {}{name}{}: accuracy {accuracy}, {} inaccuracies (?!), {} mistakes (?), {} blunders (??)",
                index + 1,
                p.name,
                p.inaccuracies,
                p.mistakes,
                p.blunders
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_chances_follow_the_sigmoid_and_mates() {
        assert!((Eval::Cp(0).win_percent(0.003) - 50.0).abs() < 1e-9);
        assert!(Eval::Cp(300).win_percent(0.003) > 70.0);
        assert_eq!(Eval::Mate(3).win_percent(0.003), 100.0);
        assert_eq!(Eval::Mate(-2).win_percent(0.003), 0.0);
        assert_eq!(Eval::Over(1).win_percent(0.003), 100.0);
        assert_eq!(Eval::Over(0).win_percent(0.003), 50.0);
        assert_eq!(Eval::Over(-1).win_percent(0.003), 0.0);
        assert_eq!(Eval::Mate(3).flip(), Eval::Mate(-3));
    }

    #[test]
    fn move_accuracy_is_lichess_s() {
        assert!((move_accuracy(60.0, 60.0) - 100.0).abs() < 0.01);
        assert!((move_accuracy(60.0, 70.0) - 100.0).abs() < 0.01);
        // lichess: a 10-point drop gives about 64.6 (with its "+1 uncertainty bonus").
        assert!((move_accuracy(60.0, 50.0) - 64.6).abs() < 0.1);
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }
}
