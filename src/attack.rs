//! The attack query: which piece of a side could capture the piece on a cell, on a given board
//! (its occupancy and pieces, so a caller can ask with a piece lifted or put down without
//! playing a move). Check and the check test after a move, castling's crossed cells, the
//! `if_attacked` and `safe` end conditions and the scripts' `attacked()` all ask it.
//!
//! The answer is what generating `by`'s captures would find (the kernel's forms and capture
//! chains, en passant included, hooks aside): the reverse tables of [`crate::rules::attacks`]
//! answer for the piece codes they hold; the codes they cannot hold (decided once at load,
//! [`Attacks::complex`](crate::rules::attacks::Attacks::complex)) are tried by generating the
//! captures of those pieces whose reach ([`Ruleset::attack_reach`]) meets the cell, and so is
//! every piece when the cell holds the pawn an en passant capture would take. Where every
//! capture explodes, a capture that would take one of the captor's own royal pieces with it is
//! no threat.

use crate::movegen::{self, MoveList};
use crate::piece::PieceCode;
use crate::piece::Player;
use crate::rules::attacks::Among;
use crate::rules::{BoardView, Explode, Ruleset};

thread_local! {
    /// The generated captures' buffers (a board copy and a move list), kept between queries so
    /// that the query allocates nothing once they have grown (a nested query gets fresh ones).
    static SCRATCH: std::cell::Cell<(Vec<PieceCode>, MoveList)> = const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

/// What a caller already knows of the attacking side's pieces, to spare the query work.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Known {
    /// Supersets of the cells of its pieces and of its plain sliders (see [`Among`]).
    pub(crate) among: Among,
    /// Whether it may have a piece of a complex code on the board (`false`: certainly none,
    /// the tables are the whole answer).
    pub(crate) complex: bool,
}

impl Known {
    /// Nothing known.
    pub(crate) const NOTHING: Known = Known { among: Among::ANY, complex: true };
}

/// The cell of a piece of `by` that could capture the piece on `at` in `view` (were `by` to
/// move there), if there is one; `None` on an empty cell or one of `by`'s own pieces (captures
/// take enemy pieces only). Which attacker is named, where several are, is fixed: the tables'
/// first (steps and leaps, then slides along each direction, hops, screens), then the leaps
/// by an attribute's distance, then the first complex piece in cell order.
pub(crate) fn attacker(rules: &Ruleset, view: BoardView, by: Player, at: u16) -> Option<u16> {
    attacker_known(rules, view, by, at, Known::NOTHING)
}

/// [`attacker`], with what the caller knows of `by`'s pieces.
pub(crate) fn attacker_known(rules: &Ruleset, view: BoardView, by: Player, at: u16, known: Known) -> Option<u16> {
    match &rules.captures.explode {
        None => plain_attacker(rules, view, by, at, known),
        Some(x) => exploding_attacker(rules, x, view, by, at, known),
    }
}

/// [`attacker_known`] where every capture explodes (`[captures] explode`): a capture that would
/// take one of `by`'s own royal pieces with it is no threat, so there is none where one stands
/// on a neighbour of `at` that the blast reaches, and a royal piece never threatens (it goes
/// with its own blast): the other pieces' captures are asked then.
fn exploding_attacker(rules: &Ruleset, x: &Explode, view: BoardView, by: Player, at: u16, known: Known) -> Option<u16> {
    let royal = rules.royal_codes[by];
    if x.reaches(view.board, at, royal) {
        return None;
    }
    let src = plain_attacker(rules, view, by, at, known)?;
    if royal >> view.board[src as usize].index() & 1 == 0 {
        return Some(src);
    }
    let tried = |c: &u16| {
        let code = view.board[*c as usize];
        code.is_of(by) && royal >> code.index() & 1 == 0
    };
    let (mut board, mut moves) = SCRATCH.take();
    let cells = 0..rules.geometry.len() as u16;
    let found = movegen::first_capture_among(rules, view, by, &mut board, &mut moves, cells.filter(tried), |c| c == at);
    SCRATCH.set((board, moves));
    found.map(|m| m.from)
}

