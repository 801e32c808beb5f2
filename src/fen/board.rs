//! A FEN's board field with Fairy-Stockfish's marks for promoted pieces, and its hand.
//!
//! Promoted kinds are written as `rules::promoted` derives (`+P`, `Q~`).
//!
//! The hand follows the board in brackets: every droppable kind with a hand, the first
//! player's pieces (upper case) then the second's, `[]` or `[-]` when both are empty.

use super::MAX_IN_HAND;
use crate::piece::{KindId, Player};
use crate::rules::Ruleset;
use crate::rules::promoted::{Mark, marks};
use crate::state::PositionError;

fn bad(m: String) -> PositionError {
    PositionError(format!("FEN: {m}"))
}

/// The kind and player a letter names, among `kinds`.
fn letter_of(rules: &Ruleset, kinds: impl Iterator<Item = KindId>, c: char) -> Option<(KindId, Player)> {
    kinds.into_iter().find_map(|k| Player::both().into_iter().find(|&p| rules.kinds[k.0 as usize].symbols[p] == c).map(|p| (k, p)))
}

/// A board field without brackets: where the variant has hands and the field has one row more
/// than the board, the last row is the hand (the older crazyhouse FEN, `4K3/Qn`).
fn old_style_hand<'a>(rules: &Ruleset, field: &'a str) -> (&'a str, Option<&'a str>) {
    let rows = field.matches('/').count() + 1;
    match field.rfind('/') {
        Some(i) if rows == rules.geometry.ranks as usize + 1 && !rules.hand_kinds().is_empty() => (&field[..i], Some(&field[i + 1..])),
        _ => (field, None),
    }
}

/// The board field as the position text writes it (every piece by its own kind's letter), and
/// the hand's counts as `counters=` parts (`None` without a hand field).
///
/// # Errors
/// A mark that names no promoted kind, a hand letter of no kind dropped from a hand, an
/// unclosed bracket, too many pieces in a hand.
pub(super) fn read(rules: &Ruleset, field: &str) -> Result<(String, Option<String>), PositionError> {
    let (board, hand) = match field.find('[') {
        Some(i) if field.ends_with(']') => (&field[..i], Some(&field[i + 1..field.len() - 1])),
        Some(_) => return Err(bad("the hand is written in brackets at the end of the board, like [Pp]".into())),
        None => old_style_hand(rules, field),
    };
    let marks = marks(rules);
    let symbol = |k: KindId, p: Player| rules.kinds[k.0 as usize].symbols[p];
    let mut out = String::new();
    let mut chars = board.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '+' {
            let x = chars.next().ok_or_else(|| bad("`+` at the end of the board promotes nothing".into()))?;
            let bases = marks.iter().filter_map(|&(_, m)| if let Mark::Plus(b) = m { Some(b) } else { None });
            let (base, p) =
                letter_of(rules, bases, x).ok_or_else(|| bad(format!("`+{x}`: no kind of this variant is a promoted `{x}`")))?;
            let k = marks.iter().find(|&&(_, m)| m == Mark::Plus(base)).map(|&(k, _)| k).unwrap_or(base);
            out.push(symbol(k, p));
        } else if chars.peek() == Some(&'~') {
            chars.next();
            let twins = marks.iter().filter_map(|&(_, m)| if let Mark::Tilde(t) = m { Some(t) } else { None });
            let (twin, p) =
                letter_of(rules, twins, c).ok_or_else(|| bad(format!("`{c}~`: no kind of this variant is a promoted `{c}`")))?;
            let k = marks.iter().find(|&&(_, m)| m == Mark::Tilde(twin)).map(|&(k, _)| k).unwrap_or(twin);
            out.push(symbol(k, p));
        } else {
            out.push(c);
        }
    }
    let Some(hand) = hand else { return Ok((out, None)) };
    let kinds = rules.hand_kinds();
    let mut counts = vec![[0i32; 2]; kinds.len()];
    for c in hand.chars().filter(|&c| c != '-') {
        let hit = letter_of(rules, kinds.iter().map(|&(k, _)| k), c);
        let (k, p) = hit.ok_or_else(|| bad(format!("`{c}` in the hand is no kind that is dropped from a hand")))?;
        let i = kinds.iter().position(|&(x, _)| x == k).unwrap_or_default();
        counts[i][p.index()] += 1;
        if counts[i][p.index()] > MAX_IN_HAND {
            return Err(bad(format!("more than {MAX_IN_HAND} of `{c}` in the hand")));
        }
    }
    let parts: Vec<String> =
        kinds.iter().zip(&counts).map(|(&(_, slot), n)| format!("{}:{}:{}", rules.counters[slot as usize].0, n[0], n[1])).collect();
    Ok((out, (!parts.is_empty()).then(|| parts.join(","))))
}

/// The board field of `text_board` (the position text's) with the promoted kinds marked, then
/// the hand in brackets where the variant has hands.
pub(super) fn write(rules: &Ruleset, pos: &crate::state::Position, text_board: &str) -> String {
    let marks = marks(rules);
    let symbol = |k: KindId, p: Player| rules.kinds[k.0 as usize].symbols[p];
    let mut board = String::new();
    for c in text_board.chars() {
        let hit = letter_of(rules, marks.iter().map(|&(k, _)| k), c).and_then(|(k, p)| marks.iter().find(|m| m.0 == k).map(|m| (m.1, p)));
        match hit {
            Some((Mark::Plus(b), p)) => board.extend(['+', symbol(b, p)]),
            Some((Mark::Tilde(t), p)) => board.extend([symbol(t, p), '~']),
            None => board.push(c),
        }
    }
    let kinds = rules.hand_kinds();
    if !kinds.is_empty() {
        board.push('[');
        for p in Player::both() {
            for &(k, slot) in &kinds {
                let n = pos.counter(p, slot).clamp(0, MAX_IN_HAND) as usize;
                board.extend(std::iter::repeat_n(symbol(k, p), n));
            }
        }
        board.push(']');
    }
    board
}
