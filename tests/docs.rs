//! The documentation's examples, run against the built binary, so that they stay true.
//!
//! **Command lines** (README.md and docs/rules/engine/*.md). In a fenced block whose info string
//! is `sh`, every line that starts with `shove ` or `$S ` is a command; in a `text` block,
//! every line that starts with `$ shove ` is one, and the lines after it up to the next
//! blank line or `$ ` line are its expected output (see [`output_matches`]). Other lines
//! (`cargo …`, `S=…`, comments) are not run. `$S` and a leading `shove` stand for the
//! built binary. A trailing comment decides the expectation:
//! - none, or any other comment: the command must exit with status 0;
//! - `# fails…`: it must exit with a failing status and a message on stderr;
//! - `# not run by tests…`: it is skipped (long matches, the GUI).
//!
//! Commands of one page run in order in one scratch directory, so a later command can read
//! a file an earlier one wrote (`match --log games.log`, then `replay games.log`).
//!
//! **Protocol transcripts** (protocol.md): every fenced block with the info string
//! `transcript` is replayed through a fresh `shove` (no arguments). `> ` lines are sent,
//! `< ` lines must be received, in order, and a line `…` lets any number of received
//! lines pass until the next `< ` line matches (for searches whose depth depends on time,
//! or output that interleaves with a running search). The last `> ` line must end the
//! engine (`quit`), with status 0 and nothing more printed.
//!
//! **The cutegames settings files** (docs/cutegames/*.json): their engines' `parameters`
//! and shared `options` must be accepted by shove.
//!
//! Lines are compared word by word (runs of spaces do not matter) with the numbers after
//! `nps` and `time` masked, as they depend on the machine. Node counts are not masked:
//! examples use depth-limited searches, whose counts are deterministic.

use crate::binary;
use crate::src_files;

use binary::{SHOVE, scratch};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A fenced code block: its info string, and its lines with their 1-based line numbers.
struct Block {
    info: String,
    lines: Vec<(usize, String)>,
}

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path))
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            match current.take() {
                Some(block) => out.push(block),
                None => {
                    current = Some(Block {
                        info: info.trim().to_string(),
                        lines: Vec::new(),
                    })
                }
            }
        } else if let Some(block) = &mut current {
            block.lines.push((i + 1, line.to_string()));
        }
    }
    assert!(current.is_none(), "unterminated code block");
    out
}

/// A line's words, with the value after `nps` and `time` replaced by `N`.
fn masked(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .iter()
        .enumerate()
        .map(|(i, word)| {
            if i > 0 && matches!(words[i - 1], "nps" | "time") && word.parse::<u64>().is_ok() {
                "N".to_string()
            } else {
                word.to_string()
            }
        })
        .collect()
}

fn same(expected: &str, actual: &str) -> bool {
    masked(expected) == masked(actual)
}

fn is_skip(line: &str) -> bool {
    matches!(line.trim(), "…" | "..." | "< …")
}

// ---------------------------------------------------------------------------------------
// Command lines

/// What a documented command line must do.
#[derive(Debug, PartialEq)]
enum Expect {
    Success,
    Failure,
    Skip,
}

/// One documented command: where it is, its words, its expectation and expected output.
struct Example {
    place: String,
    args: Vec<String>,
    expect: Expect,
    output: Vec<String>,
}

/// Splits a command line as a shell would for the forms the docs use: words, "double"
/// and 'single' quotes, and a trailing `# comment` outside quotes (returned apart).
fn split(line: &str) -> (Vec<String>, String) {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, '#') if word.is_none() => {
                return (words, chars.collect::<String>().trim().to_string());
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(quote.is_none(), "unbalanced quote in `{line}`");
    words.extend(word);
    (words, String::new())
}

fn examples(path: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    for block in blocks(&read(path)) {
        let (prefix, with_output) = match block.info.as_str() {
            "sh" => (None, false),
            "text" => (Some("$ "), true),
            _ => continue,
        };
        let mut collecting = false;
        for (number, line) in &block.lines {
            let command = match prefix {
                Some(p) => line.strip_prefix(p),
                None => Some(line.as_str()),
            }
            .filter(|c| c.starts_with("shove ") || c.starts_with("$S "));
            let Some(command) = command else {
                if collecting && !line.trim().is_empty() && !line.starts_with("$ ") {
                    out.last_mut()
                        .expect("collecting")
                        .output
                        .push(line.clone());
                } else {
                    collecting = false;
                }
                continue;
            };
            let (mut args, comment) = split(&command.replace("$S", SHOVE));
            args.remove(0);
            let expect = if comment.starts_with("not run by tests") {
                Expect::Skip
            } else if comment.starts_with("fails") {
                Expect::Failure
            } else {
                Expect::Success
            };
            out.push(Example {
                place: format!("{path}:{number}: {command}"),
                args,
                expect,
                output: Vec::new(),
            });
            collecting = with_output;
        }
    }
    out
}

