//! Move-set helpers shared by the rule tests of every game.

use shove::game::MoveList;
use shove::profile::Profile;

/// The legal moves of a position as sorted move texts, after checking that
/// `count_legal_moves` agrees with the list.
pub fn legal<G: Profile>(position: &G) -> Vec<String> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    assert_eq!(
        moves.len(),
        position.count_legal_moves(),
        "count_legal_moves disagrees with legal_moves in {position}"
    );
    let mut texts: Vec<String> = moves.iter().map(|mv| mv.to_string()).collect();
    texts.sort();
    texts
}

/// Move texts sorted, to compare with [`legal`].
pub fn sorted(moves: &[&str]) -> Vec<String> {
    let mut texts: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
    texts.sort();
    texts
}
