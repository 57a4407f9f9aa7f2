//! Built-in reference players, the fixed yardsticks that measured strength is quoted
//! against: `random`, `greedy` (best one-move material gain) and `material-ab:<depth>`
//! (fixed-depth alpha-beta over material alone, the design of the best-known online Kuba
//! robot). They are written against [`Game`] only, use [`Evaluation::material`] and nothing of the
//! engine's search, so improving the engine never moves the yardstick.
//!
//! `shove --player <name>` speaks the protocol with one of them instead of the search.

use crate::evaluation::Evaluation;
use crate::game::Game;
use crate::game::{MoveList, Outcome};
use crate::search_hints::SearchHints;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

/// Deepest `material-ab` search accepted (far beyond what finishes in reasonable time).
pub const MAX_AB_DEPTH: u32 = 30;

/// Above any material difference.
const WIN: i32 = 1_000_000;

/// Which reference player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotKind {
    /// A uniformly random legal move.
    Random,
    /// The move with the best material right after it (a win above all), random among
    /// equals.
    Greedy,
    /// Plain fixed-depth alpha-beta over [`Evaluation::material`]: no transposition table, no
    /// quiescence, no extensions; captures are tried first, which changes only the speed.
    MaterialAb(u32),
}

impl FromStr for BotKind {
    type Err = String;

    fn from_str(text: &str) -> Result<BotKind, String> {
        let lower = text.to_ascii_lowercase();
        match lower.as_str() {
            "random" => Ok(BotKind::Random),
            "greedy" => Ok(BotKind::Greedy),
            _ => {
                let depth = lower.strip_prefix("material-ab:").ok_or_else(|| {
                    format!(
                        "unknown player '{text}' (expected random, greedy or material-ab:<depth>)"
                    )
                })?;
                match depth.parse::<u32>() {
                    Ok(d) if (1..=MAX_AB_DEPTH).contains(&d) => Ok(BotKind::MaterialAb(d)),
                    _ => Err(format!(
                        "player '{text}': depth '{depth}' is not a whole number in 1..={MAX_AB_DEPTH}"
                    )),
                }
            }
        }
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotKind::Random => f.write_str("random"),
            BotKind::Greedy => f.write_str("greedy"),
            BotKind::MaterialAb(depth) => write!(f, "material-ab:{depth}"),
        }
    }
}

/// A reference player with its own random source (for `random` and `greedy`'s ties).
pub struct Bot {
    kind: BotKind,
    rng: StdRng,
    /// Nodes of the current `material-ab` search; the stop flag is polled every few thousand.
    nodes: u64,
    aborted: bool,
}

impl Bot {
    pub fn new(kind: BotKind, seed: u64) -> Bot {
        Bot {
            kind,
            rng: StdRng::seed_from_u64(seed),
            nodes: 0,
            aborted: false,
        }
    }

    /// The player's move, `None` when the game is over. Setting `stop` cuts a `material-ab`
    /// search short: it then plays the best move found so far (the protocol's `stop`).
    pub fn choose<G: SearchHints>(&mut self, position: &G, stop: &AtomicBool) -> Option<G::Move> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        match self.kind {
            BotKind::Random => moves.choose(&mut self.rng).copied(),
            BotKind::Greedy => {
                let gains: Vec<i32> = moves.iter().map(|&mv| gain(position, mv)).collect();
                let best = gains.iter().copied().max()?;
                let best_moves: Vec<G::Move> = moves
                    .iter()
                    .zip(&gains)
                    .filter(|&(_, &g)| g == best)
                    .map(|(&mv, _)| mv)
                    .collect();
                best_moves.choose(&mut self.rng).copied()
            }
            BotKind::MaterialAb(depth) => {
                self.nodes = 0;
                self.aborted = false;
                self.root(position, &moves, depth, stop)
            }
        }
    }

    fn root<G: SearchHints>(
        &mut self,
        position: &G,
        moves: &[G::Move],
        depth: u32,
        stop: &AtomicBool,
    ) -> Option<G::Move> {
        let mut best = None;
        let mut alpha = -WIN - 1;
        for mv in captures_first(position, moves) {
            let mut child = position.clone();
            child.play(mv);
            let score = child_value(
                position,
                &child,
                |child, a, b| self.alpha_beta(child, depth - 1, 1, a, b, stop),
                alpha,
                WIN + 1,
            );
            if self.aborted {
                break;
            }
            if best.is_none() || score > alpha {
                alpha = score;
                best = Some(mv);
            }
        }
        best.or_else(|| moves.first().copied())
    }

    /// Negamax value of `position` for its side to move, `depth` plies deep.
    fn alpha_beta<G: SearchHints>(
        &mut self,
        position: &G,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) && stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if let Some(outcome) = position.outcome() {
            return terminal(position, outcome, ply);
        }
        if depth == 0 {
            return position.material();
        }
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        let mut best = -WIN - 1;
        for mv in captures_first(position, &list) {
            let mut child = position.clone();
            child.play(mv);
            let score = child_value(
                position,
                &child,
                |child, a, b| self.alpha_beta(child, depth - 1, ply + 1, a, b, stop),
                alpha,
                beta,
            );
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        // A position without moves is always finished, but stay total for any game.
        if best == -WIN - 1 {
            position.material()
        } else {
            best
        }
    }
}