/// `expected` lines appear in `actual` in order, a skip line (`...` or `…`) standing for
/// any number of lines; without a skip at the end, the output ends there too.
fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    let Some((first, rest)) = expected.split_first() else {
        return actual.is_empty();
    };
    if is_skip(first) {
        return (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]));
    }
    match actual.split_first() {
        Some((line, more)) => same(first, line) && output_matches(rest, more),
        None => false,
    }
}

/// Runs every documented command of `path`; returns how many ran.
fn run_examples(path: &str) -> usize {
    let dir = scratch(&path.replace('/', "-"));
    let mut ran = 0;
    for example in examples(path) {
        if example.expect == Expect::Skip {
            continue;
        }
        let output = Command::new(SHOVE)
            .args(&example.args)
            .current_dir(&dir)
            .env_remove("SHOVE_LOG")
            .stdin(Stdio::null())
            .output()
            .expect("run shove");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let place = &example.place;
        match example.expect {
            Expect::Success => assert!(
                output.status.success(),
                "{place}\nfailed: {stderr}\nstdout:\n{stdout}"
            ),
            Expect::Failure => assert!(
                !output.status.success() && !stderr.trim().is_empty(),
                "{place}\nis documented to fail, but it succeeded:\n{stdout}"
            ),
            Expect::Skip => unreachable!(),
        }
        if !example.output.is_empty() {
            let lines: Vec<&str> = stdout.lines().collect();
            assert!(
                output_matches(&example.output, &lines),
                "{place}\ndocumented output:\n{}\nactual output:\n{stdout}",
                example.output.join("\n")
            );
        }
        ran += 1;
    }
    ran
}

