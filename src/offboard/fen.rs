//! The Offboard position string (docs/rules/engine/offboard.md, "Position strings"): parsing with errors that name the
//! field, and exact printing.
//!
//! Numbers must be written plainly (`0`, `12`; not `+1` or `01`), so that an accepted
//! string prints back unchanged unless it splits a run of empty cells (`11` for `2`) or
//! separates its fields by other whitespace than one space.

use super::board::{Cell, first_number, last_number};
use super::position::{MARBLES_PER_PLAYER, POINTS_TO_WIN, Position, colour_name};
use super::sectors::{Rules, SECTORS};
use crate::game::Player;
use crate::phrase::{Phrase, Phrased};
use crate::position_string::{self, FieldError};
use std::fmt;

/// Why a position string was rejected; each variant names the field at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The field count, the board, the side or the fullmove number.
    Field(FieldError),
    /// A points field (`player` is `red` or `yellow`).
    Points {
        player: &'static str,
        text: String,
        reason: Phrase,
    },
    Sectors(Phrase),
    Pending(Phrase),
}

impl Phrased for PositionError {
    fn phrase(&self) -> Phrase {
        match self {
            PositionError::Field(error) => error.phrase(),
            PositionError::Points {
                player,
                text,
                reason,
            } => Phrase::new("{player} points field: '{text}' {reason}")
                .with_phrase("player", Phrase::new(player))
                .with("text", text)
                .with_phrase("reason", reason.clone()),
            PositionError::Sectors(why) => {
                Phrase::new("sectors field: {reason}").with_phrase("reason", why.clone())
            }
            PositionError::Pending(why) => {
                Phrase::new("pending field: {reason}").with_phrase("reason", why.clone())
            }
        }
    }
}

crate::phrase::display_as_phrase!(PositionError);

impl std::error::Error for PositionError {}

impl From<FieldError> for PositionError {
    fn from(error: FieldError) -> PositionError {
        PositionError::Field(error)
    }
}

/// The fields of a position string, in order.
const FIELDS: &str = "<board> <side> <red points> <yellow points> <sectors> <pending> <fullmove>";

/// A plainly written decimal number (no sign, no leading zero).
fn plain_number(text: &str) -> Option<u32> {
    text.parse::<u32>().ok().filter(|n| n.to_string() == text)
}

fn parse_board(text: &str) -> Result<[u64; 2], FieldError> {
    let rows: [&str; 9] = position_string::rows(text).map_err(|count| {
        FieldError::Board(
            Phrase::new("{count} rows separated by '/', expected 9 (i down to a)")
                .with("count", count),
        )
    })?;
    let mut marbles = [0u64; 2];
    for (i, row_text) in rows.iter().enumerate() {
        let row = 8 - i as u8;
        let name = (b'a' + row) as char;
        let (first, last) = (first_number(row), last_number(row));
        let len = u32::from(last - first + 1);
        let piece = |ch| match ch {
            'R' => Some(Player::One),
            'Y' => Some(Player::Two),
            _ => None,
        };
        let covered = position_string::read_row(row_text, len, 9, piece, |offset, player| {
            if let Some(cell) = Cell::new(row as i8, (u32::from(first) + offset) as i8) {
                marbles[player.index()] |= cell.bit();
            }
        })
        .map_err(|ch| {
            FieldError::Board(
                Phrase::new("unknown character '{char}' in row {row} (expected R, Y or 1..9)")
                    .with("char", ch)
                    .with("row", name),
            )
        })?;
        if covered != len {
            return Err(FieldError::Board(
                Phrase::new("row {row} covers {covered} cells, expected {len} ({first}..{last})")
                    .with("row", name)
                    .with("covered", covered)
                    .with("len", len)
                    .with("first", format!("{name}{first}"))
                    .with("last", format!("{name}{last}")),
            ));
        }
    }
    for player in [Player::One, Player::Two] {
        let count = marbles[player.index()].count_ones();
        if count > MARBLES_PER_PLAYER {
            return Err(FieldError::Board(
                Phrase::new("{count} {player} marbles, at most {max}")
                    .with("count", count)
                    .with_phrase("player", Phrase::new(colour_name(player)))
                    .with("max", MARBLES_PER_PLAYER),
            ));
        }
    }
    Ok(marbles)
}

fn parse_sectors(text: &str) -> Result<[Option<Player>; SECTORS], PositionError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != SECTORS {
        return Err(PositionError::Sectors(
            Phrase::new(
                "'{text}' has {count} characters, expected 12 (one per sector: '.', 'r' or 'y')",
            )
            .with("text", text)
            .with("count", chars.len()),
        ));
    }
    let mut sectors = [None; SECTORS];
    for (s, &ch) in chars.iter().enumerate() {
        sectors[s] = match ch {
            '.' => None,
            'r' => Some(Player::One),
            'y' => Some(Player::Two),
            _ => {
                return Err(PositionError::Sectors(
                    Phrase::new("'{char}' for sector {sector} is not '.', 'r' or 'y'")
                        .with("char", ch)
                        .with("sector", s + 1),
                ));
            }
        };
    }
    Ok(sectors)
}

