//! The strength pipeline: the evaluation as features (exact on random positions of every
//! game with a linear evaluation), tuning recovering known weights, and `shove selfplay`,
//! `shove tune` and `shove merge` end to end on tiny runs.

use crate::binary;

use binary::{SHOVE, scratch, shove};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use shove::evaluation::Evaluation;
use shove::game::{Game, MoveList};
use shove::linear::Sparse;
use shove::pipeline::tune::{Dataset, TuneConfig, tune};
use shove::profile::Profile;
use shove::{abraxas, akiba, offboard};
use std::path::{Path, PathBuf};

/// The start positions random games begin from: Abraxas' on each of its six sheets (one
/// sheet's symmetry would make some terms move together), the other games' own.
fn starts<G: Profile>() -> Vec<G> {
    if G::NAME == abraxas::Position::NAME {
        (1..=6)
            .map(|sheet| {
                let text = format!("s{sheet} 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1");
                G::parse(&text, G::Rules::default()).expect("a start position")
            })
            .collect()
    } else {
        vec![G::start(G::Rules::default())]
    }
}

/// Positions of random games from the start, every position of every game.
fn random_positions<G: Profile>(games: usize, seed: u64) -> Vec<G> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    let starts = starts::<G>();
    for game in 0..games {
        let mut position = starts[game % starts.len()].clone();
        let mut moves = MoveList::new();
        for _ in 0..200 {
            if position.outcome().is_some() {
                break;
            }
            positions.push(position.clone());
            moves.clear();
            position.legal_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            position.play(mv);
        }
    }
    positions
}

/// The feature vector reproduces the engine's evaluation exactly, with its weights and
/// with random ones.
fn features_are_exact<G: Profile>() {
    let names = G::term_names();
    assert_eq!(names.len(), G::weights().len(), "{}", G::NAME);
    let mut rng = StdRng::seed_from_u64(3);
    let positions = random_positions::<G>(30, 11);
    assert!(positions.len() > 1000, "{}", positions.len());
    for position in &positions {
        let mut sparse = Sparse::default();
        position.features(&mut sparse);
        assert_eq!(sparse.dot(G::weights()), position.evaluate(), "{position}");
        let random: Vec<i32> = (0..names.len())
            .map(|_| rng.random_range(-50..50))
            .collect();
        assert_eq!(
            sparse.dot(&random),
            position.evaluate_with(&random),
            "{position}"
        );
    }
}

#[test]
fn akiba_features_reproduce_the_evaluation() {
    features_are_exact::<akiba::Position>();
}

#[test]
fn offboard_features_reproduce_the_evaluation() {
    features_are_exact::<offboard::Position>();
}

#[test]
fn abraxas_features_reproduce_the_evaluation() {
    features_are_exact::<abraxas::Position>();
}

/// Data labelled by known weights (the search score is their evaluation; the target uses
/// only the score) is fitted back to those weights from a start far away.
fn tuning_recovers<G: Profile>(named: usize) {
    let truth = G::weights();
    let mut train = Dataset::default();
    let mut validation = Dataset::default();
    for (i, position) in random_positions::<G>(60, 5).iter().enumerate() {
        let mut features = Sparse::default();
        position.features(&mut features);
        let set = if i % 10 == 0 {
            &mut validation
        } else {
            &mut train
        };
        set.push(&features, features.dot(truth), 0.5).unwrap();
    }
    // The per-cell table is collinear with the marble count: keep it at its true value and
    // start the named terms from half their value plus 7.
    let start: Vec<i32> = (0..truth.len())
        .map(|t| {
            if t < named {
                truth[t] / 2 + 7
            } else {
                truth[t]
            }
        })
        .collect();
    let config = TuneConfig {
        lambda: 0.0,
        k: Some(0.005),
        epochs: 3000,
        learning_rate: 3.0,
        frozen: (0..truth.len()).map(|t| t >= named).collect(),
        threads: 2,
        ..TuneConfig::default()
    };
    let report = tune(&train, &validation, &start, &config, &mut |_, _| {}).unwrap();
    let names = G::term_names();
    for t in 0..named {
        assert!(
            (report.weights[t] - truth[t]).abs() <= 2,
            "{} {}: tuned {} true {} (from {})",
            G::NAME,
            names[t],
            report.weights[t],
            truth[t],
            start[t]
        );
    }
    assert!(
        report.validation_after < report.validation_before / 100.0,
        "{report:?}"
    );
}

#[test]
fn tuning_recovers_known_akiba_weights() {
    tuning_recovers::<akiba::Position>(akiba::eval::term::CELL);
}

#[test]
fn tuning_recovers_known_offboard_weights() {
    tuning_recovers::<offboard::Position>(offboard::eval::term::CELL);
}

