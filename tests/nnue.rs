//! The network evaluation: each game's inputs, the incremental accumulators against a full
//! recomputation, and the search with a network.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::evaluation::Evaluation;
use shove::game::{MoveList, Player};
use shove::nnue::{Evaluator, Inputs, Network};
use shove::profile::Profile;
use shove::search::{Limits, MAX_PLY, Searcher};
use shove::{abraxas, akiba, offboard};
use std::sync::Arc;

/// A network with random weights of the size the game needs, with as many output buckets
/// as the game may have.
fn random_network<G: Profile>(hidden: usize, seed: u64) -> Network {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut weights = |n: usize, spread: f32| -> Vec<f32> {
        (0..n).map(|_| rng.random_range(-spread..spread)).collect()
    };
    let w1 = weights(G::NETWORK_INPUTS * hidden, 0.3);
    let b1 = weights(hidden, 0.5);
    let w2 = weights(2 * hidden * G::NETWORK_BUCKETS, 1.0);
    let b2: Vec<f32> = (1..=G::NETWORK_BUCKETS).map(|b| 0.1 * b as f32).collect();
    Network::from_float(
        G::NAME,
        G::NETWORK_INPUTS,
        hidden,
        300.0,
        &w1,
        &b1,
        &w2,
        &b2,
    )
    .expect("sizes fit")
}

