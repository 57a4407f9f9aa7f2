//! Balanced opening positions: short random playouts from one or more start positions, each
//! kept when a deeper search scores it near zero and it is no duplicate of one kept before.
//!
//! Match openings (`shove openings`, `positions/<game>-openings.txt`) and self-play openings
//! both come from [`generate`]. The result depends only on the start positions, the
//! [`OpeningConfig`], the count and the seed — not on the number of threads — because the
//! candidates are drawn in one seeded sequence and every judging search starts from empty
//! tables.
//!
//! A balanced score is not a balanced game: in Abraxas most match pairs from such openings
//! end one win each, the colour deciding both games. [`Trials`] keeps a candidate only
//! where the engine at full strength, against itself, wins it with both colours.

use super::playout::play_game;
use crate::game::{MoveList, Outcome};
use crate::matches::Adjudication;
use crate::nnue::Network;
use crate::profile::Profile;
use crate::search::{Limits, Score, Searcher};
use crate::search_hints::SearchHints;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How candidates are made and judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningConfig {
    /// Random plies played from a start position: at least `plies.0`, at most `plies.1`.
    pub plies: (usize, usize),
    /// Depth of the judging search.
    pub depth: u32,
    /// Largest absolute judging score kept (evaluation units: ~1/100 of a stone, marble or
    /// point). Mate scores are never kept.
    pub max_score: i32,
    /// Transposition table of each judging search, in MB (cleared for every candidate).
    pub hash_megabytes: usize,
    /// Most nodes a judging search may take: a candidate whose search cannot finish its
    /// depth within them is dropped. At depth 6 only a tangle of capture chains (quiescence
    /// exploding) reaches the default, [`JUDGE_NODES`]; deep judges need more (an Offboard
    /// opening takes about 1.4 M nodes to depth 12).
    pub max_nodes: u64,
}

impl OpeningConfig {
    /// The defaults for game `G`: its balance bound ([`Profile::BALANCED_SCORE`]) is in its
    /// evaluation's units.
    pub fn for_game<G: Profile>() -> OpeningConfig {
        OpeningConfig {
            plies: (4, 10),
            depth: 6,
            max_score: G::BALANCED_SCORE,
            hash_megabytes: 4,
            max_nodes: JUDGE_NODES,
        }
    }

    /// Whether the playouts have no plies: each start is then one candidate, so
    /// [`generate`] filters the starts, and keeping fewer of them than asked is the point.
    pub fn filters_starts(&self) -> bool {
        self.plies.1 == 0
    }
}

/// Trial games of the engine against itself from each candidate the judging search keeps:
/// the candidate stays only when each colour wins at least `min_wins` of them. Game `g` of
/// `games` searches `nodes + g·nodes/(2·games)` nodes a move, so that no two games are alike
/// and each is decided by the position, not by one budget's quirk.
#[derive(Clone, Debug)]
pub struct Trials {
    pub games: usize,
    pub nodes: u64,
    pub min_wins: usize,
    /// The evaluation both sides play with (`None`: classical).
    pub network: Option<Arc<Network>>,
    pub adjudication: Adjudication,
    /// Transposition table of each of the two trial searchers, in MB.
    pub hash_megabytes: usize,
}

impl Trials {
    /// Nodes a move of game `game`.
    fn nodes_of(&self, game: usize) -> u64 {
        self.nodes + game as u64 * self.nodes / (2 * self.games.max(1) as u64)
    }

    /// Whether both colours win `min_wins` of the games from `position`. Stops as soon as
    /// the answer is known, which does not change it.
    fn both_colours_win<G: SearchHints>(
        &self,
        position: &G,
        searchers: &mut [Searcher<G>; 2],
    ) -> bool {
        let mut wins = [0; 2];
        for game in 0..self.games {
            let limits = Limits {
                nodes: Some(self.nodes_of(game)),
                ..Limits::default()
            };
            if let Outcome::Win(player) =
                play_game(position, &limits, &self.adjudication, searchers, |_, _| {})
            {
                wins[player.index()] += 1;
            }
            if wins.iter().all(|&w| w >= self.min_wins) {
                return true;
            }
            let left = self.games - game - 1;
            if wins.iter().any(|&w| w + left < self.min_wins) {
                return false;
            }
        }
        false
    }

