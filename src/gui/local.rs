//! The page's engine inside this process, for the browser's Web Worker, where no engine
//! process can be started (web/, docs/web.md). It takes the page's session messages
//! ([`super::session`]: `go` with a line, a movetime, MultiPV and a level) and answers with
//! the events an engine process gives the native page ([`super::engine`]): `ready`, each
//! `info` as a `line`, then `bestmove`, or an `error` naming the problem. The search runs
//! on the calling thread: a worker that must stop at once is ended by its page.
//!
//! Each game keeps its searcher (table and histories) between searches, as an engine
//! process keeps them between `go` commands.

use super::state::Line;
use crate::game::Game;
use crate::games::{GameVisitor, with_game};
use crate::nnue::choice;
use crate::phrase::{Phrase, Phrased};
use crate::profile::Profile;
use crate::search::{DEFAULT_MOVE_OVERHEAD, Limits, MAX_MULTIPV, Score, Searcher, Skill};
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::Duration;

/// The table of each game's searcher, in MB: the browser's memory is the page's too.
const HASH_MB: usize = 16;

/// A `go` of the page's session (the `type` field is the caller's).
#[derive(Deserialize)]
pub struct Go {
    pub slot: usize,
    pub id: u64,
    pub line: Line,
    /// `None`: until the page ends the search (`go infinite`).
    pub movetime: Option<u64>,
    #[serde(default = "one")]
    pub multipv: usize,
    /// 0..=20 plays at that `Skill Level`; `None`: full strength.
    pub level: Option<u32>,
    /// A fixed depth instead of a time (the tests that compare this engine with the
    /// native one).
    #[serde(default)]
    pub depth: Option<u32>,
}

fn one() -> usize {
    1
}

/// The engine's name, as `id name` gives it.
pub fn name() -> String {
    format!("shove {}", env!("CARGO_PKG_VERSION"))
}

/// The engines a page of the static site has: one, in its worker.
pub fn engines_event() -> Value {
    json!({"type": "engines", "engines": [{"slot": 0, "command": name()}]})
}

/// The `ready` event of slot `slot`.
pub fn ready_event(slot: usize) -> Value {
    json!({"type": "ready", "slot": slot, "name": name()})
}

/// One searcher per game, made when a game is first searched.
#[derive(Default)]
pub struct LocalEngine {
    games: Vec<(&'static str, Box<dyn GameSearch>)>,
}

impl LocalEngine {
    /// Searches `go`, passing each event to `emit` (every `info`, then `bestmove` or an
    /// error); `now_ms` stamps the lines as the native server does (milliseconds since the
    /// epoch).
    pub fn go(&mut self, go: &Go, emit: &mut dyn FnMut(Value), now_ms: &dyn Fn() -> f64) {
        // The movetime counts from here, as from a `go` an engine process reads: making a
        // game's searcher (its table and network) the first time is time spent.
        let received = web_time::Instant::now();
        let mut event = |mut value: Value| {
            value["slot"] = json!(go.slot);
            emit(value);
        };
        if let Err(message) = self.search(go, received, &mut event, now_ms) {
            let message = Phrase::new("engine {n} ({command}): {reason}")
                .with("n", go.slot + 1)
                .with("command", name())
                .with_phrase("reason", message);
            event(json!({
                "type": "error",
                "id": go.id,
                "message": message.to_string(),
                "phrase": message.to_json(),
                "dead": false,
            }));
        }
    }

    fn search(
        &mut self,
        go: &Go,
        received: web_time::Instant,
        emit: &mut dyn FnMut(Value),
        now_ms: &dyn Fn() -> f64,
    ) -> Result<(), Phrase> {
        if let Some(level) = go.level.filter(|&l| l > Skill::MAX_LEVEL) {
            return Err(
                Phrase::new("level {level} is out of range: levels are 0 to {max}")
                    .with("level", level)
                    .with("max", Skill::MAX_LEVEL),
            );
        }
        let game = with_game(&go.line.game, Name)?;
        let index = match self.games.iter().position(|(name, _)| *name == game) {
            Some(index) => index,
            None => {
                let search = with_game(game, Make)?.map_err(Phrase::plain)?;
                self.games.push((game, search));
                self.games.len() - 1
            }
        };
        self.games[index].1.go(go, received, emit, now_ms)
    }
}

struct Name;

impl GameVisitor for Name {
    type Output = &'static str;
    fn visit<G: Profile>(self) -> &'static str {
        G::NAME
    }
}

struct Make;

impl GameVisitor for Make {
    type Output = Result<Box<dyn GameSearch>, String>;
    fn visit<G: Profile>(self) -> Self::Output {
        let mut searcher = Searcher::<G>::new(HASH_MB);
        searcher.set_network(choice::resolve::<G>(None, None)?);
        Ok(Box::new(searcher))
    }
}

/// A searcher of some game, chosen by name at run time.
trait GameSearch {
    fn go(
        &mut self,
        go: &Go,
        received: web_time::Instant,
        emit: &mut dyn FnMut(Value),
        now_ms: &dyn Fn() -> f64,
    ) -> Result<(), Phrase>;
}

