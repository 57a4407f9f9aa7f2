//! Abraxas (M. & J. Rüttinger, Noris 1993): an 8x8 plate of holes slides counter-clockwise
//! over a 9x9 sheet of red dots; red stones and dots under empty holes form lines, and lines
//! of 4 or more are cut down, the stones taken going to the player. The rules are
//! `docs/rules/engine/abraxas.md`. The six sheets `s1`..`s6` are this engine's own (the printed
//! sheets are not described in any source we could reach); any sheet can be given as a map.

mod board;
pub mod eval;
mod fen;
mod inputs;
mod movegen;
mod moves;
mod position;
mod profile;
mod sheet;
mod taught;
mod view;
mod weights;
mod zobrist;

pub use board::lines_of;
pub use fen::PositionError;
pub use movegen::{MAX_CAPTURES, capture_sets};
pub use moves::{Move, ParseMoveError, hole_name};
pub use position::{FLAG_BLUE, FLAG_NO_BLUE, FLAG_REPLAY, Phase, Position, STONES};
pub use sheet::{Corner, Rules, Sheet};

use crate::diagram;
use crate::evaluation::Evaluation;
use crate::game::{Game, Player};
use crate::options::{FlagValue, OptionType, RuleFlag, RuleOption};
use crate::phrase::Phrase;
use crate::search_hints::SearchHints;

/// Engine option: the sheet (`s1`..`s6` or a 9-row map).
pub const SHEET_OPTION: &str = "AbraxasSheet";
/// Engine option: stones needed to win (11 or 13).
pub const TARGET_OPTION: &str = "AbraxasTarget";
/// Engine option: blue stop stones per player (3 or 2).
pub const BLUE_OPTION: &str = "AbraxasBlue";

/// The width of the diagram's labels (`to move:`).
const LABEL_WIDTH: usize = 8;

/// A rule option's value refused, and why.
fn option_error(option: &str, value: &str, reason: Phrase) -> Phrase {
    Phrase::new("{option} '{value}': {reason}")
        .with("option", option)
        .with("value", value)
        .with_phrase("reason", reason)
}

/// Abraxas' rule options.
const RULE_OPTIONS: &[RuleOption<Rules>] = &[
    RuleOption {
        name: SHEET_OPTION,
        kind: OptionType::String,
        default: "s1",
        flag: RuleFlag {
            long: "abraxas-sheet",
            value: FlagValue::Named("SHEET"),
            help: "Abraxas: the sheet, `s1`..`s6` (the engine's own sheets, not the printed \
                   ones) or a 9-row sheet map (`*` a dot, digits runs of plain cells, rows y = 8 \
                   down to 0); see docs/rules/abraxas.md",
        },
        apply: |rules, value| {
            let value = value.trim();
            rules.sheet = value
                .parse()
                .map_err(|e| option_error(SHEET_OPTION, value, e))?;
            Ok(())
        },
    },
    RuleOption {
        name: TARGET_OPTION,
        kind: OptionType::Combo(&["11", "13"]),
        default: "11",
        flag: RuleFlag {
            long: "abraxas-target",
            value: FlagValue::Named("N"),
            help: "Abraxas: stones owned to win, 11 (default) or 13",
        },
        apply: |rules, value| {
            rules.target = match value.trim() {
                "11" => 11,
                "13" => 13,
                value => {
                    let expected = Phrase::new("expected 11 or 13");
                    return Err(option_error(TARGET_OPTION, value, expected));
                }
            };
            Ok(())
        },
    },
    RuleOption {
        name: BLUE_OPTION,
        kind: OptionType::Combo(&["3", "2"]),
        default: "3",
        flag: RuleFlag {
            long: "abraxas-blue",
            value: FlagValue::Named("N"),
            help: "Abraxas: blue stop stones per player, 3 (default) or 2",
        },
        apply: |rules, value| {
            rules.blue_stones = match value.trim() {
                "3" => 3,
                "2" => 2,
                value => {
                    let expected = Phrase::new("expected 3 or 2");
                    return Err(option_error(BLUE_OPTION, value, expected));
                }
            };
            Ok(())
        },
    },
];

impl Game for Position {
    crate::game::game_module_items!();

    const NAME: &'static str = "abraxas";

