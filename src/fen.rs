//! Forsyth–Edwards Notation for chess-like variants: `BOARD SIDE [CASTLING [EP [CLOCK [MOVE]]]]`.
//!
//! The board field is the position text's (piece symbols, the first player's in upper case,
//! digits for empty cells, ranks from the top). `w` is the first player and `b` the second.
//! Castling is `-` or letters: `K`/`Q` (`k`/`q` for the second player) for the outermost rook
//! on the king's east or west, or a file letter for the rook on that file (Shredder-FEN, for
//! Chess960). The en passant field names the cell a double step passed. The clock (plies since
//! a capture or a pawn move) is kept where the variant has a `quiet_moves` rule, and the move
//! number sets the ply. A variant whose pieces carry attributes has no FEN: its position text
//! says more.

use crate::geometry::NONE;
use crate::piece::Player;
use crate::rules::Ruleset;
use crate::rules::castling::{EAST, WEST};
use crate::state::{Position, PositionError};

/// The largest move number a FEN may give (so the ply it makes stays in range).
const MAX_MOVE_NUMBER: u32 = 1_000_000;

/// Whether `text` reads as a FEN rather than a position text: its third field (after the
/// board and the side) is a castling field, not a ply or a `key=value`.
pub fn looks_like_fen(text: &str) -> bool {
    let f: Vec<&str> = text.split_whitespace().collect();
    f.len() >= 3 && matches!(f[1], "w" | "b") && (f[2] == "-" || f[2].chars().all(|c| c.is_ascii_alphabetic()))
}

/// Reads a FEN.
///
/// # Errors
/// The field that is wrong, and why.
pub fn read(rules: &Ruleset, text: &str) -> Result<Position, PositionError> {
    let bad = |m: String| PositionError(format!("FEN: {m}"));
    if !rules.attributes.is_empty() {
        return Err(bad("this variant's pieces carry attributes, which a FEN cannot write; use its position text".into()));
    }
    let f: Vec<&str> = text.split_whitespace().collect();
    if f.len() < 2 || f.len() > 6 {
        return Err(bad(format!("expected BOARD SIDE [CASTLING [EP [CLOCK [MOVE]]]], got {} fields", f.len())));
    }
    let side = match f[1] {
        "w" => Player::FIRST,
        "b" => Player::SECOND,
        s => return Err(bad(format!("the side to move is w or b, not `{s}`"))),
    };
    let number = |i: usize, what: &str| -> Result<u32, PositionError> {
        f.get(i).map_or(Ok(if i == 5 { 1 } else { 0 }), |t| t.parse().map_err(|_| bad(format!("the {what} `{t}` is not a number"))))
    };
    let (clock, fullmove) = (number(4, "half-move clock")?, number(5, "move number")?);
    if fullmove > MAX_MOVE_NUMBER {
        return Err(bad(format!("the move number {fullmove} is past the limit of {MAX_MOVE_NUMBER}")));
    }
    let ply = 2 * fullmove.max(1).saturating_sub(1) + if side == rules.first { 0 } else { 1 };
    let mut line = format!("{} {} {ply}", f[0], rules.player_name(side));
    if clock > 0 && rules.clock.is_some() {
        line.push_str(&format!(" clock={clock}"));
    }
    let g = &rules.geometry;
    let mut ep_check = None;
    if let Some(&ep) = f.get(3).filter(|&&t| t != "-") {
        let at = g.parse_cell(ep).map_err(|_| bad(format!("the en passant field `{ep}` is not a cell")))?;
        // The piece that passed it stands one step further along its owner's forward.
        let mover = side.other();
        let (file, rank) = g.coords(at);
        let piece = g.at(file as i32, rank as i32 + rules.forward[mover] as i32).ok_or_else(|| bad(format!("no cell beyond {ep}")))?;
        // The board is read below; the piece must be the opponent's, the one that just moved.
        ep_check = Some((piece.0, ep.to_string()));
        line.push_str(&format!(" ep={ep}/{}", g.name(piece)));
    }
    let mut pos = Position::from_text(rules, &line).map_err(|e| bad(e.0))?;
    if let Some((piece, ep)) = ep_check
        && !pos.board()[piece as usize].is_of(side.other())
    {
        let (at, mover) = (g.name(crate::Cell(piece)), rules.player_name(side.other()));
        return Err(bad(format!("en passant on {ep}: the piece on {at} is not the one that just moved (none of {mover}'s)")));
    }
    if let Some(&castling) = f.get(2).filter(|&&t| t != "-") {
        let c = rules.castling.as_ref().ok_or_else(|| bad(format!("this variant has no castling, so `{castling}` means nothing")))?;
        let mut rights = crate::rules::CastleRights::NONE;
        for ch in castling.chars() {
            let p = if ch.is_ascii_uppercase() { Player::FIRST } else { Player::SECOND };
            let board = pos.board();
            let rook = match ch.to_ascii_lowercase() {
                'k' => c.outermost_rook(g, board, p, EAST, None),
                'q' => c.outermost_rook(g, board, p, WEST, None),
                l => {
                    let file = (0..g.files).find(|&x| crate::geometry::file_letter(x) == l);
                    let file = file.ok_or_else(|| bad(format!("`{ch}` in the castling field is neither K, Q nor a file")))?;
                    [EAST, WEST].into_iter().map(|s| c.outermost_rook(g, board, p, s, Some(file))).find(|&r| r != NONE).unwrap_or(NONE)
                }
            };
            if rook == NONE {
                return Err(bad(format!("castling `{ch}`: no rook of {} ready beside its king there", rules.player_name(p))));
            }
            let king = c.king_on_rank(g, board, p, rook).unwrap_or(NONE);
            rights.set(p, if rook > king { EAST } else { WEST }, rook);
        }
        pos.set_castle_rights(rules, rights);
    }
    Ok(pos)
}

