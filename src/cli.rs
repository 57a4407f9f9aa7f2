//! The command line: [`dispatch`] chooses the game and runs a command; the tools that
//! search or walk one position (`perft`, `show`, `analyze`, `review`, `bench`, `openings`)
//! are here, written against [`Game`], and the runs of games in [`matches`] and
//! [`pipeline`].

#[cfg(feature = "native")]
pub mod args;
#[cfg(feature = "native")]
pub mod dispatch;
#[cfg(feature = "native")]
pub mod matches;
#[cfg(feature = "native")]
pub mod pipeline;

use crate::game::Game;
#[cfg(feature = "native")]
use crate::matches::Adjudication;
use crate::nnue::Network;
use crate::perft;
#[cfg(feature = "native")]
use crate::pipeline::openings::{OpeningConfig, Trials};
use crate::profile::Profile;
use crate::search::{self, Searcher};
use crate::search_hints::SearchHints;
use std::io::{self, Write};
#[cfg(feature = "native")]
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
// `std::time::Instant` panics in the browser (docs/web.md).
use web_time::Instant;

/// Deeper perft runs would take hours; refuse them instead of hanging.
pub const MAX_PERFT_DEPTH: u32 = 20;

fn position<G: Game>(rules: G::Rules, fen: Option<&str>) -> Result<G, String> {
    match fen {
        None => Ok(G::start(rules)),
        Some(text) => G::parse(text, rules).map_err(|e| e.to_string()),
    }
}

/// `shove perft`: optional `<move>: <count>` lines, then always `nodes <N>`.
pub fn perft<G: Game>(
    rules: G::Rules,
    fen: Option<&str>,
    depth: u32,
    divide: bool,
) -> Result<(), String> {
    if depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "perft depth {depth} is too large (at most {MAX_PERFT_DEPTH})"
        ));
    }
    let position: G = position(rules, fen)?;
    let start = Instant::now();
    let mut out = io::stdout().lock();
    let nodes = if divide && depth > 0 {
        let mut total = 0;
        for (mv, count) in perft::divide(&position, depth) {
            writeln!(out, "{mv}: {count}").map_err(|e| e.to_string())?;
            total += count;
        }
        total
    } else {
        perft::perft(&position, depth)
    };
    writeln!(out, "nodes {nodes}").map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    tracing::info!(
        nodes,
        seconds,
        nps = (nodes as f64 / seconds.max(1e-9)) as u64,
        "perft"
    );
    Ok(())
}

/// `shove show`: the board diagram.
pub fn show<G: Game>(rules: G::Rules, fen: Option<&str>) -> Result<(), String> {
    let position: G = position(rules, fen)?;
    print!("{}", position.diagram());
    Ok(())
}

/// Plays `moves` (space-separated notation) from `position`, naming the first bad one.
pub fn play_moves<G: Game>(position: &mut G, moves: &str) -> Result<Vec<u64>, String> {
    let mut history = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let mv = position
            .parse_move(text)
            .map_err(|e| format!("move {} of the move list: {e}", i + 1))?;
        history.push(position.hash());
        position.play(mv);
    }
    Ok(history)
}

