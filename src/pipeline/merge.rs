//! `shove merge`: combines the outputs of sharded runs. Match logs become one log and one
//! result (score, Elo, pentanomial counts, SPRT state), tournament logs one log and the
//! tournament's standings; self-play data files become one
//! data file. Inputs made with different settings, or holding the same game twice, are
//! refused: they are not parts of one run.

use super::data::{self, Sample};
use crate::matches::log::{self, ENGINES, GameRecord, HEADER, SETTINGS};
use crate::matches::stats::Sprt;
use crate::matches::{MatchReport, TournamentReport};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// What kind of file an input is, from its first line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    MatchLog,
    Data,
}

fn first_lines(path: &Path, count: usize) -> Result<Vec<String>, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    BufReader::new(file)
        .lines()
        .take(count)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

pub fn kind(path: &Path) -> Result<Kind, String> {
    let lines = first_lines(path, 1)?;
    match lines.first() {
        Some(line) if line.starts_with(data::MAGIC) => Ok(Kind::Data),
        Some(line) if line == HEADER => Ok(Kind::MatchLog),
        _ => Err(format!(
            "{} is neither a match log nor a self-play data file",
            path.display()
        )),
    }
}

/// Merges `inputs` (all of one kind) into `out`; returns the text to print.
pub fn merge(inputs: &[PathBuf], out: Option<&Path>) -> Result<String, String> {
    let Some(first) = inputs.first() else {
        return Err("no files to merge".into());
    };
    let kind = kind(first)?;
    for path in &inputs[1..] {
        if self::kind(path)? != kind {
            return Err(format!(
                "{} and {} are not of the same kind",
                first.display(),
                path.display()
            ));
        }
    }
    match kind {
        Kind::MatchLog => merge_logs(inputs, out),
        Kind::Data => {
            let out = out.ok_or("merging data files needs --out FILE")?;
            merge_data(inputs, out)
        }
    }
}

fn merge_logs(inputs: &[PathBuf], out: Option<&Path>) -> Result<String, String> {
    let settings = log::settings(&inputs[0])?;
    let mut records: Vec<GameRecord> = Vec::new();
    let mut owner: HashMap<usize, &PathBuf> = HashMap::new();
    // The engines that played, from the first log that names them (older logs do not).
    let mut engines: Option<(String, &PathBuf)> = None;
    for path in inputs {
        let these = log::settings(path)?;
        if these != settings {
            return Err(format!(
                "{} and {} come from matches with different settings: {}",
                inputs[0].display(),
                path.display(),
                log::differences(&settings, &these)
            ));
        }
        match (log::engines(path)?, &engines) {
            (Some(these), Some((first, first_path))) if these != *first => {
                return Err(format!(
                    "{} and {} were played by different engines: {}",
                    first_path.display(),
                    path.display(),
                    log::differences(first, &these)
                ));
            }
            (Some(these), None) => engines = Some((these, path)),
            _ => {}
        }
        for record in log::read_log_file(path)? {
            if let Some(other) = owner.insert(record.number, path) {
                return Err(format!(
                    "game {} is in both {} and {}: not shards of one match",
                    record.number,
                    other.display(),
                    path.display()
                ));
            }
            records.push(record);
        }
    }
    records.sort_by_key(|r| r.number);
    let sprt = settings
        .split('\t')
        .find_map(|f| f.strip_prefix("sprt="))
        .filter(|s| *s != "-")
        .map(str::parse::<Sprt>)
        .transpose()?;
    // A tournament's log names its engines and pairings; a match's first game its two.
    let text = match TournamentReport::from_log(&settings, &records, None)? {
        Some(tournament) => tournament.to_string(),
        None => report(&records, sprt)?.to_string(),
    };
    if let Some(out) = out {
        let mut text = format!("{HEADER}\n{SETTINGS}\t{settings}\n");
        if let Some((engines, _)) = &engines {
            text.push_str(&format!("{ENGINES}\t{engines}\n"));
        }
        for record in &records {
            text.push_str(&record.to_line());
            text.push('\n');
        }
        std::fs::write(out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    Ok(text)
}

/// The match result of logged games, from the first engine's view (player 1 of game 1).
pub fn report(records: &[GameRecord], sprt: Option<Sprt>) -> Result<MatchReport, String> {
    let Some(first) = records.first() else {
        return Err("the logs hold no games".into());
    };
    // The first engine is player 1 in odd-numbered games.
    let names = if first.number % 2 == 1 {
        first.players.clone()
    } else {
        [first.players[1].clone(), first.players[0].clone()]
    };
    let mut report = MatchReport::new(names, sprt);
    let mut pairs = HashMap::new();
    for record in records {
        report.add_record(record, &mut pairs);
    }
    Ok(report)
}

fn merge_data(inputs: &[PathBuf], out: &Path) -> Result<String, String> {
    if inputs.iter().any(|p| p == out) {
        return Err(format!("--out {} is also an input", out.display()));
    }
    let header = data::read_header(&inputs[0])?;
    let mut samples: Vec<Sample> = Vec::new();
    // Game number -> the input holding it (a file given twice holds its games twice).
    let mut owner: HashMap<u64, usize> = HashMap::new();
    for (input, path) in inputs.iter().enumerate() {
        let these = data::read_header(path)?;
        if these != header {
            return Err(format!(
                "{} and {} were made with different settings:\n  {header}\n  {these}",
                inputs[0].display(),
                path.display()
            ));
        }
        let mut games = Vec::new();
        data::read(path, |sample| {
            games.push(sample.game);
            samples.push(sample);
        })?;
        games.sort_unstable();
        games.dedup();
        for game in games {
            if let Some(other) = owner.insert(game, input) {
                return Err(format!(
                    "game {game} is in both {} and {}: not shards of one run",
                    inputs[other].display(),
                    path.display()
                ));
            }
        }
    }
    // Stable: a game's positions stay in the order they were played.
    samples.sort_by_key(|s| s.game);
    let file =
        std::fs::File::create(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut writer = std::io::BufWriter::new(file);
    let io = |e: std::io::Error| format!("cannot write {}: {e}", out.display());
    writeln!(writer, "{header}").map_err(io)?;
    for sample in &samples {
        writeln!(writer, "{sample}").map_err(io)?;
    }
    writer.flush().map_err(io)?;
    Ok(format!(
        "{} positions of {} games written to {}\n",
        samples.len(),
        owner.len(),
        out.display()
    ))
}
