//! The lesson file (docs/lessons.md): lessons of short exercises, one line per field,
//! `key [language] value`; `#` comments and blank lines allowed. Reading it checks every
//! exercise against the game's rules, so that a file read without errors is one whose
//! accepted moves are legal and reach their goal and whose wrong moves miss it.

use super::goals::{reached, usable};
use crate::game::MoveList;
use crate::phrase::Phrased;
use crate::taught::{Goal, Taught};

/// The languages every text is written in, in this order.
pub const LANGUAGES: [&str; 3] = ["en", "de", "fr"];

/// One text in each of [`LANGUAGES`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text(pub [String; 3]);

/// A move the learner may try that is not right, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrong {
    pub line: usize,
    pub text: String,
    /// Whether the move is illegal (explained, as the rules forbid it) rather than legal
    /// and short of the goal.
    pub illegal: bool,
    pub why: Text,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exercise {
    pub line: usize,
    pub position: String,
    pub goal: Vec<Goal>,
    /// Every legal move that reaches the goal.
    pub accept: Vec<String>,
    pub wrong: Vec<Wrong>,
    /// The sentence or two that teach the idea.
    pub say: Text,
    /// The goal in words.
    pub task: Text,
    /// Said after the right move, if anything.
    pub done: Option<Text>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    pub line: usize,
    /// Letters, digits and `-`: part of the page's address and of the progress kept.
    pub id: String,
    pub title: Text,
    pub exercises: Vec<Exercise>,
}

/// A text being read: the line of its key and what each language has said so far.
#[derive(Default)]
struct Partial {
    line: usize,
    said: [Option<String>; 3],
}

impl Partial {
    /// The whole text, or which language it lacks.
    fn finish(self, key: &str) -> Result<Text, (usize, String)> {
        let line = self.line;
        let [en, de, fr] = self.said;
        match (en, de, fr) {
            (Some(en), Some(de), Some(fr)) => Ok(Text([en, de, fr])),
            (en, de, _) => {
                let missing = if en.is_none() {
                    "en"
                } else if de.is_none() {
                    "de"
                } else {
                    "fr"
                };
                Err((line, format!("'{key}' has no '{missing}' text")))
            }
        }
    }
}

/// The exercise being read.
#[derive(Default)]
struct Draft {
    line: usize,
    position: Option<(usize, String)>,
    goal: Option<(usize, String)>,
    accept: Vec<(usize, String)>,
    wrong: Vec<(usize, String, bool, Partial)>,
    say: Option<Partial>,
    task: Option<Partial>,
    done: Option<Partial>,
}

/// Reads a game's lesson file and checks every exercise by the rules: the lessons, or
/// every problem found, each with its 1-based line number.
pub fn parse<G: Taught>(text: &str) -> Result<Vec<Lesson>, Vec<(usize, String)>> {
    let mut reader = Reader::<G>::default();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Err(reason) = reader.field(number, line) {
            reader.errors.push((number, reason));
        }
    }
    reader.end_lesson();
    if reader.lessons.is_empty() && reader.errors.is_empty() {
        reader.errors.push((1, "the file has no lesson".into()));
    }
    if reader.errors.is_empty() {
        Ok(reader.lessons)
    } else {
        reader.errors.sort_by_key(|(line, _)| *line);
        Err(reader.errors)
    }
}

struct Reader<G> {
    lessons: Vec<Lesson>,
    /// The lesson being read: its line, id, title so far and exercises.
    lesson: Option<(usize, String, Partial, Vec<Exercise>)>,
    exercise: Option<Draft>,
    /// Whether the lesson being read has an exercise, also one refused.
    has_exercise: bool,
    errors: Vec<(usize, String)>,
    game: std::marker::PhantomData<G>,
}

impl<G> Default for Reader<G> {
    fn default() -> Self {
        Reader {
            lessons: Vec::new(),
            lesson: None,
            exercise: None,
            has_exercise: false,
            errors: Vec::new(),
            game: std::marker::PhantomData,
        }
    }
}

/// Adds one language's text to `text` (started at `line` if new).
fn say(
    text: &mut Option<Partial>,
    line: usize,
    language: usize,
    value: &str,
) -> Result<(), String> {
    let text = text.get_or_insert_with(|| Partial {
        line,
        ..Partial::default()
    });
    if text.said[language].is_some() {
        return Err(format!("a second '{}' text", LANGUAGES[language]));
    }
    text.said[language] = Some(value.to_string());
    Ok(())
}

