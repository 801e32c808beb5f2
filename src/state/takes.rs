//! What a move takes that its text does not list: a custodian capture, groups left without a
//! liberty, a sowing's capture, a conversion. The search asks it to treat such moves as
//! captures (quiescence, move ordering); the gate that says whether a game has any of these
//! constructs is the load-time plan's (`Plan::takes_unlisted`), read by the caller.
//!
//! The answer is the kernel's own: the move is played ([`Position::make_kernel`]) and taken
//! back, and its effects counted (a sowing is sown on a copy of the counts, by the same
//! function the kernel sows with). [`Position::may_take_unlisted`] is a test on the board as it
//! stands that is false only where that count is 0 (a property test holds it so), so most
//! quiet moves are answered without being played.

use super::Position;
use crate::geometry::NONE;
use crate::notation::{Move, MoveKind};
use crate::piece::PieceCode;
use crate::rules::Ruleset;

impl Position {
    /// What `mv` takes beyond the victims it lists: enemy pieces taken by a custodian capture
    /// or with their group, seeds a sowing captures into the mover's store, and with
    /// `conversions` enemy pieces converted. Played by the kernel and taken back (the position
    /// is left as it was). A listed victim is not counted; a script's `after_move` is not run.
    pub(crate) fn unlisted_takes(&mut self, rules: &Ruleset, mv: &Move, conversions: bool) -> u32 {
        // A sowing is the kernel's own sowing on a copy of the counts (the seeds it captures
        // are all a sowing takes: nothing lands on the board).
        if mv.kind == MoveKind::Sow
            && let Some(sw) = &rules.sowing
        {
            let mut seeds: smallvec::SmallVec<[u16; 64]> = self.seeds.as_slice().into();
            let turn = self.cont.as_ref().map_or(self.side, |c| c.turn);
            return sw.sow(&mut seeds, turn, mv.from).captured;
        }
        self.unlisted_takes_made(rules, mv, conversions)
    }

    /// [`Position::unlisted_takes`] with every move played by the kernel and taken back.
    fn unlisted_takes_made(&mut self, rules: &Ruleset, mv: &Move, conversions: bool) -> u32 {
        let listed = mv.victims().filter(|&c| !self.board[c as usize].is_empty()).count() as u32;
        let fx = self.make_kernel(rules, mv);
        self.undo();
        fx.captured.saturating_sub(listed) + if conversions { fx.converted } else { 0 }
    }

    /// Whether `mv` may take or convert something it does not list, judged on the board before
    /// it: false only where [`Position::unlisted_takes`] is 0. A custodian capture, a group
    /// taken and a conversion all start next to the landing, so a piece that lands with no
    /// enemy piece on a neighbour its construct looks at takes nothing; other moves (a sowing,
    /// castling, a second part) are answered by playing them.
    pub(crate) fn may_take_unlisted(&self, rules: &Ruleset, mv: &Move, conversions: bool) -> bool {
        let code = match mv.kind {
            MoveKind::Drop { code, .. } => code,
            MoveKind::Normal | MoveKind::Promote { .. } if (mv.from as usize) < self.board.len() => {
                mv.promoted().unwrap_or(self.board[mv.from as usize])
            }
            MoveKind::Pass => return false,
            _ => return true,
        };
        let Some(to) = mv.to().filter(|_| mv.len() == 1) else { return true };
        if to == NONE || code.is_empty() {
            return true;
        }
        self.may_take_at(rules, to, code, conversions)
    }