fn line_text<M: std::fmt::Display>(moves: &[M]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// How `shove analyze` sets up its searcher.
pub struct SearcherSetup {
    pub hash_megabytes: usize,
    pub threads: usize,
    /// `None`: the classical evaluation.
    pub network: Option<Arc<Network>>,
    /// The playing strength (`--level`); full strength searches as always.
    pub skill: search::Skill,
}

/// `shove analyze`: searches one position and prints every iteration readably.
pub fn analyze<G: Profile>(
    rules: G::Rules,
    fen: Option<&str>,
    moves: Option<&str>,
    depth: Option<u32>,
    movetime: Option<u64>,
    setup: SearcherSetup,
) -> Result<(), String> {
    let SearcherSetup {
        hash_megabytes,
        threads,
        network,
        skill,
    } = setup;
    check_search_setup(depth, threads, hash_megabytes)?;
    let mut position: G = position(rules, fen)?;
    let history = play_moves(&mut position, moves.unwrap_or(""))?;
    print!("{}", position.diagram());
    if position.outcome().is_some() {
        println!("the game is over: nothing to analyse");
        return Ok(());
    }
    let limits = skill.limits(&search::Limits {
        depth: depth.or(if movetime.is_none() { Some(10) } else { None }),
        movetime: movetime.map(Duration::from_millis),
        ..search::Limits::default()
    });
    // The latest score and first move of each line, for a weak level's choice.
    let mut lines = Vec::new();
    match &network {
        None => println!("evaluation: classical"),
        Some(n) if n.training().is_empty() => {
            println!("evaluation: network, hidden {}", n.hidden())
        }
        Some(n) => println!(
            "evaluation: network, hidden {}; trained by {}",
            n.hidden(),
            training_summary(n.training())
        ),
    }
    let mut searcher = Searcher::<G>::new(0);
    searcher.set_threads(threads);
    searcher.set_hash(hash_megabytes)?;
    searcher.set_network(network);
    let multipv = skill.lines(1, G::LEVEL_0_LINES);
    let result = searcher.search(&position, &history, &limits, multipv, &mut |info| {
        if let Some(&mv) = info.pv.first() {
            match lines.get_mut(info.multipv - 1) {
                Some(slot) => *slot = (info.score, mv),
                None => lines.push((info.score, mv)),
            }
        }
        println!(
            "depth {:>2}/{:<2}  score {:<10}  nodes {:>10}  nps {:>9}  time {:>6} ms  pv {}",
            info.depth,
            info.seldepth,
            info.score.to_string(),
            info.nodes,
            info.nps,
            info.time.as_millis(),
            line_text(&info.pv)
        );
    });
    let best = result.best.map_or("(none)".to_string(), |m| m.to_string());
    println!(
        "best move {best}  score {}  depth {}  nodes {}",
        result.score, result.depth, result.nodes
    );
    println!("best line {}", line_text(&result.pv));
    if skill.enabled()
        && let Some(pick) = skill.pick(&lines, position.hash())
    {
        println!("level {} plays {pick}", f64::from(skill.centi()) / 100.0);
    }
    Ok(())
}

/// Largest transposition table accepted from the command line or the protocol.
pub const MAX_HASH_MB: usize = 16384;
/// Most search threads accepted from the command line or the protocol.
pub const MAX_THREADS: usize = 256;

/// A network's training record in one readable line: the data files by name only, the
/// first few of them, since a record names every file with its header (hundreds of shards).
fn training_summary(record: &str) -> String {
    const SHOWN: usize = 3;
    split_top_level(record, ';')
        .into_iter()
        .map(|part| match part.trim_start().strip_prefix("data: ") {
            Some(data) => {
                let space = &part[..part.len() - part.trim_start().len()];
                let names: Vec<&str> = split_top_level(data, ',')
                    .into_iter()
                    .map(|file| file.split_once(" (").map_or(file, |(name, _)| name).trim())
                    .collect();
                let more = match names.len().saturating_sub(SHOWN) {
                    0 => String::new(),
                    n => format!(" and {n} more"),
                };
                let shown = names[..names.len().min(SHOWN)].join(", ");
                format!("{space}data: {shown}{more}")
            }
            None => part.to_string(),
        })
        .collect::<Vec<_>>()
        .join(";")
}

/// `text` split at each `separator` outside parentheses.
fn split_top_level(text: &str, separator: char) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == separator && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The depth, threads and hash of a search asked for on the command line, checked.
pub fn check_search_setup(
    depth: Option<u32>,
    threads: usize,
    hash_megabytes: usize,
) -> Result<(), String> {
    check_threads(threads)?;
    if let Some(depth) = depth.filter(|&d| d == 0 || d > search::MAX_DEPTH) {
        return Err(format!(
            "depth {depth} is out of range 1..={}",
            search::MAX_DEPTH
        ));
    }
    if hash_megabytes > MAX_HASH_MB {
        return Err(format!(
            "hash {hash_megabytes} MB is more than {MAX_HASH_MB}"
        ));
    }
    Ok(())
}

fn check_threads(threads: usize) -> Result<(), String> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(())
    } else {
        Err(format!(
            "threads {threads} is out of range 1..={MAX_THREADS}"
        ))
    }
}

