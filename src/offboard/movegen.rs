//! Legal move generation for Offboard: every own marble as the rear of a line in each of the
//! six directions ([`Position::line_move`]), then the re-placements of a pending marble.

use super::board::{CELLS, Cells, Direction};
use super::moves::Move;
use super::position::{LineMove, Position, Push};
use crate::game::MoveList;

const ALL_CELLS: u64 = (1 << CELLS) - 1;

impl Position {
    /// Appends every legal move: line moves by rear cell and direction, then re-placements.
    /// At most 12 marbles x 6 directions, or with a marble pending at most 11 x 6 plus the
    /// 61 cells: always within [`crate::game::MAX_MOVES`].
    pub fn legal_moves(&self, moves: &mut MoveList<Move>) {
        if self.is_decided() {
            return;
        }
        for from in Cells(self.marbles[self.side.index()]) {
            for dir in Direction::ALL {
                if self.line_move(self.side, from, dir).is_some() {
                    moves.push(Move::step_unchecked(from, dir));
                }
            }
        }
        if self.pending {
            for cell in Cells(ALL_CELLS & !self.occupied()) {
                moves.push(Move::place(cell));
            }
        }
    }

    /// The number of legal moves, counted without listing them (perft's last ply).
    pub fn count_moves(&self) -> usize {
        if self.is_decided() {
            return 0;
        }
        let mut count = 0;
        for from in Cells(self.marbles[self.side.index()]) {
            for dir in Direction::ALL {
                count += usize::from(self.line_move(self.side, from, dir).is_some());
            }
        }
        if self.pending {
            count += (ALL_CELLS & !self.occupied()).count_ones() as usize;
        }
        count
    }

    /// Whether a move pushes an opposing marble off the board.
    pub fn is_push_off(&self, mv: Move) -> bool {
        mv.direction().is_some_and(|dir| {
            matches!(
                self.line_move(self.side, mv.cell(), dir),
                Some(LineMove {
                    push: Push::Off(_),
                    ..
                })
            )
        })
    }
}
