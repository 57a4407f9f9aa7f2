//! Perft regression tests: the table in `positions/akiba.perft` (format in its header) checked
//! through the library, and the `shove perft` command line checked as a user runs it.

use shove::akiba::{Move, Position, RepeatRule, Rules};
use shove::perft::{divide, perft};
use std::collections::HashSet;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TABLE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/akiba.perft");
const START: &str = "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1";

/// Depths the always-run test checks; the ignored test checks every depth in the table.
const QUICK_DEPTH: usize = 4;

// ---------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------

/// One table line: a position, the rules it is played under, and perft(1..=n).
#[derive(Debug)]
struct Entry {
    /// 1-based line number in the table, for messages.
    line: usize,
    fen: String,
    rules: Rules,
    /// `counts[d - 1]` is perft(d).
    counts: Vec<u64>,
}

impl Entry {
    fn position(&self) -> Position {
        Position::parse(&self.fen, self.rules).expect("checked when the table was read")
    }

    /// The global `shove` flags that select this entry's rules.
    fn cli_flags(&self) -> Vec<&'static str> {
        let mut flags = Vec::new();
        if !self.rules.extra_move {
            flags.push("--no-extra-move");
        }
        if self.rules.repeat == RepeatRule::Ko {
            flags.extend(["--repeat-rule", "ko"]);
        }
        flags
    }

    fn describe(&self) -> String {
        format!(
            "{TABLE_PATH}:{} `{}` (rules {:?})",
            self.line, self.fen, self.rules
        )
    }
}

fn parse_rules(tag: &str) -> Result<Rules, String> {
    let mut rules = Rules::default();
    if tag.is_empty() {
        return Err("empty rules= tag".into());
    }
    let mut seen = HashSet::new();
    for name in tag.split(',') {
        if !seen.insert(name) {
            return Err(format!("rule '{name}' given twice"));
        }
        match name {
            "noextra" => rules.extra_move = false,
            "ko" => rules.repeat = RepeatRule::Ko,
            _ => {
                return Err(format!(
                    "unknown rule '{name}' (expected 'noextra' or 'ko')"
                ));
            }
        }
    }
    Ok(rules)
}

/// Parses one non-comment line; every deviation from the format is an error.
fn parse_entry(line: usize, text: &str) -> Result<Entry, String> {
    let mut fields = text.split(';').map(str::trim);
    let fen = fields.next().unwrap_or_default();
    if fen.is_empty() {
        return Err("missing position string before the first ';'".into());
    }
    let mut rules = None;
    let mut counts = Vec::new();
    for field in fields {
        if let Some(tag) = field.strip_prefix("rules=") {
            if rules.is_some() {
                return Err("more than one rules= tag".into());
            }
            rules = Some(parse_rules(tag)?);
            continue;
        }
        let parts: Vec<&str> = field.split_whitespace().collect();
        let [depth, count] = parts[..] else {
            return Err(format!(
                "field '{field}' is neither 'D<depth> <count>' nor 'rules=...'"
            ));
        };
        let depth: usize = depth
            .strip_prefix('D')
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| format!("'{depth}' is not a depth like D3"))?;
        if depth != counts.len() + 1 {
            return Err(format!(
                "D{depth} out of order: expected D{} (depths start at D1 and rise by one)",
                counts.len() + 1
            ));
        }
        if count.starts_with('+') {
            return Err(format!(
                "count '{count}' for D{depth} is not a plain number"
            ));
        }
        let count: u64 = count
            .parse()
            .map_err(|e| format!("count '{count}' for D{depth}: {e}"))?;
        counts.push(count);
    }
    if counts.is_empty() {
        return Err("no counts: expected at least '; D1 <n>'".into());
    }
    let rules = rules.unwrap_or_default();
    Position::parse(fen, rules).map_err(|e| format!("bad position string '{fen}': {e}"))?;
    Ok(Entry {
        line,
        fen: fen.to_string(),
        rules,
        counts,
    })
}

/// Parses the whole table, failing on the first malformed line.
fn parse_table(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let entry = parse_entry(index + 1, line).map_err(|e| format!("line {}: {e}", index + 1))?;
        entries.push(entry);
    }
    if entries.is_empty() {
        return Err("the table has no entries".into());
    }
    Ok(entries)
}

