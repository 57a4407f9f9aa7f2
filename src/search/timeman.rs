//! Time management: how long a search may run, from the limits a `go` gives.

use std::time::Duration;

/// Remaining time on both clocks, indexed by [`crate::game::Player::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: [Option<Duration>; 2],
    pub increment: [Duration; 2],
    pub moves_to_go: Option<u32>,
}

/// When to stop searching. Several limits may be combined; the first reached wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search until stopped (depth limited by [`super::MAX_DEPTH`] only).
    pub infinite: bool,
}

/// Margin kept on the clock for the time it takes to send a move.
const MOVE_OVERHEAD: Duration = Duration::from_millis(20);

impl Limits {
    /// (soft, hard) time limits for the side to move: no new iteration starts after
    /// `soft`; the search is cut off at `hard`.
    pub(crate) fn time_budget(&self, side: usize) -> (Option<Duration>, Option<Duration>) {
        if self.infinite {
            return (None, None);
        }
        let mut soft = self.movetime;
        let mut hard = self.movetime;
        if let Some((clock, left)) = self.clock.and_then(|c| c.time[side].map(|t| (c, t))) {
            let left = left.saturating_sub(MOVE_OVERHEAD);
            let increment = clock.increment[side];
            let moves = clock.moves_to_go.unwrap_or(30).clamp(1, 30);
            let base = left / moves + increment * 3 / 4;
            let clock_soft = base.min(left / 2);
            let clock_hard = (base * 4).min(left / 3).max(clock_soft);
            soft = Some(soft.map_or(clock_soft, |s| s.min(clock_soft)));
            hard = Some(hard.map_or(clock_hard, |h| h.min(clock_hard)));
        }
        (soft, hard)
    }
}
