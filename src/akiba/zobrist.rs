//! Zobrist keys for Akiba, generated at compile time from a fixed seed so that hashes are
//! the same in every build and run.

use crate::rng::splitmix;

pub struct Keys {
    /// `[marble kind][square index]`, kinds in the order white, black, red.
    pub marbles: [[u64; 64]; 3],
    pub black_to_move: u64,
    /// `[player][reds won]`.
    pub reds: [[u64; 8]; 2],
    pub extra: u64,
    /// `[move index]` of the banned push-back.
    pub banned: [u64; 256],
}

pub static KEYS: Keys = {
    let mut state = 0x5348_4F56_4520_414Bu64; // "SHOVE AK"
    let mut keys = Keys {
        marbles: [[0; 64]; 3],
        black_to_move: 0,
        reds: [[0; 8]; 2],
        extra: 0,
        banned: [0; 256],
    };
    let mut i = 0;
    while i < 3 * 64 {
        let (s, k) = splitmix(state);
        state = s;
        keys.marbles[i / 64][i % 64] = k;
        i += 1;
    }
    i = 0;
    while i < 16 {
        let (s, k) = splitmix(state);
        state = s;
        keys.reds[i / 8][i % 8] = k;
        i += 1;
    }
    i = 0;
    while i < 256 {
        let (s, k) = splitmix(state);
        state = s;
        keys.banned[i] = k;
        i += 1;
    }
    let (s, k) = splitmix(state);
    keys.black_to_move = k;
    let (_, k) = splitmix(s);
    keys.extra = k;
    keys
};
