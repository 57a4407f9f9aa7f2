//! Cells, directions and bitboards of the 61-cell hexagonal board.
//!
//! Cells are numbered row by row from the bottom (`a1` = 0, `a5` = 4, `b1` = 5, .., `i9` =
//! 60), one bit per cell of a `u64`. Rows have different lengths and starting numbers, so a
//! step between rows is not the same bit shift for every row: steps use precomputed
//! per-cell neighbour tables instead of shifts. Every direction either always raises the
//! cell index (E, NE, NW) or always lowers it.

use super::sectors::{Exit, ring_exit};
use crate::phrase::{Phrase, Phrased};
use std::fmt;
use std::str::FromStr;

/// Number of cells on the board.
pub const CELLS: usize = 61;

/// Index of each row's first cell, and the total after the last row.
const ROW_START: [u8; 10] = [0, 5, 11, 18, 26, 35, 43, 50, 56, 61];

/// The lowest cell number of a row (`row` in 0..9).
pub const fn first_number(row: u8) -> u8 {
    if row <= 4 { 1 } else { row - 3 }
}

/// The highest cell number of a row (`row` in 0..9).
pub const fn last_number(row: u8) -> u8 {
    if row <= 4 { row + 5 } else { 9 }
}

/// A cell of the board, `a1` = 0 .. `i9` = 60.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell in row `row` (a = 0 .. i = 8) with number `number` (1..9), `None` off the
    /// board. Signed so that callers may step past the edge and ask.
    pub const fn new(row: i8, number: i8) -> Option<Cell> {
        if row < 0 || row > 8 {
            return None;
        }
        let r = row as u8;
        if number < first_number(r) as i8 || number > last_number(r) as i8 {
            return None;
        }
        Some(Cell(
            ROW_START[r as usize] + (number as u8 - first_number(r)),
        ))
    }

    /// The cell with a bit index; `None` for indices past the board.
    pub const fn from_index(index: u8) -> Option<Cell> {
        if (index as usize) < CELLS {
            Some(Cell(index))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// Row index, a = 0 .. i = 8.
    pub const fn row(self) -> u8 {
        let mut row = 0;
        while ROW_START[row + 1] <= self.0 {
            row += 1;
        }
        row as u8
    }

    /// The number within the row (1..9), constant along the NW-SE diagonals.
    pub const fn number(self) -> u8 {
        let row = self.row();
        first_number(row) + (self.0 - ROW_START[row as usize])
    }

    /// The neighbour in `dir`, or `None` off the board.
    #[inline(always)]
    pub fn step(self, dir: Direction) -> Option<Cell> {
        let next = NEIGHBOURS[self.index()][dir as usize];
        (next != OFF).then_some(Cell(next))
    }

    /// Where a marble on this cell pushed towards `dir` leaves the board, `None` when the
    /// neighbour in `dir` is on the board.
    #[inline]
    pub fn exit(self, dir: Direction) -> Option<Exit> {
        Exit::from_code(EXITS[self.index()][dir as usize])
    }

    /// Cells one step away, as a bitboard.
    #[inline]
    pub fn neighbours(self) -> u64 {
        ADJACENT[self.index()]
    }

    /// Steps to the centre cell e5: 0 there, 4 on the rim.
    pub fn distance_from_centre(self) -> u8 {
        let dr = self.row() as i8 - 4;
        let dc = self.number() as i8 - 5;
        dr.abs().max(dc.abs()).max((dr - dc).abs()) as u8
    }

    /// All 61 cells, a1 .. i9.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.row()) as char, self.number())
    }
}

/// Why a cell name was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseCellError(pub String);

impl Phrased for ParseCellError {
    fn phrase(&self) -> Phrase {
        Phrase::new("'{text}' is not a cell (rows a..i; a1..a5, b1..b6, .., e1..e9, .., i5..i9)")
            .with("text", &self.0)
    }
}

crate::phrase::display_as_phrase!(ParseCellError);

impl std::error::Error for ParseCellError {}

impl FromStr for Cell {
    type Err = ParseCellError;
    fn from_str(s: &str) -> Result<Cell, ParseCellError> {
        let cell = match s.as_bytes() {
            [row, number] => {
                let row = row.to_ascii_lowercase();
                if (b'a'..=b'i').contains(&row) && number.is_ascii_digit() {
                    Cell::new((row - b'a') as i8, (number - b'0') as i8)
                } else {
                    None
                }
            }
            _ => None,
        };
        cell.ok_or_else(|| ParseCellError(s.to_string()))
    }
}

/// The six directions, counter-clockwise from east, so that `opposite` is three steps on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// (row, number) + (0, +1).
    E = 0,
    /// + (+1, +1).
    NE = 1,
    /// + (+1, 0).
    NW = 2,
    /// + (0, -1).
    W = 3,
    /// + (-1, -1).
    SW = 4,
    /// + (-1, 0).
    SE = 5,
}

