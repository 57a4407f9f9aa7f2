//! Rule-by-rule tests of the Akiba implementation against `docs/rules/engine/akiba.md`.
//!
//! Every test starts from a concrete position string in which the rule under test matters
//! and asserts exact legal move sets, resulting position strings and outcomes. After the
//! rules come the position string (round trips, rejections, fuzzing), the Zobrist key and
//! move parsing. Random games use seeded generators, so every run is the same.

use std::collections::HashMap;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::akiba::{Move, Position, RepeatRule, Rules};
use shove::game::{Game, MoveError, MoveList, Outcome, Player};
use shove::perft::perft;

use crate::fuzz;
use crate::moves;
use moves::{legal, sorted};

const START: &str = "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1";

/// The spec's rules: extra move after a capture, rule 5's push-back ban.
const SPEC: Rules = Rules {
    extra_move: true,
    repeat: RepeatRule::PushBack,
};
const KO: Rules = Rules {
    extra_move: true,
    repeat: RepeatRule::Ko,
};
const NO_EXTRA: Rules = Rules {
    extra_move: false,
    repeat: RepeatRule::PushBack,
};
const NO_EXTRA_KO: Rules = Rules {
    extra_move: false,
    repeat: RepeatRule::Ko,
};
const ALL_RULES: [Rules; 4] = [SPEC, KO, NO_EXTRA, NO_EXTRA_KO];

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

fn parse(text: &str, rules: Rules) -> Position {
    Position::parse(text, rules).unwrap_or_else(|e| panic!("'{text}' ({rules:?}) rejected: {e}"))
}

/// Asserts the exact legal move set of a position string under the given rules.
#[track_caller]
fn assert_legal(text: &str, rules: Rules, expected: &[&str]) {
    assert_eq!(
        legal(&parse(text, rules)),
        sorted(expected),
        "legal moves of '{text}' under {rules:?}"
    );
}

/// Plays a move given as text, which must be legal.
#[track_caller]
fn play(position: &mut Position, text: &str) {
    match position.parse_move(text) {
        Ok(mv) => position.play(mv),
        Err(e) => panic!("{e} in '{position}' (legal: {:?})", legal(position)),
    }
}

/// The position string after playing `moves` from `text` under `rules`.
#[track_caller]
fn after(text: &str, rules: Rules, moves: &[&str]) -> String {
    let mut position = parse(text, rules);
    for mv in moves {
        play(&mut position, mv);
        assert_eq!(position.hash(), position.compute_hash(), "after {mv}");
    }
    position.to_string()
}

/// The `banned` field of a position string.
fn banned_field(text: &str) -> &str {
    text.split(' ').nth(5).expect("seven fields")
}

/// The position string with its `banned` field replaced.
fn with_banned(text: &str, banned: &str) -> String {
    let mut fields: Vec<&str> = text.split(' ').collect();
    fields[5] = banned;
    fields.join(" ")
}

/// The first six fields: everything but the move number, which does not decide the future.
fn without_fullmove(text: &str) -> String {
    text.rsplit_once(' ').expect("seven fields").0.to_string()
}

fn random_move(rng: &mut StdRng, position: &Position) -> Option<Move> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())])
}

/// Plays a seeded random game of at most `max_plies` moves, calling `visit` with each
/// position before a move (and with the final position, move `None`).
fn random_game(
    rng: &mut StdRng,
    rules: Rules,
    max_plies: usize,
    mut visit: impl FnMut(&Position, Option<Move>),
) {
    let mut position = Position::start(rules);
    for _ in 0..max_plies {
        let Some(mv) = random_move(rng, &position) else {
            break;
        };
        visit(&position, Some(mv));
        position.play(mv);
    }
    visit(&position, None);
}

// ---------------------------------------------------------------------------------------
// Start position and the shape of a move
// ---------------------------------------------------------------------------------------

#[test]
fn start_position_has_exactly_eight_moves() {
    let expected = [
        "a7b7", "a7a6", "b7b6", "a6b6", // top-left block
        "g1f1", "g1g2", "g2f2", "f1f2", // bottom-right block
    ];
    for rules in ALL_RULES {
        let start = Position::start(rules);
        assert_eq!(start.to_string(), START);
        assert_eq!(start.to_move(), Player::One);
        assert_eq!(start.outcome(), None);
        assert_eq!(legal(&start), sorted(&expected), "{rules:?}");
        assert_eq!(perft(&start, 1), 8);
        assert_eq!(perft(&start, 2), 64);
        assert_eq!(perft(&start, 3), 640);
    }
    // Black's moves from the start, mirrored: with Black to move.
    assert_legal(
        "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW b 0 0 - - 1",
        SPEC,
        &[
            "g7f7", "g7g6", "f7f6", "g6f6", "a1b1", "a1a2", "a2b2", "b1b2",
        ],
    );
}

#[test]
fn room_behind_is_needed() {
    // c4 is boxed in east-west by b4 (black) and d4 (red): it can only go north or south.
    assert_legal("7/7/7/1BWR3/7/7/7 w 0 0 - - 1", SPEC, &["c4c5", "c4c3"]);
    // With d4 gone, c4 can push b4 west (a4 is empty, b4 is black).
    assert_legal(
        "7/7/7/1BW4/7/7/7 w 0 0 - - 1",
        SPEC,
        &["c4c5", "c4c3", "c4b4"],
    );
    // An own marble behind blocks too: b4 may push east (a4 is empty behind it) but not
    // west (c4 behind); c4 has b4 and d4 behind it east and west.
    assert_legal(
        "7/7/7/1WWR3/7/7/B6 w 0 0 - - 1",
        SPEC,
        &["b4c4", "b4b5", "b4b3", "c4c5", "c4c3"],
    );
}

#[test]
fn room_behind_off_the_board_counts_as_empty() {
    // a4 on the west edge may push east (the square behind is off the board).
    assert_legal(
        "7/7/7/WR5/7/7/6B w 0 0 - - 1",
        SPEC,
        &["a4b4", "a4a5", "a4a3"],
    );
    assert_eq!(
        after("7/7/7/WR5/7/7/6B w 0 0 - - 1", SPEC, &["a4b4"]),
        "7/7/7/1WR4/7/7/6B b 0 0 - - 1"
    );
    // A corner marble: east and south have the edge behind; north and west would push the
    // marble itself off.
    assert_legal("W6/7/7/7/7/7/6B w 0 0 - - 1", SPEC, &["a7b7", "a7a6"]);
    // Black on the other corner.
    assert_legal("W6/7/7/7/7/7/6B b 0 0 - - 1", SPEC, &["g1f1", "g1g2"]);
}

#[test]
fn diagonal_moves_never_exist() {
    // A lone marble in the middle has exactly the four orthogonal pushes.
    assert_legal(
        "7/7/7/3W3/7/7/B6 w 0 0 - - 1",
        SPEC,
        &["d4d5", "d4e4", "d4d3", "d4c4"],
    );
    let start = Position::start(SPEC);
    for text in ["a6b5", "b6a7", "d4e5", "a7b6"] {
        assert!(text.parse::<Move>().is_err(), "{text} parsed");
        assert!(
            matches!(start.parse_move(text), Err(MoveError::Syntax { .. })),
            "{text}"
        );
    }
    // Every move of many random games joins orthogonal neighbours.
    let mut rng = StdRng::seed_from_u64(11);
    for rules in ALL_RULES {
        for _ in 0..50 {
            random_game(&mut rng, rules, 200, |position, _| {
                for text in legal(position) {
                    if text == "pass" {
                        continue;
                    }
                    let b = text.as_bytes();
                    let (df, dr) = (b[2].abs_diff(b[0]), b[3].abs_diff(b[1]));
                    assert_eq!(df + dr, 1, "{text} in {position}");
                }
            });
        }
    }
}

