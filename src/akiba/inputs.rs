//! Akiba's network inputs from one player's view.
//!
//! Squares use the board's bit index (64 per plane, the spare file never set): my marbles,
//! the opponent's, reds; then one-hot counts of each side's marbles and reds won (the two
//! ways to win by capturing), who is in an extra move, and which colour the view plays.
//! Last, what the classical evaluation counts of each side's pushes: those that win a red
//! now, those that capture a marble now (0..=4 each, one-hot) and all of them (in steps of
//! two). A one-layer network of single squares does not find which marble can push what
//! off the board, so it is told, as Stockfish's newest networks are told the threats.

use super::movegen::PushCounts;
use super::{Marble, Position};
use crate::game::Player;
use crate::nnue::{Inputs, exchange_blocks};

const MINE: usize = 0;
const THEIRS: usize = 64;
const REDS: usize = 128;
const MY_COUNT: usize = 192;
const THEIR_COUNT: usize = MY_COUNT + 9;
const MY_REDS_WON: usize = THEIR_COUNT + 9;
const THEIR_REDS_WON: usize = MY_REDS_WON + 8;
const EXTRA_MOVE: usize = THEIR_REDS_WON + 8;
const COLOUR: usize = EXTRA_MOVE + 2;
/// Threats are counted up to this many.
const THREATS: usize = 5;
const MY_RED_THREATS: usize = COLOUR + 2;
const THEIR_RED_THREATS: usize = MY_RED_THREATS + THREATS;
const MY_CAPTURE_THREATS: usize = THEIR_RED_THREATS + THREATS;
const THEIR_CAPTURE_THREATS: usize = MY_CAPTURE_THREATS + THREATS;
/// Pushes are counted in steps of two up to this many steps.
const MOBILITY: usize = 16;
const MY_MOBILITY: usize = THEIR_CAPTURE_THREATS + THREATS;
const THEIR_MOBILITY: usize = MY_MOBILITY + MOBILITY;
pub(super) const INPUTS: usize = THEIR_MOBILITY + MOBILITY;
/// Output buckets: by the marbles left on the board, three per bucket from the 29 of the
/// start, so that the network may weigh its hidden units differently as the board empties.
pub(super) const BUCKETS: usize = 8;

pub(super) fn bucket(position: &Position) -> usize {
    let on_board = position.occupied().count_ones() as usize;
    (29usize.saturating_sub(on_board) / 3).min(BUCKETS - 1)
}

pub(super) fn network_view(position: &Position, inputs: &mut Inputs) {
    view(position, Player::One, &position.push_counts(), inputs);
}

/// Player two's input for player one's `input`: each "my" block exchanged with its "their"
/// block, and who is in the extra move and which colour the view plays flipped.
pub(super) fn mirror(input: usize) -> usize {
    exchange_blocks(
        input,
        &[
            (MINE, THEIRS, 64),
            (MY_COUNT, THEIR_COUNT, 9),
            (MY_REDS_WON, THEIR_REDS_WON, 8),
            (EXTRA_MOVE, EXTRA_MOVE + 1, 1),
            (COLOUR, COLOUR + 1, 1),
            (MY_RED_THREATS, THEIR_RED_THREATS, THREATS),
            (MY_CAPTURE_THREATS, THEIR_CAPTURE_THREATS, THREATS),
            (MY_MOBILITY, THEIR_MOBILITY, MOBILITY),
        ],
    )
}

fn view(position: &Position, me: Player, pushes: &[PushCounts; 2], inputs: &mut Inputs) {
    inputs.clear();
    let mine = position.marbles(Marble::of(me));
    let theirs = position.marbles(Marble::of(me.other()));
    for (plane, bits) in [
        (MINE, mine),
        (THEIRS, theirs),
        (REDS, position.marbles(Marble::Red)),
    ] {
        inputs.push_bits(plane, bits);
    }
    inputs.push(MY_COUNT + (mine.count_ones() as usize).min(8));
    inputs.push(THEIR_COUNT + (theirs.count_ones() as usize).min(8));
    inputs.push(MY_REDS_WON + usize::from(position.reds_won(me)).min(7));
    inputs.push(THEIR_REDS_WON + usize::from(position.reds_won(me.other())).min(7));
    if position.in_extra_move() {
        inputs.push(EXTRA_MOVE + usize::from(position.side_to_move() != me));
    }
    inputs.push(COLOUR + me.index());
    let (my, their) = (&pushes[me.index()], &pushes[me.other().index()]);
    let threats = |n: u32| (n as usize).min(THREATS - 1);
    inputs.push(MY_RED_THREATS + threats(my.win_red));
    inputs.push(THEIR_RED_THREATS + threats(their.win_red));
    inputs.push(MY_CAPTURE_THREATS + threats(my.capture));
    inputs.push(THEIR_CAPTURE_THREATS + threats(their.capture));
    let mobility = |n: u32| (n as usize / 2).min(MOBILITY - 1);
    inputs.push(MY_MOBILITY + mobility(my.all));
    inputs.push(THEIR_MOBILITY + mobility(their.all));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each player's view as [`view`] lists it.
    fn views(text: &str) -> [Vec<usize>; 2] {
        let position = Position::parse(text, Default::default()).expect("position");
        let pushes = position.push_counts();
        [Player::One, Player::Two].map(|me| {
            let mut inputs = Inputs::new();
            view(&position, me, &pushes, &mut inputs);
            inputs.iter().map(usize::from).collect()
        })
    }

    #[test]
    fn player_two_s_view_is_player_one_s_mirrored() {
        crate::nnue::check_mirror::<Position>(Position::start(Default::default()), |p| {
            let mut inputs = Inputs::new();
            view(p, Player::Two, &p.push_counts(), &mut inputs);
            inputs
        });
    }

    #[test]
    fn buckets_follow_the_marbles_left() {
        let bucket_of = |text: &str| bucket(&Position::parse(text, Default::default()).unwrap());
        assert_eq!(
            bucket_of(&Position::start(Default::default()).to_string()),
            0
        );
        // 3 marbles: 26 gone.
        assert_eq!(bucket_of("7/7/7/5WR/7/7/B6 w 0 0 - - 1"), BUCKETS - 1);
        // 21 marbles: 8 gone.
        assert_eq!(
            bucket_of("WW5/WW5/7/RRRRRRR/RRRRRR1/5BB/5BB w 0 0 - - 1"),
            2
        );
    }

    #[test]
    fn each_side_is_told_its_threats_and_the_other_side_s() {
        // White's f4 pushes the red on g4 off; Black's a1 threatens nothing.
        let [white, black] = views("7/7/7/5WR/7/7/B6 w 0 0 - - 1");
        assert!(white.contains(&(MY_RED_THREATS + 1)), "{white:?}");
        assert!(white.contains(&THEIR_RED_THREATS), "{white:?}");
        assert!(black.contains(&MY_RED_THREATS), "{black:?}");
        assert!(black.contains(&(THEIR_RED_THREATS + 1)), "{black:?}");
        // One input per count and view, inside its block.
        for view in [white, black] {
            let counts: Vec<usize> = view.into_iter().filter(|&i| i >= MY_RED_THREATS).collect();
            assert_eq!(counts.len(), 6, "{counts:?}");
            assert!(counts.iter().all(|&i| i < INPUTS));
        }
    }
}
