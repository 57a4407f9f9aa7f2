//! The transposition table: Zobrist key → best move, score and bound from earlier searches.
//!
//! Four entries share a bucket; a new result replaces the same position's entry, else the
//! entry that is shallowest after an age penalty, so deep results from the current search
//! survive and stale ones from earlier searches give way.

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

#[derive(Clone, Copy)]
struct Entry<M> {
    /// Low 32 bits of the key; the high bits chose the bucket.
    check: u32,
    mv: Option<M>,
    score: i16,
    depth: u8,
    /// 0 for an empty slot, else 1 + the [`Bound`] discriminant.
    bound: u8,
    generation: u8,
}

impl<M: Copy> Entry<M> {
    const EMPTY: Entry<M> = Entry {
        check: 0,
        mv: None,
        score: 0,
        depth: 0,
        bound: 0,
        generation: 0,
    };
}

const BUCKET: usize = 4;

/// A hit in the table.
#[derive(Clone, Copy, Debug)]
pub struct Hit<M> {
    pub mv: Option<M>,
    /// As stored: mate scores are relative to the node (see [`crate::search`]).
    pub score: i32,
    pub depth: u32,
    pub bound: Bound,
}

pub struct Table<M> {
    buckets: Vec<[Entry<M>; BUCKET]>,
    generation: u8,
}

impl<M: Copy + PartialEq> Table<M> {
    /// A table of about `megabytes` MB (at least one bucket). Fails, instead of aborting the
    /// process, when the memory cannot be had.
    pub fn new(megabytes: usize) -> Result<Self, String> {
        let bucket_size = std::mem::size_of::<[Entry<M>; BUCKET]>();
        let count = (megabytes.saturating_mul(1 << 20) / bucket_size).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|e| format!("cannot allocate a {megabytes} MB hash table: {e}"))?;
        buckets.resize(count, [Entry::EMPTY; BUCKET]);
        Ok(Table {
            buckets,
            generation: 0,
        })
    }

    pub fn clear(&mut self) {
        self.buckets.fill([Entry::EMPTY; BUCKET]);
        self.generation = 0;
    }

    /// Marks the start of a new search, so older entries age.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn bucket_index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Hit<M>> {
        let check = key as u32;
        self.buckets[self.bucket_index(key)]
            .iter()
            .find(|e| e.bound != 0 && e.check == check)
            .map(|e| Hit {
                mv: e.mv,
                score: i32::from(e.score),
                depth: u32::from(e.depth),
                bound: match e.bound {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
            })
    }

    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: u32, bound: Bound) {
        let check = key as u32;
        let generation = self.generation;
        let index = self.bucket_index(key);
        let bucket = &mut self.buckets[index];
        let slot = match bucket.iter().position(|e| e.bound != 0 && e.check == check) {
            Some(i) => i,
            None => {
                let worth = |e: &Entry<M>| {
                    if e.bound == 0 {
                        return i32::MIN;
                    }
                    let age = i32::from(generation.wrapping_sub(e.generation));
                    i32::from(e.depth) - 8 * age
                };
                (0..BUCKET).min_by_key(|&i| worth(&bucket[i])).unwrap_or(0)
            }
        };
        let old = bucket[slot];
        bucket[slot] = Entry {
            check,
            // Keep the old best move when this result has none for the same position.
            mv: mv.or(if old.check == check { old.mv } else { None }),
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.min(255) as u8,
            bound: 1 + bound as u8,
            generation,
        };
    }

    /// Permille of a sample of slots filled in the current search (the `hashfull` field).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.iter().take(250);
        let total = sample.len() * BUCKET;
        let used = self
            .buckets
            .iter()
            .take(250)
            .flatten()
            .filter(|e| e.bound != 0 && e.generation == self.generation)
            .count();
        (used * 1000 / total.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut table: Table<u8> = Table::new(1).expect("1 MB");
        table.store(0xDEAD_BEEF_0000_0001, Some(7), -123, 5, Bound::Lower);
        let hit = table.probe(0xDEAD_BEEF_0000_0001).expect("stored");
        assert_eq!(
            (hit.mv, hit.score, hit.depth, hit.bound),
            (Some(7), -123, 5, Bound::Lower)
        );
        assert!(table.probe(0xDEAD_BEEF_0000_0002).is_none());
        table.clear();
        assert!(table.probe(0xDEAD_BEEF_0000_0001).is_none());
    }

    #[test]
    fn replaces_the_shallowest_entry_of_a_full_bucket() {
        let mut table: Table<u8> = Table::new(0).expect("one bucket");
        for depth in 1..=4u32 {
            table.store(
                u64::from(depth),
                Some(depth as u8),
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
        let mut table: Table<u8> = Table::new(0).expect("one bucket");
        table.store(5, Some(3), 10, 4, Bound::Exact);
        table.store(5, None, 20, 6, Bound::Upper);
        assert_eq!(table.probe(5).map(|h| (h.mv, h.score)), Some((Some(3), 20)));
    }
}
