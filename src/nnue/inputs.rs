//! The active inputs of one view of a position.

use std::ops::Deref;

/// Most inputs any game's position can have active in one view (Abraxas: at most one per
/// hole of the plate, plus its counters).
pub const MAX_ACTIVE: usize = 128;

/// The indices of the active inputs, ascending, each once: a fixed-capacity list, because
/// the search fills two of them at every evaluated node.
#[derive(Clone)]
pub struct InputList {
    indices: [u16; MAX_ACTIVE],
    len: usize,
}

impl InputList {
    pub fn new() -> InputList {
        InputList {
            indices: [0; MAX_ACTIVE],
            len: 0,
        }
    }

    /// Appends an input; games push them in ascending order (checked in debug builds),
    /// which is what lets [`crate::nnue::Evaluator`] compare two lists in one pass.
    #[inline]
    pub fn push(&mut self, index: usize) {
        debug_assert!(self.len == 0 || usize::from(self.indices[self.len - 1]) < index);
        self.indices[self.len] = index as u16;
        self.len += 1;
    }

    /// Appends `plane + i` for every set bit `i` of `bits`, ascending: the inputs of one
    /// bitboard plane.
    #[inline]
    pub fn push_bits(&mut self, plane: usize, mut bits: u64) {
        while bits != 0 {
            self.push(plane + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for InputList {
    fn default() -> Self {
        Self::new()
    }
}

impl Deref for InputList {
    type Target = [u16];
    fn deref(&self) -> &[u16] {
        &self.indices[..self.len]
    }
}
