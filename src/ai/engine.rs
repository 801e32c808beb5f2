//! The one grammar for machine players, used by every command that takes one: `random`,
//! `mcts:N` (iterations), `ab` (alpha-beta with the variant's node budget), `ab:dN` (to depth N),
//! `ab:N` (N nodes), `ab:Nms` / `ab:Ns` (a time budget). `:` may also be a space (`mcts 500`).
//! [`Engine`]'s `Display` writes the canonical form, which parses back to the same engine.

use std::time::Duration;

pub use crate::rules::eval::DEFAULT_NODES;

/// The budget of a bare `ab` (and of `analyse` with no budget): the variant's own.
pub const DEFAULT_BUDGET: Budget = Budget::Default;

/// The iterations of a bare `mcts`.
pub const DEFAULT_ITERATIONS: u32 = 1000;

/// The deepest an alpha-beta search goes (`ab:dN` accepts at most this).
pub const MAX_DEPTH: u32 = 64;

/// How much an alpha-beta search may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// The variant's node budget: `[ai] nodes`, or [`DEFAULT_NODES`].
    Default,
    /// Iterative deepening to this depth (in decisions), whatever it costs.
    Depth(u32),
    /// Stop after this many positions searched: reproducible, like a depth.
    Nodes(u64),
    /// Stop after this long (for interactive play; not reproducible).
    Time(Duration),
}

/// How a machine player chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Random,
    Mcts { iterations: u32 },
    AlphaBeta(Budget),
}

impl Budget {
    /// The budget itself, with [`Budget::Default`] read as the variant's node count.
    pub fn resolve(self, v: &crate::variant::Variant) -> Budget {
        match self {
            Budget::Default => Budget::Nodes(v.rules.eval.nodes),
            b => b,
        }
    }
}

impl Engine {
    /// The default machine player: `ab` with the variant's node budget.
    pub const DEFAULT: Engine = Engine::AlphaBeta(DEFAULT_BUDGET);

    /// Reads an engine (see the module documentation for the grammar).
    ///
    /// # Errors
    /// Anything else, with what is accepted.
    pub fn parse(text: &str) -> Result<Engine, EngineError> {
        let t = text.trim();
        let (name, arg) = match t.split_once([':', ' ']) {
            Some((n, a)) => (n, Some(a.trim())),
            None => (t, None),
        };
        match (name, arg) {
            ("random", None) => Ok(Engine::Random),
            ("mcts", None) => Ok(Engine::Mcts { iterations: DEFAULT_ITERATIONS }),
            ("mcts", Some(n)) => n
                .parse::<u32>()
                .ok()
                .filter(|n| *n > 0)
                .map(|iterations| Engine::Mcts { iterations })
                .ok_or_else(|| EngineError::Iterations(t.to_string())),
            ("ab", None) => Ok(Engine::DEFAULT),
            ("ab", Some(b)) => budget(b).map(Engine::AlphaBeta).ok_or_else(|| EngineError::Budget(t.to_string())),
            _ => Err(EngineError::Unknown(t.to_string())),
        }
    }
}

/// `dN`, `N`, `Nms` or `Ns`.
fn budget(b: &str) -> Option<Budget> {
    let positive = |s: &str| s.parse::<u64>().ok().filter(|n| *n > 0);
    if let Some(d) = b.strip_prefix('d') {
        return positive(d).filter(|d| *d <= MAX_DEPTH as u64).map(|d| Budget::Depth(d as u32));
    }
    if let Some(ms) = b.strip_suffix("ms") {
        return positive(ms).filter(|ms| *ms <= 86_400_000).map(|ms| Budget::Time(Duration::from_millis(ms)));
    }
    if let Some(s) = b.strip_suffix('s') {
        return positive(s).filter(|s| *s <= 86_400).map(|s| Budget::Time(Duration::from_secs(s)));
    }
    positive(b).filter(|n| *n <= 1_000_000_000_000).map(Budget::Nodes)
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Engine::Random => write!(f, "random"),
            Engine::Mcts { iterations } => write!(f, "mcts:{iterations}"),
            Engine::AlphaBeta(Budget::Default) => write!(f, "ab"),
            Engine::AlphaBeta(Budget::Depth(d)) => write!(f, "ab:d{d}"),
            Engine::AlphaBeta(Budget::Nodes(n)) => write!(f, "ab:{n}"),
            Engine::AlphaBeta(Budget::Time(t)) if t.as_millis() % 1000 == 0 => write!(f, "ab:{}s", t.as_secs()),
            Engine::AlphaBeta(Budget::Time(t)) => write!(f, "ab:{}ms", t.as_millis()),
        }
    }
}

impl std::str::FromStr for Engine {
    type Err = EngineError;
    fn from_str(s: &str) -> Result<Engine, EngineError> {
        Engine::parse(s)
    }
}

/// Why a player's name is not an engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("`{0}`: MCTS iterations are a positive number (mcts:1000)")]
    Iterations(String),
    #[error("`{0}`: an alpha-beta budget is dDEPTH (1 to 64), a number of nodes, or a time (500ms, 2s): ab:d4, ab:20000, ab:1s")]
    Budget(String),
    #[error("`{}` is not a player; expected random, mcts[:ITERATIONS] or ab[:dDEPTH|:NODES|:TIME]", crate::files::quote(.0))]
    Unknown(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_parse() {
        assert_eq!(Engine::parse("random"), Ok(Engine::Random));
        assert_eq!(Engine::parse("mcts:50"), Ok(Engine::Mcts { iterations: 50 }));
        assert_eq!(Engine::parse("mcts 50"), Ok(Engine::Mcts { iterations: 50 }));
        assert_eq!(Engine::parse("mcts"), Ok(Engine::Mcts { iterations: 1000 }));
        assert_eq!(Engine::parse("ab"), Ok(Engine::DEFAULT));
        assert_eq!(Engine::parse("ab:d4"), Ok(Engine::AlphaBeta(Budget::Depth(4))));
        assert_eq!(Engine::parse("ab 20000"), Ok(Engine::AlphaBeta(Budget::Nodes(20000))));
        assert_eq!(Engine::parse("ab:250ms"), Ok(Engine::AlphaBeta(Budget::Time(Duration::from_millis(250)))));
        assert_eq!(Engine::parse("ab:2s"), Ok(Engine::AlphaBeta(Budget::Time(Duration::from_secs(2)))));
        for bad in ["mcts:0", "minimax", "ab:", "ab:d0", "ab:d65", "ab:0", "ab:-3", "ab:1.5s", "ab:dd2", "ab:0ms", "random:3", "abc"] {
            assert!(Engine::parse(bad).is_err(), "{bad}");
        }
        assert!(Engine::parse("ab:x").unwrap_err().to_string().contains("ab:d4"));
    }

    #[test]
    fn display_round_trips() {
        for t in ["random", "mcts:1000", "ab", "ab:d4", "ab:40000", "ab:250ms", "ab:2s"] {
            let e = Engine::parse(t).unwrap();
            assert_eq!(e.to_string(), t);
            assert_eq!(Engine::parse(&e.to_string()), Ok(e));
        }
        assert_eq!(Engine::parse("ab:2000ms").unwrap().to_string(), "ab:2s");
        assert_eq!(Engine::DEFAULT.to_string(), "ab");
    }
}
