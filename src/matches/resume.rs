//! The log a run writes (`--log`), and resuming a run from it (`--resume`): the games it
//! already holds are kept and only the rest is played.

use super::log::{self, GameRecord, HEADER, SETTINGS};
use super::plan::Plan;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;

/// The games of the log at `path` when a run resumes: the log must come from a run with
/// these settings, and hold each game once and only games of this shard (`games`, 0-based).
/// If it names the engines that played (`#engines`, `engines_line` is ours), they must be
/// the same: the rest of a run is not played by another version. A last line cut off
/// mid-write (the machine stopped) is dropped from the file: its game is played again.
pub(super) fn resumed_games(
    plan: &Plan,
    path: &Path,
    games: &[usize],
    engines_line: &str,
) -> Result<Vec<GameRecord>, String> {
    let kind = plan.kind;
    let (logged, ours) = (log::settings(path)?, &plan.settings);
    if logged != *ours {
        return Err(format!(
            "cannot resume {}: it comes from a {kind} with other settings: {}",
            path.display(),
            log::differences(&logged, ours)
        ));
    }
    let ours = engines_line
        .strip_prefix(log::ENGINES)
        .unwrap_or(engines_line)
        .trim_start_matches('\t');
    if let Some(logged) = log::engines(path)?
        && logged != ours
    {
        return Err(format!(
            "cannot resume {}: it was played by other engines: {}",
            path.display(),
            log::differences(&logged, ours)
        ));
    }
    log::drop_unfinished_line(path)?;
    let records = log::read_log_file(path)?;
    for (i, record) in records.iter().enumerate() {
        if !games.contains(&(record.number - 1)) {
            return Err(format!(
                "cannot resume {}: game {} is not one of shard {}'s games",
                path.display(),
                record.number,
                plan.run.shard
            ));
        }
        if records[..i].iter().any(|r| r.number == record.number) {
            return Err(format!(
                "cannot resume {}: it holds game {} twice",
                path.display(),
                record.number
            ));
        }
    }
    Ok(records)
}

/// The run's log (`None` without `--log`): appended to when the run resumes games it holds
/// (`resuming`), else written afresh with its header, settings and engines lines.
pub(super) fn open_log(
    plan: &Plan,
    resuming: bool,
    engines_line: &str,
) -> Result<Option<BufWriter<File>>, String> {
    let Some(path) = &plan.run.log else {
        return Ok(None);
    };
    if resuming {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot append to log {}: {e}", path.display()))?;
        return Ok(Some(BufWriter::new(file)));
    }
    let file =
        File::create(path).map_err(|e| format!("cannot create log {}: {e}", path.display()))?;
    let mut writer = BufWriter::new(file);
    writeln!(writer, "{HEADER}")
        .and_then(|()| writeln!(writer, "{SETTINGS}\t{}", plan.settings))
        .and_then(|()| writeln!(writer, "{engines_line}"))
        .and_then(|()| writer.flush())
        .map_err(|e| format!("cannot write the log: {e}"))?;
    Ok(Some(writer))
}
