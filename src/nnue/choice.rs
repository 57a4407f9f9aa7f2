//! Which evaluation a search uses: the game's classical one or a network, and which network
//! (the one built in, or a file) — shared by the protocol's `Evaluation`/`EvalFile` options
//! and the command line's `--eval`/`--eval-file`.

use crate::evaluation::Evaluation;
use crate::nnue::Network;
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

/// The `EvalFile` value that names the network built into the engine.
pub const EMBEDDED: &str = "<embedded>";

/// The two evaluations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    /// The weighted sum of named terms (`shove tune`).
    Classical,
    /// The game's network.
    Network,
}

impl EvalKind {
    /// The game's default: the network where matches showed it stronger.
    pub fn default_for<G: Evaluation>() -> EvalKind {
        if G::NETWORK_BY_DEFAULT {
            EvalKind::Network
        } else {
            EvalKind::Classical
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EvalKind::Classical => "classical",
            EvalKind::Network => "network",
        })
    }
}

impl FromStr for EvalKind {
    type Err = String;
    fn from_str(text: &str) -> Result<EvalKind, String> {
        if text.eq_ignore_ascii_case("classical") {
            Ok(EvalKind::Classical)
        } else if text.eq_ignore_ascii_case("network") {
            Ok(EvalKind::Network)
        } else {
            Err(format!(
                "evaluation '{text}' is not 'classical' or 'network'"
            ))
        }
    }
}

/// Reads a network file, for whichever game it names.
fn read(path: &Path) -> Result<Network, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read network {}: {e}", path.display()))?;
    Network::from_bytes(&bytes).map_err(|e| format!("network {}: {e}", path.display()))
}

/// Reads and checks a network file for game `G`.
pub fn load<G: Evaluation>(path: &Path) -> Result<Network, String> {
    let network = read(path)?;
    network
        .check::<G>()
        .map_err(|e| format!("network {}: {e}", path.display()))?;
    Ok(network)
}

/// The game a network file is for, so that naming the file is enough to choose the game.
pub fn game_of(path: &Path) -> Result<String, String> {
    read(path).map(|network| network.game().to_string())
}

/// The network a search should use (`None`: classical) for `kind` (the game's default when
/// `None`) and `file` (the built-in network when `None`). A file is read and checked even
/// with the classical evaluation, so that a bad file is reported when it is named.
pub fn resolve<G: Evaluation>(
    kind: Option<EvalKind>,
    file: Option<&Path>,
) -> Result<Option<Arc<Network>>, String> {
    let network = match file {
        Some(path) => Some(load::<G>(path)?),
        None => match G::embedded_network() {
            Some(bytes) => {
                let network = Network::from_bytes(bytes)
                    .and_then(|n| n.check::<G>().map(|()| n))
                    .map_err(|e| format!("the built-in {} network: {e}", G::NAME))?;
                Some(network)
            }
            None => None,
        },
    };
    match kind.unwrap_or_else(EvalKind::default_for::<G>) {
        EvalKind::Classical => Ok(None),
        EvalKind::Network => network.map(|n| Some(Arc::new(n))).ok_or_else(|| {
            format!(
                "{} has no built-in network: name a network file (EvalFile / --eval-file)",
                G::NAME
            )
        }),
    }
}
