//! `shove tournament` end to end: real engine processes (the binary itself at full
//! strength, at `--level 0` and as reference players, and a misbehaving shell-script
//! engine), the standings, crosstable and pairings, the log read by the other commands,
//! resume after a kill, and shards merged. Limits are tiny so the file runs in seconds.

use crate::binary;

use binary::{SHOVE, scratch, shove};
use shove::matches::log::{GameRecord, read_log_file};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// An engine that shakes hands and then misbehaves as `$1` says: `crash`es at its first
/// `go`, or (`mute`) never answers at all. Every line it receives is appended to `$2`.
const BROKEN_ENGINE: &str = r#"
mode=$1
while read -r line; do
  echo "$line" >> "$2"
  [ "$mode" = mute ] && continue
  case "$line" in
    ugi) echo "id name broken"; echo ugiok ;;
    isready) echo readyok ;;
    go*) exit 3 ;;
    quit) exit 0 ;;
  esac
done
"#;

fn engine(name: &str, args: &str) -> String {
    format!("{name}='{SHOVE}' {args}")
}

/// `--engine` arguments for full strength, level 0 and the random player.
fn three_engines() -> Vec<String> {
    [
        engine("full", ""),
        engine("level-0", "--level 0"),
        engine("random", "--player random"),
    ]
    .into_iter()
    .flat_map(|e| ["--engine".to_string(), e])
    .collect()
}

/// Runs `shove tournament --quiet` with `args`; returns status, stdout and stderr.
fn tournament(args: &[String]) -> (bool, String, String) {
    let output = shove(
        &[
            &["tournament", "--quiet"][..],
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat(),
    );
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// As [`tournament`], which must succeed; returns stdout.
fn played(args: &[String]) -> String {
    let (ok, stdout, stderr) = tournament(args);
    assert!(ok, "shove tournament {args:?} failed\n{stdout}\n{stderr}");
    stdout
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// The standings table: (name, games, points, faults) per line, best first.
fn standings(stdout: &str) -> Vec<(String, u64, f64, u64)> {
    let mut lines = stdout.lines();
    let header = lines.next().expect("a standings header");
    assert!(header.starts_with("Rank"), "{stdout}");
    lines
        .take_while(|l| !l.starts_with("Elo"))
        .enumerate()
        .map(|(i, line)| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let [rank, name, games, points, score, _elo, _error, faults] = words[..] else {
                panic!("unexpected standings line '{line}'");
            };
            assert_eq!(rank, (i + 1).to_string());
            let games: u64 = games.parse().unwrap();
            let points: f64 = points.parse().unwrap();
            let expected = format!("{:.1}%", 100.0 * points / games.max(1) as f64);
            assert_eq!(score, expected, "{line}");
            (name.to_string(), games, points, faults.parse().unwrap())
        })
        .collect()
}

/// The crosstable's cells by row and column name (`None`: they did not meet).
fn crosstable(stdout: &str) -> Vec<(String, Vec<Option<f64>>)> {
    let lines: Vec<&str> = stdout.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("Crosstable"))
        .expect("a crosstable");
    lines[start + 2..]
        .iter()
        .take_while(|l| !l.is_empty())
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let cells = words[2..].iter().map(|w| w.parse().ok()).collect();
            (words[1].to_string(), cells)
        })
        .collect()
}

fn numbers(records: &[GameRecord]) -> Vec<usize> {
    let mut numbers: Vec<usize> = records.iter().map(|r| r.number).collect();
    numbers.sort_unstable();
    numbers
}

