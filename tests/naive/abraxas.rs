//! A deliberately naive, independent Abraxas implementation written straight from
//! `docs/rules/engine/abraxas.md`: a plain `[[u8; 8]; 8]` plate, a `[[bool; 9]; 9]` sheet, simple
//! loops, moves as strings, nothing shared with `src/abraxas/`. The reference for
//! `tests/abraxas_naive.rs`.

// Only part of it is used by each test.
#![allow(dead_code)]

use shove::game::{Outcome, Player};
use std::fmt;

/// Corner names in counter-clockwise slide order, and each corner's sheet offset (ox, oy).
pub const CORNERS: [&str; 4] = ["sw", "se", "ne", "nw"];
pub const OFFSETS: [(usize, usize); 4] = [(0, 0), (1, 0), (1, 1), (0, 1)];

/// Line directions as (file step, rank step): row, column, both diagonals.
pub const LINE_DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// `sheet[y][x]`: whether sheet cell (x, y) has a red dot.
pub type Sheet = [[bool; 9]; 9];

/// The built-in sheet `s1`..`s6` (index 1..6).
pub fn builtin_sheet(index: usize) -> Sheet {
    let cells: Vec<(usize, usize)> = match index {
        1 => vec![
            (4, 1),
            (4, 2),
            (4, 3),
            (4, 5),
            (4, 6),
            (4, 7),
            (1, 4),
            (2, 4),
            (3, 4),
            (5, 4),
            (6, 4),
            (7, 4),
        ],
        2 => vec![
            (1, 1),
            (2, 2),
            (3, 3),
            (5, 5),
            (6, 6),
            (7, 7),
            (7, 1),
            (6, 2),
            (5, 3),
            (3, 5),
            (2, 6),
            (1, 7),
        ],
        3 => vec![
            (1, 1),
            (2, 1),
            (3, 1),
            (5, 1),
            (6, 1),
            (7, 1),
            (1, 7),
            (2, 7),
            (3, 7),
            (5, 7),
            (6, 7),
            (7, 7),
            (1, 2),
            (1, 3),
            (1, 5),
            (1, 6),
            (7, 2),
            (7, 3),
            (7, 5),
            (7, 6),
        ],
        4 => vec![
            (5, 2),
            (6, 3),
            (6, 5),
            (5, 6),
            (3, 6),
            (2, 5),
            (2, 3),
            (3, 2),
            (4, 4),
        ],
        5 => {
            let mut v = Vec::new();
            for x in 0..9 {
                for y in 0..9 {
                    if (x % 3 == 1 && y % 3 == 1) || (x % 3 == 2 && y % 3 == 2) {
                        v.push((x, y));
                    }
                }
            }
            v
        }
        6 => vec![
            (0, 0),
            (1, 2),
            (2, 5),
            (3, 7),
            (4, 1),
            (5, 4),
            (6, 6),
            (7, 0),
            (8, 3),
            (0, 6),
            (2, 1),
            (3, 4),
            (5, 8),
            (6, 2),
            (8, 7),
            (1, 8),
            (7, 5),
            (4, 6),
        ],
        _ => panic!("no sheet s{index}"),
    };
    let mut sheet = [[false; 9]; 9];
    for (x, y) in cells {
        sheet[y][x] = true;
    }
    sheet
}

