//! Offboard moves and their notation: `b3c4` (rear marble's cell, then where it moves) and
//! `@e5` (re-placing a returned marble).

use super::board::{CELLS, Cell, Direction, ParseCellError};
use crate::phrase::{Phrase, Phrased};
use std::fmt;
use std::str::FromStr;

/// A move packed in 16 bits: bits 0..6 a cell index, bits 6..9 the kind: 0..6 a
/// [`Direction`] (the rear marble's cell and the way the line moves), 6 a re-placement
/// on the cell. A step's destination is always on the board (constructors check it), so
/// every move has a text form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(u16);

/// The kind value of a re-placement.
const PLACE: u16 = 6;

impl Move {
    /// Bound on [`Move::index`].
    pub const INDEX_LIMIT: usize = 7 << 6;

    /// The line with rear marble `from` moving towards `dir`; `None` when the neighbour in
    /// `dir` is off the board (no such move exists).
    pub fn step(from: Cell, dir: Direction) -> Option<Move> {
        from.step(dir).map(|_| Move::step_unchecked(from, dir))
    }

    /// [`Move::step`] for callers that know the neighbour is on the board.
    #[inline(always)]
    pub(super) const fn step_unchecked(from: Cell, dir: Direction) -> Move {
        Move(from.index() as u16 | (dir as u16) << 6)
    }

    /// Re-places the side to move's returned marble on `cell`.
    pub const fn place(cell: Cell) -> Move {
        Move(cell.index() as u16 | PLACE << 6)
    }

    pub const fn is_place(self) -> bool {
        self.0 >> 6 == PLACE
    }

    /// The rear marble's cell, or the re-placed marble's cell.
    pub const fn cell(self) -> Cell {
        match Cell::from_index((self.0 & 63) as u8) {
            Some(cell) => cell,
            None => panic!("moves hold real cells"),
        }
    }

    /// The direction of a step, `None` for a re-placement.
    pub const fn direction(self) -> Option<Direction> {
        if self.is_place() {
            None
        } else {
            Some(Direction::from_index((self.0 >> 6) as u8))
        }
    }

    /// The cell a step's rear marble moves to, `None` for a re-placement (a step's is
    /// always on the board: the constructors check it).
    pub fn to(self) -> Option<Cell> {
        self.direction().and_then(|dir| self.cell().step(dir))
    }

    /// A dense index below [`Move::INDEX_LIMIT`], for per-move tables.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl Default for Move {
    /// `a1a2`: a filler for move lists, not a claim that the move is legal.
    fn default() -> Move {
        // Cell index 0 (a1), kind 0 (east).
        Move(0)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = self.cell();
        match self.to() {
            Some(to) => write!(f, "{cell}{to}"),
            None if self.is_place() => write!(f, "@{cell}"),
            None => unreachable!("steps are built with an on-board destination"),
        }
    }
}

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// Neither `@` and a cell nor two cell names.
    Shape(String),
    Cell(ParseCellError),
    /// Both cells exist but are not neighbours.
    NotAdjacent(String),
}

impl Phrased for ParseMoveError {
    fn phrase(&self) -> Phrase {
        match self {
            ParseMoveError::Shape(text) => Phrase::new(
                "'{text}' is neither two cells such as 'b3c4' nor a re-placement such as '@e5'",
            )
            .with("text", text),
            ParseMoveError::Cell(e) => e.phrase(),
            ParseMoveError::NotAdjacent(text) => {
                Phrase::new("'{text}': the two cells are not neighbours").with("text", text)
            }
        }
    }
}

crate::phrase::display_as_phrase!(ParseMoveError);

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if let Some(cell) = s.strip_prefix('@') {
            return cell.parse().map(Move::place).map_err(ParseMoveError::Cell);
        }
        if s.len() != 4 || !s.is_ascii() {
            return Err(ParseMoveError::Shape(s.to_string()));
        }
        let from: Cell = s[..2].parse().map_err(ParseMoveError::Cell)?;
        let to: Cell = s[2..].parse().map_err(ParseMoveError::Cell)?;
        Direction::ALL
            .into_iter()
            .find(|&dir| from.step(dir) == Some(to))
            .map(|dir| Move::step_unchecked(from, dir))
            .ok_or_else(|| ParseMoveError::NotAdjacent(s.to_string()))
    }
}

const _: () = assert!(CELLS <= 64, "cell indices fit the move's six bits");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        let mut indices = std::collections::HashSet::new();
        for cell in Cell::all() {
            for dir in Direction::ALL {
                if let Some(mv) = Move::step(cell, dir) {
                    assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
                    assert_eq!((mv.cell(), mv.direction()), (cell, Some(dir)));
                    assert!(mv.index() < Move::INDEX_LIMIT && indices.insert(mv.index()));
                } else {
                    assert!(cell.step(dir).is_none());
                }
            }
            let place = Move::place(cell);
            assert_eq!(place.to_string(), format!("@{cell}"));
            assert_eq!(place.to_string().parse::<Move>(), Ok(place));
            assert!(place.is_place() && place.direction().is_none());
            assert!(place.index() < Move::INDEX_LIMIT && indices.insert(place.index()));
        }
        assert_eq!(Move::default().to_string(), "a1a2");
        assert_eq!(
            "B3C4".parse::<Move>().map(|m| m.to_string()),
            Ok("b3c4".into())
        );
        assert_eq!(
            "@E5".parse::<Move>().map(|m| m.to_string()),
            Ok("@e5".into())
        );
    }

    #[test]
    fn garbage_is_rejected() {
        for bad in [
            "", "@", "@@e5", "@e", "@e0", "@j5", "a1", "a1a3", "a1b3", "a1a1", "a5a6", "a1b",
            "a1b2x", "ééé", "e5 ", " @e5", "e5@", "@e5e6",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }
}
