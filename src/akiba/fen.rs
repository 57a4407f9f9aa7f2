//! The Akiba position string (docs/rules/engine/akiba.md, "Position strings"): parsing with errors that name the
//! field, and exact printing.

use super::board::Square;
use super::moves::Move;
use super::position::{MARBLES_PER_PLAYER, Marble, Position, RED_MARBLES, REDS_TO_WIN};
use super::{RepeatRule, Rules};
use crate::game::Player;
use crate::phrase::{Phrase, Phrased};
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
        reason: Phrase,
    },
}

impl Phrased for PositionError {
    fn phrase(&self) -> Phrase {
        match self {
            PositionError::Field(error) => error.phrase(),
            PositionError::Reds { player, text } => {
                Phrase::new("{player} reds field: '{text}' is not a count 0..7")
                    .with_phrase("player", Phrase::new(player))
                    .with("text", text)
            }
            PositionError::Extra(text) => {
                Phrase::new("extra field: '{text}' is not 'x' or '-'").with("text", text)
            }
            PositionError::Banned { text, reason } => {
                Phrase::new("banned field: '{text}' {reason}")
                    .with("text", text)
                    .with_phrase("reason", reason.clone())
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
const FIELDS: &str = "<board> <side> <white reds> <black reds> <extra> <banned> <fullmove>";

/// The letters of the side field: white, black.
const SIDES: [&str; 2] = ["w", "b"];

fn parse_board(text: &str) -> Result<[u64; 3], FieldError> {
    let ranks: [&str; 7] = position_string::rows(text).map_err(|count| {
        FieldError::Board(
            Phrase::new("{count} ranks separated by '/', expected 7").with("count", count),
        )
    })?;
    let mut marbles = [0u64; 3];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 6 - i as u8;
        let squares =
            position_string::read_row(rank_text, 7, 7, Marble::from_letter, |file, kind| {
                marbles[kind as usize] |= Square::new(file as u8, rank).bit();
            })
            .map_err(|ch| {
                FieldError::Board(
                    Phrase::new("unknown character '{char}' in rank {rank}")
                        .with("char", ch)
                        .with("rank", rank + 1),
                )
            })?;
        if squares != 7 {
            return Err(FieldError::Board(
                Phrase::new("rank {rank} covers {squares} squares, expected 7")
                    .with("rank", rank + 1)
                    .with("squares", squares),
            ));
        }
    }
    for (kind, name) in [(Marble::White, "white"), (Marble::Black, "black")] {
        let count = marbles[kind as usize].count_ones();
        if count > MARBLES_PER_PLAYER {
            return Err(FieldError::Board(
                Phrase::new("{count} {player} marbles, at most {max}")
                    .with("count", count)
                    .with_phrase("player", Phrase::new(name))
                    .with("max", MARBLES_PER_PLAYER),
            ));
        }
    }
    if marbles[0] == 0 && marbles[1] == 0 {
        return Err(FieldError::Board(Phrase::new(
            "neither white nor black has a marble",
        )));
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
            let on_board = marbles[Marble::Red as usize].count_ones();
            return Err(FieldError::Board(
                Phrase::new("{board} reds on the board plus {won} won is {total}, more than {max}")
                    .with("board", on_board)
                    .with("won", reds_total - on_board)
                    .with("total", reds_total)
                    .with("max", RED_MARBLES),
            )
            .into());
        }
        let extra = position_string::read_flag(extra, "x")
            .ok_or_else(|| PositionError::Extra(extra.to_string()))?;
        let banned_move = if banned == "-" {
            None
        } else {
            let reject = |reason: Phrase| PositionError::Banned {
                text: banned.to_string(),
                reason,
            };
            let mv: Move = banned.parse().map_err(|e: super::moves::ParseMoveError| {
                reject(Phrase::new("is not a push: {reason}").with_phrase("reason", e.phrase()))
            })?;
            if mv.is_pass() {
                return Err(reject(Phrase::new("is not a push")));
            }
            if marbles[Marble::of(side) as usize] & mv.from().bit() == 0 {
                return Err(reject(Phrase::new(
                    "does not start on a marble of the side to move",
                )));
            }
            if extra {
                return Err(reject(Phrase::new(
                    "cannot be set in an extra move (only a capture-free push sets a ban)",
                )));
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