impl Position {
    /// The start position under the given sector values.
    pub fn start(rules: Rules) -> Position {
        Position::parse(Position::START, rules).expect("the start position string is valid")
    }

    /// Parses a position string; the points must agree with the sectors under `rules`.
    pub fn parse(text: &str, rules: Rules) -> Result<Position, PositionError> {
        let [
            board,
            side,
            red_points,
            yellow_points,
            sectors,
            pending,
            fullmove,
        ] = position_string::fields(text, FIELDS)?;
        let marbles = parse_board(board)?;
        let side = position_string::read_side(side, ["r", "y"])?;
        let points_text = [red_points, yellow_points];
        let mut points = [0u32; 2];
        for player in [Player::One, Player::Two] {
            let text = points_text[player.index()];
            points[player.index()] = plain_number(text).ok_or_else(|| PositionError::Points {
                player: colour_name(player),
                text: text.to_string(),
                reason: Phrase::new("is not a number of points"),
            })?;
        }
        let sectors = parse_sectors(sectors)?;
        for player in [Player::One, Player::Two] {
            let on_board = marbles[player.index()].count_ones();
            let in_sectors = sectors.iter().filter(|&&s| s == Some(player)).count() as u32;
            if on_board + in_sectors > MARBLES_PER_PLAYER {
                return Err(FieldError::Board(
                    Phrase::new(
                        "{board} {player} marbles on the board plus {sectors} in the sectors \
                         field make {total}, more than {max}",
                    )
                    .with("board", on_board)
                    .with_phrase("player", Phrase::new(colour_name(player)))
                    .with("sectors", in_sectors)
                    .with("total", on_board + in_sectors)
                    .with("max", MARBLES_PER_PLAYER),
                )
                .into());
            }
        }
        let derived = Position::points_from_sectors(&sectors, &rules);
        for player in [Player::One, Player::Two] {
            let i = player.index();
            if points[i] != derived[i] {
                return Err(PositionError::Points {
                    player: colour_name(player),
                    text: points_text[i].to_string(),
                    reason: Phrase::new(
                        "disagrees with the sectors field: the {player} marbles in sectors are \
                         worth {points} under sector values {rules}",
                    )
                    .with_phrase("player", Phrase::new(colour_name(player.other())))
                    .with("points", derived[i])
                    .with("rules", rules),
                });
            }
        }
        if points.iter().all(|&p| p >= POINTS_TO_WIN) {
            return Err(PositionError::Points {
                player: colour_name(Player::Two),
                text: yellow_points.to_string(),
                reason: Phrase::new(
                    "and red's {points} cannot both be {target} or more: the game ends when \
                     the first player reaches {target}",
                )
                .with("points", points[0])
                .with("target", POINTS_TO_WIN),
            });
        }
        let pending = position_string::read_flag(pending, "p").ok_or_else(|| {
            PositionError::Pending(Phrase::new("'{text}' is not 'p' or '-'").with("text", pending))
        })?;
        if pending {
            let own = marbles[side.index()].count_ones()
                + sectors.iter().filter(|&&s| s == Some(side)).count() as u32;
            if own >= MARBLES_PER_PLAYER {
                return Err(PositionError::Pending(
                    Phrase::new(
                        "'p', but {player} (to move) has all {max} marbles on the board and in \
                         sectors: none is free to re-place",
                    )
                    .with_phrase("player", Phrase::new(colour_name(side)))
                    .with("max", MARBLES_PER_PLAYER),
                ));
            }
        }
        let fullmove = plain_number(fullmove)
            .filter(|&n| n >= 1)
            .ok_or_else(|| FieldError::Fullmove(fullmove.to_string()))?;
        let mut position = Position {
            marbles,
            side,
            sectors,
            points,
            pending,
            fullmove,
            hash: 0,
            rules,
        };
        position.hash = position.compute_hash();
        Ok(position)
    }
}

crate::game::position_from_str!(Position);

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = |player| if player == Player::One { 'R' } else { 'Y' };
        position_string::write_board(
            f,
            (0..9u8).rev().map(|row| {
                (first_number(row)..=last_number(row)).map(move |number| {
                    Cell::new(row as i8, number as i8)
                        .and_then(|c| self.marble_at(c))
                        .map(letter)
                })
            }),
        )?;
        let side = if self.side == Player::One { 'r' } else { 'y' };
        write!(f, " {side} {} {} ", self.points[0], self.points[1])?;
        for owner in self.sectors {
            f.write_str(match owner {
                None => ".",
                Some(Player::One) => "r",
                Some(Player::Two) => "y",
            })?;
        }
        write!(
            f,
            " {} {}",
            if self.pending { 'p' } else { '-' },
            self.fullmove
        )
    }
}
