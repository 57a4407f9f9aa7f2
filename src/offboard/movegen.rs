//! Legal move generation for Offboard: every own marble as the rear of a line in each of the
//! six directions, walked cell by cell (a line and the marbles it pushes span at most nine
//! cells), then the re-placements of a pending marble.

use super::board::{CELLS, Cell, Cells, Direction};
use super::moves::Move;
use super::position::Position;
use super::sectors::Exit;
use crate::game::{MoveList, Player};

/// What a legal line move does besides moving the line one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Push {
    /// Nothing ahead of the line: a plain move.
    None,
    /// The opposing marbles move on; the front one to this cell.
    To(Cell),
    /// The front opposing marble leaves the board, landing on this ring cell.
    Off(Exit),
}

/// A legal line move: the cell the line's front moves into, and what is pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LineMove {
    /// The first cell ahead of the line (empty, or the first opposing marble).
    pub(super) head: Cell,
    pub(super) push: Push,
}

const ALL_CELLS: u64 = (1 << CELLS) - 1;

impl Position {
    /// The move of `player`'s line with rear marble `from` towards `dir`, if legal
    /// (whoever is to move): `None` when an own marble would leave the board, when the
    /// opposing marbles ahead are not fewer than the line, or when an own marble follows them.
    #[inline]
    pub(super) fn line_move(&self, player: Player, from: Cell, dir: Direction) -> Option<LineMove> {
        let own = self.marbles[player.index()];
        let opp = self.marbles[1 - player.index()];
        let mut length = 1;
        let mut head = from.step(dir)?;
        while own & head.bit() != 0 {
            length += 1;
            head = head.step(dir)?;
        }
        if opp & head.bit() == 0 {
            return Some(LineMove {
                head,
                push: Push::None,
            });
        }
        let (mut pushed, mut last) = (1, head);
        loop {
            if pushed >= length {
                return None;
            }
            let Some(next) = last.step(dir) else {
                return last.exit(dir).map(|exit| LineMove {
                    head,
                    push: Push::Off(exit),
                });
            };
            if own & next.bit() != 0 {
                return None;
            }
            if opp & next.bit() == 0 {
                return Some(LineMove {
                    head,
                    push: Push::To(next),
                });
            }
            pushed += 1;
            last = next;
        }
    }

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
