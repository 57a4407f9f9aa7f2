//! A puzzle's rating: an Elo on the game's level scale ([`Profile::LEVEL_ELO`]), that of the
//! weakest level that solves it at least half the time.
//!
//! A level plays as the engine does at that level: a search with the level's nodes and
//! lines, then [`Skill::pick`]'s weighted random choice among the lines. Its chance to play
//! a solver move is the share of [`SEEDS`] choices over the same lines that pick it (the
//! lines do not depend on the seed, so one search per level and move is enough); its chance
//! to solve the puzzle is the product over the solver's moves (forced moves are not asked).
//! Every level 0..=19 is asked, and when `k` of them solve it at least half the time the
//! puzzle gets the Elo of level `20 - k`: the weakest such level if stronger levels always
//! did at least as well as weaker ones, and otherwise no level's lucky find or odd miss
//! decides the rating alone. A puzzle no level solves gets level 20's Elo (the full search
//! found it when the puzzle was made).

use super::judge::Judge;
use crate::profile::Profile;
use crate::search::Skill;

/// Choices per level and move that estimate a level's chance to play it.
pub const SEEDS: u64 = 32;

/// The level (0..=20) of the puzzle from `start` with `solution`, and its Elo.
pub fn rate<G: Profile>(judge: &mut Judge<G>, start: &G, solution: &[G::Move]) -> (u32, i32) {
    let top = Skill::MAX_LEVEL;
    let solving = (0..top)
        .filter(|&level| chance(judge, start, solution, level) >= 0.5)
        .count() as u32;
    let level = top - solving;
    (level, G::LEVEL_ELO[level as usize])
}

/// The chance that `level` plays every solver move of the solution.
fn chance<G: Profile>(judge: &mut Judge<G>, start: &G, solution: &[G::Move], level: u32) -> f64 {
    let Ok(skill) = Skill::new(level) else {
        return 0.0;
    };
    let solver = start.to_move();
    let mut position = start.clone();
    let mut history = Vec::new();
    let mut chance = 1.0;
    for &mv in solution {
        if position.to_move() == solver && position.count_legal_moves() > 1 {
            let lines = judge.level_lines(&position, &history, skill);
            let seed = position.hash();
            let picked = (0..SEEDS)
                .filter(|k| {
                    skill.pick(&lines, seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15)) == Some(mv)
                })
                .count();
            chance *= picked as f64 / SEEDS as f64;
            if chance < 0.5 {
                return chance;
            }
        }
        history.push(position.hash());
        position.play(mv);
    }
    chance
}
