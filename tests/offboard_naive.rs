//! Cross-checks the crate's Offboard implementation against a deliberately naive,
//! independent one written straight from `docs/rules/engine/offboard.md`: a plain
//! `[[u8; 10]; 9]` board indexed by (row, number), loops that walk a line one cell at a
//! time, the sectors as the spec's coordinate list, nothing shared with `src/offboard/`.
//!
//! The naive side is the reference: slow, but each rule is a few obvious lines. Every check
//! names the position string and the move involved, so a failure can be replayed.

use shove::search_hints::SearchHints;
use std::fmt;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::game::{Game, MoveList, Outcome, Player};
use shove::offboard::{Move, Position, Rules};

const START: &str = "RR1YY/R1RY1Y/1RR1YY1/8/9/8/1RR1YY1/R1RY1Y/RR1YY r 0 0 ............ - 1";
const TABLE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/offboard.perft");

// ---------------------------------------------------------------------------------------
// The naive implementation
// ---------------------------------------------------------------------------------------

/// The spec's directions as (row step, number step): E, W, NE, NW, SW, SE.
const DIRS: [(i32, i32); 6] = [(0, 1), (0, -1), (1, 1), (1, 0), (-1, -1), (-1, 0)];

/// The spec's board test.
fn on_board(r: i32, c: i32) -> bool {
    (0..=8).contains(&r) && (1..=9).contains(&c) && (r - (c - 1)).abs() <= 4
}

fn cell_name(r: i32, c: i32) -> String {
    format!("{}{}", (b'a' + r as u8) as char, c)
}

/// The sector (0-based) an off-board cell belongs to, a corner rolled down by `values`.
fn sector_of(r: i32, c: i32, values: &[u8; 12]) -> usize {
    // On equal values the corner's marble goes to the sector before it counter-clockwise.
    let roll = |before: usize, after: usize| {
        if values[after] < values[before] {
            after
        } else {
            before
        }
    };
    match (r, c) {
        (-1, 1) | (-1, 2) => 0,
        (-1, 3) | (-1, 4) => 1,
        (0, 6) | (1, 7) => 2,
        (2, 8) | (3, 9) => 3,
        (5, 10) | (6, 10) => 4,
        (7, 10) | (8, 10) => 5,
        (9, 9) | (9, 8) => 6,
        (9, 7) | (9, 6) => 7,
        (8, 4) | (7, 3) => 8,
        (6, 2) | (5, 1) => 9,
        (3, 0) | (2, 0) => 10,
        (1, 0) | (0, 0) => 11,
        (-1, 0) => roll(11, 0),
        (-1, 5) => roll(1, 2),
        (4, 10) => roll(3, 4),
        (9, 10) => roll(5, 6),
        (9, 5) => roll(7, 8),
        (4, 0) => roll(9, 10),
        _ => panic!("({r},{c}) is not on the ring"),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum NMove {
    /// Rear marble at (r, c), direction index into `DIRS`.
    Step {
        r: i32,
        c: i32,
        d: usize,
    },
    Place {
        r: i32,
        c: i32,
    },
}

impl fmt::Display for NMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NMove::Step { r, c, d } => {
                let (dr, dc) = DIRS[d];
                write!(f, "{}{}", cell_name(r, c), cell_name(r + dr, c + dc))
            }
            NMove::Place { r, c } => write!(f, "@{}", cell_name(r, c)),
        }
    }
}

#[derive(Clone, Debug)]
struct Naive {
    /// `board[r][c]`: b'.', b'R' or b'Y' (column 0 unused).
    board: [[u8; 10]; 9],
    /// b'R' or b'Y'.
    side: u8,
    /// b'.', b'r' or b'y' per sector.
    sectors: [u8; 12],
    pending: bool,
    fullmove: u32,
    values: [u8; 12],
}

fn other(colour: u8) -> u8 {
    if colour == b'R' { b'Y' } else { b'R' }
}

