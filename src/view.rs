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

/// The two cells of a move written as two cell names (`a6b6`); none for any other text,
/// such as `pass`, which is four letters too.
pub fn two_cells(text: &str) -> (Option<String>, Option<String>) {
    let cell = |c: &[u8]| c[0].is_ascii_lowercase() && c[1].is_ascii_digit();
    match text.as_bytes() {
        b @ [_, _, _, _] if cell(&b[..2]) && cell(&b[2..]) => {
            (Some(text[..2].to_string()), Some(text[2..].to_string()))
        }
        _ => (None, None),
    }
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
    /// as a push from `pa` to `ss`.
    #[test]
    fn only_two_cell_names_are_two_cells() {
        let cells = |a: &str, b: &str| (Some(a.to_string()), Some(b.to_string()));
        assert_eq!(super::two_cells("a6b6"), cells("a6", "b6"));
        assert_eq!(super::two_cells("pass"), (None, None));
        assert_eq!(super::two_cells("a6b"), (None, None));
        assert_eq!(super::two_cells("a6b6c"), (None, None));
        use crate::view::View;
        let pass = crate::akiba::Move::PASS;
        assert_eq!(crate::akiba::Position::move_cells(pass), (None, None));
    }

    #[test]
    fn every_move_starts_and_ends_on_a_drawn_cell() {
        for name in GAME_NAMES {
            with_game(name, CheckViews).unwrap();
        }
        assert!(with_game("chess", CheckViews).is_err());
    }
}
