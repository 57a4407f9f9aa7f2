//! The search's pruning and reduction constants, one set per game ([`SearchHints::SEARCH_PARAMS`]):
//! the games' evaluations differ in scale and volatility, so a margin that pays in one may
//! lose in another. A margin of 0 (or a depth of 0) turns its technique off.
//!
//! [`SearchHints::SEARCH_PARAMS`]: crate::search_hints::SearchHints::SEARCH_PARAMS

use crate::search_hints::SearchHints;
use std::sync::LazyLock;

use crate::game::MAX_MOVES;

/// Declares the parameters once: the struct, its every-technique-off and default values,
/// the names `SearchParams` takes, and the range and step SPSA tunes each in (`tune MIN..=MAX
/// step C`; a switch, 0 or 1, has none).
macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $name:ident: off $off:expr, default $default:expr
        $(, tune $min:literal..=$max:literal step $step:literal)?;)*) => {
        /// Margins in evaluation units, depths in plies, fractions in hundredths.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $name: i32,)*
        }

        impl SearchParams {
            /// Every technique off: the search as it was before they were measured.
            pub const OFF: SearchParams = SearchParams { $($name: $off,)* };

            /// The values most games start from (each game's own are in its module).
            pub const DEFAULT: SearchParams = SearchParams { $($name: $default,)* };

            /// The names `SearchParams` takes, in the struct's order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// Each parameter's name and value, in the struct's order.
            pub fn values(self) -> impl Iterator<Item = (&'static str, i32)> {
                [$((stringify!($name), self.$name)),*].into_iter()
            }

            /// The tuned parameters' ranges and steps, in the struct's order.
            pub const TUNED: &'static [Tuning] = &[
                $($(Tuning { name: stringify!($name), min: $min, max: $max, step: $step },)?)*
            ];

            fn field(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $(stringify!($name) => Some(&mut self.$name),)*
                    _ => None,
                }
            }
        }
    };
}

/// How SPSA tunes one parameter (OpenBench's and Viridithas' tunables): within `min..=max`,
/// perturbed by `step` at the last iteration (fishtest's `c_end`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    pub name: &'static str,
    pub min: i32,
    pub max: i32,
    pub step: i32,
}

search_params! {
    /// Reverse futility (static null move): at depth ≤ this, a static evaluation this
    /// far above beta per ply of depth (one ply less when improving) returns at once.
    rfp_depth: off 0, default 6, tune 0..=12 step 1;
    rfp_margin: off 0, default 80, tune 20..=250 step 15;
    /// Futility pruning: at depth ≤ this, a node whose static evaluation plus
    /// `futility_base + futility_margin · depth` is at most alpha searches no quiet move
    /// after its first move.
    futility_depth: off 0, default 6, tune 0..=12 step 1;
    futility_base: off 0, default 100, tune 0..=300 step 20;
    futility_margin: off 0, default 100, tune 20..=300 step 20;
    /// Null move reduction: `null_base` plies.
    null_base: off 2, default 2, tune 1..=6 step 1;
    /// 1: the null move where the game has one ([`SearchHints::null_move`]); 0: none.
    ///
    /// [`SearchHints::null_move`]: crate::search_hints::SearchHints::null_move
    null_move: off 1, default 1;
    /// Late move reductions: `lmr_base + ln(depth) · ln(moves searched) / lmr_divisor`
    /// (hundredths), plus `lmr_non_pv` hundredths outside the principal variation.
    lmr_base: off 50, default 50, tune 0..=200 step 20;
    /// Moves searched at a node before the next one may be reduced (fewer did not gain in
    /// Akiba nor Abraxas, docs/experiments.md).
    lmr_moves: off 3, default 3, tune 1..=8 step 1;
    lmr_divisor: off 250, default 250, tune 120..=450 step 30;
    lmr_non_pv: off 0, default 0, tune 0..=300 step 25;
    /// Hundredths of a ply more at a cut node (a null window expected to fail high).
    lmr_cut_node: off 0, default 0, tune 0..=300 step 25;
    /// Late move reductions shrink by a quiet move's history over this (grow when it is
    /// negative).
    lmr_history_divisor: off i32::MAX, default 8192, tune 2048..=32768 step 1024;
    /// Internal iterative reduction: a node of at least this depth without a table move is
    /// searched one ply shallower.
    iir_depth: off i32::MAX, default 4, tune 2..=10 step 1;
    /// 1: quiet moves are ordered and rewarded by continuation histories too; 0: by the
    /// butterfly table alone.
    continuation_history: off 0, default 1;
    /// 1: quiescence probes and stores the table; 0: it does not.
    quiescence_table: off 0, default 1;
    /// Singular extensions at depth ≥ this (0: none), the other moves searched against
    /// the table's score lowered by `singular_margin` per ply of depth.
    singular_depth: off 0, default 6, tune 0..=12 step 1;
    singular_margin: off 0, default 3, tune 1..=10 step 1;
    /// Time management from the search (a clock's soft limit only): the limit is
    /// stretched by `tm_stability` hundredths per iteration short of four that the best
    /// move has stayed the same (shrunk past four, up to eight), by `tm_nodes` hundredths
    /// per unit the best move's share of the nodes is below three quarters (shrunk above),
    /// and by `tm_score` hundredths per 100 the score fell since the last iteration.
    tm_stability: off 0, default 0, tune 0..=20 step 2;
    tm_nodes: off 0, default 0, tune 0..=400 step 25;
    tm_score: off 0, default 0, tune 0..=300 step 20;
    /// Aspiration windows from depth 4: the root is searched within `aspiration_delta` of
    /// the last iteration's score (0: a full window), the window widened on a fail by a
    /// delta then multiplied by `aspiration_growth` hundredths (300: tripled), the failing
    /// bound moved by `delta` from where it was.
    aspiration_delta: off 40, default 40, tune 0..=150 step 10;
    aspiration_growth: off 300, default 300, tune 150..=600 step 30;
}

