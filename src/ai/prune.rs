//! What the alpha-beta search may skip or shorten, decided once from the rules
//! ([`Pruning::of`]), and the static exchange evaluation of a capture ([`see`]).
//!
//! Every shortcut here trades exactness for depth, so each is taken only where the rules say
//! the assumption it rests on holds:
//! - **Null move**: "if I could pass and still be above beta, my real moves are too". Sound
//!   where having the move is worth something: pieces move and capture, no capture is
//!   compulsory (draughts' forced captures make zugzwang the rule, not the exception), no
//!   hook runs on moves (a pass would skip it), and at the node: no continuation, not in check,
//!   and the side to move has a piece above its least valuable kind (pawn endings are where
//!   zugzwang lives). Placement games are left out (in Connect Four passing would change the
//!   value of every position near the end), and so are games where no piece captures.
//! - **Futility, reverse futility and razoring** compare the evaluation with the window by a
//!   margin of pieces: only in games where pieces are captured (so the evaluation is mostly
//!   material and a quiet move rarely gains a piece's worth).
//! - Neither the null move nor these are taken where a quiet move can end the game: an end
//!   condition other than a royal piece captured, having no move (checkmate, stalemate), a
//!   material rule or a drawing rule (Basileus's basileus stopped beside its enemy, a zone
//!   reached, n in a row, a check counted). There the threat a search must see is a quiet
//!   move, which the quiescence search under a null move or a static margin does not play:
//!   with them `ab` won 6 of 10 Basileus games against `mcts:1000`, without them 10 of 10.
//! - **Check** exists where leaving a royal piece attacked is illegal and no hook refuses
//!   moves: then a move that gives check is searched a decision deeper and never reduced.
//! - **Static exchange evaluation** applies to replacement captures (the victim stands on the
//!   landing) where nothing explodes and no hook adds or refuses moves: the attack query
//!   ([`crate::attack`]) answers who recaptures.

use crate::geometry::NONE;
use crate::notation::{Move, MoveKind};
use crate::piece::{ByPlayer, PieceCode, Player};
use crate::rules::{BoardView, Hook};
use crate::state::Position;
use crate::variant::Variant;

/// Which shortcuts the search takes in a variant (see the module's text).
#[derive(Clone, Debug, Default)]
pub(super) struct Pruning {
    pub(super) null: bool,
    pub(super) futility: bool,
    pub(super) checks: bool,
    /// A royal runner one move from its winning zone is met as a check is (searched a decision
    /// deeper, no cut): where the evaluation has runners ([`crate::rules::eval::Runner`]).
    pub(super) threats: bool,
    /// A royal runner of the player to decide that reaches its winning zone in one move wins
    /// there: the position is scored as won in one without a search. Where there are runners,
    /// no hook, no check rule and no compulsory capture (nothing can refuse the runner's move).
    pub(super) escapes: bool,
    pub(super) see: bool,
    /// Per player: the piece codes above its least valuable kind (not royal), whose presence
    /// on the board allows a null move.
    pub(super) majors: ByPlayer<Vec<usize>>,
}

impl Pruning {
    /// The shortcuts `v`'s rules allow; `captures`: whether some piece of the variant captures.
    pub(super) fn of(v: &Variant, captures: bool, values: &[i32]) -> Pruning {
        let r = &*v.rules;
        let move_hooks = [Hook::AfterMove, Hook::AllowMove, Hook::GenerateMoves, Hook::Outcome].iter().any(|&h| v.hook(h).is_some());
        let pieces_move = r.pieces.iter().any(|p| !p.quiet.is_empty() || !p.jumps.is_empty());
        let tactical = captures && !move_hooks && !quiet_goals(r);
        let null = tactical && pieces_move && !r.compulsory();
        let majors = ByPlayer::new(majors(v, values, Player::FIRST), majors(v, values, Player::SECOND));
        Pruning {
            null,
            futility: tactical,
            checks: r.check_illegal && r.royal_codes[Player::FIRST] != 0 && v.hook(Hook::AllowMove).is_none(),
            threats: !r.eval.runners.is_empty() && !move_hooks,
            escapes: !r.eval.runners.is_empty() && !move_hooks && !r.check_illegal && !r.compulsory(),
            see: captures && r.landing_captures && r.captures.explode.is_none() && !move_hooks,
            majors,
        }
    }

