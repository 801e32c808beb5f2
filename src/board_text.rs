//! Board text: the board of the variant file's setup rows and of the position line.
//!
//! Ranks from the top, separated by `/` or line breaks; in a rank, one mark per existing cell
//! from file `a`: a piece symbol (optionally followed by `[v,…]`, its attribute values), `.`
//! for an empty cell, or a number for that many empty cells. A rank with no cells (every cell
//! of it a hole) is written `0`. Also the position line's fields, and its numbers.
//!
//! It knows cells and piece codes only (symbols are the caller's), so the rules read their
//! setup with it and the position text (`position_text`) its board.

use crate::geometry::Geometry;
use crate::piece::PieceCode;
use std::fmt::Write;

/// A board text that does not fit the board: which rank, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct BoardTextError(pub(crate) String);

/// Parses board text (see the module docs) into board codes and attribute values.
///
/// `lookup` maps a symbol to a code; `kind_attrs` gives a code's (slot, initial value) list.
///
/// # Errors
/// A message naming the rank and what is wrong.
pub(crate) fn parse_board(
    g: &Geometry,
    text: &str,
    lookup: &dyn Fn(char) -> Option<PieceCode>,
    kind_attrs: &dyn Fn(PieceCode) -> Vec<(u8, i32)>,
    nattr: usize,
) -> Result<(Vec<PieceCode>, Vec<i32>), BoardTextError> {
    read_board(g, text, lookup, kind_attrs, nattr).map_err(BoardTextError)
}

fn read_board(
    g: &Geometry,
    text: &str,
    lookup: &dyn Fn(char) -> Option<PieceCode>,
    kind_attrs: &dyn Fn(PieceCode) -> Vec<(u8, i32)>,
    nattr: usize,
) -> Result<(Vec<PieceCode>, Vec<i32>), String> {
    let rows: Vec<&str> = text.split(['/', '\n']).map(str::trim).filter(|r| !r.is_empty()).collect();
    if rows.len() != g.ranks as usize {
        return Err(format!("expected {} ranks, found {}", g.ranks, rows.len()));
    }
    let mut board = vec![PieceCode::EMPTY; g.len()];
    let mut attrs = vec![0i32; g.len() * nattr];
    for (i, row) in rows.iter().enumerate() {
        let rank = g.ranks as usize - 1 - i;
        let cells: Vec<u16> = (0..g.files as i32).filter_map(|f| g.at(f, rank as i32)).map(|c| c.0).collect();
        let mut k = 0usize;
        let chars: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        let mut j = 0;
        while j < chars.len() {
            let ch = chars[j];
            if ch.is_ascii_digit() {
                let start = j;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    j += 1;
                }
                let run: String = chars[start..j].iter().collect();
                // A run longer than the rank is an error, however many digits it has.
                match run.parse::<usize>().ok().filter(|n| k + n <= cells.len()) {
                    Some(n) => k += n,
                    None => {
                        return Err(format!(
                            "rank {}: {run} empty cells do not fit its {} cells",
                            rank + 1,
                            cells.len(),
                            run = crate::files::quote(&run)
                        ));
                    }
                }
                continue;
            }
            if k >= cells.len() {
                return Err(format!("rank {} has more than its {} cells", rank + 1, cells.len()));
            }
            if ch == '.' {
                k += 1;
                j += 1;
                continue;
            }
            let code = lookup(ch).ok_or_else(|| format!("`{ch}` on rank {} is not a piece symbol", rank + 1))?;
            let c = cells[k] as usize;
            board[c] = code;
            for (slot, init) in kind_attrs(code) {
                attrs[c * nattr + slot as usize] = init;
            }
            j += 1;
            if j < chars.len() && chars[j] == '[' {
                let close = chars[j..].iter().position(|&x| x == ']').ok_or_else(|| format!("rank {}: `[` without `]`", rank + 1))? + j;
                let inner: String = chars[j + 1..close].iter().collect();
                let slots = kind_attrs(code);
                let vals: Vec<&str> = inner.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
                if vals.len() != slots.len() {
                    return Err(format!("rank {}: `{ch}` has {} attributes, {} given", rank + 1, slots.len(), vals.len()));
                }
                for ((slot, _), v) in slots.iter().zip(vals) {
                    attrs[c * nattr + *slot as usize] = parse_i32(v).map_err(|e| format!("rank {}: {e}", rank + 1))?;
                }
                j = close + 1;
            }
            k += 1;
        }
        if k != cells.len() {
            return Err(format!("rank {} has {} cells, {} given", rank + 1, cells.len(), k));
        }
    }
    Ok((board, attrs))
}

/// Reads a 32-bit value of a position (an attribute or a counter) from text.
///
/// # Errors
/// Not an integer, or one outside the 32-bit range (saying so, with the range).
pub(crate) fn parse_i32(text: &str) -> Result<i32, ValueError> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    match text.parse::<i32>() {
        Ok(v) => Ok(v),
        Err(_) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            Err(ValueError::OutOfRange(crate::files::quote(text)))
        }
        Err(_) => Err(ValueError::NotAnInteger(crate::files::quote(text))),
    }
}

