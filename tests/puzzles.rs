//! Puzzles: every shipped set passes `shove puzzles --check` (at the depth each set names,
//! and a sample at the full depth), has its size, share of multi-move puzzles, rating spread
//! and themes; the generator makes sets that pass the check and
//! resumes them; bad sets get errors naming the line, and nothing is lost.

use crate::binary;

use binary::{scratch, shove};
use shove::profile::Profile;
use shove::puzzles::format::PuzzleFile;
use shove::{abraxas, akiba, offboard};
use std::collections::BTreeSet;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The solver decisions of a puzzle with at least 5 legal moves, counted from the rules
/// alone (replaying the solution), not by the code under test.
fn choices_of<G: Profile>(puzzle: &shove::puzzles::format::Puzzle) -> usize {
    let mut position = G::parse(&puzzle.position, G::Rules::default()).unwrap();
    let solver = position.to_move();
    let mut found = 0;
    for text in &puzzle.solution {
        let mut moves = shove::game::MoveList::new();
        position.legal_moves(&mut moves);
        if position.to_move() == solver && moves.len() >= 5 {
            found += 1;
        }
        position.play(position.parse_move(text).unwrap());
    }
    found
}

/// What a shipped set holds at least: puzzles, the share with two or more solver moves that
/// are real choices, and the share each rated at or below level 5's Elo and at or above
/// level 15's.
struct Aim {
    puzzles: usize,
    multi_move: f64,
    band: f64,
}

/// The aim of every set (docs/puzzles.md).
const AIM: Aim = Aim {
    puzzles: 500,
    multi_move: 0.5,
    band: 0.15,
};

/// The shipped set of `G`: `aim`'s puzzles and shares, all passing the check at the set's
/// own depth and a third of them at `full_depth`, none without a real choice; its themes.
fn shipped_set_is_good<G: Profile>(full_depth: u32, aim: Aim) {
    let path = format!("positions/puzzles/{}.txt", G::NAME);
    let set = std::fs::read_to_string(&path).unwrap();
    let file = PuzzleFile::parse(&set);
    assert!(file.errors.is_empty(), "{:?}", file.errors);
    assert_eq!(file.get("game"), Some(G::NAME));
    let puzzles = &file.puzzles;
    assert!(puzzles.len() >= aim.puzzles, "{} puzzles", puzzles.len());

    let multi = puzzles
        .iter()
        .map(|(_, p)| choices_of::<G>(p))
        .inspect(|&n| assert!(n >= 1, "a puzzle without a real choice"))
        .filter(|&n| n >= 2)
        .count();
    assert!(
        multi as f64 >= aim.multi_move * puzzles.len() as f64,
        "{multi} of {} multi-move",
        puzzles.len()
    );
    let output = shove(&["puzzles", "--check", &path]);
    let out = text(&output.stdout);
    assert!(output.status.success(), "{out}{}", text(&output.stderr));
    assert!(
        out.contains(&format!(
            "({multi} with two or more solver moves that count)"
        )),
        "{out}"
    );

    let levels = G::LEVEL_ELO;
    let share = |keep: &dyn Fn(i32) -> bool| {
        puzzles.iter().filter(|(_, p)| keep(p.rating)).count() as f64 / puzzles.len() as f64
    };
    assert!(puzzles.iter().all(|(_, p)| levels.contains(&p.rating)));
    let ratings: BTreeSet<i32> = puzzles.iter().map(|(_, p)| p.rating).collect();
    assert!(ratings.len() >= 8, "{ratings:?}");
    assert_eq!(ratings.first(), Some(&levels[0]), "{ratings:?}");
    assert!(ratings.last() >= Some(&levels[12]), "{ratings:?}");
    let easy = share(&|r| r <= levels[5]);
    let hard = share(&|r| r >= levels[15]);
    assert!(
        easy >= aim.band && hard >= aim.band,
        "easy {easy:.2}, hard {hard:.2}"
    );
    let themes: BTreeSet<&str> = puzzles
        .iter()
        .flat_map(|(_, p)| p.themes.iter().map(String::as_str))
        .collect();
    for theme in ["win", "one-move", "long"] {
        assert!(themes.contains(theme), "{theme} missing from {themes:?}");
    }
    assert!(themes.len() >= 6, "{themes:?}");

    // A sample at the full depth too, unless that is the set's own depth (checked in
    // full above): every third puzzle, a third of the CI time of all (Abraxas' 563 at
    // depth 9 are 150 s of one core); docs/puzzles.md gives the run over every puzzle.
    let depth = full_depth.to_string();
    if file.get("check_depth") != Some(depth.as_str()) {
        let mut n = 0;
        let sample: String = set
            .lines()
            .filter(|line| {
                let keep = line.starts_with('#') || n % 3 == 0;
                n += usize::from(!line.starts_with('#'));
                keep
            })
            .map(|line| format!("{line}\n"))
            .collect();
        let sample_path = scratch(&format!("sample-{}", G::NAME)).join("sample.txt");
        std::fs::write(&sample_path, sample).unwrap();
        let sample_path = sample_path.to_str().unwrap();
        let output = shove(&["puzzles", "--check", sample_path, "--depth", &depth]);
        assert!(
            output.status.success(),
            "{}{}",
            text(&output.stdout),
            text(&output.stderr)
        );
        assert!(
            text(&output.stdout).contains(&format!(
                "{} {} puzzles",
                puzzles.len().div_ceil(3),
                G::NAME
            )),
            "{}",
            text(&output.stdout)
        );
    }
}

