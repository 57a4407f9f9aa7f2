//! Lazy SMP: several threads search the same root at once and share only the
//! transposition table, where each finds the others' results. Every helper searches every
//! depth, as the main thread does (Stockfish since version 10: the depth skipping of
//! Stockfish 9 left a helper idle on half the depths), but orders quiet moves a little
//! differently ([`history_jitter`]), so that the threads do not all walk the same tree in
//! the same order. The main thread alone keeps the time (its [`super::timeman::TimeManager`])
//! and reports; when it is done the helpers stop, and the move is that of the thread with the best completed iteration
//! ([`better`]).
//!
//! The helpers' threads live as long as their searcher (or until `Threads` is lowered):
//! each waits, parked, for the next search ([`Helper`]), so that a `go` starts no thread.

use super::Worker;
use super::score::MATE_BOUND;
use crate::game::Game;
use crate::search_hints::SearchHints;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};

/// Stack of a helper thread: deep recursion with move lists on the stack, as on the
/// protocol's search thread.
const HELPER_STACK_BYTES: usize = 64 << 20;

/// What the threads of one searcher share besides the table.
#[derive(Default)]
pub(crate) struct Shared {
    /// The protocol's `stop` (set from any thread).
    pub(crate) stop: Arc<AtomicBool>,
    /// Set while a `go ponder` search waits for its `ponderhit`.
    pub(crate) ponder: Arc<AtomicBool>,
    /// Set when the main thread has finished: the helpers stop.
    pub(crate) main_done: AtomicBool,
    /// All threads' nodes, each adding 1024 at a time, for the node limit: every thread
    /// looks at it, so a helper stops by itself even while the main thread, which ends the
    /// search, waits for a core.
    pub(crate) nodes: AtomicU64,
}

impl Shared {
    /// Before each search (the stop and ponder flags belong to whoever starts it).
    pub(crate) fn prepare(&self) {
        self.main_done.store(false, Ordering::Relaxed);
        self.nodes.store(0, Ordering::Relaxed);
    }

    /// Counts 1024 more nodes of one thread; returns all threads' count.
    pub(crate) fn add_nodes(&self) -> u64 {
        self.nodes.fetch_add(1024, Ordering::Relaxed) + 1024
    }
}

/// A thread's node count as the main thread sees it: written by its own thread alone, every
/// 1024 nodes and at its end (a plain store, no read-modify-write that the threads would
/// contend for), and read by the main thread only when it reports (the node limit uses
/// [`Shared::nodes`]).
/// Aligned to 128 bytes (the two cache lines that adjacent-line prefetchers fetch together)
/// so that nothing another thread writes shares its line.
#[repr(align(128))]
#[derive(Default)]
pub(crate) struct NodeCount(AtomicU64);

impl NodeCount {
    pub(crate) fn publish(&self, nodes: u64) {
        self.0.store(nodes, Ordering::Relaxed);
    }

    pub(crate) fn read(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Helper `index`'s (1-based) own offset, 0..16, to the history score in `slot` (move
/// index and side), added at the start of each of its searches. Where the history does not
/// tell quiet moves apart (at first, all of them) each helper tries them in its own order;
/// where it does, an offset this small changes little. The main thread has none, so one
/// thread searches as it always did.
pub(crate) fn history_jitter(index: usize, slot: usize) -> i32 {
    // Every bit of the index and slot moves every bit of the offset.
    (crate::rng::splitmix(((index as u64) << 32) ^ slot as u64).1 & 15) as i32
}

/// A thread's deepest completed iteration: the move it would play and why.
#[derive(Clone, Debug)]
pub(crate) struct Completed<M> {
    pub(crate) depth: u32,
    pub(crate) seldepth: u32,
    /// From the side to move's view, as the search scores.
    pub(crate) score: i32,
    /// Never empty.
    pub(crate) pv: Vec<M>,
}

/// Whether a thread whose completed iteration is `a` should answer rather than one at `b`
/// (Stockfish's choice of the best thread): the deeper iteration, and at equal depth the
/// higher score; but a proven win beats any score that is not a faster win, at any depth
/// (a shallower search that has proven a win has proven it).
pub(crate) fn better<M>(a: &Completed<M>, b: &Completed<M>) -> bool {
    if a.score > MATE_BOUND || b.score > MATE_BOUND {
        a.score > b.score
    } else {
        (a.depth, a.score) > (b.depth, b.score)
    }
}

/// What a helper needs of a search's limits: it keeps no clock.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HelperLimits {
    /// All threads' nodes at which the helper stops.
    pub(crate) nodes: Option<u64>,
    /// The deepest iteration that counts for the answer.
    pub(crate) max_depth: u32,
}

/// One search as the helpers get it: the main thread's root.
struct Job<G: Game> {
    root: G,
    history: Vec<u64>,
    limits: HelperLimits,
}

/// What a helper thread is told to do.
enum Order<G: Game> {
    /// Wait for the next search (set by the helper when it has finished one).
    Park,
    Search(Arc<Job<G>>),
    Quit,
}

/// The orders of one helper thread and the signal that a new one is given or done.
type Orders<G> = (Mutex<Order<G>>, Condvar);

/// A helper thread and its worker. The worker is locked by the thread while it searches
/// and by the searcher while the thread is parked (to set options, clear the tables and
/// read the answer), so the two never contend.
pub(crate) struct Helper<G: SearchHints> {
    worker: Arc<Mutex<Worker<G>>>,
    orders: Arc<Orders<G>>,
    thread: Option<JoinHandle<()>>,
}

/// A lock that a panic elsewhere does not make unusable: a helper's search that panicked
/// leaves its worker as it was, which the next search resets.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<G: SearchHints> Helper<G> {
    /// Starts the (parked) thread of helper `worker`, or says why the system cannot.
    pub(crate) fn start(worker: Worker<G>) -> io::Result<Helper<G>> {
        let name = format!("helper {}", worker.index);
        let worker = Arc::new(Mutex::new(worker));
        let orders: Arc<Orders<G>> = Arc::new((Mutex::new(Order::Park), Condvar::new()));
        let thread = thread::Builder::new()
            .name(name)
            .stack_size(HELPER_STACK_BYTES)
            .spawn({
                let (worker, orders) = (Arc::clone(&worker), Arc::clone(&orders));
                move || serve(&worker, &orders)
            })?;
        Ok(Helper {
            worker,
            orders,
            thread: Some(thread),
        })
    }

