//! A game as the page holds it ({game, rule options, start, moves}) turned into everything
//! the page shows: the position string, whose decision and what kind, the result, the legal
//! moves with their cells, and the board. Every move is checked by the game's rules.

use crate::game::Game;
use crate::game::{MoveList, Outcome, Player};
use crate::games::{GameVisitor, every_game, with_game};
use crate::phrase::{Phrase, Phrased};
use crate::profile::Profile;
use crate::view::CellView;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A game line: the start (a position string, or the game's start position) and the moves
/// played from it, under the given rule options (name, value).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Line {
    pub game: String,
    #[serde(default)]
    pub rules: Vec<(String, String)>,
    #[serde(default)]
    pub start: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
}

/// A legal move and the cells the page highlights for it.
#[derive(Serialize)]
pub struct LegalMove {
    pub text: String,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// Everything the page shows of the position at the end of a [`Line`].
#[derive(Serialize)]
pub struct State {
    pub game: &'static str,
    /// The position string of the current position (`#position`).
    pub position: String,
    /// The position string the line starts from.
    pub start: String,
    pub moves: Vec<String>,
    /// Who decided each move (1 or 2): sides do not simply alternate.
    pub movers: Vec<u8>,
    /// Whose decision it is now, 1 or 2.
    pub to_move: u8,
    pub players: [&'static str; 2],
    pub phase: String,
    /// `none`, `p1win`, `p2win` or `draw` (`#status[data-result]`).
    pub result: &'static str,
    pub legal: Vec<LegalMove>,
    pub cells: Vec<CellView>,
    pub extras: Value,
    /// What the last move did ([`View::events`]); empty at the start.
    pub last_events: Vec<Value>,
    /// Points a player needs to win, where the game counts points (Offboard).
    pub target: Option<u32>,
}

fn number(player: Player) -> u8 {
    player.index() as u8 + 1
}

/// The state at the end of `line`, or what is wrong with it.
pub fn state(line: &Line) -> Result<State, Phrase> {
    with_game(&line.game, Replay(line))?
}

/// The rule options of every game, for the page's rule controls.
pub fn games() -> Value {
    Value::Array(every_game(|| Options))
}

/// The legal moves at the end of `line` as text, checked the same way as [`state`]: an
/// engine's `bestmove` is accepted only if it is one of them.
pub fn check_move(line: &Line, text: &str) -> Result<(), Phrase> {
    let state = state(line)?;
    if state.legal.iter().any(|m| m.text == text) {
        Ok(())
    } else {
        Err(Phrase::new("'{move}' is not a legal move in {position}")
            .with("move", text)
            .with("position", state.position))
    }
}

/// The position `line` starts from under its rules, or what is wrong with them.
pub fn start_of<G: Game>(line: &Line) -> Result<G, Phrase> {
    let rules = crate::games::rules::<G>(&line.rules)?;
    match line.start.as_deref().map(str::trim) {
        None | Some("") | Some("startpos") => Ok(G::start(rules)),
        Some(text) => G::parse(text, rules).map_err(|e| {
            Phrase::new("bad position string: {reason}").with_phrase("reason", e.phrase())
        }),
    }
}

struct Replay<'a>(&'a Line);

impl GameVisitor for Replay<'_> {
    type Output = Result<State, Phrase>;

    fn visit<G: Profile>(self) -> Result<State, Phrase> {
        let line = self.0;
        let mut position = start_of::<G>(line)?;
        let start = position.to_string();
        let mut moves = Vec::with_capacity(line.moves.len());
        let mut movers = Vec::with_capacity(line.moves.len());
        let mut last_events = Vec::new();
        for (i, text) in line.moves.iter().enumerate() {
            let mv = position.parse_move(text.trim()).map_err(|e| {
                Phrase::new("move {n}: {reason}")
                    .with("n", i + 1)
                    .with_phrase("reason", e.phrase())
            })?;
            movers.push(number(position.to_move()));
            moves.push(mv.to_string());
            let before = (i + 1 == line.moves.len()).then(|| position.clone());
            position.play(mv);
            if let Some(before) = before {
                last_events = G::events(&before, mv, &position);
            }
        }
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        let legal = list
            .iter()
            .map(|&mv| {
                let (from, to) = G::move_cells(mv);
                LegalMove {
                    text: mv.to_string(),
                    from,
                    to,
                }
            })
            .collect();
        Ok(State {
            game: G::NAME,
            position: position.to_string(),
            start,
            moves,
            movers,
            to_move: number(position.to_move()),
            players: G::PLAYERS,
            phase: position.phase(),
            result: result_word(position.outcome()),
            legal,
            cells: position.cells(),
            extras: position.extras(),
            last_events,
            target: G::POINTS_TARGET,
        })
    }
}

/// A game's name and its rule options (name, type, default and choices).
struct Options;

