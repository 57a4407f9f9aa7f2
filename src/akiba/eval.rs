//! Static evaluation of Akiba positions. Every term has a named weight so it can be tuned.

use super::board::{Direction, FILE_A, RANK_1};
use super::position::{MARBLES_PER_PLAYER, Position};
use crate::game::Player;

/// Weights of the evaluation terms, in hundredths of a marble-ish unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per red won.
    pub red_won: i32,
    /// Per red won, times the reds won: a red counts more the closer it brings the win.
    pub red_won_progress: i32,
    /// Per own marble on the board.
    pub marble: i32,
    /// Per missing own marble, squared: losing the last marbles is losing the game.
    pub marble_scarcity: i32,
    /// Per push the side to move has that wins a red now.
    pub red_threat_to_move: i32,
    /// Per push the side to move has that captures an opposing marble now.
    pub capture_threat_to_move: i32,
    /// Per push the waiting side would have that wins a red (the mover can parry few).
    pub red_threat_waiting: i32,
    /// Per push the waiting side would have that captures a marble.
    pub capture_threat_waiting: i32,
    /// Per own marble on an edge square (where it can be pushed off).
    pub edge_exposure: i32,
    /// Per legal push.
    pub mobility: i32,
    /// Per red standing in a rank or file that holds an own marble.
    pub red_in_own_line: i32,
    /// For being the side to move.
    pub tempo: i32,
}

impl Weights {
    pub const DEFAULT: Weights = Weights {
        red_won: 100,
        red_won_progress: 8,
        marble: 90,
        marble_scarcity: 6,
        red_threat_to_move: 60,
        capture_threat_to_move: 50,
        red_threat_waiting: 25,
        capture_threat_waiting: 20,
        edge_exposure: -6,
        mobility: 2,
        red_in_own_line: 1,
        tempo: 10,
    };
}

const EDGES: u64 = RANK_1 | (RANK_1 << 48) | FILE_A | (FILE_A << 6);

/// Terms that depend only on one player's marbles, from that player's view.
fn player_terms(position: &Position, player: Player, to_move: bool, w: &Weights) -> i32 {
    let own = position.marbles[player.index()];
    let red = position.marbles[2];
    let reds_won = i32::from(position.reds_won[player.index()]);
    let marbles = own.count_ones() as i32;
    let missing = MARBLES_PER_PLAYER as i32 - marbles;

    let (mut mobility, mut red_threats, mut capture_threats) = (0, 0, 0);
    for dir in Direction::ALL {
        let pushes = position.pushes_for(player, dir);
        mobility += pushes.all.count_ones() as i32;
        red_threats += pushes.win_red.count_ones() as i32;
        capture_threats += pushes.capture.count_ones() as i32;
    }
    let (red_threat, capture_threat) = if to_move {
        (w.red_threat_to_move, w.capture_threat_to_move)
    } else {
        (w.red_threat_waiting, w.capture_threat_waiting)
    };

    let mut reds_in_lines = 0;
    for i in 0..7 {
        let rank = RANK_1 << (8 * i);
        let file = FILE_A << i;
        for line in [rank, file] {
            if own & line != 0 {
                reds_in_lines += (red & line).count_ones() as i32;
            }
        }
    }

    w.red_won * reds_won + w.red_won_progress * reds_won * reds_won + w.marble * marbles
        - w.marble_scarcity * missing * missing
        + red_threat * red_threats
        + capture_threat * capture_threats
        + w.edge_exposure * (own & EDGES).count_ones() as i32
        + w.mobility * mobility
        + w.red_in_own_line * reds_in_lines
        + if to_move { w.tempo } else { 0 }
}

/// The evaluation from the view of the side to move.
pub fn evaluate(position: &Position, weights: &Weights) -> i32 {
    let me = position.side;
    player_terms(position, me, true, weights) - player_terms(position, me.other(), false, weights)
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
    use super::*;

    fn eval(text: &str) -> i32 {
        evaluate(&text.parse().expect("valid"), &Weights::DEFAULT)
    }

    #[test]
    fn start_position_is_balanced_up_to_tempo() {
        // The start is symmetric: only the tempo term separates the sides.
        assert_eq!(eval(Position::START), Weights::DEFAULT.tempo);
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
        // Mirroring the board top-bottom and swapping colours gives the same value.
        let white = eval("7/7/7/W2R3/7/3B3/7 w 2 1 - - 9");
        let black = eval("7/3W3/7/B2R3/7/7/7 b 1 2 - - 9");
        assert_eq!(white, black);
    }
}
