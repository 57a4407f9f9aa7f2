//! Rule-by-rule tests of the Offboard implementation against `docs/rules/engine/offboard.md`.
//!
//! Every rule test starts from a concrete position in which the rule matters and asserts
//! exact legal moves, resulting position strings and outcomes. Positions are written with
//! [`board`], which lists each colour's cells, so the intent stays readable; literal strings
//! check the board field itself. After the rules come the position string (round trips,
//! rejections, fuzzing), the Zobrist key, the `OffboardSectors` option and the perft table
//! `positions/offboard.perft`. Random games use seeded generators, so every run is the same.

use shove::evaluation::Evaluation;
use shove::search_hints::SearchHints;
use std::collections::HashMap;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::game::{Game, MoveError, MoveList, Outcome, Player};
use shove::offboard::{Cell, Move, Position, Rules};
use shove::perft::perft;

use crate::fuzz;
use crate::moves;
use moves::{legal, sorted};

const START: &str = "RR1YY/R1RY1Y/1RR1YY1/8/9/8/1RR1YY1/R1RY1Y/RR1YY r 0 0 ............ - 1";
const TABLE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/offboard.perft");

/// The spec's default sector values.
const DEFAULT: Rules = Rules {
    sectors: [1, 2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1],
};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// The board field with red marbles on the `red` cells and yellow ones on the `yellow`
/// cells (space-separated cell names).
fn board(red: &str, yellow: &str) -> String {
    let cells = |list: &str| -> Vec<Cell> {
        list.split_whitespace()
            .map(|name| name.parse().expect("a cell name"))
            .collect()
    };
    let (red, yellow) = (cells(red), cells(yellow));
    let mut rows = Vec::new();
    for row in (0..9i8).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for cell in (1..=9).filter_map(|number| Cell::new(row, number)) {
            let marble = if red.contains(&cell) {
                'R'
            } else if yellow.contains(&cell) {
                'Y'
            } else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                text += &empty.to_string();
                empty = 0;
            }
            text.push(marble);
        }
        if empty > 0 {
            text += &empty.to_string();
        }
        rows.push(text);
    }
    rows.join("/")
}

/// A position string: the board from [`board`] and the other six fields in `rest`.
fn pos(red: &str, yellow: &str, rest: &str) -> String {
    format!("{} {rest}", board(red, yellow))
}

fn parse(text: &str, rules: Rules) -> Position {
    Position::parse(text, rules).unwrap_or_else(|e| panic!("'{text}' ({rules:?}) rejected: {e}"))
}

/// Asserts the exact legal move set of a position string under the default values.
#[track_caller]
fn assert_legal(text: &str, expected: &[&str]) {
    assert_eq!(
        legal(&parse(text, DEFAULT)),
        sorted(expected),
        "legal moves of '{text}'"
    );
}