pub fn hole_name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// Parses `e4` into (file, rank).
pub fn parse_hole(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase().wrapping_sub(b'a') as usize;
    let r = b[1].wrapping_sub(b'1') as usize;
    (f < 8 && r < 8).then_some((f, r))
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Naive {
    pub sheet: Sheet,
    /// `Some(i)` when the sheet was given as `s<i>`.
    pub sheet_name: Option<usize>,
    /// `plate[rank][file]`: `b'.'` empty, `b'R'` red, `b'B'` blue.
    pub plate: [[u8; 8]; 8],
    /// Index into [`CORNERS`].
    pub corner: usize,
    /// Who decides now: 1 or 2.
    pub side: u8,
    /// `b'p'`, `b's'`, `b'a'`, `b'd'` or `b'c'`.
    pub phase: u8,
    pub flag_r: bool,
    pub flag_b: bool,
    pub flag_n: bool,
    pub pool: u32,
    pub stones: [u32; 2],
    pub blue: [u32; 2],
    pub fullmove: u32,
    pub target: u32,
}

pub fn other(p: u8) -> u8 {
    3 - p
}

impl Naive {
    pub fn start(sheet: usize, target: u32, blue: u32) -> Naive {
        Naive::parse(
            &format!("s{sheet} 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 {blue} {blue} 1"),
            target,
        )
        .unwrap()
    }

    pub fn parse(text: &str, target: u32) -> Result<Naive, String> {
        let f: Vec<&str> = text.split_whitespace().collect();
        if f.len() != 12 {
            return Err(format!("expected 12 fields in '{text}'"));
        }
        let (sheet, sheet_name) = parse_sheet(f[0])?;
        let mut plate = [[b'.'; 8]; 8];
        let ranks: Vec<&str> = f[1].split('/').collect();
        if ranks.len() != 8 {
            return Err("plate needs 8 ranks".into());
        }
        for (i, row) in ranks.iter().enumerate() {
            let rank = 7 - i;
            let mut file = 0;
            for c in row.chars() {
                match c {
                    '1'..='8' => file += c as usize - '0' as usize,
                    'R' | 'B' => {
                        if file >= 8 {
                            return Err("rank too long".into());
                        }
                        plate[rank][file] = c as u8;
                        file += 1;
                    }
                    _ => return Err(format!("bad plate char {c}")),
                }
            }
            if file != 8 {
                return Err(format!("rank '{row}' is not 8 holes"));
            }
        }
        let corner = CORNERS
            .iter()
            .position(|&c| c == f[2])
            .ok_or("bad corner")?;
        let side = match f[3] {
            "1" => 1,
            "2" => 2,
            _ => return Err("bad side".into()),
        };
        let phase = match f[4] {
            "p" | "s" | "a" | "d" | "c" => f[4].as_bytes()[0],
            _ => return Err("bad phase".into()),
        };
        let (mut flag_r, mut flag_b, mut flag_n) = (false, false, false);
        if f[5] != "-" {
            for c in f[5].chars() {
                match c {
                    'r' => flag_r = true,
                    'b' => flag_b = true,
                    'n' => flag_n = true,
                    _ => return Err("bad flag".into()),
                }
            }
        }
        let num = |s: &str| s.parse::<u32>().map_err(|e| format!("bad number {s}: {e}"));
        Ok(Naive {
            sheet,
            sheet_name,
            plate,
            corner,
            side,
            phase,
            flag_r,
            flag_b,
            flag_n,
            pool: num(f[6])?,
            stones: [num(f[7])?, num(f[8])?],
            blue: [num(f[9])?, num(f[10])?],
            fullmove: num(f[11])?,
            target,
        })
    }

    /// The player whose turn it is (the opponent decides in phases `s` and `a`).
    pub fn mover(&self) -> u8 {
        if self.phase == b's' || self.phase == b'a' {
            other(self.side)
        } else {
            self.side
        }
    }

    pub fn side_player(&self) -> Player {
        if self.side == 1 {
            Player::One
        } else {
            Player::Two
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if self.stones[0] >= self.target {
            Some(Outcome::Win(Player::One))
        } else if self.stones[1] >= self.target {
            Some(Outcome::Win(Player::Two))
        } else if self.moves_ignoring_outcome().is_empty() {
            // Not in the spec (e.g. 12-12 with target 13: no red stone left anywhere and no
            // blue allowed): nobody can move, scored as a draw.
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn dot(&self, file: usize, rank: usize) -> bool {
        let (ox, oy) = OFFSETS[self.corner];
        self.sheet[rank + oy][file + ox]
    }

    fn red(&self, file: i32, rank: i32) -> bool {
        let (f, r) = (file as usize, rank as usize);
        match self.plate[r][f] {
            b'R' => true,
            b'.' => self.dot(f, r),
            _ => false,
        }
    }

    /// Every line (maximal run of >= 4 red holes) as its holes and its share to take.
    pub fn lines(&self) -> Vec<(Vec<(usize, usize)>, usize)> {
        let mut out = Vec::new();
        let inside = |f: i32, r: i32| (0..8).contains(&f) && (0..8).contains(&r);
        for &(df, dr) in &LINE_DIRS {
            for r in 0..8i32 {
                for f in 0..8i32 {
                    // A run starts here if this hole is red and the one before is not.
                    if !self.red(f, r) || (inside(f - df, r - dr) && self.red(f - df, r - dr)) {
                        continue;
                    }
                    let mut holes = Vec::new();
                    let (mut cf, mut cr) = (f, r);
                    while inside(cf, cr) && self.red(cf, cr) {
                        holes.push((cf as usize, cr as usize));
                        cf += df;
                        cr += dr;
                    }
                    if holes.len() >= 4 {
                        let stones = holes
                            .iter()
                            .filter(|&&(hf, hr)| self.plate[hr][hf] == b'R')
                            .count();
                        let share = stones.min(holes.len() - 3);
                        out.push((holes, share));
                    }
                }
            }
        }
        out
    }

    /// Whether no set of stones lets every line lose exactly its share (a case the spec
    /// does not decide).
    pub fn shares_contradict(&self) -> bool {
        let lines = self.lines();
        let mut cands: Vec<(usize, usize)> = Vec::new();
        for (holes, _) in &lines {
            for &(f, r) in holes {
                if self.plate[r][f] == b'R' && !cands.contains(&(f, r)) {
                    cands.push((f, r));
                }
            }
        }
        let mut out = Vec::new();
        let mut counts = vec![0usize; lines.len()];
        choose(&lines, &cands, 0, &mut Vec::new(), &mut counts, &mut out);
        !cands.is_empty() && out.is_empty()
    }

    /// Every valid set of stones to take, each sorted a1, b1, .., h8.
    pub fn capture_sets(&self) -> Vec<Vec<(usize, usize)>> {
        let lines = self.lines();
        let mut cands: Vec<(usize, usize)> = Vec::new();
        for (holes, _) in &lines {
            for &(f, r) in holes {
                if self.plate[r][f] == b'R' && !cands.contains(&(f, r)) {
                    cands.push((f, r));
                }
            }
        }
        cands.sort_by_key(|&(f, r)| r * 8 + f);
        let mut out = Vec::new();
        let mut chosen = Vec::new();
        let mut counts = vec![0usize; lines.len()];
        choose(&lines, &cands, 0, &mut chosen, &mut counts, &mut out);
        if out.is_empty() && !cands.is_empty() {
            // The spec's exact shares can contradict each other (two lines forced to lose a
            // stone each on a third line whose share is 1). Not in the spec; this naive side
            // then offers the smallest sets in which every line loses at least its
            // share (checked by brute force over the candidates).
            let n = cands.len();
            assert!(n <= 20, "too many candidates");
            let ok = |mask: u32| {
                lines.iter().all(|(holes, k)| {
                    (0..n)
                        .filter(|&i| mask >> i & 1 == 1 && holes.contains(&cands[i]))
                        .count()
                        >= *k
                })
            };
            let fits: Vec<u32> = (1u32..(1 << n)).filter(|&m| ok(m)).collect();
            let fewest = fits.iter().map(|m| m.count_ones()).min().unwrap_or(0);
            for mask in fits {
                if mask.count_ones() == fewest {
                    out.push(
                        (0..n)
                            .filter(|&i| mask >> i & 1 == 1)
                            .map(|i| cands[i])
                            .collect(),
                    );
                }
            }
        }
        out
    }

    fn free_holes(&self) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                if self.plate[r][f] == b'.' {
                    v.push((f, r));
                }
            }
        }
        v
    }

    pub fn legal_moves(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        self.moves_ignoring_outcome()
    }

    fn moves_ignoring_outcome(&self) -> Vec<String> {
        let mut out = Vec::new();
        let free = self.free_holes();
        match self.phase {
            b'p' => {
                if self.pool > 0 {
                    for &(f, r) in &free {
                        out.push(hole_name(f, r));
                    }
                } else {
                    for r in 0..8 {
                        for f in 0..8 {
                            if self.plate[r][f] == b'R' {
                                for &(tf, tr) in &free {
                                    out.push(format!("{}{}", hole_name(f, r), hole_name(tf, tr)));
                                }
                            }
                        }
                    }
                }
                let m = self.mover() as usize - 1;
                if self.blue[m] > 0 && !self.flag_b && !self.flag_n {
                    for &(f, r) in &free {
                        out.push(format!("!{}", hole_name(f, r)));
                    }
                }
            }
            b's' | b'a' => {
                out.push("pass".to_string());
                if self.blue[self.side as usize - 1] > 0 {
                    for &(f, r) in &free {
                        out.push(format!("!{}", hole_name(f, r)));
                    }
                }
            }
            b'd' => {
                out.push("slide".to_string());
                out.push("stay".to_string());
            }
            b'c' => {
                for set in self.capture_sets() {
                    let mut s = String::from("x");
                    for (f, r) in set {
                        s += &hole_name(f, r);
                    }
                    out.push(s);
                }
            }
            _ => unreachable!(),
        }
        out
    }

    /// Slides (or stays), then goes to the capture or ends the capture step.
    fn slide_and_capture(&mut self, mover: u8, slide: bool) {
        if slide {
            self.corner = (self.corner + 1) % 4;
        }
        self.side = mover;
        if self.lines().iter().any(|(_, share)| *share > 0) {
            self.phase = b'c';
        } else {
            self.after_capture(false);
        }
    }

    fn after_capture(&mut self, took: bool) {
        let mover = self.side;
        let opp = other(mover);
        if took && !self.flag_b {
            // A replay: rule 5 restricts only the first placement of a turn.
            self.flag_r = true;
            self.flag_n = false;
            if self.blue[opp as usize - 1] > 0 {
                self.phase = b's';
                self.side = opp;
            } else {
                self.phase = b'p';
                self.side = mover;
            }
        } else {
            self.flag_n = self.flag_b;
            self.flag_r = false;
            self.flag_b = false;
            self.phase = b'p';
            self.side = opp;
            if mover == 2 {
                self.fullmove += 1;
            }
        }
    }

    pub fn play(&mut self, mv: &str) {
        let mover = self.mover();
        let opp = other(mover);
        match self.phase {
            b'p' => {
                let stop_before = self.flag_b;
                let own_blue;
                if let Some(h) = mv.strip_prefix('!') {
                    let (f, r) = parse_hole(h).expect("hole");
                    assert_eq!(self.plate[r][f], b'.');
                    self.plate[r][f] = b'B';
                    self.blue[mover as usize - 1] -= 1;
                    self.flag_b = true;
                    own_blue = true;
                } else if mv.len() == 4 {
                    let (ff, fr) = parse_hole(&mv[..2]).expect("hole");
                    let (tf, tr) = parse_hole(&mv[2..]).expect("hole");
                    assert_eq!(self.plate[fr][ff], b'R');
                    assert_eq!(self.plate[tr][tf], b'.');
                    self.plate[fr][ff] = b'.';
                    self.plate[tr][tf] = b'R';
                    own_blue = false;
                } else {
                    let (f, r) = parse_hole(mv).expect("hole");
                    assert_eq!(self.plate[r][f], b'.');
                    self.plate[r][f] = b'R';
                    self.pool -= 1;
                    own_blue = false;
                }
                if own_blue {
                    self.slide_and_capture(mover, true);
                } else if stop_before {
                    self.phase = b'd';
                } else if self.flag_r && self.blue[opp as usize - 1] > 0 {
                    self.phase = b'a';
                    self.side = opp;
                } else {
                    self.slide_and_capture(mover, true);
                }
            }
            b's' | b'a' => {
                if mv != "pass" {
                    let (f, r) = parse_hole(mv.strip_prefix('!').expect("!")).expect("hole");
                    assert_eq!(self.plate[r][f], b'.');
                    self.plate[r][f] = b'B';
                    self.blue[self.side as usize - 1] -= 1;
                    self.flag_b = true;
                }
                let phase = self.phase;
                self.side = mover;
                match (phase, mv == "pass") {
                    (b's', _) => self.phase = b'p',
                    (_, true) => self.slide_and_capture(mover, true),
                    (_, false) => self.phase = b'd',
                }
            }
            b'd' => match mv {
                "slide" => self.slide_and_capture(mover, true),
                "stay" => self.slide_and_capture(mover, false),
                _ => panic!("bad move {mv} in phase d"),
            },
            b'c' => {
                let body = mv.strip_prefix('x').expect("x");
                assert!(!body.is_empty() && body.len().is_multiple_of(2));
                for i in (0..body.len()).step_by(2) {
                    let (f, r) = parse_hole(&body[i..i + 2]).expect("hole");
                    assert_eq!(self.plate[r][f], b'R');
                    self.plate[r][f] = b'.';
                    self.stones[mover as usize - 1] += 1;
                }
                self.after_capture(true);
            }
            _ => unreachable!(),
        }
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut c = self.clone();
                c.play(m);
                c.perft(depth - 1)
            })
            .sum()
    }
}

