//! Generates `positions/akiba-tactics.epd`: Akiba positions in which the side to move forces
//! a win within a few plies, with every first move that does so.
//!
//! `cargo run --release --example make_akiba_tactics [-- <output path>]`
//!
//! Positions come from seeded random playouts from the start position (captures are
//! preferred, so the games reach the endgame). Each candidate is solved by a plain
//! exhaustive AND/OR search over all legal moves: no evaluation and no pruning beyond the
//! short-circuit of "any"/"all". Whose decision a node is comes from `to_move()`, so extra
//! moves simply continue with the same side and `pass` is searched like any move. A table of
//! proven results (win within k plies / no win within k plies, keyed by position) only
//! reuses results that are implied by an earlier proof, so it cannot change an answer.
//!
//! The output is deterministic for a given seed list.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shove::akiba::{Move, Position, Rules};
use shove::game::{Game, MoveList, Outcome, Player};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::time::Instant;

/// Deepest forced win looked for, in plies (extra moves and passes count as plies).
const MAX_DM: u32 = 7;
/// A candidate whose solve takes more nodes than this is skipped (keeps the run short).
const NODE_BUDGET: u64 = 4_000_000;
/// How many positions of each `dm` to keep (index = dm).
const WANTED: [usize; 8] = [0, 2, 2, 5, 5, 5, 5, 5];
/// At most this many positions from one game, at least `GAP` plies apart, for variety.
const PER_GAME: usize = 2;
const GAP: usize = 6;

/// Proven facts about one position for a fixed attacker.
#[derive(Clone, Copy)]
struct Known {
    /// The attacker forces a win within this many plies (`u32::MAX`: not proven).
    win_within: u32,
    /// The attacker cannot force a win within this many plies (`-1`: not proven).
    no_win_within: i64,
}

struct Solver {
    attacker: Player,
    /// Keyed by the position string without the move number, so that equal keys are equal
    /// positions (no hash collisions).
    table: HashMap<String, Known>,
    nodes: u64,
}

fn key(position: &Position) -> String {
    let text = position.to_string();
    match text.rsplit_once(' ') {
        Some((rest, _fullmove)) => rest.to_string(),
        None => text,
    }
}

fn legal_moves(position: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let mut moves: Vec<Move> = list.to_vec();
    // Captures first: they end games. Only the order changes, never the set.
    moves.sort_by_key(|&mv| !position.is_tactical(mv));
    moves
}

impl Solver {
    fn new(attacker: Player) -> Solver {
        Solver {
            attacker,
            table: HashMap::new(),
            nodes: 0,
        }
    }

    /// Whether the attacker forces a win within `plies` plies from `position`.
    fn wins(&mut self, position: &Position, plies: u32) -> bool {
        self.nodes += 1;
        if let Some(outcome) = position.outcome() {
            return outcome == Outcome::Win(self.attacker);
        }
        if plies == 0 {
            return false;
        }
        // Cheap shallow nodes are not worth a table entry.
        let use_table = plies >= 3;
        let k = if use_table {
            key(position)
        } else {
            String::new()
        };
        if let Some(known) = self.table.get(&k).filter(|_| use_table) {
            if plies >= known.win_within {
                return true;
            }
            if i64::from(plies) <= known.no_win_within {
                return false;
            }
        }
        let moves = legal_moves(position);
        let or_node = position.to_move() == self.attacker;
        let mut result = !or_node;
        for mv in moves {
            let mut child = position.clone();
            child.play(mv);
            let child_wins = self.wins(&child, plies - 1);
            if or_node && child_wins {
                result = true;
                break;
            }
            if !or_node && !child_wins {
                result = false;
                break;
            }
        }
        if use_table {
            let entry = self.table.entry(k).or_insert(Known {
                win_within: u32::MAX,
                no_win_within: -1,
            });
            if result {
                entry.win_within = entry.win_within.min(plies);
            } else {
                entry.no_win_within = entry.no_win_within.max(i64::from(plies));
            }
        }
        result
    }
}

/// The shortest forced win of the side to move within `MAX_DM` plies, if any, or `None`
/// also when the solve ran over the node budget.
fn distance_to_win(position: &Position) -> Option<u32> {
    let mut solver = Solver::new(position.to_move());
    for plies in 1..=MAX_DM {
        if solver.wins(position, plies) {
            return Some(plies);
        }
        if solver.nodes > NODE_BUDGET {
            return None;
        }
    }
    None
}

/// Every first move that forces the win within `dm` plies.
fn winning_moves(position: &Position, dm: u32) -> Vec<Move> {
    let mut solver = Solver::new(position.to_move());
    legal_moves(position)
        .into_iter()
        .filter(|&mv| {
            let mut child = position.clone();
            child.play(mv);
            solver.wins(&child, dm - 1)
        })
        .collect()
}