/// `shove params`: this game's tuned search parameters as SPSA reads them
/// ([`search::SearchParams::spsa_lines`]), refused if a value lies outside its range (a
/// tuner would start from a value it cannot keep).
pub fn params<G: SearchHints>(out: &mut impl Write) -> Result<(), String> {
    let errors = search::SearchParams::of::<G>().range_errors();
    if !errors.is_empty() {
        return Err(format!(
            "{}'s search parameters: {}",
            G::NAME,
            errors.join("; ")
        ));
    }
    write!(out, "{}", search::SearchParams::of::<G>().spsa_lines())
        .map_err(|e| format!("params: {e}"))
}

/// `shove bench`: fixed positions, fixed depth (the game's default when `None`), fresh
/// tables, default rules; ends with `<N> nodes <M> nps`, N deterministic for one thread
/// (with more, the threads race for the shared table and N varies from run to run).
///
/// With more than one thread every position is also searched by one thread in the same run,
/// right after the threads (so that both see the same load), and the speedup is printed:
/// the time to the depth (the median over the positions of one thread's time divided by
/// the threads') and the nodes per second (totals).
///
/// The report goes to `out` (stdout for the command line; the browser's worker collects it,
/// so that examples/web_bench.rs compares the same timing of the same searches).
pub fn bench<G: Profile>(
    depth: Option<u32>,
    threads: usize,
    network: Option<Arc<Network>>,
    out: &mut impl Write,
) -> Result<(), String> {
    check_threads(threads)?;
    let mut say = |line: String| writeln!(out, "{line}").map_err(|e| format!("bench: {e}"));
    let (texts, default_depth) = G::BENCH;
    let depth = depth.unwrap_or(default_depth);
    if depth == 0 || depth > search::MAX_DEPTH {
        return Err(format!(
            "depth {depth} is out of range 1..={}",
            search::MAX_DEPTH
        ));
    }
    let positions = texts
        .iter()
        .map(|text| {
            G::parse(text, G::Rules::default())
                .map_err(|e| format!("bench position '{text}': {e}"))
                .map(|position| (*text, position))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let limits = search::Limits {
        depth: Some(depth),
        ..search::Limits::default()
    };
    let searcher_with = |threads| {
        let mut searcher = Searcher::<G>::new(16);
        searcher.set_threads(threads);
        searcher.set_network(network.clone());
        searcher
    };
    let mut searcher = searcher_with(threads);
    let mut single = (threads > 1).then(|| searcher_with(1));
    let (mut many_total, mut one_total) = (BenchRun::default(), BenchRun::default());
    let mut time_ratios = Vec::new();
    for (text, position) in &positions {
        let many = bench_search(&mut searcher, position, &limits);
        let Some(single) = &mut single else {
            say(format!("{text}: {}", many.line))?;
            many_total.add(&many);
            continue;
        };
        say(format!(
            "{text}: threads {threads} {} {}",
            many.line,
            many.millis()
        ))?;
        let one = bench_search(single, position, &limits);
        say(format!("{text}: threads 1 {} {}", one.line, one.millis()))?;
        time_ratios.push(one.time.as_secs_f64() / many.time.as_secs_f64().max(1e-9));
        many_total.add(&many);
        one_total.add(&one);
    }
    if threads > 1 {
        say(format!("threads 1: {}", one_total.summary()))?;
        say(format!("threads {threads}: {}", many_total.summary()))?;
        say(format!(
            "speedup of {threads} threads over 1: time to depth {depth} x{:.2} (median over \
             {} positions), nodes per second x{:.2}",
            median(&mut time_ratios),
            time_ratios.len(),
            many_total.nps() / one_total.nps().max(1e-9)
        ))?;
    }
    say(format!(
        "{} nodes {} nps",
        many_total.nodes,
        many_total.nps() as u64
    ))?;
    Ok(())
}

/// One bench search, or the sum of several.
#[derive(Default)]
struct BenchRun {
    nodes: u64,
    time: Duration,
    /// `best <move> score <score> nodes <n>`.
    line: String,
}

impl BenchRun {
    fn add(&mut self, other: &BenchRun) {
        self.nodes += other.nodes;
        self.time += other.time;
    }

    fn nps(&self) -> f64 {
        self.nodes as f64 / self.time.as_secs_f64().max(1e-9)
    }

    /// `time <t> ms`.
    fn millis(&self) -> String {
        format!("time {:.1} ms", self.time.as_secs_f64() * 1000.0)
    }

    fn summary(&self) -> String {
        format!(
            "{} nodes in {:.3} s, {} nps",
            self.nodes,
            self.time.as_secs_f64(),
            self.nps() as u64
        )
    }
}

/// Searches `position` with fresh tables, timing the search alone.
fn bench_search<G: SearchHints>(
    searcher: &mut Searcher<G>,
    position: &G,
    limits: &search::Limits,
) -> BenchRun {
    searcher.clear();
    let start = Instant::now();
    let result = searcher.search(position, &[], limits, 1, &mut |_| {});
    let time = start.elapsed();
    BenchRun {
        nodes: result.nodes,
        time,
        line: format!(
            "best {} score {} nodes {}",
            result.best.map_or("(none)".to_string(), |m| m.to_string()),
            result.score,
            result.nodes
        ),
    }
}

/// The median of `values` (the mean of the middle two for an even count; 0 when empty).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// The trial games of `shove openings --trials`: `games` games, each colour to win
/// `min_wins`, played with `network` (`None`: classical) and ended by `adjudication`.
#[cfg(feature = "native")]
pub fn opening_trials(
    games: usize,
    nodes: u64,
    min_wins: usize,
    network: Option<Arc<Network>>,
    adjudication: Adjudication,
) -> Result<Trials, String> {
    if min_wins == 0 || 2 * min_wins > games {
        return Err(format!(
            "--trial-wins {min_wins} cannot be met by both colours in {games} trial games \
             (it must be 1..={})",
            games / 2
        ));
    }
    if nodes == 0 {
        return Err("--trial-nodes must be at least 1".into());
    }
    Ok(Trials {
        games,
        nodes,
        min_wins,
        network,
        adjudication,
        hash_megabytes: 16,
    })
}

/// `shove openings`: a balanced opening set (see [`crate::pipeline::openings`]) as an
/// openings file for `shove match`, headed by comment lines that say how it was made.
/// The candidates start from `starts`, then the positions of `starts_file` (the game's start
/// when there are none). `command` is the command line to record; `out` the file to write
/// (stdout when `None`).
#[allow(clippy::too_many_arguments)]
#[cfg(feature = "native")]
pub fn openings<G: SearchHints>(
    rules: G::Rules,
    starts: &[String],
    starts_file: Option<&Path>,
    config: &OpeningConfig,
    trials: Option<&Trials>,
    count: usize,
    seed: u64,
    threads: usize,
    command: &str,
    out: Option<&Path>,
) -> Result<(), String> {
    if config.depth == 0 || config.depth > search::MAX_DEPTH {
        return Err(format!(
            "depth {} is out of range 1..={}",
            config.depth,
            search::MAX_DEPTH
        ));
    }
    if config.hash_megabytes > MAX_HASH_MB {
        return Err(format!(
            "hash {} MB is more than {MAX_HASH_MB}",
            config.hash_megabytes
        ));
    }
    let mut starts: Vec<G> = starts
        .iter()
        .map(|text| G::parse(text, rules).map_err(|e| format!("start '{text}': {e}")))
        .collect::<Result<_, _>>()?;
    if let Some(path) = starts_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read --starts {}: {e}", path.display()))?;
        let positions = crate::matches::openings::parse::<G>(&text, rules)
            .map_err(|e| format!("--starts {}: {e}", path.display()))?;
        starts.extend(positions);
    }
    if starts.is_empty() {
        starts.push(G::start(rules));
    }
    let begun = Instant::now();
    let openings =
        crate::pipeline::openings::generate(&starts, config, trials, count, seed, threads);
    let filtering = config.filters_starts();
    let short = openings.len() < count && !filtering;
    let mut text = format!(
        "# {} openings for shove match: random playouts of {}..={} plies from {} start \
         position(s),\n# kept when a depth-{} search scores them within {}, no two alike.\n\
         # {command}\n",
        G::NAME,
        config.plies.0,
        config.plies.1,
        starts.len(),
        config.depth,
        config.max_score
    );
    if let Some(trials) = trials {
        text.push_str(&format!(
            "# Each colour won at least {} of {} trial games of the engine against itself \
             from it ({} nodes a move and more).\n",
            trials.min_wins, trials.games, trials.nodes
        ));
    }
    if short {
        text.push_str(&format!(
            "# {} of the {count} asked for: no more among the candidates drawn.\n",
            openings.len()
        ));
    }
    if filtering {
        text.push_str(&format!(
            "# {} of the {} start positions kept.\n",
            openings.len(),
            starts.len()
        ));
    }
    for position in &openings {
        text.push_str(&position.to_string());
        text.push('\n');
    }
    // A set that falls short is still written: the judging may have taken an hour, and
    // what it found is a usable (smaller) set; the command fails all the same.
    match out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string())?,
    }
    if short {
        return Err(format!(
            "only {} balanced openings among {} candidates (written{}): allow more plies{}",
            openings.len(),
            crate::pipeline::openings::candidate_limit(count, starts.len(), config, trials),
            out.map_or(String::new(), |path| format!(" to {}", path.display())),
            if trials.is_some() {
                ", a larger --max-score or fewer --trial-wins"
            } else {
                " or a larger --max-score"
            }
        ));
    }
    tracing::info!(
        openings = openings.len(),
        seconds = begun.elapsed().as_secs_f64(),
        "openings"
    );
    Ok(())
}

