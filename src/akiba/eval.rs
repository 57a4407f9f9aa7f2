//! Static evaluation of Akiba positions: a weighted sum of named terms (see
//! [`crate::linear`]), each the side to move's count minus the opponent's unless it belongs
//! to one side's turn. The weights live in `weights.rs`, written by `shove tune`.

use super::board::{Direction, FILE_A, RANK_1};
use super::position::{MARBLES_PER_PLAYER, Position};
use crate::game::Player;
use crate::linear::Terms;

/// Term indices; the per-cell table follows the named terms.
pub mod term {
    /// Per red won.
    pub const RED_WON: usize = 0;
    /// Per red won, times the reds won: a red counts more the closer it brings the win.
    pub const RED_WON_PROGRESS: usize = 1;
    /// Per own marble on the board.
    pub const MARBLE: usize = 2;
    /// Per missing own marble, squared, negated: losing the last marbles is losing the game.
    pub const MARBLE_SCARCITY: usize = 3;
    /// Per push the side to move has that wins a red now.
    pub const RED_THREAT_TO_MOVE: usize = 4;
    /// Per push the side to move has that captures an opposing marble now.
    pub const CAPTURE_THREAT_TO_MOVE: usize = 5;
    /// Per push the waiting side would have that wins a red (negated; the mover can parry
    /// few).
    pub const RED_THREAT_WAITING: usize = 6;
    /// Per push the waiting side would have that captures a marble (negated).
    pub const CAPTURE_THREAT_WAITING: usize = 7;
    /// Per own marble on an edge square (where it can be pushed off).
    pub const EDGE_EXPOSURE: usize = 8;
    /// Per legal push.
    pub const MOBILITY: usize = 9;
    /// Per red standing in a rank or file that holds an own marble.
    pub const RED_IN_OWN_LINE: usize = 10;
    /// For being the side to move.
    pub const TEMPO: usize = 11;
    /// Per pair of orthogonally adjacent own marbles: a row to push with.
    pub const COHESION: usize = 12;
    /// First of the per-cell terms: an own marble on a square of that class. The 49
    /// squares fall into 10 classes under the board's 8 symmetries (rotations and
    /// reflections; the rules know no direction), which share a weight.
    pub const CELL: usize = 13;
    /// Number of terms.
    pub const COUNT: usize = CELL + 10;
}

/// Names of the terms before the per-cell table, in index order.
const NAMES: [&str; term::CELL] = [
    "red_won",
    "red_won_progress",
    "marble",
    "marble_scarcity",
    "red_threat_to_move",
    "capture_threat_to_move",
    "red_threat_waiting",
    "capture_threat_waiting",
    "edge_exposure",
    "mobility",
    "red_in_own_line",
    "tempo",
    "cohesion",
];

/// Every term's name; a per-cell class is named by its square nearest a1 with the file
/// not past the rank (`cells_like_a1`, `cells_like_a2`, `cells_like_b2`, .. `cells_like_d4`).
pub fn term_names() -> Vec<String> {
    let cells = (0..4u8).flat_map(|rank| {
        (0..=rank).map(move |file| format!("cells_like_{}{}", (b'a' + file) as char, rank + 1))
    });
    NAMES.iter().map(|n| n.to_string()).chain(cells).collect()
}

const EDGES: u64 = RANK_1 | (RANK_1 << 48) | FILE_A | (FILE_A << 6);

/// What one player has, counted from the board.
struct Counts {
    reds_won: i32,
    marbles: i32,
    missing: i32,
    mobility: i32,
    red_threats: i32,
    capture_threats: i32,
    edge: i32,
    reds_in_lines: i32,
    cohesion: i32,
}

/// The ranks and files of the board, each a line a red can stand in.
const LINES: [u64; 14] = {
    let mut lines = [0; 14];
    let mut i = 0;
    while i < 7 {
        lines[2 * i] = RANK_1 << (8 * i);
        lines[2 * i + 1] = FILE_A << i;
        i += 1;
    }
    lines
};