/// [`attacker_known`] where a capture takes only what it captures.
fn plain_attacker(rules: &Ruleset, view: BoardView, by: Player, at: u16, known: Known) -> Option<u16> {
    let victim = view.board[at as usize];
    if victim.is_empty() || victim.owner() == by {
        return None;
    }
    let t = &rules.attacks;
    if let Some(src) = t.attacker_among(&rules.geometry, view.board, at, victim, known.among) {
        return Some(src);
    }
    // (Without a complex piece, no attributed one either.)
    if known.complex
        && let Some(src) = t.attribute_attacker(&view, at, victim)
    {
        return Some(src);
    }
    // En passant takes a piece off a cell other than its landing: no table holds it.
    let en_passant = view.en_passant[1] == at;
    let generated = t.complex & !t.attributed;
    if (!known.complex || generated == 0) && !en_passant {
        return None;
    }
    let g = rules.geometry.len();
    // (Where the reach table is kept, the board has at most 128 cells.)
    let reach = |code: PieceCode, c: u16| rules.attack_reach.is_empty() || rules.reach_of(code, c) >> at & 1 != 0;
    let tried = |c: &u16| {
        let code = view.board[*c as usize];
        code.is_of(by) && (en_passant || generated >> code.index() & 1 != 0) && reach(code, *c)
    };
    let (mut board, mut moves) = SCRATCH.take();
    let found = movegen::first_capture_among(rules, view, by, &mut board, &mut moves, (0..g as u16).filter(tried), |c| c == at);
    SCRATCH.set((board, moves));
    found.map(|m| m.from)
}

#[cfg(test)]
mod tests {
    use super::attacker;
    use crate::Variant;
    use crate::movegen;
    use crate::notation::Move;
    use crate::piece::Player;
    use crate::state::Position;

    /// The reference: whether some pseudo-legal move of `by` (every move its forms and chains
    /// make, were it to move in `pos`) takes the piece on `at`.
    fn generated(v: &Variant, pos: &mut Position, by: Player, at: u16) -> bool {
        let z = &v.rules.zobrist;
        let side = pos.side();
        pos.set_side(z, by);
        let mut moves = Vec::new();
        movegen::normal_moves(&v.rules, pos, &mut moves);
        pos.set_side(z, side);
        moves.iter().any(|m: &Move| m.victims().any(|c| c == at))
    }

    /// Random positions of `name` (fixed seed): `each` sees every one reached.
    fn walk(name: &str, games: usize, mut each: impl FnMut(&Variant, &mut Position)) {
        let v = Variant::load(name, &[]).unwrap();
        v.random_positions(11, games, 80, |pos, _| each(&v, pos));
    }

    /// The variants whose check, castling or end conditions ask the query (Lielow's evaluation
    /// asks it of its leaps by an attribute's distance).
    const ASKED: [&str; 13] = [
        "chess",
        "capablanca",
        "xiangqi",
        "janggi",
        "shatranj",
        "minishogi",
        "dobutsu",
        "grasshopper",
        "nightrider",
        "pawnsideways",
        "basileus",
        "antichess",
        "lielow",
    ];

    /// Over random games, for every piece on the board and both sides: the query names an
    /// attacker (one of `by`'s pieces) exactly when some pseudo-legal move of `by` takes it.
    /// Covers steps, leaps and slides, hops (grasshopper), screens and lame leaps (xiangqi),
    /// slides along a path zone, screens that move too and refuse kinds, leaps blocked along
    /// their path (janggi), leaps whose distance is an attribute (Lielow),
    /// forms the tables leave to generation (xiangqi's elephants and advisors, the drops'
    /// games), en passant, and pieces of the side itself (never attacked by it).
    #[test]
    fn the_query_is_what_generated_captures_find() {
        for name in ASKED {
            let (mut checked, mut attacked) = (0, 0);
            walk(name, 10, |v, pos| {
                for at in 0..pos.board().len() as u16 {
                    for by in [Player::FIRST, Player::SECOND] {
                        let found = attacker(&v.rules, pos.view(), by, at);
                        let text = pos.to_text(&v.rules);
                        assert_eq!(found.is_some(), generated(v, pos, by, at), "{name}: {text}: {at} attacked by {by:?}");
                        if let Some(src) = found {
                            assert!(pos.board()[src as usize].is_of(by), "{name}: {text}: the attacker is {by:?}'s");
                            attacked += 1;
                        }
                        checked += 1;
                    }
                }
            });
            assert!(attacked > 50 && attacked < checked, "{name}: {attacked} of {checked}");
        }
    }

