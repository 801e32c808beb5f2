//! A sowing move played on the position ([`crate::rules::sowing`]): the counts sown on a copy,
//! each cell that changed written through [`Position::set_seeds`] (hashed and logged, so undo
//! restores them), then the extra move or the game's end with the seeds left swept to their
//! owners and the winner by the stores.

use super::{Continuation, ContinuationKind, Position};
use crate::outcome::Outcome;
use crate::piece::Player;
use crate::rules::sowing::Sowing;
use crate::rules::{Ruleset, Zobrist};

impl Position {
    /// Per cell, the seeds it holds (empty without `[sowing]`).
    #[inline]
    pub(crate) fn seeds(&self) -> &[u16] {
        &self.seeds
    }

    /// Sets the seeds a cell holds, keeping the hash and the undo log.
    pub(crate) fn set_seeds(&mut self, cell: u16, n: u16) {
        let old = self.seeds[cell as usize];
        if old == n {
            return;
        }
        self.hash ^= Zobrist::seeds(cell, old) ^ Zobrist::seeds(cell, n);
        if !self.frames.is_empty() {
            self.seed_log.push((cell, old)); // outside a move, no undo reaches it
        }
        self.seeds[cell as usize] = n;
    }
}

/// The result of a sowing game over with `seeds` (the pits already swept, or swept here on a
/// copy): more seeds in store wins.
pub(crate) fn final_count(sw: &Sowing, seeds: &[u16]) -> Outcome {
    let mut swept: smallvec::SmallVec<[u16; 64]> = seeds.into();
    sw.sweep(&mut swept);
    match sw.leader(&swept) {
        Some(p) => Outcome::win(p, "more seeds in store"),
        None => Outcome::draw("equal seeds in store"),
    }
}

/// `turn`'s sowing from `from`, after the kernel passed the turn: the seeds moved, then the
/// extra move or the end. Returns the seeds captured.
pub(super) fn after_move(pos: &mut Position, rules: &Ruleset, sw: &Sowing, from: u16, turn: Player) -> u32 {
    let mut seeds: smallvec::SmallVec<[u16; 64]> = pos.seeds.as_slice().into();
    let sown = sw.sow(&mut seeds, turn, from);
    let next = if sown.extra { turn } else { turn.other() };
    let over = sw.over(&seeds, turn, next);
    if over {
        sw.sweep(&mut seeds);
    }
    for (c, &n) in seeds.iter().enumerate() {
        pos.set_seeds(c as u16, n);
    }
    let z = &rules.zobrist;
    if over {
        pos.set_result(Some(final_count(sw, &seeds)));
    } else if sown.extra {
        let c = Continuation {
            player: turn,
            turn,
            tag: sw.tag.clone(),
            moves: Default::default(),
            normal: true,
            kind: ContinuationKind::Extra,
        };
        pos.set_continuation(z, Some(c));
        pos.set_side(z, turn);
    }
    sown.captured
}