impl GameVisitor for Options {
    type Output = Value;
    fn visit<G: Profile>(self) -> Value {
        let options: Vec<Value> = G::rule_options()
            .iter()
            .map(|option| {
                serde_json::json!({
                    "name": option.name,
                    "type": option.kind.word(),
                    "default": option.default,
                    "vars": option.kind.vars(),
                })
            })
            .collect();
        serde_json::json!({
            "name": G::NAME,
            "players": G::PLAYERS,
            "options": options,
            "levels": G::LEVEL_ELO,
            "review_depth": G::REVIEW_DEPTH,
        })
    }
}

/// The page's word for a game's result (`#status[data-result]`).
pub fn result_word(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "none",
        Some(Outcome::Win(Player::One)) => "p1win",
        Some(Outcome::Win(Player::Two)) => "p2win",
        Some(Outcome::Draw) => "draw",
    }
}

/// The result a [`result_word`] names; `None` for `none` and any other word.
pub fn outcome_of_word(word: &str) -> Option<Outcome> {
    [
        Outcome::Win(Player::One),
        Outcome::Win(Player::Two),
        Outcome::Draw,
    ]
    .into_iter()
    .find(|&outcome| result_word(Some(outcome)) == word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_result_word_reads_back_as_its_outcome() {
        let outcomes = [
            None,
            Some(Outcome::Win(Player::One)),
            Some(Outcome::Win(Player::Two)),
            Some(Outcome::Draw),
        ];
        for outcome in outcomes {
            assert_eq!(outcome_of_word(result_word(outcome)), outcome);
        }
        assert_eq!(outcome_of_word("p3win"), None);
    }

    fn line(game: &str, start: Option<&str>, moves: &[&str]) -> Line {
        Line {
            game: game.to_string(),
            rules: Vec::new(),
            start: start.map(str::to_string),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn a_line_is_replayed_by_the_rules() {
        let s = state(&line("akiba", None, &["f1f2", "a1a2"])).unwrap();
        assert_eq!(s.movers, vec![1, 2]);
        assert_eq!(s.to_move, 1);
        assert_eq!(s.result, "none");
        assert!(s.legal.iter().any(|m| m.text == "g1f1"
            && m.from.as_deref() == Some("g1")
            && m.to.as_deref() == Some("f1")));
        assert_eq!(s.cells.len(), 49);
        assert_eq!(s.extras["left"]["red"], 13);
    }

    #[test]
    fn bad_input_is_named() {
        let e = state(&line("akiba", None, &["f1f2", "zz"])).err().unwrap();
        assert!(e.to_string().starts_with("move 2: bad move 'zz'"), "{e}");
        let e = state(&line("akiba", None, &["a1a2"])).err().unwrap();
        assert_eq!(
            e.to_string(),
            "move 1: illegal move 'a1a2' in this position"
        );
        assert_eq!(e.to_json()["values"]["reason"]["values"]["move"], "a1a2");
        let e = state(&line("offboard", Some("garbage"), &[]))
            .err()
            .unwrap();
        assert!(e.to_string().starts_with("bad position string"), "{e}");
        assert!(state(&line("go", None, &[])).is_err());
        let mut bad_rules = line("abraxas", None, &[]);
        bad_rules.rules = vec![("AbraxasTarget".into(), "12".into())];
        assert!(state(&bad_rules).is_err());
    }

    #[test]
    fn offboard_shows_the_ring_and_abraxas_the_sheet() {
        let s = state(&line("offboard", None, &[])).unwrap();
        assert_eq!(s.cells.len(), 61);
        assert_eq!(s.extras["ring"].as_array().map(Vec::len), Some(30));
        let s = state(&line("abraxas", None, &["e4"])).unwrap();
        assert_eq!(s.cells.len(), 64);
        assert!(s.cells.iter().any(|c| c.cell == "e4" && c.content == "red"));
        assert_eq!(s.extras["pool"], 23);
    }

    #[test]
    fn engine_moves_are_checked() {
        let l = line("akiba", None, &[]);
        assert!(check_move(&l, "f1f2").is_ok());
        assert!(check_move(&l, "a1a2").is_err());
        assert!(check_move(&l, "(none)").is_err());
    }

    #[test]
    fn rule_options_are_listed() {
        let games = games();
        assert_eq!(games[0]["name"], "akiba");
        assert_eq!(
            games[0]["options"],
            serde_json::json!([
                {"name": "ExtraMove", "type": "check", "default": "true", "vars": []},
                {"name": "RepeatRule", "type": "combo", "default": "pushback",
                 "vars": ["pushback", "ko"]},
            ])
        );
        assert_eq!(
            games[1]["options"],
            serde_json::json!([{"name": "OffboardSectors", "type": "string",
                                "default": "1,2,3,3,2,1,1,2,3,3,2,1", "vars": []}])
        );
        assert_eq!(
            games[2]["options"],
            serde_json::json!([
                {"name": "AbraxasSheet", "type": "string", "default": "s1", "vars": []},
                {"name": "AbraxasTarget", "type": "combo", "default": "11", "vars": ["11", "13"]},
                {"name": "AbraxasBlue", "type": "combo", "default": "3", "vars": ["3", "2"]},
            ])
        );
    }
}