/// `shove review`: the limits checked as `analyze` checks them.
#[cfg(feature = "native")]
pub fn review(args: &args::ReviewArgs) -> Result<String, String> {
    check_search_setup(args.depth, args.threads, args.hash)?;
    let limits = search::Limits {
        depth: args.depth,
        movetime: args.movetime.map(Duration::from_millis),
        ..Default::default()
    };
    let settings = crate::review::ReviewSettings {
        limits,
        threads: args.threads,
        hash_megabytes: args.hash,
        confirmation_plies: args.confirm,
        json: args.json,
        progress: !args.quiet,
        watch: None,
    };
    crate::review::review_file(&args.file, args.number, &settings)
}

/// The machine's cores: the default of the commands that take a number of threads.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    /// The data files by name, at most three, the rest of the record as it is.
    #[test]
    fn a_training_record_names_its_first_data_files() {
        let record = "shove-train 0.3.0; data: a.data (openings=plies=4-10;depth=6), \
                      b.data (x), c.data (y), d.data (z); 10 training positions; hidden 64";
        assert_eq!(
            super::training_summary(record),
            "shove-train 0.3.0; data: a.data, b.data, c.data and 1 more; 10 training positions; hidden 64"
        );
        let short = "data: a.data (nodes=4000); hidden 3";
        assert_eq!(super::training_summary(short), "data: a.data; hidden 3");
    }
}
