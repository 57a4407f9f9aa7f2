//! The toy game of docs/new-game.md, whole: a game module laid out as the three games are,
//! whose trait impls are the page's sample word for word (the first test checks that), so
//! the page shows what compiles. The game is Take-away: a pile of stones, each player in
//! turn takes one to `TakeMax` (3, or 2 under the rule option) of them, and who takes the
//! last stone wins. The other tests play it through the crate's generic code: perft, the
//! rule options and the search.

use serde_json::{Value, json};
use shove::evaluation::Evaluation;
use shove::game::{Game, MoveList, Outcome, Player};
use shove::options::{FlagValue, OptionType, RuleFlag, RuleOption};
use shove::phrase::{Phrase, Phrased};
use shove::profile::Profile;
use shove::search::{Limits, Searcher};
use shove::search_hints::SearchHints;
use shove::taught::{Goal, Taught};
use shove::view::{CellView, View};
use std::fmt;
use std::str::FromStr;

/// The code block of docs/new-game.md's "The `impl Game`" section.
const PAGE: &str = include_str!("../docs/new-game.md");
/// This file.
const SOURCE: &str = include_str!("new_game.rs");

/// Stones on the pile at the start.
const START_STONES: u8 = 21;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The most stones one move takes.
    take_max: u8,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules { take_max: 3 }
    }
}

/// A move: the number of stones taken, written as that number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Move(u8);

impl Move {
    const INDEX_LIMIT: usize = 3;

    fn index(self) -> usize {
        usize::from(self.0) - 1
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A move that is not a number of stones 1..=3.
#[derive(Debug)]
pub struct MoveSyntax(String);

impl Phrased for MoveSyntax {
    fn phrase(&self) -> Phrase {
        Phrase::new("'{text}' is not 1, 2 or 3").with("text", &self.0)
    }
}

impl fmt::Display for MoveSyntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.phrase())
    }
}

impl FromStr for Move {
    type Err = MoveSyntax;

    fn from_str(text: &str) -> Result<Move, MoveSyntax> {
        match text.parse() {
            Ok(n @ 1..=3) => Ok(Move(n)),
            _ => Err(MoveSyntax(text.to_string())),
        }
    }
}

/// A position string that is not `<stones> <1|2>`.
#[derive(Debug)]
pub struct PositionError(String);

impl Phrased for PositionError {
    fn phrase(&self) -> Phrase {
        Phrase::new("'{text}' is not '<stones> <player 1 or 2>'").with("text", &self.0)
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.phrase())
    }
}

impl std::error::Error for PositionError {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    rules: Rules,
    side: Player,
    hash: u64,
    stones: u8,
}

impl Position {
    fn new(rules: Rules, stones: u8, side: Player) -> Position {
        let hash = u64::from(stones).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ side.index() as u64;
        Position {
            rules,
            side,
            hash,
            stones,
        }
    }

    fn start(rules: Rules) -> Position {
        Position::new(rules, START_STONES, Player::One)
    }

    fn parse(text: &str, rules: Rules) -> Result<Position, PositionError> {
        let error = || PositionError(text.to_string());
        let (stones, side) = text.split_once(' ').ok_or_else(error)?;
        let side = match side {
            "1" => Player::One,
            "2" => Player::Two,
            _ => return Err(error()),
        };
        Ok(Position::new(
            rules,
            stones.parse().map_err(|_| error())?,
            side,
        ))
    }

    fn legal_moves(&self, moves: &mut MoveList<Move>) {
        for n in 1..=self.rules.take_max.min(self.stones) {
            moves.push(Move(n));
        }
    }

    fn count_moves(&self) -> usize {
        usize::from(self.rules.take_max.min(self.stones))
    }

    fn play(&mut self, mv: Move) {
        *self = Position::new(self.rules, self.stones - mv.0, self.side.other());
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then(|| Outcome::Win(self.side.other()))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.stones, self.side.index() + 1)
    }
}

