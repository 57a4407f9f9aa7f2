//! The shipped lessons (src/lessons/*.txt) checked against the rules, and bad lesson data
//! refused with its line and the reason (docs/lessons.md).

use shove::lessons::api::read;
use shove::lessons::files;
use shove::lessons::format::LANGUAGES;

/// Reading a file checks every exercise: each accepted move legal and reaching the goal,
/// every move that reaches it accepted, each listed wrong move legal and missing it, each
/// listed illegal move illegal; every text in every language.
#[test]
fn every_shipped_exercise_holds_by_the_rules() {
    let mut games = Vec::new();
    for (game, text) in files() {
        let lessons = read(game, text).unwrap_or_else(|errors| {
            panic!(
                "src/lessons/{game}.txt:\n{}",
                errors
                    .iter()
                    .map(|(l, r)| format!("  line {l}: {r}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        });
        let exercises: usize = lessons.iter().map(|l| l.exercises.len()).sum();
        eprintln!("{game}: {} lessons, {exercises} exercises", lessons.len());
        for lesson in &lessons {
            for exercise in &lesson.exercises {
                assert!(
                    !exercise.wrong.is_empty(),
                    "{game} line {}: no wrong move explained",
                    exercise.line
                );
                for text in [&exercise.say, &exercise.task] {
                    assert!(text.0.iter().all(|t| !t.is_empty()));
                }
            }
        }
        games.push(game);
    }
    assert_eq!(games, ["akiba", "offboard", "abraxas"]);
    assert_eq!(LANGUAGES, ["en", "de", "fr"]);
}

/// A lesson of one exercise around `body` (the exercise's fields), for the bad-data test.
fn lesson(body: &str) -> String {
    format!(
        "lesson l\ntitle en T\ntitle de T\ntitle fr T\nexercise\n{body}\n\
         say en S\nsay de S\nsay fr S\ntask en K\ntask de K\ntask fr K\n"
    )
}

fn errors(game: &str, text: &str) -> Vec<(usize, String)> {
    read(game, text)
        .err()
        .unwrap_or_else(|| panic!("accepted:\n{text}"))
}

#[test]
fn bad_lesson_data_is_refused_with_its_line_and_the_reason() {
    let good = "position B6/7/7/5WR/7/7/7 w 0 0 - - 1\ngoal off red\naccept f4g4\nwrong f4f5\nwhy en W\nwhy de W\nwhy fr W";
    assert!(read("akiba", &lesson(good)).is_ok());
    let cases: &[(&str, usize, &str)] = &[
        // An accepted move that misses the goal, with the rules' reason.
        (
            &good.replace("accept f4g4", "accept f4f5"),
            8,
            "accepted move 'f4f5' misses the goal: no red marble leaves the board",
        ),
        // An accepted move that is not legal.
        (
            &good.replace("accept f4g4", "accept a1a2"),
            8,
            "accepted move: illegal move 'a1a2' in this position",
        ),
        // A move reaching the goal that is not listed.
        (
            &good.replace("accept f4g4", ""),
            7,
            "'f4g4' reaches the goal too: list it under 'accept'",
        ),
        // A wrong move that reaches the goal.
        (
            &good.replace("wrong f4f5", "wrong f4g4"),
            9,
            "wrong move 'f4g4' reaches the goal",
        ),
        // An illegal move that is legal.
        (
            &good.replace("wrong f4f5", "illegal f4f5"),
            9,
            "'f4f5' is legal here",
        ),
        // A bad position string, with the game's reason.
        (
            &good.replace("B6/7/7/5WR/7/7/7", "B6/7/7/5WR/7/7"),
            6,
            "bad position string: board field:",
        ),
        // A goal word of another game, and one of none.
        (
            &good.replace("goal off red", "goal line"),
            7,
            "goal 'line' is not one of akiba's",
        ),
        (
            &good.replace("goal off red", "goal fly"),
            7,
            "goal 'fly' is not one of",
        ),
        (
            &good.replace("goal off red", "goal off green"),
            7,
            "colour 'green' is not one of white, black, red",
        ),
        (
            &good.replace("goal off red", "goal cell z9 red"),
            7,
            "'z9' is not a cell of the board",
        ),
        // A text missing a language; an unknown key; a wrong move without its why.
        (&good.replace("why fr W", ""), 10, "'why' has no 'fr' text"),
        (&format!("{good}\ncolour en x"), 13, "unknown key 'colour'"),
        (
            &good.replace("why en W\nwhy de W\nwhy fr W", ""),
            9,
            "'f4f5' has no 'why'",
        ),
    ];
    for (body, line, reason) in cases {
        let found = errors("akiba", &lesson(body));
        assert!(
            found
                .iter()
                .any(|(l, r)| l == line && r.starts_with(reason)),
            "expected line {line}: {reason}\nfound {found:?}\n{}",
            lesson(body)
        );
    }
    // Fields outside their place, a lesson without exercises, a repeated id, no title.
    let found = errors("akiba", "goal win\nlesson Bad Id\n");
    assert_eq!(
        found[0],
        (1, "'goal' before the first 'lesson'".to_string())
    );
    assert!(found[1].1.starts_with("lesson id 'Bad Id'"), "{found:?}");
    let found = errors("akiba", "lesson a\ntitle en A\ntitle de A\ntitle fr A\n");
    assert_eq!(found, [(1, "the lesson has no exercise".to_string())]);
    let twice = format!("{}{}", lesson(good), lesson(good));
    let found = errors("akiba", &twice);
    assert_eq!(
        found,
        [(19, "lesson id 'l' is already used on line 1".to_string())]
    );
    assert_eq!(
        errors("akiba", "")[0],
        (1, "the file has no lesson".to_string())
    );
    assert_eq!(
        errors("chess", &lesson(good))[0],
        (
            1,
            "unknown game 'chess' (expected one of: akiba, offboard, abraxas)".to_string()
        )
    );
}
