//! Options as the protocol declares them (`option name … type …`), written once for both kinds:
//! the engine's own options (`src/uci/options.rs`) and each game's rule options
//! ([`RuleOption`]), whose one declaration gives the protocol its `option` lines and
//! `setoption`, the command line its rule flags (`src/cli/args.rs`) and the GUI its rule
//! controls (`src/gui/state.rs`).

use crate::phrase::Phrase;

/// An option's type in the protocol, with the values it allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionType {
    /// Pressed, never set: takes no value.
    Button,
    /// `true` or `false`.
    Check,
    /// A whole number in `min..=max`.
    Spin { min: usize, max: usize },
    /// One of the listed values.
    Combo(&'static [&'static str]),
    /// Any text.
    String,
}

impl OptionType {
    /// The `option` line of option `name` with `default` as its default.
    pub fn line(&self, name: &str, default: &str) -> String {
        match self {
            OptionType::Button => format!("option name {name} type button"),
            OptionType::Check => format!("option name {name} type check default {default}"),
            OptionType::Spin { min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionType::Combo(vars) => {
                let vars: String = vars.iter().map(|var| format!(" var {var}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            OptionType::String => format!("option name {name} type string default {default}"),
        }
    }

    /// The type's word in the protocol (`check`, `spin`, …).
    pub fn word(&self) -> &'static str {
        match self {
            OptionType::Button => "button",
            OptionType::Check => "check",
            OptionType::Spin { .. } => "spin",
            OptionType::Combo(_) => "combo",
            OptionType::String => "string",
        }
    }

    /// The values a combo allows (none for the other types).
    pub fn vars(&self) -> &'static [&'static str] {
        match self {
            OptionType::Combo(vars) => vars,
            _ => &[],
        }
    }

    /// A value given on the command line as an `option` line shows it for its default:
    /// checks and combos in lower case, as they are listed; other values as given.
    pub fn shown(&self, value: &str) -> String {
        match self {
            OptionType::Check | OptionType::Combo(_) => value.to_ascii_lowercase(),
            _ => value.to_string(),
        }
    }
}

/// A rule option of a game, declared once: the protocol's option, the command-line flag
/// that sets it and how it changes the game's `Rules`.
pub struct RuleOption<R: 'static> {
    /// The option's name in the protocol (`ExtraMove`), matched without regard to case.
    pub name: &'static str,
    pub kind: OptionType,
    /// The value of the default rules, as the `option` line shows it.
    pub default: &'static str,
    pub flag: RuleFlag,
    /// Sets the option to `value` in the rules, or says why `value` is not one of its values
    /// (the rules are then unchanged).
    pub apply: fn(&mut R, &str) -> Result<(), Phrase>,
}

impl<R> RuleOption<R> {
    /// What the protocol, the command line and the GUI read of the option, whatever the
    /// game's rules type.
    pub fn info(&'static self) -> RuleInfo {
        RuleInfo {
            name: self.name,
            kind: self.kind,
            default: self.default,
            flag: &self.flag,
        }
    }
}

/// A [`RuleOption`] without its setter.
#[derive(Clone, Copy)]
pub struct RuleInfo {
    pub name: &'static str,
    pub kind: OptionType,
    pub default: &'static str,
    pub flag: &'static RuleFlag,
}

/// The command-line flag of a rule option.
pub struct RuleFlag {
    /// The flag without its dashes (`repeat-rule`).
    pub long: &'static str,
    pub value: FlagValue,
    /// The flag's line in `--help`.
    pub help: &'static str,
}

/// What a rule flag takes.
pub enum FlagValue {
    /// A value, shown in `--help` under this name (`--repeat-rule <RULE>`).
    Named(&'static str),
    /// Nothing: the flag sets the option to this value (`--no-extra-move`: `false`).
    Sets(&'static str),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_the_protocols() {
        assert_eq!(
            OptionType::Combo(&["a", "b"]).line("X Y", "a"),
            "option name X Y type combo default a var a var b"
        );
        assert_eq!(
            OptionType::Spin { min: 1, max: 9 }.line("N", "2"),
            "option name N type spin default 2 min 1 max 9"
        );
        assert_eq!(
            OptionType::Button.line("Clear Hash", ""),
            "option name Clear Hash type button"
        );
        assert_eq!(OptionType::Check.shown("TRUE"), "true");
        assert_eq!(OptionType::String.shown("S1"), "S1");
    }
}
