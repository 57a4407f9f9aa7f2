//! The rules every game implements, so that search, protocol and tools are written once
//! and monomorphised per game: moves, positions and their strings, the result, the rule
//! options. How a game is evaluated, searched and shown are traits of their own
//! ([`crate::evaluation`], [`crate::search_hints`], [`crate::view`], [`crate::profile`]).

use crate::options::RuleOption;
use crate::phrase::{Phrase, Phrased};
use std::fmt;
use std::mem::MaybeUninit;
use std::str::FromStr;

/// One of the two players. `One` moves first from the start position (White in Akiba).
///
/// Whose decision it is is always asked of the position ([`Game::to_move`]): sides do not
/// simply alternate (Akiba's extra move, Offboard's re-placement, Abraxas' stop stones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    One,
    Two,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 0 for player one, 1 for player two: for indexing per-player arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

/// Upper bound on the number of legal moves in any position of any game, so move lists can
/// live on the stack. Abraxas with an empty pool comes closest: up to 24 stones times 40
/// free holes, plus the blue stones.
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity list of moves, filled by [`Game::legal_moves`] without allocating.
///
/// The slots are left uninitialised until pushed: a list is made at every search node, and
/// filling a thousand slots each time would cost more than generating the moves.
#[derive(Clone)]
pub struct MoveList<M: Copy> {
    moves: [MaybeUninit<M>; MAX_MOVES],
    len: usize,
}

impl<M: Copy> MoveList<M> {
    pub fn new() -> Self {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. Generators never produce more than [`MAX_MOVES`]; more would panic
    /// here (a bounds check), never write out of bounds.
    #[inline]
    pub fn push(&mut self, mv: M) {
        self.moves[self.len].write(mv);
        self.len += 1;
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn as_slice(&self) -> &[M] {
        // SAFETY: slots 0..len were written by `push`, and `M: Copy` has no drop glue.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<M>(), self.len) }
    }
}

impl<M: Copy> Extend<M> for MoveList<M> {
    /// Appends every move, counting in a local: [`MoveList::push`] in a loop stores the
    /// move and then has to reload `len`, which the store might have changed as far as the
    /// compiler knows (perf: a third of Akiba's move generation).
    #[inline]
    fn extend<I: IntoIterator<Item = M>>(&mut self, moves: I) {
        let mut len = self.len;
        for mv in moves {
            self.moves[len].write(mv);
            len += 1;
        }
        self.len = len;
    }
}

impl<M: Copy> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy> std::ops::Deref for MoveList<M> {
    type Target = [M];
    fn deref(&self) -> &[M] {
        self.as_slice()
    }
}

/// Why a move given as text was not accepted in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    Syntax { text: String, reason: Phrase },
    /// Well-formed, but not legal here.
    Illegal { text: String },
}

impl Phrased for MoveError {
    fn phrase(&self) -> Phrase {
        match self {
            MoveError::Syntax { text, reason } => Phrase::new("bad move '{move}': {reason}")
                .with("move", text)
                .with_phrase("reason", reason.clone()),
            MoveError::Illegal { text } => {
                Phrase::new("illegal move '{move}' in this position").with("move", text)
            }
        }
    }
}

crate::phrase::display_as_phrase!(MoveError);

impl std::error::Error for MoveError {}

/// A two-player game with perfect information, as the engine sees it.
///
/// Positions are small `Clone` values: search uses copy-make (clone, then [`Game::play`]),
/// which keeps every game's state handling in one place and needs no undo records.
pub trait Game: Clone + fmt::Display + Send + Sync + 'static {
    type Move: Copy
        + Default
        + Eq
        + fmt::Debug
        + fmt::Display
        + FromStr<Err: Phrased>
        + Send
        + Sync
        + 'static;
    /// Rule variants the game can be played under (fixed for a whole game).
    type Rules: Copy + Default + fmt::Debug + Send + Sync + 'static;
    type ParseError: std::error::Error + Phrased + Send + Sync + 'static;

    /// The name used by `--game` and the protocol's `Game` option.
    const NAME: &'static str;
    fn start(rules: Self::Rules) -> Self;
    /// Parses a position string under the given rules.
    fn parse(text: &str, rules: Self::Rules) -> Result<Self, Self::ParseError>;
    fn rules(&self) -> Self::Rules;

