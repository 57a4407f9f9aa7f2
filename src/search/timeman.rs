//! Time management: how long a search may run, from the limits a `go` gives.

use super::params::SearchParams;
use std::time::Duration;
use web_time::Instant;

/// How many times `Move Overhead` a clock keeps in reserve. With an increment the clock
/// settles where a move costs about the increment, which is at the reserve: once would let
/// a single delay of the overhead's length (a busy machine not running the engine) lose
/// the game at a short clock such as 50 ms + 1 ms; at long clocks it is a negligible share.
pub const CLOCK_RESERVE_OVERHEADS: u32 = 2;

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
    /// Iterations up to this depth are searched in full whatever `nodes` says (0: none):
    /// a weak level's lines are all searched at depth 1, however many moves the game
    /// offers, before its node cap counts.
    pub complete_depth: u32,
    /// Stop once a win in at most this many moves (every move counted) is proven.
    pub mate: Option<u32>,
    /// Search without a time limit until [`super::Searcher::ponder_flag`] is cleared;
    /// the time limits count from then.
    pub ponder: bool,
    /// The margin kept for the time it takes to send a move (`Move Overhead`).
    pub move_overhead: Duration,
    /// When the `go` was read: the time limits count from then, so that time lost before
    /// the search runs (starting its thread on a busy machine) is time spent. `None`: from
    /// the start of the search.
    pub received: Option<Instant>,
}

impl Limits {
    /// (soft, hard) time limits for the side to move: no new iteration starts after
    /// `soft`; the search is cut off at `hard`.
    ///
    /// `movetime T` is used in full: the search is cut off at `T - move_overhead`, but never
    /// before `0.9 T`, and has no soft limit (an iteration cut off keeps the best move it
    /// has found). A clock gives about `time / movestogo` (30 moves if not given) plus
    /// three quarters of the increment as the soft limit, and at most four times that, or a
    /// third of the time left, as the hard one. The clock is spent only down to
    /// [`CLOCK_RESERVE_OVERHEADS`] times the overhead: below it a move is made as fast as
    /// the first iteration allows, and the increment builds the reserve up again.
    pub(crate) fn time_budget(&self, side: usize) -> (Option<Duration>, Option<Duration>) {
        let mut soft = None;
        let mut hard = self.movetime.map(|t| t - self.move_overhead.min(t / 10));
        if let Some((clock, left)) = self.clock.and_then(|c| c.time[side].map(|t| (c, t))) {
            let left = left.saturating_sub(self.move_overhead * CLOCK_RESERVE_OVERHEADS);
            let increment = clock.increment[side];
            let moves = clock.moves_to_go.unwrap_or(30).clamp(1, 30);
            let base = left / moves + increment * 3 / 4;
            let clock_soft = base.min(left / 2);
            let clock_hard = (base * 4).min(left / 3).max(clock_soft);
            soft = Some(clock_soft);
            hard = Some(hard.map_or(clock_hard, |h| h.min(clock_hard)));
        }
        (soft, hard)
    }
}

/// What the iterations so far say about how long this move deserves, as Stockfish and
/// Ethereal judge it: a best move that keeps changing, takes a small share of the nodes or
/// falls in score wants more time than the soft limit; a settled one less.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SearchCourse<M> {
    best: Option<M>,
    /// Iterations in a row that ended with the same best move.
    stability: u32,
    score: Option<i32>,
}

impl<M: Copy + PartialEq> SearchCourse<M> {
    pub(crate) fn new() -> Self {
        SearchCourse {
            best: None,
            stability: 0,
            score: None,
        }
    }

    /// Takes a completed iteration's best move, score, and the best move's share of the
    /// iteration's root nodes; returns the factor for the soft limit.
    pub(crate) fn after_iteration(
        &mut self,
        best: M,
        score: i32,
        best_share: f64,
        params: &SearchParams,
    ) -> f64 {
        self.stability = if self.best == Some(best) {
            self.stability + 1
        } else {
            0
        };
        self.best = Some(best);
        let drop = self.score.map_or(0, |last| last - score);
        self.score = Some(score);
        soft_scale(self.stability, best_share, drop, params)
    }
}

