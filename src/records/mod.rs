//! Moves written the way a variant asks (`[notation] moves`: boardlab's notation, SAN or
//! numbered squares), and game records in other programs' formats: PGN for the chess family
//! and PDN for draughts ([`pgn`]: both are tag pairs then movetext), converted to and from
//! boardlab's own record ([`convert`]).

pub(crate) mod convert;
pub(crate) mod pgn;

use crate::notation::Move;
use crate::numbered::Numbering;
use crate::piece::KindId;
use crate::rules::MoveStyle;
use crate::state::Position;
use crate::variant::Variant;

/// Writes a variant's moves in its style ([`crate::rules::MoveStyle`]).
pub(crate) struct MoveWriter<'a> {
    v: &'a Variant,
    style: MoveStyle,
    /// The kind SAN writes without a letter.
    pawn: Option<KindId>,
    numbering: Option<Numbering>,
}

impl<'a> MoveWriter<'a> {
    /// A writer in the variant's own style.
    pub(crate) fn new(v: &'a Variant) -> MoveWriter<'a> {
        MoveWriter::with_style(v, v.rules.move_style)
    }

    /// A writer in `style` (PGN writes SAN, whatever the variant shows).
    pub(crate) fn with_style(v: &'a Variant, style: MoveStyle) -> MoveWriter<'a> {
        let pawn = crate::san::pawn_kind(&v.rules, &v.start());
        let numbering = match style {
            MoveStyle::Numbered { square_one } => Some(Numbering::new(&v.rules.geometry, v.rules.forward[square_one])),
            _ => None,
        };
        MoveWriter { v, style, pawn, numbering }
    }

    /// The text of `m`, a legal move of `pos` (left as it was). SAN marks a move that gives
    /// check `+`, and one that leaves the opponent in check with no move `#`. A move the style
    /// cannot write is written in boardlab's notation.
    pub(crate) fn text(&self, pos: &Position, m: &Move) -> String {
        let own = || m.text(&self.v.rules.geometry);
        match self.style {
            MoveStyle::Boardlab => own(),
            MoveStyle::Numbered { .. } => self.numbering.as_ref().and_then(|n| n.write(m)).unwrap_or_else(own),
            MoveStyle::San => {
                let mut p = pos.clone();
                let mut legal = Vec::new();
                if self.v.legal_moves(&mut p, &mut legal).is_err() {
                    return own();
                }
                let Some(mut s) = crate::san::write(m, &self.v.rules, &p, self.pawn, &legal) else { return own() };
                if self.v.make(&mut p, m).is_ok() && self.v.in_check(&p) {
                    legal.clear();
                    let mated = self.v.legal_moves(&mut p, &mut legal).is_ok() && legal.is_empty();
                    s.push(if mated { '#' } else { '+' });
                }
                let _ = self.v.take_output();
                s
            }
        }
    }

    /// The texts of a line of moves played from `start`; stops at a move that cannot be made.
    pub(crate) fn line(&self, start: &Position, moves: &[Move]) -> Vec<String> {
        let mut pos = start.clone();
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            out.push(self.text(&pos, m));
            if self.v.make(&mut pos, m).is_err() {
                break;
            }
        }
        let _ = self.v.take_output();
        out
    }
}

#[cfg(test)]
mod tests;
