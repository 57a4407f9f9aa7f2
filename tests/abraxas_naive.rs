//! Cross-checks the crate's Abraxas implementation against the deliberately naive,
//! independent one in `naive/abraxas.rs` (written from `docs/rules/engine/abraxas.md` alone).
//!
//! The naive side is the reference: slow, but each rule is a few obvious lines. Every check
//! prints the position string and the move involved, so a failure can be replayed.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

#[path = "naive/abraxas.rs"]
mod naive;
use naive::*;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::abraxas::{Move, Position, Rules};
use shove::game::{Game, MAX_MOVES, MoveList};

const START: &str = "s1 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1";

fn rules_of(target: u8, blue_stones: u8) -> Rules {
    Rules {
        target,
        blue_stones,
        ..Rules::default()
    }
}

#[derive(Default)]
struct Stats {
    games: usize,
    plies: usize,
    children: usize,
    wins: usize,
    captures: usize,
    multi_choice_captures: usize,
    replays: usize,
    stops_before: usize,
    stops_after: usize,
    stays: usize,
    own_blue: usize,
    empty_pool_moves: usize,
    phases: HashMap<char, usize>,
    /// Hash differences between a position and its own parse round trip.
    contradictory_captures: usize,
    first_contradictory: Option<String>,
    over_capacity: usize,
    first_over_capacity: Option<String>,
    hash_roundtrip_mismatches: usize,
    first_hash_roundtrip: Option<String>,
    /// Equal position strings (reached by different games) with different hashes.
    hash_transposition_mismatches: usize,
    first_hash_transposition: Option<String>,
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
            "target {} blue {}, seed {}, ply {}, from {}, moves [{}]",
            self.rules.target,
            self.rules.blue_stones,
            self.seed,
            self.ply,
            self.start,
            self.line.join(" ")
        )
    }
}

