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
    /// Where a count decided the game (`result = "points"`): by how much, in half points
    /// (komi 7.5 makes halves), the winner's count minus the loser's.
    pub margin: Option<u32>,
}

impl Outcome {
    pub(crate) fn win(p: Player, reason: impl Into<Arc<str>>) -> Outcome {
        Outcome { winner: Winner::Player(p), reason: reason.into(), margin: None }
    }

    pub(crate) fn draw(reason: impl Into<Arc<str>>) -> Outcome {
        Outcome { winner: Winner::Draw, reason: reason.into(), margin: None }
    }

    /// The same result, won by `margin` half points.
    pub(crate) fn by(self, margin: Option<u32>) -> Outcome {
        Outcome { margin, ..self }
    }

    /// The margin in points as written: `3.5`, `12`.
    pub fn margin_text(&self) -> Option<String> {
        self.margin.map(|m| if m % 2 == 0 { format!("{}", m / 2) } else { format!("{}.5", m / 2) })
    }

    /// `white wins: basileus captured` with the variant's player names.
    pub fn describe(&self, names: &crate::piece::ByPlayer<String>) -> String {
        match self.winner {
            Winner::Player(p) => match self.margin_text() {
                Some(m) => format!("{} wins by {m}: {}", names[p], self.reason),
                None => format!("{} wins: {}", names[p], self.reason),
            },
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
