//! Tournaments of many engines (`shove tournament`), as cutechess-cli and fastchess play
//! them: a round robin (every pair of engines) or a gauntlet (the first engine against each
//! of the others). Every pairing is a match as `shove match` plays it — each opening with
//! both colours, the same referee, adjudication, failures and log — run by the match
//! runner as one plan, so one log holds every game, resumes and shards like a match's, and
//! `shove rate`, `replay`, `review`, `record` and `merge` read it.
//!
//! The standings put every engine on one Elo scale with the maximum-likelihood fit of
//! `shove rate` ([`super::rating`]); the crosstable gives the points of every pairing, and
//! each pairing its W-L-D and pentanomial counts.

use super::config::{EngineConfig, RunConfig, settings_line};
use super::log::GameRecord;
use super::plan::{Plan, Tally};
use super::rating::{self, Game};
use super::report::MatchReport;
use super::runner::run_plan;
use super::{FailureKind, TimeControl, split_command};
use std::fmt;
use std::str::FromStr;

/// Who plays whom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Every engine against every other.
    #[default]
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl Format {
    /// The pairings of `engines` engines (indices; the first of a pairing is player 1 in
    /// the first game of each pair), in the order they are played.
    pub fn pairings(self, engines: usize) -> Vec<[usize; 2]> {
        match self {
            Format::RoundRobin => (0..engines)
                .flat_map(|a| (a + 1..engines).map(move |b| [a, b]))
                .collect(),
            Format::Gauntlet => (1..engines).map(|b| [0, b]).collect(),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        })
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(text: &str) -> Result<Format, String> {
        match text {
            "round-robin" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(format!("format '{text}' is not round-robin or gauntlet")),
        }
    }
}

/// Everything `shove tournament` can be told.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    pub run: RunConfig,
    pub format: Format,
    pub engines: Vec<EngineConfig>,
    /// Games of each pairing, rounded up to whole pairs.
    pub games_per_pair: usize,
    /// The engine rated 0 (default: the random player if one plays, else the first).
    pub anchor: Option<String>,
}

/// Characters an engine's name may not hold: they separate the fields of the command
/// line's `NAME=…`, `NAME:OPTION=VALUE` and of the log's settings.
const NAME_SEPARATORS: [char; 5] = ['=', ':', '|', '\t', '\n'];

impl TournamentConfig {
    /// The engines of `--engine NAME=COMMAND` (the command split as a shell would), each
    /// with `tc` unless `--engine-tc NAME=TC` gives its own, and with the options of
    /// `--engine-option NAME:OPTION=VALUE`.
    pub fn engines(
        engines: &[String],
        tc: TimeControl,
        engine_tcs: &[String],
        engine_options: &[String],
    ) -> Result<Vec<EngineConfig>, String> {
        let mut configs: Vec<EngineConfig> = Vec::new();
        for text in engines {
            let (name, command) = text
                .split_once('=')
                .ok_or_else(|| format!("--engine '{text}' is not NAME=COMMAND"))?;
            let name = name.trim();
            if name.is_empty() || name.contains(NAME_SEPARATORS) {
                return Err(format!(
                    "--engine '{text}': a name is not empty and holds none of = : |"
                ));
            }
            if configs.iter().any(|e| e.name == name) {
                return Err(format!("two engines are named '{name}'"));
            }
            let command = split_command(command).map_err(|e| format!("engine {name}: {e}"))?;
            configs.push(EngineConfig {
                name: name.to_string(),
                command,
                tc,
                options: Vec::new(),
            });
        }
        let names: Vec<String> = configs.iter().map(|e| e.name.clone()).collect();
        let find = |name: &str, flag: &str| {
            names.iter().position(|n| n == name.trim()).ok_or_else(|| {
                format!(
                    "{flag}: no engine is named '{}' ({})",
                    name.trim(),
                    names.join(", ")
                )
            })
        };
        for text in engine_tcs {
            let (name, tc) = text
                .split_once('=')
                .ok_or_else(|| format!("--engine-tc '{text}' is not NAME=TC"))?;
            let engine = find(name, "--engine-tc")?;
            configs[engine].tc = tc.parse()?;
        }
        for text in engine_options {
            let (name, option) = text
                .split_once(':')
                .ok_or_else(|| format!("--engine-option '{text}' is not NAME:OPTION=VALUE"))?;
            let engine = find(name, "--engine-option")?;
            let option = super::parse_engine_option(option)
                .map_err(|e| format!("--engine-option '{text}': {e}"))?;
            configs[engine].options.push(option);
        }
        Ok(configs)
    }