fn table() -> Vec<Entry> {
    let text = std::fs::read_to_string(TABLE_PATH)
        .unwrap_or_else(|e| panic!("cannot read {TABLE_PATH}: {e}"));
    parse_table(&text).unwrap_or_else(|e| panic!("{TABLE_PATH}: {e}"))
}

/// Checks perft(1..=max_depth) of every entry; returns the number of counts checked.
fn check_table(max_depth: usize) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for entry in table() {
        let position = entry.position();
        for (depth, &expected) in entry.counts.iter().enumerate().take(max_depth) {
            let depth = depth + 1;
            let got = perft(&position, depth as u32);
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "{}: perft({depth}) = {got}, table says {expected}",
                    entry.describe()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    checked
}

#[test]
fn table_parser_accepts_the_format() {
    let text = format!(
        "# comment\n\n{START} ; D1 8 ; D2 64\n  {START};D1 8;rules=noextra,ko\n{START} ; rules=ko ; D1 8\n"
    );
    let entries = parse_table(&text).expect("valid table");
    assert_eq!(entries.len(), 3);
    assert_eq!(entries[0].line, 3);
    assert_eq!(entries[0].fen, START);
    assert_eq!(entries[0].counts, [8, 64]);
    assert_eq!(entries[0].rules, Rules::default());
    assert_eq!(
        entries[1].rules,
        Rules {
            extra_move: false,
            repeat: RepeatRule::Ko
        }
    );
    assert_eq!(entries[2].rules.repeat, RepeatRule::Ko);
    assert!(entries[2].rules.extra_move);
}

#[test]
fn table_parser_rejects_malformed_lines() {
    let bad = [
        // No counts at all, or a position with nothing after it.
        START.to_string(),
        format!("{START} ;"),
        format!("{START} ; "),
        // Depths missing, skipped, repeated or out of order.
        format!("{START} ; D2 64"),
        format!("{START} ; D1 8 ; D3 640"),
        format!("{START} ; D1 8 ; D1 8"),
        format!("{START} ; D2 64 ; D1 8"),
        // Malformed depth or count fields.
        format!("{START} ; D1"),
        format!("{START} ; D1 8 9"),
        format!("{START} ; 8"),
        format!("{START} ; d1 8"),
        format!("{START} ; D0 1"),
        format!("{START} ; Dx 8"),
        format!("{START} ; D1 -8"),
        format!("{START} ; D1 +8"),
        format!("{START} ; D1 eight"),
        format!("{START} ; D1 8 ; D2 64x"),
        format!("{START} ; D1 8 ;; D2 64"),
        // Bad rules tags.
        format!("{START} ; D1 8 ; rules="),
        format!("{START} ; D1 8 ; rules=fast"),
        format!("{START} ; D1 8 ; rules=ko,ko"),
        format!("{START} ; D1 8 ; rules=ko ; rules=noextra"),
        format!("{START} ; D1 8 ; rules=ko noextra"),
        // Missing or invalid position string.
        "; D1 8".to_string(),
        "WW3BB/WW1R1BB w 0 0 - - 1 ; D1 8".to_string(),
        START.replace(" w ", " x ") + " ; D1 8",
        // A table with no entries.
        "# only a comment".to_string(),
        String::new(),
    ];
    for text in bad {
        let result = parse_table(&text);
        assert!(
            result.is_err(),
            "malformed table accepted: {text:?} -> {result:?}"
        );
    }
    // Errors carry the line number.
    let err = parse_table(&format!("# header\n{START} ; D1 8\n{START} ; D1 x\n")).unwrap_err();
    assert!(err.starts_with("line 3:"), "{err}");
}

#[test]
fn table_has_the_promised_content() {
    let entries = table();
    assert!(entries.len() >= 13, "only {} table entries", entries.len());
    let start = &entries[0];
    assert_eq!(start.fen, START, "the first entry is the start position");
    assert_eq!(start.rules, Rules::default());
    assert_eq!(
        &start.counts[..3],
        [8, 64, 640],
        "spec: perft 1..3 from the start"
    );
    for entry in &entries {
        assert!(
            entry.counts.len() >= 5,
            "{}: counts only to depth {}",
            entry.describe(),
            entry.counts.len()
        );
        // Lines are canonical position strings, so they say exactly what the engine reads.
        assert_eq!(
            entry.position().to_string(),
            entry.fen,
            "{}",
            entry.describe()
        );
    }
    // The table covers the states it claims to: an extra move, a push-back ban, a side that
    // cannot move, both rule variants.
    let parsed: Vec<Position> = entries.iter().map(Entry::position).collect();
    assert!(parsed.iter().any(Position::in_extra_move));
    assert!(parsed.iter().any(|p| p.banned_move().is_some()));
    assert!(entries.iter().any(|e| e.counts.iter().all(|&n| n == 0)));
    assert!(entries.iter().any(|e| !e.rules.extra_move));
    assert!(entries.iter().any(|e| e.rules.repeat == RepeatRule::Ko));
}

#[test]
fn perft_table_quick() {
    let checked = check_table(QUICK_DEPTH);
    assert!(checked >= 13 * QUICK_DEPTH, "only {checked} counts checked");
}

#[test]
#[ignore = "every depth in the table; run with `cargo test --release -- --ignored`"]
fn perft_table_full() {
    let checked = check_table(usize::MAX);
    assert!(checked >= 13 * 5, "only {checked} counts checked");
}

#[test]
fn divide_sums_to_perft() {
    for entry in table() {
        let position = entry.position();
        let depth = entry.counts.len().min(3);
        let split = divide(&position, depth as u32);
        let total: u64 = split.iter().map(|&(_, n)| n).sum();
        assert_eq!(total, entry.counts[depth - 1], "{}", entry.describe());
        assert_eq!(split.len() as u64, entry.counts[0], "{}", entry.describe());
    }
}

// ---------------------------------------------------------------------------------------
// The `shove perft` command line
// ---------------------------------------------------------------------------------------

struct Run {
    success: bool,
    stdout: String,
    stderr: String,
}

/// Runs the built `shove` binary, failing the test instead of hanging if it does not end.
fn shove(args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shove"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn shove");
    // The outputs here are a few lines, far below a pipe's buffer, so polling cannot block.
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for shove") {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().ok();
            child.wait().ok();
            panic!("shove {args:?} still running after 60 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    Run {
        success: status.success(),
        stdout,
        stderr,
    }
}

