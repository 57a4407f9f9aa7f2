//! Time management: how long a search may run, from the limits a `go` gives, and the
//! main thread's [`TimeManager`], which applies them.

use super::params::SearchParams;
use super::score::{MAX_DEPTH, Score};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// The clock and the stop rules of one search, which the main thread alone owns (as
/// Stockfish's `SearchManager`): its iterations ask it whether to go on, and its node-count
/// check whether the time is up. Helpers have none: they stop when the main thread has
/// finished, or at the node limit, which they read from their job.
pub(crate) struct TimeManager<M> {
    limits: Limits,
    /// When the search started: the reports' time.
    started: Instant,
    /// When the time limits started counting: when the `go` was read, or the ponderhit.
    clock_start: Instant,
    /// No new iteration starts after it (as [`TimeManager::soft_scale`] stretches it).
    soft: Option<Duration>,
    /// The search is cut off at `hard` after `clock_start`.
    hard: Option<Duration>,
    hard_deadline: Option<Instant>,
    /// Searching the opponent's time (`go ponder`) while this flag of the searcher's is set:
    /// no time limit until the ponderhit clears it.
    ponder: Arc<AtomicBool>,
    pondering: bool,
    course: SearchCourse<M>,
    /// The soft limit's factor after the last iteration ([`SearchCourse::after_iteration`]).
    soft_scale: f64,
}

impl<M: Copy + PartialEq> TimeManager<M> {
    /// Starts the clock of a search within `limits` for `side` (the side to move's index),
    /// pondering while `ponder` is set if the limits say so.
    pub(crate) fn start(limits: &Limits, side: usize, ponder: Arc<AtomicBool>) -> Self {
        let started = Instant::now();
        let (soft, hard) = limits.time_budget(side);
        let mut time = TimeManager {
            limits: *limits,
            started,
            clock_start: started,
            soft,
            hard,
            hard_deadline: None,
            ponder,
            pondering: limits.ponder,
            course: SearchCourse::new(),
            soft_scale: 1.0,
        };
        time.start_clock(limits.received.unwrap_or(started));
        time
    }

    fn start_clock(&mut self, at: Instant) {
        self.clock_start = at;
        self.hard_deadline = self.hard.map(|hard| at + hard);
    }

    /// Time since the search started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The deepest iteration the search may run.
    pub(crate) fn max_depth(&self) -> u32 {
        self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }

    /// The node limit of the iteration at `depth`: none up to [`Limits::complete_depth`].
    pub(crate) fn node_limit(&self, depth: u32) -> Option<u64> {
        self.limits
            .nodes
            .filter(|_| depth > self.limits.complete_depth)
    }

    /// After a ponderhit the search is an ordinary timed one, its clock starting now.
    fn notice_ponderhit(&mut self) {
        if self.pondering && !self.ponder.load(Ordering::Relaxed) {
            self.pondering = false;
            self.start_clock(Instant::now());
        }
    }

