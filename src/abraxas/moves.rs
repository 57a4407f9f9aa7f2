//! Abraxas moves and their notation: `e4`, `c3e4`, `!e4`, `pass`, `slide`, `stay`,
//! `xc3d4e5`.

use crate::phrase::{Phrase, Phrased};
use std::fmt;
use std::str::FromStr;

/// One decision of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Move {
    /// A red stone from the pool into a free hole (`e4`).
    Place(u8),
    /// With the pool empty, a red stone moved from one hole to a free one (`c3e4`).
    Shift(u8, u8),
    /// One of the deciding player's blue stones into a free hole (`!e4`).
    Blue(u8),
    /// The opponent declines to call stop (`pass`).
    #[default]
    Pass,
    /// After a stop, the mover slides the plate (`slide`).
    Slide,
    /// After a stop, the plate stays (`stay`).
    Stay,
    /// The stones taken (bit `f + 8 r` per hole), written `x` + holes from a1 to h8.
    Capture(u64),
}

/// The name of hole `h` (bit `f + 8 r`), e.g. `e4`.
pub fn hole_name(h: u8) -> String {
    format!("{}{}", char::from(b'a' + h % 8), h / 8 + 1)
}

fn parse_hole(bytes: &[u8]) -> Option<u8> {
    match bytes {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((f - b'a') + 8 * (r - b'1')),
        _ => None,
    }
}

impl Move {
    /// Bound of [`Move::index`].
    pub const INDEX_LIMIT: usize = 64 + 64 + 64 * 64 + 3 + 64;

    /// A dense index for per-move tables; different captures may share one.
    pub fn index(self) -> usize {
        match self {
            Move::Place(h) => h as usize,
            Move::Blue(h) => 64 + h as usize,
            Move::Shift(a, b) => 128 + 64 * a as usize + b as usize,
            Move::Pass => 4224,
            Move::Slide => 4225,
            Move::Stay => 4226,
            Move::Capture(set) => 4227 + (set.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Place(h) => f.write_str(&hole_name(h)),
            Move::Shift(a, b) => write!(f, "{}{}", hole_name(a), hole_name(b)),
            Move::Blue(h) => write!(f, "!{}", hole_name(h)),
            Move::Pass => f.write_str("pass"),
            Move::Slide => f.write_str("slide"),
            Move::Stay => f.write_str("stay"),
            Move::Capture(set) => {
                f.write_str("x")?;
                let mut s = set;
                while s != 0 {
                    f.write_str(&hole_name(s.trailing_zeros() as u8))?;
                    s &= s - 1;
                }
                Ok(())
            }
        }
    }
}

/// Why text is not an Abraxas move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError(pub Phrase);

impl Phrased for ParseMoveError {
    fn phrase(&self) -> Phrase {
        self.0.clone()
    }
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Capture holes may come in any order (they are a set) but not twice.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let t = text.trim();
        let bytes = t.as_bytes();
        let bad = |why: Phrase| {
            ParseMoveError(
                Phrase::new("'{text}': {reason}")
                    .with("text", t)
                    .with_phrase("reason", why),
            )
        };
        match t {
            "pass" => return Ok(Move::Pass),
            "slide" => return Ok(Move::Slide),
            "stay" => return Ok(Move::Stay),
            _ => {}
        }
        if let Some(rest) = bytes.strip_prefix(b"!") {
            return parse_hole(rest)
                .map(Move::Blue)
                .ok_or_else(|| bad(Phrase::new("expected a hole a1..h8 after '!'")));
        }
        if let Some(rest) = bytes.strip_prefix(b"x") {
            if rest.is_empty() || rest.len() % 2 != 0 {
                return Err(bad(Phrase::new("expected holes a1..h8 after 'x'")));
            }
            let mut set = 0u64;
            for pair in rest.chunks(2) {
                let h = parse_hole(pair)
                    .ok_or_else(|| bad(Phrase::new("expected holes a1..h8 after 'x'")))?;
                if set & (1 << h) != 0 {
                    return Err(bad(Phrase::new("a hole taken twice")));
                }
                set |= 1 << h;
            }
            return Ok(Move::Capture(set));
        }
        match bytes.len() {
            2 => parse_hole(bytes)
                .map(Move::Place)
                .ok_or_else(|| bad(Phrase::new("expected a hole a1..h8"))),
            4 => match (parse_hole(&bytes[..2]), parse_hole(&bytes[2..])) {
                (Some(a), Some(b)) if a != b => Ok(Move::Shift(a, b)),
                (Some(_), Some(_)) => Err(bad(Phrase::new("a stone moved to its own hole"))),
                _ => Err(bad(Phrase::new("expected two holes, e.g. c3e4"))),
            },
            _ => Err(bad(Phrase::new(
                "expected e4, c3e4, !e4, pass, slide, stay or x followed by holes",
            ))),
        }
    }
}
