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
//!
//! Shogi-like variants, as Fairy-Stockfish writes them: the pieces in hand follow the board in
//! brackets (`rbsgk/4p/5/P4/KGSBR[Pp] w - - 0 1`, the first player's in upper case, `[-]` or
//! `[]` for none), and a promoted piece is written `+` and the letter of the kind it was (`+P`
//! for a tokin): a kind that goes to the hand as another kind, which promotes to it. Castling
//! and en passant may be left out when the variant has neither (`… w 0 1`).

use crate::geometry::NONE;
use crate::piece::{KindId, PieceCode, Player};
use crate::rules::Ruleset;
use crate::rules::castling::{EAST, WEST};
use crate::state::{Position, PositionError};

/// The largest move number a FEN may give (so the ply it makes stays in range).
const MAX_MOVE_NUMBER: u32 = 1_000_000;

/// The most pieces of one kind a FEN's hand may hold for one player.
const MAX_IN_HAND: i32 = 1000;

/// Whether `text` reads as a FEN rather than a position text: its third field (after the
/// board and the side) is a castling field, not a ply or a `key=value`.
pub fn looks_like_fen(text: &str) -> bool {
    let f: Vec<&str> = text.split_whitespace().collect();
    f.len() >= 2
        && matches!(f[1], "w" | "b")
        && (f[0].ends_with(']')
            || f.len() >= 3 && (f[2] == "-" || f[2].chars().all(|c| c.is_ascii_alphabetic()) || f[2].chars().all(|c| c.is_ascii_digit())))
}

/// The kinds written `+X` in a FEN, each with the kind X it was: a kind whose captured pieces go
/// to the hand as X, when X promotes to it (shogi's promoted pieces).
fn promoted_kinds(rules: &Ruleset) -> Vec<(KindId, KindId)> {
    let first = |k: usize| &rules.pieces[PieceCode::new(KindId(k as u8), Player::FIRST).index()];
    let mut out = Vec::new();
    for k in 0..rules.kinds.len() {
        let Some(slot) = first(k).to_hand else { continue };
        let Some(base) = (0..rules.kinds.len()).find(|&b| b != k && first(b).drop.as_ref().is_some_and(|d| d.hand == Some(slot))) else {
            continue;
        };
        let promotes_to_k =
            first(base).promote.as_ref().is_some_and(|p| p.to.0 as usize == k || p.choices.iter().any(|(c, _)| c.kind().0 as usize == k));
        if promotes_to_k {
            out.push((KindId(k as u8), KindId(base as u8)));
        }
    }
    out
}

/// The droppable kinds with their hand counter slots, in kind order.
fn hand_kinds(rules: &Ruleset) -> Vec<(KindId, u8)> {
    (0..rules.kinds.len())
        .filter_map(|k| {
            let code = PieceCode::new(KindId(k as u8), Player::FIRST);
            rules.pieces[code.index()].drop.as_ref().and_then(|d| d.hand).map(|slot| (KindId(k as u8), slot))
        })
        .collect()
}

/// The board field with `+X` replaced by the promoted kind's own letter, and the hand field's
/// counts as `counters=` parts (`None` without a hand field).
fn read_board_and_hand(rules: &Ruleset, field: &str) -> Result<(String, Option<String>), PositionError> {
    let bad = |m: String| PositionError(format!("FEN: {m}"));
    let (board, hand) = match field.find('[') {
        Some(i) if field.ends_with(']') => (&field[..i], Some(&field[i + 1..field.len() - 1])),
        Some(_) => return Err(bad("the hand is written in brackets at the end of the board, like [Pp]".into())),
        None => (field, None),
    };
    let promoted = promoted_kinds(rules);
    let mut out = String::new();
    let mut chars = board.chars();
    while let Some(c) = chars.next() {
        if c != '+' {
            out.push(c);
            continue;
        }
        let x = chars.next().ok_or_else(|| bad("`+` at the end of the board promotes nothing".into()))?;
        let found = promoted.iter().find_map(|&(k, base)| {
            Player::both().into_iter().find(|&p| rules.kinds[base.0 as usize].symbols[p] == x).map(|p| rules.kinds[k.0 as usize].symbols[p])
        });
        out.push(found.ok_or_else(|| bad(format!("`+{x}`: no kind of this variant is a promoted `{x}`")))?);
    }
    let Some(hand) = hand else { return Ok((out, None)) };
    let kinds = hand_kinds(rules);
    let mut counts = vec![[0i32; 2]; kinds.len()];
    for c in hand.chars().filter(|&c| c != '-') {
        let hit = kinds
            .iter()
            .enumerate()
            .find_map(|(i, &(k, _))| Player::both().into_iter().find(|&p| rules.kinds[k.0 as usize].symbols[p] == c).map(|p| (i, p)));
        let (i, p) = hit.ok_or_else(|| bad(format!("`{c}` in the hand is no kind that is dropped from a hand")))?;
        counts[i][p.index()] += 1;
        if counts[i][p.index()] > MAX_IN_HAND {
            return Err(bad(format!("more than {} of `{c}` in the hand", MAX_IN_HAND)));
        }
    }
    let parts: Vec<String> =
        kinds.iter().zip(&counts).map(|(&(_, slot), n)| format!("{}:{}:{}", rules.counters[slot as usize].0, n[0], n[1])).collect();
    Ok((out, (!parts.is_empty()).then(|| parts.join(","))))
}