/// Both players' counts, indexed by [`Player::index`].
fn counts(position: &Position) -> [Counts; 2] {
    let red = position.marbles[2];
    let pushes = position.push_counts();
    let mut reds_in_lines = [0; 2];
    for line in LINES {
        let reds = (red & line).count_ones() as i32;
        for (player, count) in reds_in_lines.iter_mut().enumerate() {
            if position.marbles[player] & line != 0 {
                *count += reds;
            }
        }
    }
    [0, 1].map(|player| {
        let own = position.marbles[player];
        let marbles = own.count_ones() as i32;
        // East and north neighbours: each adjacent pair once.
        let cohesion = (own & Direction::North.shift(own)).count_ones()
            + (own & Direction::East.shift(own)).count_ones();
        Counts {
            reds_won: i32::from(position.reds_won[player]),
            marbles,
            missing: MARBLES_PER_PLAYER as i32 - marbles,
            mobility: pushes[player].all as i32,
            red_threats: pushes[player].win_red as i32,
            capture_threats: pushes[player].capture as i32,
            edge: (own & EDGES).count_ones() as i32,
            reds_in_lines: reds_in_lines[player],
            cohesion: cohesion as i32,
        }
    })
}

/// The symmetry class of a square, 0..10: fold the board onto its corner triangle a1-d1-d4
/// (class `rank * (rank + 1) / 2 + file` there).
const fn cell(square: super::board::Square) -> usize {
    const fn fold(x: u8) -> usize {
        (if x < 6 - x { x } else { 6 - x }) as usize
    }
    let (file, rank) = (fold(square.file()), fold(square.rank()));
    let (low, high) = if file < rank {
        (file, rank)
    } else {
        (rank, file)
    };
    high * (high + 1) / 2 + low
}

/// The squares of each symmetry class ([`cell`]), so that the per-cell terms are counted
/// a class at a time.
const CELL_CLASSES: [u64; 10] = {
    let mut classes = [0; 10];
    let mut index = 0;
    while index < 64 {
        if let Some(square) = super::board::Square::from_index(index) {
            classes[cell(square)] |= square.bit();
        }
        index += 1;
    }
    classes
};

/// Emits the features of `position` from the side to move's view.
#[inline]
pub fn features(position: &Position, terms: &mut impl Terms) {
    let me = position.side;
    let [white, black] = counts(position);
    let (a, b) = match me {
        Player::One => (white, black),
        Player::Two => (black, white),
    };
    terms.add(term::RED_WON, a.reds_won - b.reds_won);
    terms.add(
        term::RED_WON_PROGRESS,
        a.reds_won * a.reds_won - b.reds_won * b.reds_won,
    );
    terms.add(term::MARBLE, a.marbles - b.marbles);
    terms.add(
        term::MARBLE_SCARCITY,
        b.missing * b.missing - a.missing * a.missing,
    );
    terms.add(term::RED_THREAT_TO_MOVE, a.red_threats);
    terms.add(term::CAPTURE_THREAT_TO_MOVE, a.capture_threats);
    terms.add(term::RED_THREAT_WAITING, -b.red_threats);
    terms.add(term::CAPTURE_THREAT_WAITING, -b.capture_threats);
    terms.add(term::EDGE_EXPOSURE, a.edge - b.edge);
    terms.add(term::MOBILITY, a.mobility - b.mobility);
    terms.add(term::RED_IN_OWN_LINE, a.reds_in_lines - b.reds_in_lines);
    terms.add(term::TEMPO, 1);
    terms.add(term::COHESION, a.cohesion - b.cohesion);
    let (own, opponent) = (
        position.marbles[me.index()],
        position.marbles[me.other().index()],
    );
    for (class, squares) in CELL_CLASSES.into_iter().enumerate() {
        let difference =
            (own & squares).count_ones() as i32 - (opponent & squares).count_ones() as i32;
        terms.add(term::CELL + class, difference);
    }
}