    /// Whose decision it is now.
    fn to_move(&self) -> Player;
    /// Appends every legal move; none when the game is over.
    fn legal_moves(&self, moves: &mut MoveList<Self::Move>);
    /// Number of legal moves; games override it when they can count without listing.
    fn count_legal_moves(&self) -> usize {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.len()
    }
    /// Plays a move that [`Game::legal_moves`] produced.
    fn play(&mut self, mv: Self::Move);
    /// Zobrist key over everything that decides the future of the game.
    fn hash(&self) -> u64;
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Multi-line human-readable board diagram.
    fn diagram(&self) -> String;

    /// A dense index below [`Game::MOVE_INDEX_LIMIT`] for per-move tables (history).
    fn move_index(mv: Self::Move) -> usize;
    const MOVE_INDEX_LIMIT: usize;

    /// The game's rule options, each declared once for the protocol, the command line's
    /// flags and the GUI ([`RuleOption`]).
    fn rule_options() -> &'static [RuleOption<Self::Rules>];
    /// Applies one rule option; `Ok(false)` when the name is not a rule option of this game.
    fn set_rule_option(rules: &mut Self::Rules, name: &str, value: &str) -> Result<bool, Phrase> {
        match Self::rule_options()
            .iter()
            .find(|option| option.name.eq_ignore_ascii_case(name))
        {
            Some(option) => (option.apply)(rules, value).map(|()| true),
            None => Ok(false),
        }
    }

    /// Parses `text` as a move and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let mv: Self::Move =
            text.parse()
                .map_err(|e: <Self::Move as FromStr>::Err| MoveError::Syntax {
                    text: text.to_string(),
                    reason: e.phrase(),
                })?;
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal {
                text: text.to_string(),
            })
        }
    }
}

/// The [`Game`] items that every game connects the same way to its own module, written once:
/// used inside `impl Game for Position`, so that the impl holds only what is the game's own
/// (docs/new-game.md). The game module must have:
/// - `Move`, `Rules` and `PositionError` (the associated types), `Move::index` and
///   `Move::INDEX_LIMIT`;
/// - on `Position`: the fields `rules`, `side` and `hash` (kept up to date by `play`), and
///   inherent `start`, `parse`, `legal_moves`, `count_moves`, `play` and `outcome`;
///
/// Its evaluation is connected the same way by
/// [`crate::evaluation::evaluation_module_items!`].
/// Exported so that the toy game of docs/new-game.md (`tests/new_game.rs`) uses it too.
#[macro_export]
macro_rules! game_module_items {
    () => {
        type Move = Move;
        type Rules = Rules;
        type ParseError = PositionError;

        fn start(rules: Rules) -> Self {
            Self::start(rules)
        }

        fn parse(text: &str, rules: Rules) -> Result<Self, PositionError> {
            Self::parse(text, rules)
        }

        fn rules(&self) -> Rules {
            self.rules
        }

        fn to_move(&self) -> $crate::game::Player {
            self.side
        }

        fn legal_moves(&self, moves: &mut $crate::game::MoveList<Move>) {
            Self::legal_moves(self, moves)
        }

        fn count_legal_moves(&self) -> usize {
            self.count_moves()
        }

        fn play(&mut self, mv: Move) {
            Self::play(self, mv)
        }

        fn hash(&self) -> u64 {
            self.hash
        }

        fn outcome(&self) -> Option<$crate::game::Outcome> {
            Self::outcome(self)
        }

        fn move_index(mv: Move) -> usize {
            mv.index()
        }

        const MOVE_INDEX_LIMIT: usize = Move::INDEX_LIMIT;
    };
}
pub use crate::game_module_items;

/// `FromStr` for a game's position: its position string under the default rules (for
/// `"…".parse::<Position>()`).
macro_rules! position_from_str {
    ($position:ty) => {
        impl std::str::FromStr for $position {
            type Err = <$position as $crate::game::Game>::ParseError;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                <$position as $crate::game::Game>::parse(text, Default::default())
            }
        }
    };
}
pub(crate) use position_from_str;
