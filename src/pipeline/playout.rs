//! One game of the engine against itself in this process, each side searching with its own
//! searcher, both cleared first: the game depends only on its opening and the search limits,
//! never on what the searchers played before. Self-play data and the trial games of
//! openings are such games.

use crate::game::Outcome;
use crate::matches::Adjudication;
use crate::search::{Limits, SearchResult, Searcher};
use crate::search_hints::SearchHints;

/// Plays from `opening` until the rules or `adjudication` end the game, calling `on_move`
/// with each position searched and its search's result before the move is played.
pub fn play_game<G: SearchHints>(
    opening: &G,
    limits: &Limits,
    adjudication: &Adjudication,
    searchers: &mut [Searcher<G>; 2],
    mut on_move: impl FnMut(&G, &SearchResult<G::Move>),
) -> Outcome {
    for searcher in searchers.iter_mut() {
        searcher.clear();
    }
    let mut position = opening.clone();
    let mut history = Vec::new();
    loop {
        if let Some(outcome) = adjudication.outcome(&position, &history) {
            return outcome;
        }
        let side = position.to_move();
        let result = searchers[side.index()].search(&position, &history, limits, 1, &mut |_| {});
        let Some(best) = result.best else {
            // No move in a game that is not over cannot happen; count it a draw.
            return Outcome::Draw;
        };
        on_move(&position, &result);
        history.push(position.hash());
        position.play(best);
    }
}
