//! Game review (`src/review.rs`, `shove review`): on positions of the tactics suite a move
//! that throws away a forced win is marked by its drop (`??` once the game is no longer
//! clearly won) and the winning move has no mark; every score is
//! turned to the mover's view through extra moves; the JSON output parses.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::akiba::Position;
use shove::game::{Game, MoveList, Player};
use shove::profile::Profile;
use shove::record::Record;
use shove::review::{Eval, Mark, Review, ReviewConfig, THRESHOLDS, review};
use shove::search::Limits;
use std::process::Command;

const SHOVE: &str = env!("CARGO_BIN_EXE_shove");

fn config(depth: u32) -> ReviewConfig {
    confirmed(depth, Position::REVIEW_CONFIRMATION)
}

fn confirmed(depth: u32, confirmation_plies: u32) -> ReviewConfig {
    ReviewConfig {
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        threads: 1,
        hash_megabytes: 16,
        network: None,
        watch: None,
        confirmation_plies,
    }
}

fn record(start: &str, moves: &[String]) -> Record {
    Record {
        game: "akiba".into(),
        rules: Vec::new(),
        start: start.into(),
        players: ["Ann".into(), "Bob".into()],
        result: None,
        reason: String::new(),
        date: String::new(),
        engine: String::new(),
        moves: moves.to_vec(),
        variations: Vec::new(),
    }
}

fn reviewed(record: &Record, depth: u32) -> Review {
    review::<Position>(record, &config(depth), &mut |_, _| true).expect("the review runs")
}

/// Akiba tactics positions that force a win in 3 plies, with their winning moves.
fn tactics() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/akiba-tactics.epd"
    ))
    .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && l.contains("; dm 3 ;"))
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            let best = fields[1].trim_start_matches("bm ").split_whitespace();
            (fields[0].to_string(), best.map(str::to_string).collect())
        })
        .collect()
}

#[test]
fn a_missed_forced_win_is_a_blunder_and_the_winning_move_has_no_mark() {
    let positions = tactics();
    assert!(positions.len() >= 3);
    let mut blunders = 0;
    for (start, winning) in &positions {
        // The winning move: no mark, no other best move, the win kept.
        let good = reviewed(&record(start, &winning[..1]), 6);
        let m = &good.moves[0];
        assert!(matches!(m.before, Eval::Mate(3)), "{start}: {:?}", m.before);
        assert_eq!((m.mark, m.best.as_deref()), (None, None), "{start}: {m:?}");
        assert_eq!(m.accuracy, 100.0);
        // Every other move that leaves no forced win is marked by how much of the (certain)
        // win it gave away, with a winning move as best: `??` once the position left is no
        // longer clearly won.
        let position = Position::parse(start, Default::default()).unwrap();
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        for mv in moves.iter().map(ToString::to_string) {
            if winning.contains(&mv) {
                continue;
            }
            let bad = reviewed(&record(start, std::slice::from_ref(&mv)), 6);
            let m = &bad.moves[0];
            if matches!(m.after, Eval::Mate(n) if n > 0) {
                continue;
            }
            let drop = 100.0 - m.win_after;
            let expected = THRESHOLDS
                .iter()
                .find(|(threshold, _)| drop >= *threshold)
                .map(|&(_, mark)| mark);
            assert_eq!(m.mark, expected, "{start} {mv}: {m:?}");
            assert!(
                winning.contains(m.best.as_ref().unwrap()),
                "{start} {mv}: {m:?}"
            );
            if m.win_after < 85.0 {
                assert_eq!(m.mark, Some(Mark::Blunder), "{start} {mv}: {m:?}");
                blunders += 1;
            }
        }
        let summary = &good.players[position.to_move().index()];
        assert_eq!(
            summary.blunders + summary.mistakes + summary.inaccuracies,
            0
        );
    }
    assert!(blunders > 0);
}

/// Random games reviewed at depth 2, with and without confirmation: the same first
/// searches, so the same marks found; a `?` or `??` the search two plies deeper judges
/// milder is withdrawn (the move then shows the deeper evaluations), and none is made
/// harsher. Real blunders keep theirs (the test above, whose marks are all confirmed).
#[test]
fn a_mistake_stands_only_if_a_deeper_search_confirms_it() {
    let (mut withdrawn, mut kept_marks) = (0, 0);
    for (start, moves, _) in random_games(4) {
        let line = record(&start, &moves);
        let run = |plies| {
            review::<Position>(&line, &confirmed(2, plies), &mut |_, _| true)
                .expect("the review runs")
                .moves
        };
        for (found, kept) in run(0).iter().zip(run(2)) {
            assert!(!found.rechecked);
            assert!(kept.mark <= found.mark, "{found:?} then {kept:?}");
            if kept.mark < found.mark {
                assert!(kept.rechecked, "{kept:?}");
                assert!(found.mark >= Some(Mark::Mistake), "{found:?}");
            } else {
                assert_eq!((kept.before, kept.after), (found.before, found.after));
            }
            withdrawn += usize::from(kept.mark < found.mark);
            kept_marks += usize::from(kept.mark >= Some(Mark::Mistake));
        }
    }
    assert!(
        withdrawn > 0 && kept_marks > 0,
        "{withdrawn} withdrawn, {kept_marks} kept"
    );
}

