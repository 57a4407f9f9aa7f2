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

/// `movetime` of a `go` that gives no usable limit for the side to move (only the other
/// side's clock, or only bad values): short, so that a GUI waiting for `bestmove` gets one.
pub(crate) const DEFAULT_MOVETIME_MS: u64 = 100;

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
    pub mate: Option<u32>,
    /// `bestmove` only after `stop`, whatever else ends the search.
    pub infinite: bool,
    pub ponder: bool,
    /// The moves after `searchmoves`, as given (checked against the position later).
    pub search_moves: Vec<String>,
    /// Whether the command had any words at all: a bare `go` is `go infinite`.
    pub bare: bool,
}

fn number(name: &str, text: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let text = text.ok_or_else(|| format!("'{name}' needs a value"))?;
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{name} value '{text}' is not a whole number in {min}..={max}"
        )),
    }
}

/// The words `go` knows; a word after `searchmoves` that is one of them ends the move list.
const KEYWORDS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "p1time",
    "btime",
    "p2time",
    "winc",
    "p1inc",
    "binc",
    "p2inc",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

impl GoParams {
    /// Parses the tokens after `go`, keeping everything usable: a bad, unknown or repeated
    /// parameter is left out and described in the returned message (one line for all), as
    /// Stockfish goes on with what it understood. A bare `go` means `go infinite`.
    pub(crate) fn parse(tokens: &[&str]) -> (GoParams, Option<String>) {
        let mut params = GoParams {
            bare: tokens.is_empty(),
            ..GoParams::default()
        };
        let mut problems: Vec<String> = Vec::new();
        let mut seen: Vec<&'static str> = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let token = tokens[i];
            i += 1;
            let keyword = token.to_ascii_lowercase();
            // wtime/p1time etc. are two names for one setting: `seen` uses the p-name.
            let canonical: &'static str = match keyword.as_str() {
                "wtime" | "p1time" => "p1time",
                "btime" | "p2time" => "p2time",
                "winc" | "p1inc" => "p1inc",
                "binc" | "p2inc" => "p2inc",
                other => match KEYWORDS.iter().find(|&&k| k == other) {
                    Some(&k) => k,
                    None => {
                        problems.push(format!("unknown parameter '{token}' ignored"));
                        continue;
                    }
                },
            };
            // A flag, or a value that was already given and usable, counts once.
            let repeated = seen.contains(&canonical);
            let once = || format!("'{token}' is given more than once; the first one counts");
            if repeated && matches!(canonical, "infinite" | "ponder" | "searchmoves") {
                problems.push(once());
            }
            if matches!(canonical, "infinite" | "ponder" | "searchmoves") {
                seen.push(canonical);
            }
            match canonical {
                "infinite" => params.infinite = true,
                "ponder" => params.ponder = true,
                "searchmoves" => {
                    while let Some(&word) = tokens.get(i) {
                        if KEYWORDS.contains(&word.to_ascii_lowercase().as_str()) {
                            break;
                        }
                        if !repeated {
                            params.search_moves.push(word.to_string());
                        }
                        i += 1;
                    }
                }
                _ => {
                    // A keyword where the value should be is the next parameter.
                    let text = tokens
                        .get(i)
                        .filter(|t| !KEYWORDS.contains(&t.to_ascii_lowercase().as_str()));
                    if text.is_some() {
                        i += 1;
                    }
                    let (min, max) = match canonical {
                        "depth" | "mate" => (1, u64::from(MAX_DEPTH)),
                        "nodes" => (1, MAX_NODES),
                        "movestogo" => (1, MAX_MOVES_TO_GO),
                        _ => (0, MAX_MILLIS),
                    };
                    let value = match number(token, text.copied(), min, max) {
                        Ok(value) => value,
                        Err(problem) => {
                            problems.push(format!("{problem}; ignored"));
                            continue;
                        }
                    };
                    if repeated {
                        problems.push(once());
                        continue;
                    }
                    seen.push(canonical);
                    match canonical {
                        "depth" => params.depth = Some(value as u32),
                        "mate" => params.mate = Some(value as u32),
                        "nodes" => params.nodes = Some(value),
                        "movetime" => params.movetime = Some(value),
                        "p1time" => params.time[0] = Some(value),
                        "p2time" => params.time[1] = Some(value),
                        "p1inc" => params.increment[0] = Some(value),
                        "p2inc" => params.increment[1] = Some(value),
                        _ => params.moves_to_go = Some(value as u32),
                    }
                }
            }
        }
        let message = (!problems.is_empty()).then(|| format!("go: {}", problems.join("; ")));
        (params, message)
    }

    fn has_clock(&self) -> bool {
        self.time.iter().chain(&self.increment).any(Option::is_some) || self.moves_to_go.is_some()
    }

    /// The search limits for a search with `side` to move, and a note when the command gave
    /// no usable limit for that side (so that the search would never end by itself) and a
    /// short default budget was chosen instead.
    pub(crate) fn limits(&self, side: Player, move_overhead: Duration) -> (Limits, Option<String>) {
        let millis = Duration::from_millis;
        let clock = self.has_clock().then(|| Clock {
            time: self.time.map(|t| t.map(millis)),
            increment: self.increment.map(|i| millis(i.unwrap_or(0))),
            moves_to_go: self.moves_to_go,
        });
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(millis),
            clock,
            infinite: self.infinite || self.bare,
            mate: self.mate,
            ponder: self.ponder,
            move_overhead,
            received: None,
            complete_depth: 0,
        };
        let limited = limits.infinite
            || self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self.mate.is_some()
            || self.time[side.index()].is_some();
        if limited {
            return (limits, None);
        }
        limits.movetime = Some(millis(DEFAULT_MOVETIME_MS));
        let (p, colour) = match side {
            Player::One => ("p1time", "wtime"),
            Player::Two => ("p2time", "btime"),
        };
        let note = format!(
            "go: no limit for the side to move (no depth, nodes, movetime, mate, infinite or \
             {p}/{colour}): searching {DEFAULT_MOVETIME_MS} ms"
        );
        (limits, Some(note))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (GoParams, Option<String>) {
        GoParams::parse(&text.split_whitespace().collect::<Vec<_>>())
    }

    fn limits(text: &str, side: Player) -> (Limits, Option<String>) {
        parse(text).0.limits(side, Duration::from_millis(20))
    }

    #[test]
    fn bare_go_is_infinite() {
        assert!(limits("", Player::One).0.infinite);
        assert!(limits("infinite", Player::Two).0.infinite);
        // Other limits still end the search; `infinite` only holds back `bestmove`.
        let (limits, note) = limits("infinite depth 3", Player::One);
        assert!(limits.infinite && limits.depth == Some(3) && note.is_none());
    }

    #[test]
    fn colour_and_player_clocks_are_the_same() {
        let (a, none) = parse("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5");
        assert!(none.is_none());
        let (b, _) = parse("p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5");
        assert_eq!(a, b);
        let (limits, note) = a.limits(Player::Two, Duration::ZERO);
        assert!(note.is_none());
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
    fn bad_arguments_are_reported_and_left_out() {
        for (text, kept) in [
            ("depth", GoParams::default()),
            ("depth 0", GoParams::default()),
            ("depth -3", GoParams::default()),
            ("depth 101", GoParams::default()),
            ("depth x", GoParams::default()),
            ("nodes 0", GoParams::default()),
            ("nodes 99999999999999999999999", GoParams::default()),
            ("movetime -1", GoParams::default()),
            ("movetime 1e3", GoParams::default()),
            ("wtime 10000000000", GoParams::default()),
            ("movestogo 0", GoParams::default()),
            ("foo 3", GoParams::default()),
            (
                "depth 3 depth 4",
                GoParams {
                    depth: Some(3),
                    ..GoParams::default()
                },
            ),
            (
                "p1time 100 wtime 200",
                GoParams {
                    time: [Some(100), None],
                    ..GoParams::default()
                },
            ),
            (
                "depth movetime 50",
                GoParams {
                    movetime: Some(50),
                    ..GoParams::default()
                },
            ),
            (
                "fast nodes 500",
                GoParams {
                    nodes: Some(500),
                    ..GoParams::default()
                },
            ),
        ] {
            let (params, message) = parse(text);
            assert!(message.is_some(), "no message for 'go {text}'");
            assert_eq!(params, kept, "go {text}");
        }
    }

    #[test]
    fn ponder_searchmoves_and_mate() {
        let (params, message) = parse("searchmoves a7a6 G1G2 zz ponder wtime 100 mate 3");
        assert!(message.is_none());
        assert_eq!(params.search_moves, ["a7a6", "G1G2", "zz"]);
        assert!(params.ponder);
        assert_eq!(params.time, [Some(100), None]);
        assert_eq!(params.mate, Some(3));
        let (limits, note) = params.limits(Player::One, Duration::ZERO);
        assert!(limits.ponder && limits.mate == Some(3) && note.is_none());
    }

    #[test]
    fn no_limit_for_the_mover_gives_a_short_default() {
        for (text, side) in [
            ("btime 1000", Player::One),
            ("wtime 1000 winc 10", Player::Two),
            ("movestogo 0", Player::One),
            ("depth 0", Player::One),
            ("searchmoves a7a6", Player::One),
            ("ponder", Player::Two),
        ] {
            let (limits, note) = limits(text, side);
            assert!(note.is_some(), "go {text}");
            assert_eq!(
                limits.movetime,
                Some(Duration::from_millis(DEFAULT_MOVETIME_MS)),
                "go {text}"
            );
            assert!(!limits.infinite);
        }
        assert!(limits("btime 1000 depth 3", Player::One).1.is_none());
        assert!(limits("btime 1000", Player::Two).1.is_none());
    }
}
