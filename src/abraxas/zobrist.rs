//! Zobrist keys for Abraxas, generated at compile time from fixed seeds so that hashes are
//! the same in every build and run.

use super::sheet::Sheet;
use crate::rng::splitmix;

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix(
            seed.wrapping_mul(0x1000_0000_01B3)
                .wrapping_add(i as u64 * 7919),
        )
        .1;
        i += 1;
    }
    out
}

pub(super) static Z_RED: [u64; 64] = keys(1);
pub(super) static Z_BLUE: [u64; 64] = keys(2);
pub(super) static Z_CORNER: [u64; 4] = keys(3);
pub(super) static Z_SIDE: [u64; 1] = keys(4);
pub(super) static Z_PHASE: [u64; 5] = keys(5);
pub(super) static Z_FLAGS: [u64; 8] = keys(6);
pub(super) static Z_POOL: [u64; 25] = keys(7);
pub(super) static Z_STONES: [[u64; 25]; 2] = [keys(8), keys(9)];
pub(super) static Z_BLUES: [[u64; 4]; 2] = [keys(10), keys(11)];

/// The sheet's part of the key: the same stones on another sheet are another position,
/// and a session changes sheets by a position string alone, which clears neither the
/// table nor the evaluation cache. Sheet s1's part is 0 (its keys are those of a key
/// without the sheet).
pub(super) fn sheet_key(sheet: &Sheet) -> u64 {
    let key = |dots: u128| splitmix(splitmix(dots as u64).1 ^ (dots >> 64) as u64).1;
    key(sheet.dots()) ^ key(Sheet::default().dots())
}
