//! Offboard (Abalone Offboard): push opposing marbles off a 61-cell hexagonal board into
//! scoring sectors worth 1 to 3 points; 6 points win. The rules are
//! `docs/rules/engine/offboard.md`; the start cells and the sector values are that page's
//! reconstructions, so the values are a rule option ([`Rules`]) and any start can be
//! loaded as a position string.

mod board;
pub mod eval;
mod fen;
mod inputs;
mod movegen;
mod moves;
mod position;
mod profile;
mod sectors;
mod taught;
mod view;
pub mod weights;
mod zobrist;

pub use board::{CELLS, Cell, Direction, ParseCellError};
pub use fen::PositionError;
pub use moves::{Move, ParseMoveError};
pub use position::{MARBLES_PER_PLAYER, POINTS_TO_WIN, Position};
pub use sectors::{DEFAULT_SECTOR_VALUES, Exit, Rules, RulesError, SECTORS, ring_exit};

use crate::diagram;
use crate::evaluation::Evaluation;
use crate::game::{Game, Player};
use crate::options::{FlagValue, OptionType, RuleFlag, RuleOption};
use crate::phrase::{Phrase, Phrased};
use crate::search_hints::SearchHints;
use position::colour_name;

/// The engine option that sets the sector values.
pub const SECTORS_OPTION: &str = "OffboardSectors";

/// The main-diagonal corner cells and the way off the board that lands on each ring corner,
/// in the order of the ring's corners (for the diagram).
const CORNER_EXITS: [(&str, Direction); 6] = [
    ("a1", Direction::SW),
    ("a5", Direction::SE),
    ("e9", Direction::E),
    ("i9", Direction::NE),
    ("i5", Direction::NW),
    ("e1", Direction::W),
];

/// The width of the diagram's labels (`to move:`).
const LABEL_WIDTH: usize = 8;

/// Offboard's rule option: the sector values.
const RULE_OPTIONS: &[RuleOption<Rules>] = &[RuleOption {
    name: SECTORS_OPTION,
    kind: OptionType::String,
    default: "1,2,3,3,2,1,1,2,3,3,2,1",
    flag: RuleFlag {
        long: "offboard-sectors",
        value: FlagValue::Named("V1,..,V12"),
        help: "Offboard: the values 1..3 of scoring sectors 1..12, comma-separated (default \
               1,2,3,3,2,1,1,2,3,3,2,1). These values and the start cells are reconstructions \
               (docs/rules/offboard.md): change the values here, the start with --fen",
    },
    apply: |rules, value| {
        *rules = value.parse().map_err(|e: RulesError| {
            Phrase::new("{option} '{value}': {reason}")
                .with("option", SECTORS_OPTION)
                .with("value", value)
                .with_phrase("reason", e.phrase())
        })?;
        Ok(())
    },
}];

impl Game for Position {
    crate::game::game_module_items!();

    const NAME: &'static str = "offboard";

    fn rule_options() -> &'static [RuleOption<Rules>] {
        RULE_OPTIONS
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        // Rows 9 and -1 are the ring's top and bottom, -2 holds the diagonal numbers 1..5.
        for row in (-2..=9i8).rev() {
            let mut line = [b' '; 26];
            for number in 0..=10i8 {
                let x = (2 * number - row + 6) as usize;
                if let Some(cell) = Cell::new(row, number) {
                    line[x] = match self.marble_at(cell) {
                        Some(Player::One) => b'R',
                        Some(Player::Two) => b'Y',
                        None => b'.',
                    };
                } else if let Some(exit) = sectors::ring_exit(row, number) {
                    line[x] = match exit {
                        Exit::Corner(_) => b'+',
                        Exit::Sector(s) => match self.sectors[s as usize] {
                            None => char::from_digit(u32::from(self.rules.value(s as usize)), 10)
                                .map_or(b'?', |digit| digit as u8),
                            Some(Player::One) => b'r',
                            Some(Player::Two) => b'y',
                        },
                    };
                } else if (row == -2 && (1..=5).contains(&number))
                    || ((6..=9).contains(&number) && row == number - 7)
                {
                    line[x] = b'0' + number as u8;
                }
            }
            let label = if (0..=8).contains(&row) {
                (b'a' + row as u8) as char
            } else {
                ' '
            };
            let text = String::from_utf8_lossy(&line);
            out.push_str(format!("{label}  {}", text.trim_end()).trim_end());
            out.push('\n');
        }
        out.push_str(
            "\nring: a sector's value where it is empty, r/y the marble it holds, + a corner;\n\
             the digits outside the ring number the diagonals (cells a1..i9)\n",
        );
        out.push_str("sector  ");
        for s in 1..=SECTORS {
            out.push_str(&format!("{s:>3}"));
        }
        out.push_str("\nvalue   ");
        for s in 0..SECTORS {
            out.push_str(&format!("{:>3}", self.rules.value(s)));
        }
        out.push_str("\nholds   ");
        for owner in self.sectors {
            out.push_str(match owner {
                None => "  .",
                Some(Player::One) => "  r",
                Some(Player::Two) => "  y",
            });
        }
        out.push_str("\ncorners roll into:");
        for (k, (cell, dir)) in CORNER_EXITS.iter().enumerate() {
            let sector = self.rules.sector(Exit::Corner(k as u8)) + 1;
            out.push_str(&format!(" {cell} {dir:?}->{sector}"));
        }
        out.push_str(&format!(
            "\npoints:  red {}, yellow {} ({POINTS_TO_WIN} to win)\n",
            self.points[0], self.points[1]
        ));
        let special = self
            .pending
            .then_some("has a returned marble: '@cell' re-places it, a normal move discards it");
        out.push_str(&diagram::to_move(
            LABEL_WIDTH,
            colour_name(self.side),
            special,
        ));
        let note = concat!(
            "note:    the start cells and the sector values are reconstructions (the rulebook's\n",
            "         figures are missing): load any start with --fen \"<position>\" (or\n",
            "         'position fen'); set the values with --offboard-sectors or the engine\n",
            "         option OffboardSectors (12 values 1..3 for sectors 1..12,\n",
            "         counter-clockwise from the one below a1-a2)\n",
        );
        out.push_str(&diagram::ending(
            self,
            LABEL_WIDTH,
            |p| colour_name(p).to_string(),
            note,
        ));
        out
    }
}