#[test]
fn splitting_command_lines() {
    assert_eq!(
        split(r#"show --fen "7/7 w 0" 'a b'  # fails: why"#),
        (
            vec![
                "show".into(),
                "--fen".into(),
                "7/7 w 0".into(),
                "a b".into()
            ],
            "fails: why".into()
        )
    );
    assert_eq!(split("perft 1 --divide").0.len(), 3);
}

#[test]
fn output_matching_masks_timing_and_skips() {
    let expected = ["...".to_string(), "depth 2  nps 5 time 3 ms".to_string()];
    assert!(output_matches(
        &expected,
        &["x", "y", "depth 2 nps 99  time 1 ms"]
    ));
    assert!(!output_matches(&expected, &["depth 3 nps 5 time 3 ms"]));
    assert!(!output_matches(
        &expected,
        &["depth 2 nps 5 time 3 ms", "more"]
    ));
    assert!(!output_matches(&["nodes 640".to_string()], &["nodes 641"]));
}

#[test]
fn readme_command_lines_run() {
    let ran = run_examples("README.md");
    assert!(ran >= 8, "only {ran} README commands ran");
}

#[test]
fn engine_rules_pages_command_lines_run() {
    for page in ["akiba", "offboard", "abraxas"] {
        let ran = run_examples(&format!("docs/rules/engine/{page}.md"));
        assert!(
            ran >= 4,
            "only {ran} commands ran in docs/rules/engine/{page}.md"
        );
    }
}

/// The players' rule books (docs/rules/*.md and their translations, the GUI's Rules page)
/// speak to players: their code blocks are board diagrams only (drawn by the page; the
/// browser test tests/gui_rules.rs sees each drawn), and the developers' matters — command
/// lines, position strings, the protocol, perft, the engine's decisions — are on the pages
/// of docs/rules/engine/.
#[test]
fn players_rules_pages_have_no_developer_matters() {
    const DEVELOPERS: [&str; 12] = [
        "perft",
        "protocol",
        "protokoll",
        "protocole",
        "setoption",
        "--",
        "position string",
        "engine option",
        "tests/",
        "src/",
        "**decision",
        "**reconstruction",
    ];
    for language in ["", "de/", "fr/"] {
        for page in ["akiba", "offboard", "abraxas"] {
            let path = format!("docs/rules/{language}{page}.md");
            let text = read(&path);
            for block in blocks(&text) {
                assert_eq!(
                    block.info, "board",
                    "{path}: a code block that is no diagram"
                );
            }
            let lower = text.to_lowercase();
            for word in DEVELOPERS {
                assert!(!lower.contains(word), "{path} speaks of `{word}`");
            }
            assert!(
                !text.contains("](../") && !text.contains("engine/"),
                "{path} links outside the players' pages"
            );
        }
    }
}

/// The German and French rule books (docs/rules/de/, docs/rules/fr/, shown by the GUI's
/// Rules page) are translations of the English ones: the same code blocks, byte for byte
/// (diagrams, commands and their output, already run above), the same sections and the same
/// tables.
#[test]
fn translated_rules_pages_keep_the_code_sections_and_tables() {
    let code = |text: &str| -> Vec<(String, Vec<String>)> {
        blocks(text)
            .into_iter()
            .map(|b| (b.info, b.lines.into_iter().map(|(_, l)| l).collect()))
            .collect()
    };
    let outline = |text: &str| -> Vec<String> {
        let mut in_code = false;
        text.lines()
            .filter(|l| {
                if l.trim_start().starts_with("```") {
                    in_code = !in_code;
                }
                !in_code
            })
            .filter_map(|l| {
                let l = l.trim_start();
                if l.starts_with('#') {
                    Some(l.split(' ').next().unwrap_or_default().to_string())
                } else if l.starts_with('|') {
                    Some(format!("| {}", l.matches('|').count()))
                } else {
                    None
                }
            })
            .collect()
    };
    for page in ["akiba", "offboard", "abraxas"] {
        let english = read(&format!("docs/rules/{page}.md"));
        for language in ["de", "fr"] {
            let path = format!("docs/rules/{language}/{page}.md");
            let translated = read(&path);
            assert!(
                code(&translated) == code(&english),
                "{path}: the code blocks differ from docs/rules/{page}.md's"
            );
            assert_eq!(
                outline(&translated),
                outline(&english),
                "{path}: headings or table rows differ from docs/rules/{page}.md's"
            );
        }
    }
}

/// The repository is self-contained: no file points to the spec outside it.
#[test]
fn nothing_points_outside_the_repository() {
    let mut stack = vec![PathBuf::from(ROOT)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read a directory") {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" {
                    stack.push(path);
                }
            } else if [".md", ".rs", ".epd", ".perft", ".txt", ".toml"]
                .iter()
                .any(|ext| name.ends_with(ext))
            {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                let needle = ["shared", "spec/"].concat();
                assert!(
                    !text.contains(&needle),
                    "{} refers to the spec outside the repository; link docs/rules/ instead",
                    path.display()
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Protocol transcripts

/// The engine's stdout, line by line, with a time limit per line.
struct Engine {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: Receiver<String>,
}

const LINE_TIMEOUT: Duration = Duration::from_secs(60);

impl Engine {
    fn start() -> Engine {
        let (child, stdin, lines) = binary::start_engine(&[], Stdio::null());
        Engine {
            child,
            stdin,
            lines,
        }
    }
}

/// Replays one transcript block; panics naming the first line that differs.
fn replay(block: &Block) {
    let mut engine = Engine::start();
    let mut skipping = false;
    let mut quit = false;
    for (number, line) in &block.lines {
        let place = format!("protocol.md:{number}");
        if line.trim().is_empty() {
            continue;
        }
        if is_skip(line) {
            skipping = true;
        } else if let Some(command) = line.strip_prefix("> ") {
            writeln!(engine.stdin, "{command}").expect("send a line");
            engine.stdin.flush().expect("flush");
            quit = command.trim() == "quit";
        } else if let Some(expected) = line.strip_prefix("< ") {
            loop {
                let received = engine
                    .lines
                    .recv_timeout(LINE_TIMEOUT)
                    .unwrap_or_else(|_| panic!("{place}: no line came, expected `{expected}`"));
                if same(expected, &received) {
                    break;
                }
                assert!(
                    skipping,
                    "{place}: expected `{expected}`\n          received `{received}`"
                );
            }
            skipping = false;
        } else {
            panic!("{place}: a transcript line starts with `> `, `< ` or is `…`: `{line}`");
        }
    }
    assert!(quit, "the transcript does not end with `> quit`");
    // After `quit` the engine ends, printing nothing more.
    let rest: Vec<String> = engine.lines.iter().collect();
    assert!(
        rest.is_empty(),
        "output after the transcript's end: {rest:?}"
    );
    let status = engine.child.wait().expect("wait for shove");
    assert!(status.success(), "shove exited with {status}");
}

#[test]
fn protocol_transcripts_replay() {
    let transcripts: Vec<Block> = blocks(&read("protocol.md"))
        .into_iter()
        .filter(|b| b.info == "transcript")
        .collect();
    assert!(
        !transcripts.is_empty(),
        "protocol.md has no transcript block"
    );
    for block in &transcripts {
        replay(block);
    }
}

// ---------------------------------------------------------------------------------------
// Help texts

fn help(args: &[&str]) -> String {
    let output = Command::new(SHOVE)
        .args(args)
        .arg("--help")
        .output()
        .expect("run shove --help");
    assert!(output.status.success(), "shove {args:?} --help failed");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Whether a help text has a line describing `flag` (not merely mentioning it).
fn lists(text: &str, flag: &str) -> bool {
    text.lines()
        .any(|line| line.split_whitespace().next() == Some(flag))
}

const RULE_FLAGS: [&str; 6] = [
    "--no-extra-move",
    "--repeat-rule",
    "--offboard-sectors",
    "--abraxas-sheet",
    "--abraxas-target",
    "--abraxas-blue",
];

/// Each `--help` lists the flags its command uses and no other: rule flags where a game is
/// played under rules, `--player` in protocol mode only, `--game` wherever a game is chosen.
#[test]
fn each_help_lists_only_the_flags_its_command_uses() {
    for (command, game, rules, player) in [
        (&[][..], true, true, true),
        (&["perft"][..], true, true, false),
        (&["show"][..], true, true, false),
        (&["analyze"][..], true, true, false),
        (&["match"][..], true, true, false),
        (&["openings"][..], true, true, false),
        (&["bench"][..], true, false, false),
        (&["params"][..], true, false, false),
        (&["replay"][..], false, false, false),
        (&["gui"][..], false, false, false),
    ] {
        let text = help(command);
        assert_eq!(lists(&text, "--game"), game, "{command:?}:\n{text}");
        assert_eq!(lists(&text, "--player"), player, "{command:?}:\n{text}");
        for flag in RULE_FLAGS {
            assert_eq!(lists(&text, flag), rules, "{command:?} {flag}:\n{text}");
        }
    }
    assert!(lists(&help(&["replay"]), "--number"));
}

/// Flags before a subcommand that does not take them are refused, not ignored.
#[test]
fn flags_a_subcommand_does_not_take_are_refused() {
    for args in [
        &["--player", "greedy", "perft", "1"][..],
        &["perft", "1", "--player", "greedy"][..],
        &["--no-extra-move", "bench", "--depth", "1"][..],
        &["bench", "--depth", "1", "--repeat-rule", "ko"][..],
        &["--game", "offboard", "replay", "games.log"][..],
        &["replay", "games.log", "--game", "3"][..],
    ] {
        let output = Command::new(SHOVE).args(args).output().expect("run shove");
        assert!(!output.status.success(), "{args:?} accepted");
        assert!(!output.stderr.is_empty(), "{args:?}: no message");
    }
    // Commands whose inputs name their game and rules take neither before them, and say so.
    for (args, refused) in [
        (&["--game", "offboard", "merge", "games.log"][..], "--game"),
        (&["--no-extra-move", "merge", "games.log"][..], "rule flags"),
        (&["--game", "abraxas", "record", "games.log"][..], "--game"),
        (
            &["--abraxas-blue", "2", "review", "games.log"][..],
            "rule flags",
        ),
        (&["--game", "akiba", "rate", "games.log"][..], "--game"),
        (
            &["--repeat-rule", "ko", "rate", "games.log"][..],
            "rule flags",
        ),
    ] {
        let output = Command::new(SHOVE).args(args).output().expect("run shove");
        assert!(!output.status.success(), "{args:?} accepted");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let command = args[args.len() - 2];
        assert!(
            stderr.contains(&format!("{refused} do")) && stderr.contains(&format!("'{command}'")),
            "{args:?}: {stderr}"
        );
    }
    // Before the subcommand, --game and the rule flags still apply.
    let output = Command::new(SHOVE)
        .args([
            "--game",
            "offboard",
            "--offboard-sectors",
            "3,3,3,3,3,3,3,3,3,3,3,3",
        ])
        .args(["perft", "2"])
        .output()
        .expect("run shove");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "nodes 2268\n");
}

/// The cutegames settings files (docs/cutegames/*.json, one per game, run for real with
/// cutegames as protocol.md says): `askturn` on, the game's opening file, the engine path
/// of a `cargo build --release`, every engine's `parameters` start shove in that game, and
/// the shared `options` are accepted (`setoption` answers no error line).
#[test]
fn cutegames_settings_files_are_accepted() {
    for game in ["akiba", "offboard", "abraxas"] {
        let path = format!("docs/cutegames/{game}.json");
        let settings: serde_json::Value =
            serde_json::from_str(&read(&path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(settings["protocol"]["askturn"], true, "{path}");
        let openings = format!("positions/{game}-openings.txt");
        assert_eq!(settings["openings"]["path"], *openings, "{path}");
        assert!(Path::new(ROOT).join(&openings).exists(), "{openings}");
        let options: Vec<(&String, &str)> = settings["options"]
            .as_object()
            .expect("options")
            .iter()
            .map(|(name, value)| (name, value.as_str().expect("option values are strings")))
            .collect();
        assert!(options.len() >= 3, "{path}");
        let engines = settings["engines"].as_array().expect("engines");
        assert_eq!(engines.len(), 2, "{path}");
        for engine in engines {
            assert_eq!(engine["path"], "target/release/shove", "{path}");
            assert_eq!(engine["protocol"], "UGI", "{path}");
            let params = engine["parameters"].as_str().expect("parameters");
            assert!(
                params.starts_with(&format!("--game {game}")),
                "{path}: {params}"
            );
            let mut child = Command::new(SHOVE)
                .args(params.split_whitespace())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("start shove");
            let mut input = child.stdin.take().expect("stdin");
            for (name, text) in &options {
                writeln!(input, "setoption name {name} value {text}").expect("send");
            }
            writeln!(input, "query p1turn\nisready\nquit").expect("send");
            drop(input);
            let output = child.wait_with_output().expect("run shove");
            assert!(output.status.success(), "shove {params}");
            assert_eq!(
                String::from_utf8_lossy(&output.stdout),
                "response true\nreadyok\n",
                "{path}: shove {params} with options {options:?}"
            );
        }
    }
}

/// docs/layout.md names every file of `src/`: by its path, or by its name in the bullet of
/// its folder (`src/akiba/` … `moves.rs`).
#[test]
fn the_layout_names_every_file_of_src() {
    let layout = read("docs/layout.md");
    let mut bullets: Vec<String> = Vec::new();
    for line in layout.lines() {
        if line.starts_with("- ") || bullets.is_empty() {
            bullets.push(line.to_string());
        } else if line.starts_with("  ") {
            let last = bullets.len() - 1;
            bullets[last].push(' ');
            bullets[last].push_str(line.trim());
        }
    }
    let files = src_files::src_files();
    let mut missing = Vec::new();
    for file in &files {
        let (folder, name) = file.rsplit_once('/').expect("a file in src/");
        let named = layout.contains(&format!("`{file}`"))
            || bullets.iter().any(|bullet| {
                bullet.contains(&format!("`{folder}/")) && bullet.contains(&format!("`{name}`"))
            });
        if !named {
            missing.push(file.as_str());
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "docs/layout.md does not name {missing:?}"
    );
}

/// Every file of `tests/` runs: as a module of one of the suites in `tests/suites/`, or as
/// a test of its own in Cargo.toml (`autotests = false`: a file in neither would never be
/// built). The same for the trainer's tests (train/tests/suite.rs).
#[test]
fn every_test_file_is_in_a_suite() {
    let root = env!("CARGO_MANIFEST_DIR");
    let listed = |dir: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(format!("{root}/{dir}"))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| name.ends_with(".rs"))
            .collect();
        names.sort();
        names
    };
    let manifest = read("Cargo.toml");
    let mut run: Vec<String> = Vec::new();
    for suite in listed("tests/suites") {
        let path = format!("tests/suites/{suite}");
        assert!(
            manifest.contains(&format!("path = \"{path}\"")),
            "{path} is not a [[test]] of Cargo.toml"
        );
        for line in read(&path).lines() {
            if let Some(file) = line
                .strip_prefix("#[path = \"../")
                .and_then(|rest| rest.strip_suffix("\"]"))
            {
                run.push(file.to_string());
            }
        }
    }
    for line in manifest.lines() {
        if let Some(file) = line
            .strip_prefix("path = \"tests/")
            .and_then(|rest| rest.strip_suffix('"'))
            .filter(|file| !file.contains('/'))
        {
            run.push(file.to_string());
        }
    }
    for file in listed("tests") {
        assert!(run.contains(&file), "tests/{file} is in no test suite");
    }
    // The trainer's: modules of train/tests/suite.rs.
    let suite = read("train/tests/suite.rs");
    for file in listed("train/tests") {
        let module = file.trim_end_matches(".rs");
        assert!(
            file == "suite.rs" || suite.contains(&format!("mod {module};")),
            "train/tests/{file} is not a module of train/tests/suite.rs"
        );
    }
}
