//! Evaluations written as a weighted sum of named terms, `eval = Σ wᵢ·fᵢ`.
//!
//! A game's evaluation emits its feature values once, through a [`Terms`] sink; the engine
//! passes [`Dot`] (the sum with its weights, no allocation) and the tuner passes
//! [`Sparse`] (the feature vector). One extraction serves both, so the tuner's error is the
//! engine's evaluation exactly.

/// Receives the features of a position: `value` more of term `term`.
pub trait Terms {
    fn add(&mut self, term: usize, value: i32);
}

/// The weighted sum of the features with fixed integer weights: the engine's evaluation.
pub struct Dot<'a> {
    weights: &'a [i32],
    pub sum: i32,
}

impl<'a> Dot<'a> {
    pub fn new(weights: &'a [i32]) -> Dot<'a> {
        Dot { weights, sum: 0 }
    }
}

impl Terms for Dot<'_> {
    #[inline(always)]
    fn add(&mut self, term: usize, value: i32) {
        self.sum += self.weights[term] * value;
    }
}

/// The non-zero features of a position, each term once, in first-seen order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sparse(pub Vec<(u16, i32)>);

impl Terms for Sparse {
    fn add(&mut self, term: usize, value: i32) {
        if value == 0 {
            return;
        }
        let term = u16::try_from(term).expect("fewer than 65536 terms");
        match self.0.iter().position(|&(t, _)| t == term) {
            Some(i) => {
                self.0[i].1 += value;
                if self.0[i].1 == 0 {
                    self.0.remove(i);
                }
            }
            None => self.0.push((term, value)),
        }
    }
}

impl Sparse {
    /// Σ wᵢ·fᵢ with integer weights (what [`Dot`] computes).
    pub fn dot(&self, weights: &[i32]) -> i32 {
        self.0
            .iter()
            .map(|&(t, v)| weights[usize::from(t)] * v)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparse_merges_terms_and_matches_dot() {
        let weights = [3, -2, 7];
        let mut sparse = Sparse::default();
        let mut dot = Dot::new(&weights);
        for (term, value) in [(0, 2), (2, 1), (0, -2), (1, 5), (2, 0)] {
            sparse.add(term, value);
            dot.add(term, value);
        }
        assert_eq!(sparse.0, vec![(2, 1), (1, 5)]);
        assert_eq!(sparse.dot(&weights), dot.sum);
        assert_eq!(dot.sum, 7 - 10);
    }
}