#[test]
fn the_akiba_set_is_good() {
    shipped_set_is_good::<akiba::Position>(12, AIM);
}

#[test]
fn the_offboard_set_is_good() {
    shipped_set_is_good::<offboard::Position>(9, AIM);
}

#[test]
fn the_abraxas_set_is_good() {
    shipped_set_is_good::<abraxas::Position>(9, AIM);
}

/// A small run from one match log of the level gauntlet: its puzzles pass the check, a
/// resumed run adds to them, and a second run on the same file without --resume is refused
/// with the file untouched.
#[test]
fn a_generated_set_passes_the_check_and_resumes() {
    let dir = scratch("generate");
    let out = dir.join("akiba.txt");
    let out = out.to_str().unwrap();
    let log = "docs/levels/akiba-L3-vs-L4.shard-1-of-4.log";
    let run = |count: &str, extra: &[&str]| {
        let mut args = vec![
            "puzzles", "--game", "akiba", log, "--out", out, "--count", count, "--depth", "4",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        shove(&args)
    };
    let first = run("2", &[]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(
        text(&first.stdout).contains("candidates/min"),
        "{}",
        text(&first.stdout)
    );
    let before = std::fs::read_to_string(out).unwrap();
    assert_eq!(PuzzleFile::parse(&before).puzzles.len(), 2, "{before}");

    let refused = run("4", &[]);
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("--resume"),
        "{}",
        text(&refused.stderr)
    );
    assert_eq!(std::fs::read_to_string(out).unwrap(), before);

    let resumed = run("4", &["--resume"]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let after = std::fs::read_to_string(out).unwrap();
    assert!(after.starts_with(&before));
    let file = PuzzleFile::parse(&after);
    assert_eq!(file.puzzles.len(), 4, "{after}");
    let positions: BTreeSet<&str> = file
        .puzzles
        .iter()
        .map(|(_, p)| p.position.as_str())
        .collect();
    assert_eq!(positions.len(), 4, "no position twice");

    let check = shove(&["puzzles", "--check", out]);
    assert!(
        check.status.success(),
        "{}{}",
        text(&check.stdout),
        text(&check.stderr)
    );
    assert!(text(&check.stdout).contains("4 akiba puzzles, all good at depth 4"));
}

/// `count` Akiba puzzles at depth 4 from a level-game log into `out`, with `extra` flags:
/// the file's path and the set read back.
fn generated(out: &std::path::Path, count: &str, extra: &[&str]) -> (String, PuzzleFile) {
    let out = out.to_str().unwrap().to_string();
    let log = "docs/levels/akiba-L3-vs-L4.shard-1-of-4.log";
    let mut args = vec![
        "puzzles", "--game", "akiba", log, "--out", &out, "--count", count, "--depth", "4",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let output = shove(&args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let file = PuzzleFile::parse(&std::fs::read_to_string(&out).unwrap());
    (out, file)
}

/// `--multi-move` keeps only puzzles with two or more solver moves that count (counted
/// here from the rules), where the same run without it keeps a one-move one too.
#[test]
fn a_multi_move_run_keeps_only_multi_move_puzzles() {
    let dir = scratch("multi-move");
    let run = |name: &str, extra: &[&str]| generated(&dir.join(name), "2", extra);
    let counted = |file: &PuzzleFile| -> Vec<usize> {
        file.puzzles
            .iter()
            .map(|(_, p)| choices_of::<akiba::Position>(p))
            .collect()
    };
    let (_, plain) = run("plain.txt", &[]);
    assert!(counted(&plain).contains(&1), "{:?}", plain.puzzles);
    let (path, multi) = run("multi.txt", &["--multi-move"]);
    assert_eq!(multi.get("multi_move"), Some("yes"));
    assert_eq!(multi.puzzles.len(), 2);
    assert!(
        counted(&multi).iter().all(|&n| n >= 2),
        "{:?}",
        multi.puzzles
    );
    let check = shove(&["puzzles", "--check", &path]);
    assert!(
        text(&check.stdout).contains("2 akiba puzzles, all good at depth 4 (2 with two or more"),
        "{}{}",
        text(&check.stdout),
        text(&check.stderr)
    );
}

/// A set with a malformed line and an illegal solution move: each error names its line and
/// the reason, the good puzzle is still checked, the check fails, the file is unchanged.
#[test]
fn bad_sets_get_errors_naming_the_line() {
    let dir = scratch("bad");
    let path = dir.join("bad.txt");
    let set = "# shove puzzles\tgame=akiba\trules=-\tcheck_depth=4\n\
               # a comment\n\
               ok-1;1WW2BB/1WWR1BB/1RRRR2/1BRRRR1/B1RRRW1/B2R1WW/B4W1 w 0 0 - - 5;b7c7;571;advantage,one-move\n\
               broken;only two fields\n\
               bad-move;1WW2BB/1WWR1BB/1RRRR2/1BRRRR1/B1RRRW1/B2R1WW/B4W1 w 0 0 - - 5;b7c7 a1a3;571;win\n\
               bad-theme;1WW2BB/1WWR1BB/1RRRR2/1BRRRR1/B1RRRW1/B2R1WW/B4W1 w 0 0 - - 5;b7c7;571;sector-3\n";
    std::fs::write(&path, set).unwrap();
    let output = shove(&["puzzles", "--check", path.to_str().unwrap()]);
    assert!(!output.status.success());
    let out = text(&output.stdout);
    assert!(out.contains("line 4: 2 fields, expected 5"), "{out}");
    assert!(
        out.contains("line 5: puzzle bad-move: solution move 2: bad move 'a1a3'")
            || out.contains("line 5: puzzle bad-move: solution move 2: illegal move 'a1a3'"),
        "{out}"
    );
    assert!(
        out.contains("line 6: puzzle bad-theme: 'sector-3' is not a theme of akiba"),
        "{out}"
    );
    assert!(!out.contains("line 3"), "{out}");
    assert!(
        text(&output.stderr).contains("3 of 4 puzzle lines are bad"),
        "{}",
        text(&output.stderr)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), set);

    let missing = shove(&["puzzles", "--check", dir.join("none.txt").to_str().unwrap()]);
    assert!(!missing.status.success());
    assert!(
        text(&missing.stderr).contains("cannot read"),
        "{}",
        text(&missing.stderr)
    );
    std::fs::write(&path, "x;y;z;1;a\n").unwrap();
    let nameless = shove(&["puzzles", "--check", path.to_str().unwrap()]);
    assert!(
        text(&nameless.stderr).contains("give --game"),
        "{}",
        text(&nameless.stderr)
    );
}

/// `--rewrite`: after a new network or search a set is written again with only the puzzles
/// that still pass, each rated again on the level scale; header and comments stay, the bad
/// lines go, the set read is unchanged.
#[test]
fn a_rewritten_set_keeps_the_good_puzzles_rated_again() {
    let dir = scratch("rewrite");
    let path = dir.join("set.txt");
    let out = dir.join("rewritten.txt");
    let header = "# shove puzzles\tgame=akiba\trules=-\tcheck_depth=4";
    let set = format!(
        "{header}\n\
         # a comment\n\
         ok-1;1WW2BB/1WWR1BB/1RRRR2/1BRRRR1/B1RRRW1/B2R1WW/B4W1 w 0 0 - - 5;b7c7;9999;advantage,one-move\n\
         broken;only two fields\n\
         bad-move;1WW2BB/1WWR1BB/1RRRR2/1BRRRR1/B1RRRW1/B2R1WW/B4W1 w 0 0 - - 5;b7c7 a1a3;571;win\n"
    );
    std::fs::write(&path, &set).unwrap();
    let output = shove(&[
        "puzzles",
        "--check",
        path.to_str().unwrap(),
        "--rewrite",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains("1 of 3 akiba puzzles good at depth 4 and rated again"),
        "{}",
        text(&output.stdout)
    );
    let rewritten = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = rewritten.lines().collect();
    assert_eq!(lines.len(), 3, "{rewritten}");
    assert_eq!(lines[..2], [header, "# a comment"]);
    let file = PuzzleFile::parse(&rewritten);
    let (_, puzzle) = &file.puzzles[0];
    assert_eq!(puzzle.id, "ok-1");
    assert!(
        akiba::Position::LEVEL_ELO.contains(&puzzle.rating),
        "{rewritten}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), set);
    let check = shove(&["puzzles", "--check", out.to_str().unwrap()]);
    assert!(check.status.success(), "{}", text(&check.stdout));
}

/// `--hard` keeps only puzzles in the hard band (rated at or above level 15's Elo), where
/// the same run without it keeps easier ones too.
#[test]
fn a_hard_run_keeps_only_hard_puzzles() {
    let dir = scratch("hard");
    let run = |name: &str, extra: &[&str]| generated(&dir.join(name), "3", extra).1;
    let hard_elo = akiba::Position::LEVEL_ELO[15];
    let plain = run("plain.txt", &[]);
    assert!(
        plain.puzzles.iter().any(|(_, p)| p.rating < hard_elo),
        "{:?}",
        plain.puzzles
    );
    let hard = run("hard.txt", &["--hard"]);
    assert_eq!(hard.get("hard"), Some("yes"));
    assert_eq!(hard.puzzles.len(), 3);
    assert!(
        hard.puzzles.iter().all(|(_, p)| p.rating >= hard_elo),
        "{:?}",
        hard.puzzles
    );
}

/// A puzzle whose start is along an earlier one's solution, or along whose solution an
/// earlier one starts, or that starts where an earlier one does, is a near-duplicate: the
/// check names it and the earlier one, and `--rewrite` leaves it out (docs/puzzles.md).
/// The near-duplicate is the tail of a shipped multi-move puzzle, good in itself.
#[test]
fn near_duplicates_are_reported_and_rewritten_away() {
    use shove::game::Game;
    type G = akiba::Position;
    let set = std::fs::read_to_string("positions/puzzles/akiba.txt").unwrap();
    let file = PuzzleFile::parse(&set);
    // A puzzle of three or more moves whose tail, from the solver's second move, still has
    // a real choice.
    let (whole, tail) = file
        .puzzles
        .iter()
        .find_map(|(_, p)| {
            if p.solution.len() < 3 {
                return None;
            }
            let mut position = G::parse(&p.position, Default::default()).unwrap();
            let solver = position.to_move();
            for text in &p.solution[..2] {
                position.play(position.parse_move(text).unwrap());
            }
            let tail = shove::puzzles::format::Puzzle {
                id: "tail".into(),
                position: position.to_string(),
                solution: p.solution[2..].to_vec(),
                rating: p.rating,
                themes: p.themes.clone(),
            };
            (position.to_move() == solver && choices_of::<G>(&tail) >= 1).then(|| (p.clone(), tail))
        })
        .expect("a multi-move puzzle with a real choice after its first two moves");
    let header = "# shove puzzles\tgame=akiba\trules=-\tcheck_depth=6";
    let dir = scratch("near-duplicates");
    let mut twin = whole.clone();
    twin.id = "twin".into();
    // The set is the header, then `first` on line 2 and `second` on line 3.
    for (name, first, second) in [
        ("tail-after.txt", &whole, &tail),
        ("tail-first.txt", &tail, &whole),
        ("twin.txt", &whole, &twin),
    ] {
        let path = dir.join(name);
        let out = dir.join(format!("rewritten-{name}"));
        std::fs::write(&path, format!("{header}\n{first}\n{second}\n")).unwrap();
        let alone = dir.join(format!("alone-{name}"));
        std::fs::write(&alone, format!("{header}\n{second}\n")).unwrap();
        let check = shove(&["puzzles", "--check", alone.to_str().unwrap()]);
        assert!(check.status.success(), "{}", text(&check.stdout));

        let check = shove(&[
            "puzzles",
            "--check",
            path.to_str().unwrap(),
            "--rewrite",
            out.to_str().unwrap(),
        ]);
        let report = text(&check.stdout);
        assert!(
            report.contains(&format!(
                "line 3: puzzle {}: a near-duplicate of puzzle {} (line 2)",
                second.id, first.id
            )),
            "{report}"
        );
        let rewritten = PuzzleFile::parse(&std::fs::read_to_string(&out).unwrap());
        let ids: Vec<&str> = rewritten
            .puzzles
            .iter()
            .map(|(_, p)| p.id.as_str())
            .collect();
        assert_eq!(ids, [first.id.as_str()], "{name}");
    }
}
