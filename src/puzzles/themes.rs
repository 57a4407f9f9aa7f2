//! The themes of a puzzle, read from its solution (docs/puzzles.md lists them).
//!
//! Every game: `win` (the solution wins the game, or the search sees a forced win),
//! `advantage` (it wins material or points but not yet the game), `defence` (the one move
//! that holds: the solver is no better after it), `one-move` (one decision of the solver)
//! or `long` (three or more). Each game adds its own from what the solver's moves do.

use super::judge::value;
use crate::game::Game;
use crate::game::{Outcome, Player};
use crate::search::Score;
use crate::{abraxas, akiba, offboard};
use std::any::Any;

pub use super::format::THEMES;

/// The themes of the puzzle from `start` with `solution`, whose first move the search
/// scored `score` (solver's view).
pub fn themes<G: Game>(start: &G, solution: &[G::Move], score: Score) -> Vec<String> {
    let solver = start.to_move();
    let mut themes: Vec<&str> = Vec::new();
    let mut position = start.clone();
    let mut decisions = 0;
    let mut own = Vec::new();
    for &mv in solution {
        if position.to_move() == solver {
            own.push((position.clone(), mv));
            if position.count_legal_moves() > 1 {
                decisions += 1;
            }
        }
        position.play(mv);
    }
    let won = position.outcome() == Some(Outcome::Win(solver))
        || matches!(score, Score::Mate(n) if n > 0);
    if won {
        themes.push("win");
    } else if value(score) <= 0 {
        themes.push("defence");
    } else {
        themes.push("advantage");
    }
    match decisions {
        0 | 1 => themes.push("one-move"),
        2 => {}
        _ => themes.push("long"),
    }
    let game_themes = game_themes(solver, &own as &dyn Any);
    themes.extend(game_themes);
    themes.into_iter().map(str::to_string).collect()
}

/// The game's own themes from the solver's moves (position before each, move).
fn game_themes(solver: Player, own: &dyn Any) -> Vec<&'static str> {
    if let Some(moves) = own.downcast_ref::<Vec<(akiba::Position, akiba::Move)>>() {
        akiba_themes(solver, moves)
    } else if let Some(moves) = own.downcast_ref::<Vec<(offboard::Position, offboard::Move)>>() {
        offboard_themes(solver, moves)
    } else if let Some(moves) = own.downcast_ref::<Vec<(abraxas::Position, abraxas::Move)>>() {
        abraxas_themes(moves)
    } else {
        Vec::new()
    }
}

/// `capture-chain`: two captures in one turn (the extra move used); `red-race`: a red marble
/// won; `push-off`: an opponent's marble pushed off.
fn akiba_themes(solver: Player, moves: &[(akiba::Position, akiba::Move)]) -> Vec<&'static str> {
    let mut themes = Vec::new();
    let (mut chain, mut longest) = (0, 0);
    let (mut red, mut off) = (false, false);
    let theirs = akiba::Marble::of(solver.other());
    for (before, mv) in moves {
        let mut after = before.clone();
        after.play(*mv);
        if before.is_capture(*mv) {
            chain = if before.in_extra_move() { chain + 1 } else { 1 };
            longest = longest.max(chain);
        } else {
            chain = 0;
        }
        red |= after.reds_won(solver) > before.reds_won(solver);
        off |= after.marbles(theirs).count_ones() < before.marbles(theirs).count_ones();
    }
    if longest >= 2 {
        themes.push("capture-chain");
    }
    if red {
        themes.push("red-race");
    }
    if off {
        themes.push("push-off");
    }
    themes
}

/// `push-off`: points scored; `sector-3`: three points at once; `re-placement`: a returned
/// marble put back where it matters.
fn offboard_themes(
    solver: Player,
    moves: &[(offboard::Position, offboard::Move)],
) -> Vec<&'static str> {
    let mut themes = Vec::new();
    let (mut scored, mut three, mut placed) = (false, false, false);
    for (before, mv) in moves {
        let mut after = before.clone();
        after.play(*mv);
        let gained = after.points(solver) - before.points(solver).min(after.points(solver));
        scored |= gained > 0;
        three |= gained >= 3;
        placed |= mv.is_place();
    }
    if scored {
        themes.push("push-off");
    }
    if three {
        themes.push("sector-3");
    }
    if placed {
        themes.push("re-placement");
    }
    themes
}

/// `line`: stones taken off a line; `stop`: a blue stop stone placed; `plate`: the plate
/// slid or kept.
fn abraxas_themes(moves: &[(abraxas::Position, abraxas::Move)]) -> Vec<&'static str> {
    let has = |f: fn(&abraxas::Move) -> bool| moves.iter().any(|(_, mv)| f(mv));
    let mut themes = Vec::new();
    if has(|mv| matches!(mv, abraxas::Move::Capture(_))) {
        themes.push("line");
    }
    if has(|mv| matches!(mv, abraxas::Move::Blue(_))) {
        themes.push("stop");
    }
    if has(|mv| matches!(mv, abraxas::Move::Slide | abraxas::Move::Stay)) {
        themes.push("plate");
    }
    themes
}