impl Naive {
    /// Reads a position string, trusting it to be valid.
    fn parse(text: &str, values: [u8; 12]) -> Naive {
        let fields: Vec<&str> = text.split(' ').collect();
        let mut board = [[b'.'; 10]; 9];
        for (i, row) in fields[0].split('/').enumerate() {
            let r = 8 - i as i32;
            let mut c = (1..=9).find(|&c| on_board(r, c)).expect("rows have cells");
            for ch in row.chars() {
                match ch {
                    'R' | 'Y' => {
                        board[r as usize][c as usize] = ch as u8;
                        c += 1;
                    }
                    _ => c += ch.to_digit(10).expect("a digit") as i32,
                }
            }
        }
        let mut sectors = [b'.'; 12];
        sectors.copy_from_slice(fields[4].as_bytes());
        Naive {
            board,
            side: if fields[1] == "r" { b'R' } else { b'Y' },
            sectors,
            pending: fields[5] == "p",
            fullmove: fields[6].parse().expect("a number"),
            values,
        }
    }

    fn at(&self, r: i32, c: i32) -> u8 {
        self.board[r as usize][c as usize]
    }

    /// Points of a colour: the values of the sectors holding the other colour's marbles.
    fn points(&self, colour: u8) -> u32 {
        let theirs = other(colour).to_ascii_lowercase();
        (0..12)
            .filter(|&s| self.sectors[s] == theirs)
            .map(|s| u32::from(self.values[s]))
            .sum()
    }

    fn legal_moves(&self) -> Vec<NMove> {
        let mut moves = Vec::new();
        if self.points(b'R') >= 6 || self.points(b'Y') >= 6 {
            return moves;
        }
        let own = self.side;
        for r in 0..9 {
            for c in 1..10 {
                if !on_board(r, c) || self.at(r, c) != own {
                    continue;
                }
                for (d, &(dr, dc)) in DIRS.iter().enumerate() {
                    // The line: the rear marble and every own marble right ahead of it.
                    let (mut rr, mut cc, mut k) = (r, c, 0);
                    while on_board(rr, cc) && self.at(rr, cc) == own {
                        k += 1;
                        rr += dr;
                        cc += dc;
                    }
                    if !on_board(rr, cc) {
                        continue; // an own marble would go off
                    }
                    if self.at(rr, cc) != b'.' {
                        // Opposing marbles: count them.
                        let mut m = 0;
                        while on_board(rr, cc) && self.at(rr, cc) == other(own) {
                            m += 1;
                            rr += dr;
                            cc += dc;
                        }
                        if m >= k || (on_board(rr, cc) && self.at(rr, cc) == own) {
                            continue;
                        }
                    }
                    moves.push(NMove::Step { r, c, d });
                }
            }
        }
        if self.pending {
            for r in 0..9 {
                for c in 1..10 {
                    if on_board(r, c) && self.at(r, c) == b'.' {
                        moves.push(NMove::Place { r, c });
                    }
                }
            }
        }
        moves
    }

    fn play(&mut self, mv: NMove) {
        let mut returned = false;
        match mv {
            NMove::Place { r, c } => self.board[r as usize][c as usize] = self.side,
            NMove::Step { r, c, d } => {
                let (dr, dc) = DIRS[d];
                // Every marble from the rear up to the first empty cell or the edge moves.
                let mut line = Vec::new();
                let (mut rr, mut cc) = (r, c);
                while on_board(rr, cc) && self.at(rr, cc) != b'.' {
                    line.push((rr, cc, self.at(rr, cc)));
                    rr += dr;
                    cc += dc;
                }
                for &(lr, lc, _) in &line {
                    self.board[lr as usize][lc as usize] = b'.';
                }
                for &(lr, lc, marble) in &line {
                    let (nr, nc) = (lr + dr, lc + dc);
                    if on_board(nr, nc) {
                        self.board[nr as usize][nc as usize] = marble;
                    } else {
                        let s = sector_of(nr, nc, &self.values);
                        if self.sectors[s] == b'.' {
                            self.sectors[s] = marble.to_ascii_lowercase();
                        } else {
                            returned = true;
                        }
                    }
                }
            }
        }
        if self.side == b'Y' {
            self.fullmove += 1;
        }
        self.side = other(self.side);
        self.pending = returned;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.points(b'R') >= 6 {
            Some(Outcome::Win(Player::One))
        } else if self.points(b'Y') >= 6 {
            Some(Outcome::Win(Player::Two))
        } else if self.legal_moves().is_empty() {
            Some(Outcome::Win(if self.side == b'R' {
                Player::Two
            } else {
                Player::One
            }))
        } else {
            None
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal_moves()
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }
}

impl fmt::Display for Naive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rows = Vec::new();
        for r in (0..9).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for c in 1..10 {
                if !on_board(r, c) {
                    continue;
                }
                if self.at(r, c) == b'.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row.push(self.at(r, c) as char);
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        write!(
            f,
            "{} {} {} {} {} {} {}",
            rows.join("/"),
            if self.side == b'R' { "r" } else { "y" },
            self.points(b'R'),
            self.points(b'Y'),
            String::from_utf8_lossy(&self.sectors),
            if self.pending { "p" } else { "-" },
            self.fullmove
        )
    }
}