/// The soft limit's factor for a best move `stability` iterations old, with `best_share`
/// of the root's nodes, whose score fell by `drop` (see [`SearchParams::tm_stability`]).
pub(crate) fn soft_scale(stability: u32, best_share: f64, drop: i32, params: &SearchParams) -> f64 {
    let stability = f64::from(stability.min(8));
    let by_stability = 1.0 + f64::from(params.tm_stability) * (4.0 - stability) / 100.0;
    let by_nodes = 1.0 + f64::from(params.tm_nodes) * (0.75 - best_share.clamp(0.0, 1.0)) / 100.0;
    let by_score = 1.0 + f64::from(params.tm_score) * f64::from(drop) / 10_000.0;
    by_stability.clamp(0.5, 2.0) * by_nodes.clamp(0.4, 2.0) * by_score.clamp(0.8, 1.6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_course_stretches_an_unsettled_move_and_shrinks_a_settled_one() {
        let params = SearchParams {
            tm_stability: 6,
            tm_nodes: 200,
            tm_score: 100,
            ..SearchParams::DEFAULT
        };
        let neutral = soft_scale(4, 0.75, 0, &params);
        assert!((neutral - 1.0).abs() < 1e-9, "{neutral}");
        // A new best move, a small share of the nodes, a falling score: each stretches.
        assert!(soft_scale(0, 0.75, 0, &params) > 1.2);
        assert!(soft_scale(4, 0.3, 0, &params) > 1.8);
        assert!(soft_scale(4, 0.75, 50, &params) > 1.4);
        // A settled best move that takes nearly all nodes with a rising score: shrinks.
        assert!(soft_scale(8, 0.98, -40, &params) < 0.5);
        // Off: the soft limit as the clock gives it.
        let off = SearchParams::OFF;
        assert_eq!(soft_scale(0, 0.1, 300, &off), 1.0);

        let mut course = SearchCourse::new();
        assert!(course.after_iteration(7, 20, 0.75, &params) > 1.2);
        let mut scale = 0.0;
        for _ in 0..8 {
            scale = course.after_iteration(7, 20, 0.75, &params);
        }
        assert!(scale < 0.8, "{scale}");
        // The best move changes: stretched again.
        assert!(course.after_iteration(8, 20, 0.75, &params) > 1.2);
    }

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn movetime_is_used_in_full_less_the_overhead() {
        let limits = |movetime, overhead| Limits {
            movetime: Some(ms(movetime)),
            move_overhead: ms(overhead),
            ..Limits::default()
        };
        assert_eq!(limits(500, 20).time_budget(0), (None, Some(ms(480))));
        // The overhead never takes more than a tenth.
        assert_eq!(limits(100, 20).time_budget(1), (None, Some(ms(90))));
        assert_eq!(limits(0, 20).time_budget(0), (None, Some(ms(0))));
    }

    #[test]
    fn a_clock_gives_a_soft_and_a_hard_limit() {
        let limits = Limits {
            clock: Some(Clock {
                time: [Some(ms(30_040)), None],
                increment: [ms(400), ms(0)],
                moves_to_go: None,
            }),
            move_overhead: ms(20),
            ..Limits::default()
        };
        // 30 s (the clock less twice the overhead) / 30 moves + 3/4 of 400 ms.
        assert_eq!(limits.time_budget(0), (Some(ms(1300)), Some(ms(5200))));
        assert_eq!(limits.time_budget(1), (None, None));
    }

    #[test]
    fn a_short_clock_keeps_twice_the_overhead() {
        let limits = |left| Limits {
            clock: Some(Clock {
                time: [Some(ms(left)), Some(ms(left))],
                increment: [ms(1), ms(1)],
                moves_to_go: None,
            }),
            move_overhead: ms(20),
            ..Limits::default()
        };
        // 50 ms + 1 ms: 10 ms above the reserve of 40 ms, a thirtieth of it and 3/4 ms at
        // first, a third of it at most.
        let (soft, hard) = limits(50).time_budget(0);
        assert_eq!(soft, Some(ms(10) / 30 + Duration::from_micros(750)));
        assert_eq!(hard, Some(ms(10) / 3));
        // At or below the reserve a move is made at once (the first iteration only).
        for left in [40, 25, 0] {
            assert_eq!(limits(left).time_budget(1), (Some(ms(0)), Some(ms(0))));
        }
    }
}
