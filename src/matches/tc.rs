//! Time controls of a match (`--tc`): what each `go` asks for and how long a move may take.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How an engine's thinking is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `go depth N`: no time is judged, only a hang (`--timeout`).
    Depth(u32),
    /// `go nodes N`: as `Depth`.
    Nodes(u64),
    /// `go movetime MS`: a move may take the time plus the margin.
    MoveTime(Duration),
    /// A clock with `base` for the game and `increment` added after each move; the runner
    /// keeps it, and a move longer than what is left (plus the margin) loses on time.
    Clock { base: Duration, increment: Duration },
}

/// Which dialect an engine speaks: UGI names clocks `p1time`…, UCI `wtime`….
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Ugi,
    Uci,
}

fn seconds(text: &str, what: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 1e7)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("tc: {what} '{text}' is not a number of seconds"))
}

impl FromStr for TimeControl {
    type Err = String;

    /// `depth=N`, `nodes=N`, `movetime=MS` or `clock=S+INC` (seconds, fractions allowed).
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let (kind, value) = text.split_once('=').ok_or_else(|| {
            format!("tc: '{text}' is not depth=N, nodes=N, movetime=MS or clock=S+INC")
        })?;
        let whole = |max: u64| {
            value
                .parse::<u64>()
                .ok()
                .filter(|&n| (1..=max).contains(&n))
                .ok_or_else(|| {
                    format!("tc: {kind} value '{value}' is not a whole number in 1..={max}")
                })
        };
        match kind.to_ascii_lowercase().as_str() {
            "depth" => Ok(TimeControl::Depth(
                whole(crate::search::MAX_DEPTH.into())? as u32
            )),
            "nodes" => Ok(TimeControl::Nodes(whole(1_000_000_000_000)?)),
            "movetime" => Ok(TimeControl::MoveTime(Duration::from_millis(whole(
                1_000_000_000,
            )?))),
            "clock" => {
                let (base, increment) = value.split_once('+').unwrap_or((value, "0"));
                let base = seconds(base, "base time")?;
                if base.is_zero() {
                    return Err("tc: the clock needs some time".into());
                }
                Ok(TimeControl::Clock {
                    base,
                    increment: seconds(increment, "increment")?,
                })
            }
            _ => Err(format!(
                "tc: unknown kind '{kind}' (expected depth, nodes, movetime or clock)"
            )),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::MoveTime(t) => write!(f, "movetime={}", t.as_millis()),
            TimeControl::Clock { base, increment } => {
                write!(
                    f,
                    "clock={}+{}",
                    base.as_secs_f64(),
                    increment.as_secs_f64()
                )
            }
        }
    }
}

impl TimeControl {
    /// The clock an engine starts a game with, if this control has one.
    pub fn start_clock(&self) -> Option<Duration> {
        match self {
            TimeControl::Clock { base, .. } => Some(*base),
            _ => None,
        }
    }

    pub fn increment(&self) -> Duration {
        match self {
            TimeControl::Clock { increment, .. } => *increment,
            _ => Duration::ZERO,
        }
    }

    /// The `go` command. `clocks` and `increments` are per player (index
    /// [`crate::game::Player::index`]); a player without a clock (another kind of control)
    /// is left out.
    pub fn go(
        &self,
        dialect: Dialect,
        clocks: [Option<Duration>; 2],
        increments: [Duration; 2],
    ) -> String {
        match self {
            TimeControl::Depth(d) => format!("go depth {d}"),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
            TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
            TimeControl::Clock { .. } => {
                let names = match dialect {
                    Dialect::Ugi => [["p1time", "p1inc"], ["p2time", "p2inc"]],
                    Dialect::Uci => [["wtime", "winc"], ["btime", "binc"]],
                };
                // Times first, then increments, in cutegames' order.
                let mut go = String::from("go");
                for (player, [time, _]) in names.iter().enumerate() {
                    if let Some(left) = clocks[player] {
                        go.push_str(&format!(" {time} {}", left.as_millis()));
                    }
                }
                for (player, [_, inc]) in names.iter().enumerate() {
                    if clocks[player].is_some() {
                        go.push_str(&format!(" {inc} {}", increments[player].as_millis()));
                    }
                }
                go
            }
        }
    }

    /// How long a move may take before it loses on time: `None` when time is not judged
    /// (depth and node limits), else the allowance plus `margin`. `left` is the mover's
    /// clock.
    pub fn allowance(&self, left: Option<Duration>, margin: Duration) -> Option<Duration> {
        match self {
            TimeControl::Depth(_) | TimeControl::Nodes(_) => None,
            TimeControl::MoveTime(t) => Some(*t + margin),
            TimeControl::Clock { base, .. } => Some(left.unwrap_or(*base) + margin),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_and_prints() {
        for text in [
            "depth=3",
            "nodes=20000",
            "movetime=1000",
            "clock=10+0.1",
            "clock=60+0",
        ] {
            assert_eq!(text.parse::<TimeControl>().unwrap().to_string(), text);
        }
        assert_eq!(
            "clock=5".parse::<TimeControl>().unwrap(),
            TimeControl::Clock {
                base: ms(5000),
                increment: ms(0)
            }
        );
        for bad in [
            "",
            "depth",
            "depth=0",
            "depth=x",
            "nodes=-1",
            "movetime=1.5",
            "clock=0+1",
            "clock=a+1",
            "clock=10+-1",
            "speed=3",
            "depth=101",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "accepted '{bad}'");
        }
    }

    #[test]
    fn go_commands_per_dialect() {
        let clock: TimeControl = "clock=10+0.1".parse().unwrap();
        let clocks = [Some(ms(9000)), Some(ms(8000))];
        let incs = [ms(100), ms(100)];
        assert_eq!(
            clock.go(Dialect::Ugi, clocks, incs),
            "go p1time 9000 p2time 8000 p1inc 100 p2inc 100"
        );
        assert_eq!(
            clock.go(Dialect::Uci, [None, Some(ms(8000))], incs),
            "go btime 8000 binc 100"
        );
        assert_eq!(
            TimeControl::Nodes(500).go(Dialect::Ugi, clocks, incs),
            "go nodes 500"
        );
    }

    #[test]
    fn allowances() {
        let margin = ms(50);
        assert_eq!(TimeControl::Depth(3).allowance(None, margin), None);
        assert_eq!(
            TimeControl::MoveTime(ms(100)).allowance(None, margin),
            Some(ms(150))
        );
        let clock: TimeControl = "clock=1+0".parse().unwrap();
        assert_eq!(clock.allowance(Some(ms(300)), margin), Some(ms(350)));
    }
}