// ---------------------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------------------

fn fast_moves(position: &Position) -> Vec<Move> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves.to_vec()
}

/// A move as plain numbers, for comparing without text: whether it re-places, the cell's
/// row and number, and the step.
type Key = (bool, i32, i32, i32, i32);

fn naive_key(mv: NMove) -> Key {
    match mv {
        NMove::Step { r, c, d } => (false, r, c, DIRS[d].0, DIRS[d].1),
        NMove::Place { r, c } => (true, r, c, 0, 0),
    }
}

fn fast_key(mv: Move) -> Key {
    let cell = mv.cell();
    let (dr, dc) = mv.direction().map_or((0, 0), |d| d.delta());
    (
        mv.is_place(),
        i32::from(cell.row()),
        i32::from(cell.number()),
        i32::from(dr),
        i32::from(dc),
    )
}

/// Checks that both implementations agree on a position: its string, its outcome, and its
/// legal moves. With `children`, also on every move's text and the string after it.
/// Returns the moves of both, paired.
#[track_caller]
fn compare(fast: &Position, naive: &Naive, children: bool) -> Vec<(Move, NMove)> {
    let text = fast.to_string();
    assert_eq!(text, naive.to_string(), "position strings differ");
    assert_eq!(fast.hash(), fast.compute_hash(), "hash of {text}");
    let mut moves: Vec<(Key, Move)> = fast_moves(fast)
        .into_iter()
        .map(|mv| (fast_key(mv), mv))
        .collect();
    let mut naive_moves: Vec<(Key, NMove)> = naive
        .legal_moves()
        .into_iter()
        .map(|mv| (naive_key(mv), mv))
        .collect();
    moves.sort_by_key(|e| e.0);
    naive_moves.sort_by_key(|e| e.0);
    assert_eq!(
        moves.iter().map(|e| e.0).collect::<Vec<Key>>(),
        naive_moves.iter().map(|e| e.0).collect::<Vec<Key>>(),
        "legal moves of {text}: fast {:?}, naive {:?}",
        moves.iter().map(|e| e.1.to_string()).collect::<Vec<_>>(),
        naive_moves
            .iter()
            .map(|e| e.1.to_string())
            .collect::<Vec<_>>()
    );
    assert!(
        moves.windows(2).all(|w| w[0].0 != w[1].0),
        "duplicate moves in {text}"
    );
    assert_eq!(fast.count_legal_moves(), moves.len(), "count of {text}");
    let naive_outcome = if naive_moves.is_empty() {
        naive.outcome()
    } else {
        None
    };
    assert_eq!(fast.outcome(), naive_outcome, "outcome of {text}");
    let pairs: Vec<(Move, NMove)> = moves
        .into_iter()
        .zip(naive_moves)
        .map(|((_, mv), (_, nmv))| (mv, nmv))
        .collect();
    if children {
        for &(mv, nmv) in &pairs {
            assert_eq!(mv.to_string(), nmv.to_string(), "move text in {text}");
            assert_eq!(fast.parse_move(&nmv.to_string()), Ok(mv), "in {text}");
            let mut fast_child = fast.clone();
            fast_child.play(mv);
            let mut naive_child = naive.clone();
            naive_child.play(nmv);
            assert_eq!(
                fast_child.to_string(),
                naive_child.to_string(),
                "after {mv} in {text}"
            );
            assert_eq!(
                fast_child.hash(),
                fast_child.compute_hash(),
                "after {mv} in {text}"
            );
        }
    }
    pairs
}

/// Random sector values 1..3 for sectors 1..12.
fn random_values(rng: &mut StdRng) -> [u8; 12] {
    std::array::from_fn(|_| rng.random_range(1..=3u8))
}