    /// The settings that make two logs parts of one tournament (`shove merge` and
    /// `--resume` check them): `tournament=<format>` first, then as a match's, with every
    /// engine's own options.
    pub fn settings(&self) -> String {
        let engines = self.engines.iter().enumerate().map(|(i, e)| {
            let options: Vec<String> = e.options.iter().map(|(n, v)| format!("{n}={v}")).collect();
            format!(
                "engine{}={} | {} | {} | {}",
                i + 1,
                e.name,
                e.command.join(" "),
                e.tc,
                options.join(";")
            )
        });
        let [openings, seed, max_moves, repetition, options] = self.run.settings_fields();
        settings_line(
            [
                format!("tournament={}", self.format),
                format!("game={}", self.run.game),
            ]
            .into_iter()
            .chain(engines)
            .chain([
                openings,
                seed,
                format!("games_per_pair={}", self.games()),
                max_moves,
                repetition,
                options,
            ]),
        )
    }

    /// Games per pairing, a whole number of pairs.
    fn games(&self) -> usize {
        2 * self.games_per_pair.div_ceil(2)
    }
}

/// Plays the tournament.
pub fn run_tournament(config: &TournamentConfig) -> Result<TournamentReport, String> {
    if config.engines.len() < 2 {
        return Err("a tournament needs at least two engines".into());
    }
    if config.games_per_pair == 0 {
        return Err("a pairing needs at least one game".into());
    }
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let anchor = anchor(&names, config.anchor.as_deref())?;
    let plan = Plan {
        run: &config.run,
        kind: "tournament",
        engines: &config.engines,
        pairings: config.format.pairings(names.len()),
        pairs: config.games() / 2,
        sprt: None,
        settings: config.settings(),
    };
    let pairings = plan.pairings.clone();
    let reports = run_plan(&plan, &|reports| live_standings(&names, &pairings, reports))?;
    Ok(TournamentReport::new(
        config.format,
        names,
        pairings.into_iter().zip(reports).collect(),
        anchor,
    ))
}

/// The engine rated 0: the one named, else the random player, else the first.
fn anchor(names: &[String], anchor: Option<&str>) -> Result<usize, String> {
    match anchor {
        Some(name) => names.iter().position(|n| n == name).ok_or_else(|| {
            format!(
                "the anchor '{name}' is not one of the engines ({})",
                names.join(", ")
            )
        }),
        None => Ok(names.iter().position(|n| rating::is_random(n)).unwrap_or(0)),
    }
}

/// Points and games of every engine so far, best score first, for the progress bar.
fn live_standings(names: &[String], pairings: &[[usize; 2]], reports: &[MatchReport]) -> String {
    let mut scores = vec![(0.0, 0); names.len()];
    for (pair, report) in pairings.iter().zip(reports) {
        let draws = report.draws as f64 / 2.0;
        scores[pair[0]].0 += report.wins as f64 + draws;
        scores[pair[1]].0 += report.losses as f64 + draws;
        scores[pair[0]].1 += report.games();
        scores[pair[1]].1 += report.games();
    }
    let share = |(points, games): (f64, u64)| points / games.max(1) as f64;
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| share(scores[b]).total_cmp(&share(scores[a])));
    order
        .iter()
        .map(|&i| format!("{} {}/{}", names[i], scores[i].0, scores[i].1))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// One engine's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub name: String,
    pub games: u64,
    pub points: f64,
    /// On the scale with the anchor at 0; `None` when the engines' games do not connect
    /// them all (a shard, a tournament cut off early).
    pub elo: Option<f64>,
    /// Half-width of the 95% interval.
    pub error: Option<f64>,
    /// Games lost by failing, indexed like [`FailureKind::ALL`].
    pub failures: [u64; 5],
}

impl Standing {
    pub fn score(&self) -> f64 {
        self.points / self.games.max(1) as f64
    }

    pub fn faults(&self) -> u64 {
        self.failures.iter().sum()
    }
}

/// The outcome of a tournament.
#[derive(Clone, Debug)]
pub struct TournamentReport {
    pub format: Format,
    /// Engine names in the order given.
    pub names: Vec<String>,
    /// Every pairing (indices into `names`) with its match report, from its first
    /// engine's view.
    pub pairings: Vec<([usize; 2], MatchReport)>,
    /// Best first, with the index of the engine in `names`.
    pub standings: Vec<(usize, Standing)>,
    pub anchor: String,
    /// Why there are no ratings, if there are none.
    pub unrated: Option<String>,
}