// ---------------------------------------------------------------------------------------
// Rule 2: the line
// ---------------------------------------------------------------------------------------

#[test]
fn lines_of_mixed_colours_move_together() {
    // W R B R on rank 4: the whole line moves one square east.
    assert_eq!(
        after("7/7/7/WRBR3/7/7/7 w 0 0 - - 1", SPEC, &["a4b4"]),
        "7/7/7/1WRBR2/7/7/7 b 0 0 - - 1"
    );
    // The line stops at the first gap: d4 stays where it is.
    assert_eq!(
        after("7/7/7/WR1B3/7/7/7 w 0 0 - - 1", SPEC, &["a4b4"]),
        "7/7/7/1WRB3/7/7/7 b 0 0 - - 1"
    );
    // North along a file: W R B from a1 up.
    assert_eq!(
        after("7/7/7/7/B6/R6/W6 w 0 0 - - 1", SPEC, &["a1a2"]),
        "7/7/7/B6/R6/W6/7 b 0 0 - a4a3 1"
    );
    // Black pushes a line containing white and red marbles south.
    assert_eq!(
        after("3B3/3W3/3R3/3W3/7/7/7 b 0 0 - - 1", SPEC, &["d7d6"]),
        "7/3B3/3W3/3R3/3W3/7/7 w 0 0 - d3d4 2"
    );
}

#[test]
fn a_push_moves_up_to_six_other_marbles() {
    // Five other marbles, no capture: front red, so no ban.
    assert_eq!(
        after("7/7/7/WRBRBR1/7/7/B6 w 0 0 - - 1", SPEC, &["a4b4"]),
        "7/7/7/1WRBRBR/7/7/B6 b 0 0 - - 1"
    );
    // Six other marbles along a rank: the whole row; the front black marble falls off.
    assert_legal(
        "7/7/7/WRBRBRB/7/7/7 w 0 0 - - 1",
        SPEC,
        &["a4b4", "a4a5", "a4a3"],
    );
    assert_eq!(
        after("7/7/7/WRBRBRB/7/7/7 w 0 0 - - 1", SPEC, &["a4b4"]),
        "7/7/7/1WRBRBR/7/7/7 w 0 0 x - 1"
    );
    // Six other marbles along a file, front black.
    assert_eq!(
        after("B6/R6/B6/R6/B6/R6/W6 w 0 0 - - 1", SPEC, &["a1a2"]),
        "R6/B6/R6/B6/R6/W6/7 w 0 0 x - 1"
    );
    // Six other marbles along a file, front red: won.
    assert_eq!(
        after("R6/B6/R6/B6/R6/B6/W6 w 0 0 - - 1", SPEC, &["a1a2"]),
        "B6/R6/B6/R6/B6/W6/7 w 1 0 x - 1"
    );
}

// ---------------------------------------------------------------------------------------
// Rule 3: falling off
// ---------------------------------------------------------------------------------------

#[test]
fn own_marble_is_never_pushed_off() {
    // A full row with white at both ends: neither can push along the row.
    let text = "7/7/7/WRBRBRW/7/7/B6 w 0 0 - - 1";
    assert_legal(text, SPEC, &["a4a5", "a4a3", "g4g5", "g4g3"]);
    let position = parse(text, SPEC);
    for mv in ["a4b4", "g4f4"] {
        assert_eq!(
            position.parse_move(mv),
            Err(MoveError::Illegal { text: mv.into() })
        );
    }
    // The same for Black.
    assert_legal(
        "7/7/7/BRWRWRB/7/7/W6 b 0 0 - - 1",
        SPEC,
        &["a4a5", "a4a3", "g4g5", "g4g3"],
    );
    // A short line ending in an own marble at the edge: e4 may not push f4 and g4 east.
    assert_legal(
        "7/7/7/4WRW/7/7/B6 w 0 0 - - 1",
        SPEC,
        &["e4e5", "e4e3", "g4f4", "g4g5", "g4g3"],
    );
    // The rule holds under every rule option.
    for rules in ALL_RULES {
        assert_legal(text, rules, &["a4a5", "a4a3", "g4g5", "g4g3"]);
    }
}

#[test]
fn red_pushed_off_is_won_by_the_mover() {
    assert_eq!(
        after("7/7/7/5WR/7/7/B6 w 0 0 - - 1", SPEC, &["f4g4"]),
        "7/7/7/6W/7/7/B6 w 1 0 x - 1"
    );
    assert_eq!(
        after("7/7/7/RB5/7/7/6W b 2 3 - - 2", SPEC, &["b4a4"]),
        "7/7/7/B6/7/7/6W b 2 4 x - 2"
    );
    // Counts rise from any value below 7; a red pushed off by a long line too.
    assert_eq!(
        after("R6/B6/W6/7/7/7/6B w 5 1 - - 9", SPEC, &["a5a6"]),
        "B6/W6/7/7/7/7/6B w 6 1 x - 9"
    );
}

#[test]
fn opposing_marble_pushed_off_leaves_the_game() {
    let position = {
        let mut p = parse("7/7/7/5WB/7/7/B6 w 0 0 - - 1", SPEC);
        play(&mut p, "f4g4");
        p
    };
    assert_eq!(position.to_string(), "7/7/7/6W/7/7/B6 w 0 0 x - 1");
    assert_eq!(position.reds_won(Player::One), 0);
    assert_eq!(position.outcome(), None);
    // Black pushes a white marble off southwards.
    assert_eq!(
        after("7/7/7/7/7/B6/W5W b 0 0 - - 3", SPEC, &["a2a1"]),
        "7/7/7/7/7/7/B5W b 0 0 x - 3"
    );
}

// ---------------------------------------------------------------------------------------
// Rule 4: extra move after a capture
// ---------------------------------------------------------------------------------------

#[test]
fn a_capture_gives_an_extra_move_that_may_be_passed() {
    let text = "7/7/7/5WB/7/7/B6 w 0 0 - - 1";
    let mut position = parse(text, SPEC);
    play(&mut position, "f4g4");
    // Same side, `x` flag, `pass` legal alongside the pushes.
    assert_eq!(position.to_string(), "7/7/7/6W/7/7/B6 w 0 0 x - 1");
    assert_eq!(position.to_move(), Player::One);
    assert!(position.in_extra_move());
    assert_eq!(legal(&position), sorted(&["g4g5", "g4g3", "g4f4", "pass"]));
    // `pass` ends the turn and clears the extra state.
    let mut passed = position.clone();
    play(&mut passed, "pass");
    assert_eq!(passed.to_string(), "7/7/7/6W/7/7/B6 b 0 0 - - 1");
    assert_eq!(legal(&passed), sorted(&["a1a2", "a1b1"]));
    // A push in the extra move ends the turn as usual.
    let mut pushed = position.clone();
    play(&mut pushed, "g4f4");
    assert_eq!(pushed.to_string(), "7/7/7/5W1/7/7/B6 b 0 0 - - 1");
    // Passing an extra move with Black ends Black's turn: the move number rises.
    assert_eq!(
        after("7/7/7/6B/7/7/W6 b 1 1 x - 7", SPEC, &["pass"]),
        "7/7/7/6B/7/7/W6 w 1 1 - - 8"
    );
}

