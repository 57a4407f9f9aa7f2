//! Cross-checks the crate's Akiba implementation against the deliberately naive, independent
//! one in `naive/akiba.rs`.
//!
//! The naive side is the reference: it is slow but each rule is a few obvious lines. Every
//! check prints the position string and the move involved, so a failure can be replayed.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

#[path = "naive/akiba.rs"]
mod naive;
use naive::*;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::akiba::{Move, Position, RepeatRule, Rules};
use shove::game::{Game, MoveList, Player};

const START: &str = "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1";

// ---------------------------------------------------------------------------------------
// The cross-checks
// ---------------------------------------------------------------------------------------

fn crate_perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    p.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut c = p.clone();
            c.play(m);
            crate_perft(&c, depth - 1)
        })
        .sum()
}

fn rules_of(extra_move: bool, ko: bool) -> Rules {
    Rules {
        extra_move,
        repeat: if ko {
            RepeatRule::Ko
        } else {
            RepeatRule::PushBack
        },
    }
}

#[derive(Default)]
struct Stats {
    games: usize,
    plies: usize,
    children: usize,
    decisive: usize,
    by_reds: usize,
    by_wipeout: usize,
    by_no_move: usize,
    passes: usize,
    bans_seen: usize,
    /// Hash differences between a position and its own parse round trip: counted and
    /// reported at the end, so that the other checks still run over all games.
    hash_roundtrip_mismatches: usize,
    first_hash_roundtrip: Option<String>,
    /// Equal position strings (reached by different games) with different hashes.
    hash_transposition_mismatches: usize,
    first_hash_transposition: Option<String>,
}

/// Compares everything observable about one position: string, side, outcome, move set,
/// move count, the result of every move, and a parse round trip. Returns the crate's moves.
fn compare(
    p: &Position,
    n: &Naive,
    rules: Rules,
    stats: &mut Stats,
    ctx: &dyn fmt::Display,
    all_children: bool,
) -> Vec<Move> {
    let ps = p.to_string();
    let ns = n.to_string();
    assert_eq!(
        ps, ns,
        "{ctx}: position strings differ (crate left, naive right)"
    );
    assert_eq!(
        p.to_move(),
        n.side_player(),
        "{ctx}: to_move differs in {ps}"
    );
    assert_eq!(p.outcome(), n.outcome(), "{ctx}: outcome differs in {ps}");
    if ns.split(' ').nth(5) != Some("-") {
        stats.bans_seen += 1;
    }

    // The evaluation's push counts, for both players whoever is to move.
    let counts = p.push_counts();
    for (player, colour) in [(0, b'W'), (1, b'B')] {
        let mut turned = n.clone();
        turned.side = colour;
        let pushes: Vec<PushResult> = turned.physical_pushes().map(|(_, r)| r).collect();
        let fell = |marble: u8| pushes.iter().filter(|r| r.fell == Some(marble)).count() as u32;
        let opponent = if colour == b'W' { b'B' } else { b'W' };
        let naive = (pushes.len() as u32, fell(b'R'), fell(opponent));
        let ours = &counts[player];
        assert_eq!(
            (ours.all, ours.win_red, ours.capture),
            naive,
            "{ctx}: push counts (all, red off, capture) of {} differ in {ps}",
            colour as char
        );
    }

    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let crate_moves: Vec<Move> = list.to_vec();
    let crate_set: BTreeSet<String> = crate_moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(
        crate_set.len(),
        crate_moves.len(),
        "{ctx}: duplicate moves from the crate in {ps}: {crate_moves:?}"
    );
    let naive_moves = n.legal_moves();
    let naive_set: BTreeSet<String> = naive_moves.iter().map(|m| m.to_string()).collect();
    if crate_set != naive_set {
        let only_crate: Vec<&String> = crate_set.difference(&naive_set).collect();
        let only_naive: Vec<&String> = naive_set.difference(&crate_set).collect();
        panic!(
            "{ctx}: legal moves differ in {ps}\n  only crate: {only_crate:?}\n  only naive: {only_naive:?}"
        );
    }
    assert_eq!(
        p.count_legal_moves(),
        crate_moves.len(),
        "{ctx}: count_legal_moves differs from the list length in {ps}"
    );

    // Every move's notation, and (when asked) every move's result. The move actually played
    // is always compared, as the next position of the game.
    for &m in &crate_moves {
        let ms = m.to_string();
        let parsed: Move = ms
            .parse()
            .unwrap_or_else(|e| panic!("{ctx}: crate cannot parse its own move {ms}: {e}"));
        assert_eq!(parsed, m, "{ctx}: move {ms} does not round-trip in {ps}");
        let upper: Move = ms
            .to_ascii_uppercase()
            .parse()
            .unwrap_or_else(|e| panic!("{ctx}: crate cannot parse {} : {e}", ms.to_uppercase()));
        assert_eq!(upper, m, "{ctx}: upper-case {ms} parses differently");
        if !all_children {
            continue;
        }
        let mut pc = p.clone();
        pc.play(m);
        let mut nc = n.clone();
        nc.play(parse_nmove(&ms));
        assert_eq!(
            pc.to_string(),
            nc.to_string(),
            "{ctx}: result of {ms} in {ps} differs (crate left, naive right)"
        );
        stats.children += 1;
    }

    // Parse round trip: the string carries all the state (incl. the ban / ko board).
    let rp = Position::parse(&ps, rules)
        .unwrap_or_else(|e| panic!("{ctx}: crate cannot parse its own string {ps}: {e}"));
    assert_eq!(rp.to_string(), ps, "{ctx}: parse round trip changes {ps}");
    if rp.hash() != p.hash() {
        stats.hash_roundtrip_mismatches += 1;
        stats.first_hash_roundtrip.get_or_insert_with(|| {
            format!(
                "{ctx}: hash {:#x} of {ps} becomes {:#x} after parsing the same string",
                p.hash(),
                rp.hash()
            )
        });
    }
    let mut rlist = MoveList::new();
    rp.legal_moves(&mut rlist);
    let rset: BTreeSet<String> = rlist.iter().map(|m| m.to_string()).collect();
    assert_eq!(rset, crate_set, "{ctx}: parsed {ps} has other legal moves");
    assert_eq!(
        rp.outcome(),
        p.outcome(),
        "{ctx}: parsed {ps} has another outcome"
    );

    crate_moves
}

