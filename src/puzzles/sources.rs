//! The games puzzles are looked for in: match logs (`shove match --log`), self-play data
//! (`shove selfplay --out`) and game records, told apart by their first line. Only games of
//! the game and rules asked for are kept; the others are counted.

use crate::game::Game;
use crate::matches::log;
use crate::pipeline::data;
use crate::record::Record;
use crate::search_hints::SearchHints;
use std::path::{Path, PathBuf};

/// One game: every position of it, from the start to the last.
pub struct SourceGame<G> {
    pub positions: Vec<G>,
}

/// The games of all files, in order (file by file, game by game), and how many were left
/// out for being of another game or other rules.
pub struct Sources<G> {
    pub games: Vec<SourceGame<G>>,
    pub skipped: usize,
}

/// Reads every file; an unreadable file or a game that does not replay is an error naming
/// the file.
pub fn read<G: SearchHints>(paths: &[PathBuf], rules: G::Rules) -> Result<Sources<G>, String> {
    if paths.is_empty() {
        return Err("no games to look in: name match logs, self-play data or records".into());
    }
    let mut sources = Sources {
        games: Vec::new(),
        skipped: 0,
    };
    let wanted = format!("{rules:?}");
    for path in paths {
        read_file(path, &wanted, &mut sources).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(sources)
}

fn read_file<G: Game>(path: &Path, wanted: &str, sources: &mut Sources<G>) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let first = text.lines().next().unwrap_or("");
    if first == log::HEADER {
        for game in log::read_log(text.as_bytes()).map_err(|e| e.to_string())? {
            if !game.game.eq_ignore_ascii_case(G::NAME) {
                sources.skipped += 1;
                continue;
            }
            let record = Record::from_log(&game)?;
            add_record(&record, wanted, sources)?;
        }
    } else if first.starts_with(data::MAGIC) {
        let header = data::Header::parse(first)?;
        if header.get("game") != Some(G::NAME) {
            return Err(format!(
                "self-play data of {}, not of {}",
                header.get("game").unwrap_or("(no game)"),
                G::NAME
            ));
        }
        let rules = header.rules::<G>()?;
        if format!("{rules:?}") != wanted {
            sources.skipped += 1;
            return Ok(());
        }
        let mut error = None;
        let mut current: Option<(u64, Vec<G>)> = None;
        data::read_from(text.as_bytes(), &mut |sample| {
            if error.is_some() {
                return;
            }
            let position = match G::parse(&sample.position, rules) {
                Ok(p) => p,
                Err(e) => {
                    error = Some(format!("position '{}': {e}", sample.position));
                    return;
                }
            };
            match &mut current {
                Some((game, positions)) if *game == sample.game => positions.push(position),
                _ => {
                    if let Some((_, positions)) = current.take() {
                        sources.games.push(SourceGame { positions });
                    }
                    current = Some((sample.game, vec![position]));
                }
            }
        })?;
        if let Some(e) = error {
            return Err(e);
        }
        if let Some((_, positions)) = current {
            sources.games.push(SourceGame { positions });
        }
    } else {
        let record: Record = text
            .parse()
            .map_err(|e: crate::record::RecordError| e.to_string())?;
        if !record.game.eq_ignore_ascii_case(G::NAME) {
            sources.skipped += 1;
            return Ok(());
        }
        add_record(&record, wanted, sources)?;
    }
    Ok(())
}

fn add_record<G: Game>(
    record: &Record,
    wanted: &str,
    sources: &mut Sources<G>,
) -> Result<(), String> {
    let rules = crate::games::rules::<G>(&record.rules)?;
    if format!("{rules:?}") != wanted {
        sources.skipped += 1;
        return Ok(());
    }
    let positions = record.positions::<G>().map_err(|e| e.to_string())?;
    sources.games.push(SourceGame { positions });
    Ok(())
}