/// Plays `games` seeded random games from the start in both implementations and compares
/// every position, and the result of every legal move on every `children_every`-th ply.
/// Two games in three prefer pushing marbles off (one mildly, one strongly), so sectors
/// fill, marbles come back and games finish. Returns the finished games and the positions
/// with a pending marble.
fn random_games(
    seed: u64,
    games: usize,
    max_plies: usize,
    children_every: usize,
    values: impl Fn(&mut StdRng, usize) -> [u8; 12],
) -> (usize, usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut finished, mut returned) = (0, 0);
    for game in 0..games {
        let values = values(&mut rng, game);
        let rules = Rules::new(values).expect("values 1..3");
        let mut fast = Position::start(rules);
        let mut naive = Naive::parse(START, values);
        // Out of 8: how often a push off is chosen when there is one.
        let push_off_bias = [0, 4, 7][game % 3];
        for ply in 0..max_plies {
            let pairs = compare(&fast, &naive, ply % children_every == 0);
            returned += usize::from(fast.pending());
            if pairs.is_empty() {
                finished += 1;
                break;
            }
            let push_offs: Vec<usize> = (0..pairs.len())
                .filter(|&i| fast.is_tactical(pairs[i].0))
                .collect();
            let i = if !push_offs.is_empty() && rng.random_range(0..8) < push_off_bias {
                push_offs[rng.random_range(0..push_offs.len())]
            } else {
                rng.random_range(0..pairs.len())
            };
            fast.play(pairs[i].0);
            naive.play(pairs[i].1);
        }
    }
    (finished, returned)
}

fn scaled(release: usize, debug: usize) -> usize {
    if cfg!(debug_assertions) {
        debug
    } else {
        release
    }
}

#[test]
fn agrees_with_naive_along_random_games_default_values() {
    let games = 1200;
    let (finished, returned) = random_games(1, games, 160, scaled(8, 30), |_, _| {
        Rules::default().sectors
    });
    assert!(
        finished > games / 4,
        "only {finished} of {games} games finished"
    );
    assert!(
        returned > 100,
        "only {returned} positions with a pending marble"
    );
}

#[test]
fn agrees_with_naive_along_random_games_other_values() {
    // Random values, and the all-equal ones where every corner takes the tie rule.
    let games = 1000;
    let (finished, returned) =
        random_games(2, games, 160, scaled(8, 30), |rng, game| match game % 4 {
            0 => [3; 12],
            1 => [1; 12],
            _ => random_values(rng),
        });
    assert!(
        finished > games / 4,
        "only {finished} of {games} games finished"
    );
    assert!(
        returned > 100,
        "only {returned} positions with a pending marble"
    );
}

/// One line of the perft table: position string, sector values, perft(1..).
fn table() -> Vec<(String, [u8; 12], Vec<u64>)> {
    let text = std::fs::read_to_string(TABLE_PATH).expect("the perft table exists");
    let mut entries = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let mut values = Rules::default().sectors;
        let mut counts = Vec::new();
        for field in &fields[1..] {
            if let Some(list) = field.strip_prefix("sectors=") {
                for (s, v) in list.split(',').enumerate() {
                    values[s] = v.parse().expect("a value");
                }
            } else {
                let (_, n) = field.split_once(' ').expect("Dd <n>");
                counts.push(n.parse().expect("a count"));
            }
        }
        entries.push((fields[0].to_string(), values, counts));
    }
    entries
}

/// Recounts the table's perft with the naive generator to `max_depth`.
fn check_table(max_depth: usize) {
    let entries = table();
    assert!(entries.len() >= 11);
    for (text, values, counts) in entries {
        let naive = Naive::parse(&text, values);
        assert_eq!(
            naive.to_string(),
            text,
            "naive reads and prints the table line"
        );
        let fast = Position::parse(&text, Rules::new(values).expect("valid")).expect("valid");
        compare(&fast, &naive, true);
        for d in 1..=max_depth.min(counts.len()) {
            assert_eq!(
                naive.perft(d as u32),
                counts[d - 1],
                "naive perft({d}) of {text}"
            );
        }
    }
}

#[test]
fn naive_perft_matches_the_table() {
    check_table(scaled(3, 2));
}

#[test]
#[ignore = "slow: the naive generator recounts every depth of the table (--release)"]
fn naive_perft_matches_the_table_all_depths() {
    check_table(usize::MAX);
}
