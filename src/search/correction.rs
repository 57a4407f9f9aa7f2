//! Correction history (Stockfish's, after Caissa): how far searches found the static
//! evaluation off in positions of the same structure, added back to the evaluation of the
//! next such position. A static evaluation that is wrong in a systematic way (say, in
//! positions where one side is two marbles up) then prunes and stands pat less wrongly.
//!
//! Positions are grouped by [`Game::correction_key`] and by the side to move. Each entry is
//! a running average of `search result − static evaluation` in 1/[`GRAIN`] units, deeper
//! searches weighing more.
//!
//! [`Game::correction_key`]: crate::game::Game::correction_key

/// Entries per side.
const SIZE: usize = 16_384;
/// Fixed-point units per evaluation unit.
const GRAIN: i32 = 256;
/// Entries stay within ±this many evaluation units.
const LIMIT: i32 = 64;
/// The weight of one update out of this.
const WEIGHT_SCALE: i32 = 256;

pub(crate) struct Correction {
    table: Vec<[i32; 2]>,
}

impl Correction {
    pub(crate) fn new() -> Self {
        Correction {
            table: vec![[0; 2]; SIZE],
        }
    }

    pub(crate) fn clear(&mut self) {
        self.table.fill([0; 2]);
    }

    /// What to add to the static evaluation of a position of `key` with `player` to move.
    #[inline]
    pub(crate) fn get(&self, key: u64, player: usize) -> i32 {
        self.table[key as usize % SIZE][player] / GRAIN
    }

    /// A search of `depth` found `result` where the static evaluation said `eval`.
    pub(crate) fn update(&mut self, key: u64, player: usize, depth: i32, eval: i32, result: i32) {
        let entry = &mut self.table[key as usize % SIZE][player];
        let difference = (result - eval).clamp(-LIMIT, LIMIT) * GRAIN;
        let weight = (depth + 1).min(16);
        *entry = (*entry * (WEIGHT_SCALE - weight) + difference * weight) / WEIGHT_SCALE;
        *entry = (*entry).clamp(-LIMIT * GRAIN, LIMIT * GRAIN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_what_searches_found_per_key_and_side_within_limits() {
        let mut correction = Correction::new();
        for _ in 0..200 {
            correction.update(7, 0, 10, 100, 130);
        }
        // Converges on the difference, 30.
        assert!(
            (28..=30).contains(&correction.get(7, 0)),
            "{}",
            correction.get(7, 0)
        );
        assert_eq!(correction.get(7, 1), 0);
        assert_eq!(correction.get(8, 0), 0);
        for _ in 0..500 {
            correction.update(7, 0, 10, 0, -10_000);
        }
        // A difference past the limit counts as the limit, and the average nears it.
        let floor = correction.get(7, 0);
        assert!((-LIMIT..=-LIMIT + 2).contains(&floor), "{floor}");
    }
}
