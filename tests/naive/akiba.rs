//! A deliberately naive, independent Akiba implementation written straight from
//! `docs/rules/engine/akiba.md`: a plain `[[u8; 7]; 7]` board, simple loops, no bitboards, nothing
//! shared with `src/akiba/`. The reference for `tests/akiba_naive.rs` and the baseline that
//! `benches/akiba.rs` times the bitboard generator against.

// Shared by a test and a benchmark, which each use part of it.
#![allow(dead_code)]

use shove::game::{Outcome, Player};
use std::fmt;
use std::rc::Rc;

// ---------------------------------------------------------------------------------------
// The naive implementation
// ---------------------------------------------------------------------------------------

/// `board[rank][file]`, rank 0 = rank 1 (bottom), file 0 = file a (left).
/// `b'.'` empty, `b'W'`, `b'B'`, `b'R'` marbles.
pub type Board = [[u8; 7]; 7];

/// Directions as (file step, rank step): N, S, E, W.
pub const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NMove {
    /// The pushed own marble's square (file, rank) and the direction.
    Push {
        file: i32,
        rank: i32,
        df: i32,
        dr: i32,
    },
    Pass,
}

pub fn square_name(file: i32, rank: i32) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

impl fmt::Display for NMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NMove::Pass => write!(f, "pass"),
            NMove::Push { file, rank, df, dr } => write!(
                f,
                "{}{}",
                square_name(file, rank),
                square_name(file + df, rank + dr)
            ),
        }
    }
}

pub fn on_board(file: i32, rank: i32) -> bool {
    (0..7).contains(&file) && (0..7).contains(&rank)
}

pub fn get(board: &Board, file: i32, rank: i32) -> u8 {
    board[rank as usize][file as usize]
}

pub fn set(board: &mut Board, file: i32, rank: i32, c: u8) {
    board[rank as usize][file as usize] = c;
}

/// What a push does to a board, if the push is physically possible (rules 1-3).
pub struct PushResult {
    pub board: Board,
    /// The marble that fell off the board, if any.
    pub fell: Option<u8>,
    /// The colour of the front marble of the moved line.
    pub front: u8,
    /// Where the front marble ended up (when it did not fall).
    pub front_to: (i32, i32),
}

/// Applies push `(file, rank, df, dr)` for the player with colour `me` to `board`, or `None`
/// when it is not a legal push (not own marble, no room behind, own marble pushed off).
/// Ignores rule 5 / ko.
pub fn try_push(
    board: &Board,
    me: u8,
    file: i32,
    rank: i32,
    df: i32,
    dr: i32,
) -> Option<PushResult> {
    if !on_board(file, rank) || get(board, file, rank) != me {
        return None;
    }
    // 1. Room behind.
    let (bf, br) = (file - df, rank - dr);
    if on_board(bf, br) && get(board, bf, br) != b'.' {
        return None;
    }
    // 2. The line: this marble and every marble directly in front of it without a gap.
    //    Walk to its front marble.
    let (mut ff, mut fr) = (file, rank);
    while on_board(ff + df, fr + dr) && get(board, ff + df, fr + dr) != b'.' {
        ff += df;
        fr += dr;
    }
    let front = get(board, ff, fr);
    // 3. Falling off.
    let falls = !on_board(ff + df, fr + dr);
    if falls && front == me {
        return None;
    }
    let mut new = *board;
    // Move the line one square in the direction, front marble first, walking back to the
    // pushed marble; its square ends up empty.
    let (mut cf, mut cr) = (ff, fr);
    loop {
        let c = get(board, cf, cr);
        if on_board(cf + df, cr + dr) {
            set(&mut new, cf + df, cr + dr, c);
        }
        set(&mut new, cf, cr, b'.');
        if (cf, cr) == (file, rank) {
            break;
        }
        cf -= df;
        cr -= dr;
    }
    Some(PushResult {
        board: new,
        fell: if falls { Some(front) } else { None },
        front,
        front_to: (ff + df, fr + dr),
    })
}

pub fn other_colour(c: u8) -> u8 {
    if c == b'W' { b'B' } else { b'W' }
}

pub fn count(board: &Board, c: u8) -> usize {
    board.iter().flatten().filter(|&&x| x == c).count()
}