impl Evaluation for Position {
    crate::evaluation::evaluation_module_items!(network: include_bytes!("../../networks/offboard.nnue"));

    /// The network beat the classical evaluation at `movetime=20` (docs/strength.md).
    const NETWORK_BY_DEFAULT: bool = true;
}

impl SearchHints for Position {
    fn null_move(&self) -> Option<Position> {
        Position::null_move(self)
    }

    /// Pushes that put a marble off the board: they score or send a marble back. Re-placing
    /// is not tactical: there are dozens of them and standing pat values the pending marble.
    fn is_tactical(&self, mv: Move) -> bool {
        self.is_push_off(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_null_move_when_the_opponent_is_one_push_from_winning() {
        let parse = |text: &str, values: &str| {
            Position::parse(text, values.parse().expect("rules")).expect("position")
        };
        let defaults = "1,2,3,3,2,1,1,2,3,3,2,1";
        // offboard-tactics-15 with red to move: yellow has 5 points, any push-off wins.
        let board = "4R/2Y1Y1/1R1Y3/R1Y2Y2/R2Y1R1R1/RRR1YY1Y/5YY/6/5";
        let red = parse(&format!("{board} r 0 5 r......r..r. - 134"), defaults);
        assert!(red.null_move().is_none());
        // Yellow to move: red has no points, so yellow may pass.
        let yellow = parse(&format!("{board} y 0 5 r......r..r. - 134"), defaults);
        assert!(yellow.null_move().is_some());
        // Yellow has 3 points (a red marble in sector 3): a 3-point sector left empty makes
        // it one push from winning, 2 points at most do not.
        let start = "RR1YY/R1RY1Y/1RR1YY1/8/9/8/1RR1YY1/R1RY1Y/1R1YY r 0 3 ..r......... - 5";
        assert!(parse(start, defaults).null_move().is_none());
        assert!(
            parse(start, "1,2,3,1,2,1,1,2,1,1,2,1")
                .null_move()
                .is_some()
        );
    }

    #[test]
    fn corner_exits_are_the_ring_corners() {
        for (k, (name, dir)) in CORNER_EXITS.iter().enumerate() {
            let cell: Cell = name.parse().expect("a cell");
            assert_eq!(cell.exit(*dir), Some(Exit::Corner(k as u8)), "{name}");
        }
    }

    #[test]
    fn diagram_shows_the_board_ring_and_reconstruction_note() {
        let diagram = Position::start(Rules::default()).diagram();
        // The ring's top (sectors 8 and 7 between two corners), then row i.
        assert_eq!(diagram.lines().next(), Some("          + 2 2 1 1 +"));
        assert!(diagram.contains("\ni        3 R R . Y Y 1\n"), "{diagram}");
        assert!(diagram.contains("a        1 R R . Y Y 3 7"), "{diagram}");
        assert!(diagram.contains("reconstructions"));
        assert!(diagram.contains("OffboardSectors"));
        assert!(diagram.contains("--fen"));
        assert!(diagram.contains(Position::START));
    }
}