/// Reds won and marbles left, 100 each, from the view of the side to move.
pub fn material(position: &Position) -> i32 {
    let count = |player: Player| {
        i32::from(position.reds_won[player.index()])
            + position.marbles[player.index()].count_ones() as i32
    };
    100 * (count(position.side) - count(position.side.other()))
}

#[cfg(test)]
mod tests {
    use super::super::weights::WEIGHTS;
    use super::*;
    use crate::evaluation::Evaluation;
    use crate::linear::Sparse;

    fn eval(text: &str) -> i32 {
        Evaluation::evaluate(&text.parse::<Position>().expect("valid"))
    }

    #[test]
    fn start_position_is_balanced_up_to_tempo() {
        // The start is symmetric: only the tempo term separates the sides.
        assert_eq!(eval(Position::START), WEIGHTS[term::TEMPO]);
    }

    #[test]
    fn material_and_reds_count() {
        let base = eval("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1");
        let red_up = eval("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB3WW/BB3WW w 1 0 - - 1");
        let marble_up = eval("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/B4WW w 0 0 - - 1");
        assert!(red_up > base + 50, "{red_up} vs {base}");
        assert!(marble_up > base + 50, "{marble_up} vs {base}");
    }

    #[test]
    fn material_counts_reds_and_marbles() {
        let position: Position = "7/3W3/7/B2R3/7/7/7 b 1 2 - - 9".parse().expect("valid");
        // Black: 2 reds + 1 marble; White: 1 red + 1 marble.
        assert_eq!(material(&position), 100);
    }

    #[test]
    fn colour_symmetric() {
        // Mirroring the board top-bottom and swapping colours gives the same value (the
        // per-cell table is symmetric as long as its weights are).
        let white: Position = "7/7/7/W2R3/7/3B3/7 w 2 1 - - 9".parse().expect("valid");
        let black: Position = "7/3W3/7/B2R3/7/7/7 b 1 2 - - 9".parse().expect("valid");
        let mut weights = WEIGHTS;
        weights[term::CELL..].fill(0);
        assert_eq!(white.evaluate_with(&weights), black.evaluate_with(&weights));
    }

    #[test]
    fn symmetric_squares_share_a_class() {
        use super::super::board::Square;
        let mut members = [0; 10];
        for square in Square::all() {
            let class = cell(square);
            members[class] += 1;
            let mirrored = Square::new(6 - square.file(), square.rank());
            let turned = Square::new(square.rank(), 6 - square.file());
            assert_eq!(cell(mirrored), class, "{square}");
            assert_eq!(cell(turned), class, "{square}");
        }
        // Corners, edge squares, diagonals and the centre.
        assert_eq!(members, [4, 8, 4, 8, 8, 4, 4, 4, 4, 1]);
        assert_eq!(term_names()[term::CELL + 9], "cells_like_d4");
    }

    #[test]
    fn features_count_a_concrete_position() {
        // White to move: a marble on d6 and one on d5 (one adjacent pair), 2 reds won;
        // Black: a marble on a4, 1 red won; a red on d4.
        let position: Position = "7/3W3/3W3/B2R3/7/7/7 w 2 1 - - 9".parse().expect("valid");
        let mut sparse = Sparse::default();
        features(&position, &mut sparse);
        let value = |t: usize| {
            sparse
                .0
                .iter()
                .find(|e| usize::from(e.0) == t)
                .map_or(0, |e| e.1)
        };
        assert_eq!(value(term::RED_WON), 1);
        assert_eq!(value(term::RED_WON_PROGRESS), 4 - 1);
        assert_eq!(value(term::MARBLE), 1);
        assert_eq!(value(term::MARBLE_SCARCITY), 7 * 7 - 6 * 6);
        assert_eq!(value(term::COHESION), 1);
        assert_eq!(value(term::TEMPO), 1);
        // d6 folds to b4 (low 1, high 3: class 7), a4 to a4 (low 0, high 3: class 6).
        assert_eq!(value(term::CELL + 7), 1, "d6");
        assert_eq!(value(term::CELL + 6), -1, "a4");
        assert_eq!(sparse.dot(&WEIGHTS), position.evaluate());
    }
}
