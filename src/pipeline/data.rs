//! The self-play data file (`shove selfplay --out`, read by `shove tune` and `shove merge`).
//!
//! The first line is the header: `#shove-data`, the format version, then tab-separated
//! `name=value` settings (game, rule options, search budget, openings, adjudication). Each
//! further line is one position, tab-separated: position string, search score (side to
//! move's view, evaluation units; mates as ±30000 minus the distance), game result from the
//! side to move's view (`1`, `0.5`, `0`), quiet flag (`1` when the quiescence score equals
//! the static evaluation), game number within its run. See `docs/pipeline.md`.

use crate::game::Game;
use std::fmt;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// The magic word and version that start every data file.
pub const MAGIC: &str = "#shove-data";
pub const VERSION: u32 = 1;

/// The header: every setting that makes two files' positions comparable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub version: u32,
    /// `(name, value)` in order; `game` first.
    pub settings: Vec<(String, String)>,
}

impl Header {
    pub fn new(settings: Vec<(String, String)>) -> Header {
        Header {
            version: VERSION,
            settings,
        }
    }

    /// Whether positions of the two files were made the same way apart from the rules they
    /// were played under (each file's positions are read under its own rules) and the
    /// evaluation that played them: `shove tune` fits one evaluation to games of several
    /// rule sets, such as Abraxas sheets, and a network's next generation learns from the
    /// games of the generations before it as well as its own (the search budget, openings
    /// and adjudication, which shape the scores and results, must agree).
    pub fn same_apart_from_rules_and_evaluation(&self, other: &Header) -> bool {
        let without = |h: &Header| {
            h.settings
                .iter()
                .filter(|(name, _)| name != "rules" && name != "eval")
                .cloned()
                .collect::<Vec<_>>()
        };
        self.version == other.version && without(self) == without(other)
    }

    /// The rules the header names (`rules`: `Name=value` joined by `;`, `-` for none).
    pub fn rules<G: Game>(&self) -> Result<G::Rules, String> {
        let options: Vec<(String, String)> = match self.get("rules") {
            None | Some("-") => Vec::new(),
            Some(text) => text
                .split(';')
                .map(|option| {
                    option
                        .split_once('=')
                        .map(|(n, v)| (n.to_string(), v.to_string()))
                        .ok_or_else(|| format!("rule option '{option}' is not Name=value"))
                })
                .collect::<Result<_, _>>()?,
        };
        crate::games::rules::<G>(&options).map_err(String::from)
    }

    /// The value of a setting.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn parse(line: &str) -> Result<Header, String> {
        let mut fields = line.trim_end().split('\t');
        let magic = fields.next().unwrap_or("");
        let Some(version) = magic.strip_prefix(MAGIC) else {
            return Err(format!(
                "not a shove data file (the first line does not start with {MAGIC})"
            ));
        };
        let version: u32 = version
            .trim()
            .parse()
            .map_err(|_| format!("bad format version '{}'", version.trim()))?;
        if version != VERSION {
            return Err(format!(
                "format version {version} is not supported (this build reads {VERSION})"
            ));
        }
        let settings = fields
            .map(|field| {
                field
                    .split_once('=')
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .ok_or_else(|| format!("header field '{field}' is not name=value"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Header { version, settings })
    }
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{MAGIC} {}", self.version)?;
        for (name, value) in &self.settings {
            write!(f, "\t{name}={value}")?;
        }
        Ok(())
    }
}

/// One position of a self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub position: String,
    /// Search score from the side to move's view.
    pub score: i32,
    /// Game result from the side to move's view: 1 win, 0.5 draw, 0 loss.
    pub result: f32,
    /// The quiescence score equals the static evaluation.
    pub quiet: bool,
    /// The game's number within its run (0-based).
    pub game: u64,
}