#[track_caller]
fn is_legal(text: &str, mv: &str) -> bool {
    legal(&parse(text, DEFAULT)).contains(&mv.to_string())
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

/// Marbles of a player on the board and in sectors: at most 12, fewer once one is
/// discarded.
fn marbles_kept(position: &Position, player: Player) -> u32 {
    position.marbles(player).count_ones()
        + (0..12)
            .filter(|&s| position.sector(s) == Some(player))
            .count() as u32
}

fn random_move(rng: &mut StdRng, position: &Position, push_off_bias: u32) -> Option<Move> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    if moves.is_empty() {
        return None;
    }
    let push_offs: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&mv| position.is_tactical(mv))
        .collect();
    Some(
        if !push_offs.is_empty() && rng.random_range(0..8) < push_off_bias {
            push_offs[rng.random_range(0..push_offs.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        },
    )
}

/// Plays a seeded random game of at most `max_plies` moves, calling `visit` with each
/// position before a move (and with the final position, move `None`). `push_off_bias` (out
/// of 8) is how often a push off the board is chosen when there is one.
fn random_game(
    rng: &mut StdRng,
    rules: Rules,
    max_plies: usize,
    push_off_bias: u32,
    mut visit: impl FnMut(&Position, Option<Move>),
) {
    let mut position = Position::start(rules);
    for _ in 0..max_plies {
        let Some(mv) = random_move(rng, &position, push_off_bias) else {
            break;
        };
        visit(&position, Some(mv));
        position.play(mv);
    }
    visit(&position, None);
}

fn scaled(release: usize, debug: usize) -> usize {
    if cfg!(debug_assertions) {
        debug
    } else {
        release
    }
}

// ---------------------------------------------------------------------------------------
// Start position, board and moves
// ---------------------------------------------------------------------------------------

#[test]
fn start_position_matches_the_spec() {
    let start = Position::start(DEFAULT);
    assert_eq!(start.to_string(), START);
    assert_eq!(
        format!(
            "{} r 0 0 ............ - 1",
            board(
                "a1 a2 b1 b3 c2 c3 g4 g5 h4 h6 i5 i6",
                "a4 a5 b4 b6 c5 c6 g7 g8 h7 h9 i8 i9"
            )
        ),
        START
    );
    assert_eq!(start.to_move(), Player::One);
    assert_eq!(start.outcome(), None);
    assert_eq!(start.points(Player::One), 0);
    assert!(!start.pending());
    // No push is possible at the start: every contact is one against one.
    let red_bottom = [
        "a1a2", "a1b2", "a1b1", "a2a3", "a2b3", "a2b2", "b1b2", "b1c2", "b1c1", "b3c4", "b3c3",
        "b3b2", "b3a3", "c2c3", "c2d3", "c2d2", "c2c1", "c2b2", "c3c4", "c3d4", "c3d3", "c3c2",
        "c3b2", "c3b3",
    ];
    let red_top = [
        "g4g5", "g4h5", "g4g3", "g4f3", "g4f4", "g5g6", "g5h6", "g5h5", "g5g4", "g5f4", "g5f5",
        "h4h5", "h4g3", "h4g4", "h6i7", "h6h5", "h6g5", "h6g6", "i5i6", "i5h4", "i5h5", "i6i7",
        "i6h5", "i6h6",
    ];
    let all: Vec<&str> = red_bottom.iter().chain(&red_top).copied().collect();
    assert_legal(START, &all);
    assert_eq!(perft(&start, 1), 48);
    // A half turn swaps the colours exactly: yellow to move has the mirrored moves.
    let yellow = START.replace(" r ", " y ");
    assert_eq!(legal(&parse(&yellow, DEFAULT)).len(), 48);
}

#[test]
fn a_single_marble_moves_to_any_free_neighbour() {
    // e5's neighbours: e6 (E), f6 (NE), f5 (NW), e4 (W), d4 (SW), d5 (SE).
    let text = pos("e5", "i9", "r 0 0 ............ - 1");
    assert_legal(&text, &["e5e6", "e5f6", "e5f5", "e5e4", "e5d4", "e5d5"]);
    assert_eq!(
        after(&text, DEFAULT, &["e5f6"]),
        pos("f6", "i9", "y 0 0 ............ - 1")
    );
}

#[test]
fn no_own_marble_may_leave_the_board() {
    // a1 has only three neighbours on the board.
    assert_legal(
        &pos("a1", "i9", "r 0 0 ............ - 1"),
        &["a1a2", "a1b2", "a1b1"],
    );
    // A line whose front marble stands on the edge cannot move towards the edge, whichever
    // of its marbles is the rear; the other way it moves.
    let text = pos("e7 e8 e9", "a1", "r 0 0 ............ - 1");
    for mv in ["e7e8", "e8e9"] {
        assert!(!is_legal(&text, mv), "{mv}");
    }
    assert!(is_legal(&text, "e9e8"));
    assert_eq!(
        after(&text, DEFAULT, &["e9e8"]),
        pos("e6 e7 e8", "a1", "y 0 0 ............ - 1")
    );
}

#[test]
fn a_line_is_the_rear_marble_and_the_own_marbles_ahead_of_it() {
    let text = pos("e3 e4 e5", "i9", "r 0 0 ............ - 1");
    // Rear e3: the whole line moves; rear e4: e4 and e5; rear e5: e5 alone.
    assert_eq!(
        after(&text, DEFAULT, &["e3e4"]),
        pos("e4 e5 e6", "i9", "y 0 0 ............ - 1")
    );
    assert_eq!(
        after(&text, DEFAULT, &["e4e5"]),
        pos("e3 e5 e6", "i9", "y 0 0 ............ - 1")
    );
    assert_eq!(
        after(&text, DEFAULT, &["e5e6"]),
        pos("e3 e4 e6", "i9", "y 0 0 ............ - 1")
    );
    // No broadside moves: towards NE only the rear marble moves (its line is itself).
    assert_eq!(
        after(&text, DEFAULT, &["e3f4"]),
        pos("e4 e5 f4", "i9", "y 0 0 ............ - 1")
    );
    // Backwards the line's rear is e5.
    assert_eq!(
        after(&text, DEFAULT, &["e5e4"]),
        pos("e2 e3 e4", "i9", "y 0 0 ............ - 1")
    );
}

#[test]
fn two_push_one() {
    let text = pos("e3 e4", "e5 i9", "r 0 0 ............ - 1");
    assert!(is_legal(&text, "e3e4"));
    assert!(!is_legal(&text, "e4e5"), "one against one");
    assert_eq!(
        after(&text, DEFAULT, &["e3e4"]),
        pos("e4 e5", "e6 i9", "y 0 0 ............ - 1")
    );
    // Diagonally too: b2 c3 push d4 towards NE.
    let text = pos("b2 c3", "d4 i9", "r 0 0 ............ - 1");
    assert_eq!(
        after(&text, DEFAULT, &["b2c3"]),
        pos("c3 d4", "e5 i9", "y 0 0 ............ - 1")
    );
}

#[test]
fn three_push_two() {
    let text = pos("e2 e3 e4", "e5 e6 i9", "r 0 0 ............ - 1");
    assert!(!is_legal(&text, "e3e4"), "two against two");
    assert_eq!(
        after(&text, DEFAULT, &["e2e3"]),
        pos("e3 e4 e5", "e6 e7 i9", "y 0 0 ............ - 1")
    );
    // Yellow pushes red along a NW-SE diagonal the same way.
    let text = pos("d4 c4 a1", "g4 f4 e4", "y 0 0 ............ - 1");
    assert_eq!(
        after(&text, DEFAULT, &["g4f4"]),
        pos("c4 b4 a1", "f4 e4 d4", "r 0 0 ............ - 2")
    );
}

#[test]
fn four_push_three_and_there_is_no_fixed_limit() {
    let text = pos("e1 e2 e3 e4", "e5 e6 e7 i9", "r 0 0 ............ - 1");
    assert!(!is_legal(&text, "e2e3"), "three against three");
    assert_eq!(
        after(&text, DEFAULT, &["e1e2"]),
        pos("e2 e3 e4 e5", "e6 e7 e8 i9", "y 0 0 ............ - 1")
    );
    // Five push four, the front one off the board (e9 east is a corner: sector 5).
    let text = pos("e1 e2 e3 e4 e5", "e6 e7 e8 e9 i9", "r 0 0 ............ - 1");
    assert!(!is_legal(&text, "e2e3"), "four against four");
    assert_eq!(
        after(&text, DEFAULT, &["e1e2"]),
        pos("e2 e3 e4 e5 e6", "e7 e8 e9 i9", "y 2 0 ....y....... - 1")
    );
}

#[test]
fn pushes_need_a_strict_majority() {
    // m >= k: one against one, two against two, one against two, two against three.
    for (red, yellow, mv) in [
        ("e4", "e5", "e4e5"),
        ("e3 e4", "e5 e6", "e3e4"),
        ("e4", "e5 e6", "e4e5"),
        ("e2 e3", "e4 e5 e6", "e2e3"),
    ] {
        let text = pos(red, yellow, "r 0 0 ............ - 1");
        assert!(!is_legal(&text, mv), "{mv} in {text}");
    }
    // At the edge as well: one cannot push one off.
    assert!(!is_legal(
        &pos("e8", "e9", "r 0 0 ............ - 1"),
        "e8e9"
    ));
}

#[test]
fn an_own_marble_behind_the_opposing_ones_blocks() {
    let text = pos("e2 e3 e4 e6", "e5", "r 0 0 ............ - 1");
    assert!(
        !is_legal(&text, "e2e3"),
        "three against one, own marble after it"
    );
    assert!(
        !is_legal(&text, "e3e4"),
        "two against one, own marble after it"
    );
    // Same with two opposing marbles in between.
    let text = pos("e1 e2 e3 e6", "e4 e5", "r 0 0 ............ - 1");
    assert!(!is_legal(&text, "e1e2"));
    // With a gap after the opposing marble the push goes through.
    let text = pos("e2 e3 e7", "e4", "r 0 0 ............ - 1");
    assert_eq!(
        after(&text, DEFAULT, &["e2e3"]),
        pos("e3 e4 e7", "e5", "y 0 0 ............ - 1")
    );
}

#[test]
fn an_opposing_marble_beyond_a_gap_is_not_pushed() {
    let text = pos("e3", "e5", "r 0 0 ............ - 1");
    assert_eq!(
        after(&text, DEFAULT, &["e3e4"]),
        pos("e4", "e5", "y 0 0 ............ - 1")
    );
}

// ---------------------------------------------------------------------------------------
// Scoring sectors
// ---------------------------------------------------------------------------------------

#[test]
fn a_marble_pushed_into_an_empty_sector_scores_its_value_for_the_pusher() {
    // c7 east lands on (2,8): sector 4, worth 3.
    let text = pos("c5 c6", "c7 i9", "r 0 0 ............ - 1");
    assert!(parse(&text, DEFAULT).is_tactical("c5c6".parse().expect("a move")));
    assert_eq!(
        after(&text, DEFAULT, &["c5c6"]),
        pos("c6 c7", "i9", "y 3 0 ...y........ - 1")
    );
    // Yellow scores the same way: a2 pushed south-west from c4 b3 lands on (-1,1),
    // sector 1 (worth 1).
    let text = pos("a2 i5", "c4 b3", "y 0 0 ............ - 4");
    assert_eq!(
        after(&text, DEFAULT, &["c4b3"]),
        pos("i5", "b3 a2", "r 0 1 r........... - 5")
    );
    // The side cells of every sector, entered from the board: (cell, direction) pairs
    // whose step lands in sector 1..12 in turn.
    let exits = [
        ("a1", "b1", 1),  // a1 towards SE: (-1,1)
        ("a3", "b3", 2),  // a3 towards SE: (-1,3)
        ("a5", "a4", 3),  // a5 towards E: (0,6)
        ("d8", "d7", 4),  // d8 towards E: (3,9)
        ("f9", "e8", 5),  // f9 towards NE: (6,10)
        ("h9", "g8", 6),  // h9 towards NE: (8,10)
        ("i9", "h9", 7),  // i9 towards NW: (9,9)
        ("i7", "h7", 8),  // i7 towards NW: (9,7)
        ("i5", "i6", 9),  // i5 towards W: (8,4)
        ("g3", "g4", 10), // g3 towards W: (6,2)
        ("d1", "d2", 11), // d1 towards W: (3,0)
        ("a1", "a2", 12), // a1 towards W: (0,0)
    ];
    for (target, pusher, sector) in exits {
        let target_cell: Cell = target.parse().expect("cell");
        let pusher_cell: Cell = pusher.parse().expect("cell");
        // The rear marble stands one further back on the same line.
        let (dr, dc) = (
            target_cell.row() as i8 - pusher_cell.row() as i8,
            target_cell.number() as i8 - pusher_cell.number() as i8,
        );
        let rear = Cell::new(
            pusher_cell.row() as i8 - dr,
            pusher_cell.number() as i8 - dc,
        )
        .expect("on the board");
        let text = pos(
            &format!("{rear} {pusher}"),
            target,
            "r 0 0 ............ - 1",
        );
        let value = DEFAULT.sectors[sector - 1];
        let mut sectors = ['.'; 12];
        sectors[sector - 1] = 'y';
        let sectors: String = sectors.iter().collect();
        assert_eq!(
            after(&text, DEFAULT, &[&format!("{rear}{pusher}")]),
            pos(
                &format!("{pusher} {target}"),
                "",
                &format!("y {value} 0 {sectors} - 1")
            ),
            "{target} pushed from {rear}{pusher} lands in sector {sector}"
        );
    }
}

#[test]
fn sector_values_are_rules() {
    // The same push scores the sector's value under the rules played.
    let text = pos("c5 c6", "c7 i9", "r 0 0 ............ - 1");
    for value in 1..=3u8 {
        let rules = Rules::new([value; 12]).expect("valid");
        assert_eq!(
            after(&text, rules, &["c5c6"]),
            pos("c6 c7", "i9", &format!("y {value} 0 ...y........ - 1"))
        );
    }
}

/// For each ring corner: the position with a yellow marble on the board's corner cell and
/// two red marbles behind it, and the push that rolls it off along the main diagonal.
const CORNER_PUSHES: [(&str, &str, &str); 6] = [
    ("c3 b2", "a1", "c3b2"), // a1 towards SW: corner (-1,0), sectors 12 | 1
    ("c5 b5", "a5", "c5b5"), // a5 towards SE: corner (-1,5), sectors 2 | 3
    ("e7 e8", "e9", "e7e8"), // e9 towards E: corner (4,10), sectors 4 | 5
    ("g7 h8", "i9", "g7h8"), // i9 towards NE: corner (9,10), sectors 6 | 7
    ("g5 h5", "i5", "g5h5"), // i5 towards NW: corner (9,5), sectors 8 | 9
    ("e3 e2", "e1", "e3e2"), // e1 towards W: corner (4,0), sectors 10 | 11
];

/// The sector (1-based) the corner marble of each [`CORNER_PUSHES`] entry ends in.
fn corner_sectors(rules: Rules) -> Vec<usize> {
    CORNER_PUSHES
        .iter()
        .map(|&(red, yellow, mv)| {
            let text = pos(red, &format!("{yellow} e5"), "r 0 0 ............ - 1");
            let result = after(&text, rules, &[mv]);
            let sectors = result.split(' ').nth(4).expect("seven fields");
            let sector = sectors.find('y').expect("the marble is in a sector") + 1;
            let points: u8 = result
                .split(' ')
                .nth(2)
                .expect("seven fields")
                .parse()
                .expect("points");
            assert_eq!(points, rules.sectors[sector - 1], "{mv}: the pusher scores");
            sector
        })
        .collect()
}

#[test]
fn corners_roll_into_the_lower_valued_sector() {
    // Default values: 12|1 = 1|1 tie -> 12; 2|3 = 2|3 -> 2; 4|5 = 3|2 -> 5;
    // 6|7 = 1|1 tie -> 6; 8|9 = 2|3 -> 8; 10|11 = 3|2 -> 11.
    assert_eq!(corner_sectors(DEFAULT), [12, 2, 5, 6, 8, 11]);
    // The sector after each corner (counter-clockwise) lower: 1, 3, 5, 7, 9, 11.
    let after_lower = Rules::new([1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3]).expect("valid");
    assert_eq!(corner_sectors(after_lower), [1, 3, 5, 7, 9, 11]);
    // The sector before each corner lower: 12, 2, 4, 6, 8, 10.
    let before_lower = Rules::new([3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1]).expect("valid");
    assert_eq!(corner_sectors(before_lower), [12, 2, 4, 6, 8, 10]);
}

#[test]
fn corners_on_equal_values_roll_into_the_sector_before_them() {
    for value in 1..=3 {
        let rules = Rules::new([value; 12]).expect("valid");
        assert_eq!(corner_sectors(rules), [12, 2, 4, 6, 8, 10], "all {value}");
    }
    let rules = Rules::new([2, 1, 1, 3, 3, 2, 2, 3, 3, 1, 1, 2]).expect("valid");
    assert_eq!(corner_sectors(rules), [12, 2, 4, 6, 8, 10]);
}

#[test]
fn corner_cells_reach_the_corners_only_along_the_main_diagonal() {
    // a1 pushed west lands in sector 12, pushed south-east in sector 1.
    assert_eq!(
        after(
            &pos("a3 a2", "a1", "r 0 0 ............ - 1"),
            DEFAULT,
            &["a3a2"]
        ),
        pos("a2 a1", "", "y 1 0 ...........y - 1")
    );
    assert_eq!(
        after(
            &pos("c1 b1", "a1", "r 0 0 ............ - 1"),
            DEFAULT,
            &["c1b1"]
        ),
        pos("b1 a1", "", "y 1 0 y........... - 1")
    );
}

#[test]
fn a_marble_pushed_into_an_occupied_sector_goes_back_to_its_owner() {
    // Sector 4 already holds a yellow marble (red has its 3 points).
    let text = pos("c5 c6", "c7 i9", "r 3 0 ...y........ - 1");
    let returned = after(&text, DEFAULT, &["c5c6"]);
    // Nobody scores; yellow, to move, has the marble pending.
    assert_eq!(returned, pos("c6 c7", "i9", "y 3 0 ...y........ p 1"));
    let position = parse(&returned, DEFAULT);
    assert!(position.pending());
    // Every empty cell is a re-placement, besides the normal moves of i9.
    let moves = legal(&position);
    let places: Vec<&String> = moves.iter().filter(|m| m.starts_with('@')).collect();
    assert_eq!(places.len(), 61 - 3);
    assert!(moves.contains(&"@e5".to_string()));
    assert!(!moves.contains(&"@c6".to_string()), "occupied");
    assert!(moves.contains(&"i9h9".to_string()));
    assert_eq!(moves.len(), 58 + 3);
    // A red marble goes back to red the same way: a1 rolls from the corner (-1,0) into
    // sector 12, which holds a red marble already.
    let text = pos("a1 i5", "c3 b2", "y 0 1 ...........r - 3");
    assert_eq!(
        after(&text, DEFAULT, &["c3b2"]),
        pos("i5", "b2 a1", "r 0 1 ...........r p 4")
    );
}

#[test]
fn re_placing_is_the_whole_move() {
    let text = pos("c6 c7", "i9", "y 3 0 ...y........ p 1");
    assert_eq!(
        after(&text, DEFAULT, &["@e5"]),
        pos("c6 c7", "e5 i9", "r 3 0 ...y........ - 2")
    );
    // Any empty cell, even on the rim next to the pushing line.
    assert_eq!(
        after(&text, DEFAULT, &["@C5"]),
        pos("c6 c7", "c5 i9", "r 3 0 ...y........ - 2")
    );
}

#[test]
fn a_normal_move_discards_the_pending_marble_for_good() {
    let text = pos("c6 c7", "i9", "y 3 0 ...y........ p 1");
    let mut position = parse(&text, DEFAULT);
    assert_eq!(marbles_kept(&position, Player::Two), 2);
    play(&mut position, "i9h9");
    assert_eq!(
        position.to_string(),
        pos("c6 c7", "h9", "r 3 0 ...y........ - 2")
    );
    play(&mut position, "c6c5");
    // Yellow's turn again: nothing to re-place any more.
    assert!(!position.pending());
    assert!(legal(&position).iter().all(|m| !m.starts_with('@')));
    assert_eq!(marbles_kept(&position, Player::Two), 2);
}

#[test]
fn re_placements_are_illegal_without_a_pending_marble() {
    let position = parse(&pos("c6 c7", "i9", "y 3 0 ...y........ - 1"), DEFAULT);
    assert_eq!(
        position.parse_move("@e5"),
        Err(MoveError::Illegal { text: "@e5".into() })
    );
    let pending = parse(&pos("c6 c7", "i9", "y 3 0 ...y........ p 1"), DEFAULT);
    assert_eq!(
        pending.parse_move("@i9"),
        Err(MoveError::Illegal { text: "@i9".into() }),
        "occupied cell"
    );
    assert!(pending.parse_move("@e5").is_ok());
}

#[test]
fn a_push_while_pending_discards_own_marble_and_may_return_the_opponents() {
    // Yellow has a marble pending but pushes red's e1 off to the corner (4,0), which rolls
    // into sector 11: occupied by a red marble, so red's marble goes back to red.
    let text = pos("e1 i5", "e3 e2", "y 0 2 ..........r. p 5");
    let result = after(&text, DEFAULT, &["e3e2"]);
    assert_eq!(result, pos("i5", "e2 e1", "r 0 2 ..........r. p 6"));
    let position = parse(&result, DEFAULT);
    assert_eq!(
        marbles_kept(&position, Player::Two),
        2,
        "yellow's pending one is gone"
    );
    assert_eq!(marbles_kept(&position, Player::One), 2, "red's is pending");
}

#[test]
fn one_marble_per_sector() {
    // Two pushes into sector 4: c7 east lands on (2,8), d8 east on (3,9). The first marble
    // stays and scores; the second comes back to yellow.
    let text = pos("c5 c6 d6 d7", "c7 d8 i9", "r 0 0 ............ - 1");
    let mut position = parse(&text, DEFAULT);
    play(&mut position, "c5c6");
    play(&mut position, "i9h9");
    play(&mut position, "d6d7");
    assert_eq!(
        position.to_string(),
        pos("c6 c7 d7 d8", "h9", "y 3 0 ...y........ p 2")
    );
}

// ---------------------------------------------------------------------------------------
// End of the game and the move number
// ---------------------------------------------------------------------------------------

#[test]
fn six_points_win_at_once() {
    // Red has 5 (sectors 2 and 3); pushing a2 into sector 1 (worth 1) makes 6.
    let text = pos("c2 b2", "a2 e5", "r 5 0 .yy......... - 7");
    let mut position = parse(&text, DEFAULT);
    assert_eq!(position.outcome(), None);
    play(&mut position, "c2b2");
    assert_eq!(
        position.to_string(),
        pos("b2 a2", "e5", "y 6 0 yyy......... - 7")
    );
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::One)));
    assert!(legal(&position).is_empty(), "a finished game has no moves");
    assert_eq!(perft(&position, 1), 0);
    // More than 6 wins as well: 5 + 3.
    let text = pos("c5 c6", "c7 e5", "r 5 0 .yy......... - 7");
    let result = after(&text, DEFAULT, &["c5c6"]);
    assert_eq!(result, pos("c6 c7", "e5", "y 8 0 .yyy........ - 7"));
    assert_eq!(
        parse(&result, DEFAULT).outcome(),
        Some(Outcome::Win(Player::One))
    );
    // Yellow wins the same way: 3 + 3.
    let text = pos("c7 i9", "c5 c6", "y 0 3 ..r......... - 7");
    let result = after(&text, DEFAULT, &["c5c6"]);
    assert_eq!(result, pos("i9", "c6 c7", "r 0 6 ..rr........ - 8"));
    assert_eq!(
        parse(&result, DEFAULT).outcome(),
        Some(Outcome::Win(Player::Two))
    );
    // A position string may show a won game with either side to move.
    let won = parse(&pos("a1", "i9", "r 7 0 ..yy..y..... - 9"), DEFAULT);
    assert_eq!(won.outcome(), Some(Outcome::Win(Player::One)));
    assert!(legal(&won).is_empty());
}