/// Where a check happened; formatted only when a check fails.
struct Ctx<'a> {
    rules: Rules,
    seed: u64,
    ply: usize,
    start: &'a str,
    line: &'a [String],
}

impl fmt::Display for Ctx<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rules {:?}, seed {}, ply {}, from {}, moves [{}]",
            self.rules,
            self.seed,
            self.ply,
            self.start,
            self.line.join(" ")
        )
    }
}

/// Plays one random game from `start` under `rules`, comparing at every ply.
fn random_game(
    start: &str,
    rules: Rules,
    seed: u64,
    max_plies: usize,
    stats: &mut Stats,
    hashes: &mut HashMap<String, u64>,
) {
    let extra_rule = rules.extra_move;
    let ko_rule = matches!(rules.repeat, RepeatRule::Ko);
    let mut p = Position::parse(start, rules)
        .unwrap_or_else(|e| panic!("crate rejects start {start} under {rules:?}: {e}"));
    let mut n = Naive::parse(start, extra_rule, ko_rule);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut line: Vec<String> = Vec::new();
    stats.games += 1;
    for ply in 0..=max_plies {
        let ctx = Ctx {
            rules,
            seed,
            ply,
            start,
            line: &line,
        };
        // The results of all moves, not just the one played, on every other ply: halves
        // the running time and still covers every game and every stage of it.
        let all_children = (ply as u64 + seed).is_multiple_of(2);
        let moves = compare(&p, &n, rules, stats, &ctx, all_children);

        // Equal strings must give equal hashes (the string carries the whole state).
        // (Positions are remembered up to a memory cap, looked up always.)
        {
            let s = p.to_string();
            let h = p.hash();
            if let Some(&old) = hashes.get(&s) {
                if old != h {
                    stats.hash_transposition_mismatches += 1;
                    stats.first_hash_transposition.get_or_insert_with(|| {
                        format!("{ctx}: {s} has hash {h:#x} here but {old:#x} in an earlier game")
                    });
                }
            } else if hashes.len() < 300_000 {
                hashes.insert(s, h);
            }
        }

        if n.outcome().is_some() {
            stats.decisive += 1;
            let w = count(&n.board, b'W');
            let b = count(&n.board, b'B');
            if n.reds.iter().any(|&r| r >= 7) {
                stats.by_reds += 1;
            } else if w == 0 || b == 0 {
                stats.by_wipeout += 1;
            } else {
                stats.by_no_move += 1;
            }
            return;
        }
        if ply == max_plies {
            return;
        }
        let m = moves[rng.random_range(0..moves.len())];
        let ms = m.to_string();
        if ms == "pass" {
            stats.passes += 1;
        }
        p.play(m);
        n.play(parse_nmove(&ms));
        line.push(ms);
        stats.plies += 1;
    }
}

