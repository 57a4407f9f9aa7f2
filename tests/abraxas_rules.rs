//! Rule-by-rule tests of the Abraxas implementation against `docs/rules/engine/abraxas.md`.
//!
//! Positions are written with [`pos`], which lists the red and blue holes, so the intent
//! stays readable. After the rules come the position string (round trips, rejections,
//! fuzzing), the Zobrist key, the rule options and the perft table `positions/abraxas.perft`.
//! Random games use seeded generators, so every run is the same.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::abraxas::{Corner, Move, Phase, Position, Rules, Sheet, lines_of};
use shove::evaluation::Evaluation;
use shove::game::{Game, MoveList, Outcome, Player};
use shove::search_hints::SearchHints;

const START: &str = "s1 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1";
const TABLE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/abraxas.perft");

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

fn hole(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[0] - b'a') + 8 * (b[1] - b'1')
}

fn mask(names: &str) -> u64 {
    names
        .split_whitespace()
        .fold(0, |m, n| m | (1u64 << hole(n)))
}

/// The plate field with red stones on `red` and blue stones on `blue` (hole names).
fn plate(red: &str, blue: &str) -> String {
    let (red, blue) = (mask(red), mask(blue));
    let mut out = String::new();
    for r in (0..8).rev() {
        let mut run = 0;
        for f in 0..8 {
            let bit = 1u64 << (f + 8 * r);
            let ch = if red & bit != 0 {
                'R'
            } else if blue & bit != 0 {
                'B'
            } else {
                run += 1;
                continue;
            };
            if run > 0 {
                out += &run.to_string();
                run = 0;
            }
            out.push(ch);
        }
        if run > 0 {
            out += &run.to_string();
        }
        if r > 0 {
            out.push('/');
        }
    }
    out
}

/// A position string on sheet s1; the pool is whatever the other stones leave.
#[allow(clippy::too_many_arguments)]
fn pos(
    corner: &str,
    side: u8,
    phase: &str,
    flags: &str,
    red: &str,
    blue: &str,
    owned: (u8, u8),
    blues: (u8, u8),
) -> String {
    let pool = 24 - mask(red).count_ones() as u8 - owned.0 - owned.1;
    format!(
        "s1 {} {corner} {side} {phase} {flags} {pool} {} {} {} {} 7",
        plate(red, blue),
        owned.0,
        owned.1,
        blues.0,
        blues.1
    )
}

