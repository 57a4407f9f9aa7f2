//! Static evaluation of Offboard positions. Every term has a named weight so it can be tuned.

use super::board::{Cells, Direction};
use super::movegen::{LineMove, Push};
use super::position::{POINTS_TO_WIN, Position};
use crate::game::Player;

/// Weights of the evaluation terms, in hundredths of a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per point scored.
    pub point: i32,
    /// Per point, times the points: the last points before 6 matter most.
    pub point_progress: i32,
    /// Per own marble on the board: pushing power, and a marble not yet lost.
    pub marble: i32,
    /// For a marble the side to move may re-place (it returns at the cost of a move).
    pub pending: i32,
    /// Per own marble on the rim and way off the board into an empty sector, times that
    /// sector's value: what the opponent would score by pushing it there.
    pub exposure: i32,
    /// Per own marble on the rim and way off into an occupied sector (the marble would only
    /// come back, costing a move to re-place or being lost).
    pub exposure_occupied: i32,
    /// Per pair of neighbouring own marbles: lines to push with, groups hard to push.
    pub cohesion: i32,
    /// Best push off into an empty sector the side to move has, times the sector's value.
    pub threat_to_move: i32,
    /// Per push off into an empty sector the waiting side would have, times the value (the
    /// mover can parry only some).
    pub threat_waiting: i32,
    /// For the waiting side, when one of those pushes would reach 6 points.
    pub winning_threat_waiting: i32,
    /// Per push off into an occupied sector (the marble returns: a lost move or marble).
    pub return_threat: i32,
    /// Per own marble and step it stands inside the rim (0 on the rim, 4 on e5).
    pub centre: i32,
    /// For being the side to move.
    pub tempo: i32,
}

impl Weights {
    pub const DEFAULT: Weights = Weights {
        point: 100,
        point_progress: 10,
        marble: 30,
        pending: 20,
        exposure: -4,
        exposure_occupied: -2,
        cohesion: 3,
        threat_to_move: 60,
        threat_waiting: 20,
        winning_threat_waiting: 150,
        return_threat: 8,
        centre: 4,
        tempo: 10,
    };
}

/// Terms of one player, from that player's view.
fn player_terms(position: &Position, player: Player, to_move: bool, w: &Weights) -> i32 {
    let rules = &position.rules;
    let own = position.marbles[player.index()];
    let points = position.points[player.index()] as i32;
    let (mut centre, mut cohesion, mut exposure, mut exposure_occupied) = (0, 0, 0, 0);
    let (mut best_threat, mut threats, mut winning_threats, mut return_threats) = (0, 0, 0, 0);
    for cell in Cells(own) {
        centre += 4 - i32::from(cell.distance_from_centre());
        cohesion += (cell.neighbours() & own).count_ones() as i32;
        for dir in Direction::ALL {
            if let Some(exit) = cell.exit(dir) {
                let sector = rules.sector(exit);
                if position.sectors[sector].is_none() {
                    exposure += i32::from(rules.value(sector));
                } else {
                    exposure_occupied += 1;
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
                    best_threat = best_threat.max(value);
                    threats += value;
                    winning_threats += i32::from(points + value >= POINTS_TO_WIN as i32);
                } else {
                    return_threats += 1;
                }
            }
        }
    }
    let turn_terms = if to_move {
        w.threat_to_move * best_threat + if position.pending { w.pending } else { 0 } + w.tempo
    } else {
        w.threat_waiting * threats + w.winning_threat_waiting * winning_threats
    };
    w.point * points
        + w.point_progress * points * points
        + w.marble * own.count_ones() as i32
        + w.exposure * exposure
        + w.exposure_occupied * exposure_occupied
        // Each pair was counted from both ends.
        + w.cohesion * cohesion / 2
        + w.return_threat * return_threats
        + w.centre * centre
        + turn_terms
}

/// The evaluation from the view of the side to move.
pub fn evaluate(position: &Position, weights: &Weights) -> i32 {
    let me = position.side;
    player_terms(position, me, true, weights) - player_terms(position, me.other(), false, weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(text: &str) -> i32 {
        evaluate(&text.parse().expect("valid"), &Weights::DEFAULT)
    }

    #[test]
    fn start_position_is_balanced_up_to_tempo() {
        assert_eq!(eval(Position::START), Weights::DEFAULT.tempo);
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
        // A half turn with colours swapped: the same position for the other side.
        let red = eval("5/6/7/8/3RRY3/8/7/6/5 r 0 0 ............ - 3");
        let yellow = eval("5/6/7/8/3RYY3/8/7/6/5 y 0 0 ............ - 3");
        assert_eq!(red, yellow);
        let red = eval("YR3/6/7/8/9/8/7/6/5 r 2 1 .y...r...... p 9");
        let yellow = eval("5/6/7/8/9/8/7/6/3YR y 1 2 .......r...y p 9");
        assert_eq!(red, yellow);
    }
}