    /// Whether the side to move in `pos` has a piece above its least valuable kind on the board,
    /// read on each code's cell set (a board of more than 128 cells keeps none: `false`, so no
    /// null move there).
    pub(super) fn has_major(&self, pos: &Position) -> bool {
        let sets = pos.cells_by_code();
        self.majors[pos.side()].iter().any(|&c| sets.get(c).is_some_and(|&s| s != 0))
    }
}

/// Whether some end condition can be met by a quiet move: any but a royal piece captured,
/// having no move, a material rule and the drawing rules (repetition, a quiet-move clock).
fn quiet_goals(r: &crate::rules::Ruleset) -> bool {
    use crate::rules::EndKind as E;
    r.ends.iter().any(|e| {
        !matches!(e.kind, E::RoyalCaptured { .. } | E::NoMoves { .. } | E::Material { .. } | E::Repetition { .. } | E::QuietMoves { .. })
    })
}

/// `p`'s piece codes whose kind is worth more than its least valuable one (royal pieces,
/// valued above every other, are left out).
fn majors(v: &Variant, values: &[i32], p: Player) -> Vec<usize> {
    let r = &*v.rules;
    let own: Vec<usize> = (1..r.pieces.len())
        .filter(|&c| {
            let code = PieceCode::from_index(c);
            code.owner() == p && !r.kind(code.kind()).royal && values[c] > 0
        })
        .collect();
    let least = own.iter().map(|&c| values[c]).min().unwrap_or(0);
    own.into_iter().filter(|&c| values[c] > least).collect()
}

/// The late-move reduction for a quiet move searched `index`-th (from 0) at `depth`: none for
/// the first three, then growing with the logarithms of both (as in Stockfish and most
/// engines since), at most `depth - 2` so the reduced search keeps a decision.
pub(super) fn reduction(depth: i32, index: usize) -> i32 {
    if depth < 3 || index < 3 {
        return 0;
    }
    let r = 0.5 + ln(depth as usize) * ln(index) / 2.25;
    (r as i32).min(depth - 2)
}

/// The natural logarithm of `n`, read from a table below 1024 (the same values: the table holds
/// `ln` of each; computing them at every move took 1 % of a checkers search).
fn ln(n: usize) -> f64 {
    static TABLE: std::sync::LazyLock<Vec<f64>> = std::sync::LazyLock::new(|| (0..1024).map(|n| (n as f64).ln()).collect());
    TABLE.get(n).copied().unwrap_or_else(|| (n as f64).ln())
}

/// The most captures an exchange is followed for.
const SEE_DEPTH: usize = 16;

