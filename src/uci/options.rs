//! The engine's own options, one table as Stockfish's: each entry declares the option's
//! name, type, default and what setting it does, so that `uci` lists and `setoption` parses
//! the same options. A name not in the table is tried as a rule option of a game.
//!
//! The settings live in [`Engine`], beside the game's session, and each change of game hands
//! them to the new session: a session's result never depends on the order options were set.

use super::output::Output;
use super::session::GameSession;
use crate::cli::{MAX_HASH_MB, MAX_THREADS};
use crate::games::{GAME_NAMES, GameVisitor, with_game};
use crate::matches::Adjudication;
use crate::nnue::EvalKind;
use crate::nnue::choice::{self, EMBEDDED};
use crate::options::OptionType;
use crate::players::BotKind;
use crate::profile::Profile;
use crate::search::{ParamChanges, Skill};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Default transposition table size in MB (the `Hash` option).
pub const DEFAULT_HASH_MB: usize = 64;
pub use crate::search::MAX_MULTIPV;
/// Largest `MaxPlies` value.
pub const MAX_PLIES_LIMIT: usize = 1_000_000;
/// Largest `Move Overhead` value.
pub const MAX_MOVE_OVERHEAD_MS: usize = 5000;

/// The engine between commands: the options' settings, kept across changes of game, and
/// the session of the game played.
pub(super) struct Engine {
    pub(super) out: Output,
    pub(super) hash_megabytes: usize,
    pub(super) threads: usize,
    pub(super) multipv: usize,
    pub(super) skill: Skill,
    /// `UCI_LimitStrength` and `UCI_Elo`: when set, the Elo decides the level (through the
    /// game's table at each `go`, so that the order of `Game` and these does not matter).
    pub(super) limit_strength: bool,
    pub(super) uci_elo: i32,
    pub(super) ponder: bool,
    pub(super) move_overhead: Duration,
    /// `Evaluation` as set (`None`: the game's default). Kept across changes of game, so
    /// that the engine does not depend on the order in which options were set.
    pub(super) evaluation: Option<EvalKind>,
    /// `EvalFile` as set (`None`: the built-in network); it applies while its game is played.
    pub(super) eval_file: Option<EvalFile>,
    /// `SearchParams`: changes to every game's search margins.
    pub(super) search_params: ParamChanges,
    /// The options (name, value) given on the command line.
    pub(super) startup: Vec<(String, String)>,
    /// The rule options (name, value) of every game, as last set on the command line or by
    /// `setoption`: a game chosen with `Game` starts with those that are its own.
    pub(super) rules: Vec<(String, String)>,
    /// `MaxPlies` and `RepetitionDraw`: kept here so that they survive a change of game.
    pub(super) adjudication: Adjudication,
    pub(super) player: Option<BotKind>,
    pub(super) session: Box<dyn GameSession>,
}

/// A network file chosen with `EvalFile`, and the game it is for.
pub(super) struct EvalFile {
    pub path: PathBuf,
    pub game: String,
}

/// Reads and checks a network file for the game it names.
pub(super) struct CheckNetwork<'a>(&'a Path);

impl GameVisitor for CheckNetwork<'_> {
    type Output = Result<(), String>;
    fn visit<G: Profile>(self) -> Result<(), String> {
        choice::load::<G>(self.0).map(|_| ())
    }
}

/// One engine option.
pub(super) struct EngineOption {
    pub name: &'static str,
    pub kind: Kind,
    /// The default `uci` shows.
    pub default: Shown,
}

/// An option's type with what setting a value does; the value reaches the setter checked
/// against the type (a check as `bool`, a spin in its range).
pub(super) enum Kind {
    Button(fn(&mut Engine)),
    Check(fn(&mut Engine, bool)),
    Spin {
        /// `min..=max`, from the games' tables where it depends on them.
        range: fn() -> (usize, usize),
        set: fn(&mut Engine, usize) -> Result<(), String>,
    },
    /// A combo of these values, which `set` parses and refuses in its own words.
    Combo(&'static [&'static str], TextSetter),
    String(TextSetter),
}

type TextSetter = fn(&mut Engine, &str) -> Result<(), String>;

/// The default an option line shows.
pub(super) enum Shown {
    /// The value the command line gave, else this one.
    Given(fn() -> String),
    /// The value in force: an option whose default is the game's own.
    InForce(fn(&Engine) -> String),
    /// None (a button).
    None,
}

impl Kind {
    /// The protocol type, for the `option` line.
    pub fn protocol_type(&self) -> OptionType {
        match self {
            Kind::Button(_) => OptionType::Button,
            Kind::Check(_) => OptionType::Check,
            Kind::Spin { range, .. } => {
                let (min, max) = range();
                OptionType::Spin { min, max }
            }
            Kind::Combo(vars, _) => OptionType::Combo(vars),
            Kind::String(_) => OptionType::String,
        }
    }
}

/// The bounds of `UCI_Elo`: the games' lowest and highest level Elo.
fn elo_range() -> (usize, usize) {
    let (low, high) = crate::games::level_elo_range();
    (low.max(0) as usize, high.max(0) as usize)
}