impl TournamentReport {
    fn new(
        format: Format,
        names: Vec<String>,
        pairings: Vec<([usize; 2], MatchReport)>,
        anchor: usize,
    ) -> TournamentReport {
        let mut standings: Vec<Standing> = names
            .iter()
            .map(|name| Standing {
                name: name.clone(),
                games: 0,
                points: 0.0,
                elo: None,
                error: None,
                failures: [0; 5],
            })
            .collect();
        let mut games = Vec::new();
        for (pair, report) in &pairings {
            let draws = report.draws as f64 / 2.0;
            for (place, engine) in pair.iter().enumerate() {
                let standing = &mut standings[*engine];
                standing.games += report.games();
                let won = if place == 0 {
                    report.wins
                } else {
                    report.losses
                };
                standing.points += won as f64 + draws;
                for (total, n) in standing.failures.iter_mut().zip(report.failures[place]) {
                    *total += n;
                }
            }
            for (count, score) in [
                (report.wins, 1.0),
                (report.losses, 0.0),
                (report.draws, 0.5),
            ] {
                games.extend((0..count).map(|_| Game {
                    players: *pair,
                    score,
                }));
            }
        }
        let unrated = if games.is_empty() {
            Some("no games".to_string())
        } else {
            match rating::fit(&names, &games, anchor) {
                Ok(fit) => {
                    for rating in fit.ratings {
                        if let Some(s) = standings.iter_mut().find(|s| s.name == rating.name) {
                            s.elo = Some(rating.elo);
                            s.error = Some(rating.error);
                        }
                    }
                    None
                }
                Err(why) => Some(why),
            }
        };
        let mut standings: Vec<(usize, Standing)> = standings.into_iter().enumerate().collect();
        standings.sort_by(|(_, a), (_, b)| {
            let elo = |s: &Standing| s.elo.unwrap_or(f64::NEG_INFINITY);
            elo(b)
                .total_cmp(&elo(a))
                .then(b.score().total_cmp(&a.score()))
                .then(b.points.total_cmp(&a.points))
        });
        TournamentReport {
            format,
            anchor: names[anchor].clone(),
            names,
            pairings,
            standings,
            unrated,
        }
    }

    /// The tournament of a log's games (all of them, or merged shards'), from its settings
    /// line; `None` when the settings are a match's.
    pub fn from_log(
        settings: &str,
        records: &[GameRecord],
        anchor_name: Option<&str>,
    ) -> Result<Option<TournamentReport>, String> {
        let field = |name: &str| {
            settings
                .split('\t')
                .find_map(|f| f.strip_prefix(name)?.strip_prefix('='))
        };
        let Some(format) = field("tournament") else {
            return Ok(None);
        };
        let format: Format = format.parse()?;
        let names: Vec<String> = (1..)
            .map_while(|i| field(&format!("engine{i}")))
            .map(|engine| engine.split(" | ").next().unwrap_or(engine).to_string())
            .collect();
        let games: usize = field("games_per_pair")
            .and_then(|n| n.parse().ok())
            .filter(|&n: &usize| n >= 2)
            .ok_or("the settings name no games_per_pair")?;
        let pairings = format.pairings(names.len());
        let mut tally = Tally::new(
            games / 2,
            pairings
                .iter()
                .map(|pair| pair.map(|e| names[e].clone()))
                .collect(),
            None,
        );
        for record in records {
            tally.add_record(record)?;
        }
        let anchor = anchor(&names, anchor_name)?;
        Ok(Some(TournamentReport::new(
            format,
            names,
            pairings.into_iter().zip(tally.reports).collect(),
            anchor,
        )))
    }

    /// Points of engine `a` against engine `b` and their games, if they met.
    fn points(&self, a: usize, b: usize) -> Option<(f64, u64)> {
        self.pairings.iter().find_map(|(pair, report)| {
            let draws = report.draws as f64 / 2.0;
            if *pair == [a, b] {
                Some((report.wins as f64 + draws, report.games()))
            } else if *pair == [b, a] {
                Some((report.losses as f64 + draws, report.games()))
            } else {
                None
            }
        })
    }

