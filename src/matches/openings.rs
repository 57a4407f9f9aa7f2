//! Opening positions: every pair of games starts from one, so that deterministic engines
//! still play different games. The balanced sets in `positions/` (made by `shove openings`,
//! [`crate::pipeline::openings`]) are built in ([`crate::profile::Profile::OPENINGS`]) and
//! used when `--openings` is not given.

use crate::game::Game;

/// The positions of an openings file: one position string per line; blank lines and lines
/// starting with `#` are skipped. Each must parse under `rules` and be a game still going
/// on; an error names the line.
pub fn parse<G: Game>(text: &str, rules: G::Rules) -> Result<Vec<G>, String> {
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let position = G::parse(line, rules).map_err(|e| format!("line {}: {e}", index + 1))?;
        if position.outcome().is_some() {
            return Err(format!("line {}: the game is already over", index + 1));
        }
        openings.push(position);
    }
    if openings.is_empty() {
        return Err("no positions in the openings".into());
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use crate::{abraxas, akiba, offboard};

    #[test]
    fn built_in_sets_parse() {
        let akiba = parse::<akiba::Position>(akiba::Position::OPENINGS, Default::default());
        assert!(akiba.unwrap().len() >= 2000);
        let offboard =
            parse::<offboard::Position>(offboard::Position::OPENINGS, Default::default());
        assert!(offboard.unwrap().len() >= 2000);
        let abraxas = parse::<abraxas::Position>(abraxas::Position::OPENINGS, Default::default());
        assert!(abraxas.unwrap().len() >= 2000);
    }

    #[test]
    fn bad_lines_are_named() {
        let text =
            "# comment\n\nWW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - - 1\nxyz\n";
        let error = parse::<akiba::Position>(text, Default::default()).unwrap_err();
        assert!(error.starts_with("line 4:"), "{error}");
        let over = "6B/7/7/7/7/7/W6 b 7 0 - - 1";
        assert!(parse::<akiba::Position>(over, Default::default()).is_err());
        assert!(parse::<akiba::Position>("# nothing\n", Default::default()).is_err());
    }
}