/// The engine's options, in the order `uci` lists them (the rule options of the game follow).
pub(super) const OPTIONS: &[EngineOption] = &[
    EngineOption {
        name: "Hash",
        kind: Kind::Spin {
            range: || (1, MAX_HASH_MB),
            set: |engine, megabytes| {
                engine.session.set_hash(megabytes)?;
                engine.hash_megabytes = megabytes;
                Ok(())
            },
        },
        default: Shown::Given(|| DEFAULT_HASH_MB.to_string()),
    },
    EngineOption {
        name: "Threads",
        kind: Kind::Spin {
            range: || (1, MAX_THREADS),
            set: |engine, threads| {
                engine.threads = threads;
                engine.session.set_threads(threads);
                Ok(())
            },
        },
        default: Shown::Given(|| "1".to_string()),
    },
    EngineOption {
        name: "Clear Hash",
        kind: Kind::Button(|engine| engine.session.clear_hash()),
        default: Shown::None,
    },
    EngineOption {
        name: "Evaluation",
        kind: Kind::Combo(&["classical", "network"], |engine, value| {
            let kind: EvalKind = value
                .parse()
                .map_err(|e| format!("option Evaluation: {e}"))?;
            engine.evaluation = Some(kind);
            engine.apply_evaluation();
            Ok(())
        }),
        default: Shown::InForce(|engine| {
            engine
                .evaluation
                .unwrap_or_else(|| engine.session.default_evaluation())
                .to_string()
        }),
    },
    EngineOption {
        name: "EvalFile",
        kind: Kind::String(|engine, value| {
            engine.eval_file = if value == EMBEDDED {
                None
            } else {
                // Checked for its own game now, so that a bad file is refused when named.
                let path = PathBuf::from(value);
                let game = choice::game_of(&path)?;
                with_game(&game, CheckNetwork(&path))??;
                Some(EvalFile { path, game })
            };
            engine.apply_evaluation();
            Ok(())
        }),
        default: Shown::Given(|| EMBEDDED.to_string()),
    },
    EngineOption {
        name: "SearchParams",
        kind: Kind::String(|engine, value| {
            let changes: ParamChanges = value
                .parse()
                .map_err(|e| format!("option SearchParams: {e}"))?;
            engine
                .session
                .set_search_params(&changes)
                .map_err(|e| format!("option SearchParams: {e}"))?;
            engine.search_params = changes;
            Ok(())
        }),
        default: Shown::Given(|| "none".to_string()),
    },
    EngineOption {
        name: "Ponder",
        kind: Kind::Check(|engine, on| engine.ponder = on),
        default: Shown::Given(|| "false".to_string()),
    },
    EngineOption {
        name: "MultiPV",
        kind: Kind::Spin {
            range: || (1, MAX_MULTIPV),
            set: |engine, lines| {
                engine.multipv = lines;
                Ok(())
            },
        },
        default: Shown::Given(|| "1".to_string()),
    },
    EngineOption {
        name: "Skill Level",
        kind: Kind::Spin {
            range: || (0, Skill::MAX_LEVEL as usize),
            set: |engine, level| {
                engine.skill = Skill::new(level as u32)?;
                Ok(())
            },
        },
        default: Shown::Given(|| Skill::MAX_LEVEL.to_string()),
    },
    EngineOption {
        name: "UCI_LimitStrength",
        kind: Kind::Check(|engine, on| engine.limit_strength = on),
        default: Shown::Given(|| "false".to_string()),
    },
    EngineOption {
        name: "UCI_Elo",
        kind: Kind::Spin {
            range: elo_range,
            set: |engine, elo| {
                engine.uci_elo = elo as i32;
                Ok(())
            },
        },
        default: Shown::Given(|| elo_range().0.to_string()),
    },
    EngineOption {
        name: "Move Overhead",
        kind: Kind::Spin {
            range: || (0, MAX_MOVE_OVERHEAD_MS),
            set: |engine, millis| {
                engine.move_overhead = Duration::from_millis(millis as u64);
                Ok(())
            },
        },
        default: Shown::Given(|| crate::search::DEFAULT_MOVE_OVERHEAD.as_millis().to_string()),
    },
    EngineOption {
        name: "Game",
        kind: Kind::Combo(GAME_NAMES, |engine, value| {
            let game = game_by_name(value)?;
            engine.switch_game(game);
            Ok(())
        }),
        default: Shown::Given(|| GAME_NAMES[0].to_string()),
    },
    EngineOption {
        name: "MaxPlies",
        kind: Kind::Spin {
            range: || (0, MAX_PLIES_LIMIT),
            set: |engine, plies| {
                engine.adjudication.max_plies = plies;
                engine.session.set_adjudication(engine.adjudication);
                Ok(())
            },
        },
        default: Shown::Given(|| "0".to_string()),
    },
    EngineOption {
        name: "RepetitionDraw",
        kind: Kind::Check(|engine, on| {
            engine.adjudication.repetition_draw = on;
            engine.session.set_adjudication(engine.adjudication);
        }),
        default: Shown::Given(|| "false".to_string()),
    },
];

/// The option of `name`, without regard to case.
pub(super) fn find(name: &str) -> Option<&'static EngineOption> {
    OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// The one of [`GAME_NAMES`] that `value` names, without regard to case.
fn game_by_name(value: &str) -> Result<&'static str, String> {
    GAME_NAMES
        .iter()
        .find(|n| n.eq_ignore_ascii_case(value))
        .copied()
        .ok_or_else(|| {
            format!(
                "option Game value '{value}' is not one of: {}",
                GAME_NAMES.join(", ")
            )
        })
}

/// Parses a check option's value.
pub(super) fn check(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "option {name} value '{value}' is not true or false"
        )),
    }
}

/// Parses a spin option's value.
pub(super) fn spin(name: &str, value: &str, min: usize, max: usize) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "option {name} value '{value}' is not a whole number in {min}..={max}"
        )),
    }
}