/// The static exchange evaluation of `m`: what its mover's side gains (in `values`' units)
/// when both sides go on capturing on its landing, each with the attacker the attack query
/// names first, and each may stop when it pleases. `None`
/// where it does not apply: not a plain replacement capture.
pub(super) fn see(v: &Variant, pos: &Position, m: &Move, values: &[i32]) -> Option<i32> {
    let (to, victim) = m.single()?;
    let cells = pos.board().len();
    if victim != to || !matches!(m.kind, MoveKind::Normal) || m.from as usize >= cells || cells > 128 {
        return None;
    }
    let r = &*v.rules;
    let view = pos.view();
    let mut board = view.board.to_vec();
    let mut occupied = view.occupied;
    let mut gain = [0i32; SEE_DEPTH + 1];
    gain[0] = values[board[to as usize].index()];
    let mut on = board[m.from as usize];
    board[to as usize] = on;
    board[m.from as usize] = PieceCode::EMPTY;
    occupied &= !(1u128 << m.from);
    let mut side = on.owner().other();
    let mut n = 0;
    while n < SEE_DEPTH {
        let view = BoardView { board: &board, occupied, en_passant: [NONE, NONE], ..view };
        let Some(from) = crate::attack::attacker(r, view, side, to) else { break };
        n += 1;
        gain[n] = values[on.index()] - gain[n - 1];
        on = board[from as usize];
        board[to as usize] = on;
        board[from as usize] = PieceCode::EMPTY;
        occupied &= !(1u128 << from);
        side = side.other();
    }
    // Each side takes the exchange only as far as it pays.
    while n > 0 {
        gain[n - 1] = -(-gain[n - 1]).max(gain[n]);
        n -= 1;
    }
    Some(gain[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(name: &str) -> Pruning {
        let v = Variant::load(name, &[]).unwrap();
        let s = crate::ai::search::ordering_values(&v);
        let captures = v.rules.pieces.iter().any(|p| !p.jumps.is_empty() || p.quiet.iter().any(crate::rules::Form::captures));
        Pruning::of(&v, captures, &s)
    }

    #[test]
    fn the_rules_say_which_shortcuts_hold() {
        let p = plan("chess");
        assert_eq!((p.null, p.futility, p.checks, p.see), (true, true, true, true));
        // Compulsory captures: zugzwang is common, and no capture lands on its victim.
        let p = plan("checkers");
        assert!(!p.null && p.futility && !p.checks && !p.see);
        // A placement game: passing changes every position's value near the end.
        let p = plan("connect-four");
        assert!(!p.null && !p.futility && !p.checks && !p.see);
        // Explosions: the exchange on a cell is not the whole story.
        let p = plan("atomic");
        assert!(p.null && !p.see);
        // A quiet move can end the game (a basileus stopped beside its enemy, the far rank
        // reached, a third check): no null move, no futility.
        for name in ["basileus", "breakthrough", "three-check", "lielow"] {
            let p = plan(name);
            assert!(!p.null && !p.futility, "{name}");
        }
        assert!(plan("xiangqi").null && plan("minishogi").null && plan("capablanca").null);
    }

    #[test]
    fn a_null_move_needs_a_piece_above_the_least_valuable() {
        let v = Variant::load("chess", &[]).unwrap();
        let p = plan("chess");
        assert!(p.has_major(&v.start()));
        // King and pawns (a pawn ending, where zugzwang decides): no null move.
        let pawns = crate::fen::read(&v.rules, "8/5k2/5p2/8/8/5P2/5K2/8 w - - 0 1").unwrap();
        assert!(!p.has_major(&pawns));
        let knight = crate::fen::read(&v.rules, "8/5k2/5p2/8/8/5P2/5K2/6N1 w - - 0 1").unwrap();
        assert!(p.has_major(&knight));
        assert!(!p.has_major(&crate::fen::read(&v.rules, "8/5k2/5p2/8/8/5P2/5K2/6N1 b - - 0 1").unwrap()));
        // Games of more than 16 piece codes (no moves on the sets) keep each code's cells too:
        // their start positions have majors (these had none to read, and never took a null
        // move). A board of more than 128 cells keeps none.
        for name in ["capablanca", "grand", "crazyhouse", "seirawan", "shogi", "minishogi"] {
            let v = Variant::load(name, &[]).unwrap();
            assert!(v.rules.setwise.is_none() && plan(name).has_major(&v.start()), "{name}");
        }
        assert!(!plan("go19").has_major(&Variant::load("go19", &[]).unwrap().start()));
    }

    #[test]
    fn reductions_grow_with_depth_and_lateness() {
        assert_eq!((reduction(2, 10), reduction(8, 2)), (0, 0));
        // 0.5 + ln 3 · ln 3 / 2.25 = 1.04; 0.5 + ln 8 · ln 20 / 2.25 = 3.34; capped at depth - 2.
        assert_eq!((reduction(3, 3), reduction(8, 20), reduction(4, 60)), (1, 3, 2));
    }

    #[test]
    fn exchanges_count_each_recapture() {
        let v = Variant::load("chess", &[]).unwrap();
        let values = crate::ai::search::ordering_values(&v);
        let see_of = |fen: &str, mv: &str| {
            let mut pos = crate::fen::read(&v.rules, fen).unwrap();
            let m = v.find_move(&mut pos, mv).unwrap();
            see(&v, &pos, &m, &values)
        };
        let value = |name: &str| {
            let c = (1..values.len()).find(|&c| v.rules.kind(PieceCode::from_index(c).kind()).name == name).unwrap();
            values[c]
        };
        let (pawn, knight, queen) = (value("pawn"), value("knight"), value("queen"));
        // A pawn taken undefended: its value.
        assert_eq!(see_of("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1xd5"), Some(pawn));
        // Defended by a pawn: the queen is lost for it.
        assert_eq!(see_of("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1xd5"), Some(pawn - queen));
        // A knight takes a pawn defended by a pawn, and is taken back: pawn - knight.
        assert_eq!(see_of("4k3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1", "e3xd5"), Some(pawn - knight));
        // Defended, but the defender would be taken back by the queen: white nets a pawn
        // (N takes, pawn takes back, queen takes back, and black stops).
        assert_eq!(see_of("4k3/8/4p3/3p4/8/4N3/8/3QK3 w - - 0 1", "e3xd5"), Some(pawn - knight + pawn));
        // Not a replacement capture: no exchange value.
        assert_eq!(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5xd6"), None);
    }
}
