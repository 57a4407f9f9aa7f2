//! Static evaluation of Offboard positions: a weighted sum of named terms (see
//! [`crate::linear`]), each the side to move's count minus the opponent's unless it belongs
//! to one side's turn. The weights live in `weights.rs`, written by `shove tune`.

use super::board::{CELLS, Cell, Cells, Direction};
use super::position::{LineMove, POINTS_TO_WIN, Position, Push};
use crate::game::Player;
use crate::linear::Terms;

/// Term indices; the per-cell table follows the named terms.
pub mod term {
    /// Per point scored.
    pub const POINT: usize = 0;
    /// Per point, times the points: the last points before 6 matter most.
    pub const POINT_PROGRESS: usize = 1;
    /// Per own marble on the board: pushing power, and a marble not yet lost.
    pub const MARBLE: usize = 2;
    /// Per own marble on the rim and way off the board into an empty sector, times that
    /// sector's value: what the opponent would score by pushing it there.
    pub const EXPOSURE: usize = 3;
    /// Per own marble on the rim and way off into an occupied sector (the marble would only
    /// come back, costing a move to re-place or being lost).
    pub const EXPOSURE_OCCUPIED: usize = 4;
    /// Per pair of neighbouring own marbles: lines to push with, groups hard to push.
    pub const COHESION: usize = 5;
    /// Per push off into an occupied sector (the marble returns: a lost move or marble).
    pub const RETURN_THREAT: usize = 6;
    /// Per own marble and step it stands inside the rim (0 on the rim, 4 on e5).
    pub const CENTRE: usize = 7;
    /// Best push off into an empty sector the side to move has, times the sector's value.
    pub const THREAT_TO_MOVE: usize = 8;
    /// For a marble the side to move may re-place (it returns at the cost of a move).
    pub const PENDING: usize = 9;
    /// For being the side to move.
    pub const TEMPO: usize = 10;
    /// Per push off into an empty sector the waiting side would have, times the value,
    /// negated (the mover can parry only some).
    pub const THREAT_WAITING: usize = 11;
    /// Per push of the waiting side's that would reach 6 points, negated.
    pub const WINNING_THREAT_WAITING: usize = 12;
    /// First of the per-cell terms: an own marble on that cell or on the cell a half turn
    /// away (the rules and the sector values look the same from both sides), 31 in all.
    pub const CELL: usize = 13;
    /// Number of terms.
    pub const COUNT: usize = CELL + super::CELLS.div_ceil(2);
}

/// Names of the terms before the per-cell table, in index order.
const NAMES: [&str; term::CELL] = [
    "point",
    "point_progress",
    "marble",
    "exposure",
    "exposure_occupied",
    "cohesion",
    "return_threat",
    "centre",
    "threat_to_move",
    "pending",
    "tempo",
    "threat_waiting",
    "winning_threat_waiting",
];

/// Every term's name; `cells_like_a1` .. `cells_like_e5` for the per-cell table (a1 and
/// i9 share a weight, and so on to e5).
pub fn term_names() -> Vec<String> {
    let cells = Cell::all()
        .take(CELLS.div_ceil(2))
        .map(|c| format!("cells_like_{c}"));
    NAMES.iter().map(|n| n.to_string()).chain(cells).collect()
}

/// The per-cell class of a cell: cell indices run a1 = 0 .. i9 = 60 so that a half turn
/// maps index `i` to `60 - i`.
fn cell_class(cell: Cell) -> usize {
    cell.index().min(CELLS - 1 - cell.index())
}

/// What one player has, counted from the board.
struct Counts {
    points: i32,
    marbles: i32,
    centre: i32,
    /// Each pair counted from both ends.
    cohesion: i32,
    exposure: i32,
    exposure_occupied: i32,
    best_threat: i32,
    threats: i32,
    winning_threats: i32,
    return_threats: i32,
}

fn counts(position: &Position, player: Player) -> Counts {
    let rules = &position.rules;
    let own = position.marbles[player.index()];
    let points = position.points[player.index()] as i32;
    let mut c = Counts {
        points,
        marbles: own.count_ones() as i32,
        centre: 0,
        cohesion: 0,
        exposure: 0,
        exposure_occupied: 0,
        best_threat: 0,
        threats: 0,
        winning_threats: 0,
        return_threats: 0,
    };
    for cell in Cells(own) {
        c.centre += 4 - i32::from(cell.distance_from_centre());
        c.cohesion += (cell.neighbours() & own).count_ones() as i32;
        for dir in Direction::ALL {
            if let Some(exit) = cell.exit(dir) {
                let sector = rules.sector(exit);
                if position.sectors[sector].is_none() {
                    c.exposure += i32::from(rules.value(sector));
                } else {
                    c.exposure_occupied += 1;
                }
            }
            if let Some(LineMove {
                push: Push::Off(exit),
                ..
            }) = position.line_move(player, cell, dir)
            {
                let sector = rules.sector(exit);
                if position.sectors[sector].is_none() {
                    let value = i32::from(rules.value(sector));
                    c.best_threat = c.best_threat.max(value);
                    c.threats += value;
                    c.winning_threats += i32::from(points + value >= POINTS_TO_WIN as i32);
                } else {
                    c.return_threats += 1;
                }
            }
        }
    }
    c
}

