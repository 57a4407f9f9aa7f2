//! A deliberately naive Akiba move generator, the baseline the bitboard one is measured
//! against: a `[[u8; 7]; 7]` board, plain loops over squares and directions straight from
//! `shared/spec/akiba.md`, moves collected in a `Vec`, and copy-make with `clone`.
//!
//! Default rules only (extra move after a capture, push-back ban); no ko, no hashing.

/// Empty square and the three kinds of marble, as stored in the board array.
const EMPTY: u8 = 0;
const WHITE: u8 = 1;
const BLACK: u8 = 2;
const RED: u8 = 3;

/// Directions as (file step, rank step): N, S, E, W.
const DIRS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// A push: the own marble's square and an index into [`DIRS`]; or `pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NaiveMove {
    Push { file: i8, rank: i8, dir: usize },
    Pass,
}

#[derive(Clone, Debug)]
pub struct NaivePosition {
    /// `board[rank][file]`, rank 0 = rank 1, file 0 = file a.
    board: [[u8; 7]; 7],
    /// `WHITE` or `BLACK`.
    side: u8,
    /// Reds won by white, by black.
    reds: [u8; 2],
    extra: bool,
    banned: Option<NaiveMove>,
}

fn on_board(file: i8, rank: i8) -> bool {
    (0..7).contains(&file) && (0..7).contains(&rank)
}

fn square(text: &str) -> Option<(i8, i8)> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let file = bytes[0].wrapping_sub(b'a') as i8;
    let rank = bytes[1].wrapping_sub(b'1') as i8;
    on_board(file, rank).then_some((file, rank))
}

impl NaivePosition {
    /// Reads a position string (spec "Position string"); panics on anything malformed,
    /// since the bench only feeds it known-good positions.
    pub fn parse(text: &str) -> NaivePosition {
        let fields: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(fields.len(), 7, "position string {text:?}");
        let mut board = [[EMPTY; 7]; 7];
        let ranks: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(ranks.len(), 7, "board of {text:?}");
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 6 - i;
            let mut file = 0;
            for ch in rank_text.chars() {
                match ch {
                    'W' | 'B' | 'R' => {
                        board[rank][file] = match ch {
                            'W' => WHITE,
                            'B' => BLACK,
                            _ => RED,
                        };
                        file += 1;
                    }
                    '1'..='7' => file += ch as usize - '0' as usize,
                    _ => panic!("bad board character {ch:?} in {text:?}"),
                }
            }
            assert_eq!(file, 7, "rank {} of {text:?}", rank + 1);
        }
        let side = match fields[1] {
            "w" => WHITE,
            "b" => BLACK,
            other => panic!("bad side {other:?}"),
        };
        let reds = [fields[2].parse().unwrap(), fields[3].parse().unwrap()];
        let extra = fields[4] == "x";
        let banned = if fields[5] == "-" {
            None
        } else {
            let (from, to) = fields[5].split_at(2);
            let (file, rank) = square(from).expect("banned from-square");
            let (to_file, to_rank) = square(to).expect("banned to-square");
            let dir = DIRS
                .iter()
                .position(|&(df, dr)| file + df == to_file && rank + dr == to_rank)
                .expect("banned squares are neighbours");
            Some(NaiveMove::Push { file, rank, dir })
        };
        NaivePosition {
            board,
            side,
            reds,
            extra,
            banned,
        }
    }

    fn at(&self, file: i8, rank: i8) -> u8 {
        self.board[rank as usize][file as usize]
    }

    fn count(&self, kind: u8) -> usize {
        self.board
            .iter()
            .flatten()
            .filter(|&&marble| marble == kind)
            .count()
    }

    /// The game is over on material: 7 reds won or a side without marbles.
    fn decided(&self) -> bool {
        self.reds[0] >= 7 || self.reds[1] >= 7 || self.count(WHITE) == 0 || self.count(BLACK) == 0
    }

    /// The last square of the unbroken line from (file, rank) towards `dir`, and whether the
    /// line reaches the edge (so its front marble falls off).
    fn line_end(&self, file: i8, rank: i8, dir: usize) -> (i8, i8, bool) {
        let (df, dr) = DIRS[dir];
        let (mut f, mut r) = (file, rank);
        loop {
            let (nf, nr) = (f + df, r + dr);
            if !on_board(nf, nr) {
                return (f, r, true);
            }
            if self.at(nf, nr) == EMPTY {
                return (f, r, false);
            }
            f = nf;
            r = nr;
        }
    }

    /// Every legal move, pushes first, then `pass` in an extra move.
    pub fn legal_moves(&self) -> Vec<NaiveMove> {
        let mut moves = Vec::new();
        if self.decided() {
            return moves;
        }
        for rank in 0..7 {
            for file in 0..7 {
                if self.at(file, rank) != self.side {
                    continue;
                }
                for (dir, &(df, dr)) in DIRS.iter().enumerate() {
                    // Room behind: empty or off the board.
                    let (bf, br) = (file - df, rank - dr);
                    if on_board(bf, br) && self.at(bf, br) != EMPTY {
                        continue;
                    }
                    // Never push an own marble off.
                    let (ef, er, falls) = self.line_end(file, rank, dir);
                    if falls && self.at(ef, er) == self.side {
                        continue;
                    }
                    let mv = NaiveMove::Push { file, rank, dir };
                    if self.banned == Some(mv) {
                        continue;
                    }
                    moves.push(mv);
                }
            }
        }
        if self.extra {
            moves.push(NaiveMove::Pass);
        }
        moves
    }

    fn end_turn(&mut self, banned: Option<NaiveMove>) {
        self.side = if self.side == WHITE { BLACK } else { WHITE };
        self.extra = false;
        self.banned = banned;
    }

    /// Plays a move from [`NaivePosition::legal_moves`].
    pub fn play(&mut self, mv: NaiveMove) {
        let NaiveMove::Push { file, rank, dir } = mv else {
            self.end_turn(None);
            return;
        };
        let (df, dr) = DIRS[dir];
        let (ef, er, falls) = self.line_end(file, rank, dir);
        let front = self.at(ef, er);
        // Move the line one square, front marble first.
        let (mut f, mut r) = (ef, er);
        loop {
            let marble = self.at(f, r);
            self.board[r as usize][f as usize] = EMPTY;
            if on_board(f + df, r + dr) {
                self.board[(r + dr) as usize][(f + df) as usize] = marble;
            }
            if (f, r) == (file, rank) {
                break;
            }
            f -= df;
            r -= dr;
        }
        if falls {
            if front == RED {
                self.reds[(self.side - 1) as usize] += 1;
            }
            self.extra = true;
            self.banned = None;
        } else {
            let opponent = if self.side == WHITE { BLACK } else { WHITE };
            let banned = (front == opponent).then(|| NaiveMove::Push {
                file: ef + df,
                rank: er + dr,
                dir: dir ^ 1,
            });
            self.end_turn(banned);
        }
    }
}

/// Perft with the same conventions as `shove::perft::perft`: the last ply is counted from
/// the generated list without playing the moves.
pub fn perft(position: &NaivePosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = position.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|mv| {
            let mut child = position.clone();
            child.play(mv);
            perft(&child, depth - 1)
        })
        .sum()
}