impl Sample {
    pub fn parse(line: &str) -> Result<Sample, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [position, score, result, quiet, game] = fields[..] else {
            return Err(format!("{} fields, expected 5", fields.len()));
        };
        let score = score
            .parse()
            .map_err(|_| format!("score '{score}' is not an integer"))?;
        let result = match result {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            _ => return Err(format!("result '{result}' is not 1, 0.5 or 0")),
        };
        let quiet = match quiet {
            "1" => true,
            "0" => false,
            _ => return Err(format!("quiet flag '{quiet}' is not 1 or 0")),
        };
        let game = game
            .parse()
            .map_err(|_| format!("game number '{game}' is not a number"))?;
        Ok(Sample {
            position: position.to_string(),
            score,
            result,
            quiet,
            game,
        })
    }
}

impl fmt::Display for Sample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let result = if self.result >= 1.0 {
            "1"
        } else if self.result <= 0.0 {
            "0"
        } else {
            "0.5"
        };
        write!(
            f,
            "{}\t{}\t{result}\t{}\t{}",
            self.position,
            self.score,
            u8::from(self.quiet),
            self.game
        )
    }
}

/// Reads a data file: its header and, for each position, `on_sample`. An error names the
/// file and line.
pub fn read(path: &Path, mut on_sample: impl FnMut(Sample)) -> Result<Header, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    read_from(std::io::BufReader::new(file), &mut on_sample)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// [`read`] over any reader.
pub fn read_from(input: impl BufRead, on_sample: &mut dyn FnMut(Sample)) -> Result<Header, String> {
    let mut lines = input.lines().enumerate();
    let header = match lines.next() {
        Some((_, line)) => Header::parse(&line.map_err(|e| format!("cannot read: {e}"))?)
            .map_err(|e| format!("line 1: {e}"))?,
        None => return Err("empty file (no header)".into()),
    };
    for (index, line) in lines {
        let line = line.map_err(|e| format!("cannot read: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        on_sample(Sample::parse(&line).map_err(|e| format!("line {}: {e}", index + 1))?);
    }
    Ok(header)
}

/// Only the header of a data file.
pub fn read_header(path: &Path) -> Result<Header, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut line = String::new();
    std::io::BufReader::new(file)
        .read_line(&mut line)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Header::parse(&line).map_err(|e| format!("{}: line 1: {e}", path.display()))
}

/// Opens `path` for appending samples under `header`: a new or empty file gets the header;
/// an existing one must have the same header, or the settings differ and mixing them would
/// spoil the data.
pub fn open_append(path: &Path, header: &Header) -> Result<std::fs::File, String> {
    let existing = std::fs::metadata(path)
        .map(|m| m.len() > 0)
        .unwrap_or(false);
    if existing {
        let found = read_header(path)?;
        if &found != header {
            return Err(format!(
                "{} was written with other settings; not appending.\n  file: {found}\n  now:  {header}",
                path.display()
            ));
        }
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    if !existing {
        writeln!(file, "{header}").map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header::new(vec![
            ("game".into(), "akiba".into()),
            ("rules".into(), "-".into()),
            ("budget".into(), "nodes=2000".into()),
        ])
    }

    #[test]
    fn header_and_samples_round_trip() {
        let h = header();
        assert_eq!(Header::parse(&h.to_string()), Ok(h.clone()));
        assert_eq!(h.get("budget"), Some("nodes=2000"));
        let sample = Sample {
            position: "WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1".into(),
            score: -17,
            result: 0.5,
            quiet: true,
            game: 12,
        };
        assert_eq!(Sample::parse(&sample.to_string()), Ok(sample));
    }

    #[test]
    fn bad_input_is_named() {
        assert!(Header::parse("#shove-data 2\tgame=akiba").is_err());
        assert!(Header::parse("hello").is_err());
        assert!(Header::parse("#shove-data 1\tgame").is_err());
        let text = format!("{}\nx\t1\t1\t1\t0\nx\t1\t2\t1\t0\n", header());
        let error = read_from(text.as_bytes(), &mut |_| {}).unwrap_err();
        assert!(error.starts_with("line 3: result '2'"), "{error}");
        assert!(read_from("".as_bytes(), &mut |_| {}).is_err());
    }

    #[test]
    fn files_of_other_rules_or_another_evaluation_are_read_together_but_not_other_budgets() {
        let mut network_play = header();
        network_play.settings[1].1 = "s2".into();
        network_play
            .settings
            .push(("eval".into(), "network:d22c476ce80c5ff0".into()));
        assert!(header().same_apart_from_rules_and_evaluation(&network_play));
        assert!(network_play.same_apart_from_rules_and_evaluation(&header()));
        let mut other_budget = header();
        other_budget.settings[2].1 = "nodes=8000".into();
        assert!(!header().same_apart_from_rules_and_evaluation(&other_budget));
        let mut other_game = header();
        other_game.settings[0].1 = "offboard".into();
        assert!(!header().same_apart_from_rules_and_evaluation(&other_game));
    }

    #[test]
    fn appending_checks_the_header() {
        let dir = std::env::temp_dir().join(format!("shove-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.data");
        let _ = std::fs::remove_file(&path);
        drop(open_append(&path, &header()).unwrap());
        drop(open_append(&path, &header()).unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 1, "one header only");
        let mut other = header();
        other.settings[2].1 = "nodes=1".into();
        let error = open_append(&path, &other).unwrap_err();
        assert!(error.contains("other settings"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Which positions of data files to read (by `shove tune` and the network trainer), and
/// which of them go to the validation set.
#[derive(Clone, Debug)]
pub struct Selection {
    /// One game in this many goes to the validation set.
    pub validation_one_in: u64,
    /// Only quiet positions (quiescence value equal to the static evaluation).
    pub quiet_only: bool,
    /// Positions whose search score is beyond this (decided games, mates) are left out.
    pub max_score: i32,
    /// Stop keeping positions after this many.
    pub max_positions: Option<usize>,
}

/// How many positions the files held, and how many [`read_positions`] left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadCounts {
    pub read: usize,
    pub skipped: usize,
}

/// Reads data files of game `G` that are used together: each must name `G` in its header
/// and agree with the first on every setting but the rules and the evaluation, and each
/// file's positions are parsed under its own rules (so Abraxas sheets can be mixed).
/// `keep` receives every selected position that is not over, and whether it belongs to the
/// validation set: whole games go to one side, and the file index keeps equal game numbers
/// of different runs apart.
pub fn read_positions<G: Game>(
    paths: &[PathBuf],
    selection: &Selection,
    mut keep: impl FnMut(&Sample, G, bool) -> Result<(), String>,
) -> Result<ReadCounts, String> {
    if paths.is_empty() {
        return Err("no data files given".into());
    }
    let limit = selection.max_positions.unwrap_or(usize::MAX);
    let one_in = selection.validation_one_in.max(1);
    let (mut counts, mut kept) = (ReadCounts::default(), 0);
    let mut first: Option<(Header, &PathBuf)> = None;
    for (file_index, path) in paths.iter().enumerate() {
        let header = read_header(path)?;
        if header.get("game") != Some(G::NAME) {
            return Err(format!(
                "{} holds {} positions, not {}",
                path.display(),
                header.get("game").unwrap_or("(no game)"),
                G::NAME
            ));
        }
        match &first {
            Some((first, first_path)) if !first.same_apart_from_rules_and_evaluation(&header) => {
                return Err(format!(
                    "{} and {} were made with different settings (only the rules and the evaluation may differ)",
                    first_path.display(),
                    path.display()
                ));
            }
            Some(_) => {}
            None => first = Some((header.clone(), path)),
        }
        let rules = header
            .rules::<G>()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut error = None;
        read(path, |sample| {
            if error.is_some() {
                return;
            }
            counts.read += 1;
            if (selection.quiet_only && !sample.quiet)
                || sample.score.abs() > selection.max_score
                || kept >= limit
            {
                counts.skipped += 1;
                return;
            }
            let position = match G::parse(&sample.position, rules) {
                Ok(p) => p,
                Err(e) => {
                    error = Some(format!(
                        "{}: position '{}': {e}",
                        path.display(),
                        sample.position
                    ));
                    return;
                }
            };
            if position.outcome().is_some() {
                counts.skipped += 1;
                return;
            }
            let key =
                (sample.game ^ ((file_index as u64) << 40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            kept += 1;
            if let Err(e) = keep(&sample, position, (key >> 32).is_multiple_of(one_in)) {
                error = Some(e);
            }
        })?;
        if let Some(e) = error {
            return Err(e);
        }
    }
    Ok(counts)
}
