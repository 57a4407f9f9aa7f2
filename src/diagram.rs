//! The lines the games' board diagrams (`shove show`, the protocol's `d`) share: who decides,
//! the result once the game is over and the position string, each after a label padded to
//! line up with the game's other labels.

use crate::game::{Game, Outcome, Player};

/// `label` padded to `width`, a space, then `text`.
fn line(label: &str, width: usize, text: &str) -> String {
    format!("{label:<width$} {text}\n")
}

/// The `to move:` line: the side's name and, when the decision is a special one, what it is.
pub fn to_move(width: usize, side: &str, special: Option<&str>) -> String {
    match special {
        Some(special) => line("to move:", width, &format!("{side} ({special})")),
        None => line("to move:", width, side),
    }
}

/// The end of a diagram: `game over:` with the result once the game is over (`winner`
/// names a player), the game's `note` (whole lines, or none) and the position string.
pub fn ending<G: Game>(
    position: &G,
    width: usize,
    winner: impl Fn(Player) -> String,
    note: &str,
) -> String {
    let result = match position.outcome() {
        None => String::new(),
        Some(Outcome::Win(player)) => {
            line("game over:", width, &format!("{} wins", winner(player)))
        }
        Some(Outcome::Draw) => line("game over:", width, "draw"),
    };
    format!(
        "{result}{note}{}",
        line("position:", width, &position.to_string())
    )
}
