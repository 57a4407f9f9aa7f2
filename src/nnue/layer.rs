//! The first layer's arithmetic: an accumulator is the biases plus the weight columns of
//! the active inputs, kept up to date by adding and subtracting columns.
//!
//! Accumulators are 16-bit, as in Stockfish and bullet, so a vector instruction adds twice
//! as many lanes as with 32 bits; the sums wrap, so any order of additions and
//! subtractions ends at the same value modulo 2^16, which is the true sum because
//! `Network::check_range` guarantees that it fits. The work goes a block of [`BLOCK`] lanes
//! at a time: the block stays in registers while every column is added to it, and the
//! accumulator is read and written once.

use crate::nnue::Inputs;

/// Lanes of one block: 64 × 16 bits, eight SSE, four AVX2 or two AVX-512 registers, so a
/// view of 64 hidden units is one block. Walking the set bits of the changes costs more
/// than the additions (a branch per set bit and per word, hard to predict; with blocks of
/// 32, walked once per block, the walks cost more than the halved additions), so a walk
/// updates a block of each view at once ([`update_both_views`]).
const BLOCK: usize = 64;

/// Sets an accumulator of both views, player one's half then player two's, to `sources`
/// (the halves to start from; `None`: the accumulator itself) plus the columns of `gained`
/// minus those of `lost`, a change listed from player one's view: player two's half gains
/// and loses the columns of the mirrored inputs (`mirror[i]`,
/// [`crate::evaluation::Evaluation::network_mirror`]). `weights` holds, input after input, a column of
/// one half's length.
#[inline(always)]
pub(super) fn update_both_views(
    weights: &[i16],
    mirror: &[u16],
    accumulator: &mut [i16],
    sources: Option<[&[i16]; 2]>,
    gained: &Inputs,
    lost: &Inputs,
) {
    let hidden = accumulator.len() / 2;
    let (one, two) = accumulator.split_at_mut(hidden);
    let blocks = one.chunks_mut(BLOCK).zip(two.chunks_mut(BLOCK));
    for (index, (target_one, target_two)) in blocks.enumerate() {
        let (start, len) = (index * BLOCK, target_one.len());
        let from = sources.map(|halves| halves.map(|s| &s[start..start + len]));
        if len < BLOCK {
            let column = |input: usize| &weights[input * hidden + start..][..len];
            let mirrored = |input: usize| column(usize::from(mirror[input]));
            update_partial(target_one, from.map(|[one, _]| one), column, gained, lost);
            update_partial(target_two, from.map(|[_, two]| two), mirrored, gained, lost);
            continue;
        }
        let (target_one, target_two) = (whole_mut(target_one), whole_mut(target_two));
        let (mut block_one, mut block_two) = match from {
            Some([one, two]) => (*whole(one), *whole(two)),
            None => (*target_one, *target_two),
        };
        let column = |input: usize| whole(&weights[input * hidden + start..][..BLOCK]);
        let mirrored = |input: usize| column(usize::from(mirror[input]));
        gained.for_each(|input| {
            add(&mut block_one, column(input));
            add(&mut block_two, mirrored(input));
        });
        lost.for_each(|input| {
            subtract(&mut block_one, column(input));
            subtract(&mut block_two, mirrored(input));
        });
        *target_one = block_one;
        *target_two = block_two;
    }
}

/// A whole block of a column or an accumulator: its length a constant, so the block stays
/// in registers.
#[inline(always)]
fn whole(lanes: &[i16]) -> &[i16; BLOCK] {
    lanes.try_into().expect("a whole block")
}

#[inline(always)]
fn whole_mut(lanes: &mut [i16]) -> &mut [i16; BLOCK] {
    lanes.try_into().expect("a whole block")
}

#[inline(always)]
fn add(block: &mut [i16; BLOCK], column: &[i16; BLOCK]) {
    for (a, &w) in block.iter_mut().zip(column) {
        *a = a.wrapping_add(w);
    }
}

#[inline(always)]
fn subtract(block: &mut [i16; BLOCK], column: &[i16; BLOCK]) {
    for (a, &w) in block.iter_mut().zip(column) {
        *a = a.wrapping_sub(w);
    }
}

/// The last, partial block of a hidden size that is not a multiple of [`BLOCK`] (none of
/// the built-in networks'): kept out of line, so the whole blocks' code stays small.
#[cold]
#[inline(never)]
fn update_partial<'w>(
    target: &mut [i16],
    from: Option<&[i16]>,
    column: impl Fn(usize) -> &'w [i16],
    gained: &Inputs,
    lost: &Inputs,
) {
    if let Some(from) = from {
        target.copy_from_slice(from);
    }
    gained.for_each(|input| {
        for (a, &w) in target.iter_mut().zip(column(input)) {
            *a = a.wrapping_add(w);
        }
    });
    lost.for_each(|input| {
        for (a, &w) in target.iter_mut().zip(column(input)) {
            *a = a.wrapping_sub(w);
        }
    });
}
