//! The scoring sectors: the ring of 30 off-board cells, the corners' roll-down, and the
//! sector values, which are part of the rules ([`Rules`]).
//!
//! Sectors are numbered 1..12 in text and 0..11 in code. Both the sector cells and the
//! default values are a **Reconstruction** (docs/rules/engine/offboard.md): the rulebook's board
//! figure is missing.

use crate::phrase::{Phrase, Phrased};
use std::fmt;
use std::str::FromStr;

/// Number of scoring sectors.
pub const SECTORS: usize = 12;

/// Default value of sectors 1..12 (a reconstruction, see docs/rules/engine/offboard.md).
pub const DEFAULT_SECTOR_VALUES: [u8; SECTORS] = [1, 2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1];

/// The two off-board side cells of sectors 1..12, as (row, number) extended past the board.
const SECTOR_CELLS: [[(i8, i8); 2]; SECTORS] = [
    [(-1, 1), (-1, 2)],
    [(-1, 3), (-1, 4)],
    [(0, 6), (1, 7)],
    [(2, 8), (3, 9)],
    [(5, 10), (6, 10)],
    [(7, 10), (8, 10)],
    [(9, 9), (9, 8)],
    [(9, 7), (9, 6)],
    [(8, 4), (7, 3)],
    [(6, 2), (5, 1)],
    [(3, 0), (2, 0)],
    [(1, 0), (0, 0)],
];

/// The six corner cells counter-clockwise from the bottom left, each with the sector that
/// comes before it in counter-clockwise order and the one after it (0-based).
const CORNERS: [((i8, i8), usize, usize); 6] = [
    ((-1, 0), 11, 0),
    ((-1, 5), 1, 2),
    ((4, 10), 3, 4),
    ((9, 10), 5, 6),
    ((9, 5), 7, 8),
    ((4, 0), 9, 10),
];

/// The off-board cell a pushed marble lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exit {
    /// A side cell of sector `0..12`.
    Sector(u8),
    /// Corner `0..6` (in [`CORNERS`] order), which rolls into a neighbouring sector.
    Corner(u8),
}

impl Exit {
    /// A one-byte code for tables: sectors 0..12, corners 12..18.
    pub const fn code(self) -> u8 {
        match self {
            Exit::Sector(s) => s,
            Exit::Corner(k) => SECTORS as u8 + k,
        }
    }

    /// Inverse of [`Exit::code`]; `None` for any other byte.
    pub const fn from_code(code: u8) -> Option<Exit> {
        if (code as usize) < SECTORS {
            Some(Exit::Sector(code))
        } else if (code as usize) < SECTORS + CORNERS.len() {
            Some(Exit::Corner(code - SECTORS as u8))
        } else {
            None
        }
    }
}

/// The ring cell at (row, number), `None` if that is not one of the 30 ring cells.
pub const fn ring_exit(row: i8, number: i8) -> Option<Exit> {
    let mut s = 0;
    while s < SECTORS {
        let [a, b] = SECTOR_CELLS[s];
        if (a.0 == row && a.1 == number) || (b.0 == row && b.1 == number) {
            return Some(Exit::Sector(s as u8));
        }
        s += 1;
    }
    let mut k = 0;
    while k < CORNERS.len() {
        let ((r, c), _, _) = CORNERS[k];
        if r == row && c == number {
            return Some(Exit::Corner(k as u8));
        }
        k += 1;
    }
    None
}

/// The rules Offboard is played under: the value of each sector.
///
/// Construct through [`Rules::new`] or [`FromStr`] to have the values checked; the engine
/// itself works with any values, they only decide the points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Values of sectors 1..12 (index 0..11), each 1..3.
    pub sectors: [u8; SECTORS],
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            sectors: DEFAULT_SECTOR_VALUES,
        }
    }
}

impl Rules {
    /// Rules with the given sector values, each of which must be 1..3.
    pub fn new(sectors: [u8; SECTORS]) -> Result<Rules, RulesError> {
        match sectors.iter().position(|v| !(1..=3).contains(v)) {
            Some(s) => Err(RulesError::Value {
                sector: s + 1,
                text: sectors[s].to_string(),
            }),
            None => Ok(Rules { sectors }),
        }
    }

    /// The value of sector `0..12`.
    pub fn value(&self, sector: usize) -> u8 {
        self.sectors[sector]
    }