/// A random-ish legal position string: random marble counts placed on random squares,
/// random reds won, side, extra flag and (sometimes) a banned push.
fn random_start(rng: &mut StdRng, extra_rule: bool) -> String {
    loop {
        let whites = rng.random_range(1..=8usize);
        let blacks = rng.random_range(1..=8usize);
        let wr = rng.random_range(0..=6u32);
        let br = rng.random_range(0..=6u32);
        let max_red = 13 - (wr + br) as usize;
        let reds = rng.random_range(0..=max_red);
        let mut squares: Vec<(usize, usize)> =
            (0..7).flat_map(|r| (0..7).map(move |f| (r, f))).collect();
        let mut board = [[b'.'; 7]; 7];
        for (colour, k) in [(b'W', whites), (b'B', blacks), (b'R', reds)] {
            for _ in 0..k {
                let i = rng.random_range(0..squares.len());
                let (r, f) = squares.swap_remove(i);
                board[r][f] = colour;
            }
        }
        let side = if rng.random_bool(0.5) { b'W' } else { b'B' };
        let extra = extra_rule && rng.random_bool(0.2);
        let n = Naive {
            board,
            side,
            reds: [wr, br],
            extra,
            banned: None,
            history: None,
            fullmove: rng.random_range(1..60),
            extra_rule,
            ko_rule: false,
        };
        let mut s = n.to_string();
        if !extra && rng.random_bool(0.4) {
            // A banned push: one of the side to move's playable pushes.
            let pushes: Vec<(NMove, PushResult)> = n.physical_pushes().collect();
            if pushes.is_empty() {
                continue;
            }
            let m = pushes[rng.random_range(0..pushes.len())].0.to_string();
            let mut fields: Vec<String> = s.split(' ').map(String::from).collect();
            fields[5] = m;
            s = fields.join(" ");
        }
        return s;
    }
}

fn run_rules(extra_move: bool, ko: bool, seed_base: u64) {
    let rules = rules_of(extra_move, ko);
    let t0 = std::time::Instant::now();
    // Debug builds are ~20x slower: keep the full count in release only.
    let (from_start, from_random) = if cfg!(debug_assertions) {
        (200, 60)
    } else {
        (2000, 500)
    };
    let mut stats = Stats::default();
    let mut hashes = HashMap::new();
    for g in 0..from_start {
        random_game(START, rules, seed_base + g, 300, &mut stats, &mut hashes);
    }
    let mut rng = StdRng::seed_from_u64(seed_base ^ 0xA5A5);
    for g in 0..from_random {
        let start = random_start(&mut rng, extra_move);
        random_game(
            &start,
            rules,
            seed_base + 1_000_000 + g,
            300,
            &mut stats,
            &mut hashes,
        );
    }
    println!(
        "{rules:?}: {} games ({from_start} from start, {from_random} from random positions), \
         {} plies played, {} move results compared, {} finished (reds {}, wipe-out {}, no move {}), \
         {} passes, {} positions with a banned move, {:.1?}; hash mismatches: {} on parse \
         round trip, {} between equal strings",
        stats.games,
        stats.plies,
        stats.children,
        stats.decisive,
        stats.by_reds,
        stats.by_wipeout,
        stats.by_no_move,
        stats.passes,
        stats.bans_seen,
        t0.elapsed(),
        stats.hash_roundtrip_mismatches,
        stats.hash_transposition_mismatches,
    );
    // Game::hash is "over everything that decides the future of the game", and the
    // position string carries that whole state: equal strings must hash equally.
    assert!(
        stats.first_hash_roundtrip.is_none(),
        "{} positions hash differently from their own parse round trip; first: {}",
        stats.hash_roundtrip_mismatches,
        stats.first_hash_roundtrip.unwrap()
    );
    assert!(
        stats.first_hash_transposition.is_none(),
        "{} positions hash differently from an equal position string seen earlier; first: {}",
        stats.hash_transposition_mismatches,
        stats.first_hash_transposition.unwrap()
    );
}

