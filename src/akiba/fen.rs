//! The Akiba position string (docs/rules/akiba.md, "Position strings"): parsing with errors that name the
//! field, and exact printing.

use super::board::Square;
use super::moves::Move;
use super::position::{MARBLES_PER_PLAYER, Marble, Position, RED_MARBLES, REDS_TO_WIN};
use super::{RepeatRule, Rules};
use crate::game::Player;
use std::fmt;
use std::str::FromStr;

/// Why a position string was rejected; each variant names the field at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Not exactly seven space-separated fields.
    FieldCount(usize),
    /// The board field: what is wrong with it.
    Board(String),
    Side(String),
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
    Fullmove(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::FieldCount(n) => write!(
                f,
                "position string has {n} fields, expected 7: <board> <side> <white reds> \
                 <black reds> <extra> <banned> <fullmove>"
            ),
            PositionError::Board(why) => write!(f, "board field: {why}"),
            PositionError::Side(s) => write!(f, "side field: '{s}' is not 'w' or 'b'"),
            PositionError::Reds { player, text } => {
                write!(f, "{player} reds field: '{text}' is not a count 0..7")
            }
            PositionError::Extra(s) => write!(f, "extra field: '{s}' is not 'x' or '-'"),
            PositionError::Banned { text, reason } => {
                write!(f, "banned field: '{text}' {reason}")
            }
            PositionError::Fullmove(s) => {
                write!(
                    f,
                    "fullmove field: '{s}' is not a move number 1..4294967295"
                )
            }
        }
    }
}

impl std::error::Error for PositionError {}

fn parse_board(text: &str) -> Result<[u64; 3], PositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 7 {
        return Err(PositionError::Board(format!(
            "{} ranks separated by '/', expected 7",
            ranks.len()
        )));
    }
    let mut marbles = [0u64; 3];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 6 - i as u8;
        let mut squares = 0u32;
        for ch in rank_text.chars() {
            let (kind, width) = match ch {
                'W' => (Some(Marble::White), 1),
                'B' => (Some(Marble::Black), 1),
                'R' => (Some(Marble::Red), 1),
                '1'..='7' => (None, ch as u32 - '0' as u32),
                _ => {
                    return Err(PositionError::Board(format!(
                        "unknown character '{ch}' in rank {}",
                        rank + 1
                    )));
                }
            };
            if let Some(kind) = kind.filter(|_| squares < 7) {
                marbles[kind as usize] |= Square::new(squares as u8, rank).bit();
            }
            squares += width;
        }
        if squares != 7 {
            return Err(PositionError::Board(format!(
                "rank {} covers {squares} squares, expected 7",
                rank + 1
            )));
        }
    }
    for (kind, name) in [(Marble::White, "white"), (Marble::Black, "black")] {
        let count = marbles[kind as usize].count_ones();
        if count > MARBLES_PER_PLAYER {
            return Err(PositionError::Board(format!(
                "{count} {name} marbles, at most {MARBLES_PER_PLAYER}"
            )));
        }
    }
    if marbles[0] == 0 && marbles[1] == 0 {
        return Err(PositionError::Board(
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
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side, white_reds, black_reds, extra, banned, fullmove] = fields[..] else {
            return Err(PositionError::FieldCount(fields.len()));
        };
        let marbles = parse_board(board)?;
        let side = match side {
            "w" => Player::One,
            "b" => Player::Two,
            _ => return Err(PositionError::Side(side.to_string())),
        };
        let reds_won = [
            parse_reds(white_reds, "white")?,
            parse_reds(black_reds, "black")?,
        ];
        let reds_total = marbles[Marble::Red as usize].count_ones()
            + u32::from(reds_won[0])
            + u32::from(reds_won[1]);
        if reds_total > RED_MARBLES {
            return Err(PositionError::Board(format!(
                "{} reds on the board plus {} won is {reds_total}, more than {RED_MARBLES}",
                marbles[Marble::Red as usize].count_ones(),
                reds_total - marbles[Marble::Red as usize].count_ones()
            )));
        }
        let extra = match extra {
            "x" => true,
            "-" => false,
            _ => return Err(PositionError::Extra(extra.to_string())),
        };
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
            _ => return Err(PositionError::Fullmove(fullmove.to_string())),
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

impl FromStr for Position {
    type Err = PositionError;
    /// Parses under the default rules.
    fn from_str(s: &str) -> Result<Position, PositionError> {
        Position::parse(s, Rules::default())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..7).rev() {
            let mut empty = 0;
            for file in 0..7 {
                match self.marble_at(Square::new(file, rank)) {
                    Some(kind) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", kind.letter())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
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
