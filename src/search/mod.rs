//! Iterative-deepening negamax alpha-beta with principal-variation search, aspiration
//! windows, a transposition table and quiescence, written once for every [`Game`].
//!
//! Whose turn it is comes from the position: when a move leaves the same side to move (an
//! extra move after a capture) the child's score is taken as it is and the window is passed
//! unchanged; only when the side changes is the score negated and the window flipped.

mod eval_cache;
mod history;
mod line;
mod movepick;
mod params;
mod score;
mod skill;
mod stack;
mod threads;
mod timeman;

use crate::evaluation::Evaluation;
use crate::search_hints::SearchHints;
pub use params::{ParamChanges, SearchParams, Tuning};
pub use score::{MATE, MAX_DEPTH, MAX_PLY, Score};
pub use skill::Skill;
use timeman::TimeManager;
pub use timeman::{Clock, DEFAULT_MOVE_OVERHEAD, Limits};

/// Largest `MultiPV` value.
pub const MAX_MULTIPV: usize = 64;

use crate::game::{MoveList, Outcome};
use crate::nnue::{Evaluator, Network};
use crate::tt::{Bound, Table};
use eval_cache::EvalCache;
use history::{Context, Histories};
use line::Line;
use movepick::{MovePicker, Stage};
use score::{INFINITY, MATE_BOUND, mate_distance_window, score_from_tt, score_to_tt};
use stack::Stack;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use threads::{Completed, Helper, HelperLimits, NodeCount, Shared};

/// One line of search progress (an `info` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info<M> {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the line with MultiPV.
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    pub nps: u64,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    pub pv: Vec<M>,
}

/// `info depth … score … nodes … pv …`, as the protocol prints it (and the browser's engine
/// gives its page, src/gui/local.rs).
impl<M: std::fmt::Display> std::fmt::Display for Info<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} hashfull {}",
            self.depth,
            self.seldepth,
            self.multipv,
            self.score,
            self.nodes,
            self.nps,
            self.time.as_millis(),
            self.hashfull
        )?;
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for mv in &self.pv {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

/// What a search settled on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// `None` only when the game is over at the root.
    pub best: Option<M>,
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<M>,
}

/// The search state that lives across searches: the shared transposition table and one
/// [`Worker`] per thread: the main thread's, which keeps the time and reports, runs on the
/// caller's thread; each helper's on a thread of its own, parked between searches. The move
/// is that of the thread with the best completed iteration.
pub struct Searcher<G: SearchHints> {
    tt: Arc<Table>,
    /// Boxed: a worker is large, and a searcher is moved to and from search threads.
    main: Box<Worker<G>>,
    helpers: Vec<Helper<G>>,
    shared: Arc<Shared>,
    /// `go searchmoves`: the root moves the next search may play (empty: all).
    search_moves: Vec<G::Move>,
    /// The network every worker evaluates with (`None`: the classical evaluation).
    network: Option<Arc<Network>>,
}

/// One thread's search: its own ordering tables, repetition line and node counter; the
/// transposition table is shared. Aligned to 128 bytes so that no other thread's data
/// shares a cache line with it: its thread writes its fields at every node.
#[repr(align(128))]
struct Worker<G: Evaluation> {
    tt: Arc<Table>,
    shared: Arc<Shared>,
    /// 0 for the main thread, which keeps the time and the limits; helpers (1, 2…) search
    /// until it has finished.
    index: usize,
    /// The main thread's clock and stop rules, from its first search on; helpers have none.
    time: Option<TimeManager<G::Move>>,
    /// How often quiet moves caused cut-offs.
    histories: Histories,
    line: Line,
    /// What the search knows and keeps of each ply of the current line.
    stack: Stack<G::Move>,
    /// The depth of the iteration being searched (extensions stop at twice it).
    root_depth: i32,
    /// This game's pruning margins ([`SearchHints::SEARCH_PARAMS`]).
    params: SearchParams,
    // Per-search state.
    nodes: u64,
    /// `nodes` as the main thread reads it (helpers publish it).
    published: Arc<NodeCount>,
    /// The main thread's view of the helpers' counts.
    helper_counts: Vec<Arc<NodeCount>>,
    /// The other threads' nodes in the shared count when the main thread last looked
    /// (every 1024 nodes), for the node limit.
    helper_nodes_seen: u64,
    seldepth: usize,
    /// All threads' nodes at which this one stops: the main thread's is its time manager's
    /// for the current iteration ([`TimeManager::node_limit`]), a helper's its job's.
    node_limit: Option<u64>,
    aborted: bool,
    root_excluded: Vec<G::Move>,
    /// The root moves to search (`go searchmoves`); empty: all.
    root_allowed: Vec<G::Move>,
    exact: bool,
    /// The network's evaluation when one is in force; the game's classical one otherwise.
    network: Option<Evaluator<G>>,
    /// The evaluations of positions met before ([`eval_cache`]).
    eval_cache: EvalCache,
    /// Nodes spent under each root move in the current iteration (the main thread's time
    /// management reads the best move's share).
    root_move_nodes: Vec<(G::Move, u64)>,
    /// This search's deepest completed iteration (of the first line), within the depth
    /// limit: what this thread would answer.
    completed: Option<Completed<G::Move>>,
}

/// Moves from the root that make up a principal variation.
type Pv<M> = Vec<M>;

