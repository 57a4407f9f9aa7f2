//! `shove match` and `shove replay` end to end: real engine processes (the binary itself
//! with `--player`, and a misbehaving shell-script engine), the result lines, the log and
//! its replay. Limits are tiny so the whole file runs in seconds.

use crate::binary;

use binary::{SHOVE, scratch, shove};
use shove::akiba::{Position, Rules};
use shove::game::{Game, Outcome, Player};
use shove::matches::log::{GameRecord, read_log};
use std::path::PathBuf;

/// An engine that shakes hands properly and then misbehaves as `$1` says: `illegal` moves,
/// `crash`es, `hang`s, is `slow`, or speaks only `uci` (and plays an illegal move). Every
/// line it receives is appended to the file `$2`.
const BROKEN_ENGINE: &str = r#"
mode=$1
while read -r line; do
  echo "$line" >> "$2"
  case "$line" in
    ugi) [ "$mode" = uci ] || echo ugiok ;;
    uci) echo "id name broken"; echo uciok ;;
    isready) echo readyok ;;
    go*)
      case "$mode" in
        crash) exit 3 ;;
        hang) ;;
        slow) sleep 1; echo "bestmove a7a6" ;;
        *) echo "bestmove z9z9" ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
"#;

/// Runs `shove match`, which must succeed; returns stdout and stderr.
fn run_match(args: &[&str]) -> (String, String) {
    let output = shove(&[&["match", "--quiet"], args].concat());
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "shove match {args:?} failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    (stdout, stderr)
}

/// `W - L - D` from the `Score of <A> vs <B>: W - L - D [score] N` line, checked for form.
fn score(stdout: &str, a: &str, b: &str) -> (u64, u64, u64) {
    let line = stdout.lines().next().expect("a result line");
    let rest = line
        .strip_prefix(&format!("Score of {a} vs {b}: "))
        .unwrap_or_else(|| panic!("unexpected score line '{line}'"));
    let words: Vec<&str> = rest.split(' ').collect();
    let [w, "-", l, "-", d, score, n] = words[..] else {
        panic!("unexpected score line '{line}'");
    };
    let number = |t: &str| {
        t.parse::<u64>()
            .unwrap_or_else(|_| panic!("'{t}' in '{line}'"))
    };
    let (w, l, d, n) = (number(w), number(l), number(d), number(n));
    assert_eq!(w + l + d, n, "{line}");
    let expected = (w as f64 + d as f64 / 2.0) / n as f64;
    assert_eq!(score, format!("[{expected:.3}]"), "{line}");
    (w, l, d)
}

fn player(name: &str) -> String {
    format!("'{SHOVE}' --player {name}")
}

fn read_records(path: &PathBuf) -> Vec<GameRecord> {
    let file = std::fs::File::open(path).expect("the log exists");
    read_log(std::io::BufReader::new(file)).expect("a valid log")
}

/// Replays a record with the library and checks that its result is what the rules say.
fn check_record(record: &GameRecord) {
    let mut position = Position::parse(&record.opening, Rules::default()).unwrap();
    for mv in &record.moves {
        position.play(position.parse_move(mv).unwrap());
    }
    if record.reason == "by the rules" {
        assert_eq!(position.outcome(), Some(record.outcome), "{record:?}");
    } else {
        assert_eq!(position.outcome(), None, "{record:?}");
    }
}