#[test]
fn extra_moves_chain_while_capturing() {
    let text = "7/7/5WR/5WR/5WB/7/B6 w 0 0 - - 1";
    let mut position = parse(text, SPEC);
    play(&mut position, "f4g4");
    assert_eq!(position.to_string(), "7/7/5WR/6W/5WB/7/B6 w 1 0 x - 1");
    play(&mut position, "f5g5");
    assert_eq!(position.to_string(), "7/7/6W/6W/5WB/7/B6 w 2 0 x - 1");
    play(&mut position, "f3g3");
    assert_eq!(position.to_string(), "7/7/6W/6W/6W/7/B6 w 2 0 x - 1");
    assert!(legal(&position).contains(&"pass".to_string()));
    // A capture-free push in the extra move ends the turn.
    play(&mut position, "g5f5");
    assert_eq!(position.to_string(), "7/7/5W1/6W/6W/7/B6 b 2 0 - - 1");
}

#[test]
fn pass_is_illegal_at_the_start_of_a_turn() {
    for text in [
        START,
        "7/7/7/6W/7/7/B6 b 0 0 - - 1",
        "W6/7/7/3WB2/7/7/B6 b 0 0 - e4d4 1",
    ] {
        let position = parse(text, SPEC);
        assert!(!legal(&position).contains(&"pass".to_string()), "{text}");
        assert_eq!(
            position.parse_move("pass"),
            Err(MoveError::Illegal {
                text: "pass".into()
            }),
            "{text}"
        );
    }
    // And along random games: pass is legal exactly in extra moves of unfinished games.
    let mut rng = StdRng::seed_from_u64(12);
    for rules in ALL_RULES {
        for _ in 0..50 {
            random_game(&mut rng, rules, 300, |position, _| {
                let has_pass = legal(position).contains(&"pass".to_string());
                assert_eq!(
                    has_pass,
                    position.in_extra_move() && position.outcome().is_none(),
                    "{position} {rules:?}"
                );
                if !rules.extra_move {
                    assert!(!position.in_extra_move(), "{position}");
                }
            });
        }
    }
}

#[test]
fn without_extra_move_a_capture_ends_the_turn() {
    assert_eq!(
        after("7/7/5WR/5WR/7/7/B6 w 0 0 - - 1", NO_EXTRA, &["f4g4"]),
        "7/7/5WR/6W/7/7/B6 b 1 0 - - 1"
    );
    assert_eq!(
        after("7/7/7/5WB/7/7/B6 w 0 0 - - 1", NO_EXTRA_KO, &["f4g4"]),
        "7/7/7/6W/7/7/B6 b 0 0 - - 1"
    );
    // Black's capture ends Black's turn: the move number rises.
    assert_eq!(
        after("7/7/7/5BR/7/7/W6 b 0 0 - - 5", NO_EXTRA, &["f4g4"]),
        "7/7/7/6B/7/7/W6 w 0 1 - - 6"
    );
    // No pass after the capture.
    let mut position = parse("7/7/5WR/5WR/7/7/B6 w 0 0 - - 1", NO_EXTRA);
    play(&mut position, "f4g4");
    assert_legal(&position.to_string(), NO_EXTRA, &["a1a2", "a1b1"]);
    assert!(legal(&position).iter().all(|m| m != "pass"));
    // The seventh red still wins at once.
    let mut position = parse("7/7/7/5WR/7/7/B6 w 6 0 - - 1", NO_EXTRA);
    play(&mut position, "f4g4");
    assert_eq!(position.to_string(), "7/7/7/6W/7/7/B6 b 7 0 - - 1");
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::One)));
    assert!(legal(&position).is_empty());
}

// ---------------------------------------------------------------------------------------
// Rule 5: no immediate push-back
// ---------------------------------------------------------------------------------------

#[test]
fn push_back_ban_after_pushing_a_single_opposing_marble() {
    let text = "W6/7/7/2WB3/7/7/B6 w 0 0 - - 1";
    let mut position = parse(text, SPEC);
    play(&mut position, "c4d4");
    assert_eq!(position.to_string(), "W6/7/7/3WB2/7/7/B6 b 0 0 - e4d4 1");
    assert_eq!(
        position.banned_move().map(|m| m.to_string()),
        Some("e4d4".into())
    );
    // e4d4 is gone; e4's other pushes and a1's stay.
    assert_eq!(legal(&position), sorted(&["e4e5", "e4e3", "a1a2", "a1b1"]));
    assert!(matches!(
        position.parse_move("e4d4"),
        Err(MoveError::Illegal { .. })
    ));
    // Without the ban e4d4 would be legal.
    assert_legal(
        "W6/7/7/3WB2/7/7/B6 b 0 0 - - 1",
        SPEC,
        &["e4e5", "e4e3", "e4d4", "a1a2", "a1b1"],
    );
    // The ban lasts exactly one move: Black plays elsewhere, White elsewhere, and then the
    // push-back is legal; it bans White's push-back of the white marble in turn.
    play(&mut position, "a1a2");
    assert_eq!(position.to_string(), "W6/7/7/3WB2/7/B6/7 w 0 0 - - 2");
    play(&mut position, "a7b7");
    assert_eq!(position.to_string(), "1W5/7/7/3WB2/7/B6/7 b 0 0 - - 2");
    assert!(legal(&position).contains(&"e4d4".to_string()));
    play(&mut position, "e4d4");
    assert_eq!(position.to_string(), "1W5/7/7/2WB3/7/B6/7 w 0 0 - c4d4 3");
    assert_eq!(
        legal(&position),
        sorted(&["c4c5", "c4c3", "b7c7", "b7a7", "b7b6"])
    );
}

#[test]
fn push_back_ban_after_a_line_with_an_opposing_front_marble() {
    // W R B: the front marble is black, so Black may not push d4 back west.
    let text = "7/7/7/WRB4/7/7/6B w 0 0 - - 1";
    let mut position = parse(text, SPEC);
    play(&mut position, "a4b4");
    assert_eq!(position.to_string(), "7/7/7/1WRB3/7/7/6B b 0 0 - d4c4 1");
    assert_eq!(legal(&position), sorted(&["d4d5", "d4d3", "g1g2", "g1f1"]));
    assert_legal(
        "7/7/7/1WRB3/7/7/6B b 0 0 - - 1",
        SPEC,
        &["d4d5", "d4d3", "d4c4", "g1g2", "g1f1"],
    );
    // Along a file: W R B pushed north; the ban is the black marble's push south.
    let mut position = parse("7/7/7/7/B6/R6/W6 w 0 0 - - 1", SPEC);
    play(&mut position, "a1a2");
    assert_eq!(position.to_string(), "7/7/7/B6/R6/W6/7 b 0 0 - a4a3 1");
    assert_eq!(legal(&position), sorted(&["a4b4"]));
    assert_legal("7/7/7/B6/R6/W6/7 b 0 0 - - 1", SPEC, &["a4b4", "a4a3"]);
    // Black pushing, White banned: B W pushed east.
    assert_eq!(
        after("7/7/7/7/7/7/BW2W2 b 0 0 - - 4", SPEC, &["a1b1"]),
        "7/7/7/7/7/7/1BW1W2 w 0 0 - c1b1 5"
    );
    // A capture-free push in an extra move sets the ban as well.
    let mut position = parse("7/7/7/5WR/2WB3/7/B6 w 0 0 - - 1", SPEC);
    play(&mut position, "f4g4");
    assert_eq!(position.to_string(), "7/7/7/6W/2WB3/7/B6 w 1 0 x - 1");
    play(&mut position, "c3d3");
    assert_eq!(position.to_string(), "7/7/7/6W/3WB2/7/B6 b 1 0 - e3d3 1");
    assert_eq!(legal(&position), sorted(&["e3e4", "e3e2", "a1a2", "a1b1"]));
}