/// Reads a FEN.
///
/// # Errors
/// The field that is wrong, and why.
pub fn read(rules: &Ruleset, text: &str) -> Result<Position, PositionError> {
    let bad = |m: String| PositionError(format!("FEN: {m}"));
    crate::notation::check_length("the FEN", text, crate::notation::MAX_POSITION_TEXT).map_err(bad)?;
    if !rules.attributes.is_empty() {
        return Err(bad("this variant's pieces carry attributes, which a FEN cannot write; use its position text".into()));
    }
    let mut f: Vec<&str> = text.split_whitespace().collect();
    // Without castling and en passant fields (`BOARD SIDE CLOCK MOVE`, as Fairy-Stockfish's
    // shogi-like start positions are written): the same as `- -`.
    if f.get(2).is_some_and(|t| t.chars().all(|c| c.is_ascii_digit())) {
        f.splice(2..2, ["-", "-"]);
    }
    if f.len() < 2 || f.len() > 6 {
        return Err(bad(format!("expected BOARD SIDE [CASTLING [EP [CLOCK [MOVE]]]], got {} fields", f.len())));
    }
    let side = match f[1] {
        "w" => Player::FIRST,
        "b" => Player::SECOND,
        s => return Err(bad(format!("the side to move is w or b, not `{s}`", s = crate::files::quote(s)))),
    };
    let number = |i: usize, what: &str| -> Result<u32, PositionError> {
        f.get(i).map_or(Ok(if i == 5 { 1 } else { 0 }), |t| {
            t.parse().map_err(|_| bad(format!("the {what} `{t}` is not a number", t = crate::files::quote(t))))
        })
    };
    let (clock, fullmove) = (number(4, "half-move clock")?, number(5, "move number")?);
    if fullmove > MAX_MOVE_NUMBER {
        return Err(bad(format!("the move number {fullmove} is past the limit of {MAX_MOVE_NUMBER}")));
    }
    let ply = 2 * fullmove.max(1).saturating_sub(1) + if side == rules.first { 0 } else { 1 };
    let (board, hand) = read_board_and_hand(rules, f[0])?;
    let mut line = format!("{board} {} {ply}", rules.player_name(side));
    if let Some(h) = hand {
        line.push_str(&format!(" counters={h}"));
    }
    if clock > 0 && rules.clock.is_some() {
        line.push_str(&format!(" clock={clock}"));
    }
    let g = &rules.geometry;
    let mut ep_check = None;
    if let Some(&ep) = f.get(3).filter(|&&t| t != "-") {
        let at = g.parse_cell(ep).map_err(|_| bad(format!("the en passant field `{ep}` is not a cell", ep = crate::files::quote(ep))))?;
        // The piece that passed it stands one step further along its owner's forward.
        let mover = side.other();
        let (file, rank) = g.coords(at);
        let piece = g
            .at(file as i32, rank as i32 + rules.forward[mover] as i32)
            .ok_or_else(|| bad(format!("no cell beyond {ep}", ep = crate::files::quote(ep))))?;
        // The board is read below; the piece must be the opponent's, the one that just moved.
        ep_check = Some((piece.0, ep.to_string()));
        line.push_str(&format!(" ep={ep}/{}", g.name(piece)));
    }
    let mut pos = Position::from_text(rules, &line).map_err(|e| bad(e.0))?;
    if let Some((piece, ep)) = ep_check
        && !pos.board()[piece as usize].is_of(side.other())
    {
        let (at, mover) = (g.name(crate::Cell(piece)), rules.player_name(side.other()));
        return Err(bad(format!(
            "en passant on {ep}: the piece on {at} is not the one that just moved (none of {mover}'s)",
            ep = crate::files::quote(&ep)
        )));
    }
    if let Some(&castling) = f.get(2).filter(|&&t| t != "-") {
        read_castling(rules, &mut pos, castling).map_err(bad)?;
    }
    // A FEN cannot say that the game is over: a finished game reads back finished by judging
    // the position as it stands.
    if pos.result().is_none() {
        let r = crate::rules::ends::standing_result(rules, &pos);
        pos.set_result(r);
    }
    Ok(pos)
}