/// Why a text is not a position's 32-bit value ([`parse_i32`]); the text quoted, shortened.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ValueError {
    #[error("`{0}` is out of range; values are integers from {min} to {max}", min = i32::MIN, max = i32::MAX)]
    OutOfRange(String),
    #[error("`{0}` is not an integer")]
    NotAnInteger(String),
}

/// Writes board text: ranks from the top, `/` between them, runs of empty cells as numbers (`0`
/// for a rank with no cells, so that the text reads back).
pub(crate) fn board_text(
    g: &Geometry,
    board: &[PieceCode],
    attrs: &[i32],
    nattr: usize,
    symbol: &dyn Fn(PieceCode) -> char,
    kind_attrs: &dyn Fn(PieceCode) -> Vec<(u8, i32)>,
) -> String {
    let mut s = String::new();
    for rank in (0..g.ranks as i32).rev() {
        let mut empty = 0;
        if (0..g.files as i32).all(|f| g.at(f, rank).is_none()) {
            s.push('0'); // a rank with no cells (all holes) is written `0`, never an empty field
        }
        for f in 0..g.files as i32 {
            let Some(c) = g.at(f, rank) else { continue };
            let code = board[c.0 as usize];
            if code.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
                empty = 0;
            }
            s.push(symbol(code));
            let slots = kind_attrs(code);
            if !slots.is_empty() && slots.iter().any(|&(slot, init)| attrs[c.0 as usize * nattr + slot as usize] != init) {
                let vals: Vec<String> = slots.iter().map(|&(slot, _)| attrs[c.0 as usize * nattr + slot as usize].to_string()).collect();
                let _ = write!(s, "[{}]", vals.join(","));
            }
        }
        if empty > 0 {
            let _ = write!(s, "{empty}");
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// Splits a position line into whitespace-separated fields, keeping `"…"` together.
pub(crate) fn split_fields(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for ch in text.chars() {
        match ch {
            '"' => {
                quoted = !quoted;
                cur.push(ch);
            }
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_round_trip() {
        use crate::piece::{KindId, Player};
        let g = Geometry::new(3, 2, |_, _| true);
        let (white, black) = (PieceCode::new(KindId(0), Player::FIRST), PieceCode::new(KindId(0), Player::SECOND));
        let lookup = |c: char| match c {
            'P' => Some(white),
            'p' => Some(black),
            _ => None,
        };
        let attrs = |_c: PieceCode| vec![(0u8, 1i32)];
        let (b, a) = parse_board(&g, "p2/.P[3].", &lookup, &attrs, 1).unwrap();
        let e = PieceCode::EMPTY;
        assert_eq!(b, vec![e, white, e, black, e, e]);
        assert_eq!(a[1], 3);
        let sym = |c: PieceCode| if c == white { 'P' } else { 'p' };
        assert_eq!(board_text(&g, &b, &a, 1, &sym, &attrs), "p2/1P[3]1");
        assert!(parse_board(&g, "p2/4", &lookup, &attrs, 1).is_err());
        assert!(parse_board(&g, "p2", &lookup, &attrs, 1).is_err());
        assert!(parse_board(&g, "q2/3", &lookup, &attrs, 1).is_err());
        let e = parse_board(&g, "p2/99999999999999999999999", &lookup, &attrs, 1).unwrap_err().to_string();
        assert_eq!(e, "rank 1: 99999999999999999999999 empty cells do not fit its 3 cells");
        let e = parse_board(&g, "p2/.P[4294967296].", &lookup, &attrs, 1).unwrap_err().to_string();
        assert_eq!(e, "rank 1: `4294967296` is out of range; values are integers from -2147483648 to 2147483647");
    }

    #[test]
    fn a_rank_without_cells_reads_back() {
        // Rank 2 of a 2x3 grid is all holes: it is written `0`, not an empty field.
        use crate::piece::{KindId, Player};
        let g = Geometry::new(2, 3, |_, y| y != 1);
        let white = PieceCode::new(KindId(0), Player::FIRST);
        let lookup = |c: char| (c == 'P').then_some(white);
        let attrs = |_c: PieceCode| vec![];
        let (b, a) = parse_board(&g, "P1/0/1P", &lookup, &attrs, 0).unwrap();
        let text = board_text(&g, &b, &a, 0, &|_| 'P', &attrs);
        assert_eq!(text, "P1/0/1P");
        assert_eq!(parse_board(&g, &text, &lookup, &attrs, 0).unwrap().0, b);
    }

    #[test]
    fn fields() {
        assert_eq!(split_fields("a b result=\"x y\""), vec!["a", "b", "result=\"x y\""]);
    }
}
