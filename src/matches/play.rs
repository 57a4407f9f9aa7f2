//! Playing the games: each worker takes the next game of the plan and plays it between the
//! two engines of its pairing, refereed by the rules engine.

use super::engine::{Engine, Failure};
use super::log::FailureKind;
use super::log::GameRecord;
use super::plan::Plan;
use crate::game::Game;
use crate::game::{Outcome, Player};
use crate::search_hints::SearchHints;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;

/// What the workers share.
pub(super) struct Shared<'a, G: Game> {
    pub plan: &'a Plan<'a>,
    /// The rule options among the engine options, for the log.
    pub rule_options: Vec<(String, String)>,
    /// Per engine: the run's options, then its own.
    pub options: Vec<Vec<(String, String)>>,
    pub openings: Vec<G>,
    /// The 0-based game indices to play (this shard's), in order.
    pub games: Vec<usize>,
    pub next_game: AtomicUsize,
    /// Set on an SPRT verdict: games in progress are abandoned.
    pub stop: AtomicBool,
}

/// A game played to its end.
pub(super) struct Finished {
    /// 0-based game index.
    pub index: usize,
    pub record: GameRecord,
    /// The engine that lost by failing, by its place in the pairing (0: the first), and how.
    pub failure: Option<(usize, FailureKind)>,
}

/// A worker: plays the next game until none is left or the run is stopped. It keeps the
/// processes of the last game's two engines for the next (at most two per worker).
pub(super) fn play_games<G: SearchHints>(shared: &Shared<G>, sender: &Sender<Finished>) {
    let mut engines: Vec<Option<Engine>> = shared.plan.engines.iter().map(|_| None).collect();
    while !shared.stop.load(Ordering::SeqCst) {
        let next = shared.next_game.fetch_add(1, Ordering::SeqCst);
        let Some(&index) = shared.games.get(next) else {
            break;
        };
        let Some(finished) = play_game(shared, index, &mut engines) else {
            break;
        };
        if sender.send(finished).is_err() {
            break;
        }
    }
}

/// One game; `None` when the run was stopped during it. `engines` are indexed like the
/// plan's; a failed engine is dropped and started afresh for the next game, and engines
/// of other pairings are stopped.
fn play_game<G: Game>(
    shared: &Shared<G>,
    index: usize,
    engines: &mut [Option<Engine>],
) -> Option<Finished> {
    let plan = shared.plan;
    let config = plan.run;
    let pairing = plan.pairings[index / (2 * plan.pairs)];
    let local = index % (2 * plan.pairs);
    let start = &shared.openings[(local / 2) % shared.openings.len()];
    // The engine playing each player: the pairing's first engine is player 1 in even games.
    let engine_of = if local.is_multiple_of(2) {
        pairing
    } else {
        [pairing[1], pairing[0]]
    };
    for (engine, slot) in engines.iter_mut().enumerate() {
        if !pairing.contains(&engine) {
            *slot = None;
        }
    }
    let spec = |engine: usize| &plan.engines[engine];
    let mut record = GameRecord {
        number: index + 1,
        game: G::NAME.to_string(),
        players: engine_of.map(|e| spec(e).name.clone()),
        outcome: Outcome::Draw,
        reason: String::new(),
        opening: start.to_string(),
        moves: Vec::new(),
        rules: shared.rule_options.clone(),
    };
    let player_of = |engine: usize| {
        if engine_of[0] == engine {
            Player::One
        } else {
            Player::Two
        }
    };
    let lost = |mut record: GameRecord, engine: usize, kind: FailureKind, why: String| {
        record.outcome = Outcome::Win(player_of(engine).other());
        record.reason = format!("{} loses: {kind}: {why}", spec(engine).name);
        let place = usize::from(pairing[0] != engine);
        Some(Finished {
            index,
            record,
            failure: Some((place, kind)),
        })
    };
    for engine in pairing {
        let slot = &mut engines[engine];
        if slot.is_none() {
            match Engine::start(
                &spec(engine).name,
                &spec(engine).command,
                G::NAME,
                &shared.options[engine],
                config.timeout,
            ) {
                Ok(started) => *slot = Some(started),
                Err(why) => return lost(record, engine, FailureKind::Crash, why),
            }
        }
        if let Some(process) = slot
            && let Err(failure) = process.new_game(config.timeout)
        {
            *slot = None;
            let kind = failure_kind(&failure, false);
            return lost(record, engine, kind, format!("starting a game: {failure}"));
        }
    }

    let mut position = start.clone();
    let mut history: Vec<u64> = Vec::new();
    let mut clocks =
        [Player::One, Player::Two].map(|p| spec(engine_of[p.index()]).tc.start_clock());
    let increments = [Player::One, Player::Two].map(|p| spec(engine_of[p.index()]).tc.increment());
    loop {
        if let Some(outcome) = position.outcome() {
            record.outcome = outcome;
            record.reason = "by the rules".into();
            break;
        }
        if let Some(reason) = config.adjudication.draw(&position, &history) {
            record.outcome = Outcome::Draw;
            record.reason = reason.to_string();
            break;
        }
        if shared.stop.load(Ordering::SeqCst) {
            return None;
        }
        let side = position.to_move().index();
        let engine = engine_of[side];
        let tc = spec(engine).tc;
        let Some(process) = engines[engine].as_mut() else {
            return lost(record, engine, FailureKind::Crash, "no process".into());
        };
        let mut command = format!("position fen {start}");
        if !record.moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&record.moves.join(" "));
        }
        let go = tc.go(process.dialect(), clocks, increments);
        let allowance = tc.allowance(clocks[side], config.margin);
        let answer = process.best_move(&command, &go, allowance.unwrap_or(config.timeout));
        let failure = match answer {
            Ok((_, elapsed)) if allowance.is_some_and(|a| elapsed > a) => Some((
                FailureKind::TimeLoss,
                format!(
                    "took {} ms, {} ms allowed",
                    elapsed.as_millis(),
                    allowance.unwrap_or_default().as_millis()
                ),
            )),
            Ok((text, elapsed)) => match position.parse_move(&text) {
                Ok(mv) => {
                    if let Some(left) = &mut clocks[side] {
                        *left = left.saturating_sub(elapsed) + increments[side];
                    }
                    history.push(position.hash());
                    position.play(mv);
                    record.moves.push(mv.to_string());
                    None
                }
                Err(e) => Some((FailureKind::IllegalMove, e.to_string())),
            },
            Err(failure) => Some((
                failure_kind(&failure, allowance.is_some()),
                failure.to_string(),
            )),
        };
        if let Some((kind, why)) = failure {
            engines[engine] = None;
            let ply = record.moves.len() + 1;
            return lost(record, engine, kind, format!("move {ply}: {why}"));
        }
    }
    Some(Finished {
        index,
        record,
        failure: None,
    })
}

/// A timeout is a time loss when the time control judged the move, else a hang.
fn failure_kind(failure: &Failure, timed: bool) -> FailureKind {
    match failure {
        Failure::Timeout if timed => FailureKind::TimeLoss,
        Failure::Timeout => FailureKind::Hang,
        Failure::Crash(_) => FailureKind::Crash,
        Failure::Protocol(_) => FailureKind::ProtocolError,
    }
}
