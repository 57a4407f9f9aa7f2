//! Every English text the pages of `shove gui` show has its German and French: the words
//! of the pages (`t('…')` in the modules, `data-i18n…` in the HTML), the phrases
//! (`Phrase::new("…")` anywhere in src/, src/phrase.rs: the server's and the games' errors)
//! and the puzzle themes, each in both dictionaries (src/gui/assets/lang-de.js, lang-fr.js)
//! with the same `{placeholders}`.
//! No browser: the dictionaries and sources are read as text.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn files(dir: &str, ext: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(Path::new(ROOT).join(dir)).expect("a directory") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == ext) {
            out.push((path.display().to_string(), read(&path)));
        }
    }
    out
}

/// Every `.rs` file under `dir`, with its text.
fn rust_files(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.display().to_string(), read(&path)));
        }
    }
    out
}

/// The string literal (quote `'` or `"`) starting at `text[at..]`, unescaped, or `None`.
fn literal(text: &str, at: usize) -> Option<String> {
    let mut chars = text[at..].chars();
    let quote = chars.next().filter(|q| *q == '\'' || *q == '"')?;
    let mut out = String::new();
    let mut escaped = false;
    for c in chars {
        match (escaped, c) {
            (true, _) => {
                out.push(c);
                escaped = false;
            }
            (false, '\\') => escaped = true,
            (false, c) if c == quote => return Some(out),
            (false, c) => out.push(c),
        }
    }
    None
}

/// The literals right after each `opener` (e.g. `t(`, then maybe spaces) not preceded by a
/// letter.
fn literals_after(text: &str, opener: &str) -> Vec<String> {
    text.match_indices(opener)
        .filter(|(at, _)| {
            !text[..*at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
        })
        .filter_map(|(at, _)| {
            let after = &text[at + opener.len()..];
            literal(text, text.len() - after.trim_start().len())
        })
        .collect()
}

/// Rust source with its `\`-newline continuations joined, as the compiler reads them.
fn joined(rust: &str) -> String {
    let mut out = String::new();
    let mut rest = rust;
    while let Some(at) = rest.find("\\\n") {
        out.push_str(&rest[..at]);
        rest = rest[at + 2..].trim_start();
    }
    out.push_str(rest);
    out
}

fn english() -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    for (path, text) in files("src/gui/assets", "js") {
        if !path.contains("lang-") {
            words.extend(literals_after(&text, "t("));
        }
    }
    for (_, html) in files("src/gui/assets", "html") {
        for attr in [
            "data-i18n-title=",
            "data-i18n-placeholder=",
            "data-i18n-aria-label=",
        ] {
            words.extend(literals_after(&html, attr));
        }
        for (at, _) in html.match_indices(" data-i18n>") {
            let text = &html[at + " data-i18n>".len()..];
            words.insert(text[..text.find('<').expect("a closing tag")].to_string());
        }
    }
    for (_, rust) in rust_files(&Path::new(ROOT).join("src")) {
        // Not the unit tests' phrases.
        let rust = joined(rust.split("#[cfg(test)]").next().unwrap_or_default());
        words.extend(
            literals_after(&rust, "Phrase::new(")
                .into_iter()
                .filter(|w| w != "{text}"),
        );
        // The things a request's body is read as (`the game line`): phrases of their own.
        words.extend(literals_after(&rust, "read_json(body, "));
        words.extend(literals_after(&rust, "read_body(body, "));
    }
    for (_, themes) in shove::puzzles::themes::THEMES {
        words.extend(themes.iter().map(|t| t.to_string()));
    }
    words
}

/// A dictionary module: `"English": "translation",` per line.
fn dictionary(language: &str) -> BTreeMap<String, String> {
    let text = read(&Path::new(ROOT).join(format!("src/gui/assets/lang-{language}.js")));
    text.lines()
        .filter(|l| l.trim_start().starts_with('"'))
        .map(|l| {
            let entry: serde_json::Value =
                serde_json::from_str(&format!("{{{}}}", l.trim().trim_end_matches(',')))
                    .unwrap_or_else(|e| panic!("lang-{language}.js: {l}: {e}"));
            let (k, v) = entry
                .as_object()
                .and_then(|o| o.iter().next())
                .expect("an entry");
            (k.clone(), v.as_str().expect("a text").to_string())
        })
        .collect()
}

