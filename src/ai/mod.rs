//! Machine players, each chosen by one grammar ([`Engine`]: `random`, `mcts:N`, `ab`, `ab:dN`,
//! `ab:N`, `ab:Nms`): uniformly random moves, Monte Carlo tree search ([`mcts`]), and alpha-beta
//! search ([`search`]) over an evaluation derived from the variant's own rules ([`eval`]; the
//! tables are built at load, see `rules::eval`). All take a seeded generator ([`Rng`]), so a game
//! with node or depth budgets is reproducible from its seed.
//!
//! - [`engine`]: the grammar, budgets and defaults;
//! - [`eval`]: the evaluation of a position, term by term for each player ([`Eval`]);
//! - [`search`]: negamax alpha-beta with iterative deepening ([`SearchResult`]: best move,
//!   score, depth, nodes, principal variation);
//! - [`analysis`]: what the machine thinks, in words (`eval`, `hint`, `analyse`);
//! - [`mcts`]: UCT with short playouts scored by the evaluation, and proven results;
//! - [`external`]: another program speaking UCI or USI (`uci:PATH`, `usi:PATH`);
//! - [`evaluated`]: a search with another variant file's evaluation (`ab:d3@eval=FILE`).
//!
//! Every search checks for Ctrl-C ([`crate::interrupt`]) as it goes and stops with
//! [`SearchError::Interrupted`]; [`choose`] and [`think`] search a copy of the position.

pub mod analysis;
pub(crate) mod engine;
pub(crate) mod eval;
pub(crate) mod evaluated;
pub(crate) mod external;
pub(crate) mod mcts;
mod prune;
pub mod search;
#[cfg(test)]
mod tests;

pub use engine::Engine;
pub(crate) use engine::EngineError;
pub use engine::{Budget, DEFAULT_BUDGET};
pub use eval::Evaluator;
pub(crate) use search::{Score, SearchResult};

use crate::interrupt::Interrupted;
use crate::notation::Move;
use crate::script::ScriptError;
use crate::state::Position;
use crate::variant::Variant;
use rand::{RngExt, SeedableRng};

/// The generator every machine player uses (named so results are reproducible across versions).
pub(crate) type Rng = rand_pcg::Pcg64Mcg;

/// A seeded generator.
pub fn rng(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// Why a machine player found no move: a script hook failed, or the user interrupted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Script(#[from] ScriptError),
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
    /// An external engine failed (crashed, stayed silent, played an illegal move): the engine
    /// and why, which self-play and the arena count as a loss of its side.
    #[error("{0}")]
    External(String),
}

/// A machine player's decision, with what its search found (alpha-beta only).
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    /// `None` when the game is over.
    pub best: Option<Move>,
    pub(crate) search: Option<SearchResult>,
}

/// Chooses a move for the player to decide in `pos` (None when the game is over).
///
/// # Errors
/// A script hook failed, or Ctrl-C was pressed.
pub(crate) fn choose(v: &Variant, pos: &Position, engine: Engine, rng: &mut Rng) -> Result<Option<Move>, SearchError> {
    think(v, pos, engine, rng).map(|t| t.best)
}

/// Chooses a move as [`choose`] does, and says what the search found.
///
/// # Errors
/// A script hook failed, or Ctrl-C was pressed.
pub fn think(v: &Variant, pos: &Position, engine: Engine, rng: &mut Rng) -> Result<Thought, SearchError> {
    // The search works on its own copy: a hook that fails deep in the tree cannot leave the
    // game's position half-played.
    let mut work = pos.clone();
    match engine {
        Engine::Random => {
            let mut moves = Vec::new();
            v.legal_moves(&mut work, &mut moves)?;
            Ok(Thought { best: (!moves.is_empty()).then(|| moves[random_index(v, &work, &moves, rng)]), search: None })
        }
        Engine::Mcts { iterations } => Ok(Thought { best: mcts::mcts(v, &mut work, iterations, mcts::PLAYOUT_CAP, rng)?, search: None }),
        Engine::AlphaBeta(budget) => {
            let r = search::search(v, &mut work, budget, rng)?;
            Ok(Thought { best: r.best, search: Some(r) })
        }
        Engine::External(e) => Ok(Thought { best: external::choose(v, pos, e)?, search: None }),
        // The other file's variant has the game's rules (checked when it was loaded), so its
        // moves are the game's.
        Engine::Evaluated(e) => think(e.variant_for(v).map_err(SearchError::External)?, pos, e.spec().engine, rng),
    }
}

/// The index of the move a random player draws from `moves`, the legal moves of `pos` (not
/// empty): uniformly among them all, or where the variant's `[ai] random` leaves some out
/// (a pass while another move is left, a drop on a one-cell eye of the player's own), among
/// the rest; when none is left, the pass if listed, else any move.
pub(crate) fn random_index(v: &Variant, pos: &Position, moves: &[Move], rng: &mut Rng) -> usize {
    let policy = v.rules.go.random;
    if policy == crate::rules::groups::RandomPolicy::default() {
        return rng.random_range(0..moves.len());
    }
    let (board, side) = (pos.board(), pos.side());
    let left_out = |m: &Move| {
        if *m == Move::PASS {
            return policy.pass_last;
        }
        policy.no_own_eyes
            && m.dropped().is_some_and(|code| {
                v.rules.pieces[code.index()]
                    .liberties
                    .as_ref()
                    .is_some_and(|l| crate::rules::groups::own_eye(&l.n, board, m.landings()[0], side))
            })
    };
    let kept: Vec<u16> = (0..moves.len()).filter(|&i| !left_out(&moves[i])).map(|i| i as u16).collect();
    if kept.is_empty() {
        return moves.iter().position(|m| *m == Move::PASS).unwrap_or_else(|| rng.random_range(0..moves.len()));
    }
    kept[rng.random_range(0..kept.len())] as usize
}