#[test]
fn no_legal_move_and_nothing_to_re_place_loses() {
    // Red's only marble, a1, faces yellow one against one in all three directions.
    let text = pos("a1", "a2 b1 b2", "r 0 0 ............ - 12");
    let position = parse(&text, DEFAULT);
    assert!(legal(&position).is_empty());
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::Two)));
    // No marble on the board at all.
    let position = parse(&pos("", "e5", "r 0 0 ............ - 12"), DEFAULT);
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::Two)));
    // A marble to re-place is a move.
    let text = pos("a1", "a2 b1 b2", "r 0 0 ............ p 12");
    let position = parse(&text, DEFAULT);
    assert_eq!(position.outcome(), None);
    assert_eq!(legal(&position).len(), 61 - 4);
    let position = parse(&pos("", "e5", "r 0 0 ............ p 12"), DEFAULT);
    assert_eq!(position.outcome(), None);
    assert_eq!(legal(&position).len(), 60);
    // Yellow likewise.
    let position = parse(
        &pos("a2 b1 b2 e5", "a1", "y 0 0 ............ - 12"),
        DEFAULT,
    );
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::One)));
}

#[test]
fn fullmove_rises_when_yellows_move_ends() {
    let mut position = Position::start(DEFAULT);
    assert_eq!(position.fullmove(), 1);
    play(&mut position, "a1b2");
    assert_eq!(position.fullmove(), 1);
    play(&mut position, "i9h8");
    assert_eq!(position.fullmove(), 2);
    // A re-placement by yellow ends yellow's move too; red's does not count.
    let text = pos("c6 c7", "i9", "y 3 0 ...y........ p 41");
    assert!(after(&text, DEFAULT, &["@e5"]).ends_with(" 42"));
    let text = pos("i5", "b2 a1", "r 0 1 ...........r p 4");
    assert!(after(&text, DEFAULT, &["@e5"]).ends_with(" 4"));
}

