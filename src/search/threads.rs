//! Lazy SMP: several threads search the same root at once and share only the
//! transposition table, where each finds the others' results. Helpers skip some depths so
//! that the threads spread over several iterations; the main thread alone keeps the time,
//! reports and decides the move, and when it is done the helpers stop.

use super::{Limits, Worker};
use crate::game::Game;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;

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
    /// Nodes the helpers have searched, published every 1024 nodes and at their end.
    pub(crate) helper_nodes: AtomicU64,
}

impl Shared {
    /// Before each search (the stop and ponder flags belong to whoever starts it).
    pub(crate) fn prepare(&self) {
        self.main_done.store(false, Ordering::Relaxed);
        self.helper_nodes.store(0, Ordering::Relaxed);
    }
}

/// Depth skipping of helper `index` (1-based), as in Stockfish 9: helper threads search
/// a pattern of every other depth, every third pair… so that at any time they are spread
/// over the next few iterations instead of all repeating the main thread's.
pub(crate) fn skips(index: usize, depth: u32) -> bool {
    const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    let i = (index - 1) % SKIP_SIZE.len();
    ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 1
}

/// Runs `main` on this thread with `helpers` searching the same root on threads of their
/// own until `main` returns. A helper that cannot be started is left out.
pub(crate) fn search_together<G: Game, R>(
    main: &mut Worker<G>,
    helpers: &mut [Worker<G>],
    root: &G,
    history: &[u64],
    limits: &Limits,
    run_main: impl FnOnce(&mut Worker<G>) -> R,
) -> R {
    if helpers.is_empty() {
        return run_main(main);
    }
    let shared = Arc::clone(&main.shared);
    thread::scope(|scope| {
        for (i, helper) in helpers.iter_mut().enumerate() {
            let spawned = thread::Builder::new()
                .name(format!("helper {}", i + 1))
                .stack_size(HELPER_STACK_BYTES)
                .spawn_scoped(scope, move || helper.help(i + 1, root, history, limits));
            if let Err(error) = spawned {
                tracing::warn!(%error, "cannot start a helper thread; searching without it");
            }
        }
        let result = run_main(main);
        shared.main_done.store(true, Ordering::Relaxed);
        result
    })
}

#[cfg(test)]
mod tests {
    use super::skips;

    #[test]
    fn helpers_spread_over_depths() {
        // The first helper searches odd depths only, the second even ones.
        assert!((1..20).all(|d| skips(1, d) == (d % 2 == 1)));
        assert!((1..20).all(|d| skips(2, d) == (d % 2 == 0)));
        // Every helper searches some depths and skips others.
        for index in 1..=40 {
            assert!((1..30).any(|d| skips(index, d)), "{index}");
            assert!((1..30).any(|d| !skips(index, d)), "{index}");
        }
    }
}
