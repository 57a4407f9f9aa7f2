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

    /// Calls `f` with each active input, ascending: a plain loop over the set bits of each
    /// word, cheaper than [`Inputs::iter`] where the evaluator updates accumulators.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(usize)) {
        for (word, &bits) in self.words.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                f(64 * word + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
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
