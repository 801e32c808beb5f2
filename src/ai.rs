//! Machine players: uniformly random, and UCT Monte Carlo tree search. Both take a seeded
//! generator ([`Rng`]), so a game is reproducible from its seed.
//!
//! MCTS works for any variant: it only lists, makes and undoes moves. A node's statistics are
//! from the point of view of the player who made the move leading to it (with continuations the
//! same player may decide twice in a row). Random playouts stop after `playout_cap` plies and
//! count as draws there, since some games can go on for tens of thousands of plies.

use crate::interrupt::{self, Interrupted};
use crate::movegen::MoveList;
use crate::notation::Move;
use crate::outcome::Winner;
use crate::piece::Player;
use crate::script::ScriptError;
use crate::state::Position;
use crate::variant::Variant;
use rand::{RngExt, SeedableRng};

/// The generator every machine player uses (named so results are reproducible across versions).
pub type Rng = rand_pcg::Pcg64Mcg;

/// A seeded generator.
pub fn rng(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// Why a player's name is not an engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("`{0}`: MCTS iterations are a positive number (mcts:1000)")]
    Iterations(String),
    #[error("`{0}` is not a player; expected random or mcts:ITER")]
    Unknown(String),
}

/// How a machine player chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Random,
    Mcts { iterations: u32 },
}

impl Engine {
    /// `random` or `mcts:ITER` (also `mcts ITER`).
    ///
    /// # Errors
    /// Anything else, with what is accepted.
    pub fn parse(text: &str) -> Result<Engine, EngineError> {
        let t = text.trim();
        if t == "random" {
            return Ok(Engine::Random);
        }
        let it = t.strip_prefix("mcts").map(|r| r.trim_start_matches([':', ' ']));
        match it {
            Some("") => Ok(Engine::Mcts { iterations: 1000 }),
            Some(n) => n
                .parse::<u32>()
                .ok()
                .filter(|n| *n > 0)
                .map(|iterations| Engine::Mcts { iterations })
                .ok_or_else(|| EngineError::Iterations(t.to_string())),
            None => Err(EngineError::Unknown(t.to_string())),
        }
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Engine::Random => write!(f, "random"),
            Engine::Mcts { iterations } => write!(f, "mcts:{iterations}"),
        }
    }
}

/// Why a machine player found no move: a script hook failed, or the user interrupted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Script(#[from] ScriptError),
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
}

/// The default cap on MCTS playout length, in plies.
pub const PLAYOUT_CAP: u32 = 200;

/// Chooses a move for the player to decide in `pos` (None when the game is over).
///
/// # Errors
/// A script hook failed, or Ctrl-C was pressed.
pub fn choose(v: &Variant, pos: &Position, engine: Engine, rng: &mut Rng) -> Result<Option<Move>, SearchError> {
    // The search works on its own copy: a hook that fails deep in the tree cannot leave the
    // game's position half-played.
    let mut work = pos.clone();
    match engine {
        Engine::Random => {
            let mut moves = Vec::new();
            v.legal_moves(&mut work, &mut moves)?;
            Ok((!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())]))
        }
        Engine::Mcts { iterations } => mcts(v, &mut work, iterations, PLAYOUT_CAP, rng),
    }
}

struct Node {
    mv: Move,
    /// The player who made `mv`.
    mover: Player,
    children: Vec<usize>,
    untried: Vec<Move>,
    expanded: bool,
    visits: u32,
    /// Points for `mover`: 1 a win, 0.5 a draw.
    score: f64,
}

/// The score of a finished game for `p`.
fn points(v: &Variant, pos: &mut Position, p: Player) -> Result<f64, ScriptError> {
    Ok(match v.outcome(pos)? {
        Some(o) => match o.winner {
            Winner::Player(w) if w == p => 1.0,
            Winner::Player(_) => 0.0,
            Winner::Draw => 0.5,
        },
        None => 0.5,
    })
}

