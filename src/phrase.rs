//! What shove says to people, as English filled from a template, with the template and its
//! values alongside, so that the GUI's page can say it in the reader's language. The games'
//! errors are phrases too (their `Display` is the phrase's English), so a bad position
//! string reads the same on the command line and, translated, on the page. The page's
//! dictionaries (`src/gui/assets/lang-*.js`) are keyed by the English templates, as for all
//! the page's words: the Rust source is the one place of the English wording, the
//! dictionaries the one place of its translations.

use serde_json::{Map, Value, json};
use std::fmt;

/// An English template (`move {n}: {reason}`) and the values of its placeholders: plain
/// text (a move, a number, a field as written) or another phrase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phrase {
    template: &'static str,
    values: Vec<(&'static str, Part)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Text(String),
    Phrase(Phrase),
}

impl Phrase {
    pub fn new(template: &'static str) -> Phrase {
        Phrase {
            template,
            values: Vec::new(),
        }
    }

    /// Text with no translation (a message from outside shove, e.g. the operating system's).
    pub fn plain(text: impl fmt::Display) -> Phrase {
        Phrase::new("{text}").with("text", text)
    }

    /// `{name}` stands for `value`, as it is written.
    pub fn with(mut self, name: &'static str, value: impl fmt::Display) -> Phrase {
        self.values.push((name, Part::Text(value.to_string())));
        self
    }

    /// `{name}` stands for another phrase, translated in its turn.
    pub fn with_phrase(mut self, name: &'static str, value: Phrase) -> Phrase {
        self.values.push((name, Part::Phrase(value)));
        self
    }

    /// `{"text": template, "values": {name: text or phrase}}`, for the page's `say`
    /// (src/gui/assets/api.js).
    pub fn to_json(&self) -> Value {
        let values: Map<String, Value> = self
            .values
            .iter()
            .map(|(name, part)| {
                let value = match part {
                    Part::Text(text) => json!(text),
                    Part::Phrase(phrase) => phrase.to_json(),
                };
                (name.to_string(), value)
            })
            .collect();
        json!({ "text": self.template, "values": values })
    }
}

/// An error that says what is wrong as a phrase; its `Display` writes the phrase's English.
pub trait Phrased: fmt::Display {
    fn phrase(&self) -> Phrase;
}

/// `Display` for a [`Phrased`] error: its phrase's English, so the wording lives only in
/// the phrase.
macro_rules! display_as_phrase {
    ($error:ty) => {
        impl std::fmt::Display for $error {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&$crate::phrase::Phrased::phrase(self), f)
            }
        }
    };
}
pub(crate) use display_as_phrase;

/// The English, placeholders filled (a placeholder without a value stays as written).
impl fmt::Display for Phrase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.template;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                break;
            };
            f.write_str(&rest[..open])?;
            let name = &rest[open + 1..close];
            match self.values.iter().find(|(n, _)| *n == name) {
                Some((_, Part::Text(text))) => f.write_str(text)?,
                Some((_, Part::Phrase(phrase))) => write!(f, "{phrase}")?,
                None => f.write_str(&rest[open..=close])?,
            }
            rest = &rest[close + 1..];
        }
        f.write_str(rest)
    }
}

impl std::error::Error for Phrase {}

/// The English, where only text is wanted (the command line, the protocol).
impl From<Phrase> for String {
    fn from(phrase: Phrase) -> String {
        phrase.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phrase_is_english_text_and_its_template() {
        let reason = Phrase::new("illegal move '{move}' in this position").with("move", "a1a2");
        let p = Phrase::new("move {n}: {reason}")
            .with("n", 2)
            .with_phrase("reason", reason);
        assert_eq!(
            p.to_string(),
            "move 2: illegal move 'a1a2' in this position"
        );
        assert_eq!(
            p.to_json(),
            json!({"text": "move {n}: {reason}", "values": {"n": "2", "reason": {
                "text": "illegal move '{move}' in this position", "values": {"move": "a1a2"}}}})
        );
        // Text with braces of its own is kept whole.
        assert_eq!(Phrase::plain("a {b} c").to_string(), "a {b} c");
        assert_eq!(Phrase::new("{missing} x").to_string(), "{missing} x");
    }
}