/// Whether the winning line needs the attacker to move twice in a row somewhere (an
/// extra-move chain) — found by checking if a win within `dm` plies survives with
/// extra moves switched off. Only used to label positions.
fn needs_extra_moves(position: &Position, dm: u32) -> bool {
    let text = position.to_string();
    let no_extra = Rules {
        extra_move: false,
        ..Rules::default()
    };
    match Position::parse(&text, no_extra) {
        Ok(p) if !p.in_extra_move() => {
            let mut solver = Solver::new(p.to_move());
            !solver.wins(&p, dm)
        }
        _ => true,
    }
}

struct Found {
    text: String,
    dm: u32,
    best: Vec<Move>,
    legal: usize,
    extra_root: bool,
    chain: bool,
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "positions/akiba-tactics.epd".to_string());
    let started = Instant::now();
    let mut found: BTreeMap<u32, Vec<Found>> = BTreeMap::new();
    let mut extra_roots = 0;
    let mut seen = std::collections::HashSet::new();
    let mut candidates = 0u64;
    'games: for seed in 1..=400u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut position = Position::start(Rules::default());
        let capture_bias = 0.35 + 0.5 * rng.random::<f64>();
        let mut taken_here = 0;
        let mut last_taken = 0;
        for ply in 0..300 {
            if position.outcome().is_some() {
                break;
            }
            let moves = legal_moves(&position);
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&mv| position.is_tactical(mv))
                .collect();
            // Candidates: from the middle game on, one in three positions.
            let text = position.to_string();
            let late = ply >= 16
                && rng.random_range(0..3) == 0
                && taken_here < PER_GAME
                && (taken_here == 0 || ply >= last_taken + GAP);
            if late && seen.insert(key(&position)) {
                candidates += 1;
                if let Some(dm) = distance_to_win(&position) {
                    let best = winning_moves(&position, dm);
                    let want = WANTED[dm as usize];
                    let have = found.get(&dm).map_or(0, Vec::len);
                    let extra_root = position.in_extra_move();
                    // Most positions: fewer than half of the moves win. Root extra-move
                    // positions are welcome beyond the quota for a few.
                    let selective = best.len() * 2 < moves.len();
                    let take = selective
                        && (have < want || (extra_root && extra_roots < 4 && have < want + 2));
                    if take {
                        taken_here += 1;
                        last_taken = ply;
                        if extra_root {
                            extra_roots += 1;
                        }
                        let chain = needs_extra_moves(&position, dm);
                        eprintln!(
                            "seed {seed} ply {ply}: dm {dm}, {}/{} moves win{}{}: {text}",
                            best.len(),
                            moves.len(),
                            if extra_root { ", extra move" } else { "" },
                            if chain { ", needs extra moves" } else { "" },
                        );
                        found.entry(dm).or_default().push(Found {
                            text: position.to_string(),
                            dm,
                            best,
                            legal: moves.len(),
                            extra_root,
                            chain,
                        });
                    }
                    let done = (1..=MAX_DM as usize)
                        .all(|d| found.get(&(d as u32)).map_or(0, Vec::len) >= WANTED[d]);
                    if done {
                        break 'games;
                    }
                }
            }
            let mv = if !captures.is_empty() && rng.random::<f64>() < capture_bias {
                captures[rng.random_range(0..captures.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            position.play(mv);
        }
    }

    let mut out = String::new();
    out.push_str(
        "# Akiba tactics: the side to move forces a win (7 reds won, the opponent without\n\
         # marbles, or the opponent unable to push at the start of a turn) within `dm` plies.\n\
         #\n\
         # Format, one position a line, fields separated by ';':\n\
         #   <position string> ; bm <move> [<move> ...] ; dm <plies> ; id \"<name>\"\n\
         # - position string: as in shared/spec/akiba.md, played under the default rules\n\
         #   (extra move after a capture on, push-back rule).\n\
         # - bm: ALL first moves that force the win within dm plies, in move notation.\n\
         # - dm: the length of the shortest forced win in plies, counting every move of\n\
         #   either side including extra moves and passes (the engine's `mate <dm>`).\n\
         # - id: a name for the position.\n\
         # Lines starting with '#' and blank lines are ignored.\n\
         #\n\
         # Generated by `cargo run --release --example make_akiba_tactics` (seeded random\n\
         # playouts, then an exhaustive AND/OR win-within-N solver); tests/search.rs re-proves\n\
         # every line.\n",
    );
    let mut index = 0;
    for (dm, list) in &found {
        for f in list {
            index += 1;
            let moves: Vec<String> = f.best.iter().map(Move::to_string).collect();
            let _ = writeln!(
                out,
                "# {} of {} moves win{}{}",
                f.best.len(),
                f.legal,
                if f.extra_root {
                    "; root in an extra move"
                } else {
                    ""
                },
                if f.chain {
                    "; needs an extra-move chain"
                } else {
                    ""
                },
            );
            let _ = writeln!(
                out,
                "{} ; bm {} ; dm {dm} ; id \"akiba-tactics-{index:02}\"",
                f.text,
                moves.join(" "),
            );
            debug_assert_eq!(f.dm, *dm);
        }
    }
    std::fs::write(&path, out).expect("write the EPD file");
    eprintln!(
        "{index} positions from {candidates} candidates written to {path} in {:.1?}",
        started.elapsed()
    );
}
