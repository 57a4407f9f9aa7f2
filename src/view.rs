//! What the page needs to draw a game and take clicks: the board's cells with their
//! contents and coordinates, the game's counters, the decision in words, and the cells a
//! move starts and ends on. Rules stay in the [`Game`] implementations; this is only the
//! picture of a position. Each game's is in its own module (`view.rs`).

use crate::game::Game;
use serde::Serialize;
use serde_json::Value;

/// One board cell as the page draws it.
#[derive(Serialize)]
pub struct CellView {
    /// The cell's name in the game's notation (`data-cell`).
    pub cell: String,
    /// Centre in board units (the page scales the picture to fit).
    pub x: f32,
    pub y: f32,
    /// `empty`, `white`, `black`, `red`, `yellow`, `blue`, `dot` (`data-content`).
    pub content: &'static str,
}

/// The picture of a position of one game.
pub trait View: Game {
    /// The players' names, one then two (Akiba's white and black…).
    const PLAYERS: [&'static str; 2];
    /// Points a player needs to win, for games won on points.
    const POINTS_TARGET: Option<u32> = None;
    fn cells(&self) -> Vec<CellView>;
    /// Everything else the page draws, e.g. Offboard's ring of sectors, as JSON.
    fn extras(&self) -> Value;
    /// The decision to take now, in words (`extra move after a capture: may pass`).
    fn phase(&self) -> String;
    /// The cell a move starts from (`None` for a placement or a word move) and the cell
    /// it ends on (`None` for `pass` and the like): the page highlights moves by them.
    fn move_cells(mv: Self::Move) -> (Option<String>, Option<String>);
    /// What `mv`, played in `before`, did besides moving (marbles pushed off, captures,
    /// points, stop stones), as events the page puts in words in its language, e.g.
    /// `{"event": "captured", "colour": "red", "n": 1}`.
    fn events(before: &Self, mv: Self::Move, after: &Self) -> Vec<Value>;
}

#[cfg(test)]
mod tests {
    use crate::game::MoveList;
    use crate::games::{GAME_NAMES, GameVisitor, with_game};
    use crate::profile::Profile;

    struct CheckViews;
    impl GameVisitor for CheckViews {
        type Output = ();
        /// Every legal move's cells are cells of the board, and every board cell is named
        /// once, in the start position of each game.
        fn visit<G: Profile>(self) {
            let position = G::start(G::Rules::default());
            let cells = position.cells();
            let names: std::collections::HashSet<&str> =
                cells.iter().map(|c| c.cell.as_str()).collect();
            assert_eq!(names.len(), cells.len(), "{}", G::NAME);
            let mut moves = MoveList::new();
            position.legal_moves(&mut moves);
            assert!(!moves.is_empty());
            for &mv in moves.iter() {
                let (from, to) = G::move_cells(mv);
                for cell in [from, to].into_iter().flatten() {
                    assert!(names.contains(cell.as_str()), "{} {mv}: {cell}", G::NAME);
                }
            }
        }
    }

    /// A word move of four letters is no pair of cells: the page once drew Akiba's `pass`
    /// as a push from `pa` to `ss`. A push is its two cells, an Offboard placement its one.
    #[test]
    fn only_a_push_has_two_cells() {
        use crate::view::View;
        let cells = |a: &str, b: &str| (Some(a.to_string()), Some(b.to_string()));
        let akiba = |text: &str| {
            crate::akiba::Position::move_cells(text.parse::<crate::akiba::Move>().unwrap())
        };
        assert_eq!(akiba("a6b6"), cells("a6", "b6"));
        assert_eq!(akiba("pass"), (None, None));
        let offboard = |text: &str| {
            crate::offboard::Position::move_cells(text.parse::<crate::offboard::Move>().unwrap())
        };
        assert_eq!(offboard("e5e6"), cells("e5", "e6"));
        assert_eq!(offboard("@e5"), (None, Some("e5".to_string())));
    }

    #[test]
    fn every_move_starts_and_ends_on_a_drawn_cell() {
        for name in GAME_NAMES {
            with_game(name, CheckViews).unwrap();
        }
        assert!(with_game("chess", CheckViews).is_err());
    }
}
