//! UCT Monte Carlo tree search with short playouts scored by the evaluation, and proven
//! results propagated up the tree (MCTS-Solver): a second opinion independent of alpha-beta.
//!
//! It only lists, makes and undoes moves, so it works for any variant. A node's statistics are
//! from the point of view of the player who made the move leading to it (with continuations the
//! same player may decide twice in a row). A playout plays up to `cap` random moves; if the game
//! has not ended by then, the evaluation of where it stopped, squashed into a probability of
//! winning, is its result. A node whose game is over is proven a win or loss for its mover; a
//! node is proven a win for the player to decide there as soon as one child is, and a loss once
//! every child is proven a win for the opponent. A proven-losing child is never chosen again.

use super::eval::Evaluator;
use super::{Rng, SearchError};
use crate::interrupt;
use crate::movegen::{Counted, MoveList};
use crate::notation::Move;
use crate::outcome::Winner;
use crate::piece::Player;
use crate::rules::eval::UNITS_PER_POINT;
use crate::state::Position;
use crate::variant::Variant;
use rand::RngExt;

/// The default playout length, in decisions, before the evaluation scores it.
pub(crate) const PLAYOUT_CAP: u32 = 6;

/// Evaluation units at which a playout counts as about 73 % won (one ordinary piece).
const SQUASH: f64 = (100 * UNITS_PER_POINT) as f64;

/// A node's state as far as proof goes, for the player who made the move leading to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proof {
    Unknown,
    Win,
    Loss,
}

struct Node {
    mv: Move,
    /// The player who made `mv`.
    mover: Player,
    /// Who decides in this node's position.
    decider: Player,
    children: Vec<usize>,
    untried: Vec<Move>,
    visits: u32,
    /// Points for `mover`: 1 a win, 0.5 a draw.
    score: f64,
    proof: Proof,
    /// The value of the finished game here for `mover`, if it is over.
    terminal: Option<f64>,
}

/// The value of the game at `pos` for `p` if it is over: 1 a win, 0 a loss, 0.5 a draw.
/// `moves` are its legal moves (empty: the game is over).
fn finished(v: &Variant, pos: &mut Position, moves: &[Move], p: Player) -> Result<Option<f64>, SearchError> {
    if !moves.is_empty() {
        return Ok(None);
    }
    Ok(v.outcome(pos)?.map(|o| match o.winner {
        Winner::Player(w) if w == p => 1.0,
        Winner::Player(_) => 0.0,
        Winner::Draw => 0.5,
    }))
}

/// UCT search: `iterations` playouts from `pos`; returns a proven win if it finds one, else the
/// most visited move that is not a proven loss.
///
/// # Errors
/// A script hook failed, or Ctrl-C was pressed; `pos` is restored only on success, so callers
/// search a copy (as [`crate::ai::choose`] does).
pub(crate) fn mcts(v: &Variant, pos: &mut Position, iterations: u32, cap: u32, rng: &mut Rng) -> Result<Option<Move>, SearchError> {
    mcts_stoppable(v, pos, iterations, cap, rng, None)
}

/// [`mcts`] that also ends, as if its iterations had run out, once `stop` is set (the web
/// page's stop button): the move it then returns is chosen from the iterations done.
///
/// # Errors
/// As [`mcts`].
pub(crate) fn mcts_stoppable(
    v: &Variant,
    pos: &mut Position,
    iterations: u32,
    cap: u32,
    rng: &mut Rng,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<Option<Move>, SearchError> {
    let mut root_moves = Vec::new();
    v.legal_moves(pos, &mut root_moves)?;
    match root_moves.len() {
        0 => return Ok(None),
        1 => return Ok(Some(root_moves[0])),
        _ => {}
    }
    let side = pos.side();
    let mut eval = Evaluator::new(v);
    let mut nodes = vec![Node {
        mv: Move::PASS,
        mover: side.other(),
        decider: side,
        children: vec![],
        untried: root_moves,
        visits: 0,
        score: 0.0,
        proof: Proof::Unknown,
        terminal: None,
    }];
    let mut scratch: MoveList = Vec::new();
    let mut path: Vec<usize> = Vec::new();
    // The progress line, when someone listens: iterations done and their rate, every 256.
    let (watched, start) = (crate::progress::active(), std::time::Instant::now());
    for i in 0..iterations {
        interrupt::check()?;
        if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
            break;
        }
        if watched && i % 256 == 0 {
            let rate = crate::progress::rate(i as u64, "iterations", start);
            crate::progress::report(&format!("mcts:{iterations}: {rate} (Ctrl-C stops)"));
        }
        if nodes[0].proof != Proof::Unknown {
            break;
        }
        path.clear();
        path.push(0);
        let mut made = select(v, pos, &nodes, &mut path)?;
        if let Some(child) = expand(v, pos, &mut nodes, *path.last().expect("the root"), rng)? {
            made += 1;
            path.push(child);
        }
        let first = leaf_value(v, pos, &nodes[*path.last().expect("the root")], cap, rng, &mut scratch, &mut eval)?;
        for _ in 0..made {
            pos.undo();
        }
        backpropagate(&mut nodes, &path, first);
    }
    Ok(best_move(&nodes))
}

