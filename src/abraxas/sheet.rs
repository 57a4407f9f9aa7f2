//! The 9x9 sheet of red dots under the plate, the plate's four corners and the game's
//! rule options ([`Rules`]).

use crate::phrase::Phrase;
use std::fmt;
use std::str::FromStr;

/// The four corners of the well the 8x8 plate can lie in, in sliding order
/// (counter-clockwise): `sw → se → ne → nw → sw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Corner {
    #[default]
    Sw,
    Se,
    Ne,
    Nw,
}

impl Corner {
    pub const ALL: [Corner; 4] = [Corner::Sw, Corner::Se, Corner::Ne, Corner::Nw];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The corner the plate slides to next (counter-clockwise).
    pub fn next(self) -> Corner {
        Corner::ALL[(self.index() + 1) % 4]
    }

    /// (ox, oy): hole (f, r) lies over sheet cell (f + ox, r + oy).
    pub fn offset(self) -> (usize, usize) {
        match self {
            Corner::Sw => (0, 0),
            Corner::Se => (1, 0),
            Corner::Ne => (1, 1),
            Corner::Nw => (0, 1),
        }
    }

    pub fn name(self) -> &'static str {
        ["sw", "se", "ne", "nw"][self.index()]
    }

    pub fn from_name(text: &str) -> Option<Corner> {
        Corner::ALL.into_iter().find(|c| c.name() == text)
    }
}

impl fmt::Display for Corner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A 9x9 sheet of red dots: bit `x + 9 y` of `dots` is cell (x, y), x left to right and y
/// bottom to top. The four plate-aligned dot masks are precomputed: bit `f + 8 r` of
/// `mask(corner)` is set when hole (f, r) lies over a dot with the plate in that corner.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sheet {
    dots: u128,
    masks: [u64; 4],
}

const SHEET_BITS: u128 = (1u128 << 81) - 1;

const S1: &[(u8, u8)] = &[
    (4, 1),
    (4, 2),
    (4, 3),
    (4, 5),
    (4, 6),
    (4, 7),
    (1, 4),
    (2, 4),
    (3, 4),
    (5, 4),
    (6, 4),
    (7, 4),
];
const S2: &[(u8, u8)] = &[
    (1, 1),
    (2, 2),
    (3, 3),
    (5, 5),
    (6, 6),
    (7, 7),
    (7, 1),
    (6, 2),
    (5, 3),
    (3, 5),
    (2, 6),
    (1, 7),
];
const S3: &[(u8, u8)] = &[
    (1, 1),
    (2, 1),
    (3, 1),
    (5, 1),
    (6, 1),
    (7, 1),
    (1, 7),
    (2, 7),
    (3, 7),
    (5, 7),
    (6, 7),
    (7, 7),
    (1, 2),
    (1, 3),
    (1, 5),
    (1, 6),
    (7, 2),
    (7, 3),
    (7, 5),
    (7, 6),
];
const S4: &[(u8, u8)] = &[
    (5, 2),
    (6, 3),
    (6, 5),
    (5, 6),
    (3, 6),
    (2, 5),
    (2, 3),
    (3, 2),
    (4, 4),
];
const S6: &[(u8, u8)] = &[
    (0, 0),
    (1, 2),
    (2, 5),
    (3, 7),
    (4, 1),
    (5, 4),
    (6, 6),
    (7, 0),
    (8, 3),
    (0, 6),
    (2, 1),
    (3, 4),
    (5, 8),
    (6, 2),
    (8, 7),
    (1, 8),
    (7, 5),
    (4, 6),
];

fn cell_bit(x: usize, y: usize) -> u128 {
    1u128 << (x + 9 * y)
}

fn from_list(cells: &[(u8, u8)]) -> u128 {
    cells
        .iter()
        .fold(0, |acc, &(x, y)| acc | cell_bit(x as usize, y as usize))
}

impl Sheet {
    /// The number of built-in sheets (`s1`..`s6`).
    pub const BUILTIN: usize = 6;

    /// A sheet from its dots (bit `x + 9 y`; bits above 80 are ignored).
    pub fn from_dots(dots: u128) -> Sheet {
        let dots = dots & SHEET_BITS;
        let mut masks = [0u64; 4];
        for corner in Corner::ALL {
            let (ox, oy) = corner.offset();
            for r in 0..8 {
                for f in 0..8 {
                    if dots & cell_bit(f + ox, r + oy) != 0 {
                        masks[corner.index()] |= 1u64 << (f + 8 * r);
                    }
                }
            }
        }
        Sheet { dots, masks }
    }

