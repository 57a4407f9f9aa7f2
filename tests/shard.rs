//! Sharding through GNU parallel, as docs/pipeline.md runs it over machines, here on this
//! one: two shards of a tiny self-play run and of a tiny match, started by `parallel`,
//! merge to the same games as the unsharded run. Skipped with a message when `parallel` is
//! not installed, unless CI or SHOVE_REQUIRE_PARALLEL is set (then it fails).

use crate::binary;

use binary::{SHOVE, scratch};
use std::path::Path;
use std::process::Command;

fn parallel_available() -> bool {
    let found = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        let required = std::env::var_os("CI").is_some()
            || std::env::var_os("SHOVE_REQUIRE_PARALLEL").is_some();
        assert!(
            !required,
            "GNU parallel is required (CI or SHOVE_REQUIRE_PARALLEL is set)"
        );
        eprintln!("skipped: GNU parallel is not installed (Debian package `parallel`)");
    }
    found
}

/// Runs a shell command line (for `parallel`'s `{}` templates); it must succeed.
fn sh(line: &str) {
    let output = Command::new("sh")
        .args(["-c", line])
        .env_remove("SHOVE_LOG")
        .output()
        .expect("run sh");
    assert!(
        output.status.success(),
        "{line}\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("read")
}

#[test]
fn selfplay_shards_through_parallel_merge_to_the_unsharded_run() {
    if !parallel_available() {
        return;
    }
    let dir = scratch("selfplay");
    let d = dir.display();
    let run = format!("{SHOVE} selfplay --games 40 --nodes 300 --seed 4 --max-moves 60 --quiet");
    sh(&format!("{run} --out {d}/whole.data"));
    sh(&format!(
        "parallel --halt now,fail=1 '{run} --shard {{}}/2 --out {d}/shard{{}}.data' ::: 1 2"
    ));
    sh(&format!(
        "{SHOVE} merge {d}/shard1.data {d}/shard2.data --out {d}/merged.data"
    ));
    // The merged file is in game order; the whole run's games may finish in any order.
    let whole = read(&dir.join("whole.data"));
    let mut expected: Vec<&str> = whole.lines().skip(1).collect();
    expected.sort_by_key(|l| l.rsplit('\t').next().and_then(|n| n.parse::<u32>().ok()));
    let merged = read(&dir.join("merged.data"));
    let got: Vec<&str> = merged.lines().collect();
    assert_eq!(got[0], whole.lines().next().unwrap_or(""));
    assert_eq!(got[1..], expected[..]);
}

#[test]
fn match_shards_through_parallel_merge_to_the_unsharded_match() {
    if !parallel_available() {
        return;
    }
    let dir = scratch("match");
    let d = dir.display();
    // Deterministic engines (fixed depth), so the games themselves must agree.
    let run = format!(
        "{SHOVE} match '{SHOVE}' '{SHOVE} --player material-ab:1' --tc depth=2 --games 12 \
         --max-moves 60 --concurrency 1 --quiet"
    );
    sh(&format!("{run} --log {d}/whole.log > {d}/whole.txt"));
    sh(&format!(
        "parallel --halt now,fail=1 \"{run} --shard {{}}/2 --log {d}/shard{{}}.log\" ::: 1 2"
    ));
    sh(&format!(
        "{SHOVE} merge {d}/shard1.log {d}/shard2.log --out {d}/merged.log > {d}/merged.txt"
    ));
    assert_eq!(read(&dir.join("merged.log")), {
        // The unsharded log in game order.
        let whole = read(&dir.join("whole.log"));
        let mut lines: Vec<&str> = whole.lines().collect();
        let (head, games) = lines.split_at_mut(3);
        games.sort_by_key(|l| l.split('\t').next().and_then(|n| n.parse::<u32>().ok()));
        let mut text = head.join("\n");
        for game in games {
            text.push('\n');
            text.push_str(game);
        }
        text + "\n"
    });
    // The same games give the same result lines (score, Elo, pentanomial counts).
    assert_eq!(read(&dir.join("merged.txt")), read(&dir.join("whole.txt")));
}

/// `docs/scripts/selfplay.sh` cycles Abraxas' shards over its six sheets, shard k on sheet
/// s(k mod 6 + 1): six shards play the six sheets, and a shard count that is not a multiple
/// of six (whose last shards would name a shard past the sheet's run) is refused before
/// anything is played.
#[test]
fn the_selfplay_script_plays_each_abraxas_sheet_and_refuses_an_uneven_count() {
    let dir = scratch("selfplay-script");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scripts/selfplay.sh");
    let run = |shards: &str, out: &Path| {
        Command::new("bash")
            .arg(&script)
            .env("S", SHOVE)
            .env("PLAY", "abraxas")
            .env("SHARDS", shards)
            .env("GAMES", "1")
            .env("NODES", "200")
            .env("JOBS", "2")
            .env("OUT", out)
            .env_remove("SHOVE_LOG")
            .output()
            .expect("run the script")
    };
    let refused = run("400", &dir.join("uneven"));
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("SHARDS=400") && said.contains("multiple of 6"),
        "{said}"
    );
    assert!(!dir.join("uneven").exists(), "nothing made");

    let out = dir.join("six");
    let played = run("6", &out);
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    for k in 0..6 {
        let shard = read(&out.join(format!("abraxas-{k}.data")));
        let header = shard.lines().next().unwrap_or_default();
        assert!(
            header.contains(&format!("AbraxasSheet=s{}", k + 1)),
            "shard {k}: {header}"
        );
        assert!(shard.lines().count() > 1, "shard {k} has positions");
    }
}