    /// Everything printed, as one JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let standings: Vec<serde_json::Value> = self
            .standings
            .iter()
            .enumerate()
            .map(|(rank, (_, s))| {
                let failures: serde_json::Map<String, serde_json::Value> = FailureKind::ALL
                    .iter()
                    .zip(s.failures)
                    .map(|(kind, n)| (kind.to_string(), json!(n)))
                    .collect();
                json!({
                    "rank": rank + 1,
                    "name": s.name,
                    "games": s.games,
                    "points": s.points,
                    "score": s.score(),
                    "elo": s.elo,
                    "error": s.error,
                    "faults": s.faults(),
                    "failures": failures,
                })
            })
            .collect();
        let crosstable: serde_json::Map<String, serde_json::Value> = self
            .names
            .iter()
            .enumerate()
            .map(|(a, name)| {
                let row: serde_json::Map<String, serde_json::Value> = self
                    .names
                    .iter()
                    .enumerate()
                    .filter_map(|(b, other)| {
                        let (points, _) = self.points(a, b)?;
                        Some((other.clone(), json!(points)))
                    })
                    .collect();
                (name.clone(), json!(row))
            })
            .collect();
        let pairings: Vec<serde_json::Value> = self
            .pairings
            .iter()
            .map(|(_, r)| {
                json!({
                    "engines": r.names,
                    "wins": r.wins,
                    "losses": r.losses,
                    "draws": r.draws,
                    "pentanomial": r.pentanomial.0,
                    "split_pairs": r.split_pairs,
                })
            })
            .collect();
        json!({
            "format": self.format.to_string(),
            "anchor": self.anchor,
            "unrated": self.unrated,
            "standings": standings,
            "crosstable": crosstable,
            "pairings": pairings,
        })
    }
}