/// The classical evaluation: lost when the pile is a multiple of one more than a move takes.
mod eval {
    use super::Position;
    use shove::linear::Terms;

    pub fn term_names() -> Vec<String> {
        vec!["winning pile".to_string()]
    }

    pub fn features(position: &Position, terms: &mut impl Terms) {
        let lost = position.stones.is_multiple_of(position.rules.take_max + 1);
        terms.add(0, if lost { -1 } else { 1 });
    }

    pub fn material(_position: &Position) -> i32 {
        0
    }
}

mod weights {
    pub const WEIGHTS: [i32; 1] = [100];
}

/// The network's inputs: one per pile size.
mod inputs {
    use super::Position;
    use shove::nnue::Inputs;

    pub const INPUTS: usize = 64;

    pub fn network_view(position: &Position, inputs: &mut Inputs) {
        inputs.clear();
        inputs.push(usize::from(position.stones).min(INPUTS - 1));
    }

    /// Both players see the same pile.
    pub fn mirror(input: usize) -> usize {
        input
    }
}

/// Take-away's rule option.
const RULE_OPTIONS: &[RuleOption<Rules>] = &[RuleOption {
    name: "TakeMax",
    kind: OptionType::Combo(&["3", "2"]),
    default: "3",
    flag: RuleFlag {
        long: "take-max",
        value: FlagValue::Named("N"),
        help: "Take-away: the most stones one move takes, 3 (default) or 2",
    },
    apply: |rules, value| {
        rules.take_max = match value {
            "3" => 3,
            "2" => 2,
            _ => return Err(Phrase::new("TakeMax '{value}': expected 3 or 2").with("value", value)),
        };
        Ok(())
    },
}];

// docs/new-game.md: the sample starts here.
impl Game for Position {
    shove::game::game_module_items!();

    const NAME: &'static str = "take-away"; // --game and the Game option

    // Each declared once for the protocol, the command-line flags and the GUI.
    fn rule_options() -> &'static [RuleOption<Rules>] {
        RULE_OPTIONS
    }

    // `shove show`, the protocol's `d`.
    fn diagram(&self) -> String {
        let pile = "o ".repeat(usize::from(self.stones));
        let side = format!("player {}", self.side.index() + 1);
        let mut out = format!("{}\n\n", pile.trim_end());
        out.push_str(&shove::diagram::to_move(8, &side, None));
        out.push_str(&shove::diagram::ending(
            self,
            8,
            |p| format!("player {}", p.index() + 1),
            "",
        ));
        out
    }
}

impl Evaluation for Position {
    // No built-in network yet: the classical evaluation plays.
    shove::evaluation::evaluation_module_items!();
}

impl SearchHints for Position {
    // Searched first and in quiescence: none here.
    fn is_tactical(&self, _mv: Move) -> bool {
        false
    }
}

impl View for Position {
    const PLAYERS: [&'static str; 2] = ["player 1", "player 2"];

    // The pile as a row of cells, a stone on each of the first `stones`.
    fn cells(&self) -> Vec<CellView> {
        (0..START_STONES)
            .map(|k| CellView {
                cell: format!("s{k}"),
                x: f32::from(k),
                y: 0.0,
                content: if k < self.stones { "red" } else { "empty" },
            })
            .collect()
    }

    fn extras(&self) -> Value {
        json!({ "stones": self.stones })
    }

    fn phase(&self) -> String {
        format!("take 1 to {} stones", self.rules.take_max.min(self.stones))
    }

    // A move is a word (the number taken), on no cell.
    fn move_cells(_mv: Move) -> (Option<String>, Option<String>) {
        (None, None)
    }

    fn events(_before: &Self, _mv: Move, _after: &Self) -> Vec<Value> {
        Vec::new()
    }
}

impl Taught for Position {
    const GOALS: &'static [&'static str] = &["win"]; // what its lessons may ask
    const COLOURS: &'static [&'static str] = &[];

    fn content(&self, _cell: &str) -> Option<&'static str> {
        None
    }

    fn on_board(&self, _colour: &str) -> u32 {
        0
    }

    fn own_goal(goal: &Goal, _before: &Self, _after: &Self) -> Result<(), Phrase> {
        Err(shove::taught::unexpected(goal))
    }
}

