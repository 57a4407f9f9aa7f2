//! The goals an exercise can set, checked by the game's rules on the position before and
//! after the learner's move; when a move misses the goal, the reason is a phrase the page
//! translates (docs/lessons.md, Goals).

use crate::game::{Game, Outcome, Player};
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

fn unexpected(goal: &Goal) -> Phrase {
    Phrase::new("goal '{goal}' is not one of this game's").with("goal", goal.word())
}

impl Taught for crate::akiba::Position {
    const GOALS: &'static [&'static str] = &["win", "off", "cell", "again", "banned"];
    const COLOURS: &'static [&'static str] = &["white", "black", "red"];

    fn content(&self, cell: &str) -> Option<&'static str> {
        use crate::akiba::Marble;
        let square: crate::akiba::Square = cell.parse().ok()?;
        Some(match self.marble_at(square) {
            None => "empty",
            Some(Marble::White) => "white",
            Some(Marble::Black) => "black",
            Some(Marble::Red) => "red",
        })
    }

    fn on_board(&self, colour: &str) -> u32 {
        use crate::akiba::Marble;
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

impl Taught for crate::offboard::Position {
    const GOALS: &'static [&'static str] = &["win", "off", "cell", "gain", "back"];
    const COLOURS: &'static [&'static str] = &["red", "yellow"];

    fn content(&self, cell: &str) -> Option<&'static str> {
        let cell: crate::offboard::Cell = cell.parse().ok()?;
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

impl Taught for crate::abraxas::Position {
    const GOALS: &'static [&'static str] =
        &["win", "cell", "gain", "again", "line", "block", "corner"];
    const COLOURS: &'static [&'static str] = &[];

    fn content(&self, cell: &str) -> Option<&'static str> {
        let hole = (0..64u8).find(|&h| crate::abraxas::hole_name(h) == cell)?;
        let bit = 1u64 << hole;
        Some(if self.red_stones() & bit != 0 {
            "red"
        } else if self.blue_stones() & bit != 0 {
            "blue"
        } else {
            "empty"
        })
    }

    fn on_board(&self, _colour: &str) -> u32 {
        0
    }

    fn tally(&self, player: Player) -> u32 {
        u32::from(self.stones_owned(player))
    }

    fn gain_missed(n: u32, got: u32) -> Phrase {
        Phrase::new("this move takes {got} stones, not {n}")
            .with("got", got)
            .with("n", n)
    }

    fn is_corner(name: &str) -> bool {
        ["sw", "se", "ne", "nw"].contains(&name)
    }

    fn own_goal(goal: &Goal, before: &Self, after: &Self) -> Result<(), Phrase> {
        use crate::abraxas::{FLAG_REPLAY, Phase};
        match goal {
            Goal::Again => {
                let replay = after.flags() & FLAG_REPLAY != 0
                    && after.mover() == before.mover()
                    && matches!(after.phase(), Phase::Place | Phase::StopBefore)
                    && after.outcome().is_none();
                if replay {
                    Ok(())
                } else {
                    Err(Phrase::new("no replay: the turn passes to the opponent"))
                }
            }
            Goal::Line if after.phase() == Phase::Capture => Ok(()),
            Goal::Line => Err(Phrase::new("after the slide no line holds a red stone")),
            Goal::Block => {
                if can_complete_a_line(after) {
                    Err(Phrase::new("the mover can still complete a line"))
                } else {
                    Ok(())
                }
            }
            Goal::Corner(name) if after.corner().name() == name => Ok(()),
            Goal::Corner(name) => {
                Err(Phrase::new("the plate does not lie in corner {corner}").with("corner", name))
            }
            _ => Err(unexpected(goal)),
        }
    }
}

/// Whether the mover's next decision in `position` can bring a line with a red stone: a
/// placement that completes one after the slide, or (after a stop) sliding or staying.
fn can_complete_a_line(position: &crate::abraxas::Position) -> bool {
    use crate::abraxas::Phase;
    use crate::game::MoveList;
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves.iter().any(|&mv| {
        let mut next = position.clone();
        next.play(mv);
        // A replay placement waits for the opponent's stop decision before it slides.
        if next.phase() == Phase::StopAfter {
            let mut pass = next.clone();
            pass.play(crate::abraxas::Move::Pass);
            return pass.phase() == Phase::Capture;
        }
        next.phase() == Phase::Capture || (next.phase() == Phase::Decide && decide_captures(&next))
    })
}

/// In phase `d`: whether sliding or staying brings a capture.
fn decide_captures(position: &crate::abraxas::Position) -> bool {
    [crate::abraxas::Move::Slide, crate::abraxas::Move::Stay]
        .into_iter()
        .any(|mv| {
            let mut next = position.clone();
            next.play(mv);
            next.phase() == crate::abraxas::Phase::Capture
        })
}