#[test]
fn no_ban_when_the_front_marble_is_red_or_own() {
    // Front red.
    assert_eq!(
        after("7/7/7/WR5/7/7/6B w 0 0 - - 1", SPEC, &["a4b4"]),
        "7/7/7/1WR4/7/7/6B b 0 0 - - 1"
    );
    // Front own (alone).
    assert_eq!(
        after("7/7/7/W6/7/7/6B w 0 0 - - 1", SPEC, &["a4b4"]),
        "7/7/7/1W5/7/7/6B b 0 0 - - 1"
    );
    // Front own with an opposing marble inside the line.
    assert_eq!(
        after("7/7/7/WBW4/7/7/6B w 0 0 - - 1", SPEC, &["a4b4"]),
        "7/7/7/1WBW3/7/7/6B b 0 0 - - 1"
    );
    // Front red with an opposing marble inside the line.
    let mut position = parse("7/7/7/WBR4/7/7/6B w 0 0 - - 1", SPEC);
    play(&mut position, "a4b4");
    assert_eq!(position.to_string(), "7/7/7/1WBR3/7/7/6B b 0 0 - - 1");
    assert!(legal(&position).contains(&"c4c5".to_string()));
}

#[test]
fn no_ban_when_the_push_captures() {
    // e4 pushes f4 and g4 black; g4 falls off, f4 black ends on g4.
    let text = "7/7/7/4WBB/7/7/7 w 0 0 - - 1";
    let mut position = parse(text, SPEC);
    play(&mut position, "e4f4");
    assert_eq!(position.to_string(), "7/7/7/5WB/7/7/7 w 0 0 x - 1");
    play(&mut position, "pass");
    assert_eq!(position.to_string(), "7/7/7/5WB/7/7/7 b 0 0 - - 1");
    // Black may push g4 straight back.
    assert!(legal(&position).contains(&"g4f4".to_string()));
    // Without the extra move the capture ends the turn, still without a ban.
    for rules in [NO_EXTRA, NO_EXTRA_KO] {
        let mut position = parse(text, rules);
        play(&mut position, "e4f4");
        assert_eq!(position.to_string(), "7/7/7/5WB/7/7/7 b 0 0 - - 1");
        assert_eq!(legal(&position), sorted(&["g4g5", "g4g3", "g4f4"]));
    }
}

#[test]
fn every_move_replaces_or_clears_the_ban() {
    // Black is banned from e4d4; its only push bans White's push-back of e2 in turn.
    let text = "7/7/7/3WB2/4W2/7/7 b 0 0 - e4d4 1";
    assert_legal(text, SPEC, &["e4e3"]);
    let mut position = parse(text, SPEC);
    play(&mut position, "e4e3");
    assert_eq!(position.to_string(), "7/7/7/3W3/4B2/4W2/7 w 0 0 - e2e3 2");
    // White pushes its own marble: the ban is gone for Black.
    play(&mut position, "d4d5");
    assert_eq!(position.to_string(), "7/7/3W3/7/4B2/4W2/7 b 0 0 - - 2");
    // A capture clears the ban, and so does the pass that follows.
    let text = "7/7/7/3WB2/7/7/5BR b 0 0 - e4d4 1";
    assert_eq!(
        after(text, SPEC, &["f1g1"]),
        "7/7/7/3WB2/7/7/6B b 0 1 x - 1"
    );
    assert_eq!(
        after(text, SPEC, &["f1g1", "pass"]),
        "7/7/7/3WB2/7/7/6B w 0 1 - - 2"
    );
}

// ---------------------------------------------------------------------------------------
// End of the game
// ---------------------------------------------------------------------------------------

#[test]
fn seven_reds_win_at_once_even_in_an_extra_move() {
    let mut position = parse("7/7/7/5WR/7/7/B6 w 6 0 - - 1", SPEC);
    assert_eq!(position.outcome(), None);
    play(&mut position, "f4g4");
    assert_eq!(position.to_string(), "7/7/7/6W/7/7/B6 w 7 0 x - 1");
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::One)));
    // Finished: no pushes and not even `pass`.
    assert!(legal(&position).is_empty());
    assert_eq!(position.count_legal_moves(), 0);
    assert!(position.parse_move("pass").is_err());
    // Black's seventh red.
    let mut position = parse("7/7/7/RB5/7/7/6W b 0 6 - - 2", KO);
    play(&mut position, "b4a4");
    assert_eq!(position.to_string(), "7/7/7/B6/7/7/6W b 0 7 x - 2");
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::Two)));
    assert!(legal(&position).is_empty());
    // A position string with seven reds won is finished.
    let finished = parse("R6/7/7/3W3/7/7/3B3 w 0 7 - - 30", SPEC);
    assert_eq!(finished.outcome(), Some(Outcome::Win(Player::Two)));
    assert!(legal(&finished).is_empty());
}

#[test]
fn capturing_the_last_opposing_marble_wins() {
    let mut position = parse("7/7/7/5WB/7/7/7 w 0 0 - - 1", SPEC);
    assert_eq!(position.outcome(), None);
    play(&mut position, "f4g4");
    assert_eq!(position.to_string(), "7/7/7/6W/7/7/7 w 0 0 x - 1");
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::One)));
    assert!(legal(&position).is_empty());
    // Black takes White's last marble with a long line.
    let mut position = parse("7/7/7/B6/R6/R6/W6 b 1 2 - - 8", NO_EXTRA);
    play(&mut position, "a4a3");
    assert_eq!(position.to_string(), "7/7/7/7/B6/R6/R6 w 1 2 - - 9");
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::Two)));
    assert!(legal(&position).is_empty());
    // A side to move without marbles has lost.
    let lost = parse("7/7/7/6W/7/7/7 b 0 0 - - 1", SPEC);
    assert_eq!(lost.outcome(), Some(Outcome::Win(Player::One)));
    assert!(legal(&lost).is_empty());
}

#[test]
fn no_legal_push_at_the_start_of_a_turn_loses() {
    // d4 is boxed in on all four sides.
    let stuck = "7/7/3R3/2RBR2/3R3/7/W6 b 0 0 - - 1";
    for rules in ALL_RULES {
        let position = parse(stuck, rules);
        assert!(legal(&position).is_empty());
        assert_eq!(
            position.outcome(),
            Some(Outcome::Win(Player::One)),
            "{rules:?}"
        );
    }
    // White's push boxes d4 in: Black has lost.
    let mut position = parse("7/7/3R3/2RB3/3RW2/7/W6 w 0 0 - - 1", SPEC);
    assert_eq!(position.outcome(), None);
    play(&mut position, "e3e4");
    assert_eq!(position.to_string(), "7/7/3R3/2RBW2/3R3/7/W6 b 0 0 - - 1");
    assert!(legal(&position).is_empty());
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::One)));
    // Every push blocked by the own-marble rule: Black's corner marbles have the edge
    // behind along the full border lines, which end in another black corner, and an
    // occupied square behind in the other two directions.
    let own_blocked = "BRRRRRB/R5W/R5W/R5W/W5W/W5W/BRRRRRB b 0 0 - - 1";
    let position = parse(own_blocked, SPEC);
    assert!(legal(&position).is_empty(), "{position}");
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::One)));
    // In an extra move `pass` is always there, so the game goes on.
    let extra = parse("7/7/3R3/2RBR2/3R3/7/W6 b 0 0 x - 1", SPEC);
    assert_eq!(legal(&extra), sorted(&["pass"]));
    assert_eq!(extra.outcome(), None);
}

