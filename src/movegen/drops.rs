//! Drops: pieces placed from a hand onto the board.

use super::MoveList;
use crate::cellset::CellSet;
use crate::geometry::NONE;
use crate::notation::Move;
use crate::piece::Player;
use crate::rules::Ruleset;
use crate::state::Position;

/// The number of `side`'s drops ([`drops`]): on the cell sets where each droppable kind's
/// are kept, else listed into `scratch`.
pub(super) fn count_drops(rules: &Ruleset, pos: &Position, side: Player, scratch: &mut MoveList) -> usize {
    let mut n = 0;
    for &code in &rules.drops[side] {
        let pr = &rules.pieces[code.index()];
        let Some(d) = &pr.drop else { continue };
        let Some(cells) = d.sets.as_ref().and_then(|s| s.targets(pos, side, pr.convert.as_ref())) else {
            return count_unlisted(rules, pos, side).unwrap_or_else(|| {
                scratch.clear();
                drops(rules, pos, side, scratch);
                scratch.len()
            });
        };
        if d.hand.is_none_or(|slot| pos.counter(side, slot) > 0) {
            n += cells.count_ones() as usize;
        }
    }
    n
}

/// The number of `side`'s drops ([`drops`]) without their list, where every droppable kind
/// lands on any empty cell of its zone, the liberty rule aside (no fall, no conversion, no
/// file or neighbour condition): Go's placements on a board too large for the cell sets.
/// `None`: some kind has another condition.
fn count_unlisted(rules: &Ruleset, pos: &Position, side: Player) -> Option<usize> {
    let board = pos.board();
    let mut n = 0;
    for &code in &rules.drops[side] {
        let pr = &rules.pieces[code.index()];
        let Some(d) = &pr.drop else { continue };
        if d.must_convert || d.file_block.is_some() || !d.beside.is_empty() || !d.fall.is_empty() {
            return None;
        }
        if d.hand.is_some_and(|slot| pos.counter(side, slot) <= 0) {
            continue;
        }
        let legal = |c: u16| match &pr.liberties {
            Some(l) if !l.suicide => crate::rules::groups::placement_legal(&l.n, board, c, side, false),
            _ => true,
        };
        n += d.cells.iter().filter(|&&c| board[c as usize].is_empty() && legal(c)).count();
    }
    Some(n)
}

/// Appends `side`'s drops: each droppable kind on each empty cell of its zone (with gravity,
/// only where the next cell along the fall is not an empty cell).
#[inline]
pub(crate) fn drops(rules: &Ruleset, pos: &Position, side: Player, out: &mut MoveList) {
    let board = pos.board();
    for &code in &rules.drops[side] {
        let pr = &rules.pieces[code.index()];
        let Some(d) = &pr.drop else { continue };
        if d.hand.is_some_and(|slot| pos.counter(side, slot) <= 0) {
            continue; // none of the kind in hand
        }
        if let Some(cells) = d.sets.as_ref().and_then(|s| s.targets(pos, side, pr.convert.as_ref())) {
            // In board order, as the cell by cell tests below.
            for c in CellSet::from_bits(cells) {
                out.push(Move::drop(code, d.letter, d.written, c));
            }
            continue;
        }
        let first = out.len();
        if d.must_convert {
            // Othello: a drop must convert; only cells that do (gravity applies first).
            let Some(cv) = &pr.convert else { continue };
            for &c in &d.cells {
                let below = d.fall.get(c as usize).copied().unwrap_or(NONE);
                if board[c as usize].is_empty() && (below == NONE || !board[below as usize].is_empty()) && cv.converts_any(board, c, side) {
                    out.push(Move::drop(code, d.letter, d.written, c));
                }
            }
        } else if let Some((block, limit)) = d.file_block {
            // Not onto a file where `limit` of the player's pieces of that kind stand.
            let g = &rules.geometry;
            let taken = |c: u16| {
                let file = g.coords(crate::geometry::Cell(c)).0 as i32;
                (0..g.ranks as i32).filter_map(|r| g.at(file, r)).filter(|x| board[x.0 as usize] == block).count() >= limit as usize
            };
            for &c in &d.cells {
                if board[c as usize].is_empty() && !taken(c) {
                    out.push(Move::drop(code, d.letter, d.written, c));
                }
            }
        } else if !d.beside.is_empty() {
            // Ataxx's clone: next to one of the player's pieces.
            for &c in &d.cells {
                if board[c as usize].is_empty() && d.beside[c as usize].iter().any(|&n| board[n as usize].is_of(side)) {
                    out.push(Move::drop(code, d.letter, d.written, c));
                }
            }
        } else if d.fall.is_empty() {
            for &c in &d.cells {
                if board[c as usize].is_empty() {
                    out.push(Move::drop(code, d.letter, d.written, c));
                }
            }
        } else {
            for &c in &d.cells {
                let below = d.fall[c as usize];
                if board[c as usize].is_empty() && (below == NONE || !board[below as usize].is_empty()) {
                    out.push(Move::drop(code, d.letter, d.written, c));
                }
            }
        }
        if let Some(l) = &pr.liberties
            && !l.suicide
        {
            // The liberty rule: no drop that leaves its group without a liberty and takes nothing.
            let mut kept = first;
            for i in first..out.len() {
                if crate::rules::groups::placement_legal(&l.n, board, out[i].landings()[0], side, false) {
                    out[kept] = out[i];
                    kept += 1;
                }
            }
            out.truncate(kept);
        }
    }
}

