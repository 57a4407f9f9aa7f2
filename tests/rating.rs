//! `shove rate` (`src/matches/rating.rs`): a synthetic round robin played by the Elo model
//! from known ratings, written as match logs, must give back every rating within its 95%
//! error bars, with the random player at 0.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::game::{Outcome, Player};
use shove::matches::log::{GameRecord, HEADER};
use shove::matches::rating::rate_logs;
use std::process::Command;

/// The players and their true ratings; `shove --player random` is the anchor.
const PLAYERS: [(&str, f64); 5] = [
    ("shove --player random", 0.0),
    ("level 0", 120.0),
    ("level 5", 310.0),
    ("greedy", 380.0),
    ("level 20", 900.0),
];

/// Writes a round robin of `games` games per pair, split over two logs (as shards are).
fn synthetic_logs(games: usize, seed: u64) -> Vec<std::path::PathBuf> {
    let mut rng = StdRng::seed_from_u64(seed);
    let dir = std::env::temp_dir().join(format!("shove-rate-{}-{seed}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut logs = [format!("{HEADER}\n"), format!("{HEADER}\n")];
    let mut number = 0;
    for (a, &(name_a, elo_a)) in PLAYERS.iter().enumerate() {
        for &(name_b, elo_b) in &PLAYERS[a + 1..] {
            let expected = 1.0 / (1.0 + 10f64.powf((elo_b - elo_a) / 400.0));
            // Draws take a share of the middle; the expected score stays the model's.
            let draw = 0.3 * expected.min(1.0 - expected);
            for game in 0..games {
                let x: f64 = rng.random();
                let first_wins = x < expected - draw / 2.0;
                let drawn = !first_wins && x < expected + draw / 2.0;
                let outcome = match (first_wins, drawn, game % 2) {
                    (_, true, _) => Outcome::Draw,
                    (true, _, 0) | (false, _, 1) => Outcome::Win(Player::One),
                    _ => Outcome::Win(Player::Two),
                };
                // Colours alternate: the result is from player 1's view.
                let players = if game % 2 == 0 {
                    [name_a, name_b]
                } else {
                    [name_b, name_a]
                };
                number += 1;
                let record = GameRecord {
                    number,
                    game: "akiba".into(),
                    players: players.map(str::to_string),
                    outcome,
                    reason: "by the rules".into(),
                    opening: "-".into(),
                    moves: Vec::new(),
                    rules: Vec::new(),
                };
                logs[number % 2].push_str(&record.to_line());
                logs[number % 2].push('\n');
            }
        }
    }
    logs.iter()
        .enumerate()
        .map(|(i, text)| {
            let path = dir.join(format!("shard{i}.log"));
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect()
}

#[test]
fn a_synthetic_tournament_s_ratings_are_recovered_within_the_error_bars() {
    let mut inside = 0;
    let mut all = 0;
    for seed in 1..=4 {
        let logs = synthetic_logs(300, seed);
        let fit = rate_logs(&logs, None).unwrap();
        assert_eq!(fit.anchor, "shove --player random");
        for (name, truth) in PLAYERS {
            let rating = fit.ratings.iter().find(|r| r.name == name).unwrap();
            assert_eq!(rating.games, 4 * 300);
            if name == fit.anchor {
                assert_eq!((rating.elo, rating.error), (0.0, 0.0));
                continue;
            }
            assert!(rating.error > 10.0 && rating.error < 80.0, "{rating:?}");
            // Far outside the bars is a wrong fit, not chance.
            assert!(
                (rating.elo - truth).abs() < 2.0 * rating.error,
                "seed {seed}: {rating:?} vs {truth}"
            );
            all += 1;
            inside += usize::from((rating.elo - truth).abs() <= rating.error);
        }
    }
    // 95% intervals: of 16, nearly all hold.
    assert!(inside >= 14, "{inside} of {all} within the 95% bars");
}

#[test]
fn the_command_line_rates_logs_and_refuses_what_it_cannot() {
    let logs = synthetic_logs(40, 9);
    let shove = env!("CARGO_BIN_EXE_shove");
    let paths: Vec<&str> = logs.iter().map(|p| p.to_str().unwrap()).collect();
    let output = Command::new(shove)
        .arg("rate")
        .args(&paths)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].starts_with("level 20 "), "{text}");
    let anchor = lines
        .iter()
        .find(|l| l.starts_with("shove --player random "))
        .unwrap();
    let fields: Vec<&str> = anchor.split_whitespace().collect();
    assert_eq!(fields[3..6], ["+0.0", "0.0", "160"], "{text}");
    assert!(
        lines.last().unwrap().contains("shove --player random = 0"),
        "{text}"
    );
    let output = Command::new(shove)
        .args(["rate", paths[0], "--anchor", "greedy"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("greedy = 0"));
    for args in [
        vec!["rate", paths[0], "--anchor", "nobody"],
        vec!["rate", "no-such.log"],
    ] {
        let output = Command::new(shove).args(&args).output().unwrap();
        assert!(!output.status.success(), "{args:?}");
        assert!(String::from_utf8_lossy(&output.stderr).starts_with("error: "));
    }
}