#[test]
fn round_robin_orders_the_engines_and_its_log_is_a_match_log() {
    let dir = scratch("round-robin");
    let log = dir.join("games.log");
    let args = [
        three_engines(),
        strings(&[
            "--tc",
            "depth=3",
            "--games-per-pair",
            "4",
            "--concurrency",
            "2",
        ]),
        strings(&["--log", log.to_str().unwrap()]),
    ]
    .concat();
    let stdout = played(&args);
    let table = standings(&stdout);
    let order: Vec<&str> = table.iter().map(|(n, ..)| n.as_str()).collect();
    assert_eq!(order, ["full", "level-0", "random"], "{stdout}");
    assert!(
        table
            .iter()
            .all(|&(_, games, _, faults)| games == 8 && faults == 0)
    );
    assert!(stdout.contains("(random = 0)"), "{stdout}");
    // The crosstable: each row sums to the engine's points, and two engines' points
    // against each other to the games of their pairing.
    let cross = crosstable(&stdout);
    for ((name, cells), (standing, _, points, _)) in cross.iter().zip(&table) {
        assert_eq!(name, standing);
        assert_eq!(cells.iter().flatten().sum::<f64>(), *points, "{stdout}");
    }
    for a in 0..3 {
        assert_eq!(cross[a].1[a], None);
        for b in 0..3 {
            if a != b {
                assert_eq!(cross[a].1[b].unwrap() + cross[b].1[a].unwrap(), 4.0);
            }
        }
    }
    // Every pairing with its W-L-D and two pairs' pentanomial counts.
    let pairings: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("Score of "))
        .collect();
    assert_eq!(pairings.len(), 3, "{stdout}");
    assert!(
        pairings[0].starts_with("Score of full vs level-0: "),
        "{stdout}"
    );
    for line in &pairings {
        let counts = line
            .split("Ptnml(0-2): [")
            .nth(1)
            .unwrap()
            .trim_end_matches(']');
        let pairs: u64 = counts.split(", ").map(|n| n.parse::<u64>().unwrap()).sum();
        assert_eq!(pairs, 2, "{line}");
    }

    // The log: every game once, pairing after pairing, colours swapped within a pair.
    let records = read_log_file(&log).unwrap();
    assert_eq!(numbers(&records), (1..=12).collect::<Vec<_>>());
    for record in &records {
        let pairing = [
            ["full", "level-0"],
            ["full", "random"],
            ["level-0", "random"],
        ][(record.number - 1) / 4];
        let expected = if record.number % 2 == 1 {
            pairing
        } else {
            [pairing[1], pairing[0]]
        };
        assert_eq!(record.players, expected.map(String::from));
    }
    // The other commands read it as a match log.
    let path = log.to_str().unwrap();
    let rated = shove(&["rate", path]);
    assert!(rated.status.success());
    let rated = String::from_utf8_lossy(&rated.stdout);
    assert!(
        rated.lines().nth(1).unwrap().starts_with("full "),
        "{rated}"
    );
    for args in [
        &["replay", path, "--number", "5"][..],
        &["record", path, "--number", "5"],
        &["review", path, "--number", "5", "--depth", "1", "--quiet"],
    ] {
        let output = shove(args);
        assert!(output.status.success(), "{args:?}: {output:?}");
    }
}