impl fmt::Display for TournamentReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self
            .names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        writeln!(
            f,
            "Rank  {:<width$}  {:>5}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}",
            "Name", "Games", "Points", "Score", "Elo", "+/-", "Faults"
        )?;
        for (rank, (_, s)) in self.standings.iter().enumerate() {
            let (elo, error) = match (s.elo, s.error) {
                (Some(elo), Some(error)) => (format!("{elo:+.1}"), format!("{error:.1}")),
                _ => ("-".to_string(), "-".to_string()),
            };
            writeln!(
                f,
                "{:>4}  {:<width$}  {:>5}  {:>6.1}  {:>5.1}%  {elo:>7}  {error:>6}  {:>6}",
                rank + 1,
                s.name,
                s.games,
                s.points,
                100.0 * s.score(),
                s.faults()
            )?;
        }
        match &self.unrated {
            None => writeln!(
                f,
                "Elo: maximum likelihood on one scale ({} = 0), +/- 95% (1.96 standard errors)",
                self.anchor
            )?,
            Some(why) => writeln!(f, "Elo: none ({why})")?,
        }
        writeln!(f)?;
        writeln!(
            f,
            "Crosstable (points of the row's engine against the column's):"
        )?;
        write!(f, "{:>4}  {:<width$}", "", "")?;
        for rank in 1..=self.standings.len() {
            write!(f, "  {rank:>5}")?;
        }
        writeln!(f)?;
        for (rank, (a, s)) in self.standings.iter().enumerate() {
            write!(f, "{:>4}  {:<width$}", rank + 1, s.name)?;
            for (b, _) in &self.standings {
                let cell = match self.points(*a, *b) {
                    _ if a == b => "·".to_string(),
                    Some((points, _)) => format!("{points:.1}"),
                    None => "-".to_string(),
                };
                write!(f, "  {cell:>5}")?;
            }
            writeln!(f)?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "Pairings (W - L - D from the first engine's view; Ptnml(0-2) over game pairs):"
        )?;
        for (_, report) in &self.pairings {
            let [a, b, c, d, e] = report.pentanomial.0;
            writeln!(
                f,
                "{}  Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}]",
                report.score_line()
            )?;
        }
        for (_, s) in &self.standings {
            let parts: Vec<String> = FailureKind::ALL
                .iter()
                .zip(s.failures)
                .filter(|&(_, n)| n > 0)
                .map(|(kind, n)| format!("{kind}: {n}"))
                .collect();
            if !parts.is_empty() {
                writeln!(f, "Games lost by failure, {}: {}", s.name, parts.join(", "))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_of_each_format() {
        assert_eq!(
            Format::RoundRobin.pairings(4),
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        assert_eq!(Format::Gauntlet.pairings(4), [[0, 1], [0, 2], [0, 3]]);
        assert_eq!("gauntlet".parse(), Ok(Format::Gauntlet));
        assert!("knockout".parse::<Format>().is_err());
    }

    #[test]
    fn engines_with_their_own_time_controls_and_options() {
        let tc = TimeControl::Depth(1);
        let engines = TournamentConfig::engines(
            &["a=./shove --level 3".into(), "b='/my dir/shove'".into()],
            tc,
            &["b=nodes=500".into()],
            &["a:Hash=8".into(), "a:Skill Level=4".into()],
        )
        .unwrap();
        assert_eq!(engines[0].command, ["./shove", "--level", "3"]);
        assert_eq!(engines[0].tc, tc);
        assert_eq!(engines[1].tc, TimeControl::Nodes(500));
        assert_eq!(engines[1].command, ["/my dir/shove"]);
        let options = [("Hash", "8"), ("Skill Level", "4")].map(|(n, v)| (n.into(), v.into()));
        assert_eq!(engines[0].options, options);
        assert!(engines[1].options.is_empty());
        for (list, tcs, options) in [
            (&["a=x".to_string(), "a=y".into()][..], &[][..], &[][..]),
            (&["a x".into()], &[], &[]),
            (&["a:b=x".into()], &[], &[]),
            (&["a=".into()], &[], &[]),
            (&["a=x".into()], &["c=depth=1".into()], &[]),
            (&["a=x".into()], &["a=fast".into()], &[]),
            (&["a=x".into()], &[], &["a=Hash=8".into()]),
            (&["a=x".into()], &[], &["c:Hash=8".into()]),
        ] {
            let result = TournamentConfig::engines(list, tc, tcs, options);
            assert!(result.is_err(), "accepted {list:?} {tcs:?} {options:?}");
        }
    }

    /// Three engines, two games per pairing: `a` beats both, `b` and `c` draw once and
    /// `c` wins once.
    fn report() -> TournamentReport {
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let pairings = Format::RoundRobin.pairings(3);
        let mut reports = Vec::new();
        for (pair, (wins, losses, draws)) in pairings.iter().zip([(2, 0, 0), (2, 0, 0), (0, 1, 1)])
        {
            let mut report = MatchReport::new(pair.map(|e| names[e].clone()), None);
            (report.wins, report.losses, report.draws) = (wins, losses, draws);
            reports.push(report);
        }
        reports[2].failures[0][FailureKind::Crash as usize] = 1;
        TournamentReport::new(
            Format::RoundRobin,
            names,
            pairings.into_iter().zip(reports).collect(),
            2,
        )
    }

    #[test]
    fn standings_rank_by_rating_and_the_crosstable_adds_up() {
        let report = report();
        let order: Vec<&str> = report
            .standings
            .iter()
            .map(|(_, s)| s.name.as_str())
            .collect();
        assert_eq!(order, ["a", "c", "b"]);
        let (_, a) = &report.standings[0];
        assert_eq!((a.games, a.points), (4, 4.0));
        let (_, c) = &report.standings[1];
        assert_eq!((c.points, c.elo), (1.5, Some(0.0)));
        let (_, b) = &report.standings[2];
        assert_eq!((b.points, b.faults()), (0.5, 1));
        assert!(b.elo.unwrap() < 0.0 && a.elo.unwrap() > 0.0);
        let text = report.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("Rank  Name"), "{text}");
        assert!(lines[1].starts_with("   1  a "), "{text}");
        assert!(text.contains("Score of b vs c: 0 - 1 - 1 [0.250] 2  Ptnml(0-2): [0, 0, 0, 0, 0]"));
        assert!(
            text.contains("Games lost by failure, b: crash: 1"),
            "{text}"
        );
        // Each row of the crosstable sums to the engine's points.
        let crosstable = lines
            .iter()
            .position(|l| l.starts_with("Crosstable"))
            .unwrap();
        for (row, (_, s)) in lines[crosstable + 2..].iter().zip(&report.standings) {
            let sum: f64 = row
                .split_whitespace()
                .filter_map(|w| w.parse::<f64>().ok())
                .skip(1)
                .sum();
            assert_eq!(sum, s.points, "{row}");
        }
        let json = report.to_json();
        assert_eq!(json["standings"][0]["name"], "a");
        assert_eq!(json["crosstable"]["c"]["b"], 1.5);
        assert_eq!(json["standings"][2]["failures"]["crash"], 1);
    }
}