#[test]
fn fullmove_rises_when_blacks_turn_ends() {
    // White's moves leave it; Black's raise it.
    assert_eq!(after(START, SPEC, &["a7b7"]).rsplit(' ').next(), Some("1"));
    assert_eq!(
        after(START, SPEC, &["a7b7", "a1b1"]).rsplit(' ').next(),
        Some("2")
    );
    // Black's capture with an extra move: unchanged until the extra move is over.
    let mut position = parse("7/7/7/5BR/7/7/W6 b 0 0 - - 5", SPEC);
    play(&mut position, "f4g4");
    assert_eq!(position.to_string(), "7/7/7/6B/7/7/W6 b 0 1 x - 5");
    assert_eq!(position.fullmove(), 5);
    play(&mut position, "pass");
    assert_eq!(position.to_string(), "7/7/7/6B/7/7/W6 w 0 1 - - 6");
    // White's capture with an extra move and pass: unchanged.
    assert_eq!(
        after("7/7/7/5WR/7/7/B6 w 0 0 - - 5", SPEC, &["f4g4", "pass"]),
        "7/7/7/6W/7/7/B6 b 1 0 - - 5"
    );
}

// ---------------------------------------------------------------------------------------
// Repeat rule `ko` and the other rule options
// ---------------------------------------------------------------------------------------

#[test]
fn ko_forbids_recreating_the_board() {
    // The same push-back as rule 5, found as the push that recreates the board.
    let mut position = parse("W6/7/7/2WB3/7/7/B6 w 0 0 - - 1", KO);
    play(&mut position, "c4d4");
    assert_eq!(position.to_string(), "W6/7/7/3WB2/7/7/B6 b 0 0 - e4d4 1");
    assert_eq!(legal(&position), sorted(&["e4e5", "e4e3", "a1a2", "a1b1"]));
    // A longer line.
    assert_eq!(
        after("7/7/7/WRB4/7/7/6B w 0 0 - - 1", KO, &["a4b4"]),
        "7/7/7/1WRB3/7/7/6B b 0 0 - d4c4 1"
    );
    // Front red: Black cannot recreate the board, nothing is banned.
    assert_eq!(
        after("7/7/7/WR5/7/7/6B w 0 0 - - 1", KO, &["a4b4"]),
        "7/7/7/1WR4/7/7/6B b 0 0 - - 1"
    );
    // A parsed ban under ko forbids exactly the push that recreates the board.
    assert_legal(
        "1W5/7/7/2WB3/7/B6/7 w 0 0 - c4d4 3",
        KO,
        &["c4c5", "c4c3", "b7c7", "b7a7", "b7b6"],
    );
    // Along random games under ko: the excluded pushes are exactly those whose result has
    // the board as it stood before the opponent's last capture-free push.
    let mut rng = StdRng::seed_from_u64(13);
    for rules in [KO, NO_EXTRA_KO] {
        for _ in 0..60 {
            let mut previous: Option<(String, bool)> = None;
            random_game(&mut rng, rules, 200, |position, mv| {
                let text = position.to_string();
                let board = |s: &str| s.split(' ').next().unwrap().to_string();
                let unrestricted = parse(&with_banned(&text, "-"), rules);
                let mut expected = legal(&unrestricted);
                if let Some((before, true)) = &previous {
                    expected.retain(|m| {
                        let mut child = unrestricted.clone();
                        play(&mut child, m);
                        board(&child.to_string()) != *before
                    });
                }
                assert_eq!(legal(position), expected, "{text} {rules:?}");
                previous = mv.map(|mv| {
                    let capture_free = !position.is_capture(mv) && !mv.is_pass();
                    (board(&text), capture_free)
                });
            });
        }
    }
}

/// What the position string looks like under `ko` given the one under `pushback`: the same,
/// but a banned push that is not a push at all in the position is not shown.
fn expected_ko_string(push_back_text: &str, rules: Rules) -> String {
    let banned = banned_field(push_back_text);
    if banned == "-" {
        return push_back_text.to_string();
    }
    let unrestricted = parse(&with_banned(push_back_text, "-"), rules);
    if legal(&unrestricted).iter().any(|m| m == banned) {
        push_back_text.to_string()
    } else {
        with_banned(push_back_text, "-")
    }
}

#[test]
fn ko_and_push_back_give_identical_legal_moves() {
    let mut rng = StdRng::seed_from_u64(14);
    let mut bans = 0;
    for extra_move in [true, false] {
        let push_back = Rules {
            extra_move,
            repeat: RepeatRule::PushBack,
        };
        let ko = Rules {
            extra_move,
            repeat: RepeatRule::Ko,
        };
        for _ in 0..150 {
            let mut a = Position::start(push_back);
            let mut b = Position::start(ko);
            for _ in 0..300 {
                let moves = legal(&a);
                assert_eq!(moves, legal(&b), "{a} / {b}");
                assert_eq!(a.outcome(), b.outcome(), "{a}");
                assert_eq!(a.to_move(), b.to_move());
                let text = a.to_string();
                assert_eq!(b.to_string(), expected_ko_string(&text, push_back));
                if banned_field(&text) != "-" {
                    bans += 1;
                }
                if moves.is_empty() {
                    break;
                }
                let mv = &moves[rng.random_range(0..moves.len())];
                play(&mut a, mv);
                play(&mut b, mv);
            }
        }
    }
    assert!(bans > 1000, "only {bans} positions with a ban");
}