#[test]
fn gauntlet_plays_the_first_engine_against_each_other_in_json() {
    let args = [
        three_engines(),
        strings(&[
            "--format",
            "gauntlet",
            "--tc",
            "depth=2",
            "--games-per-pair",
            "2",
        ]),
        strings(&[
            "--engine-tc",
            "random=depth=1",
            "--anchor",
            "full",
            "--json",
        ]),
    ]
    .concat();
    let stdout = played(&args);
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(json["format"], "gauntlet");
    assert_eq!(json["anchor"], "full");
    let pairings = json["pairings"].as_array().unwrap();
    let engines: Vec<&serde_json::Value> = pairings.iter().map(|p| &p["engines"]).collect();
    assert_eq!(
        engines,
        [
            &serde_json::json!(["full", "level-0"]),
            &serde_json::json!(["full", "random"])
        ]
    );
    let standings = json["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    let games = |name: &str| {
        standings.iter().find(|s| s["name"] == name).unwrap()["games"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(
        (games("full"), games("level-0"), games("random")),
        (4, 2, 2)
    );
    let full = standings.iter().find(|s| s["name"] == "full").unwrap();
    assert_eq!(full["elo"], 0.0);
    // level-0 and random never met.
    assert!(json["crosstable"]["level-0"].get("random").is_none());
    let points: f64 = json["crosstable"]["full"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_f64().unwrap())
        .sum();
    assert_eq!(points, full["points"].as_f64().unwrap());
}

/// Writes the broken engine's script into `dir`; its `--engine` argument for `mode`.
fn broken(dir: &Path, mode: &str) -> String {
    let script = dir.join("broken.sh");
    std::fs::write(&script, BROKEN_ENGINE).unwrap();
    let received = dir.join(format!("received-{mode}.txt"));
    format!(
        "broken=sh '{}' {mode} '{}'",
        script.display(),
        received.display()
    )
}

#[test]
fn a_crashing_engine_loses_its_games_and_the_tournament_goes_on() {
    let dir = scratch("crash");
    let args = [
        three_engines(),
        strings(&["--engine", &broken(&dir, "crash")]),
        strings(&["--tc", "depth=1", "--games-per-pair", "2"]),
    ]
    .concat();
    let stdout = played(&args);
    let table = standings(&stdout);
    let row = |name: &str| table.iter().find(|(n, ..)| n == name).unwrap().clone();
    // Its three pairings, two games each, all lost by crashing.
    assert_eq!(row("broken"), ("broken".to_string(), 6, 0.0, 6));
    assert_eq!(row("full").3, 0);
    assert_eq!(table.iter().map(|(_, g, ..)| g).sum::<u64>(), 24);
    assert!(
        stdout.contains("Games lost by failure, broken: crash: 6"),
        "{stdout}"
    );
    // Started again for every game: a handshake each time (and once to check it).
    let received = std::fs::read_to_string(dir.join("received-crash.txt")).unwrap();
    assert_eq!(
        received.lines().filter(|l| *l == "ugi").count(),
        7,
        "{received}"
    );
}

#[test]
fn an_engine_that_cannot_start_or_shake_hands_is_named_before_any_game() {
    let dir = scratch("refused");
    let log = dir.join("games.log");
    for (bad, name) in [
        ("gone=/nonexistent/engine".to_string(), "gone"),
        (broken(&dir, "mute"), "broken"),
    ] {
        // First, so that the others' start-up does not meet the short timeout.
        let args = [
            strings(&["--engine", &bad, "--tc", "depth=1", "--timeout", "2"]),
            three_engines(),
            strings(&["--log", log.to_str().unwrap()]),
        ]
        .concat();
        let (ok, stdout, stderr) = tournament(&args);
        assert!(!ok, "accepted {bad}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(stderr.contains(&format!("error: {name}: ")), "{stderr}");
        assert!(!log.exists(), "a game was played");
    }
    for args in [
        strings(&["--engine", "solo=shove"]),
        [three_engines(), strings(&["--engine-tc", "nobody=depth=1"])].concat(),
        [three_engines(), strings(&["--anchor", "nobody"])].concat(),
        [
            three_engines(),
            strings(&["--engine-option", "full:RepeatRule=ko"]),
        ]
        .concat(),
        [three_engines(), strings(&["--format", "knockout"])].concat(),
    ] {
        let (ok, stdout, stderr) = tournament(&args);
        assert!(
            !ok && stdout.is_empty() && stderr.contains("error"),
            "{args:?}"
        );
    }
}

#[test]
fn resume_after_a_kill_plays_exactly_the_missing_games() {
    let dir = scratch("resume");
    let log = dir.join("games.log");
    let args = [
        three_engines(),
        strings(&["--tc", "depth=3", "--games-per-pair", "4"]),
        strings(&["--log", log.to_str().unwrap()]),
    ]
    .concat();
    // Killed once it has logged two games.
    let mut child = Command::new(SHOVE)
        .args(
            [
                &["tournament", "--quiet"][..],
                &args.iter().map(String::as_str).collect::<Vec<_>>(),
            ]
            .concat(),
        )
        .env_remove("SHOVE_LOG")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let begun = Instant::now();
    let games = || read_log_file(&log).map_or(0, |r| r.len());
    while games() < 2 && begun.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = read_log_file(&log).unwrap();
    assert!(before.len() < 12, "the tournament ended before the kill");
    // The last line cut off in the middle of being written.
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, format!("{text}13\takiba\tfull")).unwrap();

    // Other settings are refused with the reason, and the log is left alone.
    let other = [args.clone(), strings(&["--resume", "--seed", "2"])].concat();
    let (ok, _, stderr) = tournament(&other);
    assert!(!ok);
    assert!(
        stderr.contains("other settings: 'seed=1' vs 'seed=2'"),
        "{stderr}"
    );

    let stdout = played(&[args.clone(), strings(&["--resume"])].concat());
    let after = read_log_file(&log).unwrap();
    assert_eq!(numbers(&after), (1..=12).collect::<Vec<_>>());
    assert_eq!(after[..before.len()], before[..]);
    assert_eq!(
        standings(&stdout).iter().map(|s| s.1).sum::<u64>(),
        24,
        "{stdout}"
    );
}

#[test]
fn shards_merge_into_the_whole_tournament() {
    let dir = scratch("shards");
    // Deterministic engines (fixed depth), so the games themselves must agree.
    let args = [
        strings(&["--engine", &engine("full", "")]),
        strings(&["--engine", &engine("ab1", "--player material-ab:1")]),
        strings(&["--engine", &engine("ab2", "--player material-ab:2")]),
        strings(&[
            "--tc",
            "depth=2",
            "--games-per-pair",
            "2",
            "--max-moves",
            "60",
        ]),
    ]
    .concat();
    let run = |extra: &[&str]| played(&[args.clone(), strings(extra)].concat());
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let whole = run(&["--log", &path("whole.log")]);
    run(&["--shard", "1/2", "--log", &path("shard1.log")]);
    run(&["--shard", "2/2", "--log", &path("shard2.log")]);
    let merged = shove(&[
        "merge",
        &path("shard1.log"),
        &path("shard2.log"),
        "--out",
        &path("merged.log"),
    ]);
    assert!(merged.status.success(), "{merged:?}");
    assert_eq!(String::from_utf8_lossy(&merged.stdout), whole);
    let mut expected = read_log_file(Path::new(&path("whole.log"))).unwrap();
    expected.sort_by_key(|r| r.number);
    assert_eq!(
        read_log_file(Path::new(&path("merged.log"))).unwrap(),
        expected
    );
}