#[test]
fn to_move_alternates_after_every_kind_of_move() {
    let text = pos("c5 c6 e1", "c7 a5", "r 3 0 ...y........ - 1");
    let mut position = parse(&text, DEFAULT);
    play(&mut position, "c5c6"); // returned to yellow
    assert_eq!(position.to_move(), Player::Two);
    play(&mut position, "@e5");
    assert_eq!(position.to_move(), Player::One);
    play(&mut position, "e1e2");
    assert_eq!(position.to_move(), Player::Two);
}

// ---------------------------------------------------------------------------------------
// Notation and position strings
// ---------------------------------------------------------------------------------------

#[test]
fn move_input_is_case_insensitive_and_output_lower_case() {
    let mut position = Position::start(DEFAULT);
    let mv = position.parse_move("A1B2").expect("legal");
    assert_eq!(mv.to_string(), "a1b2");
    play(&mut position, "A1B2");
    let pending = parse(&pos("c6 c7", "i9", "y 3 0 ...y........ p 1"), DEFAULT);
    assert_eq!(
        pending.parse_move("@E5").map(|m| m.to_string()),
        Ok("@e5".into())
    );
    // Syntax errors and illegal moves are told apart.
    let start = Position::start(DEFAULT);
    for bad in ["a1a3", "a6a7", "j1j2", "", "@", "@z9", "a1-a2", "pass"] {
        assert!(
            matches!(start.parse_move(bad), Err(MoveError::Syntax { .. })),
            "{bad}"
        );
    }
    // No marble, one against one, own marble off the board, nothing pending.
    for illegal in ["e5e6", "b3b4", "a2a1", "@e5"] {
        assert!(
            matches!(start.parse_move(illegal), Err(MoveError::Illegal { .. })),
            "{illegal}"
        );
    }
}

