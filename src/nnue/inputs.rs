//! The active inputs of one view of a position.

/// Most inputs a game may have per view.
pub const MAX_INPUTS: usize = 64 * WORDS;
const WORDS: usize = 8;

/// The active inputs of one view, as a bit set: a game fills it from its bitboards with a
/// few ORs, and the evaluator compares two with a few XORs. The search fills two at every
/// evaluated node, so this matters: filling a list and then a set cost a sixth of Akiba's
/// search with a network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    words: [u64; WORDS],
}

impl Inputs {
    pub fn new() -> Inputs {
        Inputs::default()
    }

    pub fn clear(&mut self) {
        self.words = [0; WORDS];
    }

    /// Sets input `index` (below [`MAX_INPUTS`]).
    #[inline]
    pub fn push(&mut self, index: usize) {
        self.words[index / 64] |= 1 << (index % 64);
    }

    /// Sets `plane + i` for every set bit `i` of `bits`: the inputs of one bitboard plane.
    #[inline]
    pub fn push_bits(&mut self, plane: usize, bits: u64) {
        let (word, shift) = (plane / 64, plane % 64);
        self.words[word] |= bits << shift;
        if shift != 0 && bits >> (64 - shift) != 0 {
            self.words[word + 1] |= bits >> (64 - shift);
        }
    }

    /// How many inputs are active.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The active inputs, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.words.iter().enumerate().flat_map(|(word, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let bit = bits.trailing_zeros();
                    bits &= bits - 1;
                    (64 * word) as u16 + bit as u16
                })
            })
        })
    }

    /// Calls `f` with each active input, ascending: a plain loop over the set bits, cheaper
    /// than [`Inputs::iter`] where the evaluator updates accumulators. `f` is called from one
    /// place (not once per word of an unrolled loop), so that it is inlined, and this is
    /// always inlined, so that both are compiled for the evaluator's instruction set.
    #[inline(always)]
    pub fn for_each(&self, mut f: impl FnMut(usize)) {
        let (mut word, mut bits) = (0, self.words[0]);
        loop {
            while bits == 0 {
                word += 1;
                if word == WORDS {
                    return;
                }
                bits = self.words[word];
            }
            f(64 * word + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }

    /// The same inputs with each input `i` replaced by `mirror(i)`: player two's view from
    /// player one's ([`crate::evaluation::Evaluation::network_mirror`]).
    pub fn mirrored(&self, mirror: impl Fn(usize) -> usize) -> Inputs {
        let mut mirrored = Inputs::new();
        self.for_each(|input| mirrored.push(mirror(input)));
        mirrored
    }

    /// How many inputs are active in one set and not the other.
    pub fn differences(&self, other: &Inputs) -> u32 {
        self.words
            .iter()
            .zip(&other.words)
            .map(|(a, b)| (a ^ b).count_ones())
            .sum()
    }

    /// The inputs active in `self` and not in `other`, and those active in `other` and not
    /// in `self`, ascending.
    pub fn changes(&self, other: &Inputs) -> (Inputs, Inputs) {
        let (mut gained, mut lost) = (Inputs::new(), Inputs::new());
        for word in 0..WORDS {
            gained.words[word] = self.words[word] & !other.words[word];
            lost.words[word] = other.words[word] & !self.words[word];
        }
        (gained, lost)
    }
}

/// Input `input` moved to the other block of its pair, for each `(first, second, len)` the
/// blocks of `len` inputs starting at `first` and at `second`; other inputs unchanged. A
/// game's [`crate::evaluation::Evaluation::network_mirror`] is mostly the exchange of its "mine" and
/// "theirs" blocks.
pub fn exchange_blocks(input: usize, blocks: &[(usize, usize, usize)]) -> usize {
    for &(first, second, len) in blocks {
        if (first..first + len).contains(&input) {
            return input - first + second;
        }
        if (second..second + len).contains(&input) {
            return input - second + first;
        }
    }
    input
}

/// Checks a game's [`crate::evaluation::Evaluation::network_mirror`] against its own listing of player
/// two's view (`view_two`), on the positions of random games from `start`; and that the
/// mirror is an involution within the game's inputs.
#[cfg(test)]
pub(crate) fn check_mirror<G: crate::evaluation::Evaluation>(
    start: G,
    view_two: impl Fn(&G) -> Inputs,
) {
    use crate::game::MoveList;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    for input in 0..G::NETWORK_INPUTS {
        let mirrored = G::network_mirror(input);
        assert!(
            mirrored < G::NETWORK_INPUTS,
            "{input} mirrors to {mirrored}"
        );
        assert_eq!(
            G::network_mirror(mirrored),
            input,
            "{input} is not mirrored back"
        );
    }
    let mut rng = StdRng::seed_from_u64(5);
    let mut checked = 0;
    for _ in 0..20 {
        let mut position = start.clone();
        for _ in 0..300 {
            let mut one = Inputs::new();
            position.network_view(&mut one);
            assert_eq!(
                one.mirrored(G::network_mirror),
                view_two(&position),
                "in {position}"
            );
            checked += 1;
            let mut moves = MoveList::new();
            position.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            position.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    assert!(checked > 1000, "only {checked} positions checked");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(indices: &[usize]) -> Inputs {
        let mut inputs = Inputs::new();
        for &i in indices {
            inputs.push(i);
        }
        inputs
    }

    #[test]
    fn planes_land_where_their_inputs_are_pushed_one_by_one() {
        // Aligned, straddling two words, and at the end of the set.
        for plane in [0, 61, 128, 200, 448] {
            let bits = 0x8000_0000_0000_0001u64 | 0b1011 << 20;
            let mut planes = Inputs::new();
            planes.push_bits(plane, bits);
            let one_by_one: Vec<usize> = (0..64)
                .filter(|i| bits >> i & 1 == 1)
                .map(|i| plane + i)
                .filter(|&i| i < MAX_INPUTS)
                .collect();
            assert_eq!(planes, of(&one_by_one), "plane {plane}");
        }
    }

    #[test]
    fn iteration_is_ascending_and_counts_agree() {
        let inputs = of(&[300, 1, 64, 63, 511, 0]);
        let listed: Vec<u16> = inputs.iter().collect();
        assert_eq!(listed, [0, 1, 63, 64, 300, 511]);
        assert_eq!(inputs.len(), 6);
        assert!(!inputs.is_empty() && Inputs::new().is_empty());
    }

    #[test]
    fn blocks_are_exchanged_both_ways_and_the_rest_stays() {
        let blocks = [(0, 10, 5), (20, 21, 1)];
        let mirror = |i| exchange_blocks(i, &blocks);
        assert_eq!(
            [0, 4, 10, 14, 20, 21, 5, 15, 22].map(mirror),
            [10, 14, 0, 4, 21, 20, 5, 15, 22]
        );
        assert_eq!(of(&[1, 12, 20, 30]).mirrored(mirror), of(&[11, 2, 21, 30]));
    }

    #[test]
    fn differences_and_changes_are_the_symmetric_difference() {
        let a = of(&[1, 3, 5, 9, 300]);
        let b = of(&[0, 3, 4, 9, 12, 300]);
        assert_eq!(a.differences(&b), 5);
        assert_eq!(a.differences(&a), 0);
        let (gained, lost) = b.changes(&a);
        assert_eq!(gained, of(&[0, 4, 12]));
        assert_eq!(lost, of(&[1, 5]));
    }
}