/// Compares everything observable about one position: string, side, outcome, move set,
/// move count, move notation, (optionally) the result of every move, and a parse round
/// trip. Returns the naive move strings.
fn compare(
    p: &Position,
    n: &Naive,
    rules: Rules,
    stats: &mut Stats,
    ctx: &dyn fmt::Display,
    all_children: bool,
) -> Option<Vec<String>> {
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
    *stats.phases.entry(n.phase as char).or_default() += 1;

    // A `MoveList` holds MAX_MOVES moves; empty-pool placements (red stones x free holes)
    // could in principle be more. Such positions are counted, reported, and end the game.
    let naive_count = n.legal_moves().len();
    if naive_count > MAX_MOVES {
        stats.over_capacity += 1;
        stats.first_over_capacity.get_or_insert_with(|| {
            format!(
                "{ctx}: {ps} has {naive_count} legal moves (naive), the crate counts {}",
                p.count_legal_moves()
            )
        });
        return None;
    }

    // Not in the spec: the exact shares can contradict each other (e.g. two lines each
    // forced to lose their stone on a third line whose share is 1). Both sides then offer
    // some fallback, but the spec decides nothing: counted, and the game ends there.
    if n.phase == b'c' && n.shares_contradict() {
        stats.contradictory_captures += 1;
        stats
            .first_contradictory
            .get_or_insert_with(|| format!("{ctx}: {ps}"));
        return None;
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
    let naive_set: BTreeSet<String> = naive_moves.iter().cloned().collect();
    assert_eq!(naive_set.len(), naive_moves.len(), "naive duplicates");
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

    for &m in &crate_moves {
        let ms = m.to_string();
        let parsed: Move = ms
            .parse()
            .unwrap_or_else(|e| panic!("{ctx}: crate cannot parse its own move {ms}: {e}"));
        assert_eq!(parsed, m, "{ctx}: move {ms} does not round-trip in {ps}");
        if !all_children {
            continue;
        }
        let mut pc = p.clone();
        pc.play(m);
        let mut nc = n.clone();
        nc.play(&ms);
        assert_eq!(
            pc.to_string(),
            nc.to_string(),
            "{ctx}: result of {ms} in {ps} differs (crate left, naive right)"
        );
        stats.children += 1;
    }

    // Parse round trip: the string carries all the state.
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
    // The naive parser reads the same string back to the same state.
    let rn = Naive::parse(&ns, n.target).unwrap();
    assert_eq!(&rn, n, "naive parse round trip of {ns}");

    Some(naive_moves)
}

/// A random but consistent start: 24 red stones split between pool, plate and owners, blue
/// stones split between hands and plate, any corner, any side, and a phase with flags that
/// a game can reach.
fn random_start(rng: &mut StdRng, sheet: usize, target: u32, blue_stones: u32) -> String {
    let pool: u32 = if rng.random_range(0..3) == 0 {
        rng.random_range(0..25)
    } else {
        rng.random_range(0..6)
    };
    let max_owned = 2 * (target - 1);
    let rest = 24 - pool;
    let min_plate = rest.saturating_sub(max_owned);
    // Sparse plates keep empty-pool positions under MAX_MOVES moves (red stones x free
    // holes), so that the empty-pool moves are compared too.
    let on_plate = if pool <= 2 && rng.random_range(0..2) == 0 {
        let lo = min_plate.max(1);
        rng.random_range(lo..=lo.max(4))
    } else {
        rng.random_range(min_plate..=rest.min(22).max(min_plate))
    };
    let owned = rest - on_plate;
    let lo = owned.saturating_sub(target - 1);
    let hi = owned.min(target - 1);
    let s1 = rng.random_range(lo..=hi);
    let s2 = owned - s1;
    let b1 = rng.random_range(0..=blue_stones);
    let b2 = rng.random_range(0..=blue_stones);
    let blue_on_plate = 2 * blue_stones - b1 - b2;

    let mut plate = [[b'.'; 8]; 8];
    let mut put = |c: u8, count: u32, rng: &mut StdRng| {
        let mut left = count;
        while left > 0 {
            let (f, r) = (rng.random_range(0..8), rng.random_range(0..8));
            if plate[r][f] == b'.' {
                plate[r][f] = c;
                left -= 1;
            }
        }
    };
    put(b'R', on_plate, rng);
    put(b'B', blue_on_plate, rng);
    let mut n = Naive::start(sheet, target, blue_stones);
    n.plate = plate;
    n.corner = rng.random_range(0..4);
    n.pool = pool;
    n.stones = [s1, s2];
    n.blue = [b1, b2];
    n.fullmove = rng.random_range(1..30);
    let mover = rng.random_range(1..3u8);
    n.side = mover;
    let opp = 3 - mover;
    n.phase = b'p';
    match rng.random_range(0..8) {
        // A turn's first placement, maybe after the opponent's blue stone.
        0..=2 => {}
        3 => n.flag_n = true,
        // A replay placement (after a pass at `s`, or with an opponent without blue).
        4 => n.flag_r = true,
        // A replay placement after a stop before it.
        5 => {
            n.flag_r = true;
            n.flag_b = true;
        }
        // The opponent's stop decision before a replay placement.
        6 => {
            if n.blue[opp as usize - 1] > 0 {
                n.phase = b's';
                n.side = opp;
            }
            n.flag_r = true;
        }
        // The mover's slide or stay after a stop.
        _ => {
            n.phase = b'd';
            n.flag_r = true;
            n.flag_b = true;
        }
    }
    n.to_string()
}

/// Picks a move, biased towards captures, stops, stays and blue stones so that every rule
/// is exercised.
fn pick(rng: &mut StdRng, n: &Naive, moves: &[String]) -> usize {
    if n.phase == b'p' && rng.random_range(0..10) < 7 {
        let capturing: Vec<usize> = (0..moves.len())
            .filter(|&i| {
                let mut c = n.clone();
                c.play(&moves[i]);
                c.phase == b'c' || c.phase == b'a'
            })
            .collect();
        if !capturing.is_empty() {
            return capturing[rng.random_range(0..capturing.len())];
        }
    }
    if n.phase == b's' || n.phase == b'a' {
        // Uniform choice would nearly always stop: pass half of the time.
        if moves.len() == 1 || rng.random_range(0..2) == 0 {
            return moves.iter().position(|m| m == "pass").unwrap();
        }
        let stops: Vec<usize> = (0..moves.len()).filter(|&i| moves[i] != "pass").collect();
        return stops[rng.random_range(0..stops.len())];
    }
    rng.random_range(0..moves.len())
}

fn run_rules(target: u8, blue_stones: u8, games_per_sheet: usize, seed_base: u64) -> Stats {
    let rules = rules_of(target, blue_stones);
    let mut stats = Stats::default();
    let mut seen: HashMap<String, u64> = HashMap::new();
    for sheet in 1..=6 {
        for g in 0..games_per_sheet {
            let seed = seed_base + (sheet as u64) * 100_000 + g as u64;
            let mut rng = StdRng::seed_from_u64(seed);
            let start = if g % 4 == 0 {
                format!("s{sheet} 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 {blue_stones} {blue_stones} 1")
            } else {
                random_start(&mut rng, sheet, target as u32, blue_stones as u32)
            };
            let mut p = Position::parse(&start, rules)
                .unwrap_or_else(|e| panic!("crate cannot parse {start}: {e}"));
            let mut n = Naive::parse(&start, target as u32).unwrap();
            let mut line: Vec<String> = Vec::new();
            stats.games += 1;
            for ply in 0..150 {
                let ctx = Ctx {
                    rules,
                    seed,
                    ply,
                    start: &start,
                    line: &line,
                };
                let all = ply % 4 == 0 || n.phase == b'c';
                let Some(moves) = compare(&p, &n, rules, &mut stats, &ctx, all) else {
                    break;
                };
                stats.plies += 1;
                let ps = p.to_string();
                if let Some(&h) = seen.get(&ps) {
                    if h != p.hash() {
                        stats.hash_transposition_mismatches += 1;
                        stats.first_hash_transposition.get_or_insert_with(|| {
                            format!("{ctx}: {ps} hashed {h:#x} and {:#x}", p.hash())
                        });
                    }
                } else if seen.len() < 200_000 {
                    seen.insert(ps, p.hash());
                }
                if moves.is_empty() {
                    if n.outcome().is_some() {
                        stats.wins += 1;
                    }
                    break;
                }
                let mv = moves[pick(&mut rng, &n, &moves)].clone();
                match n.phase {
                    b'p' if mv.starts_with('!') => stats.own_blue += 1,
                    b'p' if mv.len() == 4 => stats.empty_pool_moves += 1,
                    b'p' if n.flag_r => stats.replays += 1,
                    b's' if mv != "pass" => stats.stops_before += 1,
                    b'a' if mv != "pass" => stats.stops_after += 1,
                    b'd' if mv == "stay" => stats.stays += 1,
                    b'c' => {
                        stats.captures += 1;
                        if moves.len() > 1 {
                            stats.multi_choice_captures += 1;
                        }
                    }
                    _ => {}
                }
                let cm: Move = mv
                    .parse()
                    .unwrap_or_else(|e| panic!("{ctx}: crate cannot parse {mv}: {e}"));
                p.play(cm);
                n.play(&mv);
                line.push(mv);
            }
        }
    }
    stats
}

fn report(name: &str, s: &Stats) {
    let mut phases: Vec<_> = s.phases.iter().collect();
    phases.sort();
    println!(
        "{name}: {} games, {} decisions, {} children compared, {} wins, {} captures ({} with a choice), \
         {} replay placements, {} stops before / {} after, {} stays, {} own blue, {} empty-pool moves, phases {phases:?}",
        s.games,
        s.plies,
        s.children,
        s.wins,
        s.captures,
        s.multi_choice_captures,
        s.replays,
        s.stops_before,
        s.stops_after,
        s.stays,
        s.own_blue,
        s.empty_pool_moves,
    );
    println!(
        "{name}: {} captures with contradictory shares skipped, first: {:?}",
        s.contradictory_captures, s.first_contradictory
    );
    println!(
        "{name}: {} positions with more than {MAX_MOVES} moves skipped, first: {:?}",
        s.over_capacity, s.first_over_capacity
    );
    assert_eq!(
        s.hash_roundtrip_mismatches, 0,
        "{} hash round-trip mismatches, first: {:?}",
        s.hash_roundtrip_mismatches, s.first_hash_roundtrip
    );
    assert_eq!(
        s.hash_transposition_mismatches, 0,
        "{} hash transposition mismatches, first: {:?}",
        s.hash_transposition_mismatches, s.first_hash_transposition
    );
}

fn games_per_sheet() -> usize {
    if cfg!(debug_assertions) { 20 } else { 170 }
}

#[test]
fn random_games_default_rules() {
    let s = run_rules(11, 3, games_per_sheet(), 1);
    report("target 11, blue 3", &s);
}

#[test]
fn random_games_target_13_blue_2() {
    let s = run_rules(13, 2, games_per_sheet(), 7_000_000);
    report("target 13, blue 2", &s);
}

#[test]
fn naive_perft_from_the_start() {
    let start = Naive::start(1, 11, 3);
    assert_eq!(start.to_string(), START);
    assert_eq!(start.perft(1), 128);
    assert_eq!(start.perft(2), 11721);
}

#[test]
fn crate_start_and_perft_match_naive() {
    let p = Position::start(Rules::default());
    assert_eq!(p.to_string(), START);
    let depth = if cfg!(debug_assertions) { 2 } else { 3 };
    for sheet in 1..=6 {
        for (target, blue) in [(11u8, 3u8), (13, 2)] {
            let text = format!("s{sheet} 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 {blue} {blue} 1");
            let p = Position::parse(&text, rules_of(target, blue)).unwrap();
            let n = Naive::parse(&text, target as u32).unwrap();
            for d in 1..=depth {
                assert_eq!(crate_perft(&p, d), n.perft(d), "perft({d}) of {text}");
            }
        }
    }
}

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

/// Crowded positions that once had more legal moves than a `MoveList` held (256).
#[test]
fn crowded_positions_list_every_move() {
    for (text, target, blue) in [
        // Pool empty: 16 red stones x 46 free holes.
        (
            "s1 1R3B2/R1R5/RRR1R3/2R3R1/6RR/8/1B3R2/RRR2R2 sw 1 p n 0 6 2 1 3 23",
            11,
            3,
        ),
        // Many capture choices on a crowded plate.
        (
            "s6 2R1R2R/RR1R1R2/R1RB2R1/R7/RR4R1/R5R1/7R/RR1RRR2 nw 1 c - 2 0 0 2 1 7",
            13,
            2,
        ),
    ] {
        let n = Naive::parse(text, target).unwrap();
        let naive: BTreeSet<String> = n.legal_moves().into_iter().collect();
        let p = Position::parse(text, rules_of(target as u8, blue as u8))
            .unwrap_or_else(|e| panic!("crate cannot parse {text}: {e}"));
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        let got: BTreeSet<String> = list.iter().map(|m| m.to_string()).collect();
        assert_eq!(
            (got.len(), p.count_legal_moves()),
            (naive.len(), naive.len()),
            "{text}: crate lists / counts vs naive"
        );
        assert_eq!(got, naive, "{text}");
    }
}

/// A sheet given as a map plays like the built-in sheet it spells.
#[test]
fn sheet_maps_play_like_the_built_in_sheets() {
    for sheet in 1..=6 {
        let map = sheet_map(&builtin_sheet(sheet));
        let text = format!("{map} 8/8/2R5/8/3R4/8/8/8 ne 2 p - 22 0 0 3 3 4");
        let n = Naive::parse(&text, 11).unwrap();
        let named = Naive::parse(&text.replace(&map, &format!("s{sheet}")), 11).unwrap();
        assert_eq!(n.perft(2), named.perft(2), "{text}");
        let p = Position::parse(&text, Rules::default())
            .unwrap_or_else(|e| panic!("crate cannot parse {text}: {e}"));
        let shown = p.to_string();
        assert!(
            shown == text || shown == named.to_string(),
            "{text} is shown as {shown}"
        );
        assert_eq!(crate_perft(&p, 2), n.perft(2), "perft(2) of {text}");
    }
}
