//! Scores: evaluation units and mate distances, as the search keeps them and as the protocol
//! reports them.

use std::fmt;

/// A win found at ply `p` scores `MATE - p` for the winner.
pub const MATE: i32 = 30_000;
/// Deepest ply the search ever reaches (bounds quiescence and per-ply tables).
pub const MAX_PLY: usize = 128;
/// Scores beyond this are wins or losses at a known distance.
pub(crate) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub(crate) const INFINITY: i32 = MATE + 1;
/// Deepest iteration `go` may ask for.
pub const MAX_DEPTH: u32 = 100;

/// A score as the protocol reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Evaluation units from the side to move's view.
    Cp(i32),
    /// The side to move wins (positive) or loses (negative) in this many moves, counting
    /// every move including extra moves and passes.
    Mate(i32),
}

impl Score {
    pub fn from_internal(score: i32) -> Score {
        if score > MATE_BOUND {
            Score::Mate(MATE - score)
        } else if score < -MATE_BOUND {
            Score::Mate(-(MATE + score))
        } else {
            Score::Cp(score)
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Mate scores are stored relative to the node, so a hit at another ply stays correct.
pub(crate) fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(crate) fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Mate distance pruning: a node at `ply` that has moves cannot win before the next ply nor
/// lose before this one, so the window narrows to the scores it can still reach; `Err` holds
/// the bound to return when none is left (a shorter mate is already known). It prunes
/// nothing whose score could matter, and stops a search that has found a mate from
/// walking every longer way to it (capture chains with extra moves).
pub(crate) fn mate_distance_window(ply: usize, alpha: i32, beta: i32) -> Result<(i32, i32), i32> {
    let alpha = alpha.max(-(MATE - ply as i32));
    let beta = beta.min(MATE - ply as i32 - 1);
    if alpha >= beta {
        Err(alpha)
    } else {
        Ok((alpha, beta))
    }
}
