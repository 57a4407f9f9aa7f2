//! Generates the balanced opening sets `positions/<game>-openings.txt` that `shove match`
//! starts its game pairs from.
//!
//! `cargo run --release --example make_openings -- <game> [count] [seed]`
//!
//! Each candidate is a short seeded random playout from the start position (a few plies,
//! uniformly random legal moves). It is kept only when the game is still on, it differs
//! from every kept position, and a shallow search with fresh tables (so the verdict is
//! reproducible) judges it roughly equal. Whatever colour is to move, both engines play
//! both sides of every opening, so "roughly equal" only has to keep lopsided starts out.
//! The output is deterministic for a given game, count and seed.

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use shove::game::{Game, MoveList};
use shove::game::{GameVisitor, with_game};
use shove::search::{Limits, Score, Searcher};
use std::collections::HashSet;
use std::fmt::Write as _;

/// Random plies played from the start, inclusive range.
const PLIES: (usize, usize) = (4, 10);
/// Depth of the judging search.
const DEPTH: u32 = 6;
/// Largest absolute score (evaluation units, ~1/100 of a red marble or point) kept.
const MAX_SCORE: i32 = 60;

struct Make {
    count: usize,
    seed: u64,
}

impl GameVisitor for Make {
    type Output = Result<(), String>;

    fn visit<G: Game>(self) -> Result<(), String> {
        let mut rng = StdRng::seed_from_u64(self.seed);
        let mut searcher = Searcher::<G>::new(16);
        let limits = Limits {
            depth: Some(DEPTH),
            ..Limits::default()
        };
        let mut seen = HashSet::new();
        let mut kept = Vec::new();
        let mut tried = 0;
        while kept.len() < self.count {
            tried += 1;
            if tried > 100 * self.count {
                return Err(format!(
                    "only {} openings after {tried} playouts",
                    kept.len()
                ));
            }
            let mut position = G::start(G::Rules::default());
            let plies = rng.random_range(PLIES.0..=PLIES.1);
            let mut moves = MoveList::new();
            for _ in 0..plies {
                moves.clear();
                position.legal_moves(&mut moves);
                let Some(&mv) = moves.choose(&mut rng) else {
                    break;
                };
                position.play(mv);
            }
            if position.outcome().is_some() || !seen.insert(position.hash()) {
                continue;
            }
            searcher.clear();
            let result = searcher.search(&position, &[], &limits, 1, &mut |_| {});
            if let Score::Cp(score) = result.score
                && score.abs() <= MAX_SCORE
            {
                kept.push(position.to_string());
            }
        }
        let mut text = String::new();
        let _ = writeln!(
            text,
            "# {} openings for shove match: random playouts of {}..={} plies from the start,\n\
             # kept when a depth-{DEPTH} search scores them within {MAX_SCORE}.\n\
             # cargo run --release --example make_openings -- {} {} {}",
            G::NAME,
            PLIES.0,
            PLIES.1,
            G::NAME,
            self.count,
            self.seed
        );
        for line in &kept {
            let _ = writeln!(text, "{line}");
        }
        let path = format!("positions/{}-openings.txt", G::NAME);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
        eprintln!("{path}: {} openings from {tried} playouts", kept.len());
        Ok(())
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parse = |index: usize, default: u64| -> u64 {
        args.get(index).map_or(default, |text| {
            text.parse().unwrap_or_else(|_| {
                eprintln!("'{text}' is not a whole number");
                std::process::exit(2);
            })
        })
    };
    let Some(game) = args.first() else {
        eprintln!("usage: make_openings <game> [count] [seed]");
        std::process::exit(2);
    };
    let make = Make {
        count: parse(1, 200) as usize,
        seed: parse(2, 1),
    };
    if let Err(message) = with_game(game, make).and_then(|r| r) {
        eprintln!("error: {message}");
        std::process::exit(1);
    }
}
