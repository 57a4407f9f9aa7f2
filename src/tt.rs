//! The transposition table: Zobrist key → best move, score and bound from earlier searches,
//! shared by all search threads without locks.
//!
//! Four entries share a bucket (one cache line); a new result replaces the same position's
//! entry, else the entry that is shallowest after an age penalty, so deep results from the
//! current search survive and stale ones from earlier searches give way.
//!
//! An entry is two atomic words: the data (move slot, score, depth, bound, generation) and
//! the key XOR the data. Threads read and write them without locks, so a reader may see the
//! words of two different writes; the key it recomputes then does not match and the torn
//! entry is a miss, never a wrong hit. The move is kept as its slot in the position's legal
//! move list (the list is always generated before the probe), so every game's moves fit.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (a beta cut-off).
    Lower,
    /// The true value is at most this (no move raised alpha).
    Upper,
}

impl Bound {
    /// What a search's `score` says about the true value, for the window
    /// (`alpha`, `beta`) it was searched with.
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles the window (`alpha`, `beta`), so
    /// that the node need not be searched.
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// One entry: `check` is the key XOR `data`; all-zero is an empty slot.
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

#[repr(align(64))]
struct Bucket([Slot; BUCKET]);

/// The fields of an entry, packed into one word: move slot + 1 (0: none) in bits 0..16,
/// score in 16..32, depth in 32..40, bound (0: empty, else 1 + [`Bound`]) in 40..42,
/// generation in 48..56.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Data {
    move_slot: Option<u16>,
    score: i16,
    depth: u8,
    bound: u8,
    generation: u8,
}

impl Data {
    fn pack(self) -> u64 {
        u64::from(self.move_slot.map_or(0, |s| s + 1))
            | u64::from(self.score as u16) << 16
            | u64::from(self.depth) << 32
            | u64::from(self.bound) << 40
            | u64::from(self.generation) << 48
    }

    fn unpack(word: u64) -> Data {
        Data {
            move_slot: (word as u16).checked_sub(1),
            score: (word >> 16) as u16 as i16,
            depth: (word >> 32) as u8,
            bound: ((word >> 40) & 3) as u8,
            generation: (word >> 48) as u8,
        }
    }
}

/// A hit in the table.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// The best move's index in the position's legal move list.
    pub move_slot: Option<u16>,
    /// As stored: mate scores are relative to the node (see [`crate::search`]).
    pub score: i32,
    pub depth: u32,
    pub bound: Bound,
}

pub struct Table {
    buckets: Buckets,
    generation: AtomicU8,
}

/// Zeroed memory holding cache-line aligned buckets. The block is asked for lazily zeroed
/// (the operating system hands out zero pages when first touched, so even a table of many
/// gigabytes is had at once) with the allocator's ordinary alignment; asked for a larger
/// alignment, the allocator would write zeros over every page itself (16 GB took 85 s).
/// A table of 2 MiB or more starts at a 2 MiB boundary inside the block and, on Linux, asks
/// for transparent huge pages, as Stockfish's does: a search touches the table at random,
/// and with 4 KiB pages it misses the TLB at nearly every probe. [`Table::clear`] writes
/// the pages before any search does (a page fault in the search costs it the time of
/// dozens of nodes, and faults of several threads wait for each other).
struct Buckets {
    block: NonNull<u8>,
    layout: Layout,
    first: NonNull<Bucket>,
    count: usize,
}

// SAFETY: `Buckets` owns its block like a `Box<[Bucket]>`, and `Bucket` (atomics only) is
// `Send` and `Sync`.
unsafe impl Send for Buckets {}
unsafe impl Sync for Buckets {}

impl Buckets {
    fn zeroed(count: usize) -> Option<Buckets> {
        let bytes = count.checked_mul(size_of::<Bucket>())?;
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            align_of::<Bucket>()
        };
        let layout = Layout::from_size_align(bytes.checked_add(align)?, 16).ok()?;
        // SAFETY: `layout` has a non-zero size.
        let block = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let offset = block.as_ptr().align_offset(align);
        // SAFETY: `offset` < `align`, and the block has `align` bytes more than `count`
        // buckets need.
        let first = unsafe { block.add(offset) }.cast::<Bucket>();
        if align == HUGE_PAGE {
            advise_huge_pages(first.cast(), bytes);
        }
        Some(Buckets {
            block,
            layout,
            first,
            count,
        })
    }
}

