//! What a match or tournament is told: its engines ([`EngineConfig`]), the settings both
//! share ([`RunConfig`]) and a match's own ([`MatchConfig`]), and the settings line of the
//! log that makes two logs parts of one run.

use super::adjudication::Adjudication;
use super::engine::split_command;
use super::stats::Sprt;
use super::tc::TimeControl;
use crate::pipeline::shard::Shard;
use std::path::PathBuf;
use std::time::Duration;

/// One engine of a match or tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Shown in results and logs.
    pub name: String,
    /// Program and arguments.
    pub command: Vec<String>,
    pub tc: TimeControl,
    /// Engine options (name, value) for this engine only, sent after those of the run.
    pub options: Vec<(String, String)>,
}

impl EngineConfig {
    /// Both engines from their command lines (split as a shell would). Without a given
    /// name an engine is called by its command with the program's directory left out; two
    /// equal names get `#1` and `#2`.
    pub fn pair(
        command_lines: [&str; 2],
        names: [Option<String>; 2],
        tcs: [TimeControl; 2],
    ) -> Result<[EngineConfig; 2], String> {
        let mut configs = Vec::new();
        for ((line, name), tc) in command_lines.into_iter().zip(names).zip(tcs) {
            let command = split_command(line).map_err(|e| e.to_string())?;
            let name = name.unwrap_or_else(|| {
                let program = std::path::Path::new(&command[0])
                    .file_name()
                    .map_or_else(|| command[0].clone(), |f| f.to_string_lossy().into_owned());
                std::iter::once(program)
                    .chain(command[1..].iter().cloned())
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            configs.push(EngineConfig {
                name,
                command,
                tc,
                options: Vec::new(),
            });
        }
        let [mut first, mut second]: [EngineConfig; 2] = configs
            .try_into()
            .map_err(|_| "two engines are needed".to_string())?;
        if first.name == second.name {
            first.name.push_str(" #1");
            second.name.push_str(" #2");
        }
        Ok([first, second])
    }
}

/// Parses `NAME=VALUE` (an engine option of `--option`).
pub fn parse_engine_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("'{text}' is not NAME=VALUE")),
    }
}

/// What a match and a tournament are told besides their engines and how many games.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Game name (see [`crate::games::GAME_NAMES`]).
    pub game: String,
    /// Openings file; `None`: the game's built-in set, or its start position.
    pub openings: Option<PathBuf>,
    /// Seed of the shuffle that orders the openings: pair `k` of a pairing plays the
    /// `k`-th opening of the shuffled set, so each opening is played once per pair and a
    /// pairing longer than the set cycles through it again.
    pub seed: u64,
    /// Games played at the same time, each with its own engine processes.
    pub concurrency: usize,
    pub adjudication: Adjudication,
    /// Engine options (name, value) sent to every engine; the game's rule options among
    /// them also rule the referee.
    pub options: Vec<(String, String)>,
    /// Slack on top of a move's time allowance before it loses on time.
    pub margin: Duration,
    /// Longest wait for an answer that no time control bounds (start-up, `isready`, moves
    /// under depth or node limits): past it the engine is taken as hung.
    pub timeout: Duration,
    pub log: Option<PathBuf>,
    /// Keep the games `log` already holds, from this run cut off earlier (its settings
    /// must be these), and play only the rest: hours of games survive a stopped machine.
    pub resume: bool,
    /// Draw a progress bar on stderr.
    pub progress: bool,
    /// The part of the game pairs to play: pair `p` belongs to shard `p % N + 1`. A shard
    /// plays all of its pairs (an SPRT verdict is reported, not acted on), so the shards'
    /// logs merge into exactly the unsharded run.
    pub shard: Shard,
}

impl RunConfig {
    /// The settings fields shared by matches and tournaments, after the engines.
    pub(crate) fn settings_fields(&self) -> [String; 5] {
        let options: Vec<String> = self
            .options
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        [
            format!(
                "openings={}",
                self.openings
                    .as_ref()
                    .map_or_else(|| "built-in".to_string(), |p| p.display().to_string())
            ),
            format!("seed={}", self.seed),
            format!("max_moves={}", self.adjudication.max_plies),
            format!("repetition_draw={}", self.adjudication.repetition_draw),
            format!("options={}", options.join(";")),
        ]
    }
}

/// Joins settings fields into a settings line: tabs and line breaks would break it.
pub(crate) fn settings_line(fields: impl IntoIterator<Item = String>) -> String {
    fields
        .into_iter()
        .map(|field| field.replace(['\t', '\n', '\r'], " "))
        .collect::<Vec<_>>()
        .join("\t")
}

/// Everything `shove match` can be told.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub run: RunConfig,
    pub engines: [EngineConfig; 2],
    /// Number of games, rounded up to whole pairs (with `sprt`: the most to play).
    pub games: usize,
    pub sprt: Option<Sprt>,
}

impl MatchConfig {
    /// The settings that make two logs parts of one match (`shove merge` checks them):
    /// tab-separated `name=value` fields. The shard is not among them.
    pub fn settings(&self) -> String {
        let engine = |i: usize| {
            let e = &self.engines[i];
            format!(
                "engine{}={} | {} | {}",
                i + 1,
                e.name,
                e.command.join(" "),
                e.tc
            )
        };
        let [openings, seed, max_moves, repetition, options] = self.run.settings_fields();
        settings_line([
            format!("game={}", self.run.game),
            engine(0),
            engine(1),
            openings,
            seed,
            format!("games={}", 2 * self.games.div_ceil(2)),
            max_moves,
            repetition,
            options,
            format!(
                "sprt={}",
                self.sprt.map_or_else(|| "-".to_string(), |s| s.to_string())
            ),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_names() {
        let tc = TimeControl::Depth(1);
        let [a, b] = EngineConfig::pair(
            ["/usr/bin/shove --player random", "'/my dir/shove'"],
            [None, None],
            [tc, tc],
        )
        .unwrap();
        assert_eq!(a.name, "shove --player random");
        assert_eq!(a.command, ["/usr/bin/shove", "--player", "random"]);
        assert_eq!(b.name, "shove");
        let [a, b] = EngineConfig::pair(["./shove", "shove"], [None, None], [tc, tc]).unwrap();
        assert_eq!((a.name.as_str(), b.name.as_str()), ("shove #1", "shove #2"));
        let [a, _] =
            EngineConfig::pair(["./shove", "shove"], [Some("new".into()), None], [tc, tc]).unwrap();
        assert_eq!(a.name, "new");
        assert!(EngineConfig::pair(["", "shove"], [None, None], [tc, tc]).is_err());
    }
}
