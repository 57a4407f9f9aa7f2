//! The goals an exercise can set, checked by the game's rules on the position before and
//! after the learner's move; when a move misses the goal, the reason is a phrase the page
//! translates (docs/lessons.md, Goals).

use crate::game::Outcome;
use crate::phrase::Phrase;
use crate::taught::{Goal, Taught};

/// Whether `goal` is one this game's exercises can set in `position`, or why not.
pub fn usable<G: Taught>(goal: &Goal, position: &G) -> Result<(), String> {
    if !G::GOALS.contains(&goal.word()) {
        return Err(format!(
            "goal '{}' is not one of {}'s: {}",
            goal.word(),
            G::NAME,
            G::GOALS.join(", ")
        ));
    }
    match goal {
        Goal::Off(colour) if !G::COLOURS.contains(&colour.as_str()) => Err(format!(
            "colour '{colour}' is not one of {}",
            G::COLOURS.join(", ")
        )),
        Goal::Cell(cell, _) if position.content(cell).is_none() => {
            Err(format!("'{cell}' is not a cell of the board"))
        }
        Goal::Cell(_, content) if !CONTENTS.contains(&content.as_str()) => Err(format!(
            "content '{content}' is not one of {}",
            CONTENTS.join(", ")
        )),
        Goal::Corner(name) if !G::is_corner(name) => Err(format!("'{name}' is not a corner")),
        _ => Ok(()),
    }
}

/// What a `cell` goal may ask a cell to hold.
const CONTENTS: &[&str] = &["white", "black", "red", "yellow", "blue", "empty"];

/// Whether the move that turned `before` into `after` reaches `goal`, or why not.
pub fn reached<G: Taught>(goal: &Goal, before: &G, after: &G) -> Result<(), Phrase> {
    let mover = before.to_move();
    match goal {
        Goal::Win => match after.outcome() {
            Some(Outcome::Win(winner)) if winner == mover => Ok(()),
            _ => Err(Phrase::new("the game is not won yet")),
        },
        Goal::Off(colour) => {
            if after.on_board(colour) < before.on_board(colour) {
                Ok(())
            } else {
                Err(not_off(colour))
            }
        }
        Goal::Cell(cell, content) => {
            if after.content(cell) == Some(content.as_str()) {
                Ok(())
            } else {
                Err(not_holding(content).with("cell", cell))
            }
        }
        Goal::Gain(n) => {
            let got = after.tally(mover).saturating_sub(before.tally(mover));
            if got == *n {
                Ok(())
            } else {
                Err(G::gain_missed(*n, got))
            }
        }
        _ => G::own_goal(goal, before, after),
    }
}

fn not_off(colour: &str) -> Phrase {
    match colour {
        "white" => Phrase::new("no white marble leaves the board"),
        "black" => Phrase::new("no black marble leaves the board"),
        "red" => Phrase::new("no red marble leaves the board"),
        _ => Phrase::new("no yellow marble leaves the board"),
    }
}

fn not_holding(content: &str) -> Phrase {
    match content {
        "white" => Phrase::new("after this move {cell} holds no white marble"),
        "black" => Phrase::new("after this move {cell} holds no black marble"),
        "red" => Phrase::new("after this move {cell} holds no red marble"),
        "yellow" => Phrase::new("after this move {cell} holds no yellow marble"),
        "blue" => Phrase::new("after this move {cell} holds no blue stone"),
        _ => Phrase::new("after this move {cell} is not empty"),
    }
}