impl<G: SearchHints> Searcher<G> {
    /// A searcher with a table of `hash_megabytes` MB, or of the smallest size if that much
    /// memory cannot be had (use [`Searcher::set_hash`] to learn about failures).
    pub fn new(hash_megabytes: usize) -> Self {
        let tt = Table::new(hash_megabytes).unwrap_or_else(|error| {
            tracing::warn!(%error, "falling back to the smallest hash table");
            Table::new(0).expect("a one-bucket table always fits")
        });
        let tt = Arc::new(tt);
        let shared = Arc::new(Shared::default());
        let mut searcher = Searcher {
            main: Box::new(Worker::new(Arc::clone(&tt), Arc::clone(&shared), 0)),
            helpers: Vec::new(),
            tt,
            shared,
            search_moves: Vec::new(),
            network: None,
        };
        searcher.clear_table();
        searcher
    }

    /// Evaluates with `network` from now on, or with the game's classical evaluation
    /// (`None`). The network must be for this game ([`Network::check`]).
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.each_worker(|worker| {
            worker.network = network.clone().map(|n| Evaluator::new(n, MAX_PLY));
            worker.eval_cache.clear();
        });
        self.network = network;
    }

    /// Applies `change` to every thread's worker (no search runs: `&mut self`).
    fn each_worker(&mut self, mut change: impl FnMut(&mut Worker<G>)) {
        change(&mut *self.main);
        for helper in &self.helpers {
            change(&mut *helper.worker());
        }
    }

    /// The flag that ends a running search when set (from any thread). The search never
    /// clears it: whoever starts a search clears it first, so a `stop` sent right after
    /// `go` is never lost.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.shared.stop)
    }

    /// The flag that a search started with [`Limits::ponder`] keeps set while it ponders;
    /// clearing it (the `ponderhit`) starts the clock of the search.
    pub fn ponder_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.shared.ponder)
    }

    /// Searches with these margins from now on (the game's own are [`SearchHints::SEARCH_PARAMS`]).
    pub fn set_params(&mut self, params: SearchParams) {
        self.each_worker(|worker| worker.params = params);
    }

    /// Turns off (or on again) everything that makes a fixed-depth value differ from the
    /// minimax value: the transposition table and late move reductions. Tests rely on it.
    pub fn set_exact(&mut self, exact: bool) {
        self.each_worker(|worker| worker.exact = exact);
    }

    /// Replaces the transposition table by an empty one of the given size, or keeps the old
    /// table and says why if that much memory cannot be had.
    pub fn set_hash(&mut self, megabytes: usize) -> Result<(), String> {
        // The new table is only address space until cleared, so the old one can stay
        // until the new one is had, and is gone before the new one takes memory.
        let table = Table::new(megabytes)?;
        self.replace_table(table);
        self.clear_table();
        Ok(())
    }

    fn replace_table(&mut self, table: Table) {
        let tt = Arc::new(table);
        self.each_worker(|worker| worker.tt = Arc::clone(&tt));
        self.tt = tt;
    }

    /// Searches with `threads` threads from now on (at least one): helpers beyond are
    /// stopped and their threads ended, new ones started (with empty ordering tables). A
    /// helper whose thread the system cannot start is left out, and said so.
    pub fn set_threads(&mut self, threads: usize) {
        self.helpers.truncate(threads.max(1) - 1);
        while self.helpers.len() + 1 < threads {
            let index = self.helpers.len() + 1;
            let mut worker = Worker::new(Arc::clone(&self.tt), Arc::clone(&self.shared), index);
            worker.exact = self.main.exact;
            worker.network = self.network.clone().map(|n| Evaluator::new(n, MAX_PLY));
            match Helper::start(worker) {
                Ok(helper) => self.helpers.push(helper),
                Err(error) => {
                    tracing::warn!(%error, "cannot start a helper thread; searching without it");
                    break;
                }
            }
        }
        self.main.helper_counts = self
            .helpers
            .iter()
            .map(|helper| Arc::clone(&helper.worker().published))
            .collect();
    }

    /// Restricts the root of the next search to `moves` (`go searchmoves`); moves that are
    /// not legal there are ignored, and if none is, all moves are searched.
    pub fn set_search_moves(&mut self, moves: &[G::Move]) {
        self.search_moves = moves.to_vec();
    }

    /// Forgets everything learnt (a new game): afterwards searches are reproducible.
    pub fn clear(&mut self) {
        self.clear_table();
        self.each_worker(|worker| {
            worker.histories.clear();
            worker.eval_cache.clear();
            worker.stack.clear_killers();
        });
    }

    /// Empties the transposition table in place, every search thread writing a share.
    fn clear_table(&mut self) {
        // Only `self.tt` may hold the table while it is written.
        let tiny = Arc::new(Table::new(0).expect("a one-bucket table always fits"));
        self.each_worker(|worker| worker.tt = Arc::clone(&tiny));
        let threads = 1 + self.helpers.len();
        if let Some(table) = Arc::get_mut(&mut self.tt) {
            table.clear(threads);
        }
        let tt = Arc::clone(&self.tt);
        self.each_worker(|worker| worker.tt = Arc::clone(&tt));
    }

    /// Searches `root` within `limits`. `history` holds the hashes of the positions played
    /// before it in this game (for repetition); the [`Searcher::stop_flag`] ends it early.
    /// Each finished iteration (and MultiPV line) is passed to `on_info`.
    pub fn search(
        &mut self,
        root: &G,
        history: &[u64],
        limits: &Limits,
        multipv: usize,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        self.shared.prepare();

        let mut root_moves = MoveList::new();
        root.legal_moves(&mut root_moves);
        let allowed: Vec<G::Move> = std::mem::take(&mut self.search_moves)
            .into_iter()
            .filter(|mv| root_moves.contains(mv))
            .collect();
        let first = allowed.first().or(root_moves.first()).copied();
        let mut result = SearchResult {
            best: first,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: first.into_iter().collect(),
        };
        if root_moves.is_empty() {
            result.score = Score::from_internal(self.main.terminal_score(root, 0));
            return result;
        }
        let root_count = if allowed.is_empty() {
            root_moves.len()
        } else {
            allowed.len()
        };
        let lines = multipv.clamp(1, root_count);
        for helper in &self.helpers {
            let mut worker = helper.worker();
            worker.root_allowed.clone_from(&allowed);
            // Before any thread starts: the main thread must not read what is left of the
            // last search (nor take its answer, should this helper not get to begin).
            worker.published.publish(0);
            worker.completed = None;
        }
        self.main.root_allowed = allowed;
        let time = TimeManager::start(
            limits,
            root.to_move().index(),
            Arc::clone(&self.shared.ponder),
        );
        let helper_limits = HelperLimits {
            nodes: limits.nodes,
            max_depth: time.max_depth(),
        };
        self.main.time = Some(time);
        let mut result = threads::search_together(
            &mut self.main,
            &self.helpers,
            root,
            history,
            helper_limits,
            |main| main.iterate(root, history, lines, result, on_info),
        );
        // The threads have stopped: their counts are final.
        result.nodes = self.main.nodes
            + self
                .helpers
                .iter()
                .map(|helper| helper.worker().nodes)
                .sum::<u64>();
        if lines == 1 {
            self.answer_from_best_thread(&mut result, on_info);
        }
        result
    }

    /// Makes `result` the answer of the thread with the best completed iteration
    /// ([`threads::better`]) if that is a helper, and reports its line: the move played, its
    /// PV, score and depth are then all that thread's.
    fn answer_from_best_thread(
        &self,
        result: &mut SearchResult<G::Move>,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) {
        let Some(main_best) = &self.main.completed else {
            // Not even the main thread's first iteration completed: its default move stands.
            return;
        };
        let mut best = None;
        for helper in &self.helpers {
            let worker = helper.worker();
            if let Some(completed) = &worker.completed
                && threads::better(completed, best.as_ref().unwrap_or(main_best))
            {
                best = Some(completed.clone());
            }
        }
        let Some(best) = best else {
            return;
        };
        *result = SearchResult {
            best: best.pv.first().copied(),
            score: Score::from_internal(best.score),
            depth: best.depth,
            nodes: result.nodes,
            pv: best.pv.clone(),
        };
        let time = self
            .main
            .time
            .as_ref()
            .map_or(Duration::ZERO, TimeManager::elapsed);
        on_info(&Info {
            depth: best.depth,
            seldepth: best.seldepth,
            multipv: 1,
            score: result.score,
            nodes: result.nodes,
            time,
            nps: (result.nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
            hashfull: self.tt.hashfull(),
            pv: best.pv.clone(),
        });
    }
}

