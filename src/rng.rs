//! SplitMix64 (Steele, Lea and Flood, 2014), written once: the small generator and bit mixer
//! used wherever a fixed, reproducible stream is wanted (Zobrist keys built at compile time,
//! the shuffles and seeds of runs, the search helpers' history jitter).

/// The golden-ratio step of SplitMix64's state.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: every bit of `z` moves every bit of the result.
pub const fn mix(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One step of SplitMix64 from `state`: the next state and its output.
pub const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(GOLDEN_GAMMA);
    (state, mix(state))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference implementation's first outputs from seed 0.
    #[test]
    fn matches_splitmix64() {
        let (state, first) = splitmix(0);
        assert_eq!(first, 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix(state).1, 0x6E78_9E6A_A1B9_65F4);
    }
}
