//! Abraxas: the 8x8 plate lying in one corner of the 9x9 sheet of dots.

use crate::abraxas::{FLAG_REPLAY, Move, Phase, Position, hole_name};
use crate::game::Player;
use crate::view::{CellView, View};
use serde_json::{Value, json};

impl View for Position {
    const PLAYERS: [&'static str; 2] = ["player 1", "player 2"];

    /// The plate's holes, drawn over the sheet cells they lie on (y grows downwards).
    fn cells(&self) -> Vec<CellView> {
        let (ox, oy) = self.corner().offset();
        let sheet = self.sheet();
        (0..64u8)
            .map(|h| {
                let (f, r) = (usize::from(h % 8), usize::from(h / 8));
                let bit = 1u64 << h;
                let content = if self.red_stones() & bit != 0 {
                    "red"
                } else if self.blue_stones() & bit != 0 {
                    "blue"
                } else if sheet.has_dot(f + ox, r + oy) {
                    "dot"
                } else {
                    "empty"
                };
                CellView {
                    cell: hole_name(h),
                    x: (f + ox) as f32,
                    y: (8 - r - oy) as f32,
                    content,
                }
            })
            .collect()
    }

    fn extras(&self) -> Value {
        let sheet = self.sheet();
        let dots: Vec<[usize; 2]> = (0..9)
            .flat_map(|y| (0..9).map(move |x| (x, y)))
            .filter(|&(x, y)| sheet.has_dot(x, y))
            .map(|(x, y)| [x, 8 - y])
            .collect();
        let line_holes: Vec<String> = {
            let all = self.lines().iter().fold(0u64, |a, l| a | l);
            (0..64u8)
                .filter(|h| all & (1 << h) != 0)
                .map(hole_name)
                .collect()
        };
        json!({
            "corner": self.corner().name(),
            "plate": self.corner().offset(),
            "dots": dots,
            "lines": line_holes,
            "pool": self.pool(),
            "stones": [self.stones_owned(Player::One), self.stones_owned(Player::Two)],
            "blue_left": [self.blue_left(Player::One), self.blue_left(Player::Two)],
            "target": self.rules().target,
        })
    }

    fn phase(&self) -> String {
        let replay = self.flags() & FLAG_REPLAY != 0;
        match self.phase() {
            Phase::Place if self.pool() == 0 => {
                "pool empty: move a red stone to a free hole".to_string()
            }
            Phase::Place if replay => "replay: place another red stone".to_string(),
            Phase::Place => "place a red stone (or a blue stop stone)".to_string(),
            Phase::StopBefore => "stop before the replay with a blue stone, or pass".to_string(),
            Phase::StopAfter => "stop after the replay with a blue stone, or pass".to_string(),
            Phase::Decide => "after the stop: slide the plate or stay".to_string(),
            Phase::Capture => "capture: choose the stones to take from the lines".to_string(),
        }
    }

    fn move_cells(mv: Move) -> (Option<String>, Option<String>) {
        match mv {
            Move::Place(h) => (None, Some(hole_name(h))),
            Move::Shift(a, b) => (Some(hole_name(a)), Some(hole_name(b))),
            // A click on a hole where both are legal places the red stone (the shorter
            // text); the blue one has its button.
            Move::Blue(h) => (None, Some(hole_name(h))),
            // Words are played with their buttons; captures by clicking the line stones
            // (the page picks the set).
            Move::Pass | Move::Slide | Move::Stay | Move::Capture(_) => (None, None),
        }
    }

    fn events(before: &Self, mv: Move, after: &Self) -> Vec<Value> {
        let mut events = Vec::new();
        match mv {
            Move::Blue(h) => events.push(json!({"event": "stop_stone", "cell": hole_name(h)})),
            Move::Pass => events.push(json!({"event": "no_stop"})),
            Move::Slide => events.push(json!({"event": "slide", "corner": after.corner().name()})),
            Move::Stay => events.push(json!({"event": "stay"})),
            Move::Capture(set) => {
                let cells: Vec<String> = (0..64u8)
                    .filter(|h| set & (1 << h) != 0)
                    .map(hole_name)
                    .collect();
                events.push(json!({"event": "took", "cells": cells, "n": cells.len()}));
            }
            Move::Place(_) | Move::Shift(..) => {}
        }
        if before.corner() != after.corner() && !matches!(mv, Move::Slide) {
            events.push(json!({"event": "slide", "corner": after.corner().name()}));
        }
        if after.phase() == Phase::Capture && before.phase() != Phase::Capture {
            events.push(json!({"event": "line"}));
        }
        events
    }
}
