//! Abraxas' answers to the lessons' goals: holes, stones taken, the replay, lines, blocks
//! and the plate's corner.

use super::Position;
use crate::game::{MoveList, Player};
use crate::phrase::Phrase;
use crate::taught::{Goal, Taught, unexpected};

impl Taught for Position {
    const GOALS: &'static [&'static str] =
        &["win", "cell", "gain", "again", "line", "block", "corner"];
    const COLOURS: &'static [&'static str] = &[];

    fn content(&self, cell: &str) -> Option<&'static str> {
        let hole = (0..64u8).find(|&h| super::hole_name(h) == cell)?;
        let bit = 1u64 << hole;
        Some(if self.red_stones() & bit != 0 {
            "red"
        } else if self.blue_stones() & bit != 0 {
            "blue"
        } else {
            "empty"
        })
    }

    fn on_board(&self, _colour: &str) -> u32 {
        0
    }

    fn tally(&self, player: Player) -> u32 {
        u32::from(self.stones_owned(player))
    }

    fn gain_missed(n: u32, got: u32) -> Phrase {
        Phrase::new("this move takes {got} stones, not {n}")
            .with("got", got)
            .with("n", n)
    }

    fn is_corner(name: &str) -> bool {
        ["sw", "se", "ne", "nw"].contains(&name)
    }

    fn own_goal(goal: &Goal, before: &Self, after: &Self) -> Result<(), Phrase> {
        use super::{FLAG_REPLAY, Phase};
        match goal {
            Goal::Again => {
                let replay = after.flags() & FLAG_REPLAY != 0
                    && after.mover() == before.mover()
                    && matches!(after.phase(), Phase::Place | Phase::StopBefore)
                    && after.outcome().is_none();
                if replay {
                    Ok(())
                } else {
                    Err(Phrase::new("no replay: the turn passes to the opponent"))
                }
            }
            Goal::Line if after.phase() == Phase::Capture => Ok(()),
            Goal::Line => Err(Phrase::new("after the slide no line holds a red stone")),
            Goal::Block => {
                if can_complete_a_line(after) {
                    Err(Phrase::new("the mover can still complete a line"))
                } else {
                    Ok(())
                }
            }
            Goal::Corner(name) if after.corner().name() == name => Ok(()),
            Goal::Corner(name) => {
                Err(Phrase::new("the plate does not lie in corner {corner}").with("corner", name))
            }
            _ => Err(unexpected(goal)),
        }
    }
}

/// Whether the mover's next decision in `position` can bring a line with a red stone: a
/// placement that completes one after the slide, or (after a stop) sliding or staying.
fn can_complete_a_line(position: &super::Position) -> bool {
    use super::Phase;
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves.iter().any(|&mv| {
        let mut next = position.clone();
        next.play(mv);
        // A replay placement waits for the opponent's stop decision before it slides.
        if next.phase() == Phase::StopAfter {
            let mut pass = next.clone();
            pass.play(super::Move::Pass);
            return pass.phase() == Phase::Capture;
        }
        next.phase() == Phase::Capture || (next.phase() == Phase::Decide && decide_captures(&next))
    })
}

/// In phase `d`: whether sliding or staying brings a capture.
fn decide_captures(position: &super::Position) -> bool {
    [super::Move::Slide, super::Move::Stay]
        .into_iter()
        .any(|mv| {
            let mut next = position.clone();
            next.play(mv);
            next.phase() == super::Phase::Capture
        })
}