pub struct History {
    pub who: u8,
    pub before: Board,
    pub prev: Option<Rc<History>>,
}

#[derive(Clone)]
pub struct Naive {
    pub board: Board,
    /// `b'W'` or `b'B'`: the colour of the player to move.
    pub side: u8,
    /// Reds won: [white, black].
    pub reds: [u32; 2],
    pub extra: bool,
    /// Rule 5 ban (push-back mode only): the banned push of the side to move.
    pub banned: Option<NMove>,
    /// Ko mode only: every push so far, newest first, as (pusher colour, board before the
    /// push). A parsed banned field `m` becomes one synthetic entry (opponent, board after
    /// `m`). A shared list so that cloning a position is cheap.
    pub history: Option<Rc<History>>,
    pub fullmove: u32,
    pub extra_rule: bool,
    pub ko_rule: bool,
}

pub fn side_index(c: u8) -> usize {
    if c == b'W' { 0 } else { 1 }
}

impl Naive {
    pub fn parse(text: &str, extra_rule: bool, ko_rule: bool) -> Naive {
        let fields: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(fields.len(), 7, "naive parse: {text}");
        let mut board = [[b'.'; 7]; 7];
        let ranks: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(ranks.len(), 7, "naive parse: {text}");
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 6 - i;
            let mut file = 0usize;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else {
                    board[rank][file] = c.to_ascii_uppercase() as u8;
                    file += 1;
                }
            }
            assert_eq!(file, 7, "naive parse: {text}");
        }
        let side = if fields[1] == "w" { b'W' } else { b'B' };
        let mut n = Naive {
            board,
            side,
            reds: [fields[2].parse().unwrap(), fields[3].parse().unwrap()],
            extra: fields[4] == "x",
            banned: None,
            history: None,
            fullmove: fields[6].parse().unwrap(),
            extra_rule,
            ko_rule,
        };
        if fields[5] != "-" {
            let mv = parse_nmove(fields[5]);
            if ko_rule {
                // The ko board is the board that results from playing the banned push.
                let NMove::Push { file, rank, df, dr } = mv else {
                    panic!("naive parse: banned pass in {text}")
                };
                let r = try_push(&n.board, side, file, rank, df, dr)
                    .unwrap_or_else(|| panic!("naive parse: ko push {mv} not playable: {text}"));
                n.history = Some(Rc::new(History {
                    who: other_colour(side),
                    before: r.board,
                    prev: None,
                }));
            } else {
                n.banned = Some(mv);
            }
        }
        n
    }

    pub fn side_player(&self) -> Player {
        if self.side == b'W' {
            Player::One
        } else {
            Player::Two
        }
    }

    /// Pushes that rules 1-3 allow, ignoring rule 5 and ko.
    pub fn physical_pushes(&self) -> impl Iterator<Item = (NMove, PushResult)> + '_ {
        (0..7).flat_map(move |rank| {
            (0..7).flat_map(move |file| {
                DIRS.iter().filter_map(move |&(df, dr)| {
                    try_push(&self.board, self.side, file, rank, df, dr)
                        .map(|r| (NMove::Push { file, rank, df, dr }, r))
                })
            })
        })
    }

    /// Ko mode: the board as it stood before the opponent's last push, if known.
    pub fn ko_board(&self) -> Option<Board> {
        let opp = other_colour(self.side);
        let mut h = self.history.as_deref();
        while let Some(e) = h {
            if e.who == opp {
                return Some(e.before);
            }
            h = e.prev.as_deref();
        }
        None
    }

    /// Legal pushes (rule 5 / ko applied), without looking at the game's end.
    pub fn legal_pushes(&self) -> impl Iterator<Item = NMove> + '_ {
        let ko = if self.ko_rule { self.ko_board() } else { None };
        self.physical_pushes()
            .filter(move |(m, r)| {
                if self.ko_rule {
                    ko != Some(r.board)
                } else {
                    self.banned != Some(*m)
                }
            })
            .map(|(m, _)| m)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if self.reds[0] >= 7 {
            return Some(Outcome::Win(Player::One));
        }
        if self.reds[1] >= 7 {
            return Some(Outcome::Win(Player::Two));
        }
        if count(&self.board, b'W') == 0 {
            return Some(Outcome::Win(Player::Two));
        }
        if count(&self.board, b'B') == 0 {
            return Some(Outcome::Win(Player::One));
        }
        if !self.extra && self.legal_pushes().next().is_none() {
            return Some(Outcome::Win(self.side_player().other()));
        }
        None
    }

    pub fn legal_moves(&self) -> Vec<NMove> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let mut moves: Vec<NMove> = self.legal_pushes().collect();
        if self.extra {
            moves.push(NMove::Pass);
        }
        moves
    }

    pub fn end_turn(&mut self) {
        if self.side == b'B' {
            self.fullmove += 1;
        }
        self.side = other_colour(self.side);
        self.extra = false;
    }

    pub fn play(&mut self, mv: NMove) {
        match mv {
            NMove::Pass => {
                assert!(self.extra, "naive: pass outside an extra move");
                self.banned = None;
                self.end_turn();
            }
            NMove::Push { file, rank, df, dr } => {
                let r = try_push(&self.board, self.side, file, rank, df, dr)
                    .unwrap_or_else(|| panic!("naive: unplayable push {mv}"));
                if self.ko_rule {
                    self.history = Some(Rc::new(History {
                        who: self.side,
                        before: self.board,
                        prev: self.history.take(),
                    }));
                }
                self.board = r.board;
                self.banned = None;
                match r.fell {
                    Some(c) => {
                        if c == b'R' {
                            self.reds[side_index(self.side)] += 1;
                        }
                        if self.extra_rule {
                            self.extra = true;
                        } else {
                            self.end_turn();
                        }
                    }
                    None => {
                        let opp = other_colour(self.side);
                        if !self.ko_rule && r.front == opp {
                            let (tf, tr) = r.front_to;
                            self.banned = Some(NMove::Push {
                                file: tf,
                                rank: tr,
                                df: -df,
                                dr: -dr,
                            });
                        }
                        self.end_turn();
                    }
                }
            }
        }
    }

    /// The banned field as the position string shows it.
    pub fn banned_field(&self) -> String {
        if self.ko_rule {
            // The one push whose result equals the ko board, or `-`.
            let Some(ko) = self.ko_board() else {
                return "-".into();
            };
            let hits: Vec<NMove> = self
                .physical_pushes()
                .filter(|(_, r)| r.board == ko)
                .map(|(m, _)| m)
                .collect();
            assert!(hits.len() <= 1, "naive: two pushes recreate the ko board");
            hits.first().map_or("-".into(), |m| m.to_string())
        } else {
            self.banned.map_or("-".into(), |m| m.to_string())
        }
    }
}