    /// A pair of searchers for the trial games.
    fn searchers<G: SearchHints>(&self) -> [Searcher<G>; 2] {
        [0, 1].map(|_| {
            let mut searcher = Searcher::new(self.hash_megabytes);
            searcher.set_network(self.network.clone());
            searcher
        })
    }
}

/// Candidates drawn per start position and kept opening before giving up: a configuration
/// that keeps almost nothing ends instead of running forever.
pub const MAX_CANDIDATES_PER_OPENING: usize = 100;

/// The same with [`Trials`]: in Abraxas about one candidate in 170 is balanced and won by
/// both colours (58 in 10,000 from sheets s2–s6, 4 trial games from 16,000 nodes a move).
pub const MAX_CANDIDATES_PER_TRIED_OPENING: usize = 1000;

/// The most candidates [`generate`] draws for `count` openings from `starts` start
/// positions: the starts once each when it filters them
/// ([`OpeningConfig::filters_starts`]), as drawing more would only repeat them.
pub fn candidate_limit(
    count: usize,
    starts: usize,
    config: &OpeningConfig,
    trials: Option<&Trials>,
) -> usize {
    if config.filters_starts() {
        return starts;
    }
    count.saturating_mul(match trials {
        Some(_) => MAX_CANDIDATES_PER_TRIED_OPENING,
        None => MAX_CANDIDATES_PER_OPENING,
    })
}

