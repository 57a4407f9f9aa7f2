//! The search's pruning and reduction constants, one set per game ([`Game::SEARCH_PARAMS`]):
//! the games' evaluations differ in scale and volatility, so a margin that pays in one may
//! lose in another. A margin of 0 (or a depth of 0) turns its technique off.
//!
//! [`Game::SEARCH_PARAMS`]: crate::game::Game::SEARCH_PARAMS

/// Margins in evaluation units, depths in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Reverse futility (static null move): at depth ≤ this, a static evaluation this
    /// far above beta per ply of depth (one ply less when improving) returns at once.
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// Late move pruning: at depth ≤ this, quiet moves after the first
    /// `(lmp_base + depth²) / 2` (twice as many when improving) are not searched.
    pub lmp_depth: i32,
    pub lmp_base: i32,
    /// Futility pruning: at depth ≤ this, a node whose static evaluation plus
    /// `futility_base + futility_margin · depth` is at most alpha searches no quiet move
    /// after its first move.
    pub futility_depth: i32,
    pub futility_base: i32,
    pub futility_margin: i32,
    /// Late move reductions shrink by a quiet move's history over this (grow when it is
    /// negative).
    pub lmr_history_divisor: i32,
    /// Internal iterative reduction: a node of at least this depth without a table move is
    /// searched one ply shallower.
    pub iir_depth: i32,
    /// 1: quiet moves are ordered and rewarded by continuation histories too; 0: by the
    /// butterfly table alone.
    pub continuation_history: i32,
    /// 1: quiescence probes and stores the table; 0: it does not.
    pub quiescence_table: i32,
    /// Singular extensions at depth ≥ this (0: none), the other moves searched against
    /// the table's score lowered by `singular_margin` per ply of depth.
    pub singular_depth: i32,
    pub singular_margin: i32,
    /// 1: the static evaluation is corrected by the correction history; 0: it is not.
    pub correction: i32,
}

impl SearchParams {
    /// Every technique off: the search as it was before they were measured.
    pub const OFF: SearchParams = SearchParams {
        rfp_depth: 0,
        rfp_margin: 0,
        lmp_depth: 0,
        lmp_base: 0,
        futility_depth: 0,
        futility_base: 0,
        futility_margin: 0,
        lmr_history_divisor: i32::MAX,
        iir_depth: i32::MAX,
        continuation_history: 0,
        quiescence_table: 0,
        singular_depth: 0,
        singular_margin: 0,
        correction: 0,
    };

    /// The values most games start from (each game's own are in its module).
    pub const DEFAULT: SearchParams = SearchParams {
        rfp_depth: 6,
        rfp_margin: 80,
        // Late move pruning lost in every game (docs/experiments.md): off unless a game
        // or `SearchParams` turns it on.
        lmp_depth: 0,
        lmp_base: 3,
        futility_depth: 6,
        futility_base: 100,
        futility_margin: 100,
        lmr_history_divisor: 8192,
        iir_depth: 4,
        continuation_history: 1,
        quiescence_table: 1,
        singular_depth: 6,
        singular_margin: 3,
        // The correction history keyed by material and network bucket lost in Akiba and
        // Abraxas (docs/experiments.md): off until a game has a key that gains.
        correction: 0,
    };

    /// How many moves a node at `depth` searches before late move pruning stops it
    /// (`usize::MAX`: no limit at this depth).
    pub(crate) fn late_move_limit(&self, depth: i32, improving: bool) -> usize {
        if depth > self.lmp_depth {
            return usize::MAX;
        }
        let limit = (self.lmp_base + depth * depth) / (2 - i32::from(improving));
        limit.max(1) as usize
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
    /// The names `SearchParams` takes, in the struct's order.
    pub const NAMES: [&'static str; 14] = [
        "rfp_depth",
        "rfp_margin",
        "lmp_depth",
        "lmp_base",
        "futility_depth",
        "futility_margin",
        "futility_base",
        "lmr_history_divisor",
        "iir_depth",
        "continuation_history",
        "quiescence_table",
        "singular_depth",
        "singular_margin",
        "correction",
    ];

    fn field(&mut self, name: &str) -> Option<&mut i32> {
        Some(match name {
            "rfp_depth" => &mut self.rfp_depth,
            "rfp_margin" => &mut self.rfp_margin,
            "lmp_depth" => &mut self.lmp_depth,
            "lmp_base" => &mut self.lmp_base,
            "futility_depth" => &mut self.futility_depth,
            "futility_margin" => &mut self.futility_margin,
            "futility_base" => &mut self.futility_base,
            "lmr_history_divisor" => &mut self.lmr_history_divisor,
            "iir_depth" => &mut self.iir_depth,
            "continuation_history" => &mut self.continuation_history,
            "quiescence_table" => &mut self.quiescence_table,
            "singular_depth" => &mut self.singular_depth,
            "singular_margin" => &mut self.singular_margin,
            "correction" => &mut self.correction,
            _ => return None,
        })
    }

    /// The value of the parameter `name`.
    pub fn get(mut self, name: &str) -> Option<i32> {
        self.field(name).map(|value| *value)
    }

    /// These margins with `changes` applied (a divisor of 0 is refused).
    pub fn changed(mut self, changes: &ParamChanges) -> Result<SearchParams, String> {
        for (name, value) in &changes.0 {
            if name == "lmr_history_divisor" && *value == 0 {
                return Err("lmr_history_divisor cannot be 0".into());
            }
            let field = self
                .field(name)
                .ok_or_else(|| format!("no search parameter '{name}'"))?;
            *field = *value;
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_parse_apply_and_name_what_is_wrong() {
        let changes: ParamChanges = "lmp_depth=0, rfp_margin=120".parse().unwrap();
        assert_eq!(changes.to_string(), "lmp_depth=0,rfp_margin=120");
        let params = SearchParams::DEFAULT.changed(&changes).unwrap();
        assert_eq!((params.lmp_depth, params.rfp_margin), (0, 120));
        assert_eq!(params.rfp_depth, SearchParams::DEFAULT.rfp_depth);
        assert_eq!(
            "none".parse::<ParamChanges>().unwrap(),
            ParamChanges::default()
        );
        let error = "lmp_dept=1".parse::<ParamChanges>().unwrap_err();
        assert!(error.contains("no search parameter 'lmp_dept'"), "{error}");
        assert!("rfp_margin=x".parse::<ParamChanges>().is_err());
        assert!("rfp_margin".parse::<ParamChanges>().is_err());
        let zero: ParamChanges = "lmr_history_divisor=0".parse().unwrap();
        assert!(SearchParams::DEFAULT.changed(&zero).is_err());
        // Every name is a field.
        for name in SearchParams::NAMES {
            assert!(SearchParams::DEFAULT.get(name).is_some(), "{name}");
        }
    }
}
