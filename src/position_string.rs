//! The pieces the games' position strings have in common, read and written once: fields
//! separated by white space, a side named by a letter, flags written as a letter or `-`, and
//! boards written row by row (top first, rows joined by `/`), a letter per piece and a digit
//! per run of empty cells.

use crate::game::Player;
use crate::phrase::{Phrase, Phrased};
use std::fmt;

/// What is wrong with one of the fields the games' position strings have alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// Not as many fields as `fields` names (written `<board> <side> …`).
    Count {
        count: usize,
        fields: &'static str,
    },
    /// The board field: what is wrong with it.
    Board(Phrase),
    /// The side field, and the two letters it may be.
    Side {
        text: String,
        letters: [&'static str; 2],
    },
    Fullmove(String),
}

impl Phrased for FieldError {
    fn phrase(&self) -> Phrase {
        match self {
            FieldError::Count { count, fields } => {
                Phrase::new("position string has {count} fields, expected {expected}: {fields}")
                    .with("count", count)
                    .with("expected", fields.matches('<').count())
                    .with("fields", fields)
            }
            FieldError::Board(why) => {
                Phrase::new("board field: {reason}").with_phrase("reason", why.clone())
            }
            FieldError::Side { text, letters } => {
                Phrase::new("side field: '{text}' is not '{one}' or '{two}'")
                    .with("text", text)
                    .with("one", letters[0])
                    .with("two", letters[1])
            }
            FieldError::Fullmove(text) => {
                Phrase::new("fullmove field: '{text}' is not a move number 1..4294967295")
                    .with("text", text)
            }
        }
    }
}

crate::phrase::display_as_phrase!(FieldError);

/// The white-space-separated fields of `text`, as many as `names` names (`<board> <side> …`).
pub fn fields<'a, const N: usize>(
    text: &'a str,
    names: &'static str,
) -> Result<[&'a str; N], FieldError> {
    exactly(text.split_whitespace().collect()).map_err(|count| FieldError::Count {
        count,
        fields: names,
    })
}

/// The `N` rows of a board field, top first, or how many there are when not `N`.
pub fn rows<const N: usize>(board: &str) -> Result<[&str; N], usize> {
    exactly(board.split('/').collect())
}

fn exactly<const N: usize>(parts: Vec<&str>) -> Result<[&str; N], usize> {
    parts.as_slice().try_into().map_err(|_| parts.len())
}

/// The player a side field names: `letters[0]` player one, `letters[1]` player two.
pub fn read_side(text: &str, letters: [&'static str; 2]) -> Result<Player, FieldError> {
    [Player::One, Player::Two]
        .into_iter()
        .find(|side| text == letters[side.index()])
        .ok_or_else(|| FieldError::Side {
            text: text.to_string(),
            letters,
        })
}

/// A flag field: `letter` when set, `-` when not.
pub fn read_flag(text: &str, letter: &str) -> Option<bool> {
    if text == "-" {
        Some(false)
    } else {
        (text == letter).then_some(true)
    }
}

/// Reads one row of a board: a letter per piece (`piece` tells which, `None` for any other
/// character) and a digit 1..=`max_run` per run of that many empty cells. Calls
/// `place(offset, piece)` for each piece that falls within the row's `len` cells. Returns how
/// many cells the row covers (the caller checks that it is `len`), or the first character that
/// is neither a piece nor such a digit.
pub fn read_row<P>(
    text: &str,
    len: u32,
    max_run: u32,
    piece: impl Fn(char) -> Option<P>,
    mut place: impl FnMut(u32, P),
) -> Result<u32, char> {
    let mut covered = 0u32;
    for ch in text.chars() {
        if let Some(piece) = piece(ch) {
            if covered < len {
                place(covered, piece);
            }
            covered += 1;
        } else {
            match ch.to_digit(10) {
                Some(run) if (1..=max_run).contains(&run) => covered += run,
                _ => return Err(ch),
            }
        }
    }
    Ok(covered)
}

/// Writes a board: `rows` top first, each cell a piece's letter or `None` when empty.
pub fn write_board<Row: IntoIterator<Item = Option<char>>>(
    out: &mut impl fmt::Write,
    rows: impl IntoIterator<Item = Row>,
) -> fmt::Result {
    for (i, row) in rows.into_iter().enumerate() {
        if i > 0 {
            out.write_char('/')?;
        }
        let mut empty = 0;
        for cell in row {
            match cell {
                Some(letter) => {
                    if empty > 0 {
                        write!(out, "{empty}")?;
                        empty = 0;
                    }
                    out.write_char(letter)?;
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            write!(out, "{empty}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_counted_when_not_as_many_as_expected() {
        let names = "<one> <two> <three>";
        assert_eq!(fields::<3>(" a  b\tc ", names), Ok(["a", "b", "c"]));
        let error = fields::<3>("a b", names).expect_err("two fields");
        assert_eq!(
            error,
            FieldError::Count {
                count: 2,
                fields: names
            }
        );
        assert_eq!(
            error.to_string(),
            "position string has 2 fields, expected 3: <one> <two> <three>"
        );
        assert_eq!(rows::<3>("a/b/"), Ok(["a", "b", ""]));
        assert_eq!(rows::<2>("ab"), Err(1));
    }

    #[test]
    fn sides_and_flags_take_only_their_letters() {
        assert_eq!(read_side("w", ["w", "b"]), Ok(Player::One));
        assert_eq!(read_side("b", ["w", "b"]), Ok(Player::Two));
        let error = read_side("W", ["w", "b"]).expect_err("not a side");
        assert_eq!(error.to_string(), "side field: 'W' is not 'w' or 'b'");
        assert_eq!(read_flag("x", "x"), Some(true));
        assert_eq!(read_flag("-", "x"), Some(false));
        assert_eq!(read_flag("xx", "x"), None);
    }

    #[test]
    fn a_row_reads_pieces_and_runs_and_reports_what_it_covers() {
        let piece = |ch| (ch == 'A').then_some('A');
        let mut placed = Vec::new();
        let covered = read_row("A2A", 4, 3, piece, |offset, _| placed.push(offset));
        assert_eq!((covered, placed), (Ok(4), vec![0, 3]));
        // Pieces past the row's end are not placed, but counted.
        let mut placed = Vec::new();
        let covered = read_row("3AA", 4, 3, piece, |offset, _| placed.push(offset));
        assert_eq!((covered, placed), (Ok(5), vec![3]));
        assert_eq!(read_row("4", 4, 3, piece, |_, _| ()), Err('4'));
        assert_eq!(read_row("0A", 4, 3, piece, |_, _| ()), Err('0'));
        assert_eq!(read_row("A?", 4, 3, piece, |_, _| ()), Err('?'));
    }

    #[test]
    fn a_board_is_written_with_runs_and_slashes() {
        let mut out = String::new();
        let rows = [
            vec![Some('R'), None, None, Some('Y')],
            vec![None; 4],
            vec![Some('R'); 2],
        ];
        write_board(&mut out, rows).expect("writing to a String");
        assert_eq!(out, "R2Y/4/RR");
    }
}