/// `count` games of random moves (40 at most) from Akiba's start: the start, the moves and
/// who decided each.
fn random_games(count: usize) -> Vec<(String, Vec<String>, Vec<Player>)> {
    let mut rng = StdRng::seed_from_u64(7);
    (0..count)
        .map(|_| {
            let mut position = Position::start(Default::default());
            let start = position.to_string();
            let mut moves = Vec::new();
            let mut movers = Vec::new();
            while moves.len() < 40 && position.outcome().is_none() {
                let mut list = MoveList::new();
                position.legal_moves(&mut list);
                let mv = list[rng.random_range(0..list.len())];
                movers.push(position.to_move());
                moves.push(mv.to_string());
                position.play(mv);
            }
            (start, moves, movers)
        })
        .collect()
}

/// With extra moves the mover of consecutive moves can be the same player: the evaluation
/// after a move is the next move's before, negated only when the decision changes hands.
#[test]
fn evaluations_follow_the_mover_through_extra_moves() {
    let mut extra_moves = 0;
    for (start, moves, movers) in random_games(4) {
        extra_moves += movers.windows(2).filter(|w| w[0] == w[1]).count();
        let result = reviewed(&record(&start, &moves), 3);
        for (pair, who) in result.moves.windows(2).zip(movers.windows(2)) {
            assert_eq!(pair[0].mover, who[0].index() as u8 + 1);
            // A move judged again deeper shows that search's evaluations.
            if pair[0].rechecked || pair[1].rechecked {
                continue;
            }
            if pair[1].after == Eval::Over(1) || pair[1].after == Eval::Over(-1) {
                continue;
            }
            let expected = if who[0] == who[1] {
                pair[1].before
            } else {
                match pair[1].before {
                    Eval::Cp(cp) => Eval::Cp(-cp),
                    Eval::Mate(n) => Eval::Mate(-n),
                    other => other,
                }
            };
            assert_eq!(pair[0].after, expected, "{:?} then {:?}", pair[0], pair[1]);
            let win = |p: Player, m: &shove::review::MoveReview| {
                if m.mover == p.index() as u8 + 1 {
                    m.win_before
                } else {
                    100.0 - m.win_before
                }
            };
            assert!((pair[0].win_after - win(who[0], &pair[1])).abs() < 1e-9);
        }
    }
    assert!(extra_moves > 0, "the random games have extra moves");
}

#[test]
fn the_command_line_reviews_records_and_logs_as_text_and_json() {
    let (start, winning) = &tactics()[0];
    let position = Position::parse(start, Default::default()).unwrap();
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let other = list
        .iter()
        .map(ToString::to_string)
        .find(|m| !winning.contains(m))
        .unwrap();
    let dir = std::env::temp_dir().join(format!("shove-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(&file, record(start, &[other]).to_string()).unwrap();
    let file = file.to_str().unwrap();
    let run = |args: &[&str]| Command::new(SHOVE).args(args).output().unwrap();
    let output = run(&["review", file, "--depth", "5", "--json"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["game"], "akiba");
    assert_eq!(json["search"], "depth 5");
    assert_eq!(json["moves"][0]["ply"], 1);
    assert!(json["moves"][0]["before"]["mate"].as_i64().unwrap() > 0);
    assert_eq!(json["players"][0]["name"], "Ann");
    assert_eq!(json["moves"][0]["rechecked"], false);
    // Confirmation only ever withdraws a `?` or `??`: this move has none to withdraw.
    let mark = json["moves"][0]["mark"].clone();
    for confirm in ["0", "4"] {
        let output = run(&[
            "review",
            file,
            "--depth",
            "5",
            "--confirm",
            confirm,
            "--json",
        ]);
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["moves"][0]["mark"], mark, "--confirm {confirm}");
    }
    // Without a limit: the game's measured default (Akiba: depth 8, docs/review.md).
    let output = run(&["review", file, "--json", "--quiet"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["search"], format!("depth {}", Position::REVIEW_DEPTH));
    assert_eq!(Position::REVIEW_DEPTH, 8);
    let output = run(&["review", file, "--depth", "5"]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.lines().count() == 4, "{text}");
    assert!(text.contains("player 1 Ann: accuracy"), "{text}");
    // Bad input: a missing file, a damaged record, a depth or confirmation out of range.
    for args in [
        &["review", "no-such-file.txt"][..],
        &["review", file, "--depth", "0"][..],
        &["review", file, "--confirm", "9"][..],
        &["review", file, "--number", "2"][..],
    ] {
        let output = run(args);
        assert!(!output.status.success(), "{args:?}");
        assert!(String::from_utf8_lossy(&output.stderr).starts_with("error: "));
    }
}