const ROUND_TRIP: &[&str] = &[
    START,
    "RR1YY/R1RY1Y/1RR1YY1/8/9/8/1RR1YY1/R1RY1Y/RR1YY y 0 0 ............ - 1",
    "5/6/7/8/4R4/8/7/6/5 r 0 0 ............ - 1",
    "5/6/7/8/9/8/7/6/5 y 0 0 ............ p 100",
    "YYYYY/6/7/8/9/8/7/6/RRRRR r 1 1 r.....y..... p 12",
    "R4/5R/6R/7R/8R/7Y/6Y/5Y/4Y y 5 5 .yyrr....... - 30",
    "2R2/1Y4/7/8/9/8/7/6/5 r 0 7 ..rr..r..... - 9",
];

#[test]
fn position_strings_round_trip() {
    for text in ROUND_TRIP {
        let position = parse(text, DEFAULT);
        assert_eq!(position.to_string(), *text);
        assert_eq!(position.hash(), position.compute_hash());
        assert_eq!(text.parse::<Position>().as_ref(), Ok(&position));
    }
    // Under other sector values the points field follows them.
    let rules = Rules::new([3; 12]).expect("valid");
    let text = "YYYYY/6/7/8/9/8/7/6/RRRRR r 3 6 r.....y....r p 12";
    assert_eq!(parse(text, rules).to_string(), text);
    assert!(Position::parse(text, DEFAULT).is_err());
    // Tabs and repeated spaces separate fields too; split runs of empty cells are read.
    let spaced = START.replace(' ', " \t ");
    assert_eq!(parse(&spaced, DEFAULT).to_string(), START);
    let split = START.replace("/9/", "/45/");
    assert_eq!(parse(&split, DEFAULT).to_string(), START);
    // Positions of random games print and read back to equal values.
    let mut rng = StdRng::seed_from_u64(3);
    for game in 0..60 {
        random_game(
            &mut rng,
            DEFAULT,
            150,
            (game % 3 * 4) as u32,
            |position, _| {
                let text = position.to_string();
                let reparsed = parse(&text, DEFAULT);
                assert_eq!(&reparsed, position, "{text}");
                assert_eq!(reparsed.hash(), position.hash(), "{text}");
            },
        );
    }
}

