//! The puzzle file: one puzzle per line, `id;position string;solution moves;rating;themes`,
//! `#` comments and blank lines allowed (docs/puzzles.md).
//!
//! The solution is the whole move sequence from the position, both sides, space-separated;
//! whose decision each move is follows from the position. The first comment line may be the
//! header the generator writes, `# shove puzzles` then tab-separated `name=value` settings
//! (`game`, `rules`, `depth`, …), so that a set names its game and rules.

use std::fmt;

/// The words that start a set's header comment.
pub const HEADER: &str = "# shove puzzles";

/// One puzzle as written: nothing here is checked against the rules ([`super::check`] does).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub id: String,
    pub position: String,
    /// Every move from the position, the solver's and the opponent's, in order.
    pub solution: Vec<String>,
    /// Estimated difficulty on the game's level Elo scale ([`super::rating`]).
    pub rating: i32,
    pub themes: Vec<String>,
}

impl Puzzle {
    /// Parses one puzzle line (not a comment), or says which field is wrong.
    pub fn parse(line: &str) -> Result<Puzzle, String> {
        let fields: Vec<&str> = line.trim_end_matches(['\r', '\n']).split(';').collect();
        let [id, position, solution, rating, themes] = fields[..] else {
            return Err(format!(
                "{} fields, expected 5 (id;position;solution;rating;themes)",
                fields.len()
            ));
        };
        let id = id.trim();
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(format!(
                "id '{id}' is not letters, digits and '-' (it is part of a link)"
            ));
        }
        if position.trim().is_empty() {
            return Err("the position string is empty".into());
        }
        let solution: Vec<String> = solution.split_whitespace().map(str::to_string).collect();
        if solution.is_empty() {
            return Err("the solution has no moves".into());
        }
        let rating = rating
            .trim()
            .parse()
            .map_err(|_| format!("rating '{}' is not an integer", rating.trim()))?;
        let themes: Vec<String> = themes
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect();
        if let Some(bad) = themes.iter().find(|t| {
            !t.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        }) {
            return Err(format!(
                "theme '{bad}' is not lower-case words joined by '-'"
            ));
        }
        Ok(Puzzle {
            id: id.to_string(),
            position: position.trim().to_string(),
            solution,
            rating,
            themes,
        })
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{};{};{};{};{}",
            self.id,
            self.position,
            self.solution.join(" "),
            self.rating,
            self.themes.join(",")
        )
    }
}

/// A set as read: its header settings and each puzzle with its 1-based line number, or the
/// line's error. A bad line does not stop the reading: every problem is reported.
#[derive(Debug, Default)]
pub struct PuzzleFile {
    pub settings: Vec<(String, String)>,
    pub puzzles: Vec<(usize, Puzzle)>,
    /// (line number, reason) of every line that is not a puzzle.
    pub errors: Vec<(usize, String)>,
}

impl PuzzleFile {
    pub fn parse(text: &str) -> PuzzleFile {
        let mut file = PuzzleFile::default();
        let mut ids = std::collections::HashMap::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            if let Some(rest) = line.strip_prefix(HEADER) {
                if file.settings.is_empty() {
                    file.settings = parse_settings(rest);
                }
                continue;
            }
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            match Puzzle::parse(line) {
                Ok(puzzle) => {
                    if let Some(first) = ids.insert(puzzle.id.clone(), number) {
                        file.errors.push((
                            number,
                            format!("id '{}' is already used on line {first}", puzzle.id),
                        ));
                    } else {
                        file.puzzles.push((number, puzzle));
                    }
                }
                Err(e) => file.errors.push((number, e)),
            }
        }
        file
    }

    /// The value of a header setting.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The header line for these settings.
pub fn header_line(settings: &[(String, String)]) -> String {
    let mut line = HEADER.to_string();
    for (name, value) in settings {
        line.push('\t');
        line.push_str(name);
        line.push('=');
        line.push_str(value);
    }
    line
}

fn parse_settings(rest: &str) -> Vec<(String, String)> {
    rest.split('\t')
        .filter_map(|field| field.trim().split_once('='))
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

/// Rule options as a header writes them (`-` for none, else `Name=value` joined by `,`).
pub fn rules_text(options: &[(String, String)]) -> String {
    if options.is_empty() {
        return "-".into();
    }
    options
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Rule options read back from [`rules_text`].
pub fn parse_rules_text(text: &str) -> Result<Vec<(String, String)>, String> {
    if text.trim() == "-" || text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|option| {
            option
                .split_once('=')
                .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("rule option '{option}' is not Name=value"))
        })
        .collect()
}

/// Every theme, by game (the common ones under `"all"`), for documentation and the page's
/// filter.
pub const THEMES: &[(&str, &[&str])] = &[
    ("all", &["win", "advantage", "defence", "one-move", "long"]),
    ("akiba", &["capture-chain", "red-race", "push-off"]),
    ("offboard", &["push-off", "sector-3", "re-placement"]),
    ("abraxas", &["line", "stop", "plate"]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_line_round_trips() {
        let line = "00012-034;6B/WW1R2B/1WRRRB1/WRRRRB1/2RRRR1/1BBR1WW/BB3WW w 0 0 - - 5;c3c4 a1a2 c4c5;1168;red-race,win";
        let puzzle = Puzzle::parse(line).unwrap();
        assert_eq!(puzzle.solution, ["c3c4", "a1a2", "c4c5"]);
        assert_eq!(puzzle.rating, 1168);
        assert_eq!(puzzle.themes, ["red-race", "win"]);
        assert_eq!(puzzle.to_string(), line);
    }

    #[test]
    fn bad_lines_are_named_and_the_rest_kept() {
        let text = format!(
            "{}\tgame=akiba\trules=-\n# a comment\n\na;p;m1;100;x\nb;p;m1;high;x\nc;p;;100;x\na;p;m2;100;x\nd;p;m1;100\ne f;p;m1;1;x\ng;p;m;1;Bad Theme\n",
            HEADER
        );
        let file = PuzzleFile::parse(&text);
        assert_eq!(file.get("game"), Some("akiba"));
        assert_eq!(file.puzzles.len(), 1);
        let errors: Vec<(usize, &str)> =
            file.errors.iter().map(|(n, e)| (*n, e.as_str())).collect();
        assert_eq!(errors[0], (5, "rating 'high' is not an integer"));
        assert_eq!(errors[1], (6, "the solution has no moves"));
        assert_eq!(errors[2], (7, "id 'a' is already used on line 4"));
        assert!(
            errors[3].1.starts_with("4 fields, expected 5"),
            "{errors:?}"
        );
        assert_eq!(errors[3].0, 8);
        assert!(errors[4].1.starts_with("id 'e f'"), "{errors:?}");
        assert!(errors[5].1.starts_with("theme 'Bad Theme'"), "{errors:?}");
    }

    #[test]
    fn rules_text_round_trips() {
        let rules = vec![("ExtraMove".to_string(), "false".to_string())];
        assert_eq!(parse_rules_text(&rules_text(&rules)).unwrap(), rules);
        assert!(parse_rules_text("-").unwrap().is_empty());
        assert!(parse_rules_text("ExtraMove").is_err());
    }
}
