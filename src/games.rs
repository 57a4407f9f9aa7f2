//! The registry of games: the one place that names every game, so that the protocol,
//! matches, GUI and pipeline can choose a game by name at run time. It sits above the games
//! (which know only the traits they implement) and below everything that picks one. What
//! differs between games (bench positions, openings, puzzles, lessons, the picture) comes
//! with the game's [`Profile`], never from matching its name.

use crate::game::Game;
use crate::options::RuleInfo;
use crate::phrase::Phrase;
use crate::profile::Profile;
use crate::{abraxas, akiba, offboard};

/// Something to do with a game type chosen by name at run time: the game with all it
/// implements ([`Profile`] and the traits below it).
pub trait GameVisitor {
    type Output;
    fn visit<G: Profile>(self) -> Self::Output;
}

/// The names [`with_game`] knows.
pub const GAME_NAMES: &[&str] = &[
    akiba::Position::NAME,
    offboard::Position::NAME,
    abraxas::Position::NAME,
];

/// Runs `visitor` with the game called `name` (case-insensitive). A new game is one more
/// arm here (and its name in [`GAME_NAMES`]).
pub fn with_game<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, Phrase> {
    let name = name.to_ascii_lowercase();
    if name == akiba::Position::NAME {
        Ok(visitor.visit::<akiba::Position>())
    } else if name == offboard::Position::NAME {
        Ok(visitor.visit::<offboard::Position>())
    } else if name == abraxas::Position::NAME {
        Ok(visitor.visit::<abraxas::Position>())
    } else {
        Err(unknown_game(&name))
    }
}

/// `visitor()` run with every game, in the order of [`GAME_NAMES`].
pub fn every_game<V: GameVisitor>(visitor: impl Fn() -> V) -> Vec<V::Output> {
    GAME_NAMES
        .iter()
        .filter_map(|name| with_game(name, visitor()).ok())
        .collect()
}

/// A game name that [`with_game`] does not know.
pub fn unknown_game(name: &str) -> Phrase {
    Phrase::new("unknown game '{name}' (expected one of: {games})")
        .with("name", name)
        .with("games", GAME_NAMES.join(", "))
}

/// The `UCI_Elo` range: from the weakest game's level 0 to the strongest game's level 19
/// ([`Profile::LEVEL_ELO`]); each game clamps to its own table.
pub fn level_elo_range() -> (i32, i32) {
    struct Levels;
    impl GameVisitor for Levels {
        type Output = [i32; 21];
        fn visit<G: Profile>(self) -> [i32; 21] {
            G::LEVEL_ELO
        }
    }
    every_game(|| Levels)
        .into_iter()
        .fold((i32::MAX, i32::MIN), |(low, high), levels| {
            (low.min(levels[0]), high.max(levels[19]))
        })
}

/// The rules given as engine options (name, value), e.g. from the command line's rule flags
/// or a file's header; an option that is not a rule of the game is an error.
pub fn rules<G: Game>(options: &[(String, String)]) -> Result<G::Rules, Phrase> {
    let mut rules = G::Rules::default();
    for (name, value) in options {
        if !G::set_rule_option(&mut rules, name, value)? {
            return Err(Phrase::new("{option} is not a rule option of {game}")
                .with("option", name)
                .with("game", G::NAME));
        }
    }
    Ok(rules)
}

/// Checks a value of a game's rule option (name, value): `Err` says why it is not one of the
/// option's values.
pub type RuleCheck = fn(&str, &str) -> Result<(), String>;

/// Every game's rule options in the order of [`GAME_NAMES`], each with its game and a check
/// of its values: what the command line's rule flags are made from.
pub fn rule_options() -> Vec<(&'static str, RuleInfo, RuleCheck)> {
    struct Options;
    impl GameVisitor for Options {
        type Output = Vec<(&'static str, RuleInfo, RuleCheck)>;
        fn visit<G: Profile>(self) -> Self::Output {
            fn check<G: Game>(name: &str, value: &str) -> Result<(), String> {
                G::set_rule_option(&mut G::Rules::default(), name, value)
                    .map(|_| ())
                    .map_err(String::from)
            }
            G::rule_options()
                .iter()
                .map(|option| (G::NAME, option.info(), check::<G> as RuleCheck))
                .collect()
        }
    }
    every_game(|| Options).into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchParams;

    /// A game's search parameters are named
    /// ([`crate::search_hints::SearchHints::SEARCH_PARAMS`]): a misspelt name would otherwise
    /// leave the default in place.
    #[test]
    fn every_game_sets_only_search_parameters_that_exist() {
        struct Names;
        impl GameVisitor for Names {
            type Output = Vec<String>;
            fn visit<G: Profile>(self) -> Vec<String> {
                G::SEARCH_PARAMS
                    .iter()
                    .filter(|(name, _)| !SearchParams::NAMES.contains(name))
                    .map(|(name, _)| format!("{}: {name}", G::NAME))
                    .collect()
            }
        }
        for name in GAME_NAMES {
            assert_eq!(with_game(name, Names).unwrap(), Vec::<String>::new());
        }
        let akiba = SearchParams::of::<akiba::Position>();
        assert_eq!((akiba.futility_depth, akiba.lmr_cut_node), (0, 200));
    }
}
