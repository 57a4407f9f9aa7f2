//! The lessons as the page asks for them: JSON in, JSON out, as plain functions of the
//! request's body, so that any transport (the server's routes, src/gui/learn.rs, or
//! another) can serve them.
//!
//! - [`lessons`]: every game's lessons with their exercises (the texts in every language;
//!   not the answers).
//! - [`check`]: whether a move is right in an exercise, and if not, why.

use super::files;
use super::format::{self, Lesson, Text};
use super::goals::reached;
use crate::game::MoveError;
use crate::games::{GameVisitor, with_game};
use crate::phrase::{Phrase, Phrased};
use crate::profile::Profile;
use crate::taught::Taught;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// Each shipped file read once: the game's name and its lessons, or the file's errors.
type Courses = Vec<(&'static str, Result<Vec<Lesson>, Vec<(usize, String)>>)>;

fn courses() -> &'static Courses {
    static COURSES: OnceLock<Courses> = OnceLock::new();
    COURSES.get_or_init(|| {
        files()
            .into_iter()
            .map(|(game, text)| (game, read(game, text)))
            .collect()
    })
}

/// A lesson file of the game named `game`, read and checked by its rules.
pub fn read(game: &str, text: &str) -> Result<Vec<Lesson>, Vec<(usize, String)>> {
    struct Read<'a>(&'a str);
    impl GameVisitor for Read<'_> {
        type Output = Result<Vec<Lesson>, Vec<(usize, String)>>;
        fn visit<G: Profile>(self) -> Self::Output {
            format::parse::<G>(self.0)
        }
    }
    with_game(game, Read(text)).unwrap_or_else(|e| Err(vec![(1, e.to_string())]))
}

/// The lessons of `game`, or why there are none.
fn course(game: &str) -> Result<&'static [Lesson], Phrase> {
    let (_, lessons) = courses()
        .iter()
        .find(|(name, _)| *name == game)
        .ok_or_else(|| Phrase::new("no lessons for the game '{game}'").with("game", game))?;
    lessons.as_deref().map_err(|errors| bad_file(game, errors))
}

fn bad_file(game: &str, errors: &[(usize, String)]) -> Phrase {
    let (line, reason) = errors.first().cloned().unwrap_or_default();
    Phrase::new("the lessons of {game} are refused: line {line}: {reason}")
        .with("game", game)
        .with("line", line)
        .with("reason", reason)
}

fn text_json(text: &Text) -> Value {
    let [en, de, fr] = &text.0;
    json!({ "en": en, "de": de, "fr": fr })
}