#[test]
fn tuning_recovers_known_abraxas_weights() {
    tuning_recovers::<abraxas::Position>(abraxas::eval::term::COUNT);
}

fn ok(args: &[&str]) -> String {
    let output = shove(args);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "shove {args:?} failed\nstdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("read")
}

/// A tiny self-play run: `games` games at `nodes` nodes.
fn selfplay_run(out: &Path, games: &str, nodes: &str, extra: &[&str]) -> String {
    let out = out.to_str().unwrap();
    let base = [
        "selfplay",
        "--out",
        out,
        "--games",
        games,
        "--nodes",
        nodes,
        "--seed",
        "9",
        "--quiet",
        "--max-moves",
        "60",
    ];
    ok(&[&base[..], extra].concat())
}

/// 20 games at 300 nodes.
fn selfplay(out: &Path, extra: &[&str]) -> String {
    selfplay_run(out, "20", "300", extra)
}

#[test]
fn selfplay_is_reproducible_appends_and_refuses_other_settings() {
    let dir = scratch("selfplay");
    let (a, b) = (dir.join("a.data"), dir.join("b.data"));
    let printed = selfplay(&a, &["--concurrency", "2"]);
    assert!(printed.starts_with("20 games, "), "{printed}");
    selfplay(&b, &["--concurrency", "1"]);
    let text = read(&a);
    let mut lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("#shove-data 1\tgame=akiba\t"),
        "{}",
        lines[0]
    );
    assert!(lines.len() > 100, "{} lines", lines.len());
    // Games finish in any order; sorted, the two runs are the same.
    let mut other: Vec<String> = read(&b).lines().map(str::to_string).collect();
    lines.sort();
    other.sort();
    assert_eq!(lines, other);
    // Each line: position, score, result 1/0.5/0, quiet flag, game number below 20.
    for line in lines.iter().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 5, "{line}");
        akiba::Position::parse(fields[0], Default::default()).expect("a position");
        assert!(["1", "0.5", "0"].contains(&fields[2]), "{line}");
        assert!(fields[4].parse::<u32>().unwrap() < 20, "{line}");
    }
    // Appending adds the same games again under the one header.
    selfplay(&b, &[]);
    assert_eq!(read(&b).lines().count(), 2 * text.lines().count() - 1);
    let refused = shove(&[
        "selfplay",
        "--out",
        b.to_str().unwrap(),
        "--games",
        "2",
        "--nodes",
        "301",
        "--quiet",
    ]);
    assert!(!refused.status.success());
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(error.contains("other settings"), "{error}");
}

#[test]
fn data_shards_merge_into_the_unsharded_run() {
    let dir = scratch("merge-data");
    let whole = dir.join("whole.data");
    selfplay(&whole, &[]);
    let shards: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("{k}.data"))).collect();
    for (k, path) in shards.iter().enumerate() {
        selfplay(path, &["--shard", &format!("{}/3", k + 1)]);
    }
    let merged = dir.join("merged.data");
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(|p| p.to_str().unwrap()));
    args.extend(["--out", merged.to_str().unwrap()]);
    let printed = ok(&args);
    assert!(printed.contains("of 20 games"), "{printed}");
    // Merged files are in game order; sort the whole run's lines the same way.
    let whole_text = read(&whole);
    let mut expected: Vec<&str> = whole_text.lines().skip(1).collect();
    expected.sort_by_key(|l| l.rsplit('\t').next().unwrap().parse::<u32>().unwrap());
    let merged_text = read(&merged);
    let got: Vec<&str> = merged_text.lines().collect();
    assert_eq!(got[0], whole_text.lines().next().unwrap());
    // Within a game the order is the order of play in both.
    assert_eq!(got[1..], expected[..]);
    // A shard twice, or a file with other settings, is refused.
    let twice = shove(&[
        "merge",
        shards[0].to_str().unwrap(),
        shards[0].to_str().unwrap(),
        "--out",
        dir.join("x").to_str().unwrap(),
    ]);
    assert!(!twice.status.success());
    let other = dir.join("other.data");
    selfplay_run(&other, "2", "200", &[]);
    let mixed = shove(&[
        "merge",
        shards[0].to_str().unwrap(),
        other.to_str().unwrap(),
        "--out",
        dir.join("y").to_str().unwrap(),
    ]);
    assert!(!mixed.status.success());
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("different settings"));
}

