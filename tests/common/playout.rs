//! Random games: what the tests that need many different positions and move lists play.

use rand::RngExt;
use rand::rngs::StdRng;
use shove::game::MoveList;
use shove::profile::Profile;

/// Plays up to `plies` random legal moves from `position` (fewer if the game ends) and
/// returns their texts.
pub fn play_random<G: Profile>(rng: &mut StdRng, position: &mut G, plies: u32) -> Vec<String> {
    let mut moves = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..plies {
        list.clear();
        position.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let mv = list[rng.random_range(0..list.len())];
        moves.push(mv.to_string());
        position.play(mv);
    }
    moves
}