fn parse(text: &str) -> Position {
    Position::parse(text, Rules::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(p: &Position) -> Vec<String> {
    p.moves().iter().map(|m| m.to_string()).collect()
}

fn play(p: &mut Position, text: &str) {
    let mv: Move = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(
        p.is_legal(mv),
        "{text} illegal in {p}; legal: {:?}",
        moves(p)
    );
    p.play(mv);
    assert_eq!(p.hash(), p.compute_hash(), "hash after {text}");
}

fn after(text: &str, line: &[&str]) -> Position {
    let mut p = parse(text);
    for m in line {
        play(&mut p, m);
    }
    p
}

/// Calls `visit` with every position of a seeded random game of up to `plies` moves on
/// each built-in sheet.
fn along_random_games(seed: u64, plies: usize, mut visit: impl FnMut(&Position)) {
    let mut rng = StdRng::seed_from_u64(seed);
    for sheet in 1..=6 {
        let rules = Rules {
            sheet: Sheet::builtin(sheet).unwrap(),
            ..Rules::default()
        };
        let mut p = Position::start(rules);
        for _ in 0..plies {
            visit(&p);
            let ms = p.moves();
            if ms.is_empty() {
                break;
            }
            p.play(ms[rng.random_range(0..ms.len())]);
        }
    }
}

/// Exact perft over [`Position::moves`] (no move-list capacity).
fn perft(p: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => p.count_moves() as u64,
        _ => p
            .moves()
            .into_iter()
            .map(|m| {
                let mut c = p.clone();
                c.play(m);
                perft(&c, depth - 1)
            })
            .sum(),
    }
}

// ---------------------------------------------------------------------------------------
// Equipment: sheets, corners, red holes
// ---------------------------------------------------------------------------------------

#[test]
fn built_in_sheets_have_the_spec_dots_and_no_four_in_a_row() {
    let counts = [12, 12, 20, 9, 18, 18];
    for n in 1..=6 {
        let sheet = Sheet::builtin(n).unwrap();
        assert_eq!(sheet.dots().count_ones(), counts[n - 1], "s{n}");
        assert_eq!(sheet.to_string(), format!("s{n}"));
        assert_eq!(sheet.map().parse::<Sheet>().unwrap(), sheet);
        for corner in Corner::ALL {
            let mut buf = [0; 40];
            assert_eq!(lines_of(sheet.mask(corner), &mut buf), 0, "s{n} {corner}");
        }
    }
    let s1 = Sheet::builtin(1).unwrap();
    assert!(s1.has_dot(4, 1) && s1.has_dot(1, 4) && !s1.has_dot(4, 4));
    assert_eq!(s1.map(), "9/4*4/4*4/4*4/1***1***1/4*4/4*4/4*4/9");
    assert!(Sheet::builtin(5).unwrap().has_dot(7, 7) && Sheet::builtin(6).unwrap().has_dot(5, 8));
}

#[test]
fn hole_f_r_lies_over_sheet_cell_f_plus_ox_r_plus_oy() {
    let s1 = Sheet::builtin(1).unwrap();
    // Sheet cell (4, 1) is a dot: under e2 at sw, d2 at se, d1 at ne, e1 at nw.
    assert_eq!(s1.mask(Corner::Sw) & mask("e2 d2 d1 e1"), mask("e2"));
    assert_eq!(s1.mask(Corner::Se) & mask("e2 d2 d1 e1"), mask("d2"));
    // (4, 2) is a dot too: under d2 at ne and e2 at nw.
    assert_eq!(s1.mask(Corner::Ne) & mask("e2 d2 d1 e1"), mask("d1 d2"));
    assert_eq!(s1.mask(Corner::Nw) & mask("e2 d2 d1 e1"), mask("e1 e2"));
    for sheet in (1..=6).map(|n| Sheet::builtin(n).unwrap()) {
        for corner in Corner::ALL {
            let (ox, oy) = corner.offset();
            for h in 0..64usize {
                let (f, r) = (h % 8, h / 8);
                assert_eq!(
                    sheet.mask(corner) >> h & 1 == 1,
                    sheet.has_dot(f + ox, r + oy)
                );
            }
        }
    }
}

#[test]
fn red_holes_are_red_stones_and_uncovered_dots_never_blue() {
    // e2 is a dot at sw; a blue stone on e3 hides that dot; a red stone on a1.
    let p = parse(&pos("sw", 1, "p", "-", "a1", "e3", (0, 0), (2, 3)));
    let red = p.red_holes();
    assert!(red & mask("a1 e2 e4") == mask("a1 e2 e4"));
    assert_eq!(red & mask("e3"), 0);
}

// ---------------------------------------------------------------------------------------
// Lines
// ---------------------------------------------------------------------------------------

#[test]
fn lines_in_all_four_directions_are_maximal_runs_of_four_or_more() {
    let mut buf = [0; 40];
    let cases: [(&str, &[&str]); 8] = [
        ("a1 b1 c1 d1", &["a1 b1 c1 d1"]),
        ("c4 d4 e4 f4 g4 h4", &["c4 d4 e4 f4 g4 h4"]),
        ("b2 b3 b4 b5 b6", &["b2 b3 b4 b5 b6"]),
        ("a1 b2 c3 d4 e5 f6 g7 h8", &["a1 b2 c3 d4 e5 f6 g7 h8"]),
        ("h1 g2 f3 e4", &["h1 g2 f3 e4"]),
        ("a1 b1 c1 e1 f1 g1", &[]),
        // No wrapping round the edge of the plate.
        ("g1 h1 a2 b2", &[]),
        ("h3 a4 b5 c6 d7", &["a4 b5 c6 d7"]),
    ];
    for (red, want) in cases {
        let n = lines_of(mask(red), &mut buf);
        let mut got: Vec<u64> = buf[..n].to_vec();
        got.sort();
        let mut want: Vec<u64> = want.iter().map(|l| mask(l)).collect();
        want.sort();
        assert_eq!(got, want, "{red}");
    }
    // A crossing: row 4 and column d and a diagonal through d4.
    let n = lines_of(mask("a4 b4 c4 d4 d1 d2 d3 a1 b2 c3"), &mut buf);
    assert_eq!(n, 3);
    // The anti-diagonal a7-g1 with 7 holes.
    let n = lines_of(mask("a7 b6 c5 d4 e3 f2 g1"), &mut buf);
    assert_eq!((n, buf[0].count_ones()), (1, 7));
}

#[test]
fn lines_count_dots_under_empty_holes() {
    // At sw, s1's dots lie under e2 e3 e4 and e6 e7 e8: a stone on e5 joins them.
    let p = parse(&pos("sw", 1, "c", "-", "e5", "", (0, 0), (3, 3)));
    let lines = p.lines();
    assert_eq!(lines.len(), 2, "column e and rank 5");
    assert!(lines.contains(&mask("e2 e3 e4 e5 e6 e7 e8")));
    assert!(lines.contains(&mask("b5 c5 d5 e5 f5 g5 h5")));
    assert!(p.capture_due());
}

// ---------------------------------------------------------------------------------------
// Captures
// ---------------------------------------------------------------------------------------

#[test]
fn capture_takes_min_of_stones_and_length_minus_three() {
    // One stone in two lines of 7 (dots): min(1, 4) = 1.
    let p = parse(&pos("sw", 1, "c", "-", "e5", "", (0, 0), (3, 3)));
    assert_eq!(moves(&p), ["xe5"]);
    // a3 b3 c3 d3 and the dot under e3: a line of 5 with 4 stones loses 2, never the dot.
    let p = parse(&pos("sw", 1, "c", "-", "a3 b3 c3 d3", "", (0, 0), (3, 3)));
    let got = moves(&p);
    assert_eq!(got.len(), 6, "{got:?}");
    assert!(
        got.iter().all(|m| m.len() == 5 && !m.contains("e3")),
        "{got:?}"
    );
    // Column e of 8 (e1 and e5 stones, six dots): min(2, 5) = 2, both stones; rank 5 is
    // satisfied by e5 too.
    let p = parse(&pos("sw", 1, "c", "-", "e1 e5", "", (0, 0), (3, 3)));
    assert_eq!(moves(&p), ["xe1e5"]);
}

#[test]
fn capture_sets_at_crossings_count_a_stone_for_both_lines() {
    // Rank 1 a1-d1 and file a a1-a4, crossing at a1; each loses exactly 1.
    let p = parse(&pos(
        "sw",
        1,
        "c",
        "-",
        "a1 b1 c1 d1 a2 a3 a4",
        "",
        (0, 0),
        (3, 3),
    ));
    let mut got = moves(&p);
    got.sort();
    let mut want = vec!["xa1".to_string()];
    for x in ["b1", "c1", "d1"] {
        for y in ["a2", "a3", "a4"] {
            want.push(format!("x{x}{y}"));
        }
    }
    want.sort();
    assert_eq!(got, want);
    // a1..e1 with the dot-line e1-e4: e1 must go (column e's only stone), then one of a1..d1.
    let p = parse(&pos(
        "sw",
        1,
        "c",
        "-",
        "a1 b1 c1 d1 e1",
        "",
        (0, 0),
        (3, 3),
    ));
    let mut got = moves(&p);
    got.sort();
    assert_eq!(got, ["xa1e1", "xb1e1", "xc1e1", "xd1e1"]);
}

#[test]
fn decision_contradicting_shares_take_minimal_sets_losing_at_least_the_share() {
    // Column a a1-a4 (len 4, stones a1 a4: share 1); rank 1 a1-d1 holds only a1... make
    // rows 1 and 4 lines whose only stones are a1 and a4: b1 c1 d1 and b4 c4 d4 are dots on
    // a custom sheet. Rank lines need a1 and a4, column a can lose only 1: no exact set.
    let sheet = "9/9/9/9/9/1***5/9/9/1***5";
    let text = format!("{sheet} {} sw 1 c - 20 0 0 3 3 1", plate("a1 a2 a3 a4", ""));
    let p = Position::parse(&text, Rules::default()).unwrap();
    // Column a has 4 stones, share 1; ranks 1 and 4 each need their only stone.
    assert_eq!(moves(&p), ["xa1a4"]);
}

#[test]
fn captured_stones_belong_to_the_mover_and_leave_the_plate() {
    let mut p = parse(&pos(
        "sw",
        2,
        "c",
        "-",
        "a1 b1 c1 d1 a2 a3 a4",
        "",
        (4, 5),
        (3, 3),
    ));
    play(&mut p, "xb1a3");
    assert_eq!(p.stones_owned(Player::Two), 7);
    assert_eq!(p.red_stones(), mask("a1 c1 d1 a2 a4"));
    assert_eq!(p.pool(), 24 - 5 - 4 - 7);
}

// ---------------------------------------------------------------------------------------
// A turn: placement, slide, replay, stops
// ---------------------------------------------------------------------------------------

#[test]
fn start_has_128_moves_and_perft_2_is_11721() {
    let p = parse(START);
    assert_eq!(p, Position::start(Rules::default()));
    assert_eq!(p.to_string(), START);
    assert_eq!(perft(&p, 1), 128);
    assert_eq!(perft(&p, 2), 11721);
    assert_eq!(shove::perft::perft(&p, 2), 11721);
}

#[test]
fn placement_takes_a_pool_stone_and_the_plate_slides_to_the_next_corner() {
    let p = after(START, &["a1"]);
    assert_eq!(p.to_string(), "s1 8/8/8/8/8/8/8/R7 se 2 p - 23 0 0 3 3 1");
    let p = after(START, &["a1", "h8"]);
    assert_eq!(p.to_string(), "s1 7R/8/8/8/8/8/8/R7 ne 1 p - 22 0 0 3 3 2");
    // Occupied holes are not free.
    assert!(!p.is_legal(Move::Place(hole("a1"))) && !p.is_legal(Move::Blue(hole("h8"))));
    assert_eq!(p.count_moves(), 62 * 2);
}

#[test]
fn slide_order_is_sw_se_ne_nw_sw() {
    let p = parse(START);
    let mut corners = vec![p.corner()];
    let mut p = p;
    for m in ["a1", "h8", "a8", "h1"] {
        play(&mut p, m);
        corners.push(p.corner());
    }
    assert_eq!(
        corners,
        [Corner::Sw, Corner::Se, Corner::Ne, Corner::Nw, Corner::Sw]
    );
}

#[test]
fn blue_placement_allowed_and_forbidden() {
    // Allowed at the start: 64 red + 64 blue.
    let p = parse(START);
    assert!(p.is_legal("!e4".parse().unwrap()));
    // Rule 5: after a blue turn, the first placement must be red.
    let p = after(START, &["!e4"]);
    assert_eq!(p.to_string(), "s1 8/8/8/8/4B3/8/8/8 se 2 p n 24 0 0 2 3 1");
    assert_eq!(p.count_moves(), 63);
    assert!(p.moves().iter().all(|m| matches!(m, Move::Place(_))));
    // n is gone once that placement is made.
    let p = after(START, &["!e4", "a1"]);
    assert_eq!(p.flags(), 0);
    assert_eq!(p.count_moves(), 62 * 2);
    // No blue stones left: none offered.
    let p = parse(&pos("sw", 1, "p", "-", "", "a1 b1 c1", (0, 0), (0, 3)));
    assert_eq!(p.count_moves(), 61);
}

#[test]
fn capture_then_replay_with_the_opponent_deciding_the_stop() {
    // d5 at sw lies over (3,4); after the slide to se it lies over (4,4): column d and
    // rank 5 become lines of 7.
    let p = after(START, &["d5"]);
    assert_eq!(p.phase(), Phase::Capture);
    assert_eq!(p.to_string(), "s1 8/8/8/3R4/8/8/8/8 se 1 c - 23 0 0 3 3 1");
    assert_eq!(moves(&p), ["xd5"]);
    let p = after(START, &["d5", "xd5"]);
    assert_eq!(p.to_string(), "s1 8/8/8/8/8/8/8/8 se 2 s r 23 1 0 3 3 1");
    assert_eq!(p.mover(), Player::One);
    assert_eq!(p.count_moves(), 1 + 64);
    // Without blue stones the opponent has no stop: the mover replays at once.
    let text = "s1 8/8/8/3R4/8/8/8/8 se 1 c - 23 0 0 0 3 1";
    let text2 = "s1 8/8/8/3R4/8/8/8/8 se 1 c - 20 0 0 3 3 1";
    assert!(Position::parse(text2, Rules::default()).is_err());
    let blues = "s1 3BBB2/8/8/3R4/8/8/8/8 se 1 c - 23 0 0 3 0 1";
    let p = after(blues, &["xd5"]);
    assert_eq!(
        p.to_string(),
        "s1 3BBB2/8/8/8/8/8/8/8 se 1 p r 23 1 0 3 0 1"
    );
    // Replay placement: blue allowed; then the plate slides (no stop possible).
    assert_eq!(p.count_moves(), 61 * 2);
    let p = after(blues, &["xd5", "a1"]);
    assert_eq!(
        p.to_string(),
        "s1 3BBB2/8/8/8/8/8/8/R7 ne 2 p - 22 1 0 3 0 1"
    );
    let _ = text;
}

#[test]
fn stop_before_the_replay_placement() {
    let p = after(START, &["d5", "xd5", "!h8"]);
    assert_eq!(p.to_string(), "s1 7B/8/8/8/8/8/8/8 se 1 p rb 23 1 0 3 2 1");
    // The mover must place red (the opponent stopped during this placement).
    assert_eq!(p.count_moves(), 63);
    assert!(!p.is_legal("!a1".parse().unwrap()));
    // After the placement the mover decides slide or stay.
    let p = after(START, &["d5", "xd5", "!h8", "a1"]);
    assert_eq!(p.to_string(), "s1 7B/8/8/8/8/8/8/R7 se 1 d rb 22 1 0 3 2 1");
    assert_eq!(moves(&p), ["slide", "stay"]);
    let slid = after(START, &["d5", "xd5", "!h8", "a1", "slide"]);
    assert_eq!(
        slid.to_string(),
        "s1 7B/8/8/8/8/8/8/R7 ne 2 p n 22 1 0 3 2 1"
    );
    let stayed = after(START, &["d5", "xd5", "!h8", "a1", "stay"]);
    assert_eq!(
        stayed.to_string(),
        "s1 7B/8/8/8/8/8/8/R7 se 2 p n 22 1 0 3 2 1"
    );
}

#[test]
fn stop_after_the_replay_placement() {
    let p = after(START, &["d5", "xd5", "pass"]);
    assert_eq!(p.to_string(), "s1 8/8/8/8/8/8/8/8 se 1 p r 23 1 0 3 3 1");
    assert_eq!(p.count_moves(), 128);
    let p = after(START, &["d5", "xd5", "pass", "a1"]);
    assert_eq!(p.to_string(), "s1 8/8/8/8/8/8/8/R7 se 2 a r 22 1 0 3 3 1");
    assert_eq!(p.count_moves(), 1 + 63);
    let p = after(START, &["d5", "xd5", "pass", "a1", "!h8"]);
    assert_eq!(p.to_string(), "s1 7B/8/8/8/8/8/8/R7 se 1 d rb 22 1 0 3 2 1");
    // Passing at `a` gives the normal slide.
    let p = after(START, &["d5", "xd5", "pass", "a1", "pass"]);
    assert_eq!(p.to_string(), "s1 8/8/8/8/8/8/8/R7 ne 2 p - 22 1 0 3 3 1");
}

#[test]
fn turn_ends_after_a_blue_stone_even_with_a_capture() {
    // Stopped before the replay; the mover places d5 again and stays: a capture, then the
    // turn ends (no replay) and the opponent may not place blue first.
    let p = after(START, &["d5", "xd5", "!h8", "d5", "stay"]);
    assert_eq!(p.phase(), Phase::Capture);
    let p = after(START, &["d5", "xd5", "!h8", "d5", "stay", "xd5"]);
    assert_eq!(p.to_string(), "s1 7B/8/8/8/8/8/8/8 se 2 p n 22 2 0 3 2 1");
    // The mover's own blue stone in a replay: the normal slide follows at once (no stop).
    let p = after(START, &["d5", "xd5", "pass", "!h8"]);
    assert_eq!(p.to_string(), "s1 7B/8/8/8/8/8/8/8 ne 2 p n 23 1 0 2 3 1");
    // A mover's blue that completes nothing still ends the turn; captures after a mover's
    // blue in the first placement end it too (here a dot line needs a stone: none).
    let p = after(START, &["!a1"]);
    assert_eq!(
        (p.side(), p.flags()),
        (Player::Two, shove::abraxas::FLAG_NO_BLUE)
    );
}

#[test]
fn empty_pool_moves_a_red_stone_on_the_plate() {
    let text = pos("sw", 1, "p", "-", "a1 c3 h8 a8 h1 d6", "", (9, 9), (3, 3));
    let p = parse(&text);
    assert_eq!(p.pool(), 0);
    assert_eq!(p.count_moves(), 6 * 58 + 58);
    assert_eq!(p.moves().len(), 6 * 58 + 58);
    assert!(p.is_legal("c3e4".parse().unwrap()));
    assert!(!p.is_legal("e4".parse().unwrap()));
    assert!(!p.is_legal("c3a1".parse().unwrap()));
    let q = after(&text, &["c3e4"]);
    assert_eq!(q.red_stones(), mask("a1 e4 h8 a8 h1 d6"));
    assert_eq!(
        (q.pool(), q.corner(), q.side()),
        (0, Corner::Se, Player::Two)
    );
    // A move that completes a line captures as usual: d6 to d5 (over (4,4) after the slide).
    let q = after(&text, &["d6d5"]);
    assert_eq!(moves(&q), ["xd5"]);
}

#[test]
fn win_at_eleven_or_thirteen() {
    let text = pos("sw", 1, "c", "-", "e5", "", (10, 0), (3, 3));
    let p = after(&text, &["xe5"]);
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::One)));
    assert_eq!(p.count_moves(), 0);
    let rules = Rules {
        target: 13,
        ..Rules::default()
    };
    let mut p = Position::parse(&text, rules).unwrap();
    p.play("xe5".parse().unwrap());
    assert_eq!(p.outcome(), None);
    let text = pos("sw", 2, "c", "-", "e5", "", (0, 12), (3, 3));
    let mut p = Position::parse(&text, rules).unwrap();
    p.play("xe5".parse().unwrap());
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::Two)));
    // Already won: no moves.
    let p = parse(&pos("sw", 2, "p", "-", "", "", (11, 2), (3, 3)));
    assert_eq!(
        (p.outcome(), p.count_moves()),
        (Some(Outcome::Win(Player::One)), 0)
    );
}