#[track_caller]
fn assert_rejected(text: &str, words: &[&str]) {
    match Position::parse(text, DEFAULT) {
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

#[test]
fn bad_position_strings_are_rejected_naming_the_field() {
    let start_board = board(
        "a1 a2 b1 b3 c2 c3 g4 g5 h4 h6 i5 i6",
        "a4 a5 b4 b6 c5 c6 g7 g8 h7 h9 i8 i9",
    );
    let b = start_board.as_str();
    // Field count.
    assert_rejected("", &["fields"]);
    assert_rejected(b, &["fields"]);
    assert_rejected(&format!("{b} r 0 0 ............ -"), &["fields", "7"]);
    assert_rejected(&format!("{b} r 0 0 ............ - 1 1"), &["fields"]);
    // Rows: count and lengths (row a has 5 cells, e 9, i 5).
    assert_rejected("5/6/7/8/9/8/7/6 r 0 0 ............ - 1", &["board", "rows"]);
    assert_rejected(
        "5/6/7/8/9/8/7/6/5/5 r 0 0 ............ - 1",
        &["board", "rows"],
    );
    assert_rejected(
        "5/6/7/8/9/8/7/6/6 r 0 0 ............ - 1",
        &["board", "row a"],
    );
    assert_rejected(
        "5/6/7/8/9/8/7/6/4 r 0 0 ............ - 1",
        &["board", "row a"],
    );
    assert_rejected(
        "5/6/7/8/8/8/7/6/5 r 0 0 ............ - 1",
        &["board", "row e"],
    );
    assert_rejected(
        "R5/6/7/8/9/8/7/6/5 r 0 0 ............ - 1",
        &["board", "row i"],
    );
    assert_rejected(
        "5/6/7/8//8/7/6/5 r 0 0 ............ - 1",
        &["board", "row e"],
    );
    assert_rejected(
        "5/6/7/8/9/8/7/6/RRRRRR r 0 0 ............ - 1",
        &["board", "row a"],
    );
    // Characters.
    for bad in ["X", "r", "y", "0", ".", "-", "W", "B"] {
        assert_rejected(
            &format!("5/6/7/8/{bad}8/8/7/6/5 r 0 0 ............ - 1"),
            &["board", "character"],
        );
    }
    // More than 12 marbles of a colour, on the board or counting those in sectors.
    assert_rejected(
        "RRRRR/RRRRRR/RR5/8/9/8/7/6/5 r 0 0 ............ - 1",
        &["board", "13 red", "12"],
    );
    assert_rejected(
        "YYYYY/YYYYYY/YYY4/8/9/8/7/6/5 y 0 0 ............ - 1",
        &["board", "14 yellow"],
    );
    assert_rejected(
        "RRRRR/RRRRRR/5YY/8/9/8/7/6/5 y 0 4 r.r......... - 1",
        &["board", "11 red", "2 in the sectors", "13"],
    );
    // Side.
    for bad in ["R", "Y", "w", "red", "-", "x"] {
        assert_rejected(&format!("{b} {bad} 0 0 ............ - 1"), &["side"]);
    }
    // Points: not plain numbers.
    for bad in ["-1", "+1", "01", "x", "-", "1.0", "4294967296"] {
        assert_rejected(&format!("{b} r {bad} 0 ............ - 1"), &["red points"]);
        assert_rejected(
            &format!("{b} r 0 {bad} ............ - 1"),
            &["yellow points"],
        );
    }
    // Points that disagree with the sectors' contents and values.
    assert_rejected(
        &format!("{b} r 1 0 ............ - 1"),
        &["red points", "sectors"],
    );
    assert_rejected(
        &format!("{b} r 0 3 ............ - 1"),
        &["yellow points", "sectors"],
    );
    let five = "RR1Y1/R1RY2/1RR1YY1/8/9/8/1RR1YY1/R1RY1Y/RR1YY";
    assert_rejected(
        &format!("{five} r 2 0 yy.......... - 1"),
        &["red points", "3"],
    );
    assert_rejected(&format!("{five} r 0 3 yy.......... - 1"), &["red points"]);
    // Both players at 6 or more cannot happen: the first to 6 ends the game.
    assert_rejected(
        "R4/6/7/8/9/8/7/6/4Y r 6 6 yyy...rrr... - 9",
        &["points", "6"],
    );
    // Sectors.
    for bad in [
        "...........",
        ".............",
        "R...........",
        "...x........",
        "....-.......",
    ] {
        assert_rejected(&format!("{b} r 0 0 {bad} - 1"), &["sectors"]);
    }
    // Pending.
    for bad in ["P", "x", "pp", "1", "+"] {
        assert_rejected(&format!("{b} r 0 0 ............ {bad} 1"), &["pending"]);
    }
    // Pending without a free marble: red to move has all twelve on the board.
    assert_rejected(
        &format!("{b} r 0 0 ............ p 1"),
        &["pending", "red", "12"],
    );
    // ... or on the board and in sectors.
    assert_rejected(
        "RR1YY/R1RY1Y/1RR1YY1/8/9/8/1RR1YY1/R1RY1Y/1R1YY r 0 1 r........... p 1",
        &["pending", "red"],
    );
    // Yellow to move: yellow's marbles count, not red's.
    assert_rejected(
        "RR1YY/R1RY1Y/1RR1YY1/8/9/8/1RR1YY1/R1RY1Y/RR1Y1 y 1 0 y........... p 1",
        &["pending", "yellow"],
    );
    assert!(
        Position::parse(
            "RR1YY/R1RY1Y/1RR1YY1/8/9/8/1RR1YY1/R1RY1Y/RR3 y 3 0 ..y......... p 1",
            DEFAULT
        )
        .is_ok()
    );
    // Fullmove.
    for bad in ["0", "-1", "+1", "01", "x", "-", "4294967296", "1.0"] {
        assert_rejected(&format!("{b} r 0 0 ............ - {bad}"), &["fullmove"]);
    }
}

/// Characters the fuzzer builds strings from: everything the format uses and some more.
const FUZZ_CHARS: &[char] = &[
    'R', 'Y', 'r', 'y', 'p', 'P', '@', '-', '+', '/', ' ', '.', '0', '1', '2', '3', '4', '5', '6',
    '7', '8', '9', 'a', 'b', 'e', 'i', 'j', 'x', 'é', '\t',
];

fn mutate(rng: &mut StdRng, text: &str) -> String {
    fuzz::mutate(rng, text, FUZZ_CHARS)
}

/// Replaces one field of a position string with a plausible (often valid) value.
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
                    board[j] = ['R', 'Y', '1'][rng.random_range(0..3)];
                } else {
                    let k = rng.random_range(0..board.len());
                    board.swap(j, k);
                }
            }
            board.into_iter().collect()
        }
        1 => pick(rng, &["r", "y", "r", "y", "R", "x"]),
        2 | 3 => match rng.random_range(0..12) {
            10 => pick(rng, &["+1", "-1", "07", "x"]),
            n => n.to_string(),
        },
        4 => (0..12)
            .map(|_| ['.', '.', 'r', 'y', 'R'][rng.random_range(0..5)])
            .collect(),
        5 => pick(rng, &["p", "-", "p", "-", "P", "--"]),
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

/// A random move text: two cells, a re-placement, a mutated move, or noise.
fn random_move_text(rng: &mut StdRng) -> String {
    let rows = "abcdefghijABCDEFGHI";
    let cell = |rng: &mut StdRng| {
        format!(
            "{}{}",
            rows.as_bytes()[rng.random_range(0..rows.len())] as char,
            rng.random_range(0..11)
        )
    };
    match rng.random_range(0..5) {
        0 => format!("{}{}", cell(rng), cell(rng)),
        1 => format!("@{}", cell(rng)),
        2 => random_text(rng, 6),
        3 => mutate(rng, "e5e6"),
        _ => cell(rng),
    }
}

#[test]
fn fuzzed_position_strings_and_moves_never_panic() {
    let mut rng = StdRng::seed_from_u64(4);
    let mut seeds: Vec<String> = ROUND_TRIP.iter().map(|s| s.to_string()).collect();
    for game in 0..40 {
        let mut ply = 0;
        random_game(&mut rng, DEFAULT, 150, (game % 3 * 4) as u32, |p, _| {
            ply += 1;
            if ply % 10 == 0 || p.pending() {
                seeds.push(p.to_string());
            }
        });
    }
    let (mut accepted, mut rejected) = (0, 0);
    for _ in 0..scaled(20_000, 5_000) {
        let seed = &seeds[rng.random_range(0..seeds.len())];
        let text = match rng.random_range(0..10) {
            0 => random_text(&mut rng, 70),
            1..5 => mutate(&mut rng, seed),
            _ => mutate_field(&mut rng, seed),
        };
        let position = match Position::parse(&text, DEFAULT) {
            Ok(p) => p,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                rejected += 1;
                continue;
            }
        };
        accepted += 1;
        let printed = position.to_string();
        let reparsed = Position::parse(&printed, DEFAULT)
            .unwrap_or_else(|e| panic!("'{text}' printed as '{printed}', rejected: {e}"));
        assert_eq!(reparsed, position, "'{text}' -> '{printed}'");
        assert_eq!(reparsed.hash(), position.hash(), "'{text}'");
        assert_eq!(position.hash(), position.compute_hash(), "'{text}'");
        let _ = position.diagram();
        let _ = position.evaluate();
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
            let Some(mv) = random_move(&mut rng, &p, 4) else {
                break;
            };
            p.play(mv);
            assert_eq!(p.hash(), p.compute_hash(), "after {mv} from '{printed}'");
            let s = p.to_string();
            assert_eq!(parse(&s, DEFAULT).to_string(), s);
        }
    }
    assert!(
        accepted > scaled(2_000, 500) && rejected > scaled(2_000, 500),
        "{accepted} accepted, {rejected} rejected"
    );
}

// ---------------------------------------------------------------------------------------
// Zobrist keys
// ---------------------------------------------------------------------------------------

