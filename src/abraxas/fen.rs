//! The Abraxas position string (docs/rules/engine/abraxas.md): parsing with errors that name
//! the field, and exact printing.

use super::movegen::{MAX_CAPTURES, capture_sets};
use super::position::{FLAG_BLUE, FLAG_NO_BLUE, FLAG_REPLAY, Phase, Position, STONES};
use super::sheet::{Corner, Rules};
use crate::game::Player;
use crate::phrase::{Phrase, Phrased};
use crate::position_string;
use std::fmt;

/// Why a position string was rejected; the message names the field (none when the string
/// has the wrong number of fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    pub field: Option<&'static str>,
    pub message: Phrase,
}

impl Phrased for PositionError {
    fn phrase(&self) -> Phrase {
        match self.field {
            Some(field) => Phrase::new("bad {field}: {reason}")
                .with("field", field)
                .with_phrase("reason", self.message.clone()),
            None => self.message.clone(),
        }
    }
}

crate::phrase::display_as_phrase!(PositionError);

impl std::error::Error for PositionError {}

const FIELDS: [&str; 12] = [
    "sheet", "plate", "corner", "side", "phase", "flags", "pool", "stones1", "stones2", "blue1",
    "blue2", "fullmove",
];

fn err(field: &'static str, message: Phrase) -> PositionError {
    PositionError {
        field: Some(field),
        message,
    }
}

/// Rank `r` (0-based) of the plate runs past its 8 holes.
fn rank_too_long(r: usize) -> PositionError {
    err(
        "plate",
        Phrase::new("rank {rank} is longer than 8").with("rank", r + 1),
    )
}

fn parse_plate(text: &str) -> Result<(u64, u64), PositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(err(
            "plate",
            Phrase::new("expected 8 ranks separated by '/', found {count}")
                .with("count", ranks.len()),
        ));
    }
    let (mut red, mut blue) = (0u64, 0u64);
    for (i, rank) in ranks.iter().enumerate() {
        let r = 7 - i;
        let mut f = 0usize;
        for ch in rank.chars() {
            match ch {
                'R' | 'B' => {
                    if f >= 8 {
                        return Err(rank_too_long(r));
                    }
                    let bit = 1u64 << (f + 8 * r);
                    if ch == 'R' {
                        red |= bit;
                    } else {
                        blue |= bit;
                    }
                    f += 1;
                }
                '1'..='8' => f += ch as usize - '0' as usize,
                _ => {
                    return Err(err(
                        "plate",
                        Phrase::new("bad character '{char}' (expected R, B or 1-8)")
                            .with("char", ch),
                    ));
                }
            }
            if f > 8 {
                return Err(rank_too_long(r));
            }
        }
        if f != 8 {
            return Err(err(
                "plate",
                Phrase::new("rank {rank} has {holes} holes, not 8")
                    .with("rank", r + 1)
                    .with("holes", f),
            ));
        }
    }
    Ok((red, blue))
}

fn number(field: &'static str, text: &str, max: u32) -> Result<u32, PositionError> {
    let n: u32 = text.parse().map_err(|_| {
        err(
            field,
            Phrase::new("'{text}' is not a number").with("text", text),
        )
    })?;
    if n > max {
        return Err(err(
            field,
            Phrase::new("{n} is more than {max}")
                .with("n", n)
                .with("max", max),
        ));
    }
    Ok(n)
}