    /// [`Position::may_take_unlisted`] for the piece `code` landing on `to`.
    fn may_take_at(&self, rules: &Ruleset, to: u16, code: PieceCode, conversions: bool) -> bool {
        let p = &rules.pieces[code.index()];
        let enemy = |c: u16| c != NONE && self.board[c as usize].is_of(code.owner().other());
        if let Some(cu) = &p.custodian {
            // (A shieldwall's row starts beside the landing too, but it is rare: played.)
            if cu.shieldwall.is_some() || cu.next.iter().any(|n| enemy(n[to as usize])) {
                return true;
            }
        }
        // A group taken has no liberty left once the piece lands: its piece next to the landing
        // then has no empty neighbour but the landing.
        if let Some(l) = &p.liberties
            && l.n.of(to).iter().any(|&c| enemy(c) && l.n.of(c).iter().all(|&e| e == NONE || e == to || !self.board[e as usize].is_empty()))
        {
            return true;
        }
        if conversions
            && let Some(cv) = &p.convert
            && cv.converts_any(&self.board, to, code.owner())
        {
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// What the move written `text` takes that it does not list, in `position`, and whether the
    /// test on the board before it lets it through; the position is left as it was.
    fn takes(v: &Variant, position: &str, text: &str) -> (u32, bool) {
        let mut pos = Position::from_text(&v.rules, position).unwrap();
        let before = pos.clone();
        let m = v.find_move(&mut pos, text).unwrap();
        assert!(!m.is_capture(), "{text} lists no victim");
        let n = pos.unlisted_takes(&v.rules, &m, true);
        assert_eq!(pos, before, "{text}: taken back");
        (n, pos.may_take_unlisted(&v.rules, &m, true))
    }

    #[test]
    fn a_custodian_capture_takes_and_a_quiet_move_does_not() {
        let v = Variant::load("brandubh", &[]).unwrap();
        assert!(v.plan.takes_unlisted);
        // c4-c1 takes the defender on b1 against the corner a1.
        let at = "7/5K1/7/2A4/7/7/1D5 black";
        assert_eq!(takes(&v, at, "c4-c1"), (1, true));
        assert_eq!(takes(&v, at, "c4-c2").0, 0);
        // Far from every enemy piece: refused on the board alone.
        assert_eq!(takes(&v, at, "c4-g4"), (0, false));
        // Moving in between two enemies takes nothing (only the mover captures).
        assert_eq!(takes(&v, "7/5K1/2D4/7/1A1A3/7/7 white", "c5-c3").0, 0);
    }

    #[test]
    fn a_stone_on_the_last_liberty_takes_the_group() {
        let v = Variant::load("go", &[]).unwrap();
        assert!(v.plan.takes_unlisted);
        assert_eq!(takes(&v, "9/9/9/9/9/9/9/9/OX7 black", "@a2"), (1, true));
        // Next to the white stone, which keeps a liberty: nothing, and the test on the board
        // says so without playing it.
        assert_eq!(takes(&v, "9/9/9/9/9/9/9/9/O8 black", "@b1"), (0, false));
        assert_eq!(takes(&v, "9/9/9/9/9/9/9/9/OX7 black", "@e5"), (0, false));
    }

    #[test]
    fn a_sowing_that_ends_in_a_capture_takes_seeds() {
        let v = Variant::load("kalah", &[]).unwrap();
        assert!(v.plan.takes_unlisted);
        // b1's seed lands in the empty c1: it and the five opposite are taken (6 seeds).
        assert_eq!(takes(&v, "7/7 south 0 seeds=1,0,3,3,3,3,5,4,4,4,4,5,4,5", "b1").0, 6);
        // The same with the pit opposite empty: nothing.
        assert_eq!(takes(&v, "7/7 south 0 seeds=1,0,3,3,3,3,10,4,4,4,4,0,4,5", "b1").0, 0);
    }

    #[test]
    fn the_ai_section_may_turn_implicit_takes_off() {
        use crate::rules::eval::ImplicitTakes;
        assert_eq!(Variant::load("brandubh", &[]).unwrap().rules.eval.implicit_takes, ImplicitTakes::Captures);
        for (word, x) in [("none", ImplicitTakes::None), ("all", ImplicitTakes::All), ("captures", ImplicitTakes::Captures)] {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("variant.toml"), format!("extends = \"brandubh\"\n[ai]\nimplicit_takes = \"{word}\"\n"))
                .unwrap();
            let v = Variant::load(dir.path().to_str().unwrap(), &[]).unwrap();
            assert_eq!((v.rules.eval.implicit_takes, v.plan.takes_unlisted), (x, true));
        }
    }

    #[test]
    fn games_without_implicit_takes_say_so() {
        for name in ["chess", "checkers", "shogi", "amazons", "connect-four", "lielow"] {
            assert!(!Variant::load(name, &[]).unwrap().plan.takes_unlisted, "{name}");
        }
        for name in ["brandubh", "hnefatafl", "go", "go19", "kalah", "oware"] {
            assert!(Variant::load(name, &[]).unwrap().plan.takes_unlisted, "{name}");
        }
        // Conversions are told apart: they are counted only where the variant asks.
        for name in ["othello", "ataxx"] {
            let p = Variant::load(name, &[]).unwrap().plan;
            assert!(p.converts && !p.takes_unlisted, "{name}");
        }
    }

    /// Over random games (fixed seeds) of every game with implicit takes, for every legal move:
    /// the count is the kernel's, played (a sowing is counted on a copy of the seeds), and
    /// what the board shows (the opponent's pieces before and after a full make; a sowing's
    /// captured seeds are the kernel's own count), and the test on the board before the move
    /// is false only where the count is 0.
    #[test]
    fn the_board_test_never_misses_a_take() {
        use rand::RngExt;
        let mut seen = 0;
        for name in ["brandubh", "hnefatafl", "go", "othello", "ataxx", "kalah", "oware"] {
            let v = Variant::load(name, &[]).unwrap();
            let sows = v.rules.sowing.is_some();
            for seed in 0..6 {
                let mut rng = crate::ai::rng(seed);
                let mut pos = v.start();
                let mut moves = Vec::new();
                for _ in 0..120 {
                    v.legal_moves(&mut pos, &mut moves).unwrap();
                    if moves.is_empty() || pos.result().is_some() {
                        break;
                    }
                    for m in moves.iter().filter(|m| !m.is_capture()) {
                        let n = pos.unlisted_takes(&v.rules, m, true);
                        assert_eq!(n, pos.unlisted_takes_made(&v.rules, m, true), "{name}: {}", m.text(&v.rules.geometry));
                        if !sows {
                            let opp = pos.side().other();
                            let before = pos.counts()[opp];
                            v.make(&mut pos, m).unwrap();
                            let after = pos.counts()[opp];
                            pos.undo();
                            assert_eq!(n > 0, after < before, "{name}: {}", m.text(&v.rules.geometry));
                        }
                        if n > 0 {
                            seen += 1;
                            assert!(pos.may_take_unlisted(&v.rules, m, true), "{name}: {} takes {n}", m.text(&v.rules.geometry));
                        }
                    }
                    let m = moves[rng.random_range(0..moves.len())];
                    v.make(&mut pos, &m).unwrap();
                }
            }
        }
        assert!(seen > 1000, "{seen} takes seen");
    }
}