/// UCT search: `iterations` playouts from `pos`; returns the most visited move.
///
/// # Errors
/// A script hook failed, or Ctrl-C was pressed; `pos` is restored either way only on success, so
/// callers search a copy (as [`choose`] does).
pub fn mcts(v: &Variant, pos: &mut Position, iterations: u32, cap: u32, rng: &mut Rng) -> Result<Option<Move>, SearchError> {
    let mut root_moves = Vec::new();
    v.legal_moves(pos, &mut root_moves)?;
    match root_moves.len() {
        0 => return Ok(None),
        1 => return Ok(Some(root_moves[0])),
        _ => {}
    }
    let mut nodes =
        vec![Node { mv: Move::PASS, mover: pos.side(), children: vec![], untried: root_moves, expanded: true, visits: 0, score: 0.0 }];
    let mut scratch: MoveList = Vec::new();
    let mut path: Vec<usize> = Vec::new();
    for _ in 0..iterations {
        interrupt::check()?;
        path.clear();
        path.push(0);
        let mut depth = 0u32;
        let mut at = 0usize;
        // Selection: descend through fully expanded nodes by UCB1.
        loop {
            if !nodes[at].expanded {
                v.legal_moves(pos, &mut scratch)?;
                nodes[at].untried = std::mem::take(&mut scratch);
                nodes[at].expanded = true;
            }
            if !nodes[at].untried.is_empty() || nodes[at].children.is_empty() {
                break;
            }
            let ln = (nodes[at].visits.max(1) as f64).ln();
            let best = *nodes[at].children.iter().max_by(|&&a, &&b| ucb(&nodes[a], ln).total_cmp(&ucb(&nodes[b], ln))).expect("children");
            v.make(pos, &nodes[best].mv)?;
            depth += 1;
            at = best;
            path.push(at);
        }
        // Expansion: one untried move.
        if !nodes[at].untried.is_empty() {
            let i = rng.random_range(0..nodes[at].untried.len());
            let mv = nodes[at].untried.swap_remove(i);
            let mover = pos.side();
            v.make(pos, &mv)?;
            depth += 1;
            nodes.push(Node { mv, mover, children: vec![], untried: vec![], expanded: false, visits: 0, score: 0.0 });
            let child = nodes.len() - 1;
            nodes[at].children.push(child);
            at = child;
            path.push(at);
        }
        // Playout: random moves up to the cap (a draw there).
        let mut plies = 0;
        let mut capped = false;
        loop {
            v.legal_moves(pos, &mut scratch)?;
            if scratch.is_empty() {
                break;
            }
            if plies >= cap {
                capped = true;
                break;
            }
            let m = scratch[rng.random_range(0..scratch.len())];
            v.make(pos, &m)?;
            plies += 1;
        }
        let white = if capped { 0.5 } else { points(v, pos, Player::FIRST)? };
        for _ in 0..plies + depth {
            pos.undo();
        }
        // Backpropagation.
        for &n in &path {
            let node = &mut nodes[n];
            node.visits += 1;
            node.score += if node.mover == Player::FIRST { white } else { 1.0 - white };
        }
    }
    let best = nodes[0].children.iter().max_by_key(|&&c| nodes[c].visits).expect("at least two moves were searched");
    Ok(Some(nodes[*best].mv))
}

fn ucb(n: &Node, ln_parent: f64) -> f64 {
    if n.visits == 0 {
        return f64::INFINITY;
    }
    let v = n.visits as f64;
    n.score / v + 1.4 * (ln_parent / v).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_parse() {
        assert_eq!(Engine::parse("random"), Ok(Engine::Random));
        assert_eq!(Engine::parse("mcts:50"), Ok(Engine::Mcts { iterations: 50 }));
        assert_eq!(Engine::parse("mcts 50"), Ok(Engine::Mcts { iterations: 50 }));
        assert!(Engine::parse("mcts:0").is_err());
        assert!(Engine::parse("minimax").is_err());
    }

    #[test]
    fn mcts_is_deterministic_and_restores_the_position() {
        let v = Variant::load("checkers", &[]).unwrap();
        let mut pos = v.start();
        let before = pos.clone();
        let a = mcts(&v, &mut pos, 200, 100, &mut rng(7)).unwrap();
        assert_eq!(pos, before);
        let b = mcts(&v, &mut pos, 200, 100, &mut rng(7)).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn mcts_takes_a_winning_capture() {
        // Lielow: h6xh8 captures the black king; nine other moves do not.
        let v = Variant::load("lielow", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "7p[1,2]/8/7P[0,2]/8/8/8/P[1,3]7/8 white 4").unwrap();
        let m = mcts(&v, &mut pos, 300, 50, &mut rng(1)).unwrap().unwrap();
        assert_eq!(m.text(&v.rules.geometry), "h6xh8");
    }
}