/// Writes a position as a FEN.
///
/// # Errors
/// The variant's pieces carry attributes (a FEN cannot write them).
pub fn write(rules: &Ruleset, pos: &Position) -> Result<String, PositionError> {
    if !rules.attributes.is_empty() {
        return Err(PositionError("this variant's pieces carry attributes, which a FEN cannot write; use `position`".into()));
    }
    let g = &rules.geometry;
    let text = pos.to_text(rules);
    let board = text.split_whitespace().next().unwrap_or_default();
    let side = if pos.side() == Player::FIRST { "w" } else { "b" };
    let mut castling = String::new();
    if let Some(c) = &rules.castling {
        for (p, s, rook) in pos.castle_rights().iter() {
            let letter = if c.outermost_rook(g, pos.board(), p, s, None) == rook {
                if s == EAST { 'k' } else { 'q' }
            } else {
                crate::geometry::file_letter(g.coords(crate::Cell(rook)).0)
            };
            castling.push(if p == Player::FIRST { letter.to_ascii_uppercase() } else { letter });
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let ep = pos.en_passant().map_or("-".to_string(), |(at, _)| g.name(crate::Cell(at)).to_string());
    let fullmove = pos.ply() / 2 + 1;
    Ok(format!("{board} {side} {castling} {ep} {} {fullmove}", pos.clock()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn chess_fens_read_and_write_back() {
        let v = Variant::load("variants/chess", &[]).unwrap();
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(write(&v.rules, &v.start()).unwrap(), start);
        assert_eq!(read(&v.rules, start).unwrap(), v.start());
        let mut pos = v.start();
        v.play_all(&mut pos, &["e2-e4".into(), "c7-c5".into(), "g1-f3".into()]).unwrap();
        assert_eq!(write(&v.rules, &pos).unwrap(), "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
        let after_ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        let p = read(&v.rules, after_ep).unwrap();
        assert_eq!(
            p.en_passant().map(|(a, b)| (v.rules.geometry.name(crate::Cell(a)), v.rules.geometry.name(crate::Cell(b)))),
            Some(("f6", "f5"))
        );
        assert_eq!(write(&v.rules, &p).unwrap(), after_ep);
        // Shredder-FEN: the rooks by file (Chess960), written back the same way when they are
        // the outermost (as letters K/Q).
        let c960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let p = read(&v.rules, c960).unwrap();
        assert_eq!(write(&v.rules, &p).unwrap(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
        assert!(looks_like_fen(c960) && !looks_like_fen("8/8/8/8/8/8/8/8 white 3"));
        assert!(read(&v.rules, "8/8/8/8/8/8/8/8 x - - 0 1").unwrap_err().0.contains("w or b"));
        // An en passant cell whose pawn is not the opponent's, and a move number past the limit.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq";
        assert!(read(&v.rules, &format!("{start} e3 0 1")).unwrap_err().0.contains("not the one that just moved"));
        assert!(read(&v.rules, &format!("{start} - 0 4294967295")).unwrap_err().0.contains("past the limit"));
        // So is a position text's ply (a move from it would overflow the count).
        let far = Position::from_text(&v.rules, "4k3/8/8/8/8/8/8/4K3 white 4294967295").unwrap_err();
        assert!(far.0.contains("past the limit"), "{far}");
    }
}
