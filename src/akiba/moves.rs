//! Akiba moves and their notation (`a6b6`, `pass`).

use super::board::{Direction, ParseSquareError, Square};
use crate::phrase::{Phrase, Phrased};
use std::fmt;
use std::str::FromStr;

/// A push (own marble's square and a direction) or `pass`, packed in one byte:
/// bits 0..5 the square index, bits 6..7 the direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(u8);

impl Move {
    /// The bound of [`Move::index`].
    pub const INDEX_LIMIT: usize = 256;

    /// Declines an extra move. Square index 63 is never a real square, so it cannot clash.
    pub const PASS: Move = Move(0xFF);

    pub const fn push(from: Square, dir: Direction) -> Move {
        Move(from.index() as u8 | (dir as u8) << 6)
    }

    pub const fn is_pass(self) -> bool {
        self.0 == Move::PASS.0
    }

    /// The pushed own marble's square (meaningless for `pass`).
    pub const fn from(self) -> Square {
        match Square::from_index(self.0 & 63) {
            Some(sq) => sq,
            None => Square::new(0, 0),
        }
    }

    pub const fn direction(self) -> Direction {
        Direction::from_index(self.0 >> 6)
    }

    /// The square the pushed marble moves to: `None` for `pass`, and for a push off the
    /// board (never legal).
    pub const fn to(self) -> Option<Square> {
        if self.is_pass() {
            None
        } else {
            self.from().step(self.direction())
        }
    }

    /// A dense index below [`Move::INDEX_LIMIT`], for per-move tables such as Zobrist keys and
    /// history.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl Default for Move {
    fn default() -> Move {
        Move::PASS
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("pass");
        }
        let from = self.from();
        match self.to() {
            Some(to) => write!(f, "{from}{to}"),
            // A push off the board has no destination square; it is never legal.
            None => write!(f, "{from}-{:?}", self.direction()),
        }
    }
}

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// Not `pass` and not two square names.
    Shape(String),
    Square(ParseSquareError),
    /// Both squares exist but are not orthogonal neighbours.
    NotAdjacent(String),
}

impl Phrased for ParseMoveError {
    fn phrase(&self) -> Phrase {
        match self {
            ParseMoveError::Shape(text) => {
                Phrase::new("'{text}' is neither 'pass' nor two squares such as 'a6b6'")
                    .with("text", text)
            }
            ParseMoveError::Square(e) => e.phrase(),
            ParseMoveError::NotAdjacent(text) => {
                Phrase::new("'{text}': the two squares are not orthogonal neighbours")
                    .with("text", text)
            }
        }
    }
}

crate::phrase::display_as_phrase!(ParseMoveError);

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if s.eq_ignore_ascii_case("pass") {
            return Ok(Move::PASS);
        }
        if s.len() != 4 || !s.is_ascii() {
            return Err(ParseMoveError::Shape(s.to_string()));
        }
        let from: Square = s[..2].parse().map_err(ParseMoveError::Square)?;
        let to: Square = s[2..].parse().map_err(ParseMoveError::Square)?;
        Direction::ALL
            .into_iter()
            .find(|&dir| from.step(dir) == Some(to))
            .map(|dir| Move::push(from, dir))
            .ok_or_else(|| ParseMoveError::NotAdjacent(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for from in Square::all() {
            for dir in Direction::ALL {
                if from.step(dir).is_some() {
                    let mv = Move::push(from, dir);
                    assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
                    assert_eq!(mv.from(), from);
                    assert_eq!(mv.direction(), dir);
                    assert!(!mv.is_pass());
                }
            }
        }
        assert_eq!("pass".parse::<Move>(), Ok(Move::PASS));
        assert_eq!("PASS".parse::<Move>(), Ok(Move::PASS));
        assert_eq!(Move::PASS.to_string(), "pass");
        assert_eq!(
            "A6B6".parse::<Move>().map(|m| m.to_string()),
            Ok("a6b6".into())
        );
    }

    #[test]
    fn garbage_is_rejected() {
        for bad in [
            "", "a6", "a6b7", "a6a6", "a6c6", "h1h2", "a6b", "a6b6x", "ééé", "pas",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }
}