#[test]
fn two_blue_stones_option() {
    let rules = Rules {
        blue_stones: 2,
        ..Rules::default()
    };
    let p = Position::start(rules);
    assert_eq!(p.to_string(), "s1 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 2 2 1");
    assert!(
        Position::parse(START, rules)
            .unwrap_err()
            .to_string()
            .contains("blue1")
    );
    let mut rules2 = Rules::default();
    assert_eq!(
        Position::set_rule_option(&mut rules2, "AbraxasBlue", "2"),
        Ok(true)
    );
    assert_eq!(rules2, rules);
}

// ---------------------------------------------------------------------------------------
// Notation, position strings, options
// ---------------------------------------------------------------------------------------

#[test]
fn move_notation_round_trips() {
    for text in [
        "e4", "c3e4", "!e4", "pass", "slide", "stay", "xc3d4e5", "xa1h8",
    ] {
        assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
    }
    assert_eq!("xe5c3".parse::<Move>().unwrap().to_string(), "xc3e5");
    for bad in [
        "", "x", "xc3c3", "i1", "a9", "c3c3", "!", "!z1", "passx", "e4e",
    ] {
        assert!(bad.parse::<Move>().is_err(), "{bad}");
    }
}

#[test]
fn position_strings_round_trip_along_random_games() {
    along_random_games(7, 300, |p| {
        let text = p.to_string();
        let q = Position::parse(&text, Rules::default()).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&q, p, "{text}");
    });
    // A custom sheet prints as a map and round-trips.
    let map = "*8/9/9/9/9/9/9/9/8*";
    let text = format!("{map} 8/8/8/8/8/8/8/8 nw 2 p n 24 0 0 3 3 4");
    assert_eq!(parse(&text).to_string(), text);
}

