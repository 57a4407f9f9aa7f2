//! Zobrist keys for Offboard, generated at compile time from a fixed seed so that hashes
//! are the same in every build and run.

use super::board::CELLS;
use super::sectors::SECTORS;

use crate::rng::splitmix;

pub struct Keys {
    /// `[player][cell index]`, players red, yellow.
    pub marbles: [[u64; CELLS]; 2],
    /// `[sector][player]`: the sector holds that player's marble.
    pub sectors: [[u64; 2]; SECTORS],
    pub yellow_to_move: u64,
    /// The side to move has a marble to re-place.
    pub pending: u64,
}

pub static KEYS: Keys = {
    let mut state = 0x5348_4F56_4520_4F42u64; // "SHOVE OB"
    let mut keys = Keys {
        marbles: [[0; CELLS]; 2],
        sectors: [[0; 2]; SECTORS],
        yellow_to_move: 0,
        pending: 0,
    };
    let mut i = 0;
    while i < 2 * CELLS {
        let (s, k) = splitmix(state);
        state = s;
        keys.marbles[i / CELLS][i % CELLS] = k;
        i += 1;
    }
    i = 0;
    while i < 2 * SECTORS {
        let (s, k) = splitmix(state);
        state = s;
        keys.sectors[i / 2][i % 2] = k;
        i += 1;
    }
    let (s, k) = splitmix(state);
    keys.yellow_to_move = k;
    let (_, k) = splitmix(s);
    keys.pending = k;
    keys
};