impl<G: Profile> GameSearch for Searcher<G> {
    fn go(
        &mut self,
        go: &Go,
        received: web_time::Instant,
        emit: &mut dyn FnMut(Value),
        now_ms: &dyn Fn() -> f64,
    ) -> Result<(), Phrase> {
        let (root, history) = replay::<G>(&go.line)?;
        if root.outcome().is_some() || root.count_legal_moves() == 0 {
            emit(json!({"type": "bestmove", "id": go.id, "move": null}));
            return Ok(());
        }
        let skill = Skill::new(go.level.unwrap_or(Skill::MAX_LEVEL)).map_err(Phrase::plain)?;
        let limits = Limits {
            depth: go.depth,
            movetime: go.movetime.map(Duration::from_millis),
            infinite: go.movetime.is_none() && go.depth.is_none(),
            received: Some(received),
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            ..Limits::default()
        };
        let limits = skill.limits(&limits);
        let multipv = skill.lines(go.multipv.clamp(1, MAX_MULTIPV), G::LEVEL_0_LINES);
        // The latest score and first move of each line, for a weak level's pick.
        let mut lines: Vec<(Score, G::Move)> = Vec::new();
        let result = self.search(&root, &history, &limits, multipv, &mut |info| {
            emit(json!({"type": "line", "line": info.to_string(), "t": now_ms()}));
            if let Some(&mv) = info.pv.first() {
                let line = (info.score, mv);
                match lines.get_mut(info.multipv - 1) {
                    Some(slot) => *slot = line,
                    None => lines.push(line),
                }
            }
        });
        let best = match skill.pick(&lines, root.hash()) {
            Some(pick) if skill.enabled() && result.best.is_some() => Some(pick),
            _ => result.best,
        };
        let best = best.map(|mv| mv.to_string());
        emit(
            json!({"type": "line", "line": format!("bestmove {}", best.as_deref().unwrap_or("(none)")), "t": now_ms()}),
        );
        emit(json!({"type": "bestmove", "id": go.id, "move": best}));
        Ok(())
    }
}

/// The position at the end of `line` and the keys of the positions before it (for
/// repetitions), or what is wrong with the line.
fn replay<G: Game>(line: &Line) -> Result<(G, Vec<u64>), Phrase> {
    let mut position = super::state::start_of::<G>(line)?;
    let mut history = Vec::with_capacity(line.moves.len());
    for (i, text) in line.moves.iter().enumerate() {
        let mv = position.parse_move(text.trim()).map_err(|e| {
            Phrase::new("move {n}: {reason}")
                .with("n", i + 1)
                .with_phrase("reason", e.phrase())
        })?;
        history.push(position.hash());
        position.play(mv);
    }
    Ok((position, history))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(engine: &mut LocalEngine, request: &str) -> Vec<Value> {
        let go: Go = serde_json::from_str(request).unwrap();
        let mut events = Vec::new();
        engine.go(&go, &mut |e| events.push(e), &|| 0.0);
        events
    }

    #[test]
    fn a_fixed_depth_search_is_the_protocols() {
        let mut engine = LocalEngine::default();
        let events = events(
            &mut engine,
            r#"{"slot":0,"id":3,"line":{"game":"akiba"},"depth":6}"#,
        );
        let last = events.last().unwrap();
        assert_eq!(last["type"], "bestmove");
        assert_eq!(last["id"], 3);
        // The same search on a searcher of the protocol's kind.
        let mut searcher = Searcher::<crate::akiba::Position>::new(HASH_MB);
        searcher.set_network(choice::resolve::<crate::akiba::Position>(None, None).unwrap());
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let root = crate::akiba::Position::start(Default::default());
        let result = searcher.search(&root, &[], &limits, 1, &mut |_| {});
        assert_eq!(last["move"], result.best.unwrap().to_string());
        let info = events
            .iter()
            .rev()
            .find_map(|e| {
                e["line"]
                    .as_str()
                    .filter(|l| l.starts_with("info depth 6 "))
            })
            .unwrap();
        assert!(
            info.contains(&format!(" nodes {} ", result.nodes)),
            "{info}"
        );
    }

    #[test]
    fn bad_requests_are_errors_naming_the_problem() {
        let mut engine = LocalEngine::default();
        for (request, words) in [
            (
                r#"{"slot":0,"id":1,"line":{"game":"chess"},"depth":2}"#,
                "unknown game",
            ),
            (
                r#"{"slot":0,"id":1,"line":{"game":"akiba","moves":["zz"]},"depth":2}"#,
                "move 1",
            ),
            (
                r#"{"slot":0,"id":1,"line":{"game":"akiba"},"depth":2,"level":21}"#,
                "out of range",
            ),
            (
                r#"{"slot":0,"id":1,"line":{"game":"akiba","start":"nonsense"},"depth":2}"#,
                "bad position string",
            ),
        ] {
            let events = events(&mut engine, request);
            assert_eq!(events.len(), 1, "{request}");
            assert_eq!(events[0]["type"], "error");
            let message = events[0]["message"].as_str().unwrap();
            assert!(message.contains(words), "{message}");
        }
        // And the engine still searches.
        let events = events(
            &mut engine,
            r#"{"slot":0,"id":2,"line":{"game":"offboard"},"depth":2}"#,
        );
        assert_eq!(events.last().unwrap()["type"], "bestmove");
    }
}