/// Appends, for each move of `out[start..]` whose piece leaves one of the mover's gates (a
/// move of one piece or castling, whose rook's cell may be the gate), the same move with each
/// gated kind the mover holds in hand placed there (see [`crate::rules::Gating`]); a castling
/// whose king or rook lands on the gate cannot.
pub(crate) fn gatings(rules: &Ruleset, pos: &Position, out: &mut MoveList, start: usize) {
    let Some(g) = &rules.drops.gating else { return };
    let side = pos.side();
    let gates = pos.gates()[side];
    if gates == 0 {
        return;
    }
    let end = out.len();
    for i in start..end {
        let m = out[i];
        let cells: [u16; 2] = match (m.kind, m.castling()) {
            (crate::notation::MoveKind::Normal, _) => [m.from, NONE],
            (_, Some((rook, rook_to))) => {
                let free = |c: u16| c != rook_to && Some(c) != m.to();
                [if free(m.from) { m.from } else { NONE }, if free(rook) { rook } else { NONE }]
            }
            _ => continue,
        };
        for at in cells.into_iter().filter(|&c| c != NONE && gates & 1 << c != 0) {
            for &(code, zone) in &g.codes[side] {
                if zone & 1 << at != 0 && pos.has_in_hand(rules, code) {
                    let letter = rules.pieces[code.index()].drop.as_ref().map_or(b'?', |d| d.letter);
                    out.push(m.gate(code, letter, at));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counted without a list, the drops of a board past the cell sets are the listed ones, for
    /// both players, over random games: 19 × 19 Go (suicide refused) and Havannah (169 cells).
    #[test]
    fn drops_counted_without_a_list_are_the_listed_ones() {
        for name in ["go19", "havannah"] {
            let v = crate::Variant::load(name, &[]).unwrap();
            let (mut n, mut refused, mut list) = (0, 0, Vec::new());
            v.random_positions(2, 2, 400, |pos, _| {
                for side in Player::both() {
                    list.clear();
                    drops(&v.rules, pos, side, &mut list);
                    assert_eq!(count_unlisted(&v.rules, pos, side), Some(list.len()), "{name}: {}", pos.to_text(&v.rules));
                    refused += usize::from(list.len() < pos.board().iter().filter(|c| c.is_empty()).count());
                    n += 1;
                }
            });
            assert!(n > 400, "{name}: {n} positions");
            assert!(name != "go19" || refused > 0, "no suicide point met in {name}");
        }
    }
}
