//! SFEN, USI's position text, translated to and from boardlab's FEN (Fairy-Stockfish's form,
//! `crate::fen`): the board is written the same way in both (`+P` a promoted pawn); SFEN's side
//! to move is `b` for the first player (sente) and `w` for the second, where a FEN has `w` and
//! `b`; its hand is counted (`2Pp`, `-` for none) where a FEN lists each piece in brackets
//! after the board (`[PPp]`, `[]`); its last field is the move number.
//!
//! Only the text changes here: whether the position is one of the variant's is `crate::fen`'s
//! to say.

/// The most pieces of one kind a hand may be said to hold (`99P`): more cannot be a game's.
const MAX_HAND_COUNT: usize = 99;

/// Why a text is not an SFEN (or a FEN that translates to one), in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct SfenError(String);

/// The FEN of an SFEN (`board side hand [move]`).
///
/// # Errors
/// Not four fields or three, a side other than `b` or `w`, or a hand that does not read.
pub(crate) fn to_fen(sfen: &str) -> Result<String, SfenError> {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let [board, side, hand, ..] = f[..] else {
        return Err(SfenError("an SFEN is BOARD SIDE HAND [MOVE]".into()));
    };
    if f.len() > 4 {
        return Err(SfenError("an SFEN is BOARD SIDE HAND [MOVE]".into()));
    }
    let side = match side {
        "b" => "w",
        "w" => "b",
        s => return Err(SfenError(format!("the side to move is b or w, not `{}`", crate::files::quote(s)))),
    };
    let mut pieces = String::new();
    if hand != "-" {
        let mut count = String::new();
        for c in hand.chars() {
            if c.is_ascii_digit() {
                count.push(c);
                continue;
            }
            if !c.is_ascii_alphabetic() {
                return Err(SfenError(format!("hand `{}`: expected counts and letters (2Pp) or -", crate::files::quote(hand))));
            }
            let n: usize = if count.is_empty() { 1 } else { count.parse().unwrap_or(usize::MAX) };
            if n == 0 || n > MAX_HAND_COUNT {
                return Err(SfenError(format!("hand `{}`: a count from 1 to {MAX_HAND_COUNT}", crate::files::quote(hand))));
            }
            pieces.extend(std::iter::repeat_n(c, n));
            count.clear();
        }
        if !count.is_empty() {
            return Err(SfenError(format!("hand `{}` ends with a count", crate::files::quote(hand))));
        }
    }
    Ok(format!("{board}[{pieces}] {side} - - 0 1"))
}

/// The SFEN of a FEN whose hands are in brackets after the board (a FEN with no hand has
/// none: `-`); the move number is 1.
///
/// # Errors
/// No side to move.
pub(crate) fn from_fen(fen: &str) -> Result<String, SfenError> {
    let mut f = fen.split_whitespace();
    let (Some(placement), Some(side)) = (f.next(), f.next()) else {
        return Err(SfenError("a FEN with no side to move".into()));
    };
    let (board, hand) = match placement.split_once('[') {
        Some((b, h)) => (b, h.trim_end_matches(']')),
        None => (placement, ""),
    };
    let side = match side {
        "w" => "b",
        "b" => "w",
        s => return Err(SfenError(format!("the side to move is w or b, not `{}`", crate::files::quote(s)))),
    };
    // Counted in the order first seen (the first player's pieces are listed first).
    let mut counts: Vec<(char, usize)> = Vec::new();
    for c in hand.chars() {
        match counts.iter_mut().find(|(k, _)| *k == c) {
            Some((_, n)) => *n += 1,
            None => counts.push((c, 1)),
        }
    }
    let hand: String = counts.iter().map(|&(c, n)| if n == 1 { c.to_string() } else { format!("{n}{c}") }).collect();
    Ok(format!("{board} {side} {} 1", if hand.is_empty() { "-" } else { &hand }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sfen_and_fen_translate_both_ways() {
        // Minishogi's start, as Fairy-Stockfish writes it in both forms.
        assert_eq!(to_fen("rbsgk/4p/5/P4/KGSBR b - 1").unwrap(), "rbsgk/4p/5/P4/KGSBR[] w - - 0 1");
        assert_eq!(from_fen("rbsgk/4p/5/P4/KGSBR[] w - - 0 1").unwrap(), "rbsgk/4p/5/P4/KGSBR b - 1");
        // Hands: counted in SFEN, listed in the FEN; gote to move is `w` in SFEN, `b` in FEN.
        assert_eq!(to_fen("4k/5/5/5/K4 w 2Pb 7").unwrap(), "4k/5/5/5/K4[PPb] b - - 0 1");
        assert_eq!(from_fen("4k/5/5/5/K4[PPb] b - - 0 1").unwrap(), "4k/5/5/5/K4 w 2Pb 1");
        assert_eq!(to_fen("4k/5/5/5/K4 b - ").unwrap(), "4k/5/5/5/K4[] w - - 0 1");
        for bad in ["4k/5 b", "4k b - 1 x", "4k x - 1", "4k b 0P 1", "4k b 2 1", "4k b P! 1", "4k b 100P 1"] {
            assert!(to_fen(bad).is_err(), "{bad}");
        }
        assert!(from_fen("4k").is_err());
    }
}