/// Backtracking over the candidate stones: each line must lose exactly its share.
fn choose(
    lines: &[(Vec<(usize, usize)>, usize)],
    cands: &[(usize, usize)],
    i: usize,
    chosen: &mut Vec<(usize, usize)>,
    counts: &mut Vec<usize>,
    out: &mut Vec<Vec<(usize, usize)>>,
) {
    if i == cands.len() {
        if lines.iter().zip(counts.iter()).all(|((_, k), c)| c == k) {
            out.push(chosen.clone());
        }
        return;
    }
    let h = cands[i];
    let on: Vec<usize> = (0..lines.len())
        .filter(|&l| lines[l].0.contains(&h))
        .collect();
    // Take it.
    if on.iter().all(|&l| counts[l] < lines[l].1) {
        for &l in &on {
            counts[l] += 1;
        }
        chosen.push(h);
        choose(lines, cands, i + 1, chosen, counts, out);
        chosen.pop();
        for &l in &on {
            counts[l] -= 1;
        }
    }
    // Leave it (pruned when a line can no longer reach its share).
    let feasible = on.iter().all(|&l| {
        let later = cands[i + 1..]
            .iter()
            .filter(|c| lines[l].0.contains(c))
            .count();
        counts[l] + later >= lines[l].1
    });
    if feasible {
        choose(lines, cands, i + 1, chosen, counts, out);
    }
}