impl SearchParams {
    /// How many plies shallower the `searched`-th move (0-based) of a node at `depth` is
    /// searched first, before its history is counted: grows with both, as in most
    /// alpha-beta engines.
    pub(crate) fn late_move_reduction(
        &self,
        depth: i32,
        searched: usize,
        is_pv: bool,
        cut_node: bool,
    ) -> i32 {
        let log = ln(depth.max(0) as usize) * ln(searched);
        let mut hundredths =
            f64::from(self.lmr_base) + 10_000.0 * log / f64::from(self.lmr_divisor);
        if !is_pv {
            hundredths += f64::from(self.lmr_non_pv);
        }
        if cut_node {
            hundredths += f64::from(self.lmr_cut_node);
        }
        ((hundredths / 100.0) as i32).clamp(1, depth - 2)
    }
}

/// Changes to a game's margins, `name=value,name=value` (the protocol's `SearchParams`
/// option, `none` for no change): how matches try a margin, and how SPSA tunes them,
/// without building another engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamChanges(Vec<(String, i32)>);

impl std::str::FromStr for ParamChanges {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case("none") {
            return Ok(ParamChanges::default());
        }
        let mut changes = Vec::new();
        for pair in text.split(',') {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("'{pair}' is not name=value"))?;
            let value: i32 = value
                .trim()
                .parse()
                .map_err(|_| format!("'{}' is not a whole number (in '{pair}')", value.trim()))?;
            let name = name.trim();
            if SearchParams::DEFAULT.get(name).is_none() {
                return Err(format!(
                    "no search parameter '{name}' (there are: {})",
                    SearchParams::NAMES.join(", ")
                ));
            }
            changes.push((name.to_string(), value));
        }
        Ok(ParamChanges(changes))
    }
}

impl std::fmt::Display for ParamChanges {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return f.write_str("none");
        }
        let pairs: Vec<String> = self.0.iter().map(|(n, v)| format!("{n}={v}")).collect();
        f.write_str(&pairs.join(","))
    }
}

impl SearchParams {
    /// The value of the parameter `name`.
    pub fn get(mut self, name: &str) -> Option<i32> {
        self.field(name).map(|value| *value)
    }

    /// The parameters game `G` searches with: the defaults with [`SearchHints::SEARCH_PARAMS`]
    /// applied (the registry's tests check that each name is a parameter).
    pub fn of<G: SearchHints>() -> SearchParams {
        let mut params = SearchParams::DEFAULT;
        for &(name, value) in G::SEARCH_PARAMS {
            let field = params.field(name);
            debug_assert!(field.is_some(), "{}: no search parameter '{name}'", G::NAME);
            if let Some(field) = field {
                *field = value;
            }
        }
        params
    }

    /// These margins with `changes` applied (a divisor of 0 is refused).
    pub fn changed(mut self, changes: &ParamChanges) -> Result<SearchParams, String> {
        for (name, value) in &changes.0 {
            if name.ends_with("divisor") && name.starts_with("lmr") && *value == 0 {
                return Err(format!("{name} cannot be 0"));
            }
            let field = self
                .field(name)
                .ok_or_else(|| format!("no search parameter '{name}'"))?;
            *field = *value;
        }
        Ok(self)
    }
}

impl SearchParams {
    /// What is wrong with these values as SPSA's start: a tuned parameter outside its
    /// range (or a range without room for its step), a switch neither 0 nor 1. Empty when
    /// all is well.
    pub fn range_errors(self) -> Vec<String> {
        let mut errors = Vec::new();
        for (name, value) in self.values() {
            match Self::TUNED.iter().find(|tuning| tuning.name == name) {
                Some(&Tuning { min, max, step, .. }) => {
                    if !(min..=max).contains(&value) {
                        errors.push(format!("{name}={value} is outside {min}..={max}"));
                    }
                    if step <= 0 || step > max - min {
                        errors.push(format!("{name}'s step {step} does not fit {min}..={max}"));
                    }
                }
                None if !(0..=1).contains(&value) => {
                    errors.push(format!("{name}={value}: not tuned, so a switch (0 or 1)"));
                }
                None => {}
            }
        }
        errors
    }