/// The value of `child` for the side that moved into it: the window flips and the score is
/// negated only if the side to move changed (extra moves keep it).
fn child_value<G: Game>(
    parent: &G,
    child: &G,
    mut search: impl FnMut(&G, i32, i32) -> i32,
    alpha: i32,
    beta: i32,
) -> i32 {
    if child.to_move() == parent.to_move() {
        search(child, alpha, beta)
    } else {
        -search(child, -beta, -alpha)
    }
}

/// A finished game from the view of its side to move; quicker wins score higher.
fn terminal<G: Game>(position: &G, outcome: Outcome, ply: i32) -> i32 {
    match outcome {
        Outcome::Win(player) if player == position.to_move() => WIN - ply,
        Outcome::Win(_) => -(WIN - ply),
        Outcome::Draw => 0,
    }
}

/// The moves with captures first, otherwise in generation order.
fn captures_first<G: SearchHints>(position: &G, moves: &[G::Move]) -> Vec<G::Move> {
    let mut ordered = moves.to_vec();
    ordered.sort_by_key(|&mv| !position.is_tactical(mv));
    ordered
}

/// Material right after `mv` from the mover's view; a win above everything.
fn gain<G: Evaluation>(position: &G, mv: G::Move) -> i32 {
    let mut child = position.clone();
    child.play(mv);
    let value = match child.outcome() {
        Some(outcome) => terminal(&child, outcome, 0),
        None => child.material(),
    };
    if child.to_move() == position.to_move() {
        value
    } else {
        -value
    }
}

/// A seed from the operating system, for players whose games should differ run to run.
pub fn random_seed() -> u64 {
    rand::rng().random()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::akiba::{Position, Rules};
    use crate::evaluation::Evaluation;
    use crate::game::Game;

    fn kind(text: &str) -> BotKind {
        text.parse().unwrap()
    }

    #[test]
    fn names_parse_and_print() {
        for text in ["random", "greedy", "material-ab:1", "material-ab:9"] {
            assert_eq!(kind(text).to_string(), text);
        }
        assert_eq!(kind("Material-AB:3"), BotKind::MaterialAb(3));
        for bad in [
            "",
            "minimax",
            "material-ab",
            "material-ab:0",
            "material-ab:x",
            "material-ab:31",
        ] {
            assert!(bad.parse::<BotKind>().is_err(), "accepted '{bad}'");
        }
    }

    fn legal(position: &Position, mv: <Position as Game>::Move) -> bool {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        moves.contains(&mv)
    }

    #[test]
    fn every_player_plays_legal_moves_to_the_end() {
        let stop = AtomicBool::new(false);
        for name in ["random", "greedy", "material-ab:2"] {
            let mut bot = Bot::new(kind(name), 7);
            let mut position = Position::start(Rules::default());
            for _ in 0..300 {
                let Some(mv) = bot.choose(&position, &stop) else {
                    break;
                };
                assert!(legal(&position, mv), "{name} played {mv} in {position}");
                position.play(mv);
            }
            let finished = Position::parse("6B/7/7/7/7/7/W6 b 7 0 - - 1", Rules::default());
            assert_eq!(bot.choose(&finished.unwrap(), &stop), None);
        }
    }

    #[test]
    fn greedy_takes_the_win() {
        // b1a1 pushes the red off a1: White's seventh red.
        let position = Position::parse("7/7/7/7/7/7/RW4B w 6 0 - - 1", Rules::default()).unwrap();
        let stop = AtomicBool::new(false);
        let mut bot = Bot::new(BotKind::Greedy, 1);
        let mv = bot.choose(&position, &stop).unwrap();
        let mut child = position.clone();
        child.play(mv);
        assert_eq!(
            child.outcome(),
            Some(Outcome::Win(crate::game::Player::One))
        );
    }

    #[test]
    fn material_ab_agrees_with_a_full_width_minimax() {
        // Pruning must not change the value: the chosen move is worth the full minimax.
        fn minimax(position: &Position, depth: u32, ply: i32) -> i32 {
            if let Some(outcome) = position.outcome() {
                return terminal(position, outcome, ply);
            }
            if depth == 0 {
                return position.material();
            }
            let mut moves = MoveList::new();
            position.legal_moves(&mut moves);
            moves
                .iter()
                .map(|&mv| {
                    let mut child = position.clone();
                    child.play(mv);
                    let v = minimax(&child, depth - 1, ply + 1);
                    if child.to_move() == position.to_move() {
                        v
                    } else {
                        -v
                    }
                })
                .max()
                .unwrap()
        }
        let stop = AtomicBool::new(false);
        let position = Position::parse(
            "W1W1B1B/W2R1B1/1RRR3/1RR1RRW/2RRB2/B2R1W1/B4WW w 1 0 - - 9",
            Rules::default(),
        )
        .unwrap();
        for depth in 1..=3 {
            let mut bot = Bot::new(BotKind::MaterialAb(depth), 0);
            let mv = bot.choose(&position, &stop).unwrap();
            let mut child = position.clone();
            child.play(mv);
            let value = minimax(&child, depth - 1, 1);
            let value = if child.to_move() == position.to_move() {
                value
            } else {
                -value
            };
            assert_eq!(value, minimax(&position, depth, 0), "depth {depth}: {mv}");
        }
    }
}
