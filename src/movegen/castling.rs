//! Castling: the castling moves of the side to move, and why one is refused. Its king may not
//! leave, cross or land on an attacked cell; that is asked of the attack query
//! ([`crate::attack`]), which sits above the rest of move generation (it generates captures for
//! the pieces its tables do not hold), so castling is a file of its own above both.

use super::MoveList;
use crate::geometry::NONE;
use crate::notation::Move;
use crate::piece::PieceCode;
use crate::rules::castling::{EAST, WEST};
use crate::rules::{BoardView, Ruleset};
use crate::state::Position;

/// Appends the castling moves of the side to move (`[castling]`): only where some right
/// remains, so a game without castling pays one test.
pub(crate) fn castlings(rules: &Ruleset, pos: &mut Position, out: &mut MoveList) {
    if rules.castling.is_none() || !pos.castle_rights().any() || pos.continuation().is_some() {
        return;
    }
    if rules.captures.compulsory && out.iter().any(Move::is_capture) {
        return;
    }
    for side in [EAST, WEST] {
        if let Ok(m) = castle_move(rules, pos, side) {
            out.push(m);
        }
    }
}

/// Why the side to move may not castle on one side now: the cells that say so, put into words
/// only when someone asks ([`CastleRefusal::words`]), so generation formats nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CastleRefusal {
    NoCastling,
    /// This side (`O-O` or `O-O-O`) is not declared.
    NoSide,
    /// The king or that rook has moved.
    RightLost,
    /// No king stands on the rank of the rook on this cell.
    NoKing(u16),
    /// The rook this right castles with is not on its cell.
    NoRook(u16),
    OffBoard,
    /// A piece on this cell stands between.
    Blocked(u16),
    /// The king is in check by the piece on this cell.
    InCheck(u16),
    /// The king would cross the first cell, attacked by the piece on the second.
    Crosses(u16, u16),
}

impl CastleRefusal {
    /// The refusal in words, read on `pos` (the position castling was asked in).
    pub(crate) fn words(self, rules: &Ruleset, pos: &Position, side: usize) -> String {
        let written = if side == EAST { "O-O" } else { "O-O-O" };
        let name = |c: u16| rules.geometry.name(crate::geometry::Cell(c)).to_string();
        let kind = |c: u16| rules.kind(pos.board()[c as usize].kind()).name.clone();
        match self {
            CastleRefusal::NoCastling => "this game has no castling".into(),
            CastleRefusal::NoSide => format!("this game does not castle {written}"),
            CastleRefusal::RightLost => {
                format!("{} may no longer castle {written}: its king or that rook has moved", rules.player_name(pos.side()))
            }
            CastleRefusal::NoKing(rook) => format!("no king stands on the rank of the rook on {}", name(rook)),
            CastleRefusal::NoRook(rook) => format!("no rook of {} stands on {} to castle with", rules.player_name(pos.side()), name(rook)),
            CastleRefusal::OffBoard => format!("castling {written} lands off the board on this rank"),
            CastleRefusal::Blocked(c) => format!("the {} on {} stands in the way", kind(c), name(c)),
            // "Check" only where the rules have it.
            CastleRefusal::InCheck(by) if rules.check_illegal => format!("your king is in check by the {} on {}", kind(by), name(by)),
            CastleRefusal::InCheck(by) => format!("your king is attacked by the {} on {}", kind(by), name(by)),
            CastleRefusal::Crosses(cell, by) => {
                format!("the king would cross {}, attacked by the {} on {}", name(cell), kind(by), name(by))
            }
        }
    }
}

/// The castling move of the side to move on `side` ([`EAST`] or [`WEST`]), or why there is
/// none: the right is gone, its rook is not there, a cell between is taken, or a royal king is
/// attacked or would cross an attacked cell. (Whether it would land in check is the check
/// rule's test, as for any move.)
pub(crate) fn castle_move(rules: &Ruleset, pos: &mut Position, side: usize) -> Result<Move, CastleRefusal> {
    let c = rules.castling.as_ref().ok_or(CastleRefusal::NoCastling)?;
    let g = &rules.geometry;
    let me = pos.side();
    let (king_file, rook_file) = c.sides[side].ok_or(CastleRefusal::NoSide)?;
    let rook = pos.castle_rights().rook(me, side);
    if rook == NONE {
        return Err(CastleRefusal::RightLost);
    }
    let rook_code = pos.board()[rook as usize];
    if rook_code.is_empty() || rook_code.owner() != me || !c.rooks.contains(rook_code.kind()) {
        return Err(CastleRefusal::NoRook(rook));
    }
    let king = c.king_on_rank(g, pos.board(), me, rook).ok_or(CastleRefusal::NoKing(rook))?;
    let rank = g.coords(crate::geometry::Cell(king)).1 as i32;
    let at = |f: u8| g.at(f as i32, rank).map(|c| c.0);
    let (Some(king_to), Some(rook_to)) = (at(king_file), at(rook_file)) else {
        return Err(CastleRefusal::OffBoard);
    };
    let file = |c: u16| g.coords(crate::geometry::Cell(c)).0;
    let between = |a: u16, b: u16| {
        let (x, y) = (file(a).min(file(b)), file(a).max(file(b)));
        (x..=y).filter_map(at)
    };
    if let Some(block) =
        between(king, king_to).chain(between(rook, rook_to)).find(|&x| x != king && x != rook && !pos.board()[x as usize].is_empty())
    {
        return Err(CastleRefusal::Blocked(block));
    }
    // A king that is not royal may castle out of, through and into attack: nothing is lost
    // if it is taken.
    if !rules.kind(c.king).royal {
        return Ok(Move::castle(king, king_to, rook, rook_to));
    }
    let view = pos.view();
    if let Some(by) = crate::attack::attacker(rules, view, me.other(), king) {
        return Err(CastleRefusal::InCheck(by));
    }
    // Each cell the king crosses must not be attacked: asked of a board where the king stands
    // there instead (lifted from its cell, the rook still home). Its landing is the check
    // rule's, asked after the move with the rook beside it (which may block a line to it).
    let bit = |c: u16| if c < 128 { 1u128 << c } else { 0 };
    let mut board = pos.board().to_vec();
    let piece = std::mem::replace(&mut board[king as usize], PieceCode::EMPTY);
    let mut last = king;
    for cell in between(king, king_to).filter(|&x| x != king && x != king_to) {
        board[last as usize] = if last == king { PieceCode::EMPTY } else { pos.board()[last as usize] };
        board[cell as usize] = piece;
        last = cell;
        let moved = BoardView { board: &board, occupied: view.occupied & !bit(king) | bit(cell), ..view };
        if let Some(by) = crate::attack::attacker(rules, moved, me.other(), cell) {
            return Err(CastleRefusal::Crosses(cell, by));
        }
    }
    Ok(Move::castle(king, king_to, rook, rook_to))
}