    /// The sector a marble landing on `exit` ends in: a corner rolls into the lower-valued
    /// neighbouring sector, on equal values into the one before it counter-clockwise.
    #[inline]
    pub fn sector(&self, exit: Exit) -> usize {
        match exit {
            Exit::Sector(s) => s as usize,
            Exit::Corner(k) => {
                let (_, before, after) = CORNERS[k as usize];
                if self.sectors[after] < self.sectors[before] {
                    after
                } else {
                    before
                }
            }
        }
    }
}

/// Why a list of sector values was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Not exactly 12 comma-separated values.
    Count(usize),
    /// Sector `sector` (1-based) has a value that is not 1, 2 or 3.
    Value { sector: usize, text: String },
}

impl Phrased for RulesError {
    fn phrase(&self) -> Phrase {
        match self {
            RulesError::Count(n) => Phrase::new(
                "{count} sector values, expected 12 separated by commas (e.g. {example})",
            )
            .with("count", n)
            .with("example", Rules::default()),
            RulesError::Value { sector, text } => {
                Phrase::new("sector {sector} value '{text}' is not 1, 2 or 3")
                    .with("sector", sector)
                    .with("text", text)
            }
        }
    }
}

crate::phrase::display_as_phrase!(RulesError);

impl std::error::Error for RulesError {}

impl FromStr for Rules {
    type Err = RulesError;
    /// Twelve values 1..3 for sectors 1..12, separated by commas (spaces around them are
    /// allowed), e.g. `1,2,3,3,2,1,1,2,3,3,2,1`.
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let parts: [&str; SECTORS] = parts
            .as_slice()
            .try_into()
            .map_err(|_| RulesError::Count(parts.len()))?;
        let mut sectors = [0u8; SECTORS];
        for (s, text) in parts.into_iter().enumerate() {
            sectors[s] = match text {
                "1" => 1,
                "2" => 2,
                "3" => 3,
                _ => {
                    return Err(RulesError::Value {
                        sector: s + 1,
                        text: text.to_string(),
                    });
                }
            };
        }
        Ok(Rules { sectors })
    }
}

impl fmt::Display for Rules {
    /// The sector values as `FromStr` reads them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (s, value) in self.sectors.iter().enumerate() {
            if s > 0 {
                f.write_str(",")?;
            }
            write!(f, "{value}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_has_thirty_cells_in_twelve_sectors_and_six_corners() {
        let mut ring = Vec::new();
        for row in -1..=9 {
            for number in 0..=10 {
                if let Some(exit) = ring_exit(row, number) {
                    assert_eq!(Exit::from_code(exit.code()), Some(exit));
                    ring.push(exit);
                }
            }
        }
        assert_eq!(ring.len(), 30);
        for s in 0..SECTORS as u8 {
            assert_eq!(ring.iter().filter(|&&e| e == Exit::Sector(s)).count(), 2);
        }
        assert_eq!(
            ring.iter().filter(|e| matches!(e, Exit::Corner(_))).count(),
            6
        );
    }

    #[test]
    fn default_corners_roll_down() {
        let rules = Rules::default();
        // 12|1 equal -> 12; 2|3 -> 2; 4|5 -> 5; 6|7 equal -> 6; 8|9 -> 8; 10|11 -> 11.
        let expected = [11, 1, 4, 5, 7, 10];
        for (k, &sector) in expected.iter().enumerate() {
            assert_eq!(rules.sector(Exit::Corner(k as u8)), sector, "corner {k}");
        }
    }

    #[test]
    fn values_parse_and_print() {
        let rules: Rules = "1,2,3,3,2,1,1,2,3,3,2,1".parse().expect("valid");
        assert_eq!(rules, Rules::default());
        assert_eq!(rules.to_string(), "1,2,3,3,2,1,1,2,3,3,2,1");
        assert_eq!(
            " 3, 3,3,3,3,3,3,3,3,3,3 ,3"
                .parse::<Rules>()
                .map(|r| r.sectors),
            Ok([3; 12])
        );
        assert_eq!("1,2,3".parse::<Rules>(), Err(RulesError::Count(3)));
        assert!(matches!(
            "1,2,3,3,2,1,1,2,3,3,2,4".parse::<Rules>(),
            Err(RulesError::Value { sector: 12, .. })
        ));
        assert!(matches!(
            "0,2,3,3,2,1,1,2,3,3,2,1".parse::<Rules>(),
            Err(RulesError::Value { sector: 1, .. })
        ));
        assert!(Rules::new([0; 12]).is_err());
        assert_eq!(Rules::new([2; 12]).map(|r| r.sectors), Ok([2; 12]));
    }
}
