//! The pie rule (`[rules] pie = true`, issue 51 part 3): the second player's first move may be
//! `swap`, which takes over the first player's move: every piece on the board changes owner
//! (and each player's counters change places), so that the player who swapped now holds what
//! the first player built, and the first player moves next. With `pie_mirror = "diagonal"`
//! each swapped piece also moves to the cell mirrored across the a1 diagonal (file ↔ rank):
//! where the two players' goals are mirror images across it (Hex: one joins the top and
//! bottom, the other the left and right), the swap is then exactly an exchange of sides.
//!
//! The swap is offered while the position is one ply from the start (`ply` 1, the second
//! player to move, no turn going on): the position line's ply says so, and the hash holds it.

use super::raw::RawRules;
use super::validate::context::{R, V};
use crate::geometry::Geometry;

/// The pie rule, read.
#[derive(Clone, Debug)]
pub(crate) struct Pie {
    /// Per cell, where its piece goes on a swap (`None`: it stays).
    pub(crate) mirror: Option<Vec<u16>>,
}

/// `[rules] pie` and `pie_mirror`, if declared and on.
pub(super) fn stage_pie(v: &V, g: &Geometry) -> R<Option<Pie>> {
    let Some(r) = &v.m.rules else { return Ok(None) };
    let (f, raw): (usize, &RawRules) = (r.file, &r.val);
    let on = match &raw.pie {
        Some(p) => v.setting(f, p)?,
        None => false,
    };
    let Some(m) = &raw.pie_mirror else {
        return Ok(on.then_some(Pie { mirror: None }));
    };
    let diagonal = match m.get_ref().as_str() {
        "none" => false,
        "diagonal" => true,
        other => {
            let err = v.err(f, m.span(), format!("`{other}` is not a pie mirror"), "here");
            return Err(err.with_help("expected none (the pieces stay) or diagonal (file and rank exchanged: a1 stays, b1 goes to a2)"));
        }
    };
    if !on {
        let err = v.err(f, m.span(), "`pie_mirror` says where the pie rule's swap puts the pieces", "but `pie` is not on");
        return Err(err.with_help("add pie = true"));
    }
    if !diagonal {
        return Ok(Some(Pie { mirror: None }));
    }
    let mut mirror = Vec::with_capacity(g.len());
    for c in g.cells() {
        let (x, y) = g.coords(c);
        let Some(t) = g.at(y as i32, x as i32) else {
            let msg = format!("{} has no mirror across the a1 diagonal on this board", g.name(c));
            let err = v.err(f, m.span(), msg, "here");
            return Err(err.with_help(
                "a diagonal mirror needs a board the diagonal maps onto itself (as many files as ranks, and every mirrored cell a cell)",
            ));
        };
        mirror.push(t.0);
    }
    Ok(Some(Pie { mirror: Some(mirror) }))
}

#[cfg(test)]
mod tests {
    use crate::notation::Move;
    use crate::variant::Variant;

    /// Whether the swap is on offer is in the hash: after each ply of a Hex game (the swap
    /// taken or not) the hash kept by make equals the one computed from scratch, and undo
    /// restores it; the swap is listed at ply 1 only.
    #[test]
    fn the_swap_on_offer_is_hashed() {
        let v = Variant::load("hex", &[]).unwrap();
        for line in [["@c2", "swap", "@d4"], ["@c2", "@b3", "@d4"]] {
            let mut pos = v.start();
            let mut hashes = vec![pos.hash()];
            for (ply, m) in line.iter().enumerate() {
                let mut list = crate::movegen::MoveList::new();
                v.legal_moves(&mut pos, &mut list).unwrap();
                assert_eq!(list.contains(&Move::SWAP), ply == 1, "{line:?} at ply {ply}");
                v.play(&mut pos, m).unwrap();
                let kept = pos.hash();
                pos.rehash(&v.rules);
                assert_eq!(kept, pos.hash(), "{line:?} after {m}");
                hashes.push(kept);
            }
            for _ in line {
                pos.undo();
                hashes.pop();
                assert_eq!(pos.hash(), *hashes.last().unwrap());
            }
        }
    }
}