impl<G: Taught> Reader<G> {
    fn field(&mut self, number: usize, line: &str) -> Result<(), String> {
        let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        // A text key is followed by its language.
        let text_key = ["title", "say", "task", "done", "why"].contains(&key);
        let (language, value) = if text_key {
            let (language, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let language = LANGUAGES
                .iter()
                .position(|l| *l == language)
                .ok_or_else(|| {
                    format!("'{key}' needs a language (en, de or fr), not '{language}'")
                })?;
            let value = value.trim();
            if value.is_empty() {
                return Err(format!("'{key} {}' has no text", LANGUAGES[language]));
            }
            (language, value)
        } else {
            (0, rest)
        };
        if key == "lesson" {
            self.end_lesson();
            if value.is_empty()
                || !value
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            {
                return Err(format!(
                    "lesson id '{value}' is not lower-case letters, digits and '-'"
                ));
            }
            // A repeated id is refused, and its lesson still read for its other errors.
            if let Some(first) = self.lessons.iter().find(|l| l.id == value) {
                let used = format!("lesson id '{value}' is already used on line {}", first.line);
                self.errors.push((number, used));
            }
            self.has_exercise = false;
            self.lesson = Some((number, value.to_string(), Partial::default(), Vec::new()));
            return Ok(());
        }
        let Some((_, _, title, _)) = self.lesson.as_mut() else {
            return Err(format!("'{key}' before the first 'lesson'"));
        };
        if key == "title" {
            if self.exercise.is_some() {
                return Err("'title' belongs before the lesson's first 'exercise'".into());
            }
            if title.line == 0 {
                title.line = number;
            }
            let mut partial = Some(std::mem::take(title));
            let result = say(&mut partial, number, language, value);
            *title = partial.unwrap_or_default();
            return result;
        }
        if key == "exercise" {
            if !value.is_empty() {
                return Err("'exercise' takes no value".into());
            }
            self.end_exercise();
            self.has_exercise = true;
            self.exercise = Some(Draft {
                line: number,
                ..Draft::default()
            });
            return Ok(());
        }
        let Some(draft) = self.exercise.as_mut() else {
            return Err(format!("'{key}' before the lesson's first 'exercise'"));
        };
        let once = |slot: &mut Option<(usize, String)>| {
            if let Some((first, _)) = slot {
                return Err(format!("a second '{key}' (the first is on line {first})"));
            }
            *slot = Some((number, value.to_string()));
            Ok(())
        };
        match key {
            "position" => once(&mut draft.position),
            "goal" => once(&mut draft.goal),
            "accept" => {
                draft
                    .accept
                    .extend(value.split_whitespace().map(|m| (number, m.to_string())));
                Ok(())
            }
            "wrong" | "illegal" => {
                if value.split_whitespace().count() != 1 {
                    return Err(format!("'{key}' takes one move, not '{value}'"));
                }
                draft.wrong.push((
                    number,
                    value.to_string(),
                    key == "illegal",
                    Partial::default(),
                ));
                Ok(())
            }
            "why" => {
                let Some((_, _, _, why)) = draft.wrong.last_mut() else {
                    return Err("'why' before a 'wrong' or 'illegal' move".into());
                };
                let mut partial = (why.line != 0).then(|| std::mem::take(why));
                let result = say(&mut partial, number, language, value);
                *why = partial.unwrap_or_default();
                result
            }
            "say" => say(&mut draft.say, number, language, value),
            "task" => say(&mut draft.task, number, language, value),
            "done" => say(&mut draft.done, number, language, value),
            _ => Err(format!(
                "unknown key '{key}' (lesson, title, exercise, position, goal, accept, wrong, \
                 illegal, why, say, task, done)"
            )),
        }
    }

    fn end_lesson(&mut self) {
        self.end_exercise();
        let Some((line, id, title, exercises)) = self.lesson.take() else {
            return;
        };
        let title = if title.line == 0 {
            Err((line, "the lesson has no 'title'".to_string()))
        } else {
            title.finish("title")
        };
        match title {
            Ok(_) if !self.has_exercise => self
                .errors
                .push((line, "the lesson has no exercise".into())),
            // Its exercises were refused, each with its reason.
            Ok(_) if exercises.is_empty() => {}
            Ok(title) => self.lessons.push(Lesson {
                line,
                id,
                title,
                exercises,
            }),
            Err(e) => self.errors.push(e),
        }
    }

    fn end_exercise(&mut self) {
        let Some(draft) = self.exercise.take() else {
            return;
        };
        match check::<G>(draft) {
            Ok(exercise) => {
                if let Some((_, _, _, exercises)) = self.lesson.as_mut() {
                    exercises.push(exercise);
                }
            }
            Err(errors) => self.errors.extend(errors),
        }
    }
}

/// The exercise read, checked by the rules, or every problem with its line.
fn check<G: Taught>(draft: Draft) -> Result<Exercise, Vec<(usize, String)>> {
    let mut errors = Vec::new();
    let line = draft.line;
    let text =
        |partial: Option<Partial>, key: &str, errors: &mut Vec<(usize, String)>| match partial
            .map(|p| p.finish(key))
        {
            Some(Ok(text)) => Some(text),
            Some(Err(e)) => {
                errors.push(e);
                None
            }
            None => {
                errors.push((line, format!("the exercise has no '{key}'")));
                None
            }
        };
    let say = text(draft.say, "say", &mut errors);
    let task = text(draft.task, "task", &mut errors);
    let done = match draft.done.map(|p| p.finish("done")) {
        Some(Ok(t)) => Some(t),
        Some(Err(e)) => {
            errors.push(e);
            None
        }
        None => None,
    };
    let mut wrong = Vec::new();
    for (wline, mv, illegal, why) in draft.wrong {
        let why = if why.line == 0 {
            errors.push((wline, format!("'{mv}' has no 'why'")));
            Text::default()
        } else {
            match why.finish("why") {
                Ok(t) => t,
                Err(e) => {
                    errors.push(e);
                    Text::default()
                }
            }
        };
        wrong.push(Wrong {
            line: wline,
            text: mv,
            illegal,
            why,
        });
    }
    let Some((pline, position_text)) = draft.position else {
        errors.push((line, "the exercise has no 'position'".into()));
        return Err(errors);
    };
    let position = match G::parse(&position_text, G::Rules::default()) {
        Ok(p) => p,
        Err(e) => {
            errors.push((pline, format!("bad position string: {}", e.phrase())));
            return Err(errors);
        }
    };
    if position.outcome().is_some() {
        errors.push((pline, "the game is over in this position".into()));
        return Err(errors);
    }
    let Some((gline, goal_text)) = draft.goal else {
        errors.push((line, "the exercise has no 'goal'".into()));
        return Err(errors);
    };
    let mut goal = Vec::new();
    for part in goal_text.split(',') {
        match Goal::parse(part).and_then(|g| usable(&g, &position).map(|()| g)) {
            Ok(g) => goal.push(g),
            Err(e) => errors.push((gline, e)),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let misses = |mv: G::Move| -> Option<String> {
        let mut after = position.clone();
        after.play(mv);
        goal.iter()
            .find_map(|g| reached(g, &position, &after).err())
            .map(|p| p.to_string())
    };
    if draft.accept.is_empty() {
        errors.push((line, "the exercise accepts no move".into()));
    }
    let mut accepted = Vec::new();
    for (aline, text) in &draft.accept {
        match position.parse_move(text) {
            Ok(mv) => match misses(mv) {
                None => accepted.push(mv),
                Some(why) => errors.push((
                    *aline,
                    format!("accepted move '{text}' misses the goal: {why}"),
                )),
            },
            Err(e) => errors.push((*aline, format!("accepted move: {}", e.phrase()))),
        }
    }
    for w in &wrong {
        let parsed = position.parse_move(&w.text);
        match (w.illegal, parsed) {
            (false, Ok(mv)) => {
                if misses(mv).is_none() {
                    errors.push((w.line, format!("wrong move '{}' reaches the goal", w.text)));
                }
            }
            (false, Err(e)) => errors.push((w.line, format!("wrong move: {}", e.phrase()))),
            (true, Ok(_)) => errors.push((w.line, format!("'{}' is legal here", w.text))),
            (true, Err(e)) => {
                if w.text.parse::<G::Move>().is_err() {
                    errors.push((w.line, format!("illegal move: {}", e.phrase())));
                }
            }
        }
    }
    // The goal decides what is right: every move that reaches it must be listed.
    let mut legal = MoveList::new();
    position.legal_moves(&mut legal);
    for &mv in legal.iter() {
        if misses(mv).is_none() && !accepted.contains(&mv) {
            errors.push((
                gline,
                format!("'{mv}' reaches the goal too: list it under 'accept'"),
            ));
        }
    }
    match (say, task, errors.is_empty()) {
        (Some(say), Some(task), true) => Ok(Exercise {
            line,
            position: position_text,
            goal,
            accept: accepted.iter().map(|m| m.to_string()).collect(),
            wrong,
            say,
            task,
            done,
        }),
        _ => Err(errors),
    }
}
