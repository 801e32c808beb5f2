//! Promoted kinds and how they are written: a kind is *promoted* when its captured pieces go to
//! the hand as another kind (`in_hand`) that promotes to it, so it demotes when captured.
//! Fairy-Stockfish writes such a piece in one of two ways, and boardlab derives which from the
//! rules:
//! - `+B` (shogi's tokin `+P`): the base kind B promotes to this kind alone (or to it or to
//!   itself, as shogi's silver may stay a silver);
//! - `Q~` (crazyhouse's promoted queen): the base promotes to a choice of several kinds, and
//!   this kind moves as another, unpromoted kind Q of the variant (the same movement forms):
//!   its *twin*, whose letter it borrows, in a FEN and as the promotion choice's letter
//!   (`e7-e8=Q`). Without a twin it is written `+B`.

use crate::piece::{KindId, PieceCode, Player};
use crate::rules::Ruleset;

/// How a promoted kind is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// `+` and the base kind's letter.
    Plus(KindId),
    /// The twin kind's letter and `~`.
    Tilde(KindId),
}

/// Every promoted kind of the variant with its mark (see the module documentation).
pub(crate) fn marks(rules: &Ruleset) -> Vec<(KindId, Mark)> {
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

/// Gives each promotion choice of a kind with a twin its twin's letter (crazyhouse's `e7-e8=Q`
/// for a promoted queen), unless two choices would then share a letter.
pub(crate) fn twin_letters(rules: &mut Ruleset) {
    let marks = marks(rules);
    let letter = |k: KindId| match marks.iter().find(|&&(x, _)| x == k) {
        Some(&(_, Mark::Tilde(t))) => Some(rules.kinds[t.0 as usize].symbols[Player::FIRST].to_ascii_uppercase() as u8),
        _ => None,
    };
    let renamed: Vec<Option<Vec<u8>>> = rules
        .pieces
        .iter()
        .map(|p| {
            let choices = &p.promote.as_ref()?.choices;
            let letters: Vec<u8> = choices.iter().map(|&(c, l)| letter(c.kind()).unwrap_or(l)).collect();
            let distinct = letters.iter().enumerate().all(|(i, l)| !letters[..i].contains(l));
            (distinct && !choices.is_empty()).then_some(letters)
        })
        .collect();
    for (p, letters) in rules.pieces.iter_mut().zip(renamed) {
        if let (Some(pr), Some(letters)) = (p.promote.as_mut(), letters) {
            for (choice, l) in pr.choices.iter_mut().zip(letters) {
                choice.1 = l;
            }
        }
    }
}