/// Reads a FEN's castling field (`KQkq`, or files for Chess960's rooks) into `pos`'s rights.
fn read_castling(rules: &Ruleset, pos: &mut Position, castling: &str) -> Result<(), String> {
    let g = &rules.geometry;
    let c = rules
        .castling
        .as_ref()
        .ok_or_else(|| format!("this variant has no castling, so `{}` means nothing", crate::files::quote(castling)))?;
    let mut rights = crate::rules::CastleRights::NONE;
    for ch in castling.chars() {
        let p = if ch.is_ascii_uppercase() { Player::FIRST } else { Player::SECOND };
        let board = pos.board();
        let rook = match ch.to_ascii_lowercase() {
            'k' => c.outermost_rook(g, board, p, EAST, None),
            'q' => c.outermost_rook(g, board, p, WEST, None),
            l => {
                let file = (0..g.files).find(|&x| crate::geometry::file_letter(x) == l);
                let file = file.ok_or_else(|| format!("`{ch}` in the castling field is neither K, Q nor a file"))?;
                [EAST, WEST].into_iter().map(|s| c.outermost_rook(g, board, p, s, Some(file))).find(|&r| r != NONE).unwrap_or(NONE)
            }
        };
        if rook == NONE {
            return Err(format!("castling `{ch}`: no rook of {} ready beside its king there", rules.player_name(p)));
        }
        let king = c.king_on_rank(g, board, p, rook).unwrap_or(NONE);
        rights.set(p, if rook > king { EAST } else { WEST }, rook);
    }
    pos.set_castle_rights(rules, rights);
    Ok(())
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
    let mut board = String::new();
    let promoted = promoted_kinds(rules);
    for c in text.split_whitespace().next().unwrap_or_default().chars() {
        let hit = promoted.iter().find_map(|&(k, base)| {
            Player::both().into_iter().find(|&p| rules.kinds[k.0 as usize].symbols[p] == c).map(|p| rules.kinds[base.0 as usize].symbols[p])
        });
        match hit {
            Some(x) => board.extend(['+', x]),
            None => board.push(c),
        }
    }
    let kinds = hand_kinds(rules);
    if !kinds.is_empty() {
        board.push('[');
        for p in Player::both() {
            for &(k, slot) in &kinds {
                let n = pos.counter(p, slot).clamp(0, MAX_IN_HAND) as usize;
                board.extend(std::iter::repeat_n(rules.kinds[k.0 as usize].symbols[p], n));
            }
        }
        board.push(']');
    }
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

    #[test]
    fn shogi_fens_carry_hands_and_promoted_pieces() {
        let v = Variant::load("variants/minishogi", &[]).unwrap();
        // Fairy-Stockfish's start position, written without castling and en passant fields.
        let start = read(&v.rules, "rbsgk/4p/5/P4/KGSBR[-] w 0 1").unwrap();
        assert_eq!(start, v.start());
        assert_eq!(write(&v.rules, &start).unwrap(), "rbsgk/4p/5/P4/KGSBR[] w - - 0 1");
        // A tokin (+P) and a promoted silver (+S) on the board, a silver and a pawn in the first
        // player's hand, a pawn in the second's.
        let fen = "rb1gk/4+P/5/P4/KG+SBR[PSp] b - - 0 7";
        let p = read(&v.rules, fen).unwrap();
        let at = |c: &str| v.rules.kind(p.board()[v.rules.geometry.parse_cell(c).unwrap().0 as usize].kind()).name.clone();
        assert_eq!((at("e4"), at("c1")), ("tokin".to_string(), "promoted_silver".to_string()));
        let hand = |k: &str, pl: Player| p.counter(pl, v.rules.counter_slot(&format!("{k}_in_hand")).unwrap());
        assert_eq!((hand("silver", Player::FIRST), hand("pawn", Player::FIRST), hand("pawn", Player::SECOND)), (1, 1, 1));
        assert_eq!(write(&v.rules, &p).unwrap(), fen);
        assert!(looks_like_fen("rbsgk/4p/5/P4/KGSBR[-] w 0 1"));
        // A promoted kind that does not exist, a hand letter that is not dropped, a bad bracket.
        assert!(read(&v.rules, "rbsgk/4p/5/P4/KG+KBR[] w 0 1").unwrap_err().0.contains("+K"));
        assert!(read(&v.rules, "rbsgk/4p/5/P4/KGSBR[K] w 0 1").unwrap_err().0.contains("`K`"));
        assert!(read(&v.rules, "rbsgk/4p/5/P4/KGSBR[P w 0 1").unwrap_err().0.contains("brackets"));
        // Chess has no hand, and its queen (a pawn's promotion among several) is no `+P`.
        let chess = Variant::load("variants/chess", &[]).unwrap();
        assert!(write(&chess.rules, &chess.start()).unwrap().starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"));
    }
}
