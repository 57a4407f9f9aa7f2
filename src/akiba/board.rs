//! Squares, directions and bitboards of the 7x7 Akiba board.
//!
//! Squares are laid out 8 to a rank (`index = rank * 8 + file`) with file 7 left unused:
//! that spare column absorbs east/west shifts that would otherwise wrap to the next rank,
//! so every shift is one shift and one mask.

use crate::phrase::{Phrase, Phrased};
use std::fmt;
use std::str::FromStr;

/// The 49 real squares: files 0..6 of ranks 0..6.
pub const VALID: u64 = 0x007F_7F7F_7F7F_7F7F;
pub const RANK_1: u64 = 0x7F;
pub const RANK_7: u64 = 0x7F << 48;
pub const FILE_A: u64 = 0x0001_0101_0101_0101;
pub const FILE_G: u64 = FILE_A << 6;

/// A square of the board, `a1` = 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// `file` and `rank` in 0..7.
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 7 && rank < 7);
        Square(rank * 8 + file)
    }

    /// The square at a bit index; `None` for indices off the board.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 && VALID & (1 << index) != 0 {
            Some(Square(index))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// The neighbour in `dir`, or `None` off the board.
    pub const fn step(self, dir: Direction) -> Option<Square> {
        let (file, rank) = (self.file() as i8, self.rank() as i8);
        let (df, dr) = dir.delta();
        let (f, r) = (file + df, rank + dr);
        if f < 0 || f > 6 || r < 0 || r > 6 {
            None
        } else {
            Some(Square::new(f as u8, r as u8))
        }
    }

    /// All 49 squares, a1, b1, .. g7.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..7).flat_map(|rank| (0..7).map(move |file| Square::new(file, rank)))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Why a square name was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl Phrased for ParseSquareError {
    fn phrase(&self) -> Phrase {
        Phrase::new("'{text}' is not a square a1..g7").with("text", &self.0)
    }
}

crate::phrase::display_as_phrase!(ParseSquareError);

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [file, rank] => {
                let file = file.to_ascii_lowercase();
                if (b'a'..=b'g').contains(&file) && (b'1'..=b'7').contains(rank) {
                    Ok(Square::new(file - b'a', rank - b'1'))
                } else {
                    Err(ParseSquareError(s.to_string()))
                }
            }
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}

/// The four orthogonal push directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards rank 7.
    North = 0,
    /// Towards file g.
    East = 1,
    /// Towards rank 1.
    South = 2,
    /// Towards file a.
    West = 3,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    pub const fn from_index(i: u8) -> Direction {
        match i & 3 {
            0 => Direction::North,
            1 => Direction::East,
            2 => Direction::South,
            _ => Direction::West,
        }
    }

    pub const fn opposite(self) -> Direction {
        Direction::from_index(self as u8 + 2)
    }

    /// (file, rank) step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
        }
    }

    /// Moves every square of `bb` one step in this direction; squares leaving the board vanish.
    /// A rotation and a mask, without branches even when the direction is only known at run
    /// time: whatever leaves the board rotates into the spare file or the unused top bits.
    #[inline(always)]
    pub const fn shift(self, bb: u64) -> u64 {
        const ROTATION: [u32; 4] = [8, 1, 56, 63];
        bb.rotate_left(ROTATION[self as usize]) & VALID
    }

    /// Moves every square `steps` squares this way without masking: squares leaving the
    /// board may wrap into the spare file or the next rank. Callers mask the result.
    #[inline(always)]
    pub const fn shift_unmasked(self, bb: u64, steps: u32) -> u64 {
        match self {
            Direction::North => bb << (8 * steps),
            Direction::East => bb << steps,
            Direction::South => bb >> (8 * steps),
            Direction::West => bb >> steps,
        }
    }

    /// The squares from which one more step in this direction leaves the board.
    pub const fn edge(self) -> u64 {
        match self {
            Direction::North => RANK_7,
            Direction::East => FILE_G,
            Direction::South => RANK_1,
            Direction::West => FILE_A,
        }
    }

    /// Whether square indices grow when stepping this way.
    pub const fn is_increasing(self) -> bool {
        matches!(self, Direction::North | Direction::East)
    }
}

/// `RAYS[sq][dir]`: the squares from `sq` (inclusive) to the edge in `dir`.
pub static RAYS: [[u64; 4]; 64] = {
    let mut rays = [[0u64; 4]; 64];
    let mut index = 0;
    while index < 64 {
        if let Some(sq) = Square::from_index(index as u8) {
            let mut d = 0;
            while d < 4 {
                let dir = Direction::from_index(d as u8);
                let mut ray = 0u64;
                let mut cur = Some(sq);
                while let Some(s) = cur {
                    ray |= s.bit();
                    cur = s.step(dir);
                }
                rays[index][d] = ray;
                d += 1;
            }
        }
        index += 1;
    }
    rays
};

/// Iterates the squares of a bitboard, lowest index first.
#[derive(Clone, Copy)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_never_wrap_or_leave_the_board() {
        for sq in Square::all() {
            for dir in Direction::ALL {
                let expected = sq.step(dir).map_or(0, Square::bit);
                assert_eq!(dir.shift(sq.bit()), expected, "{sq} {dir:?}");
                assert_eq!(dir.edge() & sq.bit() != 0, sq.step(dir).is_none());
            }
        }
    }

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("D4".parse::<Square>(), Ok(Square::new(3, 3)));
        for bad in ["", "a", "h1", "a8", "a0", "a10", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
