//! Akiba (Kuba, Traboulet): push marbles on a 7x7 board, win 7 reds or clear the opponent.
//! The rules are `docs/rules/engine/akiba.md`.

mod board;
pub mod eval;
mod fen;
mod inputs;
mod movegen;
mod moves;
mod position;
mod profile;
mod taught;
mod view;
pub mod weights;
mod zobrist;

pub use board::{Direction, Square};
pub use fen::PositionError;
pub use moves::{Move, ParseMoveError};
pub use position::{Marble, Position};

use crate::diagram;
use crate::evaluation::Evaluation;
use crate::game::{Game, Player};
use crate::options::{FlagValue, OptionType, RuleFlag, RuleOption};
use crate::phrase::Phrase;
use crate::search_hints::SearchHints;
use std::fmt;
use std::str::FromStr;

/// How a repeated row is prevented.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RepeatRule {
    /// The push-back rule of docs/rules/engine/akiba.md: after a capture-free push whose front marble is the opponent's, the
    /// opponent may not push that marble straight back with their next move.
    #[default]
    PushBack,
    /// A push may not recreate the board as it stood before the opponent's last push.
    Ko,
}

impl FromStr for RepeatRule {
    type Err = Phrase;
    fn from_str(s: &str) -> Result<RepeatRule, Phrase> {
        match s.to_ascii_lowercase().as_str() {
            "pushback" => Ok(RepeatRule::PushBack),
            "ko" => Ok(RepeatRule::Ko),
            _ => Err(
                Phrase::new("unknown repeat rule '{text}', expected 'pushback' or 'ko'")
                    .with("text", s),
            ),
        }
    }
}

impl fmt::Display for RepeatRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RepeatRule::PushBack => "pushback",
            RepeatRule::Ko => "ko",
        })
    }
}

/// The rule variants Akiba can be played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// A capture gives the mover another move (docs/rules/engine/akiba.md, "Captures and the extra move"). Off in some other Kuba programs.
    pub extra_move: bool,
    pub repeat: RepeatRule,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            extra_move: true,
            repeat: RepeatRule::PushBack,
        }
    }
}

/// The width of the diagram's labels (`marbles left:`).
const LABEL_WIDTH: usize = 13;

/// Akiba's rule options.
const RULE_OPTIONS: &[RuleOption<Rules>] = &[
    RuleOption {
        name: "ExtraMove",
        kind: OptionType::Check,
        default: "true",
        flag: RuleFlag {
            long: "no-extra-move",
            value: FlagValue::Sets("false"),
            help: "Akiba: captures do not give an extra move (engine option ExtraMove=false)",
        },
        apply: |rules, value| {
            rules.extra_move = match value.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(Phrase::new("{option} value '{value}' is not true or false")
                        .with("option", "ExtraMove")
                        .with("value", value));
                }
            };
            Ok(())
        },
    },
    RuleOption {
        name: "RepeatRule",
        kind: OptionType::Combo(&["pushback", "ko"]),
        default: "pushback",
        flag: RuleFlag {
            long: "repeat-rule",
            value: FlagValue::Named("RULE"),
            help: "Akiba: how undoing the opponent's push is prevented: `pushback` (the default) \
                   or `ko` (engine option RepeatRule)",
        },
        apply: |rules, value| {
            rules.repeat = value.parse()?;
            Ok(())
        },
    },
];

impl Game for Position {
    crate::game::game_module_items!();

    const NAME: &'static str = "akiba";

    fn rule_options() -> &'static [RuleOption<Rules>] {
        RULE_OPTIONS
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..7).rev() {
            out.push_str(&format!("{}  ", rank + 1));
            for file in 0..7 {
                let ch = self
                    .marble_at(Square::new(file, rank))
                    .map_or('.', Marble::letter);
                out.push(ch);
                out.push(if file < 6 { ' ' } else { '\n' });
            }
        }
        out.push_str("   a b c d e f g\n\n");
        let name = |p: Player| if p == Player::One { "white" } else { "black" };
        out.push_str(&format!(
            "reds won:     white {}, black {}\n",
            self.reds_won[0], self.reds_won[1]
        ));
        out.push_str(&format!(
            "marbles left: white {}, black {}, red {}\n",
            self.marbles[0].count_ones(),
            self.marbles[1].count_ones(),
            self.marbles[2].count_ones()
        ));
        let special = self.extra.then_some("extra move after a capture: may pass");
        out.push_str(&diagram::to_move(LABEL_WIDTH, name(self.side), special));
        out.push_str(&format!(
            "banned:       {}\n",
            self.banned_move().map_or("-".to_string(), |mv| format!(
                "{mv} (no immediate push-back)"
            ))
        ));
        out.push_str(&format!(
            "rules:        extra move {}, repeat rule {}\n",
            if self.rules.extra_move { "on" } else { "off" },
            self.rules.repeat
        ));
        out.push_str(&diagram::ending(
            self,
            LABEL_WIDTH,
            |p| name(p).to_string(),
            "",
        ));
        out
    }
}

impl Evaluation for Position {
    crate::evaluation::evaluation_module_items!(network: include_bytes!("../../networks/akiba.nnue"));

    const NETWORK_BUCKETS: usize = inputs::BUCKETS;

    fn network_bucket(&self) -> usize {
        inputs::bucket(self)
    }

    /// The network beat the classical evaluation at `movetime=20` and at `clock=10+0.1`
    /// (docs/strength.md).
    const NETWORK_BY_DEFAULT: bool = true;
}

impl SearchHints for Position {
    /// No futility pruning of quiet moves and no table in quiescence: neither gained at
    /// `movetime=20`; late moves reduced a ply more outside the principal variation and two
    /// more at expected cut nodes, and the time from the search's course, which gained
    /// (docs/experiments.md).
    const SEARCH_PARAMS: &'static [(&'static str, i32)] = &[
        ("futility_depth", 0),
        ("quiescence_table", 0),
        ("lmr_non_pv", 100),
        ("lmr_cut_node", 200),
        ("tm_stability", 6),
        ("tm_nodes", 200),
        ("tm_score", 100),
    ];

    fn null_move(&self) -> Option<Position> {
        Position::null_move(self)
    }

    fn is_tactical(&self, mv: Move) -> bool {
        self.is_capture(mv)
    }
}
