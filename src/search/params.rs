//! The search's pruning and reduction constants, one set per game ([`Game::SEARCH_PARAMS`]):
//! the games' evaluations differ in scale and volatility, so a margin that pays in one may
//! lose in another. A margin of 0 (or a depth of 0) turns its technique off.
//!
//! [`Game::SEARCH_PARAMS`]: crate::game::Game::SEARCH_PARAMS

/// Margins in evaluation units, depths in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Reverse futility (static null move): at depth ≤ this, a static evaluation this
    /// far above beta per ply of depth (one ply less when improving) returns at once.
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// Late move pruning: at depth ≤ this, quiet moves after the first
    /// `(lmp_base + depth²) / 2` (twice as many when improving) are not searched.
    pub lmp_depth: i32,
    pub lmp_base: i32,
    /// Futility pruning: at depth ≤ this, a node whose static evaluation plus
    /// `futility_base + futility_margin · depth` is at most alpha searches no quiet move
    /// after its first move.
    pub futility_depth: i32,
    pub futility_base: i32,
    pub futility_margin: i32,
    /// Late move reductions shrink by a quiet move's history over this (grow when it is
    /// negative).
    pub lmr_history_divisor: i32,
    /// Internal iterative reduction: a node of at least this depth without a table move is
    /// searched one ply shallower.
    pub iir_depth: i32,
}

impl SearchParams {
    /// Every technique off: the search as it was before they were measured.
    pub const OFF: SearchParams = SearchParams {
        rfp_depth: 0,
        rfp_margin: 0,
        lmp_depth: 0,
        lmp_base: 0,
        futility_depth: 0,
        futility_base: 0,
        futility_margin: 0,
        lmr_history_divisor: i32::MAX,
        iir_depth: i32::MAX,
    };

    /// The values most games start from (each game's own are in its module).
    pub const DEFAULT: SearchParams = SearchParams {
        rfp_depth: 6,
        rfp_margin: 80,
        lmp_depth: 8,
        lmp_base: 3,
        futility_depth: 6,
        futility_base: 100,
        futility_margin: 100,
        lmr_history_divisor: 8192,
        iir_depth: 4,
    };

    /// How many moves a node at `depth` searches before late move pruning stops it
    /// (`usize::MAX`: no limit at this depth).
    pub(crate) fn late_move_limit(&self, depth: i32, improving: bool) -> usize {
        if depth > self.lmp_depth {
            return usize::MAX;
        }
        let limit = (self.lmp_base + depth * depth) / (2 - i32::from(improving));
        limit.max(1) as usize
    }
}
