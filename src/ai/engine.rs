//! The one grammar for machine players, used by every command that takes one: `random`,
//! `mcts:N` (iterations), `ab` (alpha-beta with the variant's node budget), `ab:dN` (to depth N),
//! `ab:N` (N nodes), `ab:Nms` / `ab:Ns` (a time budget), and another program speaking UCI or USI:
//! `uci:COMMAND` / `usi:COMMAND` ([`ExternalSpec`], played by [`super::external`]). `:` may also
//! be a space (`mcts 500`). `ENGINE@eval=FILE` searches with the evaluation of another variant
//! file of the same game ([`super::evaluated`]).
//! [`Engine`]'s `Display` writes the canonical form, which parses back to the same engine.

use std::time::Duration;

/// The budget of a bare `ab` (and of `analyse` with no budget): the variant's own.
pub const DEFAULT_BUDGET: Budget = Budget::Default;

/// The iterations of a bare `mcts`.
pub(crate) const DEFAULT_ITERATIONS: u32 = 1000;

/// The deepest an alpha-beta search goes (`ab:dN` accepts at most this).
pub(crate) const MAX_DEPTH: u32 = 64;

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
    Mcts {
        iterations: u32,
    },
    AlphaBeta(Budget),
    /// Another program, spoken to over UCI or USI.
    External(External),
    /// Alpha-beta or MCTS searching with another file's evaluation (`ab:d3@eval=FILE`).
    Evaluated(super::evaluated::Evaluated),
}

/// Which engine protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Protocol {
    Uci,
    Usi,
}

/// What an external engine is asked to do for each move (`@depth=N`, `@movetime=MS`,
/// `@nodes=N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Limit {
    Depth(u32),
    Movetime(u64),
    Nodes(u64),
}

/// The limit of an external engine given none: a second a move.
pub(crate) const DEFAULT_LIMIT: Limit = Limit::Movetime(1000);

/// The most words (program and arguments) of an external engine's command.
pub(crate) const MAX_COMMAND_WORDS: usize = 32;

/// An external engine as written: `uci:COMMAND[@KEY=VALUE…]`. COMMAND is the program and its
/// arguments separated by spaces (`uci:boardlab uci`; a program whose path holds a space is
/// started through a script); the keys are one limit (`depth`, `movetime` in milliseconds,
/// `nodes`; a second a move when none is given) and `timeout` (milliseconds: how long the
/// engine may stay silent before it loses, see [`super::external`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ExternalSpec {
    pub(crate) protocol: Protocol,
    /// The program, then its arguments; never empty.
    pub(crate) command: Vec<String>,
    pub(crate) limit: Option<Limit>,
    pub(crate) timeout: Option<Duration>,
}

/// An [`ExternalSpec`] held for the whole run, so that [`Engine`] stays `Copy` (engines are
/// passed around and compared freely). Each distinct spec is stored once
/// ([`External::intern`]): a program reads a few engines from its arguments, so the store stays
/// small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct External(&'static ExternalSpec);

impl External {
    /// The stored spec equal to `spec`, stored now if it is new.
    pub(crate) fn intern(spec: ExternalSpec) -> External {
        static STORE: std::sync::Mutex<Vec<&'static ExternalSpec>> = std::sync::Mutex::new(Vec::new());
        External(super::evaluated::intern(&STORE, spec))
    }

    pub(crate) fn spec(self) -> &'static ExternalSpec {
        self.0
    }

    /// The limit asked for, or [`DEFAULT_LIMIT`].
    pub(crate) fn limit(self) -> Limit {
        self.0.limit.unwrap_or(DEFAULT_LIMIT)
    }
}