impl<G: SearchHints> Worker<G> {
    fn new(tt: Arc<Table>, shared: Arc<Shared>, index: usize) -> Self {
        Worker {
            tt,
            shared,
            index,
            time: None,
            histories: Histories::new(G::MOVE_INDEX_LIMIT),
            line: Line::new(),
            stack: Stack::new(),
            root_depth: 0,
            params: SearchParams::of::<G>(),
            nodes: 0,
            published: Arc::default(),
            helper_counts: Vec::new(),
            helper_nodes_seen: 0,
            seldepth: 0,
            node_limit: None,
            aborted: false,
            root_excluded: Vec::new(),
            root_allowed: Vec::new(),
            exact: false,
            network: None,
            eval_cache: EvalCache::new(),
            root_move_nodes: Vec::new(),
            completed: None,
        }
    }

    /// The static evaluation of `position`, met at `ply`, from the side to move's view.
    fn evaluate(&mut self, position: &G, ply: usize) -> i32 {
        let key = position.hash();
        if let Some(eval) = self.eval_cache.get(key) {
            return eval;
        }
        let eval = match &mut self.network {
            Some(network) => network.evaluate(position, ply),
            None => position.evaluate(),
        };
        self.eval_cache.put(key, eval);
        eval
    }

    /// Resets the per-search state.
    fn begin(&mut self, history: &[u64]) {
        self.nodes = 0;
        self.helper_nodes_seen = 0;
        self.aborted = false;
        self.completed = None;
        // The main thread's node limit is set at each iteration ([`Worker::iterate`]).
        self.node_limit = None;
        self.line.reset(history);
        self.histories.age(self.index);
    }

    /// Nodes of all threads: the main thread's own count plus what the helpers published.
    fn total_nodes(&self) -> u64 {
        self.nodes + self.helper_nodes()
    }

