//! Legal moves: the compiled movement forms, capture chains and the capture policy (why a move
//! is not legal is `explain`'s).
//!
//! Generation reads only the [`Ruleset`]'s tables and the board: no strings, no allocation
//! beyond the caller's reusable move list (except a two-part turn's second part, which works on
//! a copy of the board). By concern: `forms` (a movement form's moves), `quiet` (each piece's
//! forms, two-part turns), `chains` (capture chains), `drops`, `castling`, `finish`
//! (promotion choices, the capture policy, duplicates) and `count` (counting without listing);
//! this face lists a side's moves in the order the variant defines.

mod castling;
mod chains;
mod count;
mod drops;
mod finish;
mod forms;
mod quiet;

use crate::cellset::CellSet;
use crate::notation::Move;
use crate::piece::Player;
use crate::rules::{Identity, Ruleset};
use crate::state::Position;
#[cfg(test)]
pub(crate) use castling::CastleRefusal;
pub(crate) use castling::{castle_move, castlings};

pub(crate) use chains::first_capture_among;
use chains::{Scratch, capture_chains, captures_from, start_chain};
pub(crate) use chains::{captures, captures_landing_anywhere};
pub(crate) use count::{Counted, count_moves, count_quiet_steps, count_to_pick, mobility, nth_move};
pub(crate) use drops::{drops, gatings};
use finish::dedup_from;
pub(crate) use finish::{dedup, expand_promotions, finish, late_policy, merge_same_captures, same_capture};
#[cfg(test)]
pub(crate) use quiet::quiet_first_parts;
use quiet::{captures_from_forms, quiet_from};
pub(crate) use quiet::{has_quiet_move, quiet_moves, sowings};

/// A reusable list of moves.
pub type MoveList = Vec<Move>;

/// Up to this many pieces, the listing visits every piece of the side rather than first
/// finding on the sets which of them can move.
const FEW_PIECES: u32 = 8;

/// The normal moves of the side to move under the capture policy, with no hooks: the fast path.
pub(crate) fn normal_moves(rules: &Ruleset, pos: &mut Position, out: &mut MoveList) {
    let side = pos.side();
    let start = out.len();
    sowings(rules, pos, side, out);
    let compulsory = rules.captures.compulsory;
    let mut s = Scratch::new();
    // One pass over the board: each piece's captures, then (unless a capture is already known
    // to be compulsory) its other moves. Where some form captures by landing (chess pieces),
    // those moves are listed with the quiet ones, so every piece's are listed and the policy
    // sorts them out at the end.
    let mut first_capture = usize::MAX;
    let mut landing_capture = false;
    let skip_quiet = |first: usize| compulsory && first != usize::MAX && !rules.landing_captures;
    let (jumpers, mut visit) = pieces_to_visit(rules, pos, side);
    if let Some(j) = jumpers
        && j != 0
        && compulsory
        && !rules.landing_captures
    {
        capture_chains(rules, pos, side, j, &mut s, out);
        if rules.captures.maximum || rules.dedup {
            finish(rules, out, start);
        } else if rules.captures.identity == Identity::CapturedSet {
            merge_same_captures(out, start);
        }
        return;
    }
    let mut next = 0;
    loop {
        let from = match &mut visit {
            Some(bits) => match bits.pop_first() {
                Some(from) => from,
                None => break,
            },
            None => match pos.next_cell_of(side, next) {
                Some(from) => from,
                None => break,
            },
        };
        next = from as usize + 1;
        let code = pos.board()[from as usize];
        let before = out.len();
        match jumpers {
            None => captures_from(rules, pos.board_scratch(), side, from, code, &mut s, out),
            Some(j) if j >> from & 1 != 0 => start_chain(rules, pos.board_scratch(), side, from, code, &mut s, out),
            Some(_) => {}
        }
        if out.len() > before && first_capture == usize::MAX {
            first_capture = before;
        }
        match () {
            // Once a capture by landing is known to be compulsory, the later pieces' other
            // moves are not listed (the policy would drop them).
            _ if landing_capture && !rules.pieces[code.index()].thens.iter().any(Option::is_some) => {
                captures_from_forms(rules, pos, from, code, out);
            }
            _ if !skip_quiet(first_capture) => {
                let q = out.len();
                quiet_from(rules, pos, from, code, out, true);
                landing_capture |= compulsory && rules.landing_captures && out[q..].iter().any(Move::is_capture);
            }
            _ => {}
        }
        if rules.dedup {
            // Duplicates can only come from one piece's forms: dedup this piece's moves.
            dedup_from(out, before);
        }
    }
    close_list(rules, pos, out, start, first_capture, landing_capture);
}

