//! The command-line tools behind `shove perft` and `shove show`, written against [`Game`].

use crate::game::Game;
use crate::perft;
use std::io::{self, Write};
use std::time::Instant;

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
    let nodes = if divide {
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
