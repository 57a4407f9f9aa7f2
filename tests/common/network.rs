//! A network file of fixed, made-up weights for a game (not its built-in network): what the
//! tests use to tell a network file apart from the classical evaluation and the built-in one.

use shove::profile::Profile;
use std::path::Path;

/// A network of fixed weights for `G`, written to `dir/name`; returns its path.
pub fn network_file<G: Profile>(dir: &Path, name: &str) -> String {
    let hidden = 8;
    let w1: Vec<f32> = (0..G::NETWORK_INPUTS * hidden)
        .map(|i| ((i * 37 % 101) as f32 - 50.0) / 100.0)
        .collect();
    let network = shove::nnue::Network::from_float(
        G::NAME,
        G::NETWORK_INPUTS,
        hidden,
        300.0,
        &w1,
        &[0.1; 8],
        &[
            0.4, -0.3, 0.2, 0.5, -0.1, 0.3, -0.2, 0.1, -0.4, 0.3, -0.2, -0.5, 0.1, -0.3, 0.2, -0.1,
        ],
        &[0.0],
    )
    .expect("sizes fit");
    let path = dir.join(name);
    std::fs::write(&path, network.to_bytes()).expect("temp dir writable");
    path.display().to_string()
}