    fn rule_options() -> &'static [RuleOption<Rules>] {
        RULE_OPTIONS
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        let (ox, oy) = self.corner.offset();
        let sheet = self.rules.sheet;
        out.push_str("sheet cells: * dot, . plain; plate holes: R red stone, B blue stone,\n");
        out.push_str("o empty hole over a dot (red), - empty hole\n\n");
        for y in (0..9).rev() {
            let mut line = format!("{y} ");
            let rank = y as isize - oy as isize;
            if (0..8).contains(&rank) {
                line = format!("{} ", rank + 1);
            } else {
                line.replace_range(.., "  ");
            }
            for x in 0..9 {
                let f = x as isize - ox as isize;
                let ch = if (0..8).contains(&f) && (0..8).contains(&rank) {
                    let bit = 1u64 << (f + 8 * rank);
                    if self.red & bit != 0 {
                        'R'
                    } else if self.blue & bit != 0 {
                        'B'
                    } else if sheet.has_dot(x, y) {
                        'o'
                    } else {
                        '-'
                    }
                } else if sheet.has_dot(x, y) {
                    '*'
                } else {
                    '.'
                };
                line.push(' ');
                line.push(ch);
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let mut files = String::from("   ");
        for x in 0..9 {
            let f = x as isize - ox as isize;
            files.push(' ');
            files.push(if (0..8).contains(&f) {
                char::from(b'a' + f as u8)
            } else {
                ' '
            });
        }
        out.push_str(files.trim_end());
        out.push('\n');
        let name = |p: Player| if p == Player::One { "1" } else { "2" };
        out.push_str(&format!(
            "\nplate in corner {} (next {}), sheet {}\n",
            self.corner,
            self.corner.next(),
            sheet
        ));
        out.push_str(&format!(
            "pool {}; stones owned: 1 has {}, 2 has {} ({} to win); blue stones left: 1 has {}, 2 has {}\n",
            self.pool,
            self.stones[0],
            self.stones[1],
            self.rules.target,
            self.blues[0],
            self.blues[1]
        ));
        let what = match self.phase {
            Phase::Place => "places",
            Phase::StopBefore => "may stop before the replay placement (pass or !hole)",
            Phase::StopAfter => "may stop after the replay placement (pass or !hole)",
            Phase::Decide => "decides: slide or stay",
            Phase::Capture => "takes stones (x...)",
        };
        out.push_str(&format!("player {} {what}\n", name(self.side)));
        let note = concat!(
            "note:    the sheets s1..s6 are this engine's own, NOT the printed Abraxas sheets\n",
            "         (no source describes those); give any sheet as a 9-row map with the\n",
            "         engine option AbraxasSheet\n",
        );
        out.push_str(&diagram::ending(
            self,
            LABEL_WIDTH,
            |p| format!("player {}", name(p)),
            note,
        ));
        out
    }
}

impl Evaluation for Position {
    crate::evaluation::evaluation_module_items!(network: include_bytes!("../../networks/abraxas.nnue"));

    const NETWORK_BUCKETS: usize = inputs::BUCKETS;

    fn network_bucket(&self) -> usize {
        inputs::bucket(self)
    }

    /// The network beat the classical evaluation at `movetime=20` and at `clock=10+0.1`
    /// (docs/strength.md).
    const NETWORK_BY_DEFAULT: bool = true;
}

impl SearchHints for Position {
    /// Quiet moves ordered by the butterfly history alone, and no table in quiescence:
    /// continuation histories and the table did not gain at `movetime=20`; late moves
    /// reduced a ply more outside the principal variation, which gained
    /// (docs/experiments.md).
    const SEARCH_PARAMS: &'static [(&'static str, i32)] = &[
        ("continuation_history", 0),
        ("quiescence_table", 0),
        ("lmr_non_pv", 100),
    ];

    /// Captures only. Placements that complete a line lead to a capture too, but in
    /// quiescence they chain through replays into a search as wide as the full one.
    fn is_tactical(&self, mv: Move) -> bool {
        matches!(mv, Move::Capture(_))
    }

    /// A placement: captures, stops and slide-or-stay come only after one.
    fn nothing_to_resolve(&self) -> bool {
        self.phase() == Phase::Place && self.outcome().is_none()
    }

    /// No blue stop stones: they are half of all placements and every stop decision, so
    /// random openings would spend them in the first few moves.
    fn is_opening_move(&self, mv: Move) -> bool {
        !matches!(mv, Move::Blue(_))
    }
}
