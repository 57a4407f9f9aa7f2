//! Parsing and checking the arguments of `go`.

use crate::game::Player;
use crate::search::{Clock, Limits, MAX_DEPTH};
use std::time::Duration;

/// Largest time in milliseconds accepted for `movetime`, the clocks and increments
/// (about 11.5 days): anything above is taken for a broken GUI rather than a real clock.
pub(crate) const MAX_MILLIS: u64 = 1_000_000_000;
/// Largest `nodes` limit accepted.
pub(crate) const MAX_NODES: u64 = 1_000_000_000_000_000;
/// Largest `movestogo` accepted.
pub(crate) const MAX_MOVES_TO_GO: u64 = 10_000;

/// The arguments of one `go` command, checked for range but not yet against the position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GoParams {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    /// Remaining time per player in ms, indexed by [`Player::index`] (p1 = white).
    pub time: [Option<u64>; 2],
    pub increment: [Option<u64>; 2],
    pub moves_to_go: Option<u32>,
    pub infinite: bool,
}

fn number(name: &str, text: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let text = text.ok_or_else(|| format!("go: '{name}' needs a value"))?;
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "go: {name} value '{text}' is not a whole number in {min}..={max}"
        )),
    }
}

impl GoParams {
    /// Parses the tokens after `go`. A bare `go` means `go infinite`.
    pub(crate) fn parse(tokens: &[&str]) -> Result<GoParams, String> {
        let mut params = GoParams::default();
        let mut seen: Vec<&'static str> = Vec::new();
        let mut iter = tokens.iter().copied();
        while let Some(token) = iter.next() {
            let keyword = token.to_ascii_lowercase();
            // wtime/p1time etc. are two names for one setting: `seen` uses the p-name.
            let canonical: &'static str = match keyword.as_str() {
                "depth" => "depth",
                "nodes" => "nodes",
                "movetime" => "movetime",
                "wtime" | "p1time" => "p1time",
                "btime" | "p2time" => "p2time",
                "winc" | "p1inc" => "p1inc",
                "binc" | "p2inc" => "p2inc",
                "movestogo" => "movestogo",
                "infinite" => "infinite",
                "ponder" | "searchmoves" | "mate" | "ponderhit" => {
                    return Err(format!("go: '{token}' is not supported"));
                }
                _ => return Err(format!("go: unknown parameter '{token}'")),
            };
            if seen.contains(&canonical) {
                return Err(format!("go: '{token}' is given more than once"));
            }
            seen.push(canonical);
            let mut value = |min, max| number(token, iter.next(), min, max);
            match canonical {
                "depth" => params.depth = Some(value(1, MAX_DEPTH as u64)? as u32),
                "nodes" => params.nodes = Some(value(1, MAX_NODES)?),
                "movetime" => params.movetime = Some(value(0, MAX_MILLIS)?),
                "p1time" => params.time[0] = Some(value(0, MAX_MILLIS)?),
                "p2time" => params.time[1] = Some(value(0, MAX_MILLIS)?),
                "p1inc" => params.increment[0] = Some(value(0, MAX_MILLIS)?),
                "p2inc" => params.increment[1] = Some(value(0, MAX_MILLIS)?),
                "movestogo" => params.moves_to_go = Some(value(1, MAX_MOVES_TO_GO)? as u32),
                _ => params.infinite = true,
            }
        }
        if seen.is_empty() {
            params.infinite = true;
        } else if params.infinite && seen.len() > 1 {
            return Err("go: 'infinite' cannot be combined with other limits".into());
        }
        Ok(params)
    }

    fn has_clock(&self) -> bool {
        self.time.iter().chain(&self.increment).any(Option::is_some) || self.moves_to_go.is_some()
    }

    /// The search limits for a search with `side` to move. Clock arguments without the
    /// mover's own time (and no other limit) would never stop the search: an error.
    pub(crate) fn limits(&self, side: Player) -> Result<Limits, String> {
        let other_limit = self.depth.is_some() || self.nodes.is_some() || self.movetime.is_some();
        if self.has_clock() && self.time[side.index()].is_none() && !other_limit {
            let (p, colour) = match side {
                Player::One => ("p1time", "wtime"),
                Player::Two => ("p2time", "btime"),
            };
            return Err(format!(
                "go: clock given without the time of the side to move ({p} or {colour})"
            ));
        }
        let millis = Duration::from_millis;
        let clock = self.has_clock().then(|| Clock {
            time: self.time.map(|t| t.map(millis)),
            increment: self.increment.map(|i| millis(i.unwrap_or(0))),
            moves_to_go: self.moves_to_go,
        });
        Ok(Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(millis),
            clock,
            infinite: self.infinite,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<GoParams, String> {
        GoParams::parse(&text.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn bare_go_is_infinite() {
        assert!(parse("").unwrap().infinite);
        assert!(parse("infinite").unwrap().infinite);
    }

    #[test]
    fn colour_and_player_clocks_are_the_same() {
        let a = parse("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5").unwrap();
        let b = parse("p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5").unwrap();
        assert_eq!(a, b);
        let limits = a.limits(Player::Two).unwrap();
        let clock = limits.clock.unwrap();
        assert_eq!(
            clock.time,
            [
                Some(Duration::from_millis(1000)),
                Some(Duration::from_millis(2000))
            ]
        );
        assert_eq!(
            clock.increment,
            [Duration::from_millis(10), Duration::from_millis(20)]
        );
        assert_eq!(clock.moves_to_go, Some(5));
        assert!(!limits.infinite);
    }

    #[test]
    fn bad_arguments_are_rejected() {
        for text in [
            "depth",
            "depth 0",
            "depth -3",
            "depth 101",
            "depth x",
            "nodes 0",
            "nodes 99999999999999999999999",
            "movetime -1",
            "movetime 1e3",
            "wtime 10000000000",
            "p1time 100 wtime 100",
            "depth 3 depth 4",
            "movestogo 0",
            "infinite depth 3",
            "ponder",
            "foo 3",
        ] {
            assert!(parse(text).is_err(), "accepted 'go {text}'");
        }
    }

    #[test]
    fn the_mover_needs_its_own_time() {
        let params = parse("btime 1000").unwrap();
        assert!(params.limits(Player::One).is_err());
        assert!(params.limits(Player::Two).is_ok());
        assert!(
            parse("btime 1000 depth 3")
                .unwrap()
                .limits(Player::One)
                .is_ok()
        );
    }
}