    /// The tuned parameters at these values as OpenBench's SPSA input, which
    /// `docs/scripts/spsa.py` reads (`shove params`): one line per parameter,
    /// `name, int, value, min, max, step, r_end` (fishtest's and OpenBench's `c_end` and
    /// `r_end`).
    pub fn spsa_lines(self) -> String {
        self.values()
            .filter_map(|(name, value)| {
                let tuning = Self::TUNED.iter().find(|tuning| tuning.name == name)?;
                Some(format!(
                    "{name}, int, {value}, {}, {}, {}, {SPSA_R_END}\n",
                    tuning.min, tuning.max, tuning.step
                ))
            })
            .collect()
    }
}

/// OpenBench's default `r_end` (the learning rate at the last iteration over `c_end`²).
const SPSA_R_END: f64 = 0.002;

/// The natural logarithm of `n`, from a table up to [`MAX_MOVES`] (beyond, computed): the
/// reductions read two at every late move, and `f64::ln` was a percent of Akiba's search.
fn ln(n: usize) -> f64 {
    static TABLE: LazyLock<Vec<f64>> =
        LazyLock::new(|| (0..=MAX_MOVES).map(|n| (n as f64).ln()).collect());
    TABLE.get(n).copied().unwrap_or_else(|| (n as f64).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_parse_apply_and_name_what_is_wrong() {
        let changes: ParamChanges = "rfp_depth=0, rfp_margin=120".parse().unwrap();
        assert_eq!(changes.to_string(), "rfp_depth=0,rfp_margin=120");
        let params = SearchParams::DEFAULT.changed(&changes).unwrap();
        assert_eq!((params.rfp_depth, params.rfp_margin), (0, 120));
        assert_eq!(params.futility_depth, SearchParams::DEFAULT.futility_depth);
        assert_eq!(
            "none".parse::<ParamChanges>().unwrap(),
            ParamChanges::default()
        );
        let error = "rfp_dept=1".parse::<ParamChanges>().unwrap_err();
        assert!(error.contains("no search parameter 'rfp_dept'"), "{error}");
        assert!("rfp_margin=x".parse::<ParamChanges>().is_err());
        assert!("rfp_margin".parse::<ParamChanges>().is_err());
        let zero: ParamChanges = "lmr_history_divisor=0".parse().unwrap();
        assert!(SearchParams::DEFAULT.changed(&zero).is_err());
    }

    /// The check that the games' values lie in the ranges finds a value out of its range,
    /// a step too wide and a switch that is not one.
    #[test]
    fn the_ranges_check_finds_what_is_wrong() {
        assert_eq!(SearchParams::DEFAULT.range_errors(), Vec::<String>::new());
        let wrong = SearchParams {
            rfp_margin: 10,
            null_move: 2,
            ..SearchParams::DEFAULT
        };
        let errors = wrong.range_errors();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors[0].contains("rfp_margin=10 is outside 20..=250"),
            "{errors:?}"
        );
        assert!(errors[1].contains("null_move=2"), "{errors:?}");
        // Every parameter is tuned or a switch: OFF's i32::MAX is neither.
        assert!(
            SearchParams::OFF
                .range_errors()
                .iter()
                .any(|e| e.contains("iir_depth"))
        );
    }

    /// The lines SPSA reads give each tuned parameter its value, range and step, and read
    /// back by name as the protocol's `SearchParams` option takes them.
    #[test]
    fn the_spsa_lines_read_back() {
        let params = SearchParams {
            lmr_non_pv: 100,
            ..SearchParams::DEFAULT
        };
        let lines = params.spsa_lines();
        assert!(
            lines.contains("rfp_margin, int, 80, 20, 250, 15, 0.002\n"),
            "{lines}"
        );
        assert!(
            !lines.contains("null_move"),
            "a switch is not tuned: {lines}"
        );
        let mut read = SearchParams::OFF;
        for line in lines.lines() {
            let fields: Vec<&str> = line.split(", ").collect();
            assert_eq!(fields.len(), 7, "{line}");
            let changes: ParamChanges = format!("{}={}", fields[0], fields[2]).parse().unwrap();
            read = read.changed(&changes).unwrap();
        }
        for tuning in SearchParams::TUNED {
            assert_eq!(
                read.get(tuning.name),
                params.get(tuning.name),
                "{}",
                tuning.name
            );
        }
        assert_eq!(lines.lines().count(), SearchParams::TUNED.len());
    }
}