/// Which pieces of `side` [`normal_moves`] looks at, where the cell sets say: those that can
/// jump (only their chains are looked for; when a capture is compulsory, the other moves are
/// not listed at all), and the cells to visit, those that can move at all. `(None, None)`:
/// every piece, each tried for chains.
#[inline(always)]
fn pieces_to_visit(rules: &Ruleset, pos: &Position, side: Player) -> (Option<u128>, Option<CellSet>) {
    match rules.setwise.as_ref().and_then(|sw| Some((sw, sw.sets(pos)?))) {
        Some((sw, sets)) => {
            let j = sw.jumpers(&sets, side);
            // (With a handful of pieces, visiting each costs less than finding which can move.)
            let few = sw.pieces_move && pos.counts()[side] <= FEW_PIECES;
            (j, j.map(|j| CellSet::from_bits(j | if few { pos.occupied(side) } else { sw.movers(&sets, side) })))
        }
        None => (None, None),
    }
}

/// The end of [`normal_moves`]: the drops (unless a capture is compulsory and there is one),
/// then the capture policy on `out[start..]` (`first_capture`: where the first capture was
/// listed, `usize::MAX` if none; `landing_capture`: a capture by landing is compulsory).
#[inline(always)]
fn close_list(rules: &Ruleset, pos: &Position, out: &mut MoveList, start: usize, first_capture: usize, landing_capture: bool) {
    let compulsory = rules.captures.compulsory;
    if !(compulsory && (first_capture != usize::MAX || landing_capture)) {
        drops(rules, pos, pos.side(), out);
    }
    if first_capture == usize::MAX && !landing_capture {
        return; // no capture: no policy to apply
    }
    if first_capture == start && compulsory && !rules.captures.maximum && !rules.landing_captures {
        // Captures were found before any other move: the list holds only captures.
        let mut w = start;
        for r in start..out.len() {
            if out[r].is_capture() {
                out[w] = out[r];
                w += 1;
            }
        }
        out.truncate(w);
        if rules.captures.identity == Identity::CapturedSet {
            merge_same_captures(out, start);
        }
        return;
    }
    finish(rules, out, start);
}

#[cfg(test)]
mod tests {
    use super::chains::{Tally, count_chains_from};
    use super::count::count_quiet_first_parts;
    use super::drops::count_drops;
    use super::*;
    use crate::geometry::ZoneSet;
    use crate::variant::Variant;

    fn texts(v: &Variant, pos: &mut Position) -> Vec<String> {
        let mut out = Vec::new();
        v.legal_moves(pos, &mut out).unwrap();
        let mut t: Vec<String> = out.iter().map(|m| m.text(&v.rules.geometry)).collect();
        t.sort();
        t
    }

    /// The mobility count, form by form, is the length of the list it stands for, over random
    /// games of every kind of form (steps, slides, hops, leaps by level, walks, two-part turns,
    /// drops, leaving the board).
    /// A piece whose quiet forms are all steps (plain, or capturing by landing) lists its moves
    /// from one table: the same moves in the same order as its forms generate them one by one.
    #[test]
    fn steps_list_what_the_forms_generate() {
        use rand::RngExt;
        let (mut plain, mut landing) = (0, 0);
        for name in ["checkers", "international", "basileus", "breakthrough", "dobutsu", "chess", "minishogi"] {
            let v = Variant::load(name, &[]).unwrap();
            let mut rng = crate::ai::rng(6);
            let mut pos = v.start();
            let (mut moves, mut fast, mut slow) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..80 {
                for from in 0..pos.board().len() as u16 {
                    let code = pos.board()[from as usize];
                    if code.is_empty() || v.rules.pieces[code.index()].steps.is_none() {
                        continue;
                    }
                    plain += 1;
                    fast.clear();
                    slow.clear();
                    quiet_from(&v.rules, &pos, from, code, &mut fast, true);
                    for f in &v.rules.pieces[code.index()].quiet {
                        f.generate(&v.rules.geometry, pos.view(), from, ZoneSet::EMPTY, &mut slow);
                    }
                    assert_eq!(fast, slow, "{name}: {from} at {}", pos.to_text(&v.rules));
                    landing += fast.iter().filter(|m| m.is_capture()).count();
                }
                v.legal_moves(&mut pos, &mut moves).unwrap();
                if moves.is_empty() {
                    break;
                }
                v.make(&mut pos, &moves[rng.random_range(0..moves.len())]).unwrap();
            }
        }
        assert!(plain > 1000, "only {plain} pieces with steps");
        assert!(landing > 100, "only {landing} captures by landing listed from the tables");
    }