impl Direction {
    pub const ALL: [Direction; 6] = [
        Direction::E,
        Direction::NE,
        Direction::NW,
        Direction::W,
        Direction::SW,
        Direction::SE,
    ];

    /// The direction with index `i % 6`.
    pub const fn from_index(i: u8) -> Direction {
        Direction::ALL[(i % 6) as usize]
    }

    pub const fn opposite(self) -> Direction {
        Direction::from_index(self as u8 + 3)
    }

    /// (row, number) step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::E => (0, 1),
            Direction::NE => (1, 1),
            Direction::NW => (1, 0),
            Direction::W => (0, -1),
            Direction::SW => (-1, -1),
            Direction::SE => (-1, 0),
        }
    }
}

/// Marks a missing neighbour in [`NEIGHBOURS`] and [`EXITS`].
const OFF: u8 = u8::MAX;

/// `NEIGHBOURS[cell][dir]`: the neighbour's index, or [`OFF`].
static NEIGHBOURS: [[u8; 6]; CELLS] = {
    let mut table = [[OFF; 6]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let cell = Cell(i as u8);
        let mut d = 0;
        while d < 6 {
            let (dr, dc) = Direction::ALL[d].delta();
            if let Some(next) = Cell::new(cell.row() as i8 + dr, cell.number() as i8 + dc) {
                table[i][d] = next.0;
            }
            d += 1;
        }
        i += 1;
    }
    table
};

/// `EXITS[cell][dir]`: the [`Exit`] code of the off-board cell one step away, or [`OFF`].
static EXITS: [[u8; 6]; CELLS] = {
    let mut table = [[OFF; 6]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let cell = Cell(i as u8);
        let mut d = 0;
        while d < 6 {
            let (dr, dc) = Direction::ALL[d].delta();
            let (r, c) = (cell.row() as i8 + dr, cell.number() as i8 + dc);
            if Cell::new(r, c).is_none() {
                table[i][d] = match ring_exit(r, c) {
                    Some(exit) => exit.code(),
                    None => panic!("every step off the board lands on the ring"),
                };
            }
            d += 1;
        }
        i += 1;
    }
    table
};

/// `ADJACENT[cell]`: the neighbours of a cell as a bitboard.
static ADJACENT: [u64; CELLS] = {
    let mut table = [0u64; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut d = 0;
        while d < 6 {
            if NEIGHBOURS[i][d] != OFF {
                table[i] |= 1 << NEIGHBOURS[i][d];
            }
            d += 1;
        }
        i += 1;
    }
    table
};

/// Iterates the cells of a bitboard, lowest index first.
#[derive(Clone, Copy)]
pub struct Cells(pub u64);

impl Iterator for Cells {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Cell(index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_the_spec() {
        assert_eq!(Cell::all().count(), 61);
        assert_eq!("a1".parse::<Cell>().map(Cell::index), Ok(0));
        assert_eq!("e5".parse::<Cell>().map(Cell::index), Ok(30));
        assert_eq!("i9".parse::<Cell>().map(Cell::index), Ok(60));
        for cell in Cell::all() {
            let (r, c) = (cell.row() as i8, cell.number() as i8);
            assert!((r - (c - 1)).abs() <= 4, "{cell}");
            assert_eq!(Cell::new(r, c), Some(cell));
        }
    }

    #[test]
    fn neighbours_follow_the_deltas_and_indices_are_monotone() {
        for cell in Cell::all() {
            for dir in Direction::ALL {
                let (dr, dc) = dir.delta();
                let expected = Cell::new(cell.row() as i8 + dr, cell.number() as i8 + dc);
                assert_eq!(cell.step(dir), expected, "{cell} {dir:?}");
                assert_eq!(
                    cell.exit(dir).is_some(),
                    expected.is_none(),
                    "{cell} {dir:?}"
                );
                if let Some(next) = expected {
                    assert_eq!(next.step(dir.opposite()), Some(cell));
                    assert_eq!(next > cell, (dir as u8) < 3, "{cell} {dir:?}");
                }
            }
        }
    }

    #[test]
    fn cell_names_round_trip() {
        for cell in Cell::all() {
            assert_eq!(cell.to_string().parse::<Cell>(), Ok(cell));
        }
        assert_eq!("E5".parse::<Cell>().map(|c| c.to_string()), Ok("e5".into()));
        for bad in [
            "", "a", "a6", "a0", "e10", "f1", "i4", "j5", "5e", "é1", "a1 ",
        ] {
            assert!(bad.parse::<Cell>().is_err(), "{bad}");
        }
    }
}