#[test]
fn rules_change_nothing_else() {
    // Capture-free play is identical under all four rule sets, move sets and strings alike
    // (apart from the ko display of a push-back that is no push).
    let mut rng = StdRng::seed_from_u64(15);
    for _ in 0..100 {
        let mut positions: Vec<Position> = ALL_RULES.iter().map(|&r| Position::start(r)).collect();
        for _ in 0..200 {
            let moves = legal(&positions[0]);
            let texts: Vec<String> = positions.iter().map(|p| p.to_string()).collect();
            for (p, t) in positions.iter().zip(&texts) {
                assert_eq!(legal(p), moves, "{t}");
                assert_eq!(p.outcome(), positions[0].outcome());
                let expected = match p.rules().repeat {
                    RepeatRule::PushBack => texts[0].clone(),
                    RepeatRule::Ko => expected_ko_string(&texts[0], p.rules()),
                };
                assert_eq!(*t, expected, "{:?}", p.rules());
            }
            let quiet: Vec<&String> = moves
                .iter()
                .filter(|m| {
                    let mv: Move = m.parse().unwrap();
                    !positions[0].is_capture(mv)
                })
                .collect();
            if quiet.is_empty() {
                break;
            }
            let mv = quiet[rng.random_range(0..quiet.len())].clone();
            for p in &mut positions {
                play(p, &mv);
            }
        }
    }
    // A capture differs only in who moves next, the `x` flag and the move number.
    let text = "7/7/7/5BR/7/7/W6 b 0 0 - - 5";
    for rules in ALL_RULES {
        let expected = if rules.extra_move {
            "7/7/7/6B/7/7/W6 b 0 1 x - 5"
        } else {
            "7/7/7/6B/7/7/W6 w 0 1 - - 6"
        };
        assert_eq!(after(text, rules, &["f4g4"]), expected, "{rules:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Position strings
// ---------------------------------------------------------------------------------------

/// Canonical strings: parse then print gives them back unchanged, under every rule set.
const ROUND_TRIP: &[&str] = &[
    START,
    "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW b 0 0 - - 1",
    "W6/7/7/3WB2/7/7/B6 b 0 0 - e4d4 1",
    "1W5/7/7/2WB3/7/B6/7 w 0 0 - c4d4 3",
    "7/7/7/B6/R6/W6/7 b 0 0 - a4a3 1",
    "7/7/7/6W/7/7/B6 w 1 0 x - 1",
    "7/7/6W/6W/6W/7/B6 w 2 0 x - 1",
    "7/7/3R3/2RBR2/3R3/7/W6 b 0 0 - - 1",
    "7/7/7/6W/7/7/7 b 0 0 - - 1",
    "B6/7/7/7/7/7/7 w 0 0 - - 1",
    "R5R/7/7/3W3/7/7/3B3 b 6 5 - - 42",
    "WWWWWWW/W6/7/7/7/6B/BBBBBBB w 0 0 - - 100",
    "7/7/7/WRBRBRB/7/7/7 w 0 0 - - 1",
    "3R3/7/7/7/7/7/W5B b 3 2 x - 9",
    "BW5/7/7/7/7/7/5WB w 0 7 - - 4294967295",
    "RRRRRRR/RRRRRR1/7/W6/7/7/6B w 0 0 - - 12",
    "7/7/4W2/4B2/7/7/7 w 0 0 - e5e4 2",
];

#[test]
fn position_strings_round_trip() {
    for rules in ALL_RULES {
        for &text in ROUND_TRIP {
            let position = parse(text, rules);
            assert_eq!(position.to_string(), text, "{rules:?}");
            assert_eq!(parse(&position.to_string(), rules), position);
            assert_eq!(position.hash(), position.compute_hash(), "{text}");
        }
    }
    // Non-canonical but valid input prints canonically.
    for (text, canonical) in [
        (
            "7/7/7/1111111/7/7/B5W w 0 0 - - 1",
            "7/7/7/7/7/7/B5W w 0 0 - - 1",
        ),
        (
            "7/7/7/34/7/7/B5W w 0 0 - - 1",
            "7/7/7/7/7/7/B5W w 0 0 - - 1",
        ),
        (
            "W6/7/7/3WB2/7/7/B6 b 0 0 - E4D4 1",
            "W6/7/7/3WB2/7/7/B6 b 0 0 - e4d4 1",
        ),
    ] {
        assert_eq!(parse(text, SPEC).to_string(), canonical);
    }
}

#[test]
fn move_input_is_case_insensitive_and_output_lower_case() {
    let start = Position::start(SPEC);
    for text in ["A6B6", "a6B6", "A6b6", "a6b6"] {
        let mv = start.parse_move(text).unwrap();
        assert_eq!(mv.to_string(), "a6b6");
        let mv: Move = text.parse().unwrap();
        assert_eq!(mv.to_string(), "a6b6");
    }
    let extra = parse("7/7/7/6W/7/7/B6 w 0 0 x - 1", SPEC);
    for text in ["pass", "PASS", "Pass"] {
        assert_eq!(extra.parse_move(text).unwrap().to_string(), "pass");
    }
    let mut position = start.clone();
    play(&mut position, "G1G2");
    assert_eq!(
        position.to_string(),
        "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR1W/BB1R1WW/BB3W1 b 0 0 - - 1"
    );
}

#[track_caller]
fn assert_rejected(text: &str, words: &[&str]) {
    for rules in ALL_RULES {
        match Position::parse(text, rules) {
            Ok(p) => panic!("'{text}' accepted as '{p}'"),
            Err(e) => {
                let message = e.to_string();
                for word in words {
                    assert!(
                        message.contains(word),
                        "'{text}': error '{message}' does not name '{word}'"
                    );
                }
            }
        }
    }
}

#[test]
fn bad_position_strings_are_rejected_naming_the_field() {
    let board = "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW";
    // Wrong number of fields.
    assert_rejected("", &["fields"]);
    assert_rejected(board, &["fields"]);
    assert_rejected(&format!("{board} w 0 0 - -"), &["fields"]);
    assert_rejected(&format!("{board} w 0 0 - - 1 1"), &["fields"]);
    // Ranks not adding up to 7 squares, or not 7 ranks.
    assert_rejected(
        "WW3BB/WW1R1BB/2RRR2/1RRRRR2/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1",
        &["board"],
    );
    assert_rejected(
        "WW2BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1",
        &["board"],
    );
    assert_rejected("7/7/7/7/7/7/W5BR w 0 0 - - 1", &["board"]);
    assert_rejected("7/7/7/7/7/W5B w 0 0 - - 1", &["board"]);
    assert_rejected("7/7/7/7/7/7/7/W5B w 0 0 - - 1", &["board"]);
    assert_rejected("7/7/7//7/7/W5B w 0 0 - - 1", &["board"]);
    // Unknown characters.
    for bad in ["X", "w", "0", "8", "9", ".", "-"] {
        assert_rejected(&format!("7/7/7/{bad}6/7/7/W5B w 0 0 - - 1"), &["board"]);
    }
    // More than 8 marbles of a colour.
    assert_rejected("WWWWWWW/WW5/7/7/7/7/B6 w 0 0 - - 1", &["board", "white"]);
    assert_rejected("BBBBBBB/BB5/7/7/7/7/W6 w 0 0 - - 1", &["board", "black"]);
    // More than 13 reds on the board plus won.
    assert_rejected(&format!("{board} w 1 0 - - 1"), &["reds", "13"]);
    assert_rejected(&format!("{board} b 0 1 - - 1"), &["reds", "13"]);
    assert_rejected("RRRRRRR/RRRRRRR/7/7/7/7/W5B w 0 0 - - 1", &["reds"]);
    assert_rejected("7/7/7/7/7/7/W5B w 7 7 - - 1", &["reds"]);
    // Side.
    for bad in ["x", "W", "B", "white", "-"] {
        assert_rejected(&format!("{board} {bad} 0 0 - - 1"), &["side"]);
    }
    // Counts above 7 or not counts.
    for bad in ["8", "9", "255", "256", "-1", "+1", "x", "-"] {
        assert_rejected(&format!("7/7/7/7/7/7/W5B w {bad} 0 - - 1"), &["white reds"]);
        assert_rejected(&format!("7/7/7/7/7/7/W5B w 0 {bad} - - 1"), &["black reds"]);
    }
    // Extra.
    for bad in ["X", "y", "0", "xx"] {
        assert_rejected(&format!("{board} w 0 0 {bad} - 1"), &["extra"]);
    }
    // Banned: not on a marble of the side to move, pass, garbage, diagonal, with `x`.
    for bad in [
        "a1a2", "g7f7", "c7d7", "d4d5", "pass", "PASS", "zz", "a7b6", "a7a9", "a7",
    ] {
        assert_rejected(&format!("{board} w 0 0 - {bad} 1"), &["banned"]);
    }
    assert_rejected(&format!("{board} b 0 0 - a7b7 1"), &["banned"]);
    assert_rejected(&format!("{board} w 0 0 x a7b7 1"), &["banned"]);
    assert_rejected("7/7/7/6W/7/7/B6 w 1 0 x g4f4 1", &["banned"]);
    // Fullmove.
    for bad in ["0", "-1", "+1", "x", "-", "4294967296", "1.0"] {
        assert_rejected(&format!("{board} w 0 0 - - {bad}"), &["fullmove"]);
    }
}

/// Characters the fuzzer builds strings from: everything the format uses and some more.
const FUZZ_CHARS: &[char] = &[
    'W', 'B', 'R', 'w', 'b', 'r', 'x', 'X', '-', '+', '/', ' ', '0', '1', '2', '3', '4', '5', '6',
    '7', '8', '9', 'a', 'c', 'd', 'e', 'g', 'h', 'p', 's', 'é', '\t', '.',
];

fn mutate(rng: &mut StdRng, text: &str) -> String {
    fuzz::mutate(rng, text, FUZZ_CHARS)
}

/// A random orthogonal step such as `d4d5` (sometimes off the board, so not a move).
fn random_step(rng: &mut StdRng) -> String {
    let (file, rank) = (rng.random_range(0..7i8), rng.random_range(0..7i8));
    let (df, dr) = [(0, 1), (1, 0), (0, -1), (-1, 0)][rng.random_range(0..4)];
    let name = |f: i8, r: i8| format!("{}{}", (b'a' as i8 + f) as u8 as char, r + 1);
    format!("{}{}", name(file, rank), name(file + df, rank + dr))
}

/// Replaces one field of a position string with a plausible (often valid) value, or swaps,
/// recolours or re-spaces squares of the board.
fn mutate_field(rng: &mut StdRng, text: &str) -> String {
    let mut fields: Vec<String> = text.split(' ').map(str::to_string).collect();
    if fields.len() != 7 {
        return mutate(rng, text);
    }
    let pick = |rng: &mut StdRng, options: &[&str]| {
        options[rng.random_range(0..options.len())].to_string()
    };
    let i = rng.random_range(0..7);
    fields[i] = match i {
        0 => {
            let mut board: Vec<char> = fields[0].chars().collect();
            for _ in 0..rng.random_range(1..3) {
                let j = rng.random_range(0..board.len());
                if board[j].is_ascii_uppercase() || rng.random_range(0..4) == 0 {
                    board[j] = ['W', 'B', 'R', '1'][rng.random_range(0..4)];
                } else {
                    let k = rng.random_range(0..board.len());
                    board.swap(j, k);
                }
            }
            board.into_iter().collect()
        }
        1 => pick(rng, &["w", "b", "w", "b", "W", "x", ""]),
        2 | 3 => match rng.random_range(0..12) {
            10 => pick(rng, &["+1", "-1", "07", "x", ""]),
            n => n.to_string(),
        },
        4 => pick(rng, &["x", "-", "x", "-", "X", "--"]),
        5 => match rng.random_range(0..6) {
            0 => "-".to_string(),
            1 => random_move_text(rng),
            _ => random_step(rng),
        },
        _ => match rng.random_range(0..8) {
            0 => pick(rng, &["0", "4294967295", "4294967296", "+3", "-1", "01"]),
            _ => rng.random_range(1..1000).to_string(),
        },
    };
    fields.join(" ")
}

fn random_text(rng: &mut StdRng, max_len: usize) -> String {
    fuzz::random_text(rng, max_len, FUZZ_CHARS)
}

/// A random move text: a real push, a mutated one, pass in any case, or noise.
fn random_move_text(rng: &mut StdRng) -> String {
    let files = "abcdefghABCDEFGH";
    let square = |rng: &mut StdRng| {
        format!(
            "{}{}",
            files.as_bytes()[rng.random_range(0..files.len())] as char,
            rng.random_range(0..9)
        )
    };
    match rng.random_range(0..5) {
        0 => format!("{}{}", square(rng), square(rng)),
        1 => ["pass", "PASS", "Pass", "pas", "passs", " pass"][rng.random_range(0..6)].into(),
        2 => random_text(rng, 6),
        3 => mutate(rng, "d4d5"),
        _ => square(rng),
    }
}

#[test]
fn fuzzed_position_strings_and_moves_never_panic() {
    let mut rng = StdRng::seed_from_u64(1);
    // Seeds: the round-trip strings and positions from random games.
    let mut seeds: Vec<String> = ROUND_TRIP.iter().map(|s| s.to_string()).collect();
    for _ in 0..40 {
        let mut ply = 0;
        random_game(&mut rng, SPEC, 120, |p, _| {
            ply += 1;
            if ply % 10 == 0 {
                seeds.push(p.to_string());
            }
        });
    }
    let (mut accepted, mut rejected) = (0, 0);
    for i in 0..20_000 {
        let rules = ALL_RULES[i % 4];
        let seed = &seeds[rng.random_range(0..seeds.len())];
        let text = match rng.random_range(0..10) {
            0 => random_text(&mut rng, 60),
            1..5 => mutate(&mut rng, seed),
            _ => mutate_field(&mut rng, seed),
        };
        let position = match Position::parse(&text, rules) {
            Ok(p) => p,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                rejected += 1;
                continue;
            }
        };
        accepted += 1;
        let printed = position.to_string();
        let reparsed = Position::parse(&printed, rules)
            .unwrap_or_else(|e| panic!("'{text}' printed as '{printed}', rejected: {e}"));
        assert_eq!(reparsed.to_string(), printed, "from '{text}'");
        assert_eq!(
            legal(&reparsed),
            legal(&position),
            "'{text}' -> '{printed}'"
        );
        assert_eq!(reparsed.outcome(), position.outcome(), "'{text}'");
        assert_eq!(position.hash(), position.compute_hash(), "'{text}'");
        if rules.repeat == RepeatRule::PushBack {
            assert_eq!(reparsed, position, "'{text}' -> '{printed}'");
            assert_eq!(reparsed.hash(), position.hash(), "'{text}'");
        }
        let _ = position.diagram();
        // Move texts, then a few random moves.
        let moves = legal(&position);
        for _ in 0..3 {
            let mv_text = random_move_text(&mut rng);
            match position.parse_move(&mv_text) {
                Ok(mv) => {
                    assert!(moves.contains(&mv.to_string()), "{mv_text} in {printed}");
                    assert_eq!(mv.to_string(), mv_text.to_ascii_lowercase());
                }
                Err(MoveError::Illegal { text }) => {
                    assert_eq!(text, mv_text);
                    assert!(mv_text.parse::<Move>().is_ok());
                }
                Err(MoveError::Syntax { text, reason }) => {
                    assert_eq!(text, mv_text);
                    assert!(!reason.to_string().is_empty());
                    assert!(mv_text.parse::<Move>().is_err());
                }
            }
        }
        let mut p = position.clone();
        for _ in 0..4 {
            let Some(mv) = random_move(&mut rng, &p) else {
                break;
            };
            p.play(mv);
            assert_eq!(p.hash(), p.compute_hash(), "after {mv} from '{printed}'");
            let s = p.to_string();
            assert_eq!(parse(&s, rules).to_string(), s);
        }
    }
    assert!(
        accepted > 2_000 && rejected > 2_000,
        "{accepted} accepted, {rejected} rejected"
    );
}

// ---------------------------------------------------------------------------------------
// Zobrist keys
// ---------------------------------------------------------------------------------------

#[test]
fn incremental_hash_matches_scratch_along_random_games() {
    let mut rng = StdRng::seed_from_u64(21);
    for rules in ALL_RULES {
        let mut plies = 0;
        for _ in 0..500 {
            random_game(&mut rng, rules, 300, |position, _| {
                plies += 1;
                assert_eq!(position.hash(), position.compute_hash(), "{position}");
                assert_eq!(Game::hash(position), position.compute_hash());
            });
        }
        assert!(plies > 20_000, "{rules:?}: {plies}");
    }
}

#[test]
fn transpositions_have_equal_hashes() {
    // The same position reached by different move orders.
    for rules in ALL_RULES {
        let orders: [&[&str]; 3] = [
            &["a7b7", "a1b1", "g1g2", "g7f7"],
            &["g1g2", "a1b1", "a7b7", "g7f7"],
            &["g1g2", "g7f7", "a7b7", "a1b1"],
        ];
        let positions: Vec<Position> = orders
            .iter()
            .map(|moves| {
                let mut p = Position::start(rules);
                for mv in *moves {
                    play(&mut p, mv);
                }
                p
            })
            .collect();
        // The first two end with the same push from the same board.
        assert_eq!(positions[0].to_string(), positions[1].to_string());
        assert_eq!(positions[0], positions[1]);
        assert_eq!(positions[0].hash(), positions[1].hash(), "{rules:?}");
        if rules.repeat == RepeatRule::PushBack {
            assert_eq!(positions[0], positions[2]);
            assert_eq!(positions[0].hash(), positions[2].hash(), "{rules:?}");
        }
    }
    // Along random games: positions equal as values have equal hashes, and under the
    // push-back rule so do positions with the same string (move number aside).
    let mut rng = StdRng::seed_from_u64(22);
    for rules in ALL_RULES {
        let mut seen: HashMap<String, Vec<Position>> = HashMap::new();
        let mut transpositions = 0;
        for _ in 0..500 {
            random_game(&mut rng, rules, 60, |position, _| {
                let key = without_fullmove(&position.to_string());
                let list = seen.entry(key).or_default();
                for other in list.iter() {
                    if rules.repeat == RepeatRule::PushBack || other == position {
                        transpositions += 1;
                        assert_eq!(other.hash(), position.hash(), "{position}");
                    }
                }
                if list.len() < 4 && !list.contains(position) {
                    list.push(position.clone());
                }
            });
        }
        assert!(transpositions > 100, "{rules:?}: {transpositions}");
    }
}

#[test]
fn ko_positions_with_equal_strings_have_equal_hashes() {
    // After a push whose front marble is red, nothing is banned, yet the stored ko board
    // enters the hash: the parsed string has another hash than the played position.
    let mut played = parse("7/7/7/WR5/7/7/6B w 0 0 - - 1", KO);
    play(&mut played, "a4b4");
    let text = played.to_string();
    assert_eq!(text, "7/7/7/1WR4/7/7/6B b 0 0 - - 1");
    let parsed = parse(&text, KO);
    assert_eq!(played.hash(), parsed.hash(), "{text}");
    assert_eq!(played, parsed);
    // The same position reached by two move orders that end in different pushes (none of
    // them sets a ban: every front marble is the mover's own).
    let mut a = Position::start(KO);
    let mut b = Position::start(KO);
    for mv in ["a7b7", "a1b1", "g1g2", "g7f7"] {
        play(&mut a, mv);
    }
    for mv in ["g1g2", "g7f7", "a7b7", "a1b1"] {
        play(&mut b, mv);
    }
    assert_eq!(a.to_string(), b.to_string());
    assert_eq!(a.hash(), b.hash(), "{a}");
    assert_eq!(a, b);
    // And along random games.
    let mut rng = StdRng::seed_from_u64(23);
    for rules in [KO, NO_EXTRA_KO] {
        for _ in 0..200 {
            random_game(&mut rng, rules, 100, |position, _| {
                let text = position.to_string();
                assert_eq!(parse(&text, rules).hash(), position.hash(), "{text}");
            });
        }
    }
}

#[test]
fn hash_differs_when_only_the_state_differs() {
    let base = "W6/7/7/3WB2/7/7/B6 b 2 3 - - 4";
    let variants = [
        base,
        "W6/7/7/3WB2/7/7/B6 w 2 3 - - 4",    // side
        "W6/7/7/3WB2/7/7/B6 b 2 3 x - 4",    // extra
        "W6/7/7/3WB2/7/7/B6 b 2 3 - e4d4 4", // banned
        "W6/7/7/3WB2/7/7/B6 b 2 3 - e4e3 4", // another banned move
        "W6/7/7/3WB2/7/7/B6 b 3 3 - - 4",    // white reds
        "W6/7/7/3WB2/7/7/B6 b 2 4 - - 4",    // black reds
        "W6/7/7/3WB2/7/7/B6 b 3 2 - - 4",    // red counts swapped
        "W6/7/7/3WB2/7/7/B6 b 0 0 - - 4",    // no reds
        "W6/7/7/3WB2/7/7/B6 w 2 3 x - 4",    // side and extra
        "W6/7/7/3BW2/7/7/B6 b 2 3 - - 4",    // board
    ];
    for rules in ALL_RULES {
        let hashes: Vec<u64> = variants.iter().map(|t| parse(t, rules).hash()).collect();
        for i in 0..hashes.len() {
            for j in 0..i {
                assert_ne!(
                    hashes[i], hashes[j],
                    "'{}' and '{}' under {rules:?}",
                    variants[i], variants[j]
                );
            }
        }
        // The move number is not part of the key.
        assert_eq!(
            parse(base, rules).hash(),
            parse("W6/7/7/3WB2/7/7/B6 b 2 3 - - 99", rules).hash()
        );
    }
}

// ---------------------------------------------------------------------------------------
// Move parsing
// ---------------------------------------------------------------------------------------

#[test]
fn parse_move_rejects_illegal_moves_and_garbage() {
    let start = Position::start(SPEC);
    // Well-formed but illegal: opponent's marble, empty square, red marble, own marble off,
    // no room behind, pass at the start of a turn.
    for text in [
        "a1a2", "g7f7", "c7d7", "d4d5", "a6a7", "b6c6", "pass", "b7a7", "c4c5",
    ] {
        assert_eq!(
            start.parse_move(text),
            Err(MoveError::Illegal { text: text.into() }),
            "{text}"
        );
    }
    // Not moves at all.
    for text in [
        "",
        " ",
        "a",
        "a6",
        "a6b",
        "a6b6 ",
        " a6b6",
        "a6b6x",
        "a6-b6",
        "a6a6",
        "a6c6",
        "a6b5",
        "h1h2",
        "a0a1",
        "a7a8",
        "i1i2",
        "66b6",
        "ab66",
        "pas",
        "passs",
        "pass ",
        "é6b6",
        "ａ6b6",
        "a6\u{0}b",
        "\u{301}a6b",
    ] {
        match start.parse_move(text) {
            Err(MoveError::Syntax { text: t, reason }) => {
                assert_eq!(t, text);
                assert!(!reason.to_string().is_empty());
                let message = MoveError::Syntax { text: t, reason }.to_string();
                assert!(message.contains("bad move"), "{message}");
            }
            other => panic!("'{text}': {other:?}"),
        }
    }
    // After the game is over every move is illegal.
    let over = parse("7/7/7/6W/7/7/B6 w 7 0 x - 1", SPEC);
    for text in ["g4g5", "g4f4", "pass"] {
        assert_eq!(
            over.parse_move(text),
            Err(MoveError::Illegal { text: text.into() })
        );
    }
    // Legal moves come back as themselves.
    for text in legal(&start) {
        assert_eq!(start.parse_move(&text).unwrap().to_string(), text);
    }
}