#[test]
fn position_string_rejections_name_the_field() {
    let cases = [
        ("s7 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1", "sheet"),
        ("9/9/9 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1", "sheet"),
        ("s1 8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1", "plate"),
        ("s1 8/8/8/8/8/8/8/9 sw 1 p - 24 0 0 3 3 1", "plate"),
        ("s1 8/8/8/8/8/8/8/X7 sw 1 p - 24 0 0 3 3 1", "plate"),
        ("s1 8/8/8/8/8/8/8/8 up 1 p - 24 0 0 3 3 1", "corner"),
        ("s1 8/8/8/8/8/8/8/8 sw 3 p - 24 0 0 3 3 1", "side"),
        ("s1 8/8/8/8/8/8/8/8 sw 1 q - 24 0 0 3 3 1", "phase"),
        ("s1 8/8/8/8/8/8/8/8 sw 1 p z 24 0 0 3 3 1", "flags"),
        ("s1 8/8/8/8/8/8/8/8 sw 1 p rr 24 0 0 3 3 1", "flags"),
        ("s1 8/8/8/8/8/8/8/8 sw 1 s - 24 0 0 3 3 1", "flags"),
        ("s1 8/8/8/8/8/8/8/8 sw 1 p - 23 0 0 3 3 1", "pool"),
        ("s1 8/8/8/8/8/8/8/8 sw 1 p - x 0 0 3 3 1", "pool"),
        ("s1 8/8/8/8/8/8/8/8 sw 1 p - 24 y 0 3 3 1", "stones1"),
        ("s1 8/8/8/8/8/8/8/8 sw 1 p - 24 0 -1 3 3 1", "stones2"),
        ("s1 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 4 3 1", "blue1"),
        ("s1 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 9 1", "blue2"),
        ("s1 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 0", "fullmove"),
        (
            "s1 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3",
            "11 fields, expected 12",
        ),
        ("s1 8/8/8/8/8/8/8/8 sw 1 c - 24 0 0 3 3 1", "phase"),
        ("s1 8/8/8/8/8/8/8/BBB5 sw 2 s r 24 0 0 3 0 1", "phase"),
        ("", "0 fields, expected 12"),
        ("s1 8/8/8/8 sw 1", "4 fields, expected 12 (sheet plate"),
    ];
    for (text, field) in cases {
        let e = Position::parse(text, Rules::default()).expect_err(text);
        if field.contains("fields") {
            // A string with the wrong number of fields names no one field.
            assert_eq!(e.field, None, "{text}: {e}");
            assert!(e.to_string().starts_with(field), "{e}");
        } else {
            assert_eq!(e.field, Some(field), "{text}: {e}");
            assert!(e.to_string().contains(field), "{e}");
        }
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = StdRng::seed_from_u64(3);
    let alphabet: Vec<char> = "s1234567890 /RBpsadcrbn-*swenx!".chars().collect();
    let base: Vec<char> = START.chars().collect();
    for i in 0..20000 {
        let text: String = if i % 2 == 0 {
            let n = rng.random_range(0..60);
            (0..n)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect()
        } else {
            let mut t = base.clone();
            for _ in 0..rng.random_range(1..4) {
                let k = rng.random_range(0..t.len());
                t[k] = alphabet[rng.random_range(0..alphabet.len())];
            }
            t.into_iter().collect()
        };
        if let Ok(p) = Position::parse(&text, Rules::default()) {
            let _ = p.count_moves();
            let _ = p.diagram();
            let _ = p.evaluate();
            assert_eq!(
                Position::parse(&p.to_string(), Rules::default()).unwrap(),
                p
            );
        }
        let _ = text.parse::<Move>();
        let _ = text.parse::<Sheet>();
    }
}

#[test]
fn zobrist_incremental_equals_recomputed_along_random_games() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut seen = std::collections::HashMap::new();
    for game in 0..300 {
        let rules = Rules {
            sheet: Sheet::builtin(1 + game % 6).unwrap(),
            target: if game % 3 == 0 { 13 } else { 11 },
            blue_stones: if game % 2 == 0 { 3 } else { 2 },
        };
        let mut p = Position::start(rules);
        for _ in 0..400 {
            assert_eq!(p.hash(), p.compute_hash(), "{p}");
            // Equal keys mean equal positions (all but fullmove), on the same sheet: a
            // session may change sheets by a position string alone, and the table and the
            // evaluation cache must not take one sheet's position for another's.
            let text = p.to_string();
            let key = text.rsplit_once(' ').unwrap().0.to_string();
            if let Some(other) = seen.insert(p.hash(), key.clone()) {
                assert_eq!(other, key);
            }
            let ms = p.moves();
            if ms.is_empty() {
                break;
            }
            p.play(ms[rng.random_range(0..ms.len())]);
        }
    }
}