    /// The helper's worker (only while no search runs: a search holds it).
    pub(crate) fn worker(&self) -> MutexGuard<'_, Worker<G>> {
        lock(&self.worker)
    }

    fn order(&self, order: Order<G>) {
        let (order_slot, signal) = &*self.orders;
        *lock(order_slot) = order;
        signal.notify_all();
    }

    /// Waits until the helper has finished its search and parked again.
    fn wait(&self) {
        let (order_slot, signal) = &*self.orders;
        let mut order = lock(order_slot);
        while matches!(*order, Order::Search(_)) {
            order = signal.wait(order).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl<G: SearchHints> Drop for Helper<G> {
    fn drop(&mut self) {
        self.order(Order::Quit);
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            tracing::error!("a helper thread panicked");
        }
    }
}

/// A helper thread's life: each search it is given, parked in between, until told to quit.
fn serve<G: SearchHints>(worker: &Mutex<Worker<G>>, (order_slot, signal): &Orders<G>) {
    loop {
        let job = {
            let mut order = lock(order_slot);
            loop {
                match &*order {
                    Order::Search(job) => break Arc::clone(job),
                    Order::Quit => return,
                    Order::Park => {}
                }
                order = signal.wait(order).unwrap_or_else(PoisonError::into_inner);
            }
        };
        let searched = panic::catch_unwind(AssertUnwindSafe(|| {
            lock(worker).help(&job.root, &job.history, job.limits);
        }));
        if searched.is_err() {
            tracing::error!("a helper thread's search panicked; the main thread's answer stands");
        }
        let mut order = lock(order_slot);
        if matches!(*order, Order::Search(_)) {
            *order = Order::Park;
        }
        signal.notify_all();
    }
}

/// Sets the flag that stops the helpers when dropped: also if the main thread's search
/// panics, the helpers stop and can be waited for.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `main` on this thread with `helpers` searching the same root on their threads until
/// `main` returns; returns when they have all stopped.
pub(crate) fn search_together<G: SearchHints, R>(
    main: &mut Worker<G>,
    helpers: &[Helper<G>],
    root: &G,
    history: &[u64],
    limits: HelperLimits,
    run_main: impl FnOnce(&mut Worker<G>) -> R,
) -> R {
    if helpers.is_empty() {
        return run_main(main);
    }
    let job = Arc::new(Job {
        root: root.clone(),
        history: history.to_vec(),
        limits,
    });
    for helper in helpers {
        helper.order(Order::Search(Arc::clone(&job)));
    }
    let shared = Arc::clone(&main.shared);
    let result = {
        let _stop_helpers = SetOnDrop(&shared.main_done);
        run_main(main)
    };
    for helper in helpers {
        helper.wait();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::{Completed, better, history_jitter};
    use crate::search::MATE;

    #[test]
    fn the_deepest_iteration_answers_then_the_best_score_then_the_fastest_win() {
        let at = |depth, score| Completed {
            depth,
            seldepth: depth,
            score,
            pv: vec![0u8],
        };
        assert!(better(&at(9, -50), &at(8, 100)));
        assert!(!better(&at(8, 100), &at(9, -50)));
        assert!(better(&at(8, 20), &at(8, 10)));
        // Equal: the thread asked first (the main thread) keeps the answer.
        assert!(!better(&at(8, 10), &at(8, 10)));
        // A proven win beats deeper iterations that have not proven one, and a faster win
        // a slower one; a deeper proven loss is still deeper.
        assert!(better(&at(5, MATE - 7), &at(9, 300)));
        assert!(!better(&at(9, 300), &at(5, MATE - 7)));
        assert!(better(&at(5, MATE - 3), &at(9, MATE - 7)));
        assert!(better(&at(9, -(MATE - 8)), &at(8, 0)));
    }

    #[test]
    fn helpers_order_quiet_moves_each_their_own_way() {
        let order = |index| {
            let mut slots: Vec<usize> = (0..64).collect();
            slots.sort_by_key(|&slot| history_jitter(index, slot));
            slots
        };
        assert!(
            (1..=8).all(|index| (0..1000).all(|s| (0..16).contains(&history_jitter(index, s))))
        );
        for a in 1..=8 {
            for b in a + 1..=8 {
                assert_ne!(order(a), order(b), "helpers {a} and {b}");
            }
        }
        // Reproducible: the same helper breaks ties the same way in every search.
        assert_eq!(order(3), order(3));
    }
}