/// Selection: descends from the root through fully expanded, unproven nodes by UCB1, making
/// their moves on `pos` and adding them to `path`; returns how many moves it made.
fn select(v: &Variant, pos: &mut Position, nodes: &[Node], path: &mut Vec<usize>) -> Result<u32, SearchError> {
    let mut made = 0u32;
    let mut at = 0usize;
    while nodes[at].untried.is_empty() && nodes[at].terminal.is_none() && nodes[at].proof == Proof::Unknown {
        let ln = (nodes[at].visits.max(1) as f64).ln();
        let Some(&next) = nodes[at]
            .children
            .iter()
            .filter(|&&c| nodes[c].proof != Proof::Loss)
            .max_by(|&&a, &&b| ucb(&nodes[a], ln).total_cmp(&ucb(&nodes[b], ln)))
        else {
            break;
        };
        v.make(pos, &nodes[next].mv)?;
        made += 1;
        at = next;
        path.push(at);
    }
    Ok(made)
}

/// Expansion: makes one untried move of node `at`, chosen at random, and adds its node (its
/// moves listed now, to see whether the game ends there); `None` if there is none to try.
fn expand(v: &Variant, pos: &mut Position, nodes: &mut Vec<Node>, at: usize, rng: &mut Rng) -> Result<Option<usize>, SearchError> {
    if nodes[at].untried.is_empty() || nodes[at].proof != Proof::Unknown {
        return Ok(None);
    }
    let i = rng.random_range(0..nodes[at].untried.len());
    let mv = nodes[at].untried.swap_remove(i);
    let mover = pos.side();
    v.make(pos, &mv)?;
    let mut untried = Vec::new();
    v.legal_moves(pos, &mut untried)?;
    let terminal = finished(v, pos, &untried, mover)?;
    let proof = match terminal {
        Some(t) if t >= 1.0 => Proof::Win,
        Some(t) if t <= 0.0 => Proof::Loss,
        _ => Proof::Unknown,
    };
    let decider = pos.side();
    nodes.push(Node { mv, mover, decider, children: vec![], untried, visits: 0, score: 0.0, proof, terminal });
    let child = nodes.len() - 1;
    nodes[at].children.push(child);
    Ok(Some(child))
}

/// The value of `leaf` (whose position `pos` is) for the first player: proven, finished, or a
/// short playout (undone before returning).
fn leaf_value(
    v: &Variant,
    pos: &mut Position,
    leaf: &Node,
    cap: u32,
    rng: &mut Rng,
    scratch: &mut MoveList,
    eval: &mut Evaluator,
) -> Result<f64, SearchError> {
    Ok(match (leaf.proof, leaf.terminal) {
        (Proof::Win, _) => for_first(1.0, leaf.mover),
        (Proof::Loss, _) => for_first(0.0, leaf.mover),
        (_, Some(t)) => for_first(t, leaf.mover),
        _ => {
            let (value, plies) = playout(v, pos, cap, rng, scratch, eval)?;
            for _ in 0..plies {
                pos.undo();
            }
            value
        }
    })
}

/// Backpropagation: adds the playout's value (`first`, for the first player) to every node on
/// `path`, proving nodes on the way up.
fn backpropagate(nodes: &mut [Node], path: &[usize], first: f64) {
    for (k, &n) in path.iter().enumerate().rev() {
        let node = &mut nodes[n];
        node.visits += 1;
        node.score += for_first(first, node.mover);
        if k + 1 < path.len() {
            prove(nodes, n);
        }
    }
}