#[test]
fn every_phase_is_reached_in_random_games_and_counts_agree() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut phases = [0usize; 5];
    for _ in 0..100 {
        let mut p = Position::start(Rules::default());
        while p.outcome().is_none() {
            phases[p.phase() as usize] += 1;
            let ms = p.moves();
            assert_eq!(ms.len(), p.count_moves());
            let mut list = MoveList::new();
            Game::legal_moves(&p, &mut list);
            if ms.len() <= shove::game::MAX_MOVES {
                assert_eq!(&list[..], &ms[..]);
            }
            let mut dedup = ms.clone();
            dedup.sort_by_key(|m| m.to_string());
            dedup.dedup();
            assert_eq!(dedup.len(), ms.len());
            // At a stop decision, pass half the time (else a stop is almost certain).
            let mv = if ms[0] == Move::Pass && rng.random_range(0..2) == 0 {
                Move::Pass
            } else {
                ms[rng.random_range(0..ms.len())]
            };
            p.play(mv);
        }
    }
    assert!(phases.iter().all(|&n| n > 0), "{phases:?}");
}

#[test]
fn rule_options_are_validated() {
    let mut r = Rules::default();
    assert_eq!(
        Position::set_rule_option(&mut r, "AbraxasSheet", "s4"),
        Ok(true)
    );
    assert_eq!(r.sheet, Sheet::builtin(4).unwrap());
    let map = "*8/9/9/9/9/9/9/9/8*";
    assert_eq!(
        Position::set_rule_option(&mut r, "abraxassheet", map),
        Ok(true)
    );
    assert_eq!(r.sheet.to_string(), map);
    assert!(Position::set_rule_option(&mut r, "AbraxasSheet", "s0").is_err());
    assert!(Position::set_rule_option(&mut r, "AbraxasSheet", "9/9").is_err());
    assert_eq!(
        Position::set_rule_option(&mut r, "AbraxasTarget", "13"),
        Ok(true)
    );
    assert_eq!(r.target, 13);
    assert!(Position::set_rule_option(&mut r, "AbraxasTarget", "12").is_err());
    assert!(Position::set_rule_option(&mut r, "AbraxasBlue", "4").is_err());
    assert_eq!(Position::set_rule_option(&mut r, "Hash", "16"), Ok(false));
    let lines: Vec<String> = Position::rule_options()
        .iter()
        .map(|option| option.kind.line(option.name, option.default))
        .collect();
    assert_eq!(
        lines,
        [
            "option name AbraxasSheet type string default s1",
            "option name AbraxasTarget type combo default 11 var 11 var 13",
            "option name AbraxasBlue type combo default 3 var 3 var 2",
        ]
    );
    assert!(shove::games::GAME_NAMES.contains(&"abraxas"));
}

