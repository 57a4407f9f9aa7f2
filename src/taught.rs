//! What the lessons ask of a game: the parts of an exercise's goal, and the facts of a
//! position that decide them. Each game answers them in its own module (`taught.rs`);
//! [`crate::lessons::goals`] checks a move against a goal with them.

use crate::game::{Game, Player};
use crate::phrase::Phrase;

/// One part of an exercise's goal; a goal is one or more parts, all of which must hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The move wins the game for the mover.
    Win,
    /// A marble of this colour leaves the board.
    Off(String),
    /// After the move this cell holds this content (`white`, `red`, `empty`…).
    Cell(String, String),
    /// The mover's tally rises by exactly this much (Offboard: points; Abraxas: stones).
    Gain(u32),
    /// The mover decides again in this turn (Akiba: the extra move; Abraxas: the replay).
    Again,
    /// Akiba: the opponent may not push the pushed marble straight back.
    Banned,
    /// Offboard: the marble pushed off lands in an occupied sector and goes back.
    Back,
    /// Abraxas: after the slide a line holds a red stone (a capture is due).
    Line,
    /// Abraxas: the mover's next decision can complete no line.
    Block,
    /// Abraxas: the plate lies in this corner after the move.
    Corner(String),
}

impl Goal {
    /// Parses one part (`off black`, `cell d5 white`, `gain 2`), or says why not.
    pub fn parse(text: &str) -> Result<Goal, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let goal = match words[..] {
            ["win"] => Goal::Win,
            ["off", colour] => Goal::Off(colour.to_string()),
            ["cell", cell, content] => Goal::Cell(cell.to_string(), content.to_string()),
            ["gain", n] => Goal::Gain(
                n.parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("gain '{n}' is not a count above 0"))?,
            ),
            ["again"] => Goal::Again,
            ["banned"] => Goal::Banned,
            ["back"] => Goal::Back,
            ["line"] => Goal::Line,
            ["block"] => Goal::Block,
            ["corner", corner] => Goal::Corner(corner.to_string()),
            _ => {
                return Err(format!(
                    "goal '{text}' is not one of: win, off COLOUR, cell CELL CONTENT, gain N, \
                     again, banned, back, line, block, corner CORNER"
                ));
            }
        };
        Ok(goal)
    }

    /// The word that names the part (`off`, `cell`…).
    pub fn word(&self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::Off(_) => "off",
            Goal::Cell(..) => "cell",
            Goal::Gain(_) => "gain",
            Goal::Again => "again",
            Goal::Banned => "banned",
            Goal::Back => "back",
            Goal::Line => "line",
            Goal::Block => "block",
            Goal::Corner(_) => "corner",
        }
    }
}

/// What a game's lessons can ask of a move: the words of its goals and the facts of its
/// positions that decide them.
pub trait Taught: Game {
    /// The goal words this game's exercises may use.
    const GOALS: &'static [&'static str];
    /// The colours that can leave the board (`off`).
    const COLOURS: &'static [&'static str];
    /// What a cell holds (as the page draws it: `white`, `red`, `empty`…); `None` for a
    /// name that is no cell of the board.
    fn content(&self, cell: &str) -> Option<&'static str>;
    /// Marbles of a colour on the board.
    fn on_board(&self, colour: &str) -> u32;
    /// The player's tally for `gain`.
    fn tally(&self, _player: Player) -> u32 {
        0
    }
    /// Why `gain n` was missed, having gained `got`.
    fn gain_missed(_n: u32, _got: u32) -> Phrase {
        Phrase::new("the goal is not reached")
    }
    /// The game's own goal words (`again`, `banned`, `back`, `line`, `block`, `corner`).
    fn own_goal(goal: &Goal, before: &Self, after: &Self) -> Result<(), Phrase>;
    /// Whether a `corner` goal names a corner of this game.
    fn is_corner(_name: &str) -> bool {
        false
    }
}

/// The reason for a goal word that the game's lessons do not use.
pub fn unexpected(goal: &Goal) -> Phrase {
    Phrase::new("goal '{goal}' is not one of this game's").with("goal", goal.word())
}
