//! The Abraxas evaluation, a weighted sum of named terms ([`crate::linear`]): stones owned,
//! the capture under way, and the capture chains of the player who places next and of the
//! other player after them.
//!
//! A turn is a chain: a placement that leaves a red stone in a line after the slide takes
//! stones and places again, one corner further on, until a placement takes nothing or a stop
//! ends the turn. So what a position promises is decided by *who places next and at which
//! corner*, which the phase tells: in the middle of a turn (`a`, `d`, `c`) the next
//! placement may be the mover's replay or, when a blue stone ends the turn, the opponent's;
//! and the slide that comes first may be one no placement precedes. Every term is counted
//! for the player it belongs to and signed from the view of the player deciding now.

use super::board::{DIRS, back, for_each_line, fwd, run_holes};
use super::position::{FLAG_BLUE, Phase, Position, STONES};
use super::sheet::Corner;
use crate::game::Player;
use crate::linear::Terms;

/// Term indices into [`super::weights::WEIGHTS`].
pub mod term {
    /// Per stone owned (difference).
    pub const STONE: usize = 0;
    /// A lead in stones times the stones gone from the pool, / 4: a lead counts for more
    /// as the pool empties.
    pub const LEAD_AS_POOL_EMPTIES: usize = 1;
    /// Per blue stop stone left (difference).
    pub const STOP_STONE: usize = 2;
    /// Per stone the mover takes in the capture under way (phases `a`, `d`, `c`: lines that
    /// already hold stones at the corner the plate is in or slides to without a placement).
    pub const PENDING_CAPTURE: usize = 3;
    /// Per free hole (up to 4) where the next placer's placement completes a line at the
    /// corner their slide reaches.
    pub const PLACER_HOLES: usize = 4;
    /// The same for the other player, at the corner their turn slides to once the next
    /// placer's chain has ended.
    pub const OTHER_HOLES: usize = 5;
    /// The next placer can capture at 1, 2, 3 or all 4 corners in a row from their first
    /// slide on (one term each; 4 in a row is a chain only stop stones end).
    pub const PLACER_CHAIN: usize = 6;
    /// The other player's chain of 1, 2 or 3 corners, counted from the corner their turn
    /// starts at (never 4: the corner that ended the placer's chain ends theirs too).
    pub const OTHER_CHAIN: usize = 10;
    /// Number of terms.
    pub const COUNT: usize = 13;
}

const NAMES: [&str; term::COUNT] = [
    "stone",
    "lead_as_pool_empties",
    "stop_stone",
    "pending_capture",
    "placer_holes",
    "other_holes",
    "placer_chain_1",
    "placer_chain_2",
    "placer_chain_3",
    "placer_chain_4",
    "other_chain_1",
    "other_chain_2",
    "other_chain_3",
];

pub fn term_names() -> Vec<String> {
    NAMES.iter().map(|n| n.to_string()).collect()
}

/// Free holes where one more red hole completes a line (a run of 4 or more) among `red`.
pub fn completing_holes(red: u64, free: u64) -> u64 {
    DIRS.into_iter()
        .fold(0, |out, dir| out | completing_along(red, dir))
        & free
}

/// Holes where one more red hole completes a run of 4 along `dir` among `red` (free or
/// not).
#[inline]
fn completing_along(red: u64, dir: (u32, u64)) -> u64 {
    let l1 = fwd(red, dir);
    let l2 = l1 & fwd(l1, dir);
    let l3 = l1 & fwd(l2, dir);
    let r1 = back(red, dir);
    let r2 = r1 & back(r1, dir);
    let r3 = r1 & back(r2, dir);
    l3 | r3 | (l1 & r2) | (l2 & r1)
}

/// Whether a placer at `corner` captures whatever they place: a line there already holds
/// a stone, or a placement completes one (which [`capture_at`] and [`completing_holes`]
/// tell in full). The chains ask it of nearly every corner, so it answers at the first
/// direction that shows either, and never lists the lines.
fn captures_at(pos: &Position, corner: Corner, free: u64) -> bool {
    let red = pos.red_holes_at(corner);
    let stones = pos.red_stones();
    DIRS.into_iter()
        .any(|dir| run_holes(red, dir) & stones != 0 || completing_along(red, dir) & free != 0)
}

