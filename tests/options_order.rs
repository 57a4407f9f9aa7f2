//! The engine a session ends with does not depend on the order in which its options were
//! set: `Game`, `Evaluation`, `EvalFile` and a rule option in every order, on their own and
//! after the command-line flags, give the engine those settings name, told apart by the
//! node count of a fixed-depth search (which differs between the classical evaluation, the
//! built-in network, a network file and other rules). A choice that cannot apply to the
//! game played (a network file of another game) is said in an `info string`, never an
//! error, and applies again once its game is chosen.

use crate::binary;
use crate::engine;
use crate::network;

use engine::{Engine, any_line};
use network::network_file;
use std::path::PathBuf;

/// Offboard sector values other than the default ones.
const SECTORS: &str = "3,3,3,3,3,3,3,3,3,3,3,3";
/// The flags of Offboard with those sectors and the classical evaluation.
const CLASSICAL_SECTORS: [&str; 6] = [
    "--game",
    "offboard",
    "--eval",
    "classical",
    "--offboard-sectors",
    SECTORS,
];

impl Engine {
    /// Sends `command`, then `isready`; returns the lines before `readyok`, none of which
    /// may be an error.
    fn accepted(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.send("isready");
        let mut lines = Vec::new();
        loop {
            let line = self.recv();
            if line == "readyok" {
                return lines;
            }
            if line.starts_with("info string error") || !line.starts_with("info string ") {
                self.fail(&format!("'{command}' was answered by '{line}'"));
            }
            lines.push(line);
        }
    }

    /// Sends `command`, which must be refused with one error line.
    fn refused(&mut self, command: &str) -> String {
        self.send(command);
        let line = self.recv();
        if !line.starts_with("info string error: ") {
            self.fail(&format!("'{command}' should be refused, got '{line}'"));
        }
        self.send("isready");
        if self.recv() != "readyok" {
            self.fail("more than one line after a refused option");
        }
        line
    }

    /// What tells engines apart: the node count of the last iteration of `go depth 4`
    /// from the start position, after the `d` diagram of that position (the game).
    fn fingerprint(mut self) -> String {
        self.send("position startpos");
        let game = self.accepted("d").join("\n");
        self.send("go depth 4");
        let mut nodes = None;
        loop {
            let line = self.recv();
            if line.starts_with("bestmove") {
                break;
            }
            let words: Vec<&str> = line.split(' ').collect();
            if let Some(at) = words.iter().position(|&w| w == "nodes") {
                nodes = words.get(at + 1).map(|n| n.to_string());
            }
        }
        self.send("quit");
        let Some(nodes) = nodes else {
            self.fail("the search printed no node count")
        };
        format!("{game}\nnodes {nodes}")
    }
}

/// The engine started with `args` and then given `options` (`setoption name … value …`),
/// each of which must be accepted; returns its fingerprint and the notes it printed.
fn engine(args: &[&str], options: &[String]) -> (String, Vec<String>) {
    let mut engine = Engine::launch(args, any_line);
    let mut notes = Vec::new();
    for option in options {
        notes.extend(engine.accepted(option));
    }
    (engine.fingerprint(), notes)
}

/// Every order of `items` (Heap's algorithm).
fn permutations<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    fn heap<T: Clone>(k: usize, items: &mut Vec<T>, out: &mut Vec<Vec<T>>) {
        if k <= 1 {
            out.push(items.clone());
            return;
        }
        for i in 0..k - 1 {
            heap(k - 1, items, out);
            let j = if k.is_multiple_of(2) { i } else { 0 };
            items.swap(j, k - 1);
        }
        heap(k - 1, items, out);
    }
    let mut items = items.to_vec();
    let mut out = Vec::new();
    heap(items.len(), &mut items, &mut out);
    out
}

fn option(name: &str, value: &str) -> String {
    format!("setoption name {name} value {value}")
}

/// A fresh directory with a network file for each of Akiba and Offboard.
struct Networks {
    dir: PathBuf,
    akiba: String,
    offboard: String,
}