#[test]
fn tune_reports_errors_and_writes_weights() {
    let dir = scratch("tune");
    let data = dir.join("a.data");
    selfplay(&data, &[]);
    let out = dir.join("weights.rs");
    let printed = ok(&[
        "tune",
        data.to_str().unwrap(),
        "--epochs",
        "20",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(printed.contains("error before: training "), "{printed}");
    assert!(printed.contains("error after:  training "), "{printed}");
    let source = read(&out);
    assert!(source.contains("pub const WEIGHTS: [i32; super::eval::term::COUNT] = ["));
    assert_eq!(
        source.lines().filter(|l| l.contains(", // ")).count(),
        akiba::Position::term_names().len()
    );
    let refused = shove(&["tune", "--game", "offboard", data.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not offboard"));
}

/// One Abraxas evaluation is fitted to games of several sheets: files that differ only in
/// their rules tune together, each read under its own; any other difference is refused.
#[test]
fn tune_takes_files_of_several_rule_sets_but_nothing_else_mixed() {
    let dir = scratch("tune-rules");
    let sheets: Vec<PathBuf> = ["s2", "s4"]
        .iter()
        .map(|sheet| {
            let data = dir.join(format!("{sheet}.data"));
            let extra = ["--game", "abraxas", "--abraxas-sheet", sheet];
            selfplay_run(&data, "4", "300", &extra);
            data
        })
        .collect();
    assert!(read(&sheets[0]).contains("AbraxasSheet=s2"));
    let paths: Vec<&str> = sheets.iter().map(|p| p.to_str().unwrap()).collect();
    let printed = ok(&[
        &["tune", "--game", "abraxas", "--epochs", "5", "--quiet"],
        &paths[..],
    ]
    .concat());
    assert!(printed.contains("error after:  training "), "{printed}");
    let budget = dir.join("budget.data");
    selfplay_run(
        &budget,
        "4",
        "200",
        &["--game", "abraxas", "--abraxas-sheet", "s2"],
    );
    let refused = shove(&[
        "tune",
        "--game",
        "abraxas",
        paths[0],
        budget.to_str().unwrap(),
    ]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("different settings"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

/// `shove match` arguments: greedy vs random at depth 1, games of at most 40 moves.
fn greedy_vs_random_match(games: &str, shard: &str, log: &Path) -> Vec<String> {
    let engine = format!("{SHOVE} --player greedy");
    let other = format!("{SHOVE} --player random");
    let log = log.to_str().unwrap();
    [
        "match",
        &engine,
        &other,
        "--tc",
        "depth=1",
        "--games",
        games,
        "--shard",
        shard,
        "--quiet",
        "--max-moves",
        "40",
        "--log",
        log,
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn match_shards_merge_into_the_unsharded_match() {
    let dir = scratch("merge-match");
    let play = |log: &PathBuf, shard: &str| {
        let mut args = greedy_vs_random_match("10", shard, log);
        args.extend(["--concurrency", "2"].map(String::from));
        ok(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let whole = dir.join("whole.log");
    let whole_result = play(&whole, "1/1");
    let (one, two) = (dir.join("1.log"), dir.join("2.log"));
    play(&one, "1/2");
    play(&two, "2/2");
    let merged = dir.join("merged.log");
    let printed = ok(&[
        "merge",
        one.to_str().unwrap(),
        two.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    // Random players differ run to run, so compare the games' numbers and openings, and
    // the merged result with the result of the merged games.
    let numbers_and_openings = |text: &str| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[0].to_string(), f[6].to_string())
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        numbers_and_openings(&read(&merged)),
        numbers_and_openings(&read(&whole))
    );
    assert!(
        printed.starts_with("Score of shove --player greedy vs shove --player random: "),
        "{printed}"
    );
    assert!(whole_result.contains("Ptnml(0-2): "));
    let games: u64 = printed
        .lines()
        .next()
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert_eq!(games, 10);
}

#[test]
fn a_cut_off_match_resumes_from_its_log() {
    let dir = scratch("resume-match");
    let log = dir.join("match.log");
    let play = |games: &str, shard: &str, resume: bool| {
        let mut args = greedy_vs_random_match(games, shard, &log);
        if resume {
            args.push("--resume".into());
        }
        shove(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let output = play("12", "1/2", false);
    assert!(output.status.success());
    // Cut the log after its first two games, as a stopped machine would leave it (three
    // comment lines: header, settings, engines).
    let full = read(&log);
    let kept: String = full.lines().take(5).map(|l| format!("{l}\n")).collect();
    std::fs::write(&log, &kept).unwrap();

    // Other settings, or another shard's log, are refused and the log is left alone.
    for (games, shard, why) in [
        ("14", "1/2", "other settings: 'games=12' vs 'games=14'"),
        ("12", "2/2", "game 1 is not one of shard 2/2's games"),
    ] {
        let refused = play(games, shard, true);
        assert!(!refused.status.success());
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(stderr.contains(why), "{stderr}");
        assert_eq!(read(&log), kept);
    }

    let output = play("12", "1/2", true);
    assert!(output.status.success());
    let resumed = read(&log);
    assert!(resumed.starts_with(&kept), "{resumed}");
    let mut numbers: Vec<u64> = resumed
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, [1, 2, 5, 6, 9, 10]);
    // The result counts the kept games with the new ones, as `shove merge` does.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let merged = ok(&["merge", log.to_str().unwrap()]);
    assert!(stdout.lines().next().unwrap().ends_with("] 6"), "{stdout}");
    assert_eq!(stdout.lines().next(), merged.lines().next());
}

/// The positions of an openings file (its comment lines left out).
fn opening_lines(path: &Path) -> Vec<String> {
    read(path)
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn openings_are_written_and_a_short_set_still_is_but_fails() {
    let dir = scratch("openings");
    let full = dir.join("full.txt");
    let judge = ["--depth", "2", "--plies", "2..4", "--seed", "3"];
    let args = [
        &["openings", "--count", "5", "--out"][..],
        &[full.to_str().unwrap()],
        &judge,
    ]
    .concat();
    ok(&args);
    let kept = opening_lines(&full);
    assert_eq!(kept.len(), 5);
    for line in &kept {
        akiba::Position::parse(line, Default::default()).expect("an Akiba position");
    }
    // A bound no candidate meets often: the openings found are written, the command fails.
    let short = dir.join("short.txt");
    let args = [
        &["openings", "--count", "50", "--max-score", "0", "--out"][..],
        &[short.to_str().unwrap()],
        &judge,
    ]
    .concat();
    let output = shove(&args);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let kept = opening_lines(&short);
    assert!(!kept.is_empty() && kept.len() < 50, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "only {} balanced openings among 5000 candidates",
            kept.len()
        )),
        "{stderr}"
    );
    assert!(stderr.contains(short.to_str().unwrap()), "{stderr}");
    assert!(read(&short).contains(&format!("# {} of the 50 asked for", kept.len())));
}

/// `--starts FILE --plies 0..0` filters a set: the same judge keeps all of it, in its order;
/// a stricter one keeps a part and says how much, and the command still succeeds.
#[test]
fn openings_filter_a_set_read_with_starts() {
    let dir = scratch("openings-filter");
    let set = dir.join("set.txt");
    let judge = ["--depth", "2", "--max-score", "60"];
    let args = [
        &[
            "openings", "--count", "6", "--plies", "2..4", "--seed", "5", "--out",
        ][..],
        &[set.to_str().unwrap()],
        &judge,
    ]
    .concat();
    ok(&args);
    let original = opening_lines(&set);
    assert_eq!(original.len(), 6);
    let filter = |name: &str, judge: &[&str]| {
        let out = dir.join(name);
        let args = [
            &[
                "openings",
                "--plies",
                "0..0",
                "--starts",
                set.to_str().unwrap(),
            ][..],
            &["--out", out.to_str().unwrap()],
            judge,
        ]
        .concat();
        ok(&args);
        (opening_lines(&out), read(&out))
    };
    let (same, text) = filter("same.txt", &judge);
    assert_eq!(same, original);
    assert!(
        text.contains("# 6 of the 6 start positions kept."),
        "{text}"
    );
    let (strict, text) = filter("strict.txt", &["--depth", "4", "--max-score", "5"]);
    let mut rest = original.iter();
    assert!(
        strict.iter().all(|line| rest.any(|o| o == line)),
        "not a part of the set in its order: {strict:?}"
    );
    assert!(
        text.contains(&format!(
            "# {} of the 6 start positions kept.",
            strict.len()
        )),
        "{text}"
    );
    let output = shove(&[
        "openings",
        "--starts",
        dir.join("none.txt").to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot read --starts"), "{stderr}");
}

/// `--trials`: the set says how its openings were tried; wins both colours cannot have
/// are refused before anything is judged, and no file is written.
#[test]
fn openings_with_trials_say_so_and_impossible_wins_are_refused() {
    let dir = scratch("openings-trials");
    let tried = dir.join("tried.txt");
    let sheet = "s2 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1";
    ok(&[
        "openings",
        "--game",
        "abraxas",
        "--start",
        sheet,
        "--count",
        "2",
        "--depth",
        "2",
        "--max-score",
        "600",
        "--trials",
        "4",
        "--trial-nodes",
        "400",
        "--eval",
        "classical",
        "--out",
        tried.to_str().unwrap(),
    ]);
    assert_eq!(opening_lines(&tried).len(), 2);
    assert!(read(&tried).contains(
        "# Each colour won at least 1 of 4 trial games of the engine against itself from it \
         (400 nodes a move and more)."
    ));
    let refused = dir.join("refused.txt");
    let output = shove(&[
        "openings",
        "--game",
        "abraxas",
        "--count",
        "2",
        "--trials",
        "3",
        "--trial-wins",
        "2",
        "--out",
        refused.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--trial-wins 2 cannot be met by both colours in 3 trial games"),
        "{stderr}"
    );
    assert!(!refused.exists());
}