/// Stones a capture takes from the lines at `corner` as the stones lie now: each line with
/// stones gives `min(stones in it, length - 3)`, and no more stones than the lines hold (a
/// stone at a crossing pays for every line through it).
fn capture_at(pos: &Position, corner: Corner) -> i32 {
    let stones = pos.red_stones();
    let (mut shares, mut held) = (0, 0u64);
    for_each_line(pos.red_holes_at(corner), |line| {
        shares += (line & stones).count_ones().min(line.count_ones() - 3);
        held |= line & stones;
    });
    shares.min(held.count_ones()) as i32
}

/// A placer's prospects from `first` on, the stones staying as they are (each capture's
/// replay slides one corner further).
struct Chain {
    /// Holes whose placement completes a line at `first`.
    first_holes: u32,
    /// How many corners in a row they can capture at (0..=4).
    length: usize,
    /// The first corner they cannot capture at (where the chain ends).
    end: Corner,
}

fn chain(pos: &Position, first: Corner, free: u64) -> Chain {
    let first_holes = completing_holes(pos.red_holes_at(first), free).count_ones();
    let mut can = first_holes > 0 || captures_at(pos, first, free);
    let (mut length, mut end) = (0, first);
    while can && length < 4 {
        length += 1;
        end = end.next();
        can = captures_at(pos, end, free);
    }
    Chain {
        first_holes,
        length,
        end,
    }
}

/// Who places next and the corner their slide reaches, and the stones the mover takes
/// before that (the capture under way).
fn next_placement(pos: &Position) -> (Player, Corner, i32) {
    let mover = pos.mover();
    let next = pos.corner().next();
    match pos.phase() {
        Phase::Place | Phase::StopBefore => (mover, next, 0),
        // The placement is made; the slide comes with no placement before it, and a
        // capture there means a replay, one corner further on.
        Phase::StopAfter => {
            let taken = capture_at(pos, next);
            let placer = if taken > 0 { mover } else { mover.other() };
            (placer, next.next(), taken)
        }
        // After a stop: slide or stay, capture, and the turn ends (a blue stone was placed).
        Phase::Decide => {
            let (slide, stay) = (capture_at(pos, next), capture_at(pos, pos.corner()));
            if slide >= stay {
                (mover.other(), next.next(), slide)
            } else {
                (mover.other(), next, stay)
            }
        }
        Phase::Capture => {
            let taken = capture_at(pos, pos.corner());
            let placer = if pos.flags() & FLAG_BLUE != 0 {
                mover.other()
            } else {
                mover
            };
            (placer, next, taken)
        }
    }
}

/// Emits the features of `pos` from the view of the player deciding now.
#[inline]
pub fn features(pos: &Position, terms: &mut impl Terms) {
    let me = pos.side();
    let sign = |p: Player| if p == me { 1 } else { -1 };
    let lead = pos.stones_owned(me) as i32 - pos.stones_owned(me.other()) as i32;
    let gone = (STONES - pos.pool()) as i32;
    terms.add(term::STONE, lead);
    terms.add(term::LEAD_AS_POOL_EMPTIES, lead * gone / 4);
    terms.add(
        term::STOP_STONE,
        pos.blue_left(me) as i32 - pos.blue_left(me.other()) as i32,
    );
    let (placer, first, taken) = next_placement(pos);
    terms.add(term::PENDING_CAPTURE, sign(pos.mover()) * taken);
    let free = !(pos.red_stones() | pos.blue_stones());
    let placer_chain = chain(pos, first, free);
    terms.add(
        term::PLACER_HOLES,
        sign(placer) * placer_chain.first_holes.min(4) as i32,
    );
    if placer_chain.length > 0 {
        terms.add(term::PLACER_CHAIN + placer_chain.length - 1, sign(placer));
    }
    if placer_chain.length < 4 {
        // The placement that takes nothing still slides: the other player's turn starts
        // one corner further on.
        let other = placer.other();
        let other_chain = chain(pos, placer_chain.end.next(), free);
        terms.add(
            term::OTHER_HOLES,
            sign(other) * other_chain.first_holes.min(4) as i32,
        );
        if other_chain.length > 0 {
            terms.add(term::OTHER_CHAIN + other_chain.length - 1, sign(other));
        }
    }
}

/// Stones owned difference x100 from the view of the player deciding now.
pub fn material(pos: &Position) -> i32 {
    let me = pos.side();
    let other: Player = me.other();
    100 * (pos.stones_owned(me) as i32 - pos.stones_owned(other) as i32)
}