/// The root's move to play: a proven win, else the most visited move that is not a proven loss
/// (or the most visited at all, or an untried one if none was tried).
fn best_move(nodes: &[Node]) -> Option<Move> {
    let root = &nodes[0];
    let pick = root
        .children
        .iter()
        .copied()
        .find(|&c| nodes[c].proof == Proof::Win)
        .or_else(|| root.children.iter().copied().filter(|&c| nodes[c].proof != Proof::Loss).max_by_key(|&c| nodes[c].visits))
        .or_else(|| root.children.iter().copied().max_by_key(|&c| nodes[c].visits));
    pick.map(|c| nodes[c].mv).or_else(|| root.untried.first().copied())
}

/// A value for `p` as a value for the first player.
fn for_first(value: f64, p: Player) -> f64 {
    if p == Player::FIRST { value } else { 1.0 - value }
}

/// Proves node `n` from its children, if they settle it.
fn prove(nodes: &mut [Node], n: usize) {
    let node = &nodes[n];
    if node.proof != Proof::Unknown {
        return;
    }
    let d = node.decider;
    // Children were made by `d`: a child won for its mover is a win for `d`.
    let win = node.children.iter().any(|&c| nodes[c].proof == Proof::Win);
    let loss = !win && node.untried.is_empty() && !node.children.is_empty() && node.children.iter().all(|&c| nodes[c].proof == Proof::Loss);
    let for_decider = match (win, loss) {
        (true, _) => Proof::Win,
        (_, true) => Proof::Loss,
        _ => return,
    };
    nodes[n].proof = match (nodes[n].mover == d, for_decider) {
        (true, p) => p,
        (false, Proof::Win) => Proof::Loss,
        (false, _) => Proof::Win,
    };
}

/// Random moves up to `cap` from `pos` (left played; the count is returned): the finished
/// game's value for the first player, or the evaluation's estimate of it.
fn playout(
    v: &Variant,
    pos: &mut Position,
    cap: u32,
    rng: &mut Rng,
    scratch: &mut MoveList,
    eval: &mut Evaluator,
) -> Result<(f64, u32), SearchError> {
    let mut plies = 0;
    let mut shares = Counted::default();
    loop {
        // Where the cell sets can count the moves, only the one drawn is found (the same move
        // the list would give: see `Variant::nth_move`).
        let counted = v.rules.go.random == crate::rules::groups::RandomPolicy::default() && v.count_to_pick(pos, &mut shares);
        if !counted {
            v.legal_moves(pos, scratch)?;
            if scratch.is_empty() {
                let value = finished(v, pos, scratch, Player::FIRST)?.unwrap_or(0.5);
                return Ok((value, plies));
            }
        }
        if plies >= cap {
            let s = eval.score(pos)? as f64;
            let p = 1.0 / (1.0 + (-s / SQUASH).exp());
            return Ok((for_first(p, pos.side()), plies));
        }
        let m = if counted {
            // Drawn as from a list's length (a `usize` range draws as the list path does).
            let k = rng.random_range(0..shares.n as usize);
            v.nth_move(pos, &shares, k as u64, scratch)
        } else {
            scratch[super::random_index(v, pos, scratch, rng)]
        };
        v.make(pos, &m)?;
        plies += 1;
    }
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
    use crate::ai::rng;

    #[test]
    fn mcts_is_deterministic_and_restores_the_position() {
        let v = Variant::load("checkers", &[]).unwrap();
        let mut pos = v.start();
        let before = pos.clone();
        let a = mcts(&v, &mut pos, 200, PLAYOUT_CAP, &mut rng(7)).unwrap();
        assert_eq!(pos, before);
        let b = mcts(&v, &mut pos, 200, PLAYOUT_CAP, &mut rng(7)).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn mcts_takes_a_winning_capture() {
        // Lielow: h6xh8 captures the black king; nine other moves do not. The solver proves it
        // as soon as it is tried.
        let v = Variant::load("lielow", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "7p[1,2]/8/7P[0,2]/8/8/8/P[1,3]7/8 white 4").unwrap();
        for seed in 0..4 {
            let m = mcts(&v, &mut pos, 40, PLAYOUT_CAP, &mut rng(seed)).unwrap().unwrap();
            assert_eq!(m.text(&v.rules.geometry), "h6xh8");
        }
    }
}