/// Emits the features of `position` from the side to move's view.
#[inline]
pub fn features(position: &Position, terms: &mut impl Terms) {
    let me = position.side;
    let (a, b) = (counts(position, me), counts(position, me.other()));
    terms.add(term::POINT, a.points - b.points);
    terms.add(
        term::POINT_PROGRESS,
        a.points * a.points - b.points * b.points,
    );
    terms.add(term::MARBLE, a.marbles - b.marbles);
    terms.add(term::EXPOSURE, a.exposure - b.exposure);
    terms.add(
        term::EXPOSURE_OCCUPIED,
        a.exposure_occupied - b.exposure_occupied,
    );
    terms.add(term::COHESION, (a.cohesion - b.cohesion) / 2);
    terms.add(term::RETURN_THREAT, a.return_threats - b.return_threats);
    terms.add(term::CENTRE, a.centre - b.centre);
    terms.add(term::THREAT_TO_MOVE, a.best_threat);
    terms.add(term::PENDING, i32::from(position.pending));
    terms.add(term::TEMPO, 1);
    terms.add(term::THREAT_WAITING, -b.threats);
    terms.add(term::WINNING_THREAT_WAITING, -b.winning_threats);
    for cell in Cells(position.marbles[me.index()]) {
        terms.add(term::CELL + cell_class(cell), 1);
    }
    for cell in Cells(position.marbles[me.other().index()]) {
        terms.add(term::CELL + cell_class(cell), -1);
    }
}

/// Points (100 each) and marbles on the board (20 each), from the mover's view.
pub fn material(position: &Position) -> i32 {
    let count =
        |p: Player| 100 * position.points(p) as i32 + 20 * position.marbles(p).count_ones() as i32;
    count(position.side) - count(position.side.other())
}

/// The number of cells, for the per-cell table's size.
const _: () = assert!(CELLS == 61);

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
        let start: Position = Position::START.parse().expect("valid");
        let mut weights = WEIGHTS;
        weights[term::CELL..].fill(0);
        assert_eq!(start.evaluate_with(&weights), WEIGHTS[term::TEMPO]);
    }

    #[test]
    fn points_count() {
        // The same board, once with a yellow marble of red's in sector 3 (3 points).
        let base = eval("RR1YY/R1RY1Y/1RR1YY1/8/9/8/1RR1YY1/R1RY1Y/RR1YY r 0 0 ............ - 1");
        let up = eval("RR1YY/R1RY1Y/1RR1YY1/8/9/8/1RR1YY1/R1RY1Y/RR1Y1 r 3 0 ..y......... - 1");
        assert!(up > base + 250, "{up} vs {base}");
    }

    #[test]
    fn colour_symmetric() {
        // A half turn with colours swapped: the same position for the other side (the
        // per-cell table is symmetric as long as its weights are).
        let mut weights = WEIGHTS;
        weights[term::CELL..].fill(0);
        let eval = |text: &str| {
            text.parse::<Position>()
                .expect("valid")
                .evaluate_with(&weights)
        };
        let red = eval("5/6/7/8/3RRY3/8/7/6/5 r 0 0 ............ - 3");
        let yellow = eval("5/6/7/8/3RYY3/8/7/6/5 y 0 0 ............ - 3");
        assert_eq!(red, yellow);
        let red = eval("YR3/6/7/8/9/8/7/6/5 r 2 1 .y...r...... p 9");
        let yellow = eval("5/6/7/8/9/8/7/6/3YR y 1 2 .......r...y p 9");
        assert_eq!(red, yellow);
    }

    #[test]
    fn half_turned_cells_share_a_class() {
        for cell in Cell::all() {
            let turned = Cell::new(8 - cell.row() as i8, 10 - cell.number() as i8)
                .expect("a half turn stays on the board");
            assert_eq!(cell_class(turned), cell_class(cell), "{cell}");
            assert_eq!(turned.index(), CELLS - 1 - cell.index(), "{cell}");
        }
        assert_eq!(term_names()[term::COUNT - 1], "cells_like_e5");
    }

    #[test]
    fn features_count_a_concrete_position() {
        let value = |text: &str, t: usize| {
            let position: Position = text.parse().expect("valid");
            let mut sparse = Sparse::default();
            features(&position, &mut sparse);
            assert_eq!(sparse.dot(&WEIGHTS), position.evaluate(), "{text}");
            sparse
                .0
                .iter()
                .find(|e| usize::from(e.0) == t)
                .map_or(0, |e| e.1)
        };
        // Red to move with a pending marble: 2 points (a yellow marble in a 2-sector) to 1.
        let scored = "YR3/6/7/8/9/8/7/6/5 r 2 1 .y...r...... p 9";
        assert_eq!(value(scored, term::POINT), 1);
        assert_eq!(value(scored, term::POINT_PROGRESS), 4 - 1);
        assert_eq!(value(scored, term::MARBLE), 0);
        assert_eq!(value(scored, term::PENDING), 1);
        assert_eq!(value(scored, term::TEMPO), 1);
        // Two red marbles side by side and a yellow one: one own pair, one marble more.
        let pair = "5/6/7/8/3RRY3/8/7/6/5 r 0 0 ............ - 3";
        assert_eq!(value(pair, term::COHESION), 1);
        assert_eq!(value(pair, term::MARBLE), 1);
        assert_eq!(value(pair, term::PENDING), 0);
    }
}