#[test]
fn random_games_default_rules() {
    assert!(matches!(
        Rules::default(),
        Rules {
            extra_move: true,
            repeat: RepeatRule::PushBack
        }
    ));
    run_rules(true, false, 10_000_000);
}

#[test]
fn random_games_no_extra_move() {
    run_rules(false, false, 20_000_000);
}

#[test]
fn random_games_ko() {
    run_rules(true, true, 30_000_000);
}

#[test]
fn random_games_ko_no_extra_move() {
    run_rules(false, true, 40_000_000);
}

#[test]
fn start_position() {
    let p = Position::start(Rules::default());
    assert_eq!(p.to_string(), START);
    let n = Naive::parse(START, true, false);
    assert_eq!(n.to_string(), START);
    assert_eq!(p.to_move(), Player::One);
    assert_eq!(p.outcome(), None);
}

#[test]
fn perft_start_matches_naive() {
    let depth = if cfg!(debug_assertions) { 4 } else { 5 };
    for (extra, ko) in [(true, false), (false, false), (true, true), (false, true)] {
        let rules = rules_of(extra, ko);
        let p = Position::start(rules);
        let n = Naive::parse(START, extra, ko);
        for d in 1..=depth {
            let np = naive_perft(&n, d);
            let cp = crate_perft(&p, d);
            println!("{rules:?} perft({d}) naive {np} crate {cp}");
            assert_eq!(cp, np, "{rules:?}: perft({d}) from the start differs");
            if extra && !ko {
                let spec = [1, 8, 64, 640];
                if (d as usize) < spec.len() {
                    assert_eq!(
                        np, spec[d as usize],
                        "naive perft({d}) disagrees with the spec"
                    );
                }
            }
        }
    }
}

/// Two move orders reach the same position (same string, no push can recreate either
/// earlier board, so the ko rule forbids nothing): the hashes must agree with each other
/// and with a fresh parse of the string, under both repeat rules.
#[test]
fn transposed_positions_hash_equally() {
    for (extra, ko) in [(true, false), (false, false), (true, true), (false, true)] {
        let rules = rules_of(extra, ko);
        let reach = |line: &[&str]| {
            let mut p = Position::start(rules);
            let mut n = Naive::parse(START, extra, ko);
            for m in line {
                let mv = p
                    .parse_move(m)
                    .unwrap_or_else(|e| panic!("{rules:?}: {m} after {line:?}: {e}"));
                p.play(mv);
                n.play(parse_nmove(m));
            }
            assert_eq!(p.to_string(), n.to_string(), "{rules:?}: after {line:?}");
            p
        };
        let a = reach(&["a7b7", "g7f7", "a6b6"]);
        let b = reach(&["a6b6", "g7f7", "a7b7"]);
        let s = a.to_string();
        assert_eq!(s, b.to_string());
        assert_eq!(
            s,
            "1WW1BB1/1WWR1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW b 0 0 - - 2"
        );
        let parsed = Position::parse(&s, rules).unwrap();
        assert_eq!(
            (a.hash(), b.hash()),
            (parsed.hash(), parsed.hash()),
            "{rules:?}: hashes of {s} reached by a7b7 g7f7 a6b6 / a6b6 g7f7 a7b7 vs parsed"
        );
    }
}