/// The size of a huge page on x86-64 and most of AArch64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back `bytes` from `start` (page aligned, inside one allocation) with
/// transparent huge pages; only advice, so a kernel that cannot is no error.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: NonNull<u8>, bytes: usize) {
    // SAFETY: the range lies inside a block this process allocated, and MADV_HUGEPAGE
    // changes neither its contents nor its mapping.
    let _ = unsafe { libc::madvise(start.as_ptr().cast(), bytes, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: NonNull<u8>, _bytes: usize) {}

impl Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `first` is aligned and followed by `count` buckets inside the block, all
        // zero bytes or written through atomics, and all-zero bytes are valid buckets.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.count) }
    }
}

impl DerefMut for Buckets {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        // SAFETY: as for `deref`, and `&mut self` makes the slice this borrow's alone.
        unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr(), self.count) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: `block` came from `alloc_zeroed` with this layout.
        unsafe { dealloc(self.block.as_ptr(), self.layout) }
    }
}

impl Table {
    /// A table of about `megabytes` MB (at least one bucket). Fails, instead of aborting the
    /// process, when the memory cannot be had.
    pub fn new(megabytes: usize) -> Result<Self, String> {
        let count = (megabytes.saturating_mul(1 << 20) / size_of::<Bucket>()).max(1);
        let buckets = Buckets::zeroed(count)
            .ok_or_else(|| format!("cannot allocate a {megabytes} MB hash table"))?;
        Ok(Table {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Empties the table in place, `threads` threads writing a share each (Stockfish's
    /// `TT::clear`): after it every page of the table is in memory, so no search waits for
    /// the system to hand one out. The calling thread writes the first share itself, so one
    /// thread starts none.
    pub fn clear(&mut self, threads: usize) {
        fn zero(part: &mut [Bucket]) {
            // SAFETY: all-zero bytes are an empty bucket.
            unsafe { std::ptr::write_bytes(part.as_mut_ptr(), 0, part.len()) }
        }
        let buckets: &mut [Bucket] = &mut self.buckets;
        let share = buckets.len().div_ceil(threads.max(1)).max(1);
        let mut parts = buckets.chunks_mut(share);
        let first = parts.next();
        std::thread::scope(|scope| {
            for part in parts {
                scope.spawn(move || zero(part));
            }
            first.map(zero);
        });
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries age.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[((u128::from(key) * self.buckets.len() as u128) >> 64) as usize]
    }

    /// Asks the CPU to bring `key`'s bucket into the cache, so that a probe made after
    /// some other work (move generation) does not wait for memory: the table is far larger
    /// than the caches and almost every probe misses them.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        self.bucket(key).0.iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            let entry = Data::unpack(data);
            (entry.bound != 0 && check ^ data == key).then(|| Hit {
                move_slot: entry.move_slot,
                score: i32::from(entry.score),
                depth: u32::from(entry.depth),
                bound: match entry.bound {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
            })
        })
    }

    pub fn store(&self, key: u64, move_slot: Option<u16>, score: i32, depth: u32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = &self.bucket(key).0;
        let entries = bucket.each_ref().map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            (
                slot.check.load(Ordering::Relaxed) ^ data,
                Data::unpack(data),
            )
        });
        let same = entries.iter().position(|&(k, e)| e.bound != 0 && k == key);
        let index = same.unwrap_or_else(|| {
            let worth = |e: &Data| {
                if e.bound == 0 {
                    return i32::MIN;
                }
                let age = i32::from(generation.wrapping_sub(e.generation));
                i32::from(e.depth) - 8 * age
            };
            (0..BUCKET)
                .min_by_key(|&i| worth(&entries[i].1))
                .unwrap_or(0)
        });
        // Keep the old best move when this result has none for the same position.
        let old_move = same.and_then(|i| entries[i].1.move_slot);
        let data = Data {
            move_slot: move_slot.or(old_move),
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.min(255) as u8,
            bound: 1 + bound as u8,
            generation,
        }
        .pack();
        bucket[index].data.store(data, Ordering::Relaxed);
        bucket[index].check.store(key ^ data, Ordering::Relaxed);
    }

    /// The depth and score of every filled entry (tests look at what searches leave).
    #[cfg(test)]
    pub(crate) fn entries(&self) -> Vec<(u32, i32)> {
        self.buckets
            .iter()
            .flat_map(|bucket| &bucket.0)
            .map(|slot| Data::unpack(slot.data.load(Ordering::Relaxed)))
            .filter(|e| e.bound != 0)
            .map(|e| (u32::from(e.depth), i32::from(e.score)))
            .collect()
    }

