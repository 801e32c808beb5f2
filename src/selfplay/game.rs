//! What a report reads of one game ([`Game`]), borrowed from wherever the game is kept: a
//! record read from a file or written by a study, or a game just played
//! ([`super::finished::Finished`]).

use super::GameRecord;
use super::line::Line;

/// What a report reads of one game, borrowed from wherever the game is kept: a record read
/// from a file or written by a study ([`GameRecord::view`]), or a game just played
/// ([`super::finished::Finished::view`]), so that a study that writes no records tallies its games
/// without making one. Every number of a report comes from these fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Game<'a> {
    pub(crate) index: u64,
    /// The variant's players, the first seat's first ([`GameRecord::names`]).
    pub(crate) names: [&'a str; 2],
    /// The seats' engines (empty in old records).
    pub(crate) first: &'a str,
    pub(crate) second: &'a str,
    /// The game's identity as a number ([`GameRecord::identity`]).
    pub(crate) digest: u64,
    /// The winner's name or `draw`, and the seat that won (`None`: a draw or an unknown result).
    pub(crate) result: &'a str,
    pub(crate) winner: Option<usize>,
    pub(crate) reason: &'a str,
    pub(crate) margin: Option<u32>,
    pub(crate) plies: u32,
    /// The moves' texts: every move, or the opening's.
    pub(crate) moves: &'a [String],
    pub(crate) branching: &'a [u32],
    pub(crate) eval: Option<&'a [i32]>,
    pub(crate) turns: Option<u32>,
    pub(crate) near_forced: Option<u32>,
    pub(crate) random_plies: u32,
}

impl Game<'_> {
    /// The first seat's points: 1 a win, ½ a draw, 0 a loss.
    pub(crate) fn first_points(&self) -> f64 {
        match self.winner {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

impl GameRecord {
    /// What a report reads of this record.
    pub(crate) fn view(&self) -> Game<'_> {
        Game {
            index: self.index,
            names: self.names(),
            first: &self.first,
            second: &self.second,
            digest: digest(self),
            result: &self.result,
            winner: self.winner(),
            reason: &self.reason,
            margin: self.margin,
            plies: self.plies,
            moves: &self.moves,
            branching: &self.branching,
            eval: self.eval.as_deref(),
            turns: self.turns,
            near_forced: self.near_forced,
            random_plies: self.random_plies,
        }
    }
}

/// A game's identity as a number: its line's digest, or a hash of its line's text, moves or
/// index.
fn digest(g: &GameRecord) -> u64 {
    use std::hash::{Hash, Hasher};
    match &g.line {
        Line::Digest(x) => *x,
        Line::Text(t) if let Ok(x) = u64::from_str_radix(t, 16) => x,
        _ => {
            let mut h = std::hash::DefaultHasher::new();
            g.identity().hash(&mut h);
            h.finish()
        }
    }
}
