//! What a release shows of itself and keeps to: the version (the crate's, from
//! `CARGO_PKG_VERSION`) in `shove --version`, in `id name` and in match logs (`#engines`,
//! which older logs lack and still merge and resume without), and no losses on time at a
//! short clock.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const SHOVE: &str = env!("CARGO_BIN_EXE_shove");
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A fresh directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("release-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

fn shove(args: &[&str]) -> Output {
    Command::new(SHOVE)
        .args(args)
        .env_remove("SHOVE_LOG")
        .output()
        .expect("run shove")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("read a file")
}

#[test]
fn the_version_is_the_crates() {
    let output = shove(&["--version"]);
    assert!(output.status.success());
    assert_eq!(text(&output.stdout), format!("shove {VERSION}\n"));

    // `id name`, also for a built-in player.
    for (args, name) in [
        (vec![], format!("shove {VERSION}")),
        (
            vec!["--player", "greedy"],
            format!("shove {VERSION} player greedy"),
        ),
    ] {
        let mut child = Command::new(SHOVE)
            .args(&args)
            .env_remove("SHOVE_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start shove");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"ugi\nquit\n")
            .unwrap();
        let output = child.wait_with_output().unwrap();
        let stdout = text(&output.stdout);
        assert_eq!(stdout.lines().next(), Some(&*format!("id name {name}")));
    }
}

/// `shove match` of greedy against random, `games` games at depth 1, logged to `log`.
fn greedy_vs_random(log: &Path, games: &str, resume: bool) -> Output {
    let mut args = vec![
        "match".to_string(),
        format!("'{SHOVE}' --player greedy"),
        format!("'{SHOVE}' --player random"),
        "--tc".into(),
        "depth=1".into(),
        "--games".into(),
        games.into(),
        "--quiet".into(),
        "--log".into(),
        log.display().to_string(),
    ];
    if resume {
        args.push("--resume".into());
    }
    shove(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn match_logs_name_the_engines_that_played() {
    let dir = scratch("engines");
    let log = dir.join("new.log");
    assert!(greedy_vs_random(&log, "4", false).status.success());
    let full = read(&log);
    let lines: Vec<&str> = full.lines().collect();
    assert!(lines[0].starts_with("# number\t"), "{full}");
    assert!(lines[1].starts_with("#settings\t"), "{full}");
    let engines = format!(
        "#engines\tengine1=shove {VERSION} player greedy\tengine2=shove {VERSION} player random"
    );
    assert_eq!(lines[2], engines);
    assert_eq!(lines.len(), 3 + 4, "{full}");

    // A log of an older shove (no #engines line) cut off after one game still resumes; the
    // games appended to it are those of the same match.
    let old = dir.join("old.log");
    let cut: String = [lines[0], lines[1], lines[3]]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&old, &cut).unwrap();
    let output = greedy_vs_random(&old, "4", true);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let resumed = read(&old);
    assert!(resumed.starts_with(&cut), "{resumed}");
    assert_eq!(resumed.lines().filter(|l| !l.starts_with('#')).count(), 4);

    // Old and new logs of one match merge; the merged log names the engines.
    let first_half = |path: &Path, keep_engines: bool| {
        let kept: String = lines
            .iter()
            .enumerate()
            .filter(|(i, l)| {
                (*i < 2 || (*i == 2 && keep_engines))
                    || l.split('\t').next().is_some_and(|n| n == "1" || n == "2")
            })
            .map(|(_, l)| format!("{l}\n"))
            .collect();
        std::fs::write(path, kept).unwrap();
    };
    let second_half: String = lines
        .iter()
        .enumerate()
        .filter(|(i, l)| *i < 3 || l.split('\t').next().is_some_and(|n| n == "3" || n == "4"))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let (a, b, merged) = (dir.join("a.log"), dir.join("b.log"), dir.join("merged.log"));
    first_half(&a, false);
    std::fs::write(&b, &second_half).unwrap();
    let output = shove(&[
        "merge",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(read(&merged).lines().nth(2), Some(&*engines));
    assert_eq!(read(&merged).lines().count(), 3 + 4);

    // Games of another version are not mixed in: neither merged nor resumed.
    let other = engines.replace(&format!("shove {VERSION} player random"), "other 9.9");
    first_half(&a, true);
    std::fs::write(&a, read(&a).replace(&engines, &other)).unwrap();
    let output = shove(&["merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("were played by different engines"),
        "{stderr}"
    );
    assert!(
        stderr.contains("'engine2=other 9.9' vs 'engine2=shove"),
        "{stderr}"
    );
    let before = read(&a);
    let output = greedy_vs_random(&a, "4", true);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("it was played by other engines"),
        "{stderr}"
    );
    assert_eq!(read(&a), before);
}

/// The time manager keeps twice `Move Overhead` (20 ms) on the clock, so that a game at
/// 50 ms + 1 ms survives the delays of a busy machine. A few self-play games in each game,
/// with 25 ms of slack for the test machine's own load: at load 9–10 on two cores, 9 of 150
/// such games were lost on time with no slack, none of 150 with it.
#[test]
fn a_short_clock_loses_nothing_on_time() {
    for game in ["akiba", "offboard", "abraxas"] {
        let output = shove(&[
            "match",
            "--game",
            game,
            SHOVE,
            SHOVE,
            "--tc",
            "clock=0.05+0.001",
            "--margin",
            "25",
            "--games",
            "4",
            "--max-moves",
            "150",
            "--quiet",
        ]);
        let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
        assert!(output.status.success(), "{stdout}\n{stderr}");
        assert!(
            stdout.lines().next().unwrap_or("").ends_with("] 4"),
            "{stdout}"
        );
        assert!(
            !stdout.contains("time loss") && !stderr.contains("time loss"),
            "{game}:\n{stdout}\n{stderr}"
        );
    }
}