#[test]
fn diagram_says_the_sheets_are_our_own() {
    let d = parse(START).diagram();
    assert!(d.contains("NOT the printed"), "{d}");
    assert!(d.contains(START));
}

#[test]
fn material_and_tactical_moves() {
    let p = parse(&pos("sw", 1, "c", "-", "e5", "", (3, 1), (3, 3)));
    assert_eq!(p.material(), 200);
    assert!(p.is_tactical("xe5".parse().unwrap()));
    // Only captures: a placement that completes a line after the slide (d5 here) leads to
    // one, but quiescence must not follow placements.
    let p = parse(START);
    assert!(!p.is_tactical("d5".parse().unwrap()));
    assert!(!p.is_tactical("a1".parse().unwrap()));
    assert!(!p.is_tactical("!d5".parse().unwrap()));
}

// ---------------------------------------------------------------------------------------
// The perft table
// ---------------------------------------------------------------------------------------

struct Entry {
    line: usize,
    text: String,
    rules: Rules,
    counts: Vec<u64>,
}

/// `<position> ; D1 n ; D2 n ; ... [; target=13] [; blue=2]`
fn parse_table(text: &str) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |why: String| format!("line {}: {why}", i + 1);
        let mut fields = line.split(';').map(str::trim);
        let position = fields.next().unwrap_or_default().to_string();
        let mut rules = Rules::default();
        let mut counts = Vec::new();
        for field in fields {
            if let Some(v) = field.strip_prefix("target=") {
                Position::set_rule_option(&mut rules, "AbraxasTarget", v)
                    .map_err(|e| fail(e.into()))?;
                continue;
            }
            if let Some(v) = field.strip_prefix("blue=") {
                Position::set_rule_option(&mut rules, "AbraxasBlue", v)
                    .map_err(|e| fail(e.into()))?;
                continue;
            }
            let parts: Vec<&str> = field.split_whitespace().collect();
            let [depth, count] = parts[..] else {
                return Err(fail(format!("bad field '{field}'")));
            };
            if depth != format!("D{}", counts.len() + 1) {
                return Err(fail(format!("'{depth}': expected D{}", counts.len() + 1)));
            }
            counts.push(
                count
                    .parse::<u64>()
                    .map_err(|_| fail(format!("'{count}' is not a count")))?,
            );
        }
        if counts.is_empty() {
            return Err(fail("no counts".into()));
        }
        Position::parse(&position, rules).map_err(|e| fail(e.to_string()))?;
        out.push(Entry {
            line: i + 1,
            text: position,
            rules,
            counts,
        });
    }
    Ok(out)
}

