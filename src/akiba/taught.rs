//! Akiba's answers to the lessons' goals: cells, marbles on the board, the extra move
//! and the push-back ban.

use super::{Marble, Position};
use crate::phrase::Phrase;
use crate::taught::{Goal, Taught, unexpected};

impl Taught for Position {
    const GOALS: &'static [&'static str] = &["win", "off", "cell", "again", "banned"];
    const COLOURS: &'static [&'static str] = &["white", "black", "red"];

    fn content(&self, cell: &str) -> Option<&'static str> {
        let square: super::Square = cell.parse().ok()?;
        Some(match self.marble_at(square) {
            None => "empty",
            Some(Marble::White) => "white",
            Some(Marble::Black) => "black",
            Some(Marble::Red) => "red",
        })
    }

    fn on_board(&self, colour: &str) -> u32 {
        let kind = match colour {
            "white" => Marble::White,
            "black" => Marble::Black,
            _ => Marble::Red,
        };
        self.marbles(kind).count_ones()
    }

    fn own_goal(goal: &Goal, _before: &Self, after: &Self) -> Result<(), Phrase> {
        match goal {
            Goal::Again if after.in_extra_move() && after.outcome().is_none() => Ok(()),
            Goal::Again => Err(Phrase::new("no extra move: this push captures nothing")),
            Goal::Banned if after.banned_move().is_some() => Ok(()),
            Goal::Banned => Err(Phrase::new(
                "after this push the opponent may push straight back",
            )),
            _ => Err(unexpected(goal)),
        }
    }
}