    /// Built-in sheet `s<n>`, n = 1..6.
    pub fn builtin(n: usize) -> Option<Sheet> {
        let dots = match n {
            1 => from_list(S1),
            2 => from_list(S2),
            3 => from_list(S3),
            4 => from_list(S4),
            5 => {
                let mut d = 0;
                for y in 0..9 {
                    for x in 0..9 {
                        if (x % 3 == 1 && y % 3 == 1) || (x % 3 == 2 && y % 3 == 2) {
                            d |= cell_bit(x, y);
                        }
                    }
                }
                d
            }
            6 => from_list(S6),
            _ => return None,
        };
        Some(Sheet::from_dots(dots))
    }

    /// `s1`..`s6` when this is a built-in sheet.
    pub fn builtin_number(&self) -> Option<usize> {
        (1..=Self::BUILTIN).find(|&n| Sheet::builtin(n) == Some(*self))
    }

    pub fn dots(&self) -> u128 {
        self.dots
    }

    pub fn has_dot(&self, x: usize, y: usize) -> bool {
        x < 9 && y < 9 && self.dots & cell_bit(x, y) != 0
    }

    /// The holes lying over a dot with the plate in `corner` (bit `f + 8 r`).
    #[inline]
    pub fn mask(&self, corner: Corner) -> u64 {
        self.masks[corner.index()]
    }

    /// The 9-row map (y = 8 down to 0, `*` a dot, digits runs of plain cells).
    pub fn map(&self) -> String {
        let mut out = String::new();
        for y in (0..9).rev() {
            let mut run = 0;
            for x in 0..9 {
                if self.has_dot(x, y) {
                    if run > 0 {
                        out.push(char::from(b'0' + run));
                        run = 0;
                    }
                    out.push('*');
                } else {
                    run += 1;
                }
            }
            if run > 0 {
                out.push(char::from(b'0' + run));
            }
            if y > 0 {
                out.push('/');
            }
        }
        out
    }
}

impl Default for Sheet {
    fn default() -> Sheet {
        Sheet::builtin(1).expect("s1")
    }
}

impl fmt::Display for Sheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.builtin_number() {
            Some(n) => write!(f, "s{n}"),
            None => f.write_str(&self.map()),
        }
    }
}

impl fmt::Debug for Sheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sheet({self})")
    }
}

/// Row `i` (0-based, top first) of a sheet map runs past its 9 cells.
fn too_long(i: usize) -> Phrase {
    Phrase::new("sheet row {row} is longer than 9 cells").with("row", i + 1)
}

impl FromStr for Sheet {
    type Err = Phrase;

    /// `s1`..`s6` or a 9-row map.
    fn from_str(text: &str) -> Result<Sheet, Phrase> {
        let text = text.trim();
        if let Some(n) = text.strip_prefix(['s', 'S']) {
            return n
                .parse::<usize>()
                .ok()
                .and_then(Sheet::builtin)
                .ok_or_else(|| {
                    Phrase::new("unknown sheet '{text}' (expected s1..s6 or a map)")
                        .with("text", text)
                });
        }
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != 9 {
            return Err(
                Phrase::new("a sheet map has 9 rows separated by '/', found {count}")
                    .with("count", rows.len()),
            );
        }
        let mut dots = 0u128;
        for (i, row) in rows.iter().enumerate() {
            let y = 8 - i;
            let mut x = 0usize;
            for ch in row.chars() {
                match ch {
                    '*' => {
                        if x >= 9 {
                            return Err(too_long(i));
                        }
                        dots |= cell_bit(x, y);
                        x += 1;
                    }
                    '1'..='9' => x += ch as usize - '0' as usize,
                    _ => {
                        return Err(Phrase::new(
                            "bad character '{char}' in sheet row {row} (expected '*' or 1-9)",
                        )
                        .with("char", ch)
                        .with("row", i + 1));
                    }
                }
                if x > 9 {
                    return Err(too_long(i));
                }
            }
            if x != 9 {
                return Err(Phrase::new("sheet row {row} has {cells} cells, not 9")
                    .with("row", i + 1)
                    .with("cells", x));
            }
        }
        Ok(Sheet::from_dots(dots))
    }
}

/// The rule variants of Abraxas (fixed for a whole game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The sheet under the plate (engine option `AbraxasSheet`).
    pub sheet: Sheet,
    /// Stones needed to win: 11 (default) or 13 (`AbraxasTarget`).
    pub target: u8,
    /// Blue stop stones per player: 3 (default) or 2 (`AbraxasBlue`).
    pub blue_stones: u8,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            sheet: Sheet::default(),
            target: 11,
            blue_stones: 3,
        }
    }
}