#[test]
fn incremental_hash_matches_scratch_along_random_games() {
    let mut rng = StdRng::seed_from_u64(5);
    let (mut plies, mut pending, mut filled) = (0, 0, 0);
    for game in 0..scaled(600, 500) {
        let rules = if game % 2 == 0 {
            DEFAULT
        } else {
            Rules::new(std::array::from_fn(|_| rng.random_range(1..=3u8))).expect("valid")
        };
        random_game(
            &mut rng,
            rules,
            200,
            (game % 3 * 3) as u32,
            |position, _| {
                plies += 1;
                pending += usize::from(position.pending());
                filled += (0..12).filter(|&s| position.sector(s).is_some()).count();
                assert_eq!(position.hash(), position.compute_hash(), "{position}");
                assert_eq!(Game::hash(position), position.compute_hash());
            },
        );
    }
    assert!(
        plies > 20_000 && pending > 200 && filled > 10_000,
        "{plies} {pending} {filled}"
    );
}

#[test]
fn hashes_cover_side_pending_and_sectors_and_agree_on_transpositions() {
    let base = parse(&pos("c6 c7", "i9", "y 3 0 ...y........ - 1"), DEFAULT);
    let variants = [
        pos("c6 c7", "i9", "y 3 0 ...y........ p 1"),
        pos("c6 c7", "i9", "r 3 0 ...y........ - 1"),
        pos("c6 c7", "i9", "y 3 0 ..y......... - 1"),
        pos("c6 c7", "i9", "y 0 3 ...r........ - 1"),
        pos("c6 c7", "i8", "y 3 0 ...y........ - 1"),
    ];
    for text in variants {
        assert_ne!(parse(&text, DEFAULT).hash(), base.hash(), "{text}");
    }
    // The move number does not enter the key.
    let later = parse(&pos("c6 c7", "i9", "y 3 0 ...y........ - 9"), DEFAULT);
    assert_eq!(later.hash(), base.hash());
    // The same position by different move orders.
    let orders: [&[&str]; 2] = [
        &["a1b2", "i9h8", "c3d4", "i8h7"],
        &["c3d4", "i8h7", "a1b2", "i9h8"],
    ];
    let positions: Vec<Position> = orders
        .iter()
        .map(|moves| {
            let mut p = Position::start(DEFAULT);
            for mv in *moves {
                play(&mut p, mv);
            }
            p
        })
        .collect();
    assert_eq!(positions[0], positions[1]);
    assert_eq!(positions[0].hash(), positions[1].hash());
    // Along random games, equal strings (move number aside) have equal hashes and
    // different ones differ.
    let mut rng = StdRng::seed_from_u64(6);
    let mut seen: HashMap<String, u64> = HashMap::new();
    let mut by_hash: HashMap<u64, String> = HashMap::new();
    let mut transpositions = 0;
    for game in 0..300 {
        random_game(
            &mut rng,
            DEFAULT,
            60,
            (game % 2 * 6) as u32,
            |position, _| {
                let text = position.to_string();
                let key = text.rsplit_once(' ').expect("seven fields").0.to_string();
                if let Some(&hash) = seen.get(&key) {
                    transpositions += 1;
                    assert_eq!(hash, position.hash(), "{text}");
                }
                seen.insert(key.clone(), position.hash());
                let other = by_hash.entry(position.hash()).or_insert(key.clone());
                assert_eq!(*other, key, "hash collision");
            },
        );
    }
    assert!(transpositions > 100, "{transpositions}");
}

// ---------------------------------------------------------------------------------------
// The OffboardSectors option
// ---------------------------------------------------------------------------------------

#[test]
fn offboard_sectors_option() {
    let lines: Vec<String> = Position::rule_options()
        .iter()
        .map(|option| option.kind.line(option.name, option.default))
        .collect();
    assert_eq!(
        lines,
        ["option name OffboardSectors type string default 1,2,3,3,2,1,1,2,3,3,2,1"]
    );
    assert_eq!(<Position as Game>::NAME, "offboard");
    let mut rules = Rules::default();
    assert_eq!(rules, DEFAULT);
    assert_eq!(
        Position::set_rule_option(&mut rules, "OffboardSectors", "3,3,3,3,3,3,3,3,3,3,3,3"),
        Ok(true)
    );
    assert_eq!(rules.sectors, [3; 12]);
    assert_eq!(
        Position::set_rule_option(&mut rules, "offboardsectors", " 1, 2,3,3,2,1,1,2,3,3,2, 1 "),
        Ok(true)
    );
    assert_eq!(rules, DEFAULT);
    assert_eq!(rules.to_string(), "1,2,3,3,2,1,1,2,3,3,2,1");
    assert_eq!(
        Position::set_rule_option(&mut rules, "ExtraMove", "true"),
        Ok(false)
    );
    for (bad, words) in [
        ("", &["OffboardSectors", "1 sector values", "12"][..]),
        ("1,2,3", &["3 sector values", "12"]),
        ("1,2,3,3,2,1,1,2,3,3,2,1,1", &["13 sector values"]),
        ("1,2,3,3,2,1,1,2,3,3,2,", &["sector 12", "''"]),
        ("0,2,3,3,2,1,1,2,3,3,2,1", &["sector 1", "'0'", "1, 2 or 3"]),
        ("1,2,3,3,4,1,1,2,3,3,2,1", &["sector 5", "'4'"]),
        ("1,2,3,3,2,1,1,2,x,3,2,1", &["sector 9", "'x'"]),
        ("1;2;3;3;2;1;1;2;3;3;2;1", &["1 sector values"]),
        ("+1,2,3,3,2,1,1,2,3,3,2,1", &["sector 1"]),
    ] {
        let before = rules;
        match Position::set_rule_option(&mut rules, "OffboardSectors", bad) {
            Ok(_) => panic!("'{bad}' accepted"),
            Err(message) => {
                for word in words {
                    assert!(
                        message.to_string().contains(word),
                        "'{bad}': '{message}' lacks '{word}'"
                    );
                }
            }
        }
        assert_eq!(rules, before, "a rejected value changes nothing");
    }
    assert!("1,2,3,3,2,1,1,2,3,3,2,1".parse::<Rules>().is_ok());
}

// ---------------------------------------------------------------------------------------
// The perft table
// ---------------------------------------------------------------------------------------

/// One line of `positions/offboard.perft` (format in its header).
#[derive(Debug)]
struct Entry {
    line: usize,
    text: String,
    rules: Rules,
    /// `counts[d - 1]` is perft(d).
    counts: Vec<u64>,
}