impl ExternalSpec {
    /// Reads `COMMAND[@KEY=VALUE…]` (the part after `uci:`).
    fn parse(protocol: Protocol, text: &str) -> Result<ExternalSpec, String> {
        let mut rest = text.trim();
        let (mut limit, mut timeout) = (None, None);
        // Keys are read from the end, so an `@` inside the program's path stays there.
        while let Some((head, key)) = rest.rsplit_once('@') {
            let Some((k, value)) = key.split_once('=') else { break };
            let n = value.trim().parse::<u64>().ok().filter(|n| *n > 0).ok_or_else(|| format!("`{k}` takes a positive whole number"))?;
            let l = match k.trim() {
                "depth" => Limit::Depth(n.min(MAX_DEPTH as u64) as u32),
                "movetime" => Limit::Movetime(n.min(86_400_000)),
                "nodes" => Limit::Nodes(n),
                "timeout" => {
                    timeout = Some(Duration::from_millis(n.min(86_400_000)));
                    rest = head.trim_end();
                    continue;
                }
                other => return Err(format!("unknown key `{other}` (expected depth, movetime, nodes or timeout)")),
            };
            if limit.replace(l).is_some() {
                return Err("give one of depth, movetime and nodes".into());
            }
            rest = head.trim_end();
        }
        let command: Vec<String> = rest.split_whitespace().map(String::from).collect();
        if command.is_empty() {
            return Err("the engine's program is missing".into());
        }
        if command.len() > MAX_COMMAND_WORDS {
            return Err(format!("at most {MAX_COMMAND_WORDS} words in the engine's command"));
        }
        Ok(ExternalSpec { protocol, command, limit, timeout })
    }
}

impl std::fmt::Display for ExternalSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = match self.protocol {
            Protocol::Uci => "uci",
            Protocol::Usi => "usi",
        };
        write!(f, "{p}:{}", self.command.join(" "))?;
        match self.limit {
            Some(Limit::Depth(d)) => write!(f, "@depth={d}")?,
            Some(Limit::Movetime(ms)) => write!(f, "@movetime={ms}")?,
            Some(Limit::Nodes(n)) => write!(f, "@nodes={n}")?,
            None => {}
        }
        match self.timeout {
            Some(t) => write!(f, "@timeout={}", t.as_millis()),
            None => Ok(()),
        }
    }
}

impl Budget {
    /// The budget itself, with [`Budget::Default`] read as the variant's node count.
    pub(crate) fn resolve(self, v: &crate::variant::Variant) -> Budget {
        match self {
            Budget::Default => Budget::Nodes(v.rules.eval.nodes),
            b => b,
        }
    }
}

impl Engine {
    /// Whether the engine's games differ from seed to seed (random and MCTS players draw from
    /// the game's seed); a fixed-budget search or an external engine replays the same game.
    pub fn varies(&self) -> bool {
        match self {
            Engine::Random | Engine::Mcts { .. } => true,
            Engine::AlphaBeta(_) | Engine::External(_) => false,
            Engine::Evaluated(e) => e.spec().engine.varies(),
        }
    }

    /// The default machine player: `ab` with the variant's node budget.
    pub const DEFAULT: Engine = Engine::AlphaBeta(DEFAULT_BUDGET);

    /// Reads an engine (see the module documentation for the grammar).
    ///
    /// # Errors
    /// Anything else, with what is accepted.
    pub(crate) fn parse(text: &str) -> Result<Engine, EngineError> {
        let t = text.trim();
        if let Some((base, file)) = t.rsplit_once("@eval=") {
            return evaluated(t, base, file);
        }
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
            ("uci" | "usi", Some(c)) => {
                let protocol = if name == "uci" { Protocol::Uci } else { Protocol::Usi };
                let spec = ExternalSpec::parse(protocol, c).map_err(|why| EngineError::External(t.to_string(), why))?;
                Ok(Engine::External(External::intern(spec)))
            }
            _ => Err(EngineError::Unknown(t.to_string())),
        }
    }
}