fn placeholders(text: &str) -> BTreeSet<&str> {
    text.split('{')
        .skip(1)
        .filter_map(|p| p.split_once('}').map(|(name, _)| name))
        .collect()
}

#[test]
fn every_english_text_has_its_german_and_french() {
    let english = english();
    // The readers of the sources found what they look for.
    for sure in [
        "New game",
        "Next puzzle",
        "move {n}: {reason}",
        "review depth {depth} is out of range: 1 to {max}",
        "the game line",
        "no token: open the address shove gui printed at start (http://127.0.0.1:{port}/?token=…)",
        "capture-chain",
        "board field: {reason}",
        "'{text}' is not a square a1..g7",
        "bad {field}: {reason}",
        "record line {line}, {field}: {reason}",
        "sector {sector} value '{text}' is not 1, 2 or 3",
        "shove gui serves at most {n} pages at once: close one and reload this one",
    ] {
        assert!(
            english.contains(sure),
            "{sure:?} was not found in the sources"
        );
    }
    for language in ["de", "fr"] {
        let words = dictionary(language);
        let missing: Vec<&String> = english.iter().filter(|e| !words.contains_key(*e)).collect();
        assert!(missing.is_empty(), "lang-{language}.js lacks {missing:#?}");
        for (english, said) in &words {
            assert_eq!(
                placeholders(english),
                placeholders(said),
                "lang-{language}.js: {english:?} → {said:?}"
            );
        }
    }
}

/// A game's reason for refusing a position string reaches the page as a phrase (translated
/// there), and its English is the text the command line has always printed.
#[test]
fn a_bad_position_string_is_a_phrase_with_the_command_lines_english() {
    use shove::phrase::Phrased;
    let akiba = |text: &str| {
        let rules = shove::akiba::Rules::default();
        let e = shove::akiba::Position::parse(text, rules).expect_err("refused");
        (e.to_string(), e.phrase())
    };
    let offboard = |text: &str| {
        let rules = shove::offboard::Rules::default();
        let e = shove::offboard::Position::parse(text, rules).expect_err("refused");
        (e.to_string(), e.phrase())
    };
    let abraxas = |text: &str| {
        let rules = shove::abraxas::Rules::default();
        let e = shove::abraxas::Position::parse(text, rules).expect_err("refused");
        (e.to_string(), e.phrase())
    };
    let cases = [
        (
            akiba("8/7/7/7/7/7/7 w 0 0 - - 1"),
            "board field: unknown character '8' in rank 7",
        ),
        (
            akiba("WW3BB/WW1R1BB/2RRR2/1RRRRR1/2RRR2/BB1R1WW/BB3WW w 0 0 - a1 1"),
            "banned field: 'a1' is not a push: 'a1' is neither 'pass' nor two squares such as \
             'a6b6'",
        ),
        (
            offboard("R/Y r 0 0 ............ - 1"),
            "board field: 2 rows separated by '/', expected 9 (i down to a)",
        ),
        (
            abraxas("s9 8/8/8/8/8/8/8/8 sw 1 p - 24 0 0 3 3 1"),
            "bad sheet: unknown sheet 's9' (expected s1..s6 or a map)",
        ),
        (
            abraxas("s1 8/8/8/8/8/8/8/8 sw 3 p - 24 0 0 3 3 1"),
            "bad side: '3' is not 1 or 2",
        ),
    ];
    let english = english();
    for ((display, phrase), expected) in cases {
        assert_eq!(display, expected);
        assert_eq!(phrase.to_string(), expected);
        // Every template of the phrase, nested ones too, is one the dictionaries translate.
        let mut stack = vec![phrase.to_json()];
        while let Some(json) = stack.pop() {
            let template = json["text"].as_str().expect("a template");
            assert!(english.contains(template), "{template:?} is not translated");
            let values = json["values"].as_object().expect("values");
            stack.extend(values.values().filter(|v| v.is_object()).cloned());
        }
    }
}
