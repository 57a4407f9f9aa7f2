//! The Akiba position string (docs/rules/akiba.md, "Position strings"): parsing with errors that name the
//! field, and exact printing.

use super::board::Square;
use super::moves::Move;
use super::position::{MARBLES_PER_PLAYER, Marble, Position, RED_MARBLES, REDS_TO_WIN};
use super::{RepeatRule, Rules};
use crate::game::Player;
use crate::position_string::{self, FieldError};
use std::fmt;

/// Why a position string was rejected; each variant names the field at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The field count, the board, the side or the fullmove number.
    Field(FieldError),
    /// A red count (`player` is `white` or `black`).
    Reds {
        player: &'static str,
        text: String,
    },
    Extra(String),
    Banned {
        text: String,
        reason: String,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Field(error) => error.fmt(f),
            PositionError::Reds { player, text } => {
                write!(f, "{player} reds field: '{text}' is not a count 0..7")
            }
            PositionError::Extra(s) => write!(f, "extra field: '{s}' is not 'x' or '-'"),
            PositionError::Banned { text, reason } => {
                write!(f, "banned field: '{text}' {reason}")
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl From<FieldError> for PositionError {
    fn from(error: FieldError) -> PositionError {
        PositionError::Field(error)
    }
}

/// The fields of a position string, in order.
const FIELDS: &str = "<board> <side> <white reds> <black reds> <extra> <banned> <fullmove>";

/// The letters of the side field: white, black.
const SIDES: [&str; 2] = ["w", "b"];

fn parse_board(text: &str) -> Result<[u64; 3], FieldError> {
    let ranks: [&str; 7] = position_string::rows(text).map_err(|count| {
        FieldError::Board(format!("{count} ranks separated by '/', expected 7"))
    })?;
    let mut marbles = [0u64; 3];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 6 - i as u8;
        let squares =
            position_string::read_row(rank_text, 7, 7, Marble::from_letter, |file, kind| {
                marbles[kind as usize] |= Square::new(file as u8, rank).bit();
            })
            .map_err(|ch| {
                FieldError::Board(format!("unknown character '{ch}' in rank {}", rank + 1))
            })?;
        if squares != 7 {
            return Err(FieldError::Board(format!(
                "rank {} covers {squares} squares, expected 7",
                rank + 1
            )));
        }
    }
    for (kind, name) in [(Marble::White, "white"), (Marble::Black, "black")] {
        let count = marbles[kind as usize].count_ones();
        if count > MARBLES_PER_PLAYER {
            return Err(FieldError::Board(format!(
                "{count} {name} marbles, at most {MARBLES_PER_PLAYER}"
            )));
        }
    }
    if marbles[0] == 0 && marbles[1] == 0 {
        return Err(FieldError::Board(
            "neither white nor black has a marble".into(),
        ));
    }
    Ok(marbles)
}

fn parse_reds(text: &str, player: &'static str) -> Result<u8, PositionError> {
    match text.parse::<u8>() {
        Ok(n) if n <= REDS_TO_WIN && !text.starts_with('+') => Ok(n),
        _ => Err(PositionError::Reds {
            player,
            text: text.to_string(),
        }),
    }
}

impl Position {
    /// The start position under the given rules.
    pub fn start(rules: Rules) -> Position {
        Position::parse(Position::START, rules).expect("the start position string is valid")
    }

    /// Parses a position string; the rules decide how the `banned` field is enforced.
    pub fn parse(text: &str, rules: Rules) -> Result<Position, PositionError> {
        let [board, side, white_reds, black_reds, extra, banned, fullmove] =
            position_string::fields(text, FIELDS)?;
        let marbles = parse_board(board)?;
        let side = position_string::read_side(side, SIDES)?;
        let reds_won = [
            parse_reds(white_reds, "white")?,
            parse_reds(black_reds, "black")?,
        ];
        let reds_total = marbles[Marble::Red as usize].count_ones()
            + u32::from(reds_won[0])
            + u32::from(reds_won[1]);
        if reds_total > RED_MARBLES {
            return Err(FieldError::Board(format!(
                "{} reds on the board plus {} won is {reds_total}, more than {RED_MARBLES}",
                marbles[Marble::Red as usize].count_ones(),
                reds_total - marbles[Marble::Red as usize].count_ones()
            ))
            .into());
        }
        let extra = position_string::read_flag(extra, "x")
            .ok_or_else(|| PositionError::Extra(extra.to_string()))?;
        let banned_move = if banned == "-" {
            None
        } else {
            let reject = |reason: &str| PositionError::Banned {
                text: banned.to_string(),
                reason: reason.to_string(),
            };
            let mv: Move = banned.parse().map_err(|e: super::moves::ParseMoveError| {
                reject(&format!("is not a push: {e}"))
            })?;
            if mv.is_pass() {
                return Err(reject("is not a push"));
            }
            if marbles[Marble::of(side) as usize] & mv.from().bit() == 0 {
                return Err(reject("does not start on a marble of the side to move"));
            }
            if extra {
                return Err(reject(
                    "cannot be set in an extra move (only a capture-free push sets a ban)",
                ));
            }
            Some(mv)
        };
        let fullmove = match fullmove.parse::<u32>() {
            Ok(n) if n >= 1 && !fullmove.starts_with('+') => n,
            _ => return Err(FieldError::Fullmove(fullmove.to_string()).into()),
        };
        let mut position = Position {
            marbles,
            side,
            reds_won,
            extra,
            banned: None,
            fullmove,
            hash: 0,
            rules,
        };
        position.banned = match rules.repeat {
            RepeatRule::PushBack => banned_move,
            // Under `ko` the field names the board that push would recreate; the push stays
            // banned only if it can be played at all.
            RepeatRule::Ko => {
                banned_move.and_then(|mv| position.push_recreating(&position.marbles_after(mv)))
            }
        };
        position.hash = position.compute_hash();
        Ok(position)
    }
}

crate::game::position_from_str!(Position);

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        position_string::write_board(
            f,
            (0..7).rev().map(|rank| {
                (0..7).map(move |file| self.marble_at(Square::new(file, rank)).map(Marble::letter))
            }),
        )?;
        let side = if self.side == Player::One { 'w' } else { 'b' };
        write!(
            f,
            " {side} {} {} {} ",
            self.reds_won[0],
            self.reds_won[1],
            if self.extra { 'x' } else { '-' }
        )?;
        match self.banned_move() {
            Some(mv) => write!(f, "{mv}")?,
            None => f.write_str("-")?,
        }
        write!(f, " {}", self.fullmove)
    }
}