impl Position {
    /// Parses the twelve-field position string. The string's sheet replaces the rules'
    /// sheet; the other rules (target, blue stones per player) come from `rules`.
    pub fn parse(text: &str, rules: Rules) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != FIELDS.len() {
            return Err(PositionError {
                field: None,
                message: Phrase::new("{count} fields, expected 12 ({fields})")
                    .with("fields", FIELDS.join(" "))
                    .with("count", fields.len()),
            });
        }
        let mut rules = rules;
        if !(rules.target == 11 || rules.target == 13) {
            return Err(err("rules", Phrase::new("the target must be 11 or 13")));
        }
        if !(rules.blue_stones == 2 || rules.blue_stones == 3) {
            return Err(err(
                "rules",
                Phrase::new("blue stones per player must be 2 or 3"),
            ));
        }
        rules.sheet = fields[0].parse().map_err(|e| err("sheet", e))?;
        let (red, blue) = parse_plate(fields[1])?;
        let corner = Corner::from_name(fields[2]).ok_or_else(|| {
            err(
                "corner",
                Phrase::new("'{text}' is not sw, se, ne or nw").with("text", fields[2]),
            )
        })?;
        let side = match fields[3] {
            "1" => Player::One,
            "2" => Player::Two,
            s => {
                return Err(err(
                    "side",
                    Phrase::new("'{text}' is not 1 or 2").with("text", s),
                ));
            }
        };
        let phase = match fields[4] {
            "p" => Phase::Place,
            "s" => Phase::StopBefore,
            "a" => Phase::StopAfter,
            "d" => Phase::Decide,
            "c" => Phase::Capture,
            s => {
                return Err(err(
                    "phase",
                    Phrase::new("'{text}' is not p, s, a, d or c").with("text", s),
                ));
            }
        };
        let mut flags = 0u8;
        if fields[5] != "-" {
            for ch in fields[5].chars() {
                let bit = match ch {
                    'r' => FLAG_REPLAY,
                    'b' => FLAG_BLUE,
                    'n' => FLAG_NO_BLUE,
                    _ => {
                        return Err(err(
                            "flags",
                            Phrase::new("bad flag '{char}' (expected '-' or r, b, n)")
                                .with("char", ch),
                        ));
                    }
                };
                if flags & bit != 0 {
                    return Err(err(
                        "flags",
                        Phrase::new("flag '{char}' given twice").with("char", ch),
                    ));
                }
                flags |= bit;
            }
        }
        let pool = number("pool", fields[6], STONES as u32)? as u8;
        let s1 = number("stones1", fields[7], STONES as u32)? as u8;
        let s2 = number("stones2", fields[8], STONES as u32)? as u8;
        let bmax = rules.blue_stones as u32;
        let b1 = number("blue1", fields[9], bmax)? as u8;
        let b2 = number("blue2", fields[10], bmax)? as u8;
        let fullmove = number("fullmove", fields[11], u32::MAX)?;
        if fullmove == 0 {
            return Err(err("fullmove", Phrase::new("must be at least 1")));
        }
        let reds = red.count_ones();
        if reds + pool as u32 + s1 as u32 + s2 as u32 != STONES as u32 {
            return Err(err(
                "pool",
                Phrase::new(
                    "red stones on the plate ({reds}), in the pool ({pool}) and owned \
                     ({one} + {two}) must add up to {stones}",
                )
                .with("reds", reds)
                .with("pool", pool)
                .with("one", s1)
                .with("two", s2)
                .with("stones", STONES),
            ));
        }
        let blues = blue.count_ones();
        if blues + b1 as u32 + b2 as u32 != 2 * bmax {
            return Err(err(
                "blue1",
                Phrase::new(
                    "blue stones on the plate ({blues}) and left ({one} + {two}) must add up \
                     to {total} ({each} per player)",
                )
                .with("blues", blues)
                .with("one", b1)
                .with("two", b2)
                .with("total", 2 * bmax)
                .with("each", bmax),
            ));
        }
        if s1 >= rules.target && s2 >= rules.target {
            return Err(err(
                "stones2",
                Phrase::new("both players own the target number of stones"),
            ));
        }
        let (r, b, n) = (
            flags & FLAG_REPLAY != 0,
            flags & FLAG_BLUE != 0,
            flags & FLAG_NO_BLUE != 0,
        );
        let deciding_blues = [b1, b2][side.index()];
        let flags_ok = match phase {
            Phase::Place => !b || r,
            Phase::StopBefore | Phase::StopAfter => r && !b && !n,
            Phase::Decide => r && b && !n,
            Phase::Capture => !(n && (r || b)),
        } && !(n && r);
        if !flags_ok {
            return Err(err(
                "flags",
                Phrase::new("flags '{flags}' cannot occur in phase '{phase}'")
                    .with("flags", fields[5])
                    .with("phase", phase.letter()),
            ));
        }
        if matches!(phase, Phase::StopBefore | Phase::StopAfter) && deciding_blues == 0 {
            return Err(err(
                "phase",
                Phrase::new("a stop phase needs the deciding player to have a blue stone"),
            ));
        }
        let mut p = Position {
            rules,
            red,
            blue,
            corner,
            side,
            phase,
            flags,
            pool,
            stones: [s1, s2],
            blues: [b1, b2],
            fullmove,
            hash: 0,
        };
        if phase == Phase::Capture && !p.won() {
            if !p.capture_due() {
                return Err(err(
                    "phase",
                    Phrase::new("phase 'c' but no line holds a red stone"),
                ));
            }
            let mut sets = Vec::new();
            capture_sets(p.red, p.red_holes(), &mut sets);
            if sets.len() >= MAX_CAPTURES {
                return Err(err(
                    "plate",
                    Phrase::new("more than {max} ways to capture").with("max", MAX_CAPTURES),
                ));
            }
        }
        p.hash = p.compute_hash();
        Ok(p)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut flags = String::new();
        for (bit, ch) in [(FLAG_REPLAY, 'r'), (FLAG_BLUE, 'b'), (FLAG_NO_BLUE, 'n')] {
            if self.flags & bit != 0 {
                flags.push(ch);
            }
        }
        if flags.is_empty() {
            flags.push('-');
        }
        let hole = |bit: u64| {
            if self.red & bit != 0 {
                Some('R')
            } else if self.blue & bit != 0 {
                Some('B')
            } else {
                None
            }
        };
        write!(f, "{} ", self.rules.sheet)?;
        position_string::write_board(
            f,
            (0..8)
                .rev()
                .map(|r| (0..8).map(move |file| hole(1u64 << (file + 8 * r)))),
        )?;
        write!(
            f,
            " {} {} {} {} {} {} {} {} {} {}",
            self.corner,
            if self.side == Player::One { 1 } else { 2 },
            self.phase.letter(),
            flags,
            self.pool,
            self.stones[0],
            self.stones[1],
            self.blues[0],
            self.blues[1],
            self.fullmove
        )
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