/// `{"games": [{game, lessons: [{id, title, exercises: [{position, say, task, done,
/// tries}]}]}]}`, each text as `{en, de, fr}`; `tries` are the illegal moves the exercise
/// explains (the page lets them be clicked). The body is not read.
pub fn lessons(_body: &[u8]) -> Result<Value, Phrase> {
    let mut games = Vec::new();
    for (game, _) in files() {
        let lessons: Vec<Value> = course(game)?
            .iter()
            .map(|lesson| {
                let exercises: Vec<Value> = lesson
                    .exercises
                    .iter()
                    .map(|e| {
                        json!({
                            "position": e.position,
                            "say": text_json(&e.say),
                            "task": text_json(&e.task),
                            "done": e.done.as_ref().map(text_json),
                            "tries": e.wrong.iter().filter(|w| w.illegal).map(|w| &w.text).collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                json!({ "id": lesson.id, "title": text_json(&lesson.title), "exercises": exercises })
            })
            .collect();
        games.push(json!({ "game": game, "lessons": lessons }));
    }
    Ok(json!({ "games": games }))
}

/// A move tried in an exercise (`exercise` counts from 0).
#[derive(Deserialize)]
struct Try {
    game: String,
    lesson: String,
    exercise: usize,
    #[serde(rename = "move")]
    text: String,
}

/// `{"right": bool, "legal": bool, "why": {en, de, fr} | null, "reason": phrase | null}`
/// for the move tried: `why` the exercise's own explanation of that move, `reason` what
/// the rules say (the goal part it misses, or that it is illegal).
pub fn check(body: &[u8]) -> Result<Value, Phrase> {
    let tried: Try = serde_json::from_slice(body)
        .map_err(|e| Phrase::new("bad request: {reason}").with("reason", e))?;
    let lessons = course(&tried.game)?;
    let lesson = lessons
        .iter()
        .find(|l| l.id == tried.lesson)
        .ok_or_else(|| {
            Phrase::new("{game} has no lesson '{lesson}'")
                .with("game", &tried.game)
                .with("lesson", &tried.lesson)
        })?;
    let exercise = lesson.exercises.get(tried.exercise).ok_or_else(|| {
        Phrase::new("lesson '{lesson}' has no exercise {n}")
            .with("lesson", &tried.lesson)
            .with("n", tried.exercise + 1)
    })?;
    struct Judge<'a>(&'a format::Exercise, &'a str);
    impl GameVisitor for Judge<'_> {
        type Output = Result<Verdict, Phrase>;
        fn visit<G: Profile>(self) -> Self::Output {
            verdict::<G>(self.0, self.1)
        }
    }
    let verdict = with_game(&tried.game, Judge(exercise, &tried.text))??;
    let why = exercise
        .wrong
        .iter()
        .find(|w| w.text == verdict.text)
        .filter(|_| !verdict.right)
        .map(|w| text_json(&w.why));
    Ok(json!({
        "right": verdict.right,
        "legal": verdict.legal,
        "why": why,
        "reason": verdict.reason.map(|r| r.to_json()),
    }))
}

/// What the rules say of a move in an exercise; `text` as the game writes it.
struct Verdict {
    text: String,
    legal: bool,
    right: bool,
    reason: Option<Phrase>,
}

fn verdict<G: Taught>(exercise: &format::Exercise, text: &str) -> Result<Verdict, Phrase> {
    let position = G::parse(&exercise.position, G::Rules::default()).map_err(|e| {
        Phrase::new("bad position string: {reason}").with_phrase("reason", e.phrase())
    })?;
    let text = text.trim();
    let mv = match position.parse_move(text) {
        Ok(mv) => mv,
        Err(e @ MoveError::Illegal { .. }) => {
            let written = text
                .parse::<G::Move>()
                .map(|m| m.to_string())
                .unwrap_or_else(|_| text.to_string());
            return Ok(Verdict {
                text: written,
                legal: false,
                right: false,
                reason: Some(e.phrase()),
            });
        }
        Err(e) => return Err(e.phrase()),
    };
    let mut after = position.clone();
    after.play(mv);
    let reason = exercise
        .goal
        .iter()
        .find_map(|g| reached(g, &position, &after).err());
    Ok(Verdict {
        text: mv.to_string(),
        legal: true,
        right: reason.is_none(),
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_lesson_is_served() {
        let all = lessons(b"").unwrap();
        let games = all["games"].as_array().unwrap();
        assert_eq!(games.len(), files().len());
        for game in games {
            let lessons = game["lessons"].as_array().unwrap();
            assert!(!lessons.is_empty(), "{game}");
            for lesson in lessons {
                assert!(lesson["title"]["de"].is_string());
                assert!(!lesson["exercises"].as_array().unwrap().is_empty());
            }
        }
    }

    #[test]
    fn a_move_is_judged_right_wrong_or_illegal_with_the_reason() {
        let ask = |mv: &str| {
            let body = json!({"game": "akiba", "lesson": "first-push", "exercise": 0, "move": mv});
            check(body.to_string().as_bytes())
        };
        let (lessons, exercise) = (course("akiba").unwrap(), 0);
        let first = &lessons[0].exercises[exercise];
        let right = ask(&first.accept[0]).unwrap();
        assert_eq!(right["right"], true);
        assert_eq!(right["reason"], Value::Null);
        let wrong = first
            .wrong
            .iter()
            .find(|w| !w.illegal)
            .expect("a wrong move");
        let answer = ask(&wrong.text).unwrap();
        assert_eq!(
            (answer["right"].clone(), answer["legal"].clone()),
            (json!(false), json!(true))
        );
        assert_eq!(answer["why"]["en"], wrong.why.0[0]);
        assert!(answer["reason"]["text"].is_string());
        let illegal = ask("a1a2").unwrap();
        assert_eq!(illegal["legal"], false);
        assert!(ask("zz").is_err());
        let body = json!({"game": "akiba", "lesson": "nope", "exercise": 0, "move": "a1a2"});
        assert!(check(body.to_string().as_bytes()).is_err());
        let body = json!({"game": "akiba", "lesson": "first-push", "exercise": 99, "move": "a1a2"});
        assert!(check(body.to_string().as_bytes()).is_err());
        assert!(check(b"not json").is_err());
    }
}