/// A two-ply material search against random moves: random play seeded by the operating
/// system wins too often against the one-ply greedy player (2 of 8 games happened) for a
/// fixed bound on 8 games to be safe; against two plies it rarely wins (1 of 8 at most in
/// 30 runs; some games are drawn by the move limit or repetition).
#[test]
fn a_searching_player_beats_random_and_the_log_replays() {
    let dir = scratch("greedy");
    let log = dir.join("games.log");
    let (stdout, _) = run_match(&[
        &player("random"),
        &player("material-ab:2"),
        "--games",
        "8",
        "--tc",
        "depth=1",
        "--concurrency",
        "2",
        "--log",
        log.to_str().unwrap(),
    ]);
    let (wins, losses, _) = score(
        &stdout,
        "shove --player random",
        "shove --player material-ab:2",
    );
    assert!(
        losses > wins + 1,
        "random won {wins}, material-ab:2 won {losses} of 8\n{stdout}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[1].starts_with("Elo difference: "), "{stdout}");
    assert!(lines[1].contains(", LOS: ") && lines[1].ends_with("pairs: 4"));
    assert!(lines[2].starts_with("Ptnml(0-2): ["), "{stdout}");

    let records = read_records(&log);
    assert_eq!(records.len(), 8);
    let mut numbers: Vec<usize> = records.iter().map(|r| r.number).collect();
    numbers.sort();
    assert_eq!(numbers, (1..=8).collect::<Vec<_>>());
    for record in &records {
        check_record(record);
        // Colours swap within a pair: random is player 1 in odd-numbered games.
        let random = if record.number % 2 == 1 { 0 } else { 1 };
        assert_eq!(record.players[random], "shove --player random");
        assert_eq!(record.game, "akiba");
    }
    // The two games of a pair share their opening.
    let opening = |n: usize| &records.iter().find(|r| r.number == n).unwrap().opening;
    assert_eq!(opening(1), opening(2));
    assert_ne!(opening(1), opening(3));
    let greedy_wins = records
        .iter()
        .filter(|r| {
            let greedy = if r.number % 2 == 1 {
                Player::Two
            } else {
                Player::One
            };
            r.outcome == Outcome::Win(greedy)
        })
        .count() as u64;
    assert_eq!(greedy_wins, losses);

    // Replay one game: a diagram after every move, then the result.
    let game = &records[0];
    let output = shove(&[
        "replay",
        log.to_str().unwrap(),
        "--number",
        &game.number.to_string(),
    ]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with(&format!("game {} (akiba): player 1 ", game.number)));
    assert_eq!(text.matches("\nmove ").count(), game.moves.len(), "{text}");
    let last = format!("move {}: ", game.moves.len());
    assert!(text.contains(&last));
    assert!(text.trim_end().ends_with(&format!("({})", game.reason)));
    // Every position string printed is the library's.
    let mut position = Position::parse(&game.opening, Rules::default()).unwrap();
    for mv in &game.moves {
        position.play(position.parse_move(mv).unwrap());
    }
    assert!(text.contains(&format!("position:     {position}")));
    let output = shove(&["replay", log.to_str().unwrap(), "--number", "99"]);
    assert!(!output.status.success());
}

/// Plays `random` against the broken engine in `mode`; returns stdout and the log.
fn against_broken(mode: &str, extra: &[&str]) -> (String, Vec<GameRecord>, String) {
    let dir = scratch(mode);
    let script = dir.join("broken.sh");
    std::fs::write(&script, BROKEN_ENGINE).unwrap();
    let received = dir.join("received.txt");
    let log = dir.join("games.log");
    let broken = format!("sh '{}' {mode} '{}'", script.display(), received.display());
    let (stdout, _) = run_match(
        &[
            &[
                &player("random"),
                &broken,
                "--name2",
                "broken",
                "--games",
                "4",
                "--log",
                log.to_str().unwrap(),
            ][..],
            extra,
        ]
        .concat(),
    );
    let received = std::fs::read_to_string(received).unwrap();
    (stdout, read_records(&log), received)
}

#[test]
fn failures_lose_the_game_and_the_match_goes_on() {
    for (mode, kind, extra) in [
        ("illegal", "illegal move", &["--tc", "depth=1"][..]),
        ("crash", "crash", &["--tc", "depth=1"][..]),
        ("hang", "hang", &["--tc", "depth=1", "--timeout", "1"][..]),
        (
            "slow",
            "time loss",
            &["--tc", "movetime=50", "--margin", "100"][..],
        ),
    ] {
        let (stdout, records, _) = against_broken(mode, extra);
        assert_eq!(
            score(&stdout, "shove --player random", "broken"),
            (4, 0, 0),
            "{mode}"
        );
        assert!(
            stdout.contains(&format!("Games lost by failure, broken: {kind}: 4")),
            "{mode}: {stdout}"
        );
        assert_eq!(records.len(), 4);
        for record in &records {
            assert!(
                record
                    .reason
                    .starts_with(&format!("broken loses: {kind}: move ")),
                "{mode}: {}",
                record.reason
            );
        }
    }
}

#[test]
fn an_engine_without_ugi_is_spoken_to_in_uci() {
    let (stdout, _, received) = against_broken("uci", &["--tc", "clock=2+0.1"]);
    assert_eq!(score(&stdout, "shove --player random", "broken"), (4, 0, 0));
    let lines: Vec<&str> = received.lines().collect();
    assert_eq!(lines[..4], ["ugi", "isready", "uci", "isready"]);
    assert!(lines.contains(&"ucinewgame"));
    assert!(
        lines.iter().any(|l| l.starts_with("position fen ")),
        "{received}"
    );
    // The first move of a game: both clocks full, in UCI's names.
    assert!(
        lines.contains(&"go wtime 2000 btime 2000 winc 100 binc 100"),
        "{received}"
    );
}

#[test]
fn the_search_plays_matches_and_adjudication_draws() {
    // The engine proper against a reference player, at a small node budget.
    let (stdout, _) = run_match(&[
        SHOVE,
        &player("greedy"),
        "--games",
        "2",
        "--tc",
        "nodes=3000",
        "--option",
        "Hash=4",
    ]);
    let (wins, losses, draws) = score(&stdout, "shove", "shove --player greedy");
    assert_eq!(wins + losses + draws, 2);
    // Two random players cut off after ten moves: every game is an adjudicated draw.
    let dir = scratch("draws");
    let log = dir.join("games.log");
    let (stdout, _) = run_match(&[
        &player("random"),
        &player("random"),
        "--games",
        "4",
        "--max-moves",
        "10",
        "--tc",
        "depth=1",
        "--log",
        log.to_str().unwrap(),
    ]);
    let records = read_records(&log);
    for record in &records {
        check_record(record);
    }
    let limited = records
        .iter()
        .filter(|r| r.reason == "adjudicated draw: move limit")
        .count() as u64;
    let (_, _, draws) = score(
        &stdout,
        "shove --player random #1",
        "shove --player random #2",
    );
    assert_eq!(draws, limited);
    assert!(records.iter().all(|r| r.moves.len() <= 10));
}

#[test]
fn sprt_stops_on_a_verdict() {
    let (stdout, _) = run_match(&[
        &player("random"),
        &player("greedy"),
        "--games",
        "400",
        "--tc",
        "depth=1",
        "--sprt",
        "elo0=0,elo1=20",
    ]);
    let (w, l, d) = score(&stdout, "shove --player random", "shove --player greedy");
    assert!(w + l + d < 400, "{stdout}");
    assert!(stdout.contains(" - H0 was accepted"), "{stdout}");
}

#[test]
fn level_sets_both_engines_skill_level() {
    let (_, _, received) = against_broken("level", &["--level", "3"]);
    assert!(
        received
            .lines()
            .any(|l| l == "setoption name Skill Level value 3"),
        "{received}"
    );
}

#[test]
fn bad_arguments_are_reported() {
    for args in [
        &[SHOVE, SHOVE, "--tc", "fast"][..],
        &[SHOVE, SHOVE, "--game", "chess"][..],
        &[SHOVE, SHOVE, "--sprt", "elo0=5,elo1=0"][..],
        &[SHOVE, SHOVE, "--openings", "/nonexistent/openings.txt"][..],
        &[SHOVE, SHOVE, "--option", "MultiPV=0"][..],
        &[SHOVE, SHOVE, "--level", "21"][..],
        &["/nonexistent/engine", SHOVE][..],
        &["'unterminated", SHOVE][..],
    ] {
        let output = shove(&[&["match", "--quiet", "--games", "2"], args].concat());
        assert!(!output.status.success(), "accepted {args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.trim().is_empty(), "{args:?}");
    }
}

#[test]
fn openings_are_shuffled_by_the_seed_once_per_pair_and_repeats_warned() {
    let dir = scratch("openings");
    let file = dir.join("openings.txt");
    let openings = [
        "W4BB/1WWRBB1/1WRRR2/1RRRRR1/1BRRR2/BB1RWWW/B5W b 0 0 - - 5",
        "W5B/WW1RBB1/1WRRRB1/1RRRRR1/2RRR1W/BB1RWW1/BB3W1 b 0 0 - - 3",
        "WWW2B1/W2R1B1/2RRR1B/1RRRRRB/B1RRRW1/BB1R1WW/2B3W w 0 0 - - 5",
    ];
    std::fs::write(&file, openings.join("\n")).unwrap();
    let played = |seed: &str, games: &str| {
        let log = dir.join(format!("games-{seed}-{games}.log"));
        let (_, stderr) = run_match(&[
            &player("random"),
            &player("random"),
            "--games",
            games,
            "--tc",
            "depth=1",
            "--max-moves",
            "4",
            "--seed",
            seed,
            "--openings",
            file.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
        ]);
        let mut records = read_records(&log);
        records.sort_by_key(|r| r.number);
        let starts: Vec<String> = records.iter().map(|r| r.opening.clone()).collect();
        (starts, stderr)
    };
    let (starts, stderr) = played("1", "6");
    assert!(!stderr.contains("openings repeat"), "{stderr}");
    // Both games of a pair share an opening; the three pairs play all three.
    let pairs: Vec<&String> = starts
        .chunks(2)
        .map(|pair| {
            assert_eq!(pair[0], pair[1]);
            &pair[0]
        })
        .collect();
    let mut sorted: Vec<&str> = pairs.iter().map(|s| s.as_str()).collect();
    sorted.sort_unstable();
    let mut expected = openings.to_vec();
    expected.sort_unstable();
    assert_eq!(sorted, expected);
    // Another seed, another order (of the 6 orders, seeds 1..=8 give more than one).
    let orders: std::collections::HashSet<Vec<String>> = (1..=8)
        .map(|seed| played(&seed.to_string(), "6").0)
        .collect();
    assert!(orders.len() > 1);
    let (_, stderr) = played("1", "8");
    assert!(stderr.contains("openings repeat"), "{stderr}");
}
