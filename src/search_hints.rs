//! What a game tells the search beyond its rules and evaluation: which moves are tactical,
//! whether a null move makes sense, and the search parameters measured for it. Named, not
//! typed, so that this stands below the search, which reads it.

use crate::evaluation::Evaluation;

/// A game's hints to the search ([`crate::search`]).
pub trait SearchHints: Evaluation {
    /// Whether a move changes material (a capture): searched first and in quiescence.
    fn is_tactical(&self, mv: Self::Move) -> bool;
    /// Whether the game is not over here and quiescence would search none of the moves
    /// (none is tactical): quiescence then skips listing them, most of its cost where quiet
    /// moves are many (Abraxas' placements).
    fn nothing_to_resolve(&self) -> bool {
        false
    }
    /// The position with the turn handed to the opponent without a move (null-move
    /// pruning); `None` where that makes no sense, e.g. in the middle of a turn.
    fn null_move(&self) -> Option<Self> {
        None
    }
    /// Whether random opening playouts may play `mv` (see [`crate::pipeline::openings`]):
    /// every move by default; a game leaves out moves that random play would waste.
    fn is_opening_move(&self, _mv: Self::Move) -> bool {
        true
    }
    /// The search's parameters this game sets apart from the search's defaults, as (name,
    /// value) (measured per game: docs/strength.md). The search reads them
    /// ([`crate::search::SearchParams::of`]).
    const SEARCH_PARAMS: &'static [(&'static str, i32)] = &[];
}
