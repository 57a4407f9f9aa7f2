//! Whether a position is quiet: its quiescence value (captures only, standing pat allowed,
//! as the engine's quiescence search does it) equals its static evaluation. Tuning on such
//! positions only keeps pending captures out of the error: their evaluation is not what the
//! search would use.

use crate::game::{MoveList, Outcome};
use crate::search_hints::SearchHints;

/// Plies of captures followed before giving up (stands pat there).
const MAX_PLIES: usize = 32;

/// Above any evaluation: a finished game inside the capture line.
const WIN: i32 = 1_000_000;

/// The position's quiescence value equals its static evaluation (a finished game is not
/// quiet: its value is the result, not the evaluation).
pub fn is_quiet<G: SearchHints>(position: &G) -> bool {
    if position.outcome().is_some() {
        return false;
    }
    quiescence(position, -WIN - 1, WIN + 1, 0) == position.evaluate()
}

fn quiescence<G: SearchHints>(position: &G, mut alpha: i32, beta: i32, ply: usize) -> i32 {
    match position.outcome() {
        Some(Outcome::Win(p)) if p == position.to_move() => return WIN,
        Some(Outcome::Win(_)) => return -WIN,
        Some(Outcome::Draw) => return 0,
        None => {}
    }
    let stand_pat = position.evaluate();
    if stand_pat >= beta || ply >= MAX_PLIES {
        return stand_pat;
    }
    alpha = alpha.max(stand_pat);
    let mut best = stand_pat;
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    for &mv in moves.iter().filter(|&&mv| position.is_tactical(mv)) {
        let mut child = position.clone();
        child.play(mv);
        let score = if child.to_move() == position.to_move() {
            quiescence(&child, alpha, beta, ply + 1)
        } else {
            -quiescence(&child, -beta, -alpha, ply + 1)
        };
        if score > best {
            best = score;
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::akiba::Position;
    use crate::search_hints::SearchHints;

    #[test]
    fn start_is_quiet_and_a_hanging_marble_is_not() {
        assert!(is_quiet(&Position::start(Default::default())));
        // White to move can push Black's marble on g7 off the board from f7.
        let position: Position = "5WB/7/7/7/7/7/W6 w 0 0 - - 9".parse().unwrap();
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        assert!(moves.iter().any(|&m| position.is_tactical(m)));
        assert!(!is_quiet(&position));
    }
}