/// The count on the last line, which must read `nodes <N>`.
fn nodes_line(run: &Run, args: &[&str]) -> u64 {
    assert!(run.success, "shove {args:?} failed: {}", run.stderr);
    let last = run.stdout.lines().last().unwrap_or_default();
    last.strip_prefix("nodes ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("shove {args:?}: last line {last:?} is not 'nodes <N>'"))
}

#[test]
fn cli_perft_prints_nodes_last() {
    let args = ["perft", "3"];
    let run = shove(&args);
    assert!(run.success, "{}", run.stderr);
    assert_eq!(
        run.stdout.lines().last(),
        Some("nodes 640"),
        "{}",
        run.stdout
    );
    assert_eq!(nodes_line(&shove(&["perft", "0"]), &["perft", "0"]), 1);
}

#[test]
fn cli_divide_lines_sum_to_total() {
    for (fen, depth, moves) in [
        (START, "3", 8),
        // In an extra move: the `pass` line must be there too.
        ("5B1/6R/3BBWR/2WRRW1/1W3R1/4B2/W2BB2 w 6 2 x - 58", "2", 12),
    ] {
        let args = ["perft", depth, "--divide", "--fen", fen];
        let run = shove(&args);
        let total = nodes_line(&run, &args);
        let lines: Vec<&str> = run.stdout.lines().collect();
        let mut sum = 0;
        let mut seen = HashSet::new();
        for line in &lines[..lines.len() - 1] {
            let (mv, count) = line
                .split_once(": ")
                .unwrap_or_else(|| panic!("divide line {line:?} is not '<move>: <count>'"));
            let parsed: Move = mv
                .parse()
                .unwrap_or_else(|e| panic!("divide line {line:?}: bad move: {e}"));
            assert_eq!(parsed.to_string(), mv, "moves are printed in lower case");
            assert!(seen.insert(parsed), "move {mv} listed twice");
            sum += count
                .parse::<u64>()
                .unwrap_or_else(|e| panic!("divide line {line:?}: bad count: {e}"));
        }
        assert_eq!(seen.len(), moves, "{}", run.stdout);
        assert_eq!(sum, total, "divide lines do not add up:\n{}", run.stdout);
        let plain = shove(&["perft", depth, "--fen", fen]);
        assert_eq!(nodes_line(&plain, &args), total);
    }
    assert!(
        shove(&[
            "perft",
            "2",
            "--divide",
            "--fen",
            "5B1/6R/3BBWR/2WRRW1/1W3R1/4B2/W2BB2 w 6 2 x - 58"
        ])
        .stdout
        .lines()
        .any(|l| l.starts_with("pass: "))
    );
}

#[test]
fn cli_rule_flags_match_table() {
    for entry in table() {
        let depth = entry.counts.len().min(3);
        let depth_text = depth.to_string();
        let mut args = entry.cli_flags();
        args.extend(["perft", &depth_text, "--fen", &entry.fen]);
        let nodes = nodes_line(&shove(&args), &args);
        assert_eq!(nodes, entry.counts[depth - 1], "{}", entry.describe());
    }
}

#[test]
fn cli_bad_fen_names_the_field() {
    let cases = [
        (
            "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW w 0 0 - - 1",
            "board",
        ),
        (
            "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB4WW w 0 0 - - 1",
            "board",
        ),
        (
            "WW3BB/WW1R1BB/2RRX2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1",
            "board",
        ),
        (
            "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW q 0 0 - - 1",
            "side",
        ),
        (
            "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 9 0 - - 1",
            "white reds",
        ),
        (
            "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 x - - 1",
            "black reds",
        ),
        (
            "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 y - 1",
            "extra",
        ),
        (
            "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - a1a2 1",
            "banned",
        ),
        (
            "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - zz 1",
            "banned",
        ),
        (
            "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 0",
            "fullmove",
        ),
        (
            "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - -",
            "fields",
        ),
    ];
    for (fen, field) in cases {
        let run = shove(&["perft", "1", "--fen", fen]);
        assert!(
            !run.success,
            "bad position {fen:?} accepted:\n{}",
            run.stdout
        );
        assert!(
            run.stderr.contains(field),
            "error for {fen:?} does not name the {field} field: {:?}",
            run.stderr
        );
        assert!(
            !run.stdout.contains("nodes"),
            "bad position {fen:?} still counted: {}",
            run.stdout
        );
    }
}

#[test]
fn cli_refuses_absurd_depth() {
    for depth in ["1000", "100"] {
        let run = shove(&["perft", depth]);
        assert!(!run.success, "perft {depth} accepted:\n{}", run.stdout);
        assert!(
            run.stderr.contains("depth"),
            "perft {depth}: no message about the depth: {:?}",
            run.stderr
        );
        assert!(!run.stdout.contains("nodes"), "{}", run.stdout);
    }
    for bad in ["-1", "three", "99999999999"] {
        let run = shove(&["perft", bad]);
        assert!(!run.success, "perft {bad} accepted");
        assert!(!run.stderr.is_empty(), "perft {bad}: no message");
    }
}

/// `--game offboard` reaches Offboard's generator from the command line, with its rule flag;
/// flags of another game are refused, naming the option.
#[test]
fn cli_game_and_rule_flags() {
    let args = ["perft", "2", "--game", "offboard"];
    assert_eq!(nodes_line(&shove(&args), &args), 2268);
    let args = [
        "perft",
        "1",
        "--game",
        "offboard",
        "--offboard-sectors",
        "3,3,3,3,3,3,3,3,3,3,3,3",
    ];
    assert_eq!(nodes_line(&shove(&args), &args), 48);
    let run = shove(&["perft", "1", "--game", "offboard", "--no-extra-move"]);
    assert!(
        !run.success && run.stderr.contains("ExtraMove"),
        "{}",
        run.stderr
    );
    let run = shove(&[
        "perft",
        "1",
        "--game",
        "offboard",
        "--offboard-sectors",
        "1,2",
    ]);
    assert!(
        !run.success && run.stderr.contains("OffboardSectors"),
        "{}",
        run.stderr
    );
    let run = shove(&["perft", "1", "--game", "chess"]);
    assert!(
        !run.success && run.stderr.contains("unknown game 'chess'"),
        "{}",
        run.stderr
    );
}