/// Parses the table, failing on any line that does not fit the format.
fn parse_table(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |why: String| format!("line {}: {why}", index + 1);
        let mut fields = line.split(';').map(str::trim);
        let position = fields.next().unwrap_or_default().to_string();
        let mut rules = None;
        let mut counts = Vec::new();
        for field in fields {
            if let Some(values) = field.strip_prefix("sectors=") {
                if rules.is_some() {
                    return Err(fail("more than one sectors= tag".into()));
                }
                rules = Some(values.parse::<Rules>().map_err(|e| fail(e.to_string()))?);
                continue;
            }
            let parts: Vec<&str> = field.split_whitespace().collect();
            let [depth, count] = parts[..] else {
                return Err(fail(format!(
                    "'{field}' is neither 'D<d> <n>' nor 'sectors=...'"
                )));
            };
            if depth != format!("D{}", counts.len() + 1) {
                return Err(fail(format!("'{depth}': expected D{}", counts.len() + 1)));
            }
            let count = count
                .parse::<u64>()
                .ok()
                .filter(|n| n.to_string() == count)
                .ok_or_else(|| fail(format!("'{count}' is not a count")))?;
            counts.push(count);
        }
        if counts.is_empty() {
            return Err(fail("no counts".into()));
        }
        let rules = rules.unwrap_or_default();
        Position::parse(&position, rules).map_err(|e| fail(e.to_string()))?;
        entries.push(Entry {
            line: index + 1,
            text: position,
            rules,
            counts,
        });
    }
    Ok(entries)
}

fn table() -> Vec<Entry> {
    let text = std::fs::read_to_string(TABLE_PATH)
        .unwrap_or_else(|e| panic!("cannot read {TABLE_PATH}: {e}"));
    parse_table(&text).unwrap_or_else(|e| panic!("{TABLE_PATH}: {e}"))
}

fn check_table(max_depth: usize) {
    let mut failures = Vec::new();
    for entry in table() {
        let position = parse(&entry.text, entry.rules);
        for (d, &expected) in entry.counts.iter().enumerate().take(max_depth) {
            let got = perft(&position, d as u32 + 1);
            if got != expected {
                failures.push(format!(
                    "line {} `{}`: perft({}) = {got}, table says {expected}",
                    entry.line,
                    entry.text,
                    d + 1
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn perft_table_is_well_formed_and_covers_the_spec() {
    assert!(parse_table("x ; D1 1").is_err());
    assert!(parse_table(&format!("{START} ; D2 2")).is_err());
    assert!(parse_table(&format!("{START} ; D1 +48")).is_err());
    assert!(parse_table(&format!("{START} ; D1 48 ; sectors=1,2")).is_err());
    assert!(
        parse_table(&format!(
            "{START} ; D1 48 ; sectors=3,3,3,3,3,3,3,3,3,3,3,3"
        ))
        .is_ok()
    );
    let entries = table();
    assert_eq!(entries[0].text, START);
    assert_eq!(entries[0].counts[..3], [48, 2268, 104_612]);
    let with_sectors = entries
        .iter()
        .filter(|e| {
            e.text
                .split(' ')
                .nth(4)
                .is_some_and(|s| s != "............")
        })
        .count();
    let with_pending = entries
        .iter()
        .filter(|e| e.text.split(' ').nth(5) == Some("p"))
        .count();
    assert!(entries.len() >= 11 && with_sectors >= 10 && with_pending >= 5);
    assert!(
        entries.iter().all(|e| e.counts.len() >= 4),
        "counts to depth 4"
    );
    assert!(entries.iter().any(|e| e.rules != DEFAULT));
}

#[test]
fn perft_table_to_depth_3() {
    check_table(scaled(3, 2));
}

#[test]
#[ignore = "slow: every depth of the perft table (run with --release -- --ignored)"]
fn perft_table_all_depths() {
    check_table(usize::MAX);
}

// ---------------------------------------------------------------------------------------
// Producing the perft table
// ---------------------------------------------------------------------------------------

/// A position from seeded random games that prefer pushing marbles off: the first position
/// of a game with at least `min_sectors` occupied sectors, the pending flag and the side to
/// move as asked, and its ply.
fn sampled_position(
    seed: u64,
    rules: Rules,
    min_sectors: usize,
    pending: bool,
    side: Player,
) -> (String, usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..1000 {
        let mut found = None;
        let mut ply = 0;
        random_game(&mut rng, rules, 300, 6, |position, _| {
            let sectors = (0..12).filter(|&s| position.sector(s).is_some()).count();
            if found.is_none()
                && position.outcome().is_none()
                && sectors >= min_sectors
                && position.pending() == pending
                && position.to_move() == side
            {
                found = Some((position.to_string(), ply));
            }
            ply += 1;
        });
        if let Some(found) = found {
            return found;
        }
    }
    panic!("no position found for seed {seed}");
}

/// Prints the perft table's lines (positions, provenance comments and counts to depth 4).
/// `cargo test --release --test rules offboard_rules::print_perft_table -- --ignored --nocapture`
#[test]
#[ignore = "prints the lines of positions/offboard.perft"]
fn print_perft_table() {
    let custom = [
        Rules::new([3; 12]).expect("valid"),
        Rules::new([1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3]).expect("valid"),
    ];
    let mut lines: Vec<(String, Rules, String)> =
        vec![(START.to_string(), DEFAULT, "Start position.".to_string())];
    let (red, yellow) = (Player::One, Player::Two);
    for (seed, min_sectors, pending, side) in [
        (1, 2, true, yellow),
        (2, 3, true, yellow),
        (3, 4, true, yellow),
        (4, 2, false, red),
        (5, 4, false, red),
        (6, 1, true, red),
        (7, 5, false, yellow),
        (8, 3, true, red),
    ] {
        let (text, ply) = sampled_position(seed, DEFAULT, min_sectors, pending, side);
        lines.push((
            text,
            DEFAULT,
            format!("Random play (seed {seed}), ply {ply}."),
        ));
    }
    for (i, rules) in custom.into_iter().enumerate() {
        let seed = 10 + i as u64;
        let (text, ply) = sampled_position(seed, rules, 2, true, [yellow, red][i]);
        lines.push((
            text,
            rules,
            format!("Random play (seed {seed}), ply {ply}, sector values {rules}."),
        ));
    }
    // Each side can roll an opposing marble off three corners; sectors 12 and 8 are taken.
    let (corner_red, corner_yellow) = ("c3 b2 c5 b5 e7 e8 i9 i5 e1", "a1 a5 e9 g7 h8 g5 h5 e3 e2");
    let alternating = custom[1];
    let handmade = [
        (
            pos(
                "e1 e2 e3 e4 e5 a1",
                "e6 e7 e8 e9 i5",
                "r 0 0 ............ - 1",
            ),
            DEFAULT,
            "Five push four, the front one off the corner (4,10).",
        ),
        (
            pos(corner_red, corner_yellow, "r 1 2 .......r...y - 1"),
            DEFAULT,
            "Pushes off all six corners, two of them into occupied sectors.",
        ),
        (
            pos(corner_red, corner_yellow, "y 3 3 .......r...y - 1"),
            alternating,
            "The same with yellow to move, every corner rolling the other way.",
        ),
        (
            pos(corner_red, corner_yellow, "r 2 2 .......r...y - 1"),
            Rules::new([2; 12]).expect("valid"),
            "The same with equal values: every corner ties.",
        ),
    ];
    lines.extend(
        handmade
            .into_iter()
            .map(|(text, rules, comment)| (text, rules, comment.to_string())),
    );
    for (text, rules, comment) in lines {
        let position = parse(&text, rules);
        let counts: Vec<String> = (1..=4)
            .map(|d| format!("D{d} {}", perft(&position, d)))
            .collect();
        let tag = if rules == DEFAULT {
            String::new()
        } else {
            format!(" ; sectors={rules}")
        };
        println!("# {comment}\n{text} ; {}{tag}", counts.join(" ; "));
    }
}