    /// Permille of a sample of slots filled in the current search (the `hashfull` field).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = &self.buckets[..self.buckets.len().min(250)];
        let used = sample
            .iter()
            .flat_map(|bucket| &bucket.0)
            .map(|slot| Data::unpack(slot.data.load(Ordering::Relaxed)))
            .filter(|e| e.bound != 0 && e.generation == generation)
            .count();
        (used * 1000 / (sample.len() * BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut table = Table::new(1).expect("1 MB");
        table.store(0xDEAD_BEEF_0000_0001, Some(7), -123, 5, Bound::Lower);
        let hit = table.probe(0xDEAD_BEEF_0000_0001).expect("stored");
        assert_eq!(
            (hit.move_slot, hit.score, hit.depth, hit.bound),
            (Some(7), -123, 5, Bound::Lower)
        );
        assert!(table.probe(0xDEAD_BEEF_0000_0002).is_none());
        table.clear(2);
        assert!(table.probe(0xDEAD_BEEF_0000_0001).is_none());
    }

    #[test]
    fn clearing_empties_every_slot_whatever_the_threads() {
        let mut table = Table::new(1).expect("1 MB");
        for threads in [1, 3, 7, 100_000] {
            for i in 0..20_000u64 {
                let key = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                table.store(key, Some(1), 1, 1, Bound::Exact);
            }
            table.clear(threads);
            let filled = table
                .buckets
                .iter()
                .flat_map(|bucket| &bucket.0)
                .filter(|slot| slot.data.load(Ordering::Relaxed) != 0)
                .count();
            assert_eq!(filled, 0, "{threads} threads");
        }
    }

    #[test]
    fn a_large_table_starts_on_a_huge_page() {
        let table = Table::new(4).expect("4 MB");
        assert_eq!(table.buckets.as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!(table.buckets.len(), (4 << 20) / size_of::<Bucket>());
    }

    #[test]
    fn replaces_the_shallowest_entry_of_a_full_bucket() {
        let table = Table::new(0).expect("one bucket");
        for depth in 1..=4u32 {
            table.store(
                u64::from(depth),
                Some(depth as u16),
                0,
                depth * 2,
                Bound::Exact,
            );
        }
        table.store(99, None, 0, 3, Bound::Exact);
        assert!(
            table.probe(1).is_none(),
            "depth 2 entry is the one replaced"
        );
        for key in [2, 3, 4, 99] {
            assert!(table.probe(key).is_some(), "{key}");
        }
    }

    #[test]
    fn keeps_the_move_when_a_result_has_none() {
        let table = Table::new(0).expect("one bucket");
        table.store(5, Some(3), 10, 4, Bound::Exact);
        table.store(5, None, 20, 6, Bound::Upper);
        assert_eq!(
            table.probe(5).map(|h| (h.move_slot, h.score)),
            Some((Some(3), 20))
        );
    }

    #[test]
    fn fields_survive_packing() {
        for data in [
            Data {
                move_slot: None,
                score: -30_000,
                depth: 255,
                bound: 3,
                generation: 255,
            },
            Data {
                move_slot: Some(1023),
                score: 32_767,
                depth: 0,
                bound: 1,
                generation: 0,
            },
        ] {
            assert_eq!(Data::unpack(data.pack()), data);
        }
    }

    #[test]
    fn a_torn_entry_is_a_miss() {
        let table = Table::new(0).expect("one bucket");
        table.store(42, Some(1), 100, 7, Bound::Exact);
        // Another thread's write of a different position lands half-way: the data word is
        // new, the check word still the old one.
        let slot = table.buckets[0]
            .0
            .iter()
            .find(|s| s.data.load(Ordering::Relaxed) != 0)
            .expect("the stored slot");
        let other = Data {
            move_slot: Some(9),
            score: -5,
            depth: 3,
            bound: 2,
            generation: 0,
        }
        .pack();
        slot.data.store(other, Ordering::Relaxed);
        assert!(table.probe(42).is_none());
        assert!(table.probe(43).is_none());
    }

    #[test]
    fn threads_share_the_table() {
        let table = Table::new(1).expect("1 MB");
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let table = &table;
                scope.spawn(move || {
                    for i in 0..10_000u64 {
                        let key = (t << 32 | i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        table.store(
                            key,
                            Some((i % 100) as u16),
                            i as i32 % 1000,
                            1,
                            Bound::Lower,
                        );
                    }
                });
            }
        });
        let mut found = 0;
        for t in 0..4u64 {
            for i in 0..10_000u64 {
                let key = (t << 32 | i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                if let Some(hit) = table.probe(key) {
                    assert_eq!(hit.move_slot, Some((i % 100) as u16));
                    assert_eq!(hit.score, i as i32 % 1000);
                    found += 1;
                }
            }
        }
        assert!(found > 30_000, "{found} of 40000 entries survived");
    }
}