impl fmt::Display for Naive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut board = String::with_capacity(64);
        for rank in (0..7).rev() {
            let mut empty = 0u8;
            for file in 0..7 {
                let c = self.board[rank][file];
                if c == b'.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        board.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    board.push(c as char);
                }
            }
            if empty > 0 {
                board.push((b'0' + empty) as char);
            }
            if rank > 0 {
                board.push('/');
            }
        }
        write!(
            f,
            "{} {} {} {} {} {} {}",
            board,
            if self.side == b'W' { "w" } else { "b" },
            self.reds[0],
            self.reds[1],
            if self.extra { "x" } else { "-" },
            self.banned_field(),
            self.fullmove
        )
    }
}

pub fn parse_nmove(text: &str) -> NMove {
    let t = text.to_ascii_lowercase();
    if t == "pass" {
        return NMove::Pass;
    }
    let b = t.as_bytes();
    assert_eq!(b.len(), 4, "naive: bad move {text}");
    let (f1, r1) = ((b[0] - b'a') as i32, (b[1] - b'1') as i32);
    let (f2, r2) = ((b[2] - b'a') as i32, (b[3] - b'1') as i32);
    NMove::Push {
        file: f1,
        rank: r1,
        df: f2 - f1,
        dr: r2 - r1,
    }
}

pub fn naive_perft(n: &Naive, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = n.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut c = n.clone();
            c.play(m);
            naive_perft(&c, depth - 1)
        })
        .sum()
}