/// Up to `count` balanced openings, in a deterministic order for a given `seed`.
///
/// Candidate `i` is a playout from `starts[i % starts.len()]` of a random number of plies in
/// `config.plies`, each move drawn uniformly from the moves the game allows in random
/// openings ([`SearchHints::is_opening_move`]). It is dropped when the game ended, when it repeats
/// an earlier candidate from the same start (same [`Game::hash`]), or when a depth
/// `config.depth` search scores it beyond `config.max_score`. Judging runs on `threads`
/// threads (at least one). Fewer than `count` openings come back only when
/// [`MAX_CANDIDATES_PER_OPENING`] times `count` candidates were not enough, or, with
/// playouts of no plies, when fewer of the starts were kept. With `trials`,
/// a balanced candidate is kept only when both colours win its trial games, and up to
/// [`MAX_CANDIDATES_PER_TRIED_OPENING`] times `count` candidates are drawn.
pub fn generate<G: SearchHints>(
    starts: &[G],
    config: &OpeningConfig,
    trials: Option<&Trials>,
    count: usize,
    seed: u64,
    threads: usize,
) -> Vec<G> {
    let mut kept = Vec::with_capacity(count);
    if starts.is_empty() || count == 0 {
        return kept;
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let threads = threads.max(1);
    let mut searchers: Vec<Searcher<G>> = (0..threads)
        .map(|_| Searcher::new(config.hash_megabytes))
        .collect();
    let mut drawn = 0;
    let limit = candidate_limit(count, starts.len(), config, trials);
    while kept.len() < count && drawn < limit {
        // Enough candidates to keep every thread busy, about as many as are still needed.
        let batch = (count - kept.len()).max(8 * threads).min(limit - drawn);
        let mut candidates = Vec::with_capacity(batch);
        for _ in 0..batch {
            let index = drawn % starts.len();
            drawn += 1;
            if let Some(position) = playout(&starts[index], config.plies, &mut rng)
                && seen.insert((index, position.hash()))
            {
                candidates.push(position);
            }
        }
        let verdicts = judge(&candidates, config, trials, &mut searchers);
        for (position, keep) in candidates.into_iter().zip(verdicts) {
            if keep && kept.len() < count {
                kept.push(position);
            }
        }
    }
    kept
}

/// A random playout from `start`, or `None` when the game ended on the way.
fn playout<G: SearchHints>(start: &G, plies: (usize, usize), rng: &mut StdRng) -> Option<G> {
    let (low, high) = (plies.0.min(plies.1), plies.0.max(plies.1));
    let length = rng.random_range(low..=high);
    let mut position = start.clone();
    let mut moves = MoveList::new();
    let mut allowed = Vec::new();
    for _ in 0..length {
        moves.clear();
        position.legal_moves(&mut moves);
        allowed.clear();
        allowed.extend(
            moves
                .iter()
                .copied()
                .filter(|&m| position.is_opening_move(m)),
        );
        // A game that allows none of its moves still plays one rather than stopping here.
        let pool: &[G::Move] = if allowed.is_empty() { &moves } else { &allowed };
        position.play(*pool.choose(rng)?);
    }
    position.outcome().is_none().then_some(position)
}

/// The default of [`OpeningConfig::max_nodes`]: without a cap one candidate stalled
/// self-play for minutes.
pub const JUDGE_NODES: u64 = 1_000_000;

/// Whether each candidate is balanced (and both colours win its `trials`), judged on all
/// the searchers' threads at once.
fn judge<G: SearchHints>(
    candidates: &[G],
    config: &OpeningConfig,
    trials: Option<&Trials>,
    searchers: &mut [Searcher<G>],
) -> Vec<bool> {
    let limits = Limits {
        depth: Some(config.depth),
        nodes: Some(config.max_nodes),
        ..Limits::default()
    };
    let next = AtomicUsize::new(0);
    let mut verdicts = vec![false; candidates.len()];
    std::thread::scope(|scope| {
        let workers: Vec<_> = searchers
            .iter_mut()
            .map(|searcher| {
                let (next, limits) = (&next, &limits);
                scope.spawn(move || {
                    let mut trial = trials.map(|t| (t, t.searchers::<G>()));
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(position) = candidates.get(i) else {
                            break;
                        };
                        searcher.clear();
                        let result = searcher.search(position, &[], limits, 1, &mut |_| {});
                        let balanced = result.depth >= config.depth
                            && matches!(result.score,
                                Score::Cp(score) if score.abs() <= config.max_score);
                        let kept = balanced
                            && trial.as_mut().is_none_or(|(trials, players)| {
                                trials.both_colours_win(position, players)
                            });
                        mine.push((i, kept));
                    }
                    mine
                })
            })
            .collect();
        for worker in workers {
            // A judging thread can only fail by panicking: a bug, passed on rather than
            // read as openings judged unbalanced.
            let judged = worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            for (i, balanced) in judged {
                verdicts[i] = balanced;
            }
        }
    });
    verdicts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{abraxas, akiba};

    fn quick() -> OpeningConfig {
        OpeningConfig {
            plies: (2, 6),
            depth: 2,
            max_score: 150,
            hash_megabytes: 1,
            max_nodes: JUDGE_NODES,
        }
    }

    #[test]
    fn same_seed_same_openings_whatever_the_threads() {
        let start = akiba::Position::start(Default::default());
        let one = generate(std::slice::from_ref(&start), &quick(), None, 30, 7, 1);
        let three = generate(std::slice::from_ref(&start), &quick(), None, 30, 7, 3);
        assert_eq!(one.len(), 30);
        assert_eq!(one, three);
        let other = generate(std::slice::from_ref(&start), &quick(), None, 30, 8, 1);
        assert_ne!(one, other);
    }

    #[test]
    fn no_duplicates_and_every_start_used() {
        let starts: Vec<abraxas::Position> = ["s2", "s5"]
            .iter()
            .map(|sheet| {
                let text = format!("{sheet} 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1");
                abraxas::Position::parse(&text, Default::default()).unwrap()
            })
            .collect();
        // Abraxas scores a stop stone or a chain at about 250: a bound of 150 would leave
        // too few candidates; this test is about duplicates and starts, not the judge.
        let config = OpeningConfig {
            max_score: 600,
            ..quick()
        };
        let openings = generate(&starts, &config, None, 40, 1, 2);
        assert_eq!(openings.len(), 40);
        let keys: HashSet<String> = openings.iter().map(ToString::to_string).collect();
        assert_eq!(keys.len(), 40);
        for sheet in ["s2", "s5"] {
            assert!(openings.iter().any(|p| p.to_string().starts_with(sheet)));
        }
        // Random openings leave the stop stones alone.
        assert!(openings.iter().all(|p| p.blue_stones() == 0));
    }

    /// Self-play asks for blocks of 16 openings with the default judge and each game's
    /// bound; a bound that fits the evaluation's scale finds them well within the candidate
    /// limit (with 60, Abraxas found 10 of 16 in 1,600 candidates).
    fn full_block_with_defaults<G: Profile>(starts: &[G]) {
        let block = generate(starts, &OpeningConfig::for_game::<G>(), None, 16, 1, 2);
        assert_eq!(block.len(), 16, "{}", G::NAME);
    }

    #[test]
    fn every_game_finds_a_self_play_block_with_its_default_bound() {
        full_block_with_defaults(&[akiba::Position::start(Default::default())]);
        full_block_with_defaults(&[crate::offboard::Position::start(Default::default())]);
        let sheets: Vec<abraxas::Position> = (1..=6)
            .map(|n| {
                let text = format!("s{n} 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1");
                abraxas::Position::parse(&text, Default::default()).unwrap()
            })
            .collect();
        for sheet in sheets {
            full_block_with_defaults(std::slice::from_ref(&sheet));
        }
    }

    fn abraxas_starts() -> Vec<abraxas::Position> {
        ["s2", "s4"]
            .iter()
            .map(|sheet| {
                let text = format!("{sheet} 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1");
                abraxas::Position::parse(&text, Default::default()).unwrap()
            })
            .collect()
    }

    fn small_trials() -> Trials {
        Trials {
            games: 4,
            nodes: 400,
            min_wins: 1,
            network: None,
            adjudication: Adjudication {
                max_plies: 400,
                repetition_draw: true,
            },
            hash_megabytes: 1,
        }
    }

    /// Every opening kept with trials is one from which the engine against itself, at the
    /// trial budgets played here again, wins with each colour; and trials drop openings that
    /// the judge alone keeps, whatever the threads.
    #[test]
    fn trials_keep_only_openings_both_colours_win() {
        let config = OpeningConfig {
            max_score: 600,
            ..quick()
        };
        let trials = small_trials();
        let starts = abraxas_starts();
        let kept = generate(&starts, &config, Some(&trials), 4, 5, 2);
        assert_eq!(kept.len(), 4);
        assert_eq!(kept, generate(&starts, &config, Some(&trials), 4, 5, 1));
        let mut players = trials.searchers::<abraxas::Position>();
        for opening in &kept {
            let mut wins = [0; 2];
            for (game, nodes) in [400, 450, 500, 550].into_iter().enumerate() {
                assert_eq!(trials.nodes_of(game), nodes);
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                if let Outcome::Win(p) = play_game(
                    opening,
                    &limits,
                    &trials.adjudication,
                    &mut players,
                    |_, _| {},
                ) {
                    wins[p.index()] += 1;
                }
            }
            assert!(wins[0] >= 1 && wins[1] >= 1, "{opening}: {wins:?}");
        }
        let judged_only = generate(&starts, &config, None, 4, 5, 2);
        assert_ne!(kept, judged_only, "the trials dropped nothing");
    }

    #[test]
    fn only_balanced_positions_are_kept() {
        let start = akiba::Position::start(Default::default());
        let config = OpeningConfig {
            max_score: 0,
            ..quick()
        };
        let mut searcher = Searcher::<akiba::Position>::new(1);
        let limits = Limits {
            depth: Some(config.depth),
            ..Limits::default()
        };
        for position in generate(std::slice::from_ref(&start), &config, None, 10, 3, 2) {
            searcher.clear();
            let result = searcher.search(&position, &[], &limits, 1, &mut |_| {});
            assert_eq!(result.score, Score::Cp(0), "{position}");
        }
    }
}
