//! The command line refuses bad input with a message naming the problem and exit code 1,
//! and writes nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shove-train-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs the tool; returns its exit code and standard error.
fn train(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_shove-train"))
        .args(args)
        .output()
        .expect("the tool runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

const HEADER: &str = "#shove-data 1\tgame=GAME\trules=-\tbudget=nodes=300\topenings=plies=4-10;depth=6;max_score=60\tmax_moves=400\trepetition_draw=true";
const AKIBA_LINE: &str = "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1\t12\t1\t1\t0";

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).expect("write test data");
}

fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}

#[test]
fn a_file_of_another_game_is_refused() {
    let dir = temp_dir("game");
    let offboard = dir.join("offboard.data");
    write(
        &offboard,
        &format!("{}\n", HEADER.replace("GAME", "offboard")),
    );
    let out = dir.join("net.nnue");
    let (code, stderr) = train(&["--game", "akiba", "--out", s(&out), s(&offboard)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("offboard.data holds offboard positions, not akiba"),
        "{stderr}"
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_missing_file_is_named() {
    let dir = temp_dir("missing");
    let missing = dir.join("no-such.data");
    let out = dir.join("net.nnue");
    let (code, stderr) = train(&["--game", "akiba", "--out", s(&out), s(&missing)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("cannot open") && stderr.contains("no-such.data"),
        "{stderr}"
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_bad_line_is_named_by_file_and_line() {
    let dir = temp_dir("line");
    let data = dir.join("akiba.data");
    let header = HEADER.replace("GAME", "akiba");
    write(
        &data,
        &format!("{header}\n{AKIBA_LINE}\n{AKIBA_LINE}\tjunk\n"),
    );
    let out = dir.join("net.nnue");
    let (code, stderr) = train(&["--game", "akiba", "--out", s(&out), s(&data)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("akiba.data: line 3: 6 fields, expected 5"),
        "{stderr}"
    );
    // An unreadable position is named too.
    write(&data, &format!("{header}\nnot-a-position w\t12\t1\t1\t0\n"));
    let (code, stderr) = train(&["--game", "akiba", "--out", s(&out), s(&data)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("position 'not-a-position w'"), "{stderr}");
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn files_made_differently_or_an_unknown_game_are_refused() {
    let dir = temp_dir("settings");
    let (a, b) = (dir.join("a.data"), dir.join("b.data"));
    let header = HEADER.replace("GAME", "akiba");
    write(&a, &format!("{header}\n{AKIBA_LINE}\n"));
    write(
        &b,
        &format!(
            "{}\n{AKIBA_LINE}\n",
            header.replace("nodes=300", "nodes=1000")
        ),
    );
    let out = dir.join("net.nnue");
    let (code, stderr) = train(&["--game", "akiba", "--out", s(&out), s(&a), s(&b)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("were made with different settings"),
        "{stderr}"
    );
    let (code, stderr) = train(&["--game", "chess", "--out", s(&out), s(&a)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("chess"), "{stderr}");
    let (code, stderr) = train(&["--game", "akiba", "--out", s(&out), "--hidden", "0", s(&a)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("--hidden 0"), "{stderr}");
    let (code, stderr) = train(&["--game", "akiba", "--out", s(&out), "--k", "0", s(&a)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("--k 0"), "{stderr}");
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).expect("clean up");
}
