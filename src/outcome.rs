//! Results and their reasons.

use crate::piece::Player;
use std::fmt;
use std::sync::Arc;

/// Who won, or a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    Player(Player),
    Draw,
}

/// A finished game's result with its reason in words (`basileus captured`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Winner,
    pub reason: Arc<str>,
}

impl Outcome {
    pub(crate) fn win(p: Player, reason: impl Into<Arc<str>>) -> Outcome {
        Outcome { winner: Winner::Player(p), reason: reason.into() }
    }

    pub(crate) fn draw(reason: impl Into<Arc<str>>) -> Outcome {
        Outcome { winner: Winner::Draw, reason: reason.into() }
    }

    /// `white wins: basileus captured` with the variant's player names.
    pub fn describe(&self, names: &crate::piece::ByPlayer<String>) -> String {
        match self.winner {
            Winner::Player(p) => format!("{} wins: {}", names[p], self.reason),
            Winner::Draw => format!("draw: {}", self.reason),
        }
    }
}

impl fmt::Display for Winner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Winner::Player(p) => write!(f, "player {}", p.0 + 1),
            Winner::Draw => write!(f, "draw"),
        }
    }
}