    /// What the helpers have published (none for a helper itself).
    fn helper_nodes(&self) -> u64 {
        self.helper_counts.iter().map(|count| count.read()).sum()
    }

    /// The main thread's time manager (set by [`Searcher::search`] before it searches).
    fn time(&mut self) -> &mut TimeManager<G::Move> {
        self.time
            .as_mut()
            .expect("the main thread searches with a time manager")
    }

    /// The main thread's iterative deepening: reports each iteration and asks its time
    /// manager when to stop. `result` is the answer if not even the first iteration
    /// completes.
    fn iterate(
        &mut self,
        root: &G,
        history: &[u64],
        lines: usize,
        mut result: SearchResult<G::Move>,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        self.begin(history);
        let max_depth = self.time().max_depth();
        let mut previous_scores = vec![0; lines];

        'deepening: for depth in 1..=max_depth {
            self.node_limit = self.time().node_limit(depth);
            self.root_excluded.clear();
            self.root_move_nodes.clear();
            for (line_index, previous_score) in previous_scores.iter_mut().enumerate() {
                self.seldepth = 0;
                let mut pv = Pv::new();
                let score = self.aspiration(root, depth, *previous_score, &mut pv);
                if self.aborted || (self.stopped() && depth > 1) {
                    // An interrupted iteration's best move stands once a root move has
                    // been searched fully and raised the score.
                    if self.aborted && line_index == 0 && depth > 1 && !pv.is_empty() {
                        result.best = pv.first().copied();
                        result.pv = pv;
                    }
                    break 'deepening;
                }
                *previous_score = score;
                let Some(&best) = pv.first() else {
                    break 'deepening;
                };
                self.root_excluded.push(best);
                if line_index == 0 {
                    let (share, params) = (self.root_share(best), self.params);
                    self.time().after_iteration(best, score, share, &params);
                    result = SearchResult {
                        best: Some(best),
                        score: Score::from_internal(score),
                        depth,
                        nodes: self.nodes,
                        pv: pv.clone(),
                    };
                    self.completed = Some(Completed {
                        depth,
                        seldepth: self.seldepth.max(depth as usize) as u32,
                        score,
                        pv: pv.clone(),
                    });
                }
                let time = self.time().elapsed();
                let nodes = self.total_nodes();
                on_info(&Info {
                    depth,
                    seldepth: self.seldepth.max(depth as usize) as u32,
                    multipv: line_index + 1,
                    score: Score::from_internal(score),
                    nodes,
                    time,
                    nps: (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
                    hashfull: self.tt.hashfull(),
                    pv,
                });
            }
            if self.stopped() || self.time().stop_after_iteration(depth, result.score) {
                break;
            }
        }
        result
    }

    /// `best`'s share of the nodes spent under root moves in this iteration.
    fn root_share(&self, best: G::Move) -> f64 {
        let total: u64 = self.root_move_nodes.iter().map(|&(_, n)| n).sum();
        let under_best = self
            .root_move_nodes
            .iter()
            .find(|&&(mv, _)| mv == best)
            .map_or(0, |&(_, n)| n);
        under_best as f64 / total.max(1) as f64
    }

