//! Offboard's answers to the lessons' goals: cells, marbles on the board, points and
//! marbles sent back.

use super::Position;
use crate::game::Player;
use crate::phrase::Phrase;
use crate::taught::{Goal, Taught, unexpected};

impl Taught for Position {
    const GOALS: &'static [&'static str] = &["win", "off", "cell", "gain", "back"];
    const COLOURS: &'static [&'static str] = &["red", "yellow"];

    fn content(&self, cell: &str) -> Option<&'static str> {
        let cell: super::Cell = cell.parse().ok()?;
        Some(match self.marble_at(cell) {
            None => "empty",
            Some(Player::One) => "red",
            Some(Player::Two) => "yellow",
        })
    }

    fn on_board(&self, colour: &str) -> u32 {
        let player = if colour == "red" {
            Player::One
        } else {
            Player::Two
        };
        self.marbles(player).count_ones()
    }

    fn tally(&self, player: Player) -> u32 {
        self.points(player)
    }

    fn gain_missed(n: u32, got: u32) -> Phrase {
        Phrase::new("this move scores {got} points, not {n}")
            .with("got", got)
            .with("n", n)
    }

    fn own_goal(goal: &Goal, _before: &Self, after: &Self) -> Result<(), Phrase> {
        match goal {
            Goal::Back if after.pending() => Ok(()),
            Goal::Back => Err(Phrase::new("no marble goes back to its owner")),
            _ => Err(unexpected(goal)),
        }
    }
}