    fn past_hard_deadline(&self) -> bool {
        !self.pondering && self.hard_deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the search must be cut off now (the node-count check, every 1024 nodes).
    pub(crate) fn out_of_time(&mut self) -> bool {
        self.notice_ponderhit();
        self.past_hard_deadline()
    }

    /// Takes a completed iteration's best move, score, and the best move's share of the
    /// iteration's root nodes, which scale the soft limit ([`SearchCourse`]).
    pub(crate) fn after_iteration(
        &mut self,
        best: M,
        score: i32,
        best_share: f64,
        params: &SearchParams,
    ) {
        self.soft_scale = self.course.after_iteration(best, score, best_share, params);
    }

    /// Whether the search stops after completing the iteration at `depth`, whose first line
    /// scored `score`, rather than start the next one.
    pub(crate) fn stop_after_iteration(&mut self, depth: u32, score: Score) -> bool {
        self.notice_ponderhit();
        // An iteration takes a few times longer than the last: do not start one that
        // cannot finish in the soft budget (as the search's course scales it), nor one past
        // the hard limit (the clock is read only every 1024 nodes, which small early
        // iterations may not reach).
        if !self.pondering
            && (self
                .soft
                .is_some_and(|soft| self.clock_start.elapsed() * 2 > soft.mul_f64(self.soft_scale))
                || self.past_hard_deadline())
        {
            return true;
        }
        if let (Some(mate), Score::Mate(n)) = (self.limits.mate, score)
            && n > 0
            && n.unsigned_abs() <= mate
        {
            return true;
        }
        // A mate found within this depth is proven: deeper iterations would find it again.
        !self.limits.infinite
            && self.limits.depth.is_none()
            && matches!(score, Score::Mate(n) if n.unsigned_abs() < depth)
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

    fn manager(limits: Limits, pondering: bool) -> TimeManager<u8> {
        TimeManager::start(&limits, 0, Arc::new(AtomicBool::new(pondering)))
    }

    #[test]
    fn a_ponder_search_has_no_time_limit_until_the_ponderhit() {
        let limits = Limits {
            movetime: Some(ms(0)),
            ponder: true,
            ..Limits::default()
        };
        let mut time = manager(limits, true);
        assert!(!time.out_of_time());
        assert!(!time.stop_after_iteration(3, Score::Cp(0)));
        // The ponderhit: the clock starts, and 0 ms are up at once.
        time.ponder.store(false, Ordering::Relaxed);
        assert!(time.out_of_time());
        assert!(time.stop_after_iteration(3, Score::Cp(0)));
        // Not pondering: the same limits stop at once.
        let mut time = manager(
            Limits {
                ponder: false,
                ..limits
            },
            true,
        );
        assert!(time.out_of_time());
    }

    #[test]
    fn the_stop_rules_after_an_iteration() {
        let mut time = manager(Limits::default(), false);
        assert_eq!(time.max_depth(), MAX_DEPTH);
        assert!(!time.stop_after_iteration(5, Score::Cp(300)));
        assert!(!time.out_of_time());
        // A mate within the depth searched is proven, one beyond it not yet.
        assert!(time.stop_after_iteration(5, Score::Mate(4)));
        assert!(time.stop_after_iteration(5, Score::Mate(-4)));
        assert!(!time.stop_after_iteration(5, Score::Mate(5)));
        // `infinite` and `depth` search on.
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert!(!manager(infinite, false).stop_after_iteration(5, Score::Mate(4)));
        let depth = Limits {
            depth: Some(9),
            ..Limits::default()
        };
        assert!(!manager(depth, false).stop_after_iteration(5, Score::Mate(4)));
        assert_eq!(manager(depth, false).max_depth(), 9);
        // `mate N`: a win in at most N moves ends it, a loss never.
        let mate = Limits {
            mate: Some(3),
            infinite: true,
            ..Limits::default()
        };
        assert!(manager(mate, false).stop_after_iteration(9, Score::Mate(3)));
        assert!(!manager(mate, false).stop_after_iteration(9, Score::Mate(4)));
        assert!(!manager(mate, false).stop_after_iteration(9, Score::Mate(-2)));
        // A soft limit already spent: no new iteration.
        let clock = Limits {
            clock: Some(Clock {
                time: [Some(ms(0)), None],
                ..Clock::default()
            }),
            ..Limits::default()
        };
        assert!(manager(clock, false).stop_after_iteration(1, Score::Cp(0)));
    }

    #[test]
    fn the_node_limit_counts_after_the_complete_depth() {
        let limits = Limits {
            nodes: Some(500),
            complete_depth: 2,
            ..Limits::default()
        };
        let time = manager(limits, false);
        assert_eq!(time.node_limit(1), None);
        assert_eq!(time.node_limit(2), None);
        assert_eq!(time.node_limit(3), Some(500));
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