    /// A helper thread's iterative deepening: the main thread's searches, every depth (in
    /// its own move order), until the main thread has finished.
    fn help(&mut self, root: &G, history: &[u64], limits: HelperLimits) {
        self.begin(history);
        // Past the limit a helper's nodes are wasted: it stops, and the main thread
        // finishes the search.
        self.node_limit = limits.nodes;
        self.root_excluded.clear();
        let mut previous = 0;
        // Past the depth limit a helper still fills the table for the main thread, but its
        // iterations no longer count for the answer.
        let max_depth = limits.max_depth;
        for depth in 1..=MAX_DEPTH {
            self.seldepth = 0;
            let mut pv = Pv::new();
            let score = self.aspiration(root, depth, previous, &mut pv);
            if self.aborted {
                break;
            }
            previous = score;
            if depth <= max_depth && !pv.is_empty() {
                self.completed = Some(Completed {
                    depth,
                    seldepth: self.seldepth.max(depth as usize) as u32,
                    score,
                    pv,
                });
            }
        }
        self.published.publish(self.nodes);
    }

    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    /// Searches the root in a narrow window around the last score, widening on failure.
    fn aspiration(&mut self, root: &G, depth: u32, guess: i32, pv: &mut Pv<G::Move>) -> i32 {
        let params = self.params;
        let mut delta = params.aspiration_delta;
        let (mut alpha, mut beta) = if delta > 0 && depth >= 4 && guess.abs() < MATE_BOUND {
            (guess - delta, guess + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        self.root_depth = depth as i32;
        loop {
            let score = self.negamax(root, depth as i32, 0, alpha, beta, false, pv);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return score;
            }
            delta = (delta * params.aspiration_growth / 100).max(delta + 1);
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Counts a node and checks the limits (clock and stop flags every 1024 nodes).
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self
            .node_limit
            .is_some_and(|limit| self.nodes + self.helper_nodes_seen >= limit)
        {
            self.aborted = true;
        }
        if self.nodes & 1023 == 0 {
            self.check_flags();
        }
    }

    #[cold]
    fn check_flags(&mut self) {
        let all_nodes = self.shared.add_nodes();
        let Some(time) = &mut self.time else {
            // A helper: it stops when the main thread has finished, or at the node limit.
            self.published.publish(self.nodes);
            if self.shared.main_done.load(Ordering::Relaxed)
                || self.node_limit.is_some_and(|limit| all_nodes >= limit)
            {
                self.aborted = true;
            }
            return;
        };
        // The main thread has added exactly its own nodes so far (1024 at each call).
        self.helper_nodes_seen = all_nodes.saturating_sub(self.nodes);
        if time.out_of_time() || self.shared.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
    }

    fn terminal_score(&self, position: &G, ply: usize) -> i32 {
        match position.outcome() {
            Some(Outcome::Win(player)) if player == position.to_move() => MATE - ply as i32,
            Some(Outcome::Win(_)) => -(MATE - ply as i32),
            Some(Outcome::Draw) | None => 0,
        }
    }

    /// Searches `child` (reached from a position of `mover`) and returns its value from the
    /// mover's view: the window flips only if the side to move changed.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child_value(
        &mut self,
        child: &G,
        same_side: bool,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        cut_node: bool,
        pv: &mut Pv<G::Move>,
    ) -> i32 {
        if same_side {
            self.negamax(child, depth, ply, alpha, beta, cut_node, pv)
        } else {
            -self.negamax(child, depth, ply, -beta, -alpha, cut_node, pv)
        }
    }

    /// `cut_node`: a node of a null window expected to fail high (its parent expects the
    /// move that led here to fail low for the side that made it, or, when the same side moves
    /// again, to fail high); late move reductions may go deeper there.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        position: &G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        cut_node: bool,
        pv: &mut Pv<G::Move>,
    ) -> i32 {
        pv.clear();
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(position, ply, alpha, beta);
        }
        self.count_node();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = position.hash();
        if !self.exact {
            self.tt.prefetch(key);
            self.eval_cache.prefetch(key);
        }
        if ply > 0 && self.line.contains(key) {
            return 0;
        }

        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.terminal_score(position, ply);
        }
        let is_pv = beta - alpha > 1;
        let beta = if ply > 0 {
            match mate_distance_window(ply, alpha, beta) {
                Ok((a, b)) => {
                    alpha = a;
                    b
                }
                Err(bound) => return bound,
            }
        } else {
            beta
        };
        let hit = if !self.exact {
            self.tt.probe(key)
        } else {
            None
        };
        let excluded = self.stack[ply].excluded;
        if let Some(hit) =
            hit.filter(|h| ply > 0 && !is_pv && excluded.is_none() && h.depth >= depth as u32)
        {
            let score = score_from_tt(hit.score, ply);
            if hit.bound.cuts(score, alpha, beta) {
                return score;
            }
        }
        let tt_move = hit
            .and_then(|h| h.move_slot)
            .and_then(|slot| moves.get(usize::from(slot)).copied());
        // Internal iterative reduction: a node the table knows no move for was not
        // searched before (or is new to this line): search it shallower, and let the next
        // iteration, with a move to try first, go deeper.
        let depth = if !self.exact && tt_move.is_none() && depth >= self.params.iir_depth {
            depth - 1
        } else {
            depth
        };
        let me = position.to_move().index();
        let static_eval = (!self.exact).then(|| self.evaluate(position, ply));
        self.stack.enter(ply, me, static_eval);
        let improving = self.stack.improving(ply);
        let params = self.params;
        let prunable = !is_pv && ply > 0 && excluded.is_none();
        if let Some(score) = static_eval
            .filter(|_| prunable)
            .and_then(|eval| self.reverse_futility(eval, depth, beta, improving))
        {
            return score;
        }
        if prunable
            && let Some(eval) = static_eval
            && let Some(score) = self.null_move_cut(position, eval, depth, ply, beta, cut_node)
        {
            return score;
        }
        let extension = match (tt_move, hit) {
            (Some(tt_move), Some(hit)) if ply > 0 && excluded.is_none() => {
                match self.singular(
                    position,
                    tt_move,
                    hit,
                    depth,
                    ply,
                    beta,
                    cut_node,
                    static_eval,
                ) {
                    Ok(extension) => extension,
                    Err(score) => return score,
                }
            }
            _ => 0,
        };
        let context = self.context(ply, me);
        let mut picker = MovePicker::new(
            std::mem::take(&mut self.stack[ply].scored),
            &moves,
            tt_move,
            self.stack[ply].killers,
            |mv| position.is_tactical(mv),
            |mv| self.histories.score(me, G::move_index(mv), context),
        );
        // The quiet moves searched here (move indices), for the malus when another cuts.
        let mut quiets_tried = std::mem::take(&mut self.stack[ply].quiets);
        quiets_tried.clear();

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut child_pv = Pv::new();
        let mut searched = 0;
        // Futility: this near the horizon, a static evaluation this far below alpha is not
        // raised by a quiet move. Not when alpha is already a win: no evaluation reaches it,
        // and a faster win may begin with any quiet move (the pruning lengthened mates).
        let futile = static_eval.is_some_and(|eval| {
            depth <= params.futility_depth
                && alpha < MATE_BOUND
                && eval + params.futility_base + params.futility_margin * depth <= alpha
        });
        while let Some((mv, stage)) = picker.next() {
            if Some(mv) == excluded {
                continue;
            }
            if ply == 0 && self.root_skips(mv) {
                continue;
            }
            let quiet = !position.is_tactical(mv);
            // Futility: when the position is futile, the quiet moves left (all the rest:
            // captures are ordered first) are not searched, as long as one move has saved
            // the side from a known loss.
            if ply > 0 && futile && best_score > -MATE_BOUND && !self.exact && quiet {
                break;
            }
            let move_index = G::move_index(mv);
            let nodes_before = self.nodes;
            let mut child = position.clone();
            child.play(mv);
            if !self.exact {
                // Asked for here, the child's bucket arrives while the parent's bookkeeping
                // runs, not only during the child's move generation.
                self.tt.prefetch(child.hash());
                self.eval_cache.prefetch(child.hash());
            }
            let same_side = child.to_move() == position.to_move();
            self.stack.play(ply, Some(move_index));
            self.line.push(key);
            // Every search of this child starts its window at alpha; only the depth, the
            // upper bound and whether this move is expected to cut vary. A null-window child
            // is a cut node when the side that moves there expects to fail high.
            let mut search = |this: &mut Self, depth: i32, upper: i32, expect_cut: bool| {
                let child_cut = upper == alpha + 1 && same_side == expect_cut;
                this.child_value(
                    &child,
                    same_side,
                    depth,
                    ply + 1,
                    alpha,
                    upper,
                    child_cut,
                    &mut child_pv,
                )
            };
            let extension = if Some(mv) == tt_move { extension } else { 0 };
            let score = if searched == 0 {
                search(self, depth - 1 + extension, beta, cut_node)
            } else {
                // Late quiet moves are searched shallower first; one that surprises is
                // searched again at full depth.
                let reduction = if stage == Stage::Quiet {
                    let history = self.histories.score(me, move_index, context);
                    self.reduction(depth, searched, is_pv, cut_node, history)
                } else {
                    0
                };
                let mut score = search(self, depth - 1 - reduction, alpha + 1, false);
                if reduction > 0 && score > alpha && !self.aborted {
                    score = search(self, depth - 1, alpha + 1, cut_node);
                }
                if score > alpha && score < beta && !self.aborted {
                    score = search(self, depth - 1, beta, false);
                }
                score
            };
            self.line.pop();
            searched += 1;
            if ply == 0 {
                self.count_root_move(mv, self.nodes - nodes_before);
            }
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    pv.clear();
                    pv.push(mv);
                    pv.extend_from_slice(&child_pv);
                }
            }
            if alpha >= beta {
                if quiet {
                    self.reward_quiet(mv, ply, me, depth, context, &quiets_tried);
                }
                break;
            }
            if quiet {
                quiets_tried.push(move_index);
            }
        }
        self.stack[ply].scored = picker.into_list();
        self.stack[ply].quiets = quiets_tried;
        if searched == 0 {
            // Every root move was excluded by MultiPV: nothing to report.
            return -INFINITY;
        }
        if excluded.is_none() {
            self.store_result(
                key,
                &moves,
                best_move,
                best_score,
                original_alpha,
                beta,
                depth,
                ply,
            );
        }
        best_score
    }

    /// Reverse futility (static null move): a position this far above beta this near the
    /// horizon keeps a cut-off whatever is played (the margin grows with the depth left,
    /// and shrinks when the side to move's evaluation has risen since its previous
    /// decision). The score to return, or `None` to search on.
    fn reverse_futility(&self, eval: i32, depth: i32, beta: i32, improving: bool) -> Option<i32> {
        let params = &self.params;
        (depth <= params.rfp_depth
            && eval < MATE_BOUND
            && beta > -MATE_BOUND
            && eval - params.rfp_margin * (depth - i32::from(improving)) >= beta)
            .then_some((eval + beta) / 2)
    }

    /// Null move: if handing the opponent a free move still leaves us above beta, a real
    /// move will too (skipped near mates and where the game has no pass). The score to
    /// return, or `None` to search on.
    fn null_move_cut(
        &mut self,
        position: &G,
        eval: i32,
        depth: i32,
        ply: usize,
        beta: i32,
        cut_node: bool,
    ) -> Option<i32> {
        if self.params.null_move == 0 || depth < 3 || beta.abs() >= MATE_BOUND || eval < beta {
            return None;
        }
        let null = position.null_move()?;
        let mut null_pv = Pv::new();
        self.stack.play(ply, None);
        self.line.push(position.hash());
        let score = -self.negamax(
            &null,
            depth - 1 - self.params.null_base,
            ply + 1,
            -beta,
            -beta + 1,
            !cut_node,
            &mut null_pv,
        );
        self.line.pop();
        if self.aborted {
            return Some(0);
        }
        (score >= beta).then_some(score.min(MATE_BOUND))
    }

    /// Singular extension: when the table's move, searched before to nearly this depth
    /// and found to cut, is the only move that holds (the others, searched shallower
    /// without it, all fall short of its score by a margin), it is searched a ply
    /// deeper: `Ok(1)`. If another move holds as well and even the lowered bound is above
    /// beta, the node cuts at once (multi-cut): `Err` with the score to return.
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        position: &G,
        tt_move: G::Move,
        hit: crate::tt::Hit,
        depth: i32,
        ply: usize,
        beta: i32,
        cut_node: bool,
        static_eval: Option<i32>,
    ) -> Result<i32, i32> {
        let params = self.params;
        if params.singular_depth <= 0
            || depth < params.singular_depth
            || (ply as i32) >= 2 * self.root_depth
            || hit.bound == Bound::Upper
            || hit.depth + 3 < depth as u32
        {
            return Ok(0);
        }
        let tt_score = score_from_tt(hit.score, ply);
        if tt_score.abs() >= MATE_BOUND {
            return Ok(0);
        }
        let singular_beta = tt_score - params.singular_margin * depth;
        self.stack[ply].excluded = Some(tt_move);
        let mut singular_pv = Pv::new();
        let score = self.negamax(
            position,
            (depth - 1) / 2,
            ply,
            singular_beta - 1,
            singular_beta,
            cut_node,
            &mut singular_pv,
        );
        self.stack[ply].excluded = None;
        // The search at this ply wrote its own frame: the same position's.
        self.stack
            .enter(ply, position.to_move().index(), static_eval);
        if self.aborted {
            Err(0)
        } else if score < singular_beta {
            Ok(1)
        } else if singular_beta >= beta {
            Err(singular_beta)
        } else {
            Ok(0)
        }
    }

    /// Whether MultiPV (a line already reported) or `searchmoves` leaves the root move `mv`
    /// out.
    fn root_skips(&self, mv: G::Move) -> bool {
        self.root_excluded.contains(&mv)
            || !(self.root_allowed.is_empty() || self.root_allowed.contains(&mv))
    }

    /// Late move reduction of the `searched`-th quiet move (not a killer) of a node at
    /// `depth`: a move with a good `history` is reduced less, one with a bad history more.
    fn reduction(
        &self,
        depth: i32,
        searched: usize,
        is_pv: bool,
        cut_node: bool,
        history: i32,
    ) -> i32 {
        let params = &self.params;
        if self.exact || depth < 3 || searched < params.lmr_moves.max(1) as usize {
            return 0;
        }
        (params.late_move_reduction(depth, searched, is_pv, cut_node)
            - history / params.lmr_history_divisor)
            .clamp(0, depth - 2)
    }

    /// Counts `spent` nodes under the root move `mv` (for time management).
    fn count_root_move(&mut self, mv: G::Move, spent: u64) {
        match self.root_move_nodes.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, nodes)) => *nodes += spent,
            None => self.root_move_nodes.push((mv, spent)),
        }
    }

    /// Stores a node's result in the table (not in exact mode, nor at a root whose moves
    /// MultiPV or `searchmoves` narrowed).
    #[allow(clippy::too_many_arguments)]
    fn store_result(
        &self,
        key: u64,
        moves: &[G::Move],
        best_move: Option<G::Move>,
        best_score: i32,
        original_alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) {
        if self.exact
            || (ply == 0 && !(self.root_excluded.is_empty() && self.root_allowed.is_empty()))
        {
            return;
        }
        let bound = Bound::of(best_score, original_alpha, beta);
        let slot = best_move.and_then(|best| moves.iter().position(|&mv| mv == best));
        // A result of exactly 0 is stored at depth 0: its move still orders the moves,
        // but its score never cuts another search of the position (another thread's
        // above all). A repetition's draw is 0 and holds on its own line only; with
        // two threads, 0s stored at their depth made Akiba's second bench position
        // score 8 to 60 instead of 151 (docs/experiments.md, 3e8ddf9).
        let depth = if best_score == 0 { 0 } else { depth as u32 };
        self.tt.store(
            key,
            slot.map(|s| s as u16),
            score_to_tt(best_score, ply),
            depth,
            bound,
        );
    }

    /// Captures only, until the position is quiet. The side to move may always stand pat,
    /// which in an extra move is the same as passing.
    ///
    /// It reads and writes the table at depth 0: a result of 0 is neither stored nor
    /// trusted (it may be a repetition's draw, [`Worker::negamax`]), and a deeper entry of
    /// the same position is never overwritten.
    fn quiescence(&mut self, position: &G, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.count_node();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // Where the game knows no move would be searched here, they are not listed.
        let mut moves = MoveList::new();
        if !position.nothing_to_resolve() {
            position.legal_moves(&mut moves);
            if moves.is_empty() {
                return self.terminal_score(position, ply);
            }
        }
        let beta = match mate_distance_window(ply, alpha, beta) {
            Ok((a, b)) => {
                alpha = a;
                b
            }
            Err(bound) => return bound,
        };
        let key = position.hash();
        let use_table = !self.exact && self.params.quiescence_table != 0;
        let hit = if use_table { self.tt.probe(key) } else { None };
        if let Some(hit) = hit.filter(|h| h.score != 0 && beta - alpha == 1) {
            let score = score_from_tt(hit.score, ply);
            if hit.bound.cuts(score, alpha, beta) {
                return score;
            }
        }
        let original_alpha = alpha;
        let stand_pat = self.evaluate(position, ply);
        if ply >= MAX_PLY {
            return stand_pat;
        }
        let store = |this: &Self, best: i32, best_move: Option<usize>| {
            if !use_table || best == 0 || hit.is_some_and(|h| h.depth > 0) {
                return;
            }
            let slot = best_move.map(|slot| slot as u16);
            let bound = Bound::of(best, original_alpha, beta);
            this.tt.store(key, slot, score_to_tt(best, ply), 0, bound);
        };
        if stand_pat >= beta {
            store(self, stand_pat, None);
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut best_move = None;
        for (slot, &mv) in moves.iter().enumerate() {
            if !position.is_tactical(mv) {
                continue;
            }
            let mut child = position.clone();
            child.play(mv);
            self.eval_cache.prefetch(child.hash());
            let score = if child.to_move() == position.to_move() {
                self.quiescence(&child, ply + 1, alpha, beta)
            } else {
                -self.quiescence(&child, ply + 1, -beta, -alpha)
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(slot);
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        store(self, best, best_move);
        best
    }

    /// The decisions above the node at `ply` (of player `me`) that key its continuation
    /// histories.
    fn context(&self, ply: usize, me: usize) -> Context {
        if self.params.continuation_history == 0 {
            return Context::default();
        }
        let fold = |index| history::fold(index, G::MOVE_INDEX_LIMIT);
        let previous = ply.checked_sub(1).and_then(|above| {
            let (mover, mv) = self.stack.decision(above);
            mv.map(|mv| (fold(mv), mover == me))
        });
        let own = self
            .stack
            .previous_own(ply)
            .and_then(|above| self.stack.decision(above).1)
            .map(fold);
        Context { previous, own }
    }

    /// A quiet move cut off: it becomes a killer and its histories rise, those of the
    /// quiet moves tried before it fall.
    fn reward_quiet(
        &mut self,
        mv: G::Move,
        ply: usize,
        me: usize,
        depth: i32,
        context: Context,
        tried: &[usize],
    ) {
        self.stack.add_killer(ply, mv);
        let bonus = history::bonus(depth);
        self.histories.update(me, G::move_index(mv), context, bonus);
        for &other in tried {
            self.histories.update(me, other, context, -bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluation::Evaluation;
    use crate::{abraxas, offboard};

    /// Once a win is known, the search looks for a faster one with alpha at that win: no
    /// evaluation reaches it, so futility must not take it as a reason to skip quiet
    /// moves (it did, and lazy SMP's threads then reported longer mates, by tactics whose
    /// mating placement was not the first quiet move tried).
    #[test]
    fn a_known_win_does_not_hide_a_faster_one() {
        // abraxas-tactics-15: xe3 wins in 5 plies; xf3 in 7.
        let position = abraxas::Position::parse(
            "s1 1B6/2R2R2/R6R/4B3/R2BRB2/4RRR1/1B6/1RR1B3 se 1 c r 2 7 4 0 0 8",
            Default::default(),
        )
        .expect("position");
        // One search from an empty table (no iterations before it, so no table moves) needs
        // dm + 3 plies; up to dm + 7 the win in 5 must be found, as it is by one thread
        // deepening to dm + 2 (tests/search.rs).
        for depth in 8..=12 {
            let mut searcher = Searcher::<abraxas::Position>::new(16);
            let worker = &mut searcher.main;
            worker.begin(&[]);
            worker.root_depth = depth;
            let mut pv = Pv::new();
            let known = MATE - 7;
            let score = worker.negamax(&position, depth, 0, known, INFINITY, false, &mut pv);
            assert_eq!(score, MATE - 5, "depth {depth}: PV {pv:?}");
        }
    }

    /// The evaluation cache answers for the evaluation in force: a network set, or taken
    /// away, is not answered from what the one before it said.
    #[test]
    fn another_evaluation_is_not_answered_from_the_cache() {
        let position = abraxas::Position::start(Default::default());
        let network = crate::nnue::choice::resolve::<abraxas::Position>(
            Some(crate::nnue::choice::EvalKind::Network),
            None,
        )
        .expect("the built-in network")
        .expect("a network");
        let by_network = network.evaluate(&position);
        let classical = position.evaluate();
        assert_ne!(by_network, classical, "the test needs two evaluations");
        let mut searcher = Searcher::<abraxas::Position>::new(1);
        assert_eq!(searcher.main.evaluate(&position, 0), classical);
        assert_eq!(searcher.main.evaluate(&position, 0), classical, "cached");
        searcher.set_network(Some(network));
        assert_eq!(searcher.main.evaluate(&position, 0), by_network);
        assert_eq!(searcher.main.evaluate(&position, 0), by_network, "cached");
        searcher.set_network(None);
        assert_eq!(searcher.main.evaluate(&position, 0), classical);
    }

    #[test]
    fn a_result_of_0_is_never_left_in_the_table_to_cut() {
        // Offboard's start is symmetric and its marbles can step back and forth: many
        // results are exactly 0.
        let position = offboard::Position::start(Default::default());
        let mut searcher = Searcher::<offboard::Position>::new(16);
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        searcher.search(&position, &[], &limits, 1, &mut |_| {});
        let entries = searcher.tt.entries();
        let zeros: Vec<_> = entries.iter().filter(|&&(_, score)| score == 0).collect();
        assert!(
            !zeros.is_empty(),
            "no entry scored 0: the test needs a search with results of 0"
        );
        assert!(
            zeros.iter().all(|&&(depth, _)| depth == 0),
            "{} of {} entries scored 0 could cut at depth 1 or more",
            zeros.iter().filter(|&&&(depth, _)| depth > 0).count(),
            zeros.len()
        );
        assert!(entries.iter().any(|&(depth, _)| depth > 0));
    }
}