/// `ENGINE@eval=FILE` (`text`), read as `base` and `file`.
fn evaluated(text: &str, base: &str, file: &str) -> Result<Engine, EngineError> {
    use super::evaluated::{Evaluated, EvaluatedSpec};
    let why = |w: &str| EngineError::Evaluated(text.to_string(), w.to_string());
    let engine = match Engine::parse(base)? {
        e @ (Engine::AlphaBeta(_) | Engine::Mcts { .. }) => e,
        _ => return Err(why("only ab and mcts search with an evaluation")),
    };
    let file = file.trim();
    if file.is_empty() {
        return Err(why("the variant file is missing"));
    }
    Ok(Engine::Evaluated(Evaluated::intern(EvaluatedSpec { engine, file: file.to_string() })))
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
            Engine::External(e) => e.spec().fmt(f),
            Engine::Evaluated(e) => write!(f, "{}@eval={}", e.spec().engine, e.spec().file),
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
    #[error("`{}`: {why}; an external engine is uci:COMMAND or usi:COMMAND, then @depth=N, @movetime=MS or @nodes=N", crate::files::quote(.0), why = .1)]
    External(String, String),
    #[error("`{}`: {why}; an engine with another evaluation is ENGINE@eval=FILE (ab:d3@eval=my-variant)", crate::files::quote(.0), why = .1)]
    Evaluated(String, String),
    #[error("`{}` is not a player; expected random, mcts[:ITERATIONS], ab[:dDEPTH|:NODES|:TIME], uci:COMMAND or usi:COMMAND", crate::files::quote(.0))]
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
    fn external_engines_parse() {
        let spec = |t: &str| match Engine::parse(t) {
            Ok(Engine::External(e)) => e.spec().clone(),
            other => panic!("{t}: {other:?}"),
        };
        let s = spec("uci:/opt/fs/stockfish@depth=3");
        assert_eq!((s.protocol, s.command.clone(), s.limit), (Protocol::Uci, vec!["/opt/fs/stockfish".to_string()], Some(Limit::Depth(3))));
        let s = spec("usi:boardlab usi @movetime=250@timeout=900");
        assert_eq!(s.command, ["boardlab", "usi"]);
        assert_eq!((s.protocol, s.limit, s.timeout), (Protocol::Usi, Some(Limit::Movetime(250)), Some(Duration::from_millis(900))));
        // An `@` in the path that is not a key stays in the path.
        assert_eq!(spec("uci:/srv/me@home/fs@nodes=5").command, ["/srv/me@home/fs"]);
        assert_eq!(spec("uci /bin/engine").limit, None);
        // The same spec is one engine (arena refuses it twice), written back as given.
        assert_eq!(Engine::parse("uci:a@depth=2"), Engine::parse("uci: a @depth=2"));
        assert_ne!(Engine::parse("uci:a@depth=2"), Engine::parse("usi:a@depth=2"));
        for t in ["uci:/opt/fs@depth=3", "usi:boardlab usi@movetime=250@timeout=900", "uci:x"] {
            assert_eq!(Engine::parse(t).unwrap().to_string(), t);
        }
        for bad in ["uci:", "uci:@depth=2", "uci:x@depth=0", "uci:x@depth=2@nodes=3", "uci:x@speed=3", "uci:x@movetime=fast", "usi"] {
            assert!(Engine::parse(bad).is_err(), "{bad}");
        }
        assert!(Engine::parse("uci:x@speed=3").unwrap_err().to_string().contains("unknown key `speed`"));
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

    #[test]
    fn evaluated_engines_parse() {
        let e = Engine::parse("ab:d3@eval=/tmp/my lielow").unwrap();
        let Engine::Evaluated(x) = e else { panic!("{e:?}") };
        assert_eq!((x.spec().engine, x.spec().file.as_str()), (Engine::AlphaBeta(Budget::Depth(3)), "/tmp/my lielow"));
        assert_eq!(e.to_string(), "ab:d3@eval=/tmp/my lielow");
        assert_eq!(Engine::parse(&e.to_string()), Ok(e));
        assert_eq!(Engine::parse("mcts@eval=x").unwrap().to_string(), "mcts:1000@eval=x");
        // The same engine with two files is two engines.
        assert_ne!(Engine::parse("ab@eval=a"), Engine::parse("ab@eval=b"));
        for bad in ["random@eval=x", "uci:fs@eval=x", "ab:d3@eval=", "ab:d0@eval=x"] {
            assert!(Engine::parse(bad).is_err(), "{bad}");
        }
        assert!(Engine::parse("random@eval=x").unwrap_err().to_string().contains("only ab and mcts"));
    }
}