impl Networks {
    fn new(test: &str) -> Networks {
        let dir = std::env::temp_dir().join(format!("shove-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        Networks {
            akiba: network_file::<shove::akiba::Position>(&dir, "akiba.nnue"),
            offboard: network_file::<shove::offboard::Position>(&dir, "offboard.nnue"),
            dir,
        }
    }
}

impl Drop for Networks {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

/// Every order of the four options gives the engine the flags name, and the orders that
/// meet a network file of another game say so.
fn every_order_gives(options: [String; 4], flags: &[&str], note: Option<&str>) -> String {
    let expected = engine(flags, &[]).0;
    for order in permutations(&options) {
        let (actual, notes) = engine(&[], &order);
        assert_eq!(actual, expected, "options in the order {order:#?}");
        if let Some(note) = note {
            assert!(
                notes.iter().any(|n| n.contains(note)),
                "no note '{note}' for {order:#?}: {notes:?}"
            );
        }
    }
    expected
}

#[test]
fn game_evaluation_eval_file_and_rules_in_every_order() {
    let nets = Networks::new("options-order");
    let game = option("Game", "offboard");
    let sectors = option("OffboardSectors", SECTORS);
    let own_file = option("EvalFile", &nets.offboard);
    let other_file = option("EvalFile", &nets.akiba);
    let classical = option("Evaluation", "classical");
    let network = option("Evaluation", "network");

    let with_file = every_order_gives(
        [
            game.clone(),
            network.clone(),
            own_file.clone(),
            sectors.clone(),
        ],
        &[
            "--game",
            "offboard",
            "--eval",
            "network",
            "--eval-file",
            &nets.offboard,
            "--offboard-sectors",
            SECTORS,
        ],
        None,
    );
    let classical_with_file = every_order_gives(
        [game.clone(), classical.clone(), own_file, sectors.clone()],
        &CLASSICAL_SECTORS,
        None,
    );
    let built_in = every_order_gives(
        [game.clone(), network, other_file.clone(), sectors.clone()],
        &["--game", "offboard", "--offboard-sectors", SECTORS],
        Some("is a network for akiba"),
    );
    let classical_other_file = every_order_gives(
        [game, classical, other_file, sectors],
        &CLASSICAL_SECTORS,
        Some("is a network for akiba"),
    );
    assert_eq!(classical_with_file, classical_other_file);

    // The four engines compared are four different engines, so the comparison can fail.
    let default_rules = engine(&["--game", "offboard"], &[]).0;
    let default_rules_classical = engine(&["--game", "offboard", "--eval", "classical"], &[]).0;
    let all = [
        &with_file,
        &classical_with_file,
        &built_in,
        &default_rules,
        &default_rules_classical,
    ];
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert_ne!(a, b, "two settings gave the same search");
        }
    }
}

#[test]
fn the_command_line_choice_survives_the_runners_options() {
    let nets = Networks::new("options-flags");
    let offboard_classical = engine(&["--game", "offboard", "--eval", "classical"], &[]).0;
    // `shove --eval classical` in a runner that chooses Offboard plays the classical one.
    let (runner, _) = engine(&["--eval", "classical"], &[option("Game", "offboard")]);
    assert_eq!(runner, offboard_classical);
    assert_ne!(runner, engine(&["--game", "offboard"], &[]).0);

    // The flags first, then the runner's options in every order.
    let expected = engine(&CLASSICAL_SECTORS, &[]).0;
    let options = [
        option("Game", "offboard"),
        option("OffboardSectors", SECTORS),
        option("EvalFile", &nets.offboard),
    ];
    for order in permutations(&options) {
        assert_eq!(
            engine(&["--eval", "classical"], &order).0,
            expected,
            "{order:#?}"
        );
    }

    // A network file of Akiba: Offboard keeps its built-in network, Akiba gets the file back.
    let akiba_file = engine(&["--eval", "network", "--eval-file", &nets.akiba], &[]).0;
    assert_ne!(akiba_file, engine(&[], &[]).0);
    let (there, notes) = engine(
        &["--eval", "network", "--eval-file", &nets.akiba],
        &[option("Game", "offboard")],
    );
    assert_eq!(there, engine(&["--game", "offboard"], &[]).0);
    assert!(notes.iter().any(|n| n.contains("is a network for akiba")));
    let (back, _) = engine(
        &["--eval", "network", "--eval-file", &nets.akiba],
        &[option("Game", "offboard"), option("Game", "akiba")],
    );
    assert_eq!(back, akiba_file);

    // On the command line `--game` and the network's game must agree.
    let output = binary::shove(&["--game", "akiba", "--eval-file", &nets.offboard]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("offboard"), "{stderr}");
}

#[test]
fn rule_options_survive_a_change_of_game() {
    let with_sectors = engine(&["--game", "offboard", "--offboard-sectors", SECTORS], &[]).0;
    let (after, _) = engine(
        &[],
        &[
            option("Game", "offboard"),
            option("OffboardSectors", SECTORS),
            option("Game", "akiba"),
            option("Game", "offboard"),
        ],
    );
    assert_eq!(after, with_sectors);
    // Set before its game is chosen: accepted with a note, applied once it is.
    let mut early = Engine::launch(&[], any_line);
    let notes = early.accepted(&option("OffboardSectors", SECTORS));
    assert!(
        notes.iter().any(|n| n.contains("rule of offboard")),
        "{notes:?}"
    );
    early.accepted(&option("Game", "offboard"));
    assert_eq!(early.fingerprint(), with_sectors);
}

#[test]
fn bad_choices_are_refused_and_change_nothing() {
    let nets = Networks::new("options-bad");
    let expected = engine(&["--game", "offboard", "--eval", "classical"], &[]).0;
    let mut engine = Engine::launch(&[], any_line);
    engine.accepted(&option("Evaluation", "classical"));
    let damaged = nets.dir.join("damaged.nnue");
    let mut bytes = std::fs::read(&nets.offboard).expect("just written");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&damaged, bytes).expect("temp dir writable");
    for (command, reason) in [
        (option("EvalFile", "/no/such/file.nnue"), "cannot read"),
        (
            option("EvalFile", &damaged.display().to_string()),
            "checksum",
        ),
        (option("Evaluation", "neural"), "neural"),
        // A rule option of another game is checked against that game's values.
        (option("AbraxasTarget", "12"), "12"),
        (option("NoSuchOption", "1"), "unknown option"),
    ] {
        let error = engine.refused(&command);
        assert!(error.contains(reason), "'{command}' gave '{error}'");
    }
    engine.accepted(&option("Game", "offboard"));
    assert_eq!(engine.fingerprint(), expected);
}
