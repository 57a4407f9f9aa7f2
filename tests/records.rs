//! Game records (`src/record.rs`, docs/records.md): seeded random games of every game under
//! every rule option are written and read back unchanged and replay to the same position;
//! damaged records, records of another game and log games that do not replay are refused
//! with the line and field named; `shove record` exports `shove match --log` games.

use crate::playout;

use playout::play_random;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::game::{Outcome, Player};
use shove::games::{GameVisitor, with_game};
use shove::matches::log::{GameRecord, HEADER};
use shove::profile::Profile;
use shove::record::{Record, RecordError, Variation};
use std::process::Command;

const SHOVE: &str = env!("CARGO_BIN_EXE_shove");

/// Every game with every rule option, one at a time and some together.
fn rule_sets() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    vec![
        ("akiba", vec![]),
        ("akiba", vec![("ExtraMove", "false")]),
        ("akiba", vec![("RepeatRule", "ko")]),
        ("akiba", vec![("ExtraMove", "false"), ("RepeatRule", "ko")]),
        ("offboard", vec![]),
        (
            "offboard",
            vec![("OffboardSectors", "3,3,3,2,2,2,1,1,1,2,3,1")],
        ),
        ("abraxas", vec![]),
        ("abraxas", vec![("AbraxasSheet", "s4")]),
        (
            "abraxas",
            vec![("AbraxasSheet", "s6"), ("AbraxasTarget", "13")],
        ),
        ("abraxas", vec![("AbraxasBlue", "2")]),
        (
            "abraxas",
            vec![
                ("AbraxasSheet", "s2"),
                ("AbraxasTarget", "13"),
                ("AbraxasBlue", "2"),
            ],
        ),
    ]
}

/// A seeded random game of `G` under `rules`: the record (played to its end or cut off,
/// then drawn by adjudication) and the final position's string.
struct RandomGame<'a> {
    rules: &'a [(String, String)],
    seed: u64,
}

impl GameVisitor for RandomGame<'_> {
    type Output = (Record, String);
    fn visit<G: Profile>(self) -> (Record, String) {
        let mut rng = StdRng::seed_from_u64(self.seed);
        let rules = shove::games::rules::<G>(self.rules).expect("valid rules");
        let mut position = G::start(rules);
        let start = position.to_string();
        let plies = rng.random_range(0..300);
        let moves = play_random(&mut rng, &mut position, plies);
        let result = match position.outcome() {
            Some(outcome) => Some(outcome),
            None if self.seed.is_multiple_of(2) => None,
            None => Some(Outcome::Draw),
        };
        let record = Record {
            game: G::NAME.to_string(),
            rules: self.rules.to_vec(),
            start,
            players: ["shove".into(), "shove --player random".into()],
            result,
            reason: if self.seed.is_multiple_of(3) {
                "max moves: 300".into()
            } else {
                String::new()
            },
            date: "2026-11-25".into(),
            engine: shove::record::engine_version(),
            moves,
            variations: Vec::new(),
        };
        (record, position.to_string())
    }
}

struct FinalPosition<'a>(&'a Record);

impl GameVisitor for FinalPosition<'_> {
    type Output = String;
    fn visit<G: Profile>(self) -> String {
        let positions = self.0.positions::<G>().expect("the record replays");
        positions.last().expect("a start").to_string()
    }
}