/// Positions of random games from `starts`, each game to its end or 300 moves.
fn random_positions<G: Profile>(starts: &[G], seed: u64) -> Vec<G> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    for start in starts {
        for _ in 0..4 {
            let mut position = start.clone();
            for _ in 0..300 {
                positions.push(position.clone());
                let mut moves = MoveList::new();
                position.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                position.play(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
    positions
}

fn abraxas_starts() -> Vec<abraxas::Position> {
    ["s1", "s2", "s3", "s4", "s5", "s6"]
        .iter()
        .map(|sheet| {
            let rules = abraxas::Rules {
                sheet: sheet.parse().expect("built-in sheet"),
                ..abraxas::Rules::default()
            };
            abraxas::Position::start(rules)
        })
        .collect()
}

fn inputs_are_in_range<G: Profile>(starts: &[G]) {
    let mut views = [Inputs::new(); 2];
    for position in random_positions(starts, 1) {
        position.network_inputs(&mut views);
        for inputs in &views {
            assert!(!inputs.is_empty(), "no inputs in {position}");
            assert!(
                inputs.iter().all(|i| usize::from(i) < G::NETWORK_INPUTS),
                "input out of range in {position}"
            );
        }
    }
}

#[test]
fn every_game_lists_inputs_in_range() {
    inputs_are_in_range(&[akiba::Position::start(Default::default())]);
    inputs_are_in_range(&[offboard::Position::start(Default::default())]);
    inputs_are_in_range(&abraxas_starts());
}

/// The two views differ and each names the position: swapping the players' marbles shows
/// up, so the network can tell who has what.
#[test]
fn the_views_of_the_two_players_differ() {
    let position = akiba::Position::start(Default::default());
    let mut views = [Inputs::new(); 2];
    position.network_inputs(&mut views);
    assert_ne!(views[Player::One.index()], views[Player::Two.index()]);
}

/// Walks random games as a search does: at each ply several children are evaluated (the
/// siblings), then the game goes on from one of them; every incremental value must equal
/// the full recomputation. Hidden sizes of a partial block of lanes (64 to a block), one
/// whole block, and whole blocks and a partial one. The full recomputation runs the build's
/// baseline instructions, the evaluator the widest the CPU has (AVX2 or AVX-512 where
/// present), so this also checks the two agree.
fn incremental_equals_full<G: Profile>(starts: &[G]) {
    for hidden in [40, 64, 136] {
        incremental_equals_full_at::<G>(starts, hidden);
    }
}

fn incremental_equals_full_at<G: Profile>(starts: &[G], hidden: usize) {
    let network = Arc::new(random_network::<G>(hidden, 7));
    let mut evaluator = Evaluator::<G>::new(Arc::clone(&network), MAX_PLY);
    let mut rng = StdRng::seed_from_u64(3);
    let mut checked = 0;
    for start in starts {
        for _ in 0..3 {
            let mut position = start.clone();
            for ply in 0..120 {
                assert_eq!(
                    evaluator.evaluate(&position, ply),
                    network.evaluate(&position),
                    "at ply {ply} in {position}"
                );
                let mut moves = MoveList::new();
                position.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                for &mv in moves.iter().take(4) {
                    let mut child = position.clone();
                    child.play(mv);
                    assert_eq!(
                        evaluator.evaluate(&child, ply + 1),
                        network.evaluate(&child),
                        "child {mv} at ply {} of {position}",
                        ply + 1
                    );
                    checked += 1;
                }
                position.play(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
    assert!(checked > 100, "only {checked} positions checked");
}

#[test]
fn incremental_accumulators_equal_a_full_recomputation() {
    incremental_equals_full(&[akiba::Position::start(Default::default())]);
    incremental_equals_full(&[offboard::Position::start(Default::default())]);
    incremental_equals_full(&abraxas_starts());
}

/// A search with a network plays legal moves and its evaluation differs from the classical
/// one (the network is really used).
#[test]
fn a_search_with_a_network_uses_it() {
    let position = akiba::Position::start(Default::default());
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let mut classical = Searcher::<akiba::Position>::new(1);
    let mut networked = Searcher::<akiba::Position>::new(1);
    networked.set_network(Some(Arc::new(random_network::<akiba::Position>(16, 5))));
    let a = classical.search(&position, &[], &limits, 1, &mut |_| {});
    let b = networked.search(&position, &[], &limits, 1, &mut |_| {});
    assert!(b.best.is_some());
    assert_ne!((a.nodes, a.score), (b.nodes, b.score));
    networked.set_network(None);
    networked.clear();
    let c = networked.search(&position, &[], &limits, 1, &mut |_| {});
    assert_eq!((a.nodes, a.score, a.best), (c.nodes, c.score, c.best));
}

/// `bench` node counts with the classical evaluation: a network in the engine must not
/// change the classical search by a single node. (Measured before networks existed, v0.1
/// line, commit 47eb4f6, as 101278, 23581 and 36190; from 3e8ddf9, where a result of 0 no
/// longer cuts through the table, 101908, 23732 and 36190; the pruning search of 2026-11-28
/// gives the counts below, Akiba's with its reductions at cut nodes of 02ae075.)
#[test]
fn the_classical_search_is_unchanged() {
    for (game, depth, nodes) in [
        ("akiba", "8", "59259"),
        ("offboard", "5", "14913"),
        ("abraxas", "6", "12028"),
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_shove"))
            .args([
                "--game",
                game,
                "bench",
                "--depth",
                depth,
                "--eval",
                "classical",
            ])
            .output()
            .expect("shove runs");
        assert!(output.status.success());
        let stdout = String::from_utf8_lossy(&output.stdout);
        let last = stdout.lines().last().expect("a summary line");
        assert_eq!(
            last.split(' ').next(),
            Some(nodes),
            "{game} bench at depth {depth}: {last}"
        );
    }
}

/// Every game ships a network that its own build accepts.
#[test]
fn every_built_in_network_is_valid_for_its_game() {
    fn check<G: Profile>() {
        let bytes = G::embedded_network().expect("a network is built in");
        let network = Network::from_bytes(bytes).expect("the built-in file reads");
        network.check::<G>().expect("it is for this game");
        let chosen = shove::nnue::choice::resolve::<G>(Some(shove::nnue::EvalKind::Network), None)
            .expect("the network can be chosen");
        assert_eq!(chosen.as_deref(), Some(&network));
    }
    check::<akiba::Position>();
    check::<offboard::Position>();
    check::<abraxas::Position>();
}

/// Where the network is the default, `RESULT_SCALE` (the winning chances of reviews) is the
/// K the built-in file was trained with (written to six decimals), so a new network cannot
/// leave it stale.
#[test]
fn a_default_network_sets_the_result_scale() {
    fn check<G: Profile>() {
        if !G::NETWORK_BY_DEFAULT {
            return;
        }
        let bytes = G::embedded_network().expect("a network is built in");
        let network = Network::from_bytes(bytes).expect("the built-in file reads");
        let k = 1.0 / f64::from(network.scale());
        assert!(
            (G::RESULT_SCALE - k).abs() <= 5e-7,
            "{}: RESULT_SCALE {} but the network's K is {k}",
            G::NAME,
            G::RESULT_SCALE
        );
    }
    check::<akiba::Position>();
    check::<offboard::Position>();
    check::<abraxas::Position>();
}