fn parse_sheet(s: &str) -> Result<(Sheet, Option<usize>), String> {
    if let Some(d) = s.strip_prefix('s')
        && let Ok(i) = d.parse::<usize>()
        && (1..=6).contains(&i)
    {
        return Ok((builtin_sheet(i), Some(i)));
    }
    let rows: Vec<&str> = s.split('/').collect();
    if rows.len() != 9 {
        return Err(format!("bad sheet {s}"));
    }
    let mut sheet = [[false; 9]; 9];
    for (i, row) in rows.iter().enumerate() {
        let y = 8 - i;
        let mut x = 0;
        for c in row.chars() {
            match c {
                '1'..='9' => x += c as usize - '0' as usize,
                '*' => {
                    if x >= 9 {
                        return Err("sheet row too long".into());
                    }
                    sheet[y][x] = true;
                    x += 1;
                }
                _ => return Err(format!("bad sheet char {c}")),
            }
        }
        if x != 9 {
            return Err(format!("sheet row '{row}' is not 9 cells"));
        }
    }
    Ok((sheet, None))
}

pub fn sheet_map(sheet: &Sheet) -> String {
    let mut rows = Vec::new();
    for y in (0..9).rev() {
        let mut row = String::new();
        let mut run = 0;
        for &dot in &sheet[y] {
            if dot {
                if run > 0 {
                    row += &run.to_string();
                    run = 0;
                }
                row.push('*');
            } else {
                run += 1;
            }
        }
        if run > 0 {
            row += &run.to_string();
        }
        rows.push(row);
    }
    rows.join("/")
}

impl fmt::Display for Naive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sheet_name {
            Some(i) => write!(f, "s{i} ")?,
            None => write!(f, "{} ", sheet_map(&self.sheet))?,
        }
        let mut ranks = Vec::new();
        for r in (0..8).rev() {
            let mut row = String::new();
            let mut run = 0;
            for file in 0..8 {
                let c = self.plate[r][file];
                if c == b'.' {
                    run += 1;
                } else {
                    if run > 0 {
                        row += &run.to_string();
                        run = 0;
                    }
                    row.push(c as char);
                }
            }
            if run > 0 {
                row += &run.to_string();
            }
            ranks.push(row);
        }
        let mut flags = String::new();
        if self.flag_r {
            flags.push('r');
        }
        if self.flag_b {
            flags.push('b');
        }
        if self.flag_n {
            flags.push('n');
        }
        if flags.is_empty() {
            flags.push('-');
        }
        write!(
            f,
            "{} {} {} {} {} {} {} {} {} {} {}",
            ranks.join("/"),
            CORNERS[self.corner],
            self.side,
            self.phase as char,
            flags,
            self.pool,
            self.stones[0],
            self.stones[1],
            self.blue[0],
            self.blue[1],
            self.fullmove
        )
    }
}
