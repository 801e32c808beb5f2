//! A FEN's board field with Fairy-Stockfish's marks for promoted pieces, and its hand.
//!
//! A kind is *promoted* when its captured pieces go to the hand as another kind (`in_hand`)
//! that promotes to it: it demotes when captured. Fairy-Stockfish writes such a piece in one of
//! two ways, and boardlab derives which from the rules:
//! - `+B` (shogi's tokin `+P`): the base kind B promotes to this kind alone (or to it or to
//!   itself, as shogi's silver may stay a silver);
//! - `Q~` (crazyhouse's promoted queen): the base promotes to a choice of several kinds, and
//!   this kind moves as another, unpromoted kind Q of the variant (the same movement forms):
//!   its *twin*, whose letter it borrows. Without a twin it is written `+B`.
//!
//! The hand follows the board in brackets: every droppable kind with a hand, the first
//! player's pieces (upper case) then the second's, `[]` or `[-]` when both are empty.

use super::MAX_IN_HAND;
use crate::piece::{KindId, PieceCode, Player};
use crate::rules::Ruleset;
use crate::state::PositionError;

/// How a promoted kind is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    /// `+` and the base kind's letter.
    Plus(KindId),
    /// The twin kind's letter and `~`.
    Tilde(KindId),
}

fn bad(m: String) -> PositionError {
    PositionError(format!("FEN: {m}"))
}

/// Every promoted kind of the variant with its mark (see the module documentation).
fn marks(rules: &Ruleset) -> Vec<(KindId, Mark)> {
    let first = |k: usize| &rules.pieces[PieceCode::new(KindId(k as u8), Player::FIRST).index()];
    let n = rules.kinds.len();
    // (promoted kind, base kind, how many kinds other than itself the base may become)
    let mut promoted = Vec::new();
    for k in 0..n {
        let Some(slot) = first(k).to_hand else { continue };
        let Some(base) = (0..n).find(|&b| b != k && first(b).drop.as_ref().is_some_and(|d| d.hand == Some(slot))) else {
            continue;
        };
        let Some(p) = first(base).promote.as_ref() else { continue };
        let targets: Vec<usize> =
            if p.choices.is_empty() { vec![p.to.0 as usize] } else { p.choices.iter().map(|(c, _)| c.kind().0 as usize).collect() };
        if targets.contains(&k) {
            promoted.push((k, base, targets.iter().filter(|&&t| t != base).count()));
        }
    }
    let is_promoted = |x: usize| promoted.iter().any(|&(k, _, _)| k == x);
    promoted
        .iter()
        .map(|&(k, base, choices)| {
            let twin = (choices >= 2)
                .then(|| {
                    (0..n).find(|&x| {
                        x != k && !is_promoted(x) && rules.kinds[x].royal == rules.kinds[k].royal && first(x).notes == first(k).notes
                    })
                })
                .flatten();
            let mark = twin.map_or(Mark::Plus(KindId(base as u8)), |t| Mark::Tilde(KindId(t as u8)));
            (KindId(k as u8), mark)
        })
        .collect()
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

/// The kind and player a letter names, among `kinds`.
fn letter_of(rules: &Ruleset, kinds: impl Iterator<Item = KindId>, c: char) -> Option<(KindId, Player)> {
    kinds.into_iter().find_map(|k| Player::both().into_iter().find(|&p| rules.kinds[k.0 as usize].symbols[p] == c).map(|p| (k, p)))
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
        None => (field, None),
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
    let kinds = hand_kinds(rules);
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
    let kinds = hand_kinds(rules);
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
