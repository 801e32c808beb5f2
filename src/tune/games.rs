//! The positions `tune` learns from: seeded self-play games of one engine against itself, each
//! opening with a few uniformly random decisions so that games differ, every quiet position after
//! the opening read ([`super::features`]) and labelled with the game's result for the player to
//! decide. A position is quiet when the player to decide has no capture and no continuation is
//! pending: there the evaluation is what the search would stand on, not a capture's half.
//!
//! Game `i` is played from seeds derived from the tuning seed and `i` alone, and the positions
//! are gathered in the order of the games, so the data are the same for any number of threads.
//! Every tenth game (indices 9, 19, …) is held out of the fit, to measure it.

use super::features::{Data, Reader};
use crate::ai::{self, Engine};
use crate::outcome::Winner;
use crate::rules::EvalModel;
use crate::selfplay::game_seed;
use crate::variant::Variant;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Mixed into the tuning seed for the random openings.
const OPENING_SALT: u64 = 0x7475_6e65_6f70_656e;

/// What to play.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    pub(crate) games: u64,
    pub(crate) seed: u64,
    pub(crate) engine: Engine,
    pub(crate) random_plies: u32,
    pub(crate) threads: usize,
    /// Stop starting games once this many positions are read.
    pub(crate) max_positions: usize,
}

/// The games played and their positions.
#[derive(Debug, Default)]
pub(crate) struct Played {
    pub(crate) data: Data,
    /// Games finished (and read).
    pub(crate) games: u64,
    /// Positions the games went through after their openings, quiet or not.
    pub(crate) seen: u64,
    /// Whether Ctrl-C stopped the games.
    pub(crate) interrupted: bool,
}

/// Whether game `index` is held out of the fit.
pub(crate) fn held_out(index: u64) -> bool {
    index % 10 == 9
}

/// One game's positions, and how many it went through after its opening.
fn play_one(v: &Variant, ones: &EvalModel, plan: &Plan, index: u64) -> Result<(Data, u64), ai::SearchError> {
    let mut rng = ai::rng(game_seed(plan.seed, index));
    let mut opening = ai::rng(game_seed(plan.seed ^ OPENING_SALT, index));
    let mut reader = Reader::new(v, ones);
    let mut pos = v.start();
    let mut moves = Vec::new();
    // (the position, who decided there) of the quiet positions, labelled when the game ends.
    let mut quiet = Vec::new();
    let mut seen = 0;
    loop {
        crate::interrupt::check()?;
        v.legal_moves(&mut pos, &mut moves)?;
        if moves.is_empty() {
            break;
        }
        let opening_ply = pos.ply() < plan.random_plies;
        if !opening_ply {
            seen += 1;
            if pos.continuation().is_none() && !moves.iter().any(crate::notation::Move::is_capture) {
                quiet.push(pos.clone());
            }
        }
        let m = if opening_ply {
            moves[rand::RngExt::random_range(&mut opening, 0..moves.len())]
        } else {
            // (The list is not empty; an engine that finds no move ends the game as it stands.)
            let Some(m) = ai::choose(v, &pos, plan.engine, &mut rng)? else { break };
            m
        };
        v.make(&mut pos, &m)?;
    }
    let winner = v.outcome(&mut pos)?.map_or(Winner::Draw, |o| o.winner);
    let mut data = Data::default();
    for mut q in quiet {
        let result = match winner {
            Winner::Draw => 0.5,
            Winner::Player(p) if p == q.side() => 1.0,
            Winner::Player(_) => 0.0,
        };
        reader.read(&mut q, result, held_out(index), &mut data)?;
    }
    Ok((data, seen))
}

/// Plays the games on `plan.threads` threads; `report` hears (on this thread) how many games and
/// positions are done, now and then.
///
/// # Errors
/// A script hook failed (Ctrl-C is not an error: the games finished are kept).
pub(crate) fn play(v: &Variant, ones: &EvalModel, plan: &Plan, report: &mut dyn FnMut(u64, usize)) -> Result<Played, ai::SearchError> {
    let next = AtomicU64::new(0);
    let positions = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let finished: Mutex<Vec<Option<(Data, u64)>>> = Mutex::new((0..plan.games).map(|_| None).collect());
    let failure: Mutex<Option<ai::SearchError>> = Mutex::new(None);
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= plan.games || positions.load(Ordering::Relaxed) >= plan.max_positions {
                return;
            }
            match play_one(v, ones, plan, i) {
                Ok((d, seen)) => {
                    positions.fetch_add(d.len(), Ordering::Relaxed);
                    finished.lock().unwrap_or_else(|e| e.into_inner())[i as usize] = Some((d, seen));
                    done.fetch_add(1, Ordering::Relaxed);
                }
                Err(e) => {
                    failure.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                    // Every thread stops at its next game.
                    next.store(plan.games, Ordering::Relaxed);
                    return;
                }
            }
        }
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..plan.threads.max(1)).map(|_| s.spawn(work)).collect();
        while handles.iter().any(|h| !h.is_finished()) {
            report(done.load(Ordering::Relaxed), positions.load(Ordering::Relaxed));
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    });
    let mut played = Played::default();
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(ai::SearchError::Interrupted(_)) => played.interrupted = true,
        Some(e) => return Err(e),
        None => {}
    }
    // In the order of the games, up to the first one missing (so the data do not depend on
    // which thread was faster), and at most `max_positions`.
    for (d, seen) in finished.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().map_while(|g| g) {
        if played.data.len() >= plan.max_positions {
            break;
        }
        played.data.append(&d);
        played.games += 1;
        played.seen += seen;
    }
    played.data.truncate(plan.max_positions);
    Ok(played)
}
