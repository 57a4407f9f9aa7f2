//! Akiba's 7x7 board, reds won and marbles left.

use crate::akiba::{Marble, Move, Position, Square};
use crate::game::Player;
use crate::view::{CellView, View};
use serde_json::{Value, json};

impl View for Position {
    const PLAYERS: [&'static str; 2] = ["white", "black"];

    fn cells(&self) -> Vec<CellView> {
        Square::all()
            .map(|sq| CellView {
                cell: sq.to_string(),
                x: f32::from(sq.file()),
                y: f32::from(6 - sq.rank()),
                content: match self.marble_at(sq) {
                    None => "empty",
                    Some(Marble::White) => "white",
                    Some(Marble::Black) => "black",
                    Some(Marble::Red) => "red",
                },
            })
            .collect()
    }

    fn extras(&self) -> Value {
        let left = |kind: Marble| self.marbles(kind).count_ones();
        json!({
            "reds_won": [self.reds_won(Player::One), self.reds_won(Player::Two)],
            "left": {
                "white": left(Marble::White),
                "black": left(Marble::Black),
                "red": left(Marble::Red),
            },
            "banned": self.banned_move().map(|mv| mv.to_string()),
        })
    }

    fn phase(&self) -> String {
        let mut text = if self.in_extra_move() {
            "extra move after a capture (may pass)".to_string()
        } else {
            "push a marble".to_string()
        };
        if let Some(mv) = self.banned_move() {
            text.push_str(&format!("; {mv} is barred (no push-back)"));
        }
        text
    }

    /// A push's marble and the cell it moves to; `pass` is played with its button.
    fn move_cells(mv: Move) -> (Option<String>, Option<String>) {
        match mv.to() {
            Some(to) => (Some(mv.from().to_string()), Some(to.to_string())),
            None => (None, None),
        }
    }

    fn events(before: &Self, _mv: Move, after: &Self) -> Vec<Value> {
        let mut events = Vec::new();
        for (kind, colour) in [
            (Marble::Red, "red"),
            (Marble::White, "white"),
            (Marble::Black, "black"),
        ] {
            let lost = before.marbles(kind).count_ones() - after.marbles(kind).count_ones();
            if lost > 0 {
                let event = if kind == Marble::Red {
                    "captured"
                } else {
                    "pushed_off"
                };
                events.push(json!({"event": event, "colour": colour, "n": lost}));
            }
        }
        if after.in_extra_move() {
            events.push(json!({"event": "extra_move"}));
        }
        events
    }
}