    #[test]
    fn counted_quiet_moves_are_the_listed_ones() {
        use rand::RngExt;
        for name in [
            "lielow",
            "lielow-ludii",
            "bivouac",
            "pyramida",
            "basileus",
            "amazons",
            "grasshopper",
            "xiangqi",
            "minishogi",
            "othello",
            "chess",
        ] {
            let v = Variant::load(name, &[]).unwrap();
            let mut rng = crate::ai::rng(5);
            let mut pos = v.start();
            let (mut moves, mut list, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..80 {
                for p in [Player::FIRST, Player::SECOND] {
                    list.clear();
                    quiet_first_parts(&v.rules, &pos, p, &mut list);
                    assert_eq!(count_quiet_first_parts(&v.rules, &pos, p, &mut scratch), list.len(), "{name} at {}", pos.to_text(&v.rules));
                }
                v.legal_moves(&mut pos, &mut moves).unwrap();
                if moves.is_empty() {
                    break;
                }
                v.make(&mut pos, &moves[rng.random_range(0..moves.len())]).unwrap();
            }
        }
    }

    /// Over random games in every shipped variant (and the options that change how pieces
    /// move or capture), a move count, where there is one, is the length of the legal move
    /// list; and the games whose forms are more than plain steps are counted, not listed.
    #[test]
    fn a_count_is_the_length_of_the_legal_list_and_a_pick_its_move() {
        let set = |pairs: &[(&str, &str)]| pairs.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        let mut cases: Vec<(String, Vec<(String, String)>)> = crate::variant::shipped_names().into_iter().map(|n| (n, vec![])).collect();
        for (name, options) in [
            ("bivouac", set(&[("slide", "one_hop")])),
            ("bivouac", set(&[("capture_from_run", "true"), ("captures", "compulsory_maximal")])),
            ("lielow", set(&[("off_board", "one_beyond"), ("off_board_moves", "per_direction")])),
            ("basileus", set(&[("capture_choice", "maximum")])),
        ] {
            cases.push((name.to_string(), options));
        }
        for (name, options) in &cases {
            let v = Variant::load(name, options).unwrap();
            let (mut counted, mut captures, mut picked) = (0, 0, 0);
            let (mut shares, mut scratch) = (Counted::default(), Vec::new());
            v.random_positions(17, 8, 150, |pos, moves| {
                let at = pos.to_text(&v.rules);
                if let Some(n) = v.count_moves(pos) {
                    assert_eq!(n, moves.len() as u64, "{name} {options:?} at {at}");
                    counted += 1;
                    captures += moves.iter().any(Move::is_capture) as u32;
                }
                // A pick by index from the pieces' counts is the list's move at that index.
                if v.count_to_pick(pos, &mut shares) {
                    assert_eq!(shares.n, moves.len() as u64, "{name} {options:?} at {at}");
                    assert_eq!(v.counts_every_kernel_move(&shares), v.lists_every_kernel_move(pos, moves), "{name} at {at}");
                    // Every move of a short list; of a long one (Amazons' hundreds), about a
                    // hundred spread over it, and the last.
                    let step = moves.len().div_ceil(100);
                    for i in (0..moves.len()).step_by(step).chain([moves.len() - 1]) {
                        assert_eq!(v.nth_move(pos, &shares, i as u64, &mut scratch), moves[i], "{name} {options:?} move {i} at {at}");
                    }
                    assert_eq!(pos.to_text(&v.rules), at, "a pick leaves the position as it was");
                    picked += 1;
                }
            });
            // Picks are made where no hook lists moves, the most pieces need not be taken, no
            // chains merge and no jump flies: in these games' default rules among others (in
            // antichess form by form, with its promotion choices and compulsory captures).
            if options.is_empty()
                && matches!(
                    name.as_str(),
                    "checkers" | "bivouac" | "lielow" | "lielow-ludii" | "breakthrough" | "basileus" | "amazons" | "antichess"
                )
            {
                assert!(picked > 100, "{name} {options:?}: only {picked} positions picked from");
            }
            // Two-part turns (Amazons' move and arrow) are counted: each first part played, its
            // second parts counted from its landing.
            if name == "amazons" {
                assert!(counted > 100, "{name}: only {counted} positions counted");
            }
            // Slides (Bivouac's runs), leaps (Lielow's), captures by landing (Lielow) and by
            // jumping (Bivouac) are counted in these games.
            if matches!(name.as_str(), "bivouac" | "hostile-bivouac" | "lielow" | "lielow-ludii") {
                assert!(counted > 100, "{name} {options:?}: only {counted} positions counted");
                assert!(captures > 20, "{name} {options:?}: only {captures} positions with captures counted");
            }
        }
    }

    /// The counting walk (`count_chains_from`) counts what the general walker tallies, under
    /// every chain and removal policy (the shipped games use only some of the six), over random
    /// games of three games with short jumps.
    #[test]
    fn counted_chains_are_the_tallied_ones_under_every_policy() {
        use crate::rules::{Chain, Removal};
        use rand::RngExt;
        let games: Vec<Variant> = ["checkers", "basileus", "bivouac"].iter().map(|n| Variant::load(n, &[]).unwrap()).collect();
        for chain in [Chain::MustContinue, Chain::MayStop, Chain::Single] {
            for removal in [Removal::EndOfChain, Removal::Immediate] {
                let (mut pieces, mut several) = (0, 0);
                for v in &games {
                    let name = v.name();
                    assert!(v.rules.setwise.as_ref().is_some_and(|sw| sw.short_jumps), "{name}");
                    let mut rules = (*v.rules).clone();
                    (rules.captures.chain, rules.captures.removal) = (chain, removal);
                    let mut rng = crate::ai::rng(21);
                    for _ in 0..6 {
                        let mut pos = v.start();
                        let mut moves = Vec::new();
                        for _ in 0..150 {
                            let side = pos.side();
                            for from in pos.cells_of(side).collect::<Vec<_>>() {
                                let code = pos.board()[from as usize];
                                let mut t = Tally { maximum: false, best: 0, n: 0 };
                                start_chain(&rules, pos.board_scratch(), side, from, code, &mut Scratch::new(), &mut t);
                                let n = count_chains_from(&rules, pos.board_scratch(), side, from);
                                let at = v.rules.geometry.name(crate::geometry::Cell(from));
                                assert_eq!(n, t.n, "{name} {chain:?} {removal:?}: {at} in {}", pos.to_text(&v.rules));
                                pieces += (n > 0) as u32;
                                several += (n > 1) as u32;
                            }
                            v.legal_moves(&mut pos, &mut moves).unwrap();
                            if moves.is_empty() {
                                break;
                            }
                            v.make(&mut pos, &moves[rng.random_range(0..moves.len())]).unwrap();
                        }
                    }
                }
                assert!(pieces > 100 && several > 5, "{chain:?} {removal:?}: {pieces} pieces with chains, {several} with several");
            }
        }
    }

    #[test]
    fn drops_on_the_sets_are_the_cells_tested_one_by_one() {
        use crate::rules::setwise::DropSets;
        // (variant, how its rules are varied: 0 as shipped, 1 conversion of neighbours instead of
        // lines, 2 the convertible pieces read from the per-code sets)
        for (name, vary) in [("othello", 0), ("othello", 1), ("othello", 2), ("connect-four", 0), ("tic-tac-toe", 0), ("dobutsu", 0)] {
            let v = Variant::load(name, &[]).unwrap();
            let (cells, kinds) = (v.rules.geometry.len(), v.rules.kinds.len());
            let mut sets = (*v.rules).clone();
            for pr in &mut sets.pieces {
                if let Some(cv) = &mut pr.convert
                    && vary == 1
                {
                    cv.adjacent = std::mem::take(&mut cv.bracket);
                }
                if let Some(d) = &mut pr.drop {
                    d.sets = DropSets::of(d, pr.convert.as_ref(), cells, kinds);
                    if let Some(s) = &mut d.sets
                        && vary == 2
                    {
                        s.every_kind = false;
                    }
                }
            }
            assert!(sets.pieces.iter().any(|p| p.drop.as_ref().is_some_and(|d| d.sets.is_some())), "{name}");
            let mut by_cell = sets.clone();
            for pr in &mut by_cell.pieces {
                if let Some(d) = &mut pr.drop {
                    d.sets = None;
                }
            }
            let (mut found, mut scratch) = (0, Vec::new());
            v.random_positions(5, 20, 80, |pos, _| {
                for side in Player::both() {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    drops(&sets, pos, side, &mut a);
                    drops(&by_cell, pos, side, &mut b);
                    assert_eq!(a, b, "{name} ({vary}) {side:?} in {}", pos.to_text(&v.rules));
                    assert_eq!(count_drops(&sets, pos, side, &mut scratch), a.len(), "{name}");
                    found += a.len();
                }
            });
            assert!(found > 200, "{name} ({vary}): {found} drops");
        }
    }

    #[test]
    fn slides_counted_on_the_rays_are_the_slides_walked() {
        for name in ["chess", "capablanca", "amazons", "xiangqi", "grasshopper"] {
            let v = Variant::load(name, &[]).unwrap();
            let g = &v.rules.geometry;
            let (mut scratch, mut slid) = (Vec::new(), 0);
            v.random_positions(3, 6, 80, |pos, _| {
                for from in (0..pos.board().len() as u16).filter(|&c| !pos.board()[c as usize].is_empty()) {
                    for form in &v.rules.pieces[pos.board()[from as usize].index()].quiet {
                        scratch.clear();
                        form.generate(g, pos.view(), from, ZoneSet::EMPTY, &mut scratch);
                        assert_eq!(
                            form.count_listless(g, pos.view(), from),
                            Some(scratch.len()),
                            "{name} {from} in {}",
                            pos.to_text(&v.rules)
                        );
                        slid += matches!(form, crate::rules::Form::Slide { .. }) as u32 * scratch.len() as u32;
                    }
                }
            });
            assert!(slid > 1000, "{name}: {slid} slides");
        }
    }

    #[test]
    fn end_of_chain_removal_forbids_jumping_twice() {
        let v = Variant::load("checkers", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "4/4/4/4/1mm1/4/mmm1/K3 white 0").unwrap();
        assert_eq!(texts(&v, &mut pos), vec!["a1xc3xe1xg3xe5xc3", "a1xc3xe5xg3xe1xc3"]);
        let why = v.find_move(&mut pos, "a1xc3xe1xg3xe5xc3xa1").unwrap_err().to_string();
        assert!(why.starts_with("b2 was taken earlier in this capture"), "{why}");
    }

    #[test]
    fn may_stop_lists_every_prefix() {
        let v = Variant::load("bivouac", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "5O/1xxx2/6/6/6/6/4x1/2x1O1/2x3/1O4/O4x white 0").unwrap();
        let t = texts(&v, &mut pos);
        assert!(t.contains(&"b2xd4".to_string()) && t.contains(&"b2xd4xb4".to_string()));
    }

    #[test]
    fn compulsory_maximal_keeps_only_the_longest() {
        let v = Variant::load("bivouac", &[("captures".into(), "compulsory_maximal".into())]).unwrap();
        let mut pos = Position::from_text(&v.rules, "5O/1xxx2/6/6/6/6/4x1/2x1O1/2x3/1O4/O4x white 0").unwrap();
        assert_eq!(texts(&v, &mut pos), vec!["b2xd4xb4"]);
    }

    #[test]
    fn flying_jumps_pass_empty_cells_and_land_anywhere_beyond() {
        let v = Variant::load("international", &[]).unwrap();
        // The king on a1 flies over b2 and c3 to take d4, landing on e5 or f6 (g7 holds a man),
        // and from either takes g7 on the same diagonal, landing on h8, i9 or j10: six paths,
        // three moves (e5 and f6 take the same two men to the same end; e5 comes first).
        let text = "5/5/5/3m1/5/5/1m3/5/5/K4 white 0";
        let mut pos = Position::from_text(&v.rules, text).unwrap();
        assert_eq!(texts(&v, &mut pos), vec!["a1xe5xh8", "a1xe5xi9", "a1xe5xj10"]);
        let p = Variant::load("international", &[("capture_identity".into(), "path".into())]).unwrap();
        let mut pos = Position::from_text(&p.rules, text).unwrap();
        assert_eq!(texts(&p, &mut pos), vec!["a1xe5xh8", "a1xe5xi9", "a1xe5xj10", "a1xf6xh8", "a1xf6xi9", "a1xf6xj10"]);
        // Russian: the man crowned on d8 takes f6 as a flying king; the same man in
        // international draughts may not (it is crowned only where its move ends) and stops.
        let r = Variant::load("russian", &[]).unwrap();
        let mut pos = Position::from_text(&r.rules, "4/1m2/M1m1/4/4/4/3m/4 white 0").unwrap();
        assert_eq!(texts(&r, &mut pos), vec!["b6xd8xg5", "b6xd8xh4"]);
        let b = Variant::load("brazilian", &[]).unwrap();
        let mut pos = Position::from_text(&b.rules, "4/1m2/M1m1/4/4/4/3m/4 white 0").unwrap();
        assert_eq!(texts(&b, &mut pos), vec!["b6xd8"]);
    }

    #[test]
    fn captured_set_identity_merges_and_accepts_either_path() {
        let v = Variant::load("international", &[]).unwrap();
        let text = "4m/5/5/5/5/5/1mm2/1M3/1mm2/5 white 0";
        let mut pos = Position::from_text(&v.rules, text).unwrap();
        assert_eq!(texts(&v, &mut pos), vec!["c3xe1xg3xe5xc3"]);
        let kept = v.find_move(&mut pos, "c3xe1xg3xe5xc3").unwrap();
        assert_eq!(v.find_move(&mut pos, "c3xe5xg3xe1xc3").unwrap(), kept);
        let p = Variant::load("international", &[("capture_identity".into(), "path".into())]).unwrap();
        let mut pos = Position::from_text(&p.rules, text).unwrap();
        assert_eq!(texts(&p, &mut pos), vec!["c3xe1xg3xe5xc3", "c3xe5xg3xe1xc3"]);
        // The kept path is the one whose landings come first in cell order, whatever the order
        // the chains were found in.
        let (a, b) = (Move::along(0, &[5, 9, 0], &[2, 7, 3]), Move::along(0, &[4, 9, 0], &[3, 7, 2]));
        let mut list = vec![a, b];
        merge_same_captures(&mut list, 0);
        assert_eq!(list, vec![b]);
        let mut list = vec![b, a];
        merge_same_captures(&mut list, 0);
        assert_eq!(list, vec![b]);
        assert!(!same_capture(&a, &Move::along(0, &[5, 9, 1], &[2, 7, 3])));
    }

    #[test]
    fn dedup_keeps_the_first_of_each_move() {
        let a = Move::quiet(0, 1);
        let b = Move::quiet(0, 2);
        let c = Move::replace(0, 3);
        let mut list = vec![a, b, a, c, b];
        dedup_from(&mut list, 1);
        assert_eq!(list, vec![a, b, a, c]);
        // A quiet move and a capture onto one cell differ; so do moves from two cells onto one,
        // and a chain from the same cell; their twins go.
        let (d, e) = (Move::quiet(5, 1), Move::capture_at(0, 1, 9));
        let mut list = vec![a, Move::replace(0, 1), d, e, d, e, Move::replace(0, 1), a];
        dedup_from(&mut list, 0);
        assert_eq!(list, vec![a, Move::replace(0, 1), d, e]);
        // Two pieces' runs, and a run of a start cell seen before (compared one by one).
        let mut list = vec![a, b, d, a, Move::quiet(5, 2), d, b, Move::quiet(0, 4)];
        dedup_from(&mut list, 0);
        assert_eq!(list, vec![a, b, d, Move::quiet(5, 2), Move::quiet(0, 4)]);
    }

    /// Random lists of moves from a few start cells (quiet moves, captures where they land,
    /// captures elsewhere, chains; on boards of 128 cells, of 512 and past them), in runs and
    /// out of them:
    /// deduplication keeps the first of each move in order, as a plain search of the kept ones.
    #[test]
    fn dedup_is_keeping_the_first_of_each() {
        use rand::RngExt;
        let mut rng = crate::ai::rng(11);
        for _ in 0..3000 {
            let n = rng.random_range(0..40);
            let mut list: Vec<Move> = Vec::with_capacity(n);
            // Cells of a board of 128 cells, of 512, or past both.
            let far = [0, 130, 400, 600][rng.random_range(0..4)];
            while list.len() < n {
                let from = [0, 3, 7, far][rng.random_range(0..4)];
                // Sometimes a run of one start cell, sometimes a move alone.
                for _ in 0..rng.random_range(1..6) {
                    let to = [1, 2, 5, 9, far + 1][rng.random_range(0..5)];
                    let m = match rng.random_range(0..5) {
                        0 => Move::quiet(from, to),
                        1 => Move::replace(from, to),
                        2 | 3 => Move::capture_at(from, to, [4, 6, 10][rng.random_range(0..3)]),
                        _ => Move::along(from, &[to, 12], &[4, 6]),
                    };
                    list.push(m);
                }
            }
            let start = rng.random_range(0..=list.len().min(3));
            let mut plain = list[..start].to_vec();
            for &m in &list[start..] {
                if !plain[start..].contains(&m) {
                    plain.push(m);
                }
            }
            let mut fast = list.clone();
            dedup_from(&mut fast, start);
            assert_eq!(fast, plain, "{list:?} from {start}");
        }
    }

    #[test]
    fn drops_fill_empty_cells_and_fall() {
        let v = Variant::load("tic-tac-toe", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "3/1X1/O2 white 2").unwrap();
        assert_eq!(texts(&v, &mut pos), vec!["@a2", "@a3", "@b1", "@b3", "@c1", "@c2", "@c3"]);
        let v = Variant::load("connect-four", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "7/7/7/7/2d4/2D4 white 2").unwrap();
        assert_eq!(texts(&v, &mut pos), vec!["@a1", "@b1", "@c3", "@d1", "@e1", "@f1", "@g1"]);
        let why = |pos: &mut Position, t: &str| v.find_move(pos, t).unwrap_err().to_string();
        assert_eq!(why(&mut pos, "@c5"), "drops fall: a disc dropped in column c lands on c3");
        assert_eq!(why(&mut pos, "@c2"), "c2 is occupied");
        assert_eq!(why(&mut pos, "Q@a1"), "white has no piece written Q to drop (its drops: D@)");
        assert_eq!(v.find_move(&mut pos, "d@C3").unwrap().text(&v.rules.geometry), "@c3");
    }

    #[test]
    fn lines_win_and_a_full_board_draws() {
        let v = Variant::load("connect-four", &[]).unwrap();
        // Three white discs on the rising diagonal a1–c3, d4 open above d1–d3.
        let mut pos = Position::from_text(&v.rules, "7/7/7/2Dd3/1Ddd3/DddD3 white 8").unwrap();
        v.play(&mut pos, "@d4").unwrap();
        assert_eq!(pos.result().unwrap().describe(&v.rules.player_names), "white wins: four in a row");
        // A line of the opponent's through the landing does not count for the mover; only the
        // mover's own discs make its line.
        let mut pos = Position::from_text(&v.rules, "7/7/7/7/7/ddd4 white 3").unwrap();
        v.play(&mut pos, "@d1").unwrap();
        assert!(pos.result().is_none());
    }

    /// How the game stands in the position `text`: its result in words, or `None` while it goes on.
    fn ended(v: &Variant, text: &str) -> Option<String> {
        let mut pos = Position::from_text(&v.rules, text).unwrap();
        v.outcome(&mut pos).unwrap().map(|o| o.describe(&v.rules.player_names))
    }

    #[test]
    fn a_tally_counts_the_kinds_it_names() {
        // tests/tally: nothing moves; stones count and walls do not.
        let v = Variant::load("tests/tally/variant.toml", &[]).unwrap();
        let over = |text: &str| ended(&v, text);
        // Two white stones against one black stone and a wall: white has more stones.
        assert_eq!(over("SSsw white 0").as_deref(), Some("white wins: neither player can move"));
        assert_eq!(over("Sssw black 0").as_deref(), Some("black wins: neither player can move"));
        // Walls do not count: one stone against none wins even against more pieces (two walls),
        // and one stone each draws whoever has a wall.
        assert_eq!(over("Sww1 white 0").as_deref(), Some("white wins: neither player can move"));
        assert_eq!(over("Wsw1 white 0").as_deref(), Some("black wins: neither player can move"));
        assert_eq!(over("SWsw white 0").as_deref(), Some("draw: neither player can move"));
    }

    /// `beside` (Basileus's two basileis): a capture that ends next to the enemy basileus loses;
    /// a quiet move there loses only under `loss_after_any_move`; a capture that ends away from
    /// it does not.
    #[test]
    fn beside_ends_the_game_next_to_the_named_kinds() {
        let result = |opts: &[(&str, &str)], text: &str, mv: &str| {
            let opts: Vec<(String, String)> = opts.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
            let v = Variant::load("basileus", &opts).unwrap();
            let mut pos = Position::from_text(&v.rules, text).unwrap();
            v.play(&mut pos, mv).unwrap();
            pos.result().map(|r| r.describe(&v.rules.player_names))
        };
        // White's basileus jumps e3 and lands on e4, beside black's on e5.
        let capture = "9/9/p8/4k4/9/4p4/4K4/P8 white";
        assert_eq!(result(&[], capture, "e2xe4").as_deref(), Some("black wins: basileus stopped beside the enemy basileus"));
        // The same capture with black's basileus on g5, two files away: the game goes on.
        assert_eq!(result(&[], "9/9/p8/6k2/9/4p4/4K4/P8 white", "e2xe4"), None);
        // A quiet step to e3, beside black's basileus on e4: only loss_after_any_move ends it.
        let quiet = "9/9/p8/9/4k4/9/4K4/P8 white";
        assert_eq!(result(&[], quiet, "e2-e3"), None);
        let any = [("king_adjacency", "loss_after_any_move")];
        assert_eq!(result(&any, quiet, "e2-e3").as_deref(), Some("black wins: basileus stopped beside the enemy basileus"));
        // Beside an enemy pawn (f5) only: not one of `of`.
        assert_eq!(result(&[], "k8/9/6p2/5p3/9/4p4/4K4/P8 white", "e2xe4"), None);
        // A pawn beside the enemy basileus is not a basileus (`kinds`).
        assert_eq!(result(&any, "9/9/p8/9/4k4/9/3P5/P7K white", "d2-e3"), None);
    }

    #[test]
    fn royal_capture_can_wait_for_the_last_royal_piece() {
        // tests/extinction: `last = true`; black has kings on b4 and a1, then only on b4.
        let v = Variant::load("tests/extinction/variant.toml", &[]).unwrap();
        let mut pos = crate::state::Position::from_text(&v.rules, "1k2/K3/4/k2K white").unwrap();
        v.play(&mut pos, "a3xb4").unwrap();
        assert_eq!(pos.result(), None, "a king is left on a1");
        let mut pos = crate::state::Position::from_text(&v.rules, "1k2/K3/4/3K white").unwrap();
        v.play(&mut pos, "a3xb4").unwrap();
        assert_eq!(pos.result().map(|r| r.describe(&v.rules.player_names)), Some("white wins: last king captured".into()));
    }

    #[test]
    fn no_moves_results_can_depend_on_an_attack() {
        // tests/checkmate: black's king on a4 is walled in by its own walls, which never move.
        let v = Variant::load("tests/checkmate/variant.toml", &[]).unwrap();
        let over = |text: &str| ended(&v, text);
        // White's knight on b2 attacks a4 (one file left, two ranks up): checkmate, a loss.
        assert_eq!(over("kw2/ww2/1N2/3K black 0").as_deref(), Some("white wins: checkmate"));
        // On c1 it attacks nothing of black's king: stalemate, the second rule, a draw.
        assert_eq!(over("kw2/ww2/4/2NK black 0").as_deref(), Some("draw: stalemate"));
        // A capture of a wall is no attack on the king: still stalemate (d2 leaps to b3).
        assert_eq!(over("kw2/ww2/3N/3K black 0").as_deref(), Some("draw: stalemate"));
        // White, with moves, is not over.
        assert_eq!(over("kw2/ww2/1N2/3K white 0"), None);
    }

    #[test]
    fn adjacent_conversion_turns_every_neighbour() {
        // tests/infection: white drops on b2 beside black stones on a1, b3, c3 (diagonal), c2
        // and a white one on c1; d4 is black but not adjacent. All four black neighbours turn.
        let v = Variant::load("tests/infection/variant.toml", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "3s/1ss1/2s1/s1S1 white 0").unwrap();
        let before = pos.clone();
        v.play(&mut pos, "@b2").unwrap();
        assert_eq!(pos.to_text(&v.rules), "3s/1SS1/1SS1/S1S1 black 1");
        pos.undo();
        assert_eq!(pos, before, "undo restores the stones' owners");
    }

    #[test]
    fn hook_filters_by_landing_zone_and_counter() {
        // tests/scripted/hook_filters: after_move runs for moves onto the far rank while the
        // mover's `crowned` counter is 0, and raises it. White men on a7 and b2, black on g3.
        let v = Variant::load("tests/scripted/hook_filters/variant.toml", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "4/M3/4/4/4/3m/M3/4 white 0").unwrap();
        let runs = |pos: &mut Position, t: &str| {
            let m = v.find_move(pos, t).unwrap();
            v.after_move_runs(pos, &m)
        };
        assert!(runs(&mut pos, "a7-b8"));
        assert!(!runs(&mut pos, "b2-a3") && !runs(&mut pos, "b2-c3"));
        v.play(&mut pos, "a7-b8").unwrap();
        assert_eq!(pos.counter(crate::piece::Player::FIRST, 0), 1, "the hook ran once");
        // With the counter at 1, a move onto the far rank no longer calls it.
        let mut pos = Position::from_text(&v.rules, "4/M3/4/4/4/3m/M3/4 white 0 counters=crowned:1:0").unwrap();
        assert!(!runs(&mut pos, "a7-b8"));
    }

    #[test]
    fn explanations_name_the_rule() {
        let v = Variant::load("basileus", &[]).unwrap();
        let mut pos = Position::from_text(&v.rules, "9/4k4/9/4p4/4P4/9/4K4/9 white 0").unwrap();
        let why = |pos: &mut Position, t: &str| v.find_move(pos, t).unwrap_err().to_string();
        assert_eq!(why(&mut pos, "e2-d3"), "capture is compulsory (e4xe6xe8 is available)");
        assert_eq!(why(&mut pos, "e4xe6"), "the capture must go on while it can (e4xe6xe8)");
        assert_eq!(why(&mut pos, "d4-d5"), "there is no piece on d4");
        assert!(why(&mut pos, "e7-e6").starts_with("e7 holds a black basileus"));
    }
}
