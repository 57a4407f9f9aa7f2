//! A string fuzzer shared by the rule tests: random edits of a valid text, and random noise,
//! over a game's alphabet.

use rand::RngExt;
use rand::rngs::StdRng;

/// `text` with one to three random edits: a character replaced, removed, inserted (from
/// `alphabet`) or two characters swapped.
pub fn mutate(rng: &mut StdRng, text: &str, alphabet: &[char]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..4) {
        let c = alphabet[rng.random_range(0..alphabet.len())];
        match rng.random_range(0..4) {
            0 if !chars.is_empty() => {
                let i = rng.random_range(0..chars.len());
                chars[i] = c;
            }
            1 if !chars.is_empty() => {
                chars.remove(rng.random_range(0..chars.len()));
            }
            2 => {
                let i = rng.random_range(0..=chars.len());
                chars.insert(i, c);
            }
            _ if chars.len() >= 2 => {
                let (i, j) = (
                    rng.random_range(0..chars.len()),
                    rng.random_range(0..chars.len()),
                );
                chars.swap(i, j);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Up to `max_len` random characters of `alphabet`.
pub fn random_text(rng: &mut StdRng, max_len: usize, alphabet: &[char]) -> String {
    (0..rng.random_range(0..=max_len))
        .map(|_| alphabet[rng.random_range(0..alphabet.len())])
        .collect()
}