#[cfg(test)]
mod tests {
    use super::super::weights::WEIGHTS;
    use super::*;
    use crate::evaluation::Evaluation;
    use crate::linear::Sparse;

    fn features_of(text: &str) -> Vec<(u16, i32)> {
        let pos = Position::parse(text, Default::default()).expect("position");
        let mut sparse = Sparse::default();
        features(&pos, &mut sparse);
        let mut out = sparse.0;
        out.sort_unstable();
        out
    }

    fn value(features: &[(u16, i32)], term: usize) -> i32 {
        features
            .iter()
            .find(|&&(t, _)| usize::from(t) == term)
            .map_or(0, |&(_, v)| v)
    }

    #[test]
    fn the_capture_under_way_counts_for_the_mover() {
        // The rule book's example: 1 placed on d5 and the plate slid to se, where column d
        // and rank 5 are lines of 7 through the stone: 1 takes it and replays.
        let before = features_of("s1 8/8/8/3R4/8/8/8/8 se 1 c - 23 0 0 3 3 1");
        assert_eq!(value(&before, term::PENDING_CAPTURE), 1);
        // The same capture seen by 2 deciding whether to stop (phase `a` of a replay,
        // the stone placed, the slide to `se` still to come) counts against 2.
        let stop = features_of("s1 8/8/8/3R4/8/8/8/8 sw 2 a r 22 1 0 3 3 1");
        assert_eq!(value(&stop, term::PENDING_CAPTURE), -1);
    }

    #[test]
    fn chains_belong_to_whoever_places_next() {
        // The start: 1 places, and on sheet s1 the cross of dots makes a line through any
        // stone on it at every corner, so 1's chain goes round all four.
        let start = features_of(Position::START);
        assert_eq!(value(&start, term::PLACER_CHAIN + 3), 1);
        assert_eq!(value(&start, term::OTHER_CHAIN), 0);
        // After the capture of a turn that a blue stone ended, the opponent places next:
        // the same chain now counts against the player deciding (the capturer).
        let ended = features_of("s1 8/8/8/3R4/8/8/8/B7 se 1 c b 23 0 0 3 2 1");
        assert_eq!(value(&ended, term::PLACER_CHAIN + 3), -1);
        let replay = features_of("s1 8/8/8/3R4/8/8/8/8 se 1 c - 23 0 0 3 3 1");
        assert_eq!(value(&replay, term::PLACER_CHAIN + 3), 1);
    }

    /// [`captures_at`] agrees with the lines counted one by one: a capture comes at a
    /// corner exactly when a placement completes a line there or [`capture_at`] takes
    /// stones, at every corner of positions of random games on each sheet.
    #[test]
    fn captures_at_agrees_with_the_lines_counted_one_by_one() {
        use rand::prelude::*;
        let mut rng = StdRng::seed_from_u64(7);
        let (mut captures, mut checked) = (0, 0);
        for sheet in 1..=6 {
            let start = format!("s{sheet} 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1");
            for _ in 0..20 {
                let mut pos = Position::parse(&start, Default::default()).expect("position");
                let mut moves = crate::game::MoveList::new();
                while pos.outcome().is_none() {
                    let free = !(pos.red_stones() | pos.blue_stones());
                    for corner in Corner::ALL {
                        let holes = completing_holes(pos.red_holes_at(corner), free);
                        let can = holes != 0 || capture_at(&pos, corner) > 0;
                        assert_eq!(captures_at(&pos, corner, free), can, "{pos} at {corner:?}");
                        captures += usize::from(can);
                        checked += 1;
                    }
                    moves.clear();
                    pos.legal_moves(&mut moves);
                    let Some(&mv) = moves.choose(&mut rng) else {
                        break;
                    };
                    pos.play(mv);
                }
            }
        }
        // Both answers occur often enough for the comparison to mean something (most
        // corners of a random game's plate have a line holding a stone).
        assert!(
            captures > 1000 && checked - captures > 500,
            "{captures} of {checked}"
        );
    }

    #[test]
    fn evaluation_is_the_dot_product_of_features_and_weights() {
        let pos = Position::start(Default::default());
        let mut sparse = Sparse::default();
        features(&pos, &mut sparse);
        assert_eq!(sparse.dot(&WEIGHTS), pos.evaluate());
    }
}
