//! Offboard's 61-cell hexagon with the ring of scoring sectors around it.

use crate::game::Player;
use crate::offboard::{Cell, Exit, Move, Position, ring_exit};
use crate::view::{CellView, View};
use serde_json::{Value, json};

/// Height of a row of hexagons, in cell widths.
const ROW_HEIGHT: f32 = 0.866_025_4;

/// Centre of (row, number), also for the ring's cells off the board: rows run bottom to
/// top, numbers along the rows, and each row up shifts half a cell to the left.
fn centre(row: i8, number: i8) -> (f32, f32) {
    (
        f32::from(number) - f32::from(row) / 2.0,
        f32::from(8 - row) * ROW_HEIGHT,
    )
}

fn colour(player: Option<Player>) -> &'static str {
    match player {
        None => "empty",
        Some(Player::One) => "red",
        Some(Player::Two) => "yellow",
    }
}

impl View for Position {
    const PLAYERS: [&'static str; 2] = ["red", "yellow"];
    const POINTS_TARGET: Option<u32> = Some(crate::offboard::POINTS_TO_WIN);

    fn cells(&self) -> Vec<CellView> {
        Cell::all()
            .map(|cell| {
                let (x, y) = centre(cell.row() as i8, cell.number() as i8);
                CellView {
                    cell: cell.to_string(),
                    x,
                    y,
                    content: colour(self.marble_at(cell)),
                }
            })
            .collect()
    }

    /// The 30 ring cells: each sector's two cells with its number, value and the marble
    /// lying in it, and the six corners.
    fn extras(&self) -> Value {
        let rules = self.rules();
        let mut ring = Vec::new();
        for row in -1..=9i8 {
            for number in 0..=10i8 {
                let Some(exit) = ring_exit(row, number) else {
                    continue;
                };
                let (x, y) = centre(row, number);
                ring.push(match exit {
                    Exit::Sector(s) => json!({
                        "x": x, "y": y,
                        "sector": s + 1,
                        "value": rules.value(usize::from(s)),
                        "holds": colour(self.sector(usize::from(s))),
                    }),
                    Exit::Corner(k) => json!({
                        "x": x, "y": y,
                        "corner": k,
                        "rolls_into": rules.sector(exit) + 1,
                    }),
                });
            }
        }
        json!({
            "ring": ring,
            "points": [self.points(Player::One), self.points(Player::Two)],
            "pending": self.pending(),
        })
    }

    fn phase(&self) -> String {
        if self.pending() {
            "re-placement: put the returned marble on an empty cell, or make a normal move \
             (the marble is then out of the game)"
                .to_string()
        } else {
            "move a line of marbles one cell".to_string()
        }
    }

    fn events(before: &Self, _mv: Move, after: &Self) -> Vec<Value> {
        let mut events = Vec::new();
        for player in [Player::One, Player::Two] {
            let scored = after.points(player) - before.points(player).min(after.points(player));
            if scored > 0 {
                events.push(json!({"event": "scored", "player": player.index() + 1, "n": scored}));
            }
            let lost = before.marbles(player).count_ones();
            let left = after.marbles(player).count_ones();
            if lost > left && scored == 0 {
                events.push(json!({"event": "pushed_off", "colour": colour(Some(player)), "n": lost - left}));
            }
        }
        if after.pending() {
            events.push(json!({"event": "replace"}));
        }
        events
    }

    fn move_cells(mv: Move) -> (Option<String>, Option<String>) {
        let cell = mv.cell().to_string();
        match mv.to() {
            Some(to) => (Some(cell), Some(to.to_string())),
            None if mv.is_place() => (None, Some(cell)),
            None => (None, None),
        }
    }
}
