//! A thread's cache of static evaluations by position key.
//!
//! Each iteration of the deepening visits again most nodes of the one before, and a
//! reduced or null-window search that fails high is searched again: the same positions
//! are evaluated many times. The transposition table has no room for the evaluation (its
//! entries keep 14 bits spare), and a network's evaluation, with the features it is given,
//! is most of a node's cost in Abraxas. The cache keeps the last evaluation per slot; it
//! changes no search, only how soon one ends.

/// Slots: 512 KB of entries, within a core's second-level cache on most machines.
const SLOTS: usize = 1 << 16;

/// An entry: the key's upper 32 bits (with the lowest set, so that an empty entry, 0,
/// never matches) and the evaluation's 32 bits.
pub(crate) struct EvalCache {
    entries: Vec<u64>,
}

impl EvalCache {
    pub(crate) fn new() -> Self {
        EvalCache {
            entries: vec![0; SLOTS],
        }
    }

    /// Forgets every evaluation: the evaluation function changed (another network, other
    /// rules).
    pub(crate) fn clear(&mut self) {
        self.entries.fill(0);
    }

    #[inline]
    fn check(key: u64) -> u64 {
        (key >> 32) | 1
    }

    /// Asks for `key`'s slot to be brought into the cache: a slot of this table is most
    /// often in no cache when the node's evaluation reads it (perf: nearly all the probe's
    /// time was that load's).
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot: *const u64 = &self.entries[key as usize % SLOTS];
            // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The evaluation stored for `key`, if any.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<i32> {
        let entry = self.entries[key as usize % SLOTS];
        (entry >> 32 == Self::check(key)).then_some(entry as u32 as i32)
    }

    #[inline]
    pub(crate) fn put(&mut self, key: u64, eval: i32) {
        self.entries[key as usize % SLOTS] = Self::check(key) << 32 | u64::from(eval as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_evaluation_is_found_under_its_key_only_until_replaced_or_cleared() {
        let mut cache = EvalCache::new();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(cache.get(key), None);
        cache.put(key, -317);
        assert_eq!(cache.get(key), Some(-317));
        // The same slot, another key: the entry is replaced, the first key misses.
        let other = key ^ 1 << 40;
        assert_eq!(cache.get(other), None);
        cache.put(other, 42);
        assert_eq!(cache.get(other), Some(42));
        assert_eq!(cache.get(key), None);
        cache.clear();
        assert_eq!(cache.get(other), None);
        // An empty slot never matches, even for a key whose upper half is zero.
        assert_eq!(cache.get(7), None);
        cache.put(7, i32::MIN);
        assert_eq!(cache.get(7), Some(i32::MIN));
    }
}