#[test]
fn perft_table_covers_every_sheet_and_phase_to_depth_3() {
    let text = std::fs::read_to_string(TABLE_PATH).expect("positions/abraxas.perft");
    let entries = parse_table(&text).unwrap();
    assert!(parse_table("x ; D1 1").is_err());
    assert!(parse_table(&format!("{START} ; D2 1")).is_err());
    assert_eq!(entries[0].text, START);
    assert_eq!(entries[0].counts[..2], [128, 11721]);
    for n in 1..=6 {
        assert!(entries.iter().any(|e| {
            e.text
                .starts_with(&format!("s{n} 8/8/8/8/8/8/8/8 sw 1 p - 24"))
        }));
    }
    for phase in ["p", "s", "a", "d", "c"] {
        assert!(
            entries
                .iter()
                .any(|e| e.text.split(' ').nth(4) == Some(phase)
                    && !e.text.contains(" sw 1 p - 24 0 0")),
            "phase {phase}"
        );
    }
    assert!(
        entries
            .iter()
            .any(|e| e.text.split(' ').nth(6) == Some("0")),
        "empty pool"
    );
    let mut failures = Vec::new();
    for e in &entries {
        let p = Position::parse(&e.text, e.rules).unwrap();
        for (d, &want) in e.counts.iter().enumerate().take(3) {
            let got = perft(&p, d as u32 + 1);
            if got != want {
                failures.push(format!(
                    "line {} `{}`: perft({}) = {got}, table {want}",
                    e.line,
                    e.text,
                    d + 1
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Prints table lines for the positions listed here (and random-game positions per phase).
/// `cargo test --release --test rules abraxas_rules::print_perft_table -- --ignored --nocapture`
#[test]
#[ignore = "prints lines for positions/abraxas.perft"]
fn print_perft_table() {
    let mut lines: Vec<(String, String)> = Vec::new();
    for n in 1..=6 {
        lines.push((
            format!("start on sheet s{n}"),
            format!("s{n} 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1"),
        ));
    }
    let mut rng = StdRng::seed_from_u64(5);
    for phase in ["s", "a", "d", "c"] {
        'games: for _ in 0..1000 {
            let mut p = Position::start(Rules::default());
            let mut ply = 0;
            while p.outcome().is_none() {
                if p.phase().letter().to_string() == phase && ply > 6 {
                    lines.push((
                        format!("random play (seed 5), phase {phase}, ply {ply}"),
                        p.to_string(),
                    ));
                    break 'games;
                }
                let ms = p.moves();
                let mv = if ms[0] == Move::Pass && rng.random_range(0..2) == 0 {
                    Move::Pass
                } else {
                    ms[rng.random_range(0..ms.len())]
                };
                p.play(mv);
                ply += 1;
            }
        }
    }
    lines.push((
        "crossing capture (10 choices)".into(),
        pos(
            "sw",
            1,
            "c",
            "-",
            "a1 b1 c1 d1 a2 a3 a4",
            "",
            (0, 0),
            (3, 3),
        ),
    ));
    lines.push((
        "stop before a replay placement".into(),
        after(START, &["d5", "xd5"]).to_string(),
    ));
    lines.push((
        "stop after a replay placement".into(),
        after(START, &["d5", "xd5", "pass", "a1"]).to_string(),
    ));
    lines.push((
        "slide or stay".into(),
        after(START, &["d5", "xd5", "!h8", "d5"]).to_string(),
    ));
    lines.push((
        "empty pool".into(),
        pos("sw", 1, "p", "-", "a1 c3 h8 a8 h1 d6", "", (9, 9), (3, 3)),
    ));
    lines.push((
        "empty pool, no blue stones, replay".into(),
        pos(
            "ne",
            2,
            "p",
            "r",
            "a1 c3 h8 a8 h1 d6 b7 g2",
            "a2 b2 c2 d2 e2 f2",
            (8, 8),
            (0, 0),
        ),
    ));
    for (comment, text) in lines {
        let p = parse(&text);
        let counts: Vec<String> = (1..=3).map(|d| format!("D{d} {}", perft(&p, d))).collect();
        println!("# {comment}\n{text} ; {}", counts.join(" ; "));
    }
}

#[test]
fn where_nothing_is_left_to_resolve_no_move_is_tactical_and_the_game_goes_on() {
    let (mut quiet, mut other) = (0, 0);
    along_random_games(12, 300, |p| {
        let ms = p.moves();
        let searched = ms.iter().any(|&m| p.is_tactical(m));
        if p.nothing_to_resolve() {
            assert!(!ms.is_empty() && p.outcome().is_none(), "{p}");
            assert!(!searched, "{p}");
            quiet += 1;
        } else {
            other += 1;
        }
    });
    assert!(quiet > 100 && other > 100, "{quiet} {other}");
}