fn owned(rules: &[(&str, &str)]) -> Vec<(String, String)> {
    rules
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

#[test]
fn random_games_of_every_game_and_rule_option_round_trip() {
    let mut finished = 0;
    for (game, rules) in rule_sets() {
        let rules = owned(&rules);
        for seed in 0..12 {
            let (record, last) = with_game(
                game,
                RandomGame {
                    rules: &rules,
                    seed,
                },
            )
            .unwrap();
            let text = record.to_string();
            let back: Record = text
                .parse()
                .unwrap_or_else(|e| panic!("{game} {rules:?} seed {seed}: {e}\n{text}"));
            assert_eq!(back, record, "{game} {rules:?} seed {seed}\n{text}");
            assert_eq!(back.to_string(), text);
            assert_eq!(with_game(game, FinalPosition(&back)).unwrap(), last);
            finished += usize::from(record.result.is_some() && record.reason.is_empty());
        }
    }
    assert!(finished > 0, "some random games end by the rules");
}

fn akiba_record() -> Record {
    Record {
        game: "akiba".into(),
        rules: owned(&[("ExtraMove", "false")]),
        start: "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1".into(),
        players: ["Ann".into(), "Bob".into()],
        result: None,
        reason: String::new(),
        date: "2026-11-25".into(),
        engine: "shove 0.1.0".into(),
        moves: vec!["f1f2".into(), "a1a2".into(), "g1f1".into()],
        variations: Vec::new(),
    }
}

#[test]
fn the_written_form_is_the_documented_one() {
    let text = akiba_record().to_string();
    let expected = "# shove game record (docs/records.md)\n\
                    Game: akiba\n\
                    Rules: ExtraMove=false\n\
                    Start: WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1\n\
                    Player1: Ann\n\
                    Player2: Bob\n\
                    Result: *\n\
                    Reason:\n\
                    Date: 2026-11-25\n\
                    Engine: shove 0.1.0\n\
                    \n\
                    1. p1 f1f2\n\
                    2. p2 a1a2\n\
                    3. p1 g1f1\n";
    assert_eq!(text, expected);
    // Hand-written: no comment, keys in any order and case, movers left out, `startpos`.
    let hand =
        "game: akiba\nResult: *\nStart: startpos\nRules: ExtraMove=false\n\n1. f1f2\n2. a1a2\n";
    let record: Record = hand.parse().unwrap();
    assert_eq!(record.moves, ["f1f2", "a1a2"]);
    assert_eq!(record.players, [String::new(), String::new()]);
}

/// The error of reading `text`, which must fail.
fn refused(text: &str) -> RecordError {
    match text.parse::<Record>() {
        Ok(record) => panic!("accepted:\n{text}\nas {record:?}"),
        Err(e) => e,
    }
}

#[test]
fn damaged_records_are_refused_naming_the_line_and_field() {
    let good = akiba_record().to_string();
    let damage = |from: &str, to: &str| good.replacen(from, to, 1);
    let cases = [
        (
            damage("3. p1 g1f1", "3. p1 d4d5"),
            14,
            "move 3",
            "illegal move 'd4d5'",
        ),
        (
            damage("3. p1 g1f1", "3. p1 zz"),
            14,
            "move 3",
            "bad move 'zz'",
        ),
        (
            damage("2. p2 a1a2", "2. p1 a1a2"),
            13,
            "move 2",
            "written for p1",
        ),
        (damage("3. p1", "4. p1"), 14, "move 3", "expected '3.'"),
        (damage("Start: WW3BB", "Start: WW9BB"), 4, "Start", ""),
        (damage("Result: *", "Result: 2-0"), 7, "Result", "'2-0'"),
        (
            damage("Rules: ExtraMove=false", "Rules: ExtraMove=maybe"),
            3,
            "Rules",
            "maybe",
        ),
        (
            damage("Rules: ExtraMove=false", "Rules: ExtraMove"),
            3,
            "Rules",
            "Name=value",
        ),
        (
            damage("Date:", "Colour:"),
            9,
            "Colour",
            "unknown header key",
        ),
        (
            damage("Game: akiba", "Game: go"),
            2,
            "Game",
            "unknown game 'go'",
        ),
        (
            format!("{good}Date: 2026-11-26\n"),
            15,
            "Date",
            "after the moves",
        ),
        (
            format!("{good}4. p2\n"),
            15,
            "move 4",
            "not 'N. p1|p2 MOVE'",
        ),
        (
            damage("Engine: shove 0.1.0\n", "Engine: shove\nEngine: x\n"),
            11,
            "Engine",
            "twice",
        ),
        (
            damage("Player2: Bob\n", "Player2: Bob\nBob\n"),
            7,
            "header",
            "neither",
        ),
    ];
    for (text, line, field, words) in cases {
        let e = refused(&text);
        assert_eq!(
            (e.line, e.field.to_string().as_str()),
            (line, field),
            "{e}\n{text}"
        );
        assert!(e.message.to_string().contains(words), "{e}");
        assert!(
            e.to_string()
                .starts_with(&format!("record line {line}, {field}: ")),
            "{e}"
        );
    }
    let e = refused(&damage(
        "Start: WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1\n",
        "",
    ));
    assert_eq!((e.line, e.field.to_string().as_str()), (0, "Start"), "{e}");
}

#[test]
fn a_record_of_another_game_or_rule_set_is_refused() {
    // An Akiba game written as Offboard: the start position is not Offboard's.
    let good = akiba_record().to_string();
    let e = refused(&good.replace("Game: akiba", "Game: offboard"));
    assert_eq!((e.line, e.field.to_string().as_str()), (3, "Rules"), "{e}");
    assert!(
        e.message
            .to_string()
            .contains("ExtraMove is not a rule option of offboard"),
        "{e}"
    );
    let e = refused(
        &good
            .replace("Game: akiba", "Game: offboard")
            .replace("ExtraMove=false", ""),
    );
    assert_eq!((e.line, e.field.to_string().as_str()), (4, "Start"), "{e}");
    // A rule option of another game.
    let e = refused(&good.replace("ExtraMove=false", "AbraxasBlue=2"));
    assert_eq!((e.line, e.field.to_string().as_str()), (3, "Rules"), "{e}");
    assert!(
        e.message
            .to_string()
            .contains("AbraxasBlue is not a rule option of akiba"),
        "{e}"
    );
    // Replayed as a game of another type.
    let record = akiba_record();
    let e = record.positions::<shove::offboard::Position>().unwrap_err();
    assert_eq!(e.field.to_string(), "Game");
    assert!(
        e.message
            .to_string()
            .contains("a record of akiba, not of offboard"),
        "{e}"
    );
    // A result the final position contradicts.
    let (mut over, _) = (0..200)
        .map(|seed| {
            with_game(
                "akiba",
                RandomGame {
                    rules: &[],
                    seed: 3 * seed + 1,
                },
            )
            .unwrap()
        })
        .find(|(r, _)| r.reason.is_empty() && matches!(r.result, Some(Outcome::Win(_))))
        .expect("a random game won by the rules");
    over.result = match over.result {
        Some(Outcome::Win(p)) => Some(Outcome::Win(p.other())),
        other => other,
    };
    let e = refused(&over.to_string());
    assert_eq!(e.field.to_string(), "Result", "{e}");
    assert!(e.message.to_string().contains("ends"), "{e}");
}

fn log_game(number: usize, moves: &[&str]) -> GameRecord {
    GameRecord {
        number,
        game: "akiba".into(),
        players: ["shove".into(), "shove --player random".into()],
        outcome: Outcome::Win(Player::Two),
        reason: "shove loses: time: 105 ms over".into(),
        opening: "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1".into(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        rules: owned(&[("RepeatRule", "ko")]),
    }
}

fn write_log(name: &str, games: &[GameRecord]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("shove-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let mut text = format!("{HEADER}\n#settings\tgame=akiba\n");
    for game in games {
        text.push_str(&game.to_line());
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path
}

fn shove(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(SHOVE).args(args).output().unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn match_log_games_are_exported_and_bad_ones_refused() {
    let log = write_log(
        "match.log",
        &[
            log_game(1, &["f1f2", "a1a2"]),
            log_game(2, &["f1f2", "d4d3"]),
        ],
    );
    let log = log.to_str().unwrap();
    let (ok, out, err) = shove(&["record", log, "--number", "1"]);
    assert!(ok, "{err}");
    let record: Record = out.parse().unwrap();
    assert_eq!(record.moves, ["f1f2", "a1a2"]);
    assert_eq!(record.rules, owned(&[("RepeatRule", "ko")]));
    assert_eq!(record.players[1], "shove --player random");
    assert_eq!(record.result, Some(Outcome::Win(Player::Two)));
    assert_eq!(record.reason, "shove loses: time: 105 ms over");
    // The record read back is itself accepted by `shove record`, unchanged.
    let dir = std::path::Path::new(log).parent().unwrap();
    let file = dir.join("game1.txt");
    std::fs::write(&file, &out).unwrap();
    let (ok, again, err) = shove(&["record", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert_eq!(again, out);

    let (ok, out, err) = shove(&["record", log, "--number", "2"]);
    assert!(!ok && out.is_empty());
    assert!(
        err.contains("log game 2 does not replay") && err.contains("move 2"),
        "{err}"
    );
    assert!(err.contains("illegal move 'd4d3'"), "{err}");
    let (ok, _, err) = shove(&["record", log]);
    assert!(!ok && err.contains("choose one with --number"), "{err}");
    let (ok, _, err) = shove(&["record", log, "--number", "3"]);
    assert!(!ok && err.contains("no game 3"), "{err}");
    let (ok, _, err) = shove(&["record", file.to_str().unwrap(), "--number", "1"]);
    assert!(!ok && err.contains("--number does not apply"), "{err}");
    let damaged = dir.join("damaged.txt");
    std::fs::write(&damaged, again.replace("2. p2 a1a2", "2. p2 d4d3")).unwrap();
    let (ok, _, err) = shove(&["record", damaged.to_str().unwrap()]);
    assert!(!ok, "a damaged record is refused");
    assert!(
        err.contains("record line 13, move 2: illegal move 'd4d3'"),
        "{err}"
    );
}

/// The documented game with the documented variations (docs/records.md, Variations).
fn record_with_variations() -> Record {
    Record {
        variations: vec![
            Variation {
                parent: 0,
                ply: 2,
                moves: vec!["b1b2".into(), "g1f1".into()],
            },
            Variation {
                parent: 1,
                ply: 3,
                moves: vec!["g1g2".into()],
            },
        ],
        ..akiba_record()
    }
}

#[test]
fn variations_are_written_read_back_and_replayed() {
    let record = record_with_variations();
    let text = record.to_string();
    assert!(
        text.ends_with("3. p1 g1f1\n\nVariation 1: 2. b1b2 g1f1\nVariation 2 of 1: 3. g1g2\n"),
        "{text}"
    );
    let back: Record = text.parse().expect("the record reads back");
    assert_eq!(back, record);
    assert_eq!(
        back.variation_line(1),
        Some(vec!["f1f2".into(), "b1b2".into(), "g1g2".into()])
    );
    // A record without variations (as written before they existed) reads as before.
    let old: Record = akiba_record().to_string().parse().unwrap();
    assert!(old.variations.is_empty());
}

#[test]
fn a_malformed_variation_is_refused_with_its_line_and_the_reason() {
    let good = record_with_variations().to_string();
    let line_of = |text: &str, start: &str| {
        text.lines()
            .position(|l| l.starts_with(start))
            .map(|i| i + 1)
            .expect("the line")
    };
    let cases = [
        // An illegal move, in the variation of a variation.
        (
            "Variation 2 of 1: 3. g1g2",
            "Variation 2 of 1: 3. a7a1",
            "variation 2: move 3:",
        ),
        // Branching off a variation written after it.
        (
            "Variation 2 of 1: 3. g1g2",
            "Variation 2 of 3: 3. g1g2",
            "not written before it",
        ),
        // Past the end of the parent line: not a variation.
        (
            "Variation 1: 2. b1b2 g1f1",
            "Variation 1: 9. b1b2",
            "a variation replaces one of them",
        ),
        // The parent's own move again.
        (
            "Variation 1: 2. b1b2 g1f1",
            "Variation 1: 2. a1a2",
            "not another line",
        ),
        (
            "Variation 2 of 1: 3. g1g2",
            "Variation 7: 3. g1g2",
            "numbered '7'",
        ),
        (
            "Variation 1: 2. b1b2 g1f1",
            "Variation 1: b1b2",
            "no move number",
        ),
    ];
    for (from, to, expected) in cases {
        let text = good.replacen(from, to, 1);
        let e = refused(&text);
        assert_eq!(e.line, line_of(&text, to), "{e}");
        assert!(e.to_string().contains(expected), "{e} vs {expected}");
    }
    // Moves after the variations.
    let e = refused(&format!("{good}4. p2 a1a2\n"));
    assert!(e.to_string().contains("after the variations"), "{e}");
}
