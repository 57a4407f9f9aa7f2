//! Lazy SMP: searches with 2 and 4 threads in every game, through the library and through
//! the protocol, and one thread staying exactly reproducible.
//!
//! No test here depends on how fast the threads are (the machine may be loaded): only on
//! what they answer, and that they always answer. Mates found with several threads are in
//! tests/search.rs (the tactics suites).

use crate::binary;
use crate::engine;

use binary::shove;
use engine::{Engine, any_line};
use shove::game::MoveList;
use shove::profile::Profile;
use shove::search::{Limits, Searcher};
use shove::{abraxas, akiba, offboard};
use std::thread;
use std::time::Duration;

fn depth_limit(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

/// A middlegame of each game, from its `bench` set.
fn middlegame<G: Profile>() -> G {
    let text = match G::NAME {
        "offboard" => "RRYYY/R1R1YY/1R3Y1/2R5/9/8/1R3Y1/R1RY1Y/R1RYY r 2 1 ry.......... - 4",
        "abraxas" => "s1 8/8/2RBR3/8/6R1/6R1/8/R2B4 sw 1 s r 18 0 1 1 3 4",
        _ => "W1W1B1B/W2R1B1/1RRR3/1RR1RRW/2RRB2/B2R1W1/B4WW w 1 0 - - 9",
    };
    G::parse(text, G::Rules::default()).expect("a valid position")
}

fn assert_legal<G: Profile>(position: &G, mv: G::Move) {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    assert!(moves.contains(&mv), "{} {mv} in {position}", G::NAME);
}

// ---------------------------------------------------------------------------------------
// The library
// ---------------------------------------------------------------------------------------

/// With 2 and 4 threads every game's search gives a legal best move heading its PV, a PV
/// that replays legally, and nodes counted from every thread.
fn threads_search_legally<G: Profile>() {
    for threads in [2, 4] {
        for position in [G::start(G::Rules::default()), middlegame::<G>()] {
            let mut searcher = Searcher::<G>::new(16);
            searcher.set_threads(threads);
            for depth in [1, 3, 6] {
                let mut infos = Vec::new();
                let result = searcher.search(&position, &[], &depth_limit(depth), 1, &mut |info| {
                    infos.push(info.clone())
                });
                let best = result.best.expect("a move");
                assert_legal(&position, best);
                assert_eq!(result.pv.first(), Some(&best), "{}", G::NAME);
                assert!(result.depth >= depth, "{} depth {}", G::NAME, result.depth);
                let mut end = position.clone();
                for &mv in &result.pv {
                    assert_legal(&end, mv);
                    end.play(mv);
                }
                // The last line reported is the answer: its move, score and depth.
                let last = infos.last().expect("an info line");
                assert_eq!(
                    (last.pv.first(), last.score, last.depth),
                    (Some(&best), result.score, result.depth),
                    "{} threads {threads}",
                    G::NAME
                );
                assert!(result.nodes >= last.nodes, "{}", G::NAME);
            }
        }
    }
}

#[test]
fn akiba_threads_search_legally() {
    threads_search_legally::<akiba::Position>();
}

#[test]
fn offboard_threads_search_legally() {
    threads_search_legally::<offboard::Position>();
}

#[test]
fn abraxas_threads_search_legally() {
    threads_search_legally::<abraxas::Position>();
}

/// One thread is reproducible node for node, also in a searcher that had more threads
/// before: the helpers leave nothing behind that changes the main thread's search.
fn one_thread_is_deterministic<G: Profile>() {
    let position = middlegame::<G>();
    let limits = depth_limit(5);
    let mut fresh = Searcher::<G>::new(16);
    let expected = fresh.search(&position, &[], &limits, 1, &mut |_| {});
    let mut resized = Searcher::<G>::new(16);
    resized.set_threads(4);
    resized.search(&position, &[], &limits, 1, &mut |_| {});
    resized.set_threads(1);
    for searcher in [&mut fresh, &mut resized] {
        searcher.clear();
        let again = searcher.search(&position, &[], &limits, 1, &mut |_| {});
        assert_eq!(again, expected, "{}", G::NAME);
    }
}

#[test]
fn one_thread_is_deterministic_in_every_game() {
    one_thread_is_deterministic::<akiba::Position>();
    one_thread_is_deterministic::<offboard::Position>();
    one_thread_is_deterministic::<abraxas::Position>();
}

/// A node limit holds for all the threads together, and the nodes reported are all the
/// threads'. Each thread counts its nodes to the others every 1024 and stops by itself
/// once all of them pass the limit, so on a busy machine the helpers do not run on while
/// the main thread waits for a core: at most a few thousand nodes past the limit, however
/// the threads are scheduled. Four threads each counting only their own nodes would search
/// about four times the limit; helpers stopped by the main thread alone searched up to 1.5
/// times it on a 2-core machine.
#[test]
fn a_node_limit_counts_every_thread() {
    let position = middlegame::<akiba::Position>();
    let mut searcher = Searcher::<akiba::Position>::new(16);
    searcher.set_threads(4);
    let limit = 200_000;
    let limits = Limits {
        nodes: Some(limit),
        ..Limits::default()
    };
    let result = searcher.search(&position, &[], &limits, 1, &mut |_| {});
    assert!(result.best.is_some());
    assert!(
        (limit..limit + 16 * 1024).contains(&result.nodes),
        "{}",
        result.nodes
    );
}

// ---------------------------------------------------------------------------------------
// The bench command
// ---------------------------------------------------------------------------------------

/// At one thread `bench` ends with the node counts that commit messages quote.
#[test]
fn bench_node_counts_at_one_thread() {
    if cfg!(debug_assertions) {
        eprintln!("skipped: the full bench is for release builds");
        return;
    }
    for (game, nodes) in [
        ("akiba", "324272"),
        ("offboard", "280849"),
        ("abraxas", "337891"),
    ] {
        let output = shove(&["--game", game, "bench"]);
        assert!(output.status.success(), "{game}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let last = stdout.lines().last().expect("a summary line");
        assert_eq!(last.split(' ').next(), Some(nodes), "{game}: {last}");
        assert!(!stdout.contains("speedup"), "{game}:\n{stdout}");
    }
}

/// With more threads `bench` also searches with one thread and prints the speedup, and
/// still ends with `<N> nodes <M> nps`.
#[test]
fn bench_with_threads_prints_the_speedup_over_one() {
    for game in ["akiba", "offboard", "abraxas"] {
        let output = shove(&["--game", game, "bench", "--depth", "3", "--threads", "2"]);
        assert!(output.status.success(), "{game}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        let speedup = lines
            .iter()
            .find(|l| l.starts_with("speedup of 2 threads over 1: time to depth 3 x"))
            .unwrap_or_else(|| panic!("{game}: no speedup line in\n{stdout}"));
        assert!(speedup.contains(", nodes per second x"), "{speedup}");
        let searched = |threads: &str| {
            lines
                .iter()
                .filter(|l| l.contains(&format!(": threads {threads} best ")))
                .count()
        };
        assert!(searched("2") >= 4, "{game}:\n{stdout}");
        assert_eq!(searched("2"), searched("1"), "{game}:\n{stdout}");
        assert!(
            lines.iter().any(|l| l.starts_with("threads 1: ")),
            "{stdout}"
        );
        assert!(
            lines.iter().any(|l| l.starts_with("threads 2: ")),
            "{stdout}"
        );
        let last: Vec<&str> = lines.last().expect("a last line").split(' ').collect();
        assert!(
            matches!(last.as_slice(), [n, "nodes", m, "nps"]
                if n.parse::<u64>().is_ok() && m.parse::<u64>().is_ok()),
            "{game}: {last:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// The protocol
// ---------------------------------------------------------------------------------------

/// Reads up to `bestmove`, every line before it a search `info` line; returns the move.
fn finish_search(engine: &mut Engine) -> String {
    let mut lines = engine.recv_until(|l| l.starts_with("bestmove"));
    let last = lines.pop().expect("the bestmove line");
    if let Some(line) = lines.iter().find(|l| !l.starts_with("info depth ")) {
        engine.fail(&format!("unexpected line during a search: '{line}'"));
    }
    let words: Vec<&str> = last.split(' ').collect();
    words[1].to_string()
}

fn check_best<G: Profile>(engine: &Engine, position: &G, best: &str) {
    match position.parse_move(best) {
        Ok(mv) => assert_legal(position, mv),
        Err(e) => engine.fail(&format!("illegal bestmove {best}: {e}")),
    }
}

/// A whole session with `threads` threads: a search to a depth, `go infinite` + `stop` 20
/// times, `go ponder` + `ponderhit`, `ponderhit` on a search that ends by depth, a change of
/// `Threads` between searches, and `quit` during a search: each answered by one legal
/// `bestmove` (or the exit), none hanging.
fn session_with_threads<G: Profile>(threads: usize) {
    let start = G::start(G::Rules::default());
    let mut engine = Engine::launch(&["--game", G::NAME], any_line);
    engine.send(&format!("setoption name Threads value {threads}"));
    engine.send("position startpos");
    engine.send("go depth 5");
    let best = finish_search(&mut engine);
    check_best(&engine, &start, &best);
    for round in 0..20 {
        engine.send("go infinite");
        if round % 2 == 1 {
            // Some stops arrive at once, others after the threads are under way.
            thread::sleep(Duration::from_millis(20));
        }
        engine.send("stop");
        let best = finish_search(&mut engine);
        check_best(&engine, &start, &best);
    }
    engine.send("go ponder wtime 2000 btime 2000");
    thread::sleep(Duration::from_millis(50));
    engine.send("ponderhit");
    let best = finish_search(&mut engine);
    check_best(&engine, &start, &best);
    // A ponder search that has reached its depth waits for the ponderhit.
    engine.send("go ponder depth 2");
    thread::sleep(Duration::from_millis(50));
    engine.send("ponderhit");
    let best = finish_search(&mut engine);
    check_best(&engine, &start, &best);
    // Fewer threads, then more, between searches.
    for threads in [1, threads, 2] {
        engine.send(&format!("setoption name Threads value {threads}"));
        engine.send("go movetime 50");
        let best = finish_search(&mut engine);
        check_best(&engine, &start, &best);
    }
    engine.sync();
    engine.send("go infinite");
    thread::sleep(Duration::from_millis(20));
    engine.send("quit");
    let status = engine.wait();
    assert!(status.success(), "{} exit status {status}", G::NAME);
}

#[test]
fn akiba_sessions_with_2_and_4_threads() {
    session_with_threads::<akiba::Position>(2);
    session_with_threads::<akiba::Position>(4);
}

#[test]
fn offboard_sessions_with_2_and_4_threads() {
    session_with_threads::<offboard::Position>(2);
    session_with_threads::<offboard::Position>(4);
}

#[test]
fn abraxas_sessions_with_2_and_4_threads() {
    session_with_threads::<abraxas::Position>(2);
    session_with_threads::<abraxas::Position>(4);
}

/// The thread ids of the engine's helper threads (Linux: its entries in /proc named
/// `helper N`). Naming them, not counting all threads against a count taken at start, keeps
/// the answer exact while a short-lived thread (one clearing the table, the search thread)
/// is still ending.
#[cfg(target_os = "linux")]
fn helpers(engine: &Engine) -> Vec<String> {
    let tasks = std::fs::read_dir(format!("/proc/{}/task", engine.child.id()))
        .expect("the engine's /proc entry");
    let mut ids: Vec<String> = tasks
        .filter_map(|task| {
            let path = task.ok()?.path();
            let name = std::fs::read_to_string(path.join("comm")).ok()?;
            name.starts_with("helper")
                .then(|| path.file_name()?.to_str().map(str::to_owned))?
        })
        .collect();
    ids.sort();
    ids
}

/// Waits (a few seconds at most: a helper ends just after it is told to) until the engine
/// has `expected` helper threads, and names them; fails with the count it had.
#[cfg(target_os = "linux")]
fn settle_at(engine: &Engine, expected: usize) -> Vec<String> {
    let mut ids = helpers(engine);
    for _ in 0..100 {
        if ids.len() == expected {
            return ids;
        }
        thread::sleep(Duration::from_millis(50));
        ids = helpers(engine);
    }
    engine.fail(&format!(
        "{} helper threads, expected {expected}",
        ids.len()
    ));
}

/// Helper threads live as long as the searcher: `Threads` starts or ends them, and a search
/// neither starts more nor leaves any behind.
#[cfg(target_os = "linux")]
#[test]
fn helper_threads_are_kept_between_searches() {
    let mut engine = Engine::launch(&[], any_line);
    engine.sync();
    settle_at(&engine, 0);
    engine.send("setoption name Threads value 4");
    engine.sync();
    let started = settle_at(&engine, 3);
    for _ in 0..3 {
        engine.send("position startpos");
        engine.send("go depth 4");
        finish_search(&mut engine);
        engine.sync();
        assert_eq!(
            settle_at(&engine, 3),
            started,
            "the same helpers after a search"
        );
    }
    engine.send("setoption name Threads value 2");
    engine.sync();
    let kept = settle_at(&engine, 1);
    engine.send("go infinite");
    thread::sleep(Duration::from_millis(20));
    engine.send("stop");
    finish_search(&mut engine);
    engine.sync();
    assert_eq!(
        settle_at(&engine, 1),
        kept,
        "the same helper after a search"
    );
    engine.quit();
}