    /// Castling is refused exactly when the king stands attacked or a cell it crosses would be
    /// attacked with the king there (the reference plays the king there on the position and
    /// generates the opponent's moves), over random games with castling. (Its landing is the
    /// check rule's.)
    #[test]
    fn castling_refuses_exactly_the_attacked_crossings() {
        use crate::movegen::{CastleRefusal, castle_move};
        for name in ["chess", "capablanca", "grasshopper", "nightrider", "pawnsideways"] {
            let (mut crosses, mut castles) = (0, 0);
            walk(name, 40, |v, pos| {
                let Some(c) = v.rules.castling.as_ref() else { return };
                for side in 0..2 {
                    let refusal = castle_move(&v.rules, pos, side);
                    let me = pos.side();
                    let text = pos.to_text(&v.rules);
                    match refusal {
                        Ok(m) => {
                            castles += 1;
                            let g = &v.rules.geometry;
                            let rank = g.coords(crate::Cell(m.from)).1 as i32;
                            let king_to = g.at(c.sides[side].unwrap().0 as i32, rank).unwrap().0;
                            for cell in crossed(v, m.from, king_to) {
                                assert!(!king_attacked_on(v, pos, m.from, cell, me), "{name}: {text}: castles across {cell}");
                            }
                        }
                        Err(CastleRefusal::InCheck(_)) => assert!(generated(v, pos, me.other(), king_of(v, pos, me))),
                        Err(CastleRefusal::Crosses(cell, by)) => {
                            crosses += 1;
                            assert!(pos.board()[by as usize].is_of(me.other()));
                            assert!(king_attacked_on(v, pos, king_of(v, pos, me), cell, me), "{name}: {text}: refused for {cell}");
                            assert!(!generated(v, pos, me.other(), king_of(v, pos, me)), "{name}: {text}: in check, not crossing");
                        }
                        Err(_) => {}
                    }
                }
            });
            assert!(crosses > 0 && castles > 0, "{name}: {crosses} refusals for a crossed cell, {castles} castlings");
        }
    }

    /// The cells from `king` to `to` (neither), in file order away from the king.
    fn crossed(v: &Variant, king: u16, to: u16) -> Vec<u16> {
        let g = &v.rules.geometry;
        let (f0, f1, rank) =
            (g.coords(crate::Cell(king)).0 as i32, g.coords(crate::Cell(to)).0 as i32, g.coords(crate::Cell(king)).1 as i32);
        let step = (f1 - f0).signum();
        (1..(f1 - f0).abs()).map(|i| g.at(f0 + i * step, rank).unwrap().0).collect()
    }

    fn king_of(v: &Variant, pos: &Position, me: Player) -> u16 {
        (0..pos.board().len() as u16).find(|&c| v.rules.royal_codes[me] >> pos.board()[c as usize].index() & 1 != 0).unwrap()
    }

    /// Whether, with `me`'s king moved from `king` to `cell` on the position, the opponent's
    /// moves take it there.
    fn king_attacked_on(v: &Variant, pos: &mut Position, king: u16, cell: u16, me: Player) -> bool {
        pos.begin();
        pos.relocate(&v.rules.zobrist, king, cell);
        let hit = generated(v, pos, me.other(), cell);
        pos.undo();
        hit
    }
}