impl Profile for Position {
    const RESULT_SCALE: f64 = 0.01; // sigmoid(K · score): a score's winning chance
    const REVIEW_DEPTH: u32 = 8; // `shove review`'s depth
    const REVIEW_CONFIRMATION: u32 = 2; // plies deeper before a `?` mark stands
    const LEVEL_ELO: [i32; 21] = [0; 21]; // each Skill Level's Elo, from `shove rate`
    const BENCH: (&'static [&'static str], u32) = (&["21 1", "10 2"], 12); // `shove bench`
    const OPENINGS: &'static str = "20 2\n19 2\n18 2\n"; // matches start from these
    const PUZZLES: &'static str = ""; // positions/puzzles/<game>.txt
    const LESSONS: &'static str = ""; // src/lessons/<game>.txt
}
// docs/new-game.md: the sample ends here.

#[test]
fn the_page_shows_this_impl() {
    let code = |text: &'static str, start: &str, end: &str| -> &'static str {
        let from = text.find(start).map(|at| at + start.len());
        let to = from.and_then(|from| text[from..].find(end).map(|at| from + at));
        match (from, to) {
            (Some(from), Some(to)) => &text[from..to],
            _ => panic!("no '{start}' … '{end}'"),
        }
    };
    let sample = code(
        SOURCE,
        "// docs/new-game.md: the sample starts here.\n",
        "// docs/new-game.md: the sample ends here.",
    );
    let shown = code(PAGE, "```rust\n", "```");
    assert_eq!(
        shown, sample,
        "docs/new-game.md's sample differs from tests/new_game.rs"
    );
}

#[test]
fn the_generic_code_plays_it() {
    let start = Position::start(Rules::default());
    assert_eq!(shove::perft::perft(&start, 3), 27);
    assert_eq!(
        start.to_string().parse::<Position>().ok(),
        Some(start.clone())
    );
    let mut rules = Rules::default();
    assert!(matches!(
        Position::set_rule_option(&mut rules, "takemax", "2"),
        Ok(true)
    ));
    assert_eq!(shove::perft::perft(&Position::start(rules), 3), 8);
    assert!(Position::set_rule_option(&mut rules, "TakeMax", "4").is_err());
    assert!(matches!(
        Position::set_rule_option(&mut rules, "Other", "4"),
        Ok(false)
    ));
    assert!(start.diagram().contains("player 1"));
}

/// The products' generic code takes it through its [`Profile`]: `shove bench` searches its
/// bench positions, and matches read its openings.
#[test]
fn the_products_take_it() {
    let mut report = Vec::new();
    shove::cli::bench::<Position>(None, 1, None, &mut report).unwrap();
    let report = String::from_utf8(report).unwrap();
    assert!(
        report.lines().last().unwrap().contains(" nodes "),
        "{report}"
    );
    let openings =
        shove::matches::openings::parse::<Position>(Position::OPENINGS, Rules::default());
    assert_eq!(openings.unwrap().len(), 3);
}

/// The search finds the winning move: leave a multiple of four.
#[test]
fn the_search_plays_it() {
    let position = Position::parse("10 1", Rules::default()).unwrap();
    let limits = Limits {
        depth: Some(12),
        ..Limits::default()
    };
    let result = Searcher::<Position>::new(1).search(&position, &[], &limits, 1, &mut |_| {});
    assert_eq!(result.best, Some(Move(2)));
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Position, PositionError> {
        Position::parse(text, Rules::default())
    }
}
