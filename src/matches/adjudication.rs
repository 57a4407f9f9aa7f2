//! Draws the rules never declare: Akiba's rulebook has no draw, yet two engines can shuffle
//! marbles forever. The match runner and the protocol options `MaxPlies` and
//! `RepetitionDraw` end such games the same way, so a runner that only asks the engine
//! (cutegames) and `shove match` agree on every result.

use crate::game::Game;
use crate::game::Outcome;
use std::fmt;

/// The extra draw rules in force for a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Once this many moves have been played the game is drawn; 0 = no limit.
    pub max_plies: usize,
    /// The third occurrence of a position is a draw.
    pub repetition_draw: bool,
}

/// Why an adjudicated game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    MoveLimit,
    Repetition,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::MoveLimit => "adjudicated draw: move limit",
            DrawReason::Repetition => "adjudicated draw: third repetition",
        })
    }
}

impl Adjudication {
    /// Whether the game stands drawn by these rules. `history` holds the hashes of the
    /// positions before each move played since the game's start position, so its length is
    /// the number of moves played. A result by the rules takes precedence.
    pub fn draw<G: Game>(&self, position: &G, history: &[u64]) -> Option<DrawReason> {
        if position.outcome().is_some() {
            return None;
        }
        let key = position.hash();
        if self.repetition_draw && history.iter().filter(|&&h| h == key).count() >= 2 {
            Some(DrawReason::Repetition)
        } else if self.max_plies > 0 && history.len() >= self.max_plies {
            Some(DrawReason::MoveLimit)
        } else {
            None
        }
    }

    /// The game's result under the rules and these draw rules, `None` while it goes on.
    pub fn outcome<G: Game>(&self, position: &G, history: &[u64]) -> Option<Outcome> {
        position
            .outcome()
            .or_else(|| self.draw(position, history).map(|_| Outcome::Draw))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::akiba::{Position, Rules};
    use crate::cli::play_moves;

    /// White and Black step a marble out and back: the start position recurs every four
    /// moves.
    const CYCLE: &str = "a7a6 g7g6 a5a6 g5g6";

    fn after(moves: &str) -> (Position, Vec<u64>) {
        let mut position = Position::start(Rules::default());
        let history = play_moves(&mut position, moves).expect("legal moves");
        (position, history)
    }

    #[test]
    fn third_occurrence_is_a_draw() {
        let rule = Adjudication {
            max_plies: 0,
            repetition_draw: true,
        };
        let (position, history) = after(CYCLE);
        assert_eq!(rule.draw(&position, &history), None);
        let (position, history) = after(&format!("{CYCLE} {CYCLE}"));
        assert_eq!(rule.draw(&position, &history), Some(DrawReason::Repetition));
        assert_eq!(rule.outcome(&position, &history), Some(Outcome::Draw));
        assert_eq!(Adjudication::default().draw(&position, &history), None);
    }

    #[test]
    fn move_limit_counts_moves_played() {
        let rule = Adjudication {
            max_plies: 4,
            repetition_draw: false,
        };
        let (position, history) = after("a7a6 g7g6 a5a6");
        assert_eq!(rule.draw(&position, &history), None);
        let (position, history) = after(CYCLE);
        assert_eq!(rule.draw(&position, &history), Some(DrawReason::MoveLimit));
    }

    #[test]
    fn a_finished_game_keeps_its_result() {
        let position: Position = "6B/7/7/7/7/7/W6 b 7 0 - - 1".parse().unwrap();
        let rule = Adjudication {
            max_plies: 1,
            repetition_draw: true,
        };
        let history = [0; 5];
        assert_eq!(rule.draw(&position, &history), None);
        assert_eq!(position.outcome(), rule.outcome(&position, &history));
    }
}
