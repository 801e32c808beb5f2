//! The ko rule (`[rules] ko`): a move that brings back an earlier position is refused, the
//! position after it compared with the repetition history by its key. A drop under the
//! liberty rule has its key computed without making it (the groups it takes); any other move
//! is made by the kernel and taken back.

use super::Variant;
use crate::movegen::MoveList;
use crate::notation::{Move, MoveKind};
use crate::rules::groups::Ko;
use crate::script::ScriptError;
use crate::state::Position;

impl Variant {
    /// Removes from `out[start..]` each move the ko rule refuses (a pass never is); `refused`
    /// hears why.
    pub(super) fn remove_ko(
        &self,
        pos: &mut Position,
        out: &mut MoveList,
        start: usize,
        refused: Option<&mut Vec<(Move, String)>>,
    ) -> Result<(), ScriptError> {
        let mut scratch = Vec::new();
        super::play::keep_unrefused(out, start, refused, |m, words| {
            Ok(self.ko_repeats(pos, m, &mut scratch).map(|ply| if words { self.ko_words(pos, ply) } else { String::new() }))
        })
    }

    /// The key of the position after `m` (the other player to move).
    fn key_after(&self, pos: &mut Position, m: &Move, scratch: &mut Vec<u16>) -> u64 {
        let rules = &*self.rules;
        if let Some(code) = m.dropped()
            && let Some(l) = &rules.pieces[code.index()].liberties
            && m.placed().is_none()
        {
            return pos.key_after_placement(rules, l, m.landings()[0], code, scratch);
        }
        pos.make_kernel(rules, m);
        let k = pos.hash();
        pos.undo();
        k
    }

    /// Where the ko rule refuses `m`: the ply (0 = the start) of the earlier position it brings
    /// back.
    fn ko_repeats(&self, pos: &mut Position, m: &Move, scratch: &mut Vec<u16>) -> Option<usize> {
        if self.rules.go.ko == Ko::None || m.kind == MoveKind::Pass || pos.continuation().is_some() {
            return None;
        }
        let key = self.key_after(pos, m, scratch);
        self.repeated(pos, key)
    }

    /// Where the position of key `key`, reached by a move of the player to decide in `pos`,
    /// is one the ko rule forbids: the ply of the earlier position it repeats.
    fn repeated(&self, pos: &Position, key: u64) -> Option<usize> {
        let ko = self.rules.go.ko;
        let z = &self.rules.zobrist;
        let me = pos.side();
        // The same position with the mover to move instead.
        let turned = key ^ z.side[me.index()] ^ z.side[me.other().index()];
        let h = pos.history();
        let n = h.len();
        match ko {
            Ko::None => None,
            Ko::Simple => (n >= 2 && h[n - 2] == key).then(|| n - 2),
            Ko::Situational => h.iter().position(|&x| x == key),
            Ko::Positional => h.iter().position(|&x| x == key || x == turned),
        }
    }

    /// The reference mode's ko rule: each move of `out[start..]` but a pass played in full by
    /// the kernel, and refused where the position after it repeats one the rule forbids.
    pub(super) fn reference_ko(&self, pos: &mut Position, out: &mut MoveList, start: usize) {
        if self.rules.go.ko == Ko::None || pos.continuation().is_some() {
            return;
        }
        let mut kept = start;
        for i in start..out.len() {
            let m = out[i];
            let refused = m.kind != MoveKind::Pass && {
                pos.make_kernel(&self.rules, &m);
                let key = pos.hash();
                pos.undo();
                self.repeated(pos, key).is_some()
            };
            if !refused {
                out[kept] = m;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Why a move the ko rule refuses is illegal (`ply`: the earlier position it brings back,
    /// counted from the history's start).
    fn ko_words(&self, pos: &Position, ply: usize) -> String {
        let ago = pos.history().len() - ply;
        match self.rules.go.ko {
            Ko::Simple => "it would take back the ko at once: the board would be as it was before the opponent's last move (ko)".into(),
            Ko::Positional => {
                format!("it would bring back the board of {ago} plies ago: positional superko forbids repeating any earlier board")
            }
            _ => {
                format!("it would bring back the position of {ago} plies ago, with the same player to move: situational superko forbids it")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// The key a drop's ko test computes from the board is the key the kernel's make leaves,
    /// for every legal drop (captures and all) along random games of Go; and the ko test
    /// refuses the immediate retake of a ko.
    #[test]
    fn the_key_after_a_placement_is_the_key_after_the_move() {
        let v = Variant::load("go", &[]).unwrap();
        let mut rng = crate::ai::rng(7);
        let (mut checked, mut captures) = (0, 0);
        let mut scratch = Vec::new();
        for _ in 0..6 {
            let mut pos = v.start();
            let mut moves = Vec::new();
            for _ in 0..160 {
                v.legal_moves(&mut pos, &mut moves).unwrap();
                if moves.is_empty() {
                    break;
                }
                for m in moves.iter().filter(|m| m.kind != MoveKind::Pass) {
                    let l = v.rules.pieces[m.dropped().unwrap().index()].liberties.as_ref().unwrap();
                    let key = pos.key_after_placement(&v.rules, l, m.landings()[0], m.dropped().unwrap(), &mut scratch);
                    let before = pos.counts();
                    pos.make_kernel(&v.rules, m);
                    assert_eq!(key, pos.hash(), "{}", m.text(&v.rules.geometry));
                    captures += usize::from(pos.counts()[pos.side()] < before[pos.side()]);
                    pos.undo();
                    checked += 1;
                }
                let m = moves[rng.random_range(0..moves.len())];
                v.make(&mut pos, &m).unwrap();
            }
        }
        assert!(checked > 10_000 && captures > 50, "{checked} drops, {captures} captures");
    }

    #[test]
    fn the_immediate_retake_of_a_ko_is_refused_and_a_later_one_is_not() {
        let v = Variant::load("go", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "9/9/9/9/9/9/9/1XO6/X1XO5 white").unwrap();
        v.play(&mut pos, "@b1").unwrap();
        let e = v.play(&mut pos, "@c1").unwrap_err().to_string();
        assert!(e.contains("superko"), "{e}");
        for m in ["@e5", "@e6", "@c1"] {
            v.play(&mut pos, m).unwrap();
        }
    }
}
