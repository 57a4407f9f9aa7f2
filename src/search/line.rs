//! The positions on the line from the game's start to the node being searched, for the
//! repetition rule.

/// Hash-indexed counters of the positions on the current line, so that the repetition
/// check scans the line only when a position may be on it.
pub(crate) struct Line {
    keys: Vec<u64>,
    filter: Vec<u16>,
}

impl Line {
    const FILTER: usize = 1 << 14;

    pub(crate) fn new() -> Line {
        Line {
            keys: Vec::with_capacity(1024),
            filter: vec![0; Line::FILTER],
        }
    }

    pub(crate) fn reset(&mut self, keys: &[u64]) {
        self.keys.clear();
        self.filter.fill(0);
        for &key in keys {
            self.push(key);
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, key: u64) {
        self.keys.push(key);
        self.filter[key as usize % Line::FILTER] += 1;
    }

    #[inline]
    pub(crate) fn pop(&mut self) {
        if let Some(key) = self.keys.pop() {
            self.filter[key as usize % Line::FILTER] -= 1;
        }
    }

    #[inline]
    pub(crate) fn contains(&self, key: u64) -> bool {
        self.filter[key as usize % Line::FILTER] != 0 && self.keys.contains(&key)
    }
}
