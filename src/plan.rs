//! The plan: every shortcut the kernel may take, decided once at load, in one place, from what
//! each construct of the rules declares.
//!
//! Each construct (a hook, an end condition, a movement form, a piece's effects, the capture
//! policy, castling, the check rule, the crown) answers the same questions ([`Needs`]) by an
//! exhaustive `match` or destructuring: a new enum variant or field does not compile until it
//! says what it may do. [`Plan::of`] ORs the answers and derives every gate from them, so a
//! new hook that adds or refuses moves turns the counting shortcuts off by itself (as Ludii's
//! `gameFlags` and Fairy-Stockfish's `Variant::conclude` do). The kernel reads `plan.x`; the
//! reference mode (`perft --reference`, [`crate::perft::perft_reference`]) takes none of them,
//! and tests hold every shortcut equal to it.

use crate::cellset::CellSet;
use crate::piece::{ByPlayer, PieceCode};
use crate::rules::{
    CapturePolicy, CodeSet, DropRule, EndKind, Form, Hook, HookFilter, Identity, NoMoves, PieceRules, PromoteAt, Promotion, Ruleset,
};

/// What a construct may do to a game: the questions every construct answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Needs {
    /// It may add moves to those the pieces' forms make (castling, a pass, a script's moves).
    pub(crate) adds_moves: bool,
    /// It lists a move once per kind chosen (a promotion with a choice of kinds).
    pub(crate) choices: bool,
    /// It may refuse moves the forms make (the check rule, a drop that may not mate, a hook,
    /// a compulsory or maximal capture).
    pub(crate) refuses_moves: bool,
    /// Two forms may make the same move (then lists are deduplicated), or several chains are
    /// one move (captured-set identity).
    pub(crate) merges_moves: bool,
    /// A turn may have a second part (`then`).
    pub(crate) second_part: bool,
    /// A piece may be placed from outside the board.
    pub(crate) drops: bool,
    /// Captures by chains of jumps.
    pub(crate) chains: bool,
    /// A form captures by landing (listed with the quiet moves).
    pub(crate) captures_by_landing: bool,
    /// A piece's normal move or drop may change cells other than its start, landing and
    /// victims, or a royal piece's kind (a conversion, an exit, a second part, the crown, a
    /// script). Castling is a move of its own kind, which the check test always plays.
    pub(crate) moves_others: bool,
    /// A move may push enemy pieces back.
    pub(crate) pushes: bool,
    /// It may end the game on a move with a winner.
    pub(crate) ends_on_move: bool,
    /// It may end the game on a move, drawn.
    pub(crate) draws_on_move: bool,
    /// It reads the game's history (a repetition).
    pub(crate) history: bool,
    /// It asks whether a cell is attacked.
    pub(crate) attacks: bool,
    /// It reads or writes attributes or counters.
    pub(crate) attributes: bool,
    /// A move may take enemy pieces (or seeds) it does not list as victims: a custodian
    /// capture, groups left without a liberty, a sowing's capture. The search's quiescence and
    /// move ordering then ask the move's effects, not its text.
    pub(crate) takes_unlisted: bool,
    /// A move may convert enemy pieces (which it does not list either).
    pub(crate) converts: bool,
}

impl std::ops::BitOr for Needs {
    type Output = Needs;

    fn bitor(self, o: Needs) -> Needs {
        Needs {
            adds_moves: self.adds_moves | o.adds_moves,
            choices: self.choices | o.choices,
            refuses_moves: self.refuses_moves | o.refuses_moves,
            merges_moves: self.merges_moves | o.merges_moves,
            second_part: self.second_part | o.second_part,
            drops: self.drops | o.drops,
            chains: self.chains | o.chains,
            captures_by_landing: self.captures_by_landing | o.captures_by_landing,
            moves_others: self.moves_others | o.moves_others,
            pushes: self.pushes | o.pushes,
            ends_on_move: self.ends_on_move | o.ends_on_move,
            draws_on_move: self.draws_on_move | o.draws_on_move,
            history: self.history | o.history,
            attacks: self.attacks | o.attacks,
            attributes: self.attributes | o.attributes,
            takes_unlisted: self.takes_unlisted | o.takes_unlisted,
            converts: self.converts | o.converts,
        }
    }
}

impl std::ops::BitOrAssign for Needs {
    fn bitor_assign(&mut self, o: Needs) {
        *self = *self | o;
    }
}

impl Needs {
    /// Nothing: the construct changes no gate.
    pub(crate) const NONE: Needs = Needs {
        adds_moves: false,
        choices: false,
        refuses_moves: false,
        merges_moves: false,
        second_part: false,
        drops: false,
        chains: false,
        captures_by_landing: false,
        moves_others: false,
        pushes: false,
        ends_on_move: false,
        draws_on_move: false,
        history: false,
        attacks: false,
        attributes: false,
        takes_unlisted: false,
        converts: false,
    };

    /// Whether the move list may differ from what the kernel's forms make.
    pub(crate) fn changes_list(self) -> bool {
        self.adds_moves || self.refuses_moves
    }
}

/// What a hook may do while it runs.
pub(crate) fn hook_needs(h: Hook) -> Needs {
    match h {
        // A script may move any piece, change attributes and counters, and end the game. (What
        // it takes is not `takes_unlisted`: the search's take test plays only the kernel's part
        // of a move, never a script.)
        Hook::AfterMove => Needs { moves_others: true, ends_on_move: true, draws_on_move: true, attributes: true, ..Needs::NONE },
        Hook::AllowMove => Needs { refuses_moves: true, ..Needs::NONE },
        Hook::GenerateMoves => Needs { adds_moves: true, ..Needs::NONE },
        Hook::Outcome => Needs { ends_on_move: true, draws_on_move: true, ..Needs::NONE },
        // Read-only: a term of the evaluation.
        Hook::Evaluate => Needs::NONE,
    }
}

/// What an end condition may do.
pub(crate) fn end_needs(e: &EndKind) -> Needs {
    let on_move = Needs { ends_on_move: true, ..Needs::NONE };
    match e {
        EndKind::RoyalCaptured { .. }
        | EndKind::RoyalLeftBoard
        | EndKind::ZoneFilled(_)
        | EndKind::Beside { .. }
        | EndKind::PiecesAtMost { .. }
        | EndKind::InARow { .. }
        | EndKind::Connected(_)
        | EndKind::Ring(_)
        | EndKind::Enclosed { .. } => on_move,
        // `safe`: reached only where the piece cannot be taken at once.
        EndKind::ZoneReached { safe, .. } => Needs { attacks: *safe, ..on_move },
        EndKind::BoardFull { result, .. } => match result {
            crate::rules::ends::FullResult::Draw => Needs { draws_on_move: true, ..Needs::NONE },
            crate::rules::ends::FullResult::Win | crate::rules::ends::FullResult::Loss | crate::rules::ends::FullResult::MostPieces => {
                on_move
            }
        },
        // (Scored by points, the count may name a winner; like a draw it is read from the board
        // the move leaves, and never keeps or refuses a move, so the check test may play only
        // the kernel's part of it.)
        EndKind::QuietMoves { .. } | EndKind::Material { .. } => Needs { draws_on_move: true, ..Needs::NONE },
        // The player facing must break it or pass: moves refused, a pass added in check; the
        // pass that ends the game is judged after it, as a count.
        EndKind::Facing { .. } => Needs { adds_moves: true, refuses_moves: true, draws_on_move: true, ..Needs::NONE },
        // A check changes a counter after the move, and the count may end the game.
        EndKind::Checks { .. } => Needs { attacks: true, attributes: true, ..on_move },
        EndKind::Repetition { .. } => Needs { history: true, ..Needs::NONE },
        // Having no move: a pass is a move of its own; a condition on an attack asks the query.
        EndKind::NoMoves { result, if_attacked } => {
            Needs { adds_moves: matches!(result, NoMoves::Pass), attacks: if_attacked.is_some(), ..Needs::NONE }
        }
        EndKind::BothPass(..) => Needs { adds_moves: true, ..Needs::NONE },
    }
}

/// What a movement form may do.
pub(crate) fn form_needs(f: &Form) -> Needs {
    match f {
        Form::Step { capture, .. } | Form::Slide { capture, .. } | Form::Leap { capture, .. } => {
            Needs { captures_by_landing: *capture != 0, ..Needs::NONE }
        }
        Form::Walk { .. } => Needs::NONE,
    }
}

/// What a promotion may do (`royal`: the piece's kind is royal).
fn promotion_needs(p: &Promotion, royal: bool) -> Needs {
    // A royal piece that changes kind may stop (or start) being royal.
    Needs { choices: !p.choices.is_empty(), moves_others: royal, ..Needs::NONE }
}

/// What a drop may do.
fn drop_needs(d: &DropRule) -> Needs {
    Needs { drops: true, refuses_moves: d.no_mate, attacks: d.no_mate || d.mate_loses, ..Needs::NONE }
}

/// What one piece code's rules may do (`royal`: its kind is royal).
pub(crate) fn piece_needs(p: &PieceRules, royal: bool) -> Needs {
    // Every field named: a new one does not compile until it answers.
    let PieceRules {
        quiet,
        limits: _, // a form's piece-count limit: counted where the forms are
        calm: _,   // forms barred in check: a filter ([`rule_needs`])
        jumps,
        any_jump: _, // a table of `jumps`
        promote,
        flies: _, // read by the chain walker (a flying jump walks lines); its jumps answer below
        effects,
        exit,
        drop,
        convert,
        push,
        custodian,
        surround: _, // read by a mover's `custodian`, which answers
        liberties,
        to_hand: _, // the policy's `to_hand` answers
        notes: _,
        thens,
        en_passant: _, // its capture is the form's, its victim a victim
        steps: _,      // a table of `quiet`
        unconditional: _,
    } = p;
    let mut n = quiet.iter().fold(Needs::NONE, |n, f| n | form_needs(f));
    n.chains = !jumps.is_empty();
    if let Some(pr) = promote {
        n |= promotion_needs(pr, royal);
    }
    if let Some(d) = drop {
        n |= drop_needs(d);
    }
    n.attributes |= !effects.is_empty();
    // A custodian capture takes pieces the move does not name (its victims are found by make).
    n.moves_others |= exit.is_some() || convert.is_some() || push.is_some() || custodian.is_some();
    // (A push only sends pieces back; an exit takes the mover itself, not an enemy piece.)
    n.takes_unlisted |= custodian.is_some();
    n.converts |= convert.is_some();
    n.pushes |= push.is_some();
    if let Some(l) = liberties {
        // Groups without a liberty are taken (cells the move does not name); a suicide is
        // refused unless allowed.
        n |= Needs { moves_others: true, refuses_moves: !l.suicide, takes_unlisted: true, ..Needs::NONE };
    }
    if thens.iter().any(Option::is_some) {
        n |= Needs { second_part: true, moves_others: true, ..Needs::NONE };
    }
    n
}

/// What the capture policy may do.
pub(crate) fn policy_needs(p: &CapturePolicy) -> Needs {
    // (An explosion moves other pieces: [`rule_needs`] answers for it.)
    let CapturePolicy { compulsory, chain: _, removal: _, maximum, identity, to_hand, explode: _ } = p;
    Needs {
        refuses_moves: *compulsory || *maximum,
        merges_moves: match identity {
            Identity::Path => false,
            Identity::CapturedSet => true,
        },
        attributes: *to_hand,
        ..Needs::NONE
    }
}

/// What the rules beside the pieces, the ends and the policy may do: castling, the check rule,
/// the crown, explosions, forms that repeat a move.
fn rule_needs(rules: &Ruleset) -> Needs {
    let mut n = Needs::NONE;
    if rules.castling.is_some() {
        n |= Needs { adds_moves: true, attacks: true, ..Needs::NONE };
    }
    if rules.may_pass {
        n |= Needs { adds_moves: true, ..Needs::NONE };
    }
    if rules.pie.is_some() {
        // The swap is a move of its own, and changes the owner of every piece.
        n |= Needs { adds_moves: true, moves_others: true, ..Needs::NONE };
    }
    if rules.drops.gating.is_some() {
        // A move from a gate, again with each gated kind in hand placed on the cell it leaves.
        n |= Needs { adds_moves: true, second_part: true, moves_others: true, ..Needs::NONE };
    }
    if rules.go.ko != crate::rules::groups::Ko::None {
        // A move that brings back an earlier position is refused.
        n |= Needs { refuses_moves: true, history: true, ..Needs::NONE };
    }
    if rules.calm_forms {
        // In check, the forms barred then are asked again.
        n |= Needs { refuses_moves: true, attacks: true, ..Needs::NONE };
    }
    if rules.check_illegal || rules.no_giving_check {
        n |= Needs { refuses_moves: true, attacks: true, ..Needs::NONE };
    }
    if rules.late_policy.is_some() {
        // The capture policy, after the check test.
        n |= Needs { refuses_moves: true, ..Needs::NONE };
    }
    if rules.crown.is_some() {
        n |= Needs { moves_others: true, attributes: true, ..Needs::NONE };
    }
    if rules.captures.explode.is_some() {
        // A capture removes the pieces around its landing, the mover's royal piece maybe (only
        // after a capture, so not `takes_unlisted`: the move took something already).
        n |= Needs { moves_others: true, ..Needs::NONE };
    }
    n.merges_moves |= rules.dedup;
    // ---- Sowing (mancala) ----
    if let Some(sw) = &rules.sowing {
        // Moves that are not the pieces' forms, counts changed along the track, an extra move,
        // and the game ended by a move; seeds captured into the mover's store, where a capture
        // rule is declared (a sowing lists no victims).
        n |= Needs {
            adds_moves: true,
            refuses_moves: true,
            moves_others: true,
            ends_on_move: true,
            draws_on_move: true,
            attributes: true,
            takes_unlisted: sw.capture != crate::rules::sowing::SowCapture::None,
            ..Needs::NONE
        };
    }
    n
}

/// Every shortcut the kernel may take for one loaded variant (rules and hooks), decided once.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// What the active hooks may do, ORed.
    pub(crate) hooks: Needs,
    /// What the end conditions may do, ORed.
    pub(crate) ends: Needs,
    /// What the pieces, the rules beside them and the policy may do, ORed (not the hooks or
    /// the ends).
    pub(crate) rules: Needs,
    /// No active hook adds or refuses moves: the normal moves are the kernel's
    /// ([`crate::movegen::normal_moves`]), with no script asked.
    pub(crate) kernel_lists: bool,
    /// The check test may play only the kernel's part of a move: nothing but the kernel moves
    /// pieces, and no rule can end the game on the move with a winner.
    pub(crate) kernel_check: bool,
    /// The kernel's moves, before castling, promotion choices and the check and drop-mate
    /// tests, are every move its forms make (no hook, duplicate form, second part or merged
    /// chain): what [`crate::Variant::legal_moves_and_mobility`] asks.
    pub(crate) kernel_moves_listed: bool,
    /// A legal list is every move the kernel's forms make whenever the capture policy removed
    /// nothing (the rest depends on the position).
    pub(crate) lists_kernel_moves: bool,
    /// A side's whole move list is what its pieces' forms make, so that counting them on the
    /// cell sets counts the moves ([`crate::movegen::count_moves`]).
    pub(crate) counts_moves: bool,
    /// As `counts_moves` with promotion choices allowed, where no piece jumps or has a second
    /// part: each piece's moves counted form by form (see `movegen::count_to_pick`).
    pub(crate) counts_forms: bool,
    /// The codes whose one-landing moves change no cell but their start and landing (and the
    /// piece's kind only if it is not royal): the check test may play such a move on the board
    /// alone. Empty unless `kernel_check`.
    pub(crate) board_only: CodeSet,
    /// Each player's piece codes.
    pub(crate) codes_of: ByPlayer<CodeSet>,
    /// The codes of the kinds that may leave the board.
    pub(crate) exit_codes: CodeSet,
    /// Pieces are only placed, never moved, and nothing else plays a part: perft and
    /// self-play's random players may walk the placements on the cell sets
    /// ([`crate::placewalk::PlaceWalk`], where its tables fit).
    pub(crate) places: bool,
    /// Some construct of the rules may take what a move does not list
    /// ([`Needs::takes_unlisted`]): where it is false (and conversions are not counted), a
    /// move takes something exactly when it lists a victim
    /// ([`crate::notation::Move::is_capture`]).
    pub(crate) takes_unlisted: bool,
    /// Some construct may convert enemy pieces ([`Needs::converts`]).
    pub(crate) converts: bool,
    /// Per code that promotes with a choice of kinds, the cells from which one of its moves
    /// may promote ([`promotion_sources`]), so that a list whose promoting pieces all stand
    /// elsewhere is not read for promotions ([`Plan::may_promote`], where the position keeps
    /// its cells by code). `None` (a board past 128 cells): every list is read.
    pub(crate) promotes_from: Option<Vec<(PieceCode, CellSet)>>,
    /// A position with no continuation always has a legal move: the rules allow a pass at any
    /// turn and nothing can take it off the list (no check, giving-check, facing or drop-mate
    /// test, no capture policy read after them, no compulsory capture, no hook that shapes the
    /// list): every filter then judges a move alone. A search may judge a position before
    /// listing its moves, and list only the moves it wants
    /// ([`crate::Variant::legal_moves_kept`]).
    pub(crate) always_moves: bool,
    /// Whether the legal list is the list of moves each of which the rules' filters keep,
    /// each judged alone, and there is a filter to ask (the check test, the giving-check,
    /// drop-mate, calm-form or ko test): no hook shapes the list, no capture policy reads the
    /// whole list (nothing compulsory, no late policy), and no filter adds a move (the facing
    /// rule lists a pass while the royal pieces face). A caller may then test only the moves
    /// it wants ([`crate::Variant::legal_kept_and_any`], [`crate::Variant::legal_alone`]).
    pub(crate) judged_alone: bool,
    /// A move may be made and undone from a compact record ([`Position::make_plain`], where
    /// the position allows it): the rules' make is plain ([`crate::rules::MakePath::Plain`]),
    /// no hook runs while a move is made (nothing but the kernel writes the board), no pie
    /// rule or gating, and the board keeps its cells by code.
    pub(crate) plain_make: bool,
}

impl Plan {
    /// The plan of `rules` under the hooks that run (`hooks[h]` is `Some` where `h` runs).
    pub(crate) fn of(rules: &Ruleset, hooks: &[Option<HookFilter>]) -> Plan {
        let hook_n = Hook::ALL.iter().filter(|h| hooks[**h as usize].is_some()).fold(Needs::NONE, |n, h| n | hook_needs(*h));
        let ends = rules.ends.iter().fold(Needs::NONE, |n, e| n | end_needs(&e.kind));
        let royal = |c: usize| {
            (rules.royal_codes[crate::piece::Player::FIRST] | rules.royal_codes[crate::piece::Player::FIRST.other()]) >> c & 1 != 0
        };
        let by_code: Vec<Needs> = (0..rules.pieces.len()).map(|c| piece_needs(&rules.pieces[c], royal(c))).collect();
        let pieces = by_code.iter().fold(Needs::NONE, |n, p| n | *p);
        let policy = policy_needs(&rules.captures);
        let beside = rule_needs(rules);
        let all = pieces | beside | policy;
        let kernel_lists = !hook_n.changes_list();
        let kernel_check = !hook_n.moves_others && !hook_n.ends_on_move && !ends.ends_on_move;
        let kernel_moves_listed = kernel_lists && !all.merges_moves && !pieces.second_part;
        let shaped = pieces | beside; // what changes the list beside the policy
        let lists_kernel_moves = kernel_moves_listed && !shaped.changes_list() && !shaped.choices;
        // The cell sets count what the forms make: no drop, duplicate form or rule that adds
        // or refuses moves (hooks included).
        let countable = kernel_lists && rules.setwise.is_some() && !shaped.drops && !shaped.merges_moves && !shaped.changes_list();
        let counts_moves = countable && !shaped.choices;
        let counts_forms = countable && !pieces.chains && !pieces.second_part;
        let board_only = if kernel_check && !shaped.pushes && !beside.moves_others {
            (1..rules.pieces.len()).filter(|&c| !by_code[c].moves_others).fold(0, |s, c| s | 1 << c)
        } else {
            0
        };
        let mut codes_of = ByPlayer::new(0, 0);
        for c in 1..rules.pieces.len() {
            codes_of[PieceCode::from_index(c).owner()] |= 1 << c;
        }
        let exit_codes = (1..rules.pieces.len()).filter(|&c| rules.pieces[c].exit.is_some()).fold(0, |s, c| s | 1 << c);
        // No hook runs while a move is made: nothing but the kernel writes the position.
        let quiet_make = !hook_n.moves_others && !hook_n.ends_on_move && !hook_n.draws_on_move && !hook_n.attributes;
        let plain_make = quiet_make
            && rules.make_path != crate::rules::MakePath::General
            && rules.pie.is_none()
            && rules.drops.gating.is_none()
            && CellSet::fits(rules.geometry.len());
        let plan = Plan {
            hooks: hook_n,
            ends,
            rules: all,
            kernel_lists,
            kernel_check,
            kernel_moves_listed,
            lists_kernel_moves,
            counts_moves,
            counts_forms,
            board_only,
            codes_of,
            exit_codes,
            places: false,
            takes_unlisted: all.takes_unlisted,
            converts: all.converts,
            promotes_from: promotion_sources(rules),
            judged_alone: kernel_lists
                && !rules.compulsory()
                && rules.late_policy.is_none()
                && !rules.facing
                && (rules.check_illegal
                    || rules.no_giving_check
                    || rules.drop_no_mate
                    || rules.calm_forms
                    || rules.go.ko != crate::rules::groups::Ko::None),
            plain_make,
            always_moves: kernel_lists
                && rules.may_pass
                && !rules.compulsory()
                && rules.late_policy.is_none()
                && !(rules.check_illegal || rules.no_giving_check || rules.facing || rules.drop_no_mate),
        };
        Plan { places: plan.places(), ..plan }
    }

    /// Whether a move of a position whose cells of each code are `by_code` may promote with a
    /// choice of kinds (where the plan keeps no cells, or the position none: it may).
    #[inline]
    pub(crate) fn may_promote(&self, by_code: &[u128]) -> bool {
        self.promotes_from.as_ref().is_none_or(|from| {
            from.iter().any(|&(code, cells)| by_code.get(code.index()).is_none_or(|&c| CellSet::from_bits(c).meets(cells)))
        })
    }

    /// Whether the constructs allow the walk of placements: no hook that plays a part, a move
    /// list that is what the forms make, drops and nothing else, and no end that reads the
    /// history, an attack or a counter (which ends the walk's tables take is theirs to say).
    fn places(&self) -> bool {
        let h = self.hooks;
        let quiet_hooks = !h.changes_list() && !h.moves_others && !h.ends_on_move && !h.draws_on_move && !h.attributes;
        let e = self.ends;
        quiet_hooks
            && self.kernel_lists
            && self.rules == Needs { drops: true, ..Needs::NONE }
            && !e.changes_list()
            && !e.history
            && !e.attacks
            && !e.attributes
    }
}

/// Per code that promotes with a choice of kinds, the cells from which one of its moves may
/// promote: it may land in the zone on an empty board (each form's reach, which errs on the
/// side of may), stands in it where leaving the zone promotes too (`from_or_to`), or jumps (a
/// capture chain may land anywhere). `None` on a board of more than 128 cells.
fn promotion_sources(rules: &Ruleset) -> Option<Vec<(PieceCode, CellSet)>> {
    let g = &rules.geometry;
    if !CellSet::fits(g.len()) {
        return None;
    }
    let mut from = Vec::new();
    for (i, p) in rules.pieces.iter().enumerate() {
        let Some(x) = p.promote.as_ref().filter(|x| !x.choices.is_empty()) else { continue };
        let inside = |c: u16| g.zones_of(c).meets(x.zone);
        let may = |c: u16| {
            !p.jumps.is_empty()
                || (x.at == PromoteAt::FromOrTo && inside(c))
                || p.quiet.iter().any(|f| f.reach(g, c).into_iter().any(inside))
        };
        from.push((PieceCode::from_index(i), (0..g.len() as u16).filter(|&c| may(c)).fold(CellSet::EMPTY, CellSet::with)));
    }
    Some(from)
}

/// Every shortcut held equal to the reference mode ([`crate::Variant::reference_moves`]) on
/// random positions of every shipped variant.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::movegen;
    use crate::perft::perft_reference;
    use crate::state::Position;

    /// The cells a promotion with a choice may come from, by hand: in chess a pawn promotes
    /// only from the rank before the last (white's 7th, black's 2nd; its double step starts
    /// too far back), so with no pawn there no move is read; in minishogi (the zone is the far
    /// rank, entering or leaving it) a rook reaches the zone from every cell.
    #[test]
    fn promotions_with_a_choice_come_from_the_cells_that_reach_their_zone() {
        let v = Variant::load("chess", &[]).unwrap();
        let (r, g) = (&v.rules, &v.rules.geometry);
        let from = |symbol: char| {
            let code = r.code_of_symbol(symbol).unwrap();
            let (_, cells) = v.plan.promotes_from.as_ref().unwrap().iter().find(|(c, _)| *c == code).copied().unwrap();
            cells.iter().map(|c| g.name(crate::geometry::Cell(c)).to_string()).collect::<Vec<_>>()
        };
        let rank = |n: char| "abcdefgh".chars().map(|f| format!("{f}{n}")).collect::<Vec<_>>();
        assert_eq!(from('P'), rank('7'));
        assert_eq!(from('p'), rank('2'));
        assert_eq!(v.plan.promotes_from.as_ref().unwrap().len(), 2, "only the pawns promote with a choice");
        let start = v.start();
        assert!(!v.plan.may_promote(start.cells_by_code()), "no pawn on its 7th rank at the start");
        let near = Position::from_text(&v.rules, "8/4P3/8/8/8/8/8/k6K w - - 0 1").unwrap();
        assert!(v.plan.may_promote(near.cells_by_code()));
        let shogi = Variant::load("minishogi", &[]).unwrap();
        let (r, g) = (&shogi.rules, &shogi.rules.geometry);
        let rook = r.code_of_symbol('R').unwrap();
        let (_, cells) = shogi.plan.promotes_from.as_ref().unwrap().iter().find(|(c, _)| *c == rook).copied().unwrap();
        // A rook reaches the far rank from every file and rank of a 5 x 5 board.
        assert_eq!(cells.count(), g.len() as u32);
    }

    /// Every shipped variant, and a few options that turn other constructs on (Basileus's rule
    /// of the two basileis is an `allow_move` hook; Bivouac's maximal captures; shogi's mating
    /// pawn drop listed as a losing move).
    fn cases() -> Vec<(String, Vec<(String, String)>)> {
        let mut cases: Vec<(String, Vec<(String, String)>)> = crate::variant::shipped_names().into_iter().map(|n| (n, vec![])).collect();
        cases.push(("basileus".into(), vec![("king_adjacency".into(), "forbidden".into())]));
        cases.push(("bivouac".into(), vec![("captures".into(), "compulsory_maximal".into())]));
        cases.push(("shogi".into(), vec![("drop_mate".into(), "loses".into())]));
        // The tafl king taken between two anywhere (custodian capture with no `surround` zone).
        cases.push(("brandubh".into(), vec![("king_capture".into(), "two_sides".into())]));
        cases
    }

    /// The moves' texts, sorted (a list compared as a set, its length kept).
    fn texts(v: &Variant, moves: &[crate::Move]) -> Vec<String> {
        let mut t: Vec<String> = moves.iter().map(|m| m.text(&v.rules.geometry)).collect();
        t.sort();
        t
    }

    /// What the mobility counts, listed: every capture chain and every non-chaining move (a
    /// two-part turn's first part once) whatever the policy, hooks aside.
    fn listed_mobility(v: &Variant, pos: &mut Position, p: crate::Player) -> usize {
        let (mut chains, mut quiet) = (Vec::new(), Vec::new());
        movegen::captures(&v.rules, pos.board_scratch(), p, &mut chains);
        movegen::quiet_first_parts(&v.rules, pos, p, &mut quiet);
        chains.len() + quiet.len()
    }

    /// The shortcuts that answer for the whole list at `pos` (the legal list `moves`): the
    /// list itself, its count on the sets, the count that picks a move without the list, the
    /// mobility and the check test.
    fn check_position(v: &Variant, pos: &mut Position, moves: &[crate::Move], at: &str, seen: &mut [u32; 4]) {
        let mut reference = Vec::new();
        v.reference_moves(pos, &mut reference).unwrap();
        assert_eq!(texts(v, moves), texts(v, &reference), "the legal list at {at}");
        if let Some(n) = v.count_moves(pos) {
            assert_eq!(n, reference.len() as u64, "count_moves at {at}");
            seen[0] += 1;
        }
        if let Some(n) = movegen::count_quiet_steps(&v.rules, &v.plan, pos) {
            assert_eq!(n, reference.len() as u64, "count_quiet_steps at {at}");
            assert!(!reference.iter().any(crate::Move::is_capture), "count_quiet_steps with a capture at {at}");
        }
        let mut c = movegen::Counted::default();
        if v.count_to_pick(pos, &mut c) {
            assert_eq!(c.n, reference.len() as u64, "count_to_pick at {at}");
            let mut scratch = Vec::new();
            for (i, m) in moves.iter().enumerate() {
                assert_eq!(v.nth_move(pos, &c, i as u64, &mut scratch), *m, "nth_move {i} at {at}");
            }
            seen[1] += 1;
        }
        let side = pos.side();
        for p in [side, side.other()] {
            let n = movegen::mobility(&v.rules, pos, p, &mut Vec::new());
            assert_eq!(n, listed_mobility(v, pos, p), "mobility of {p:?} at {at}");
        }
        let mut list = Vec::new();
        if let Some(k) = v.legal_moves_and_mobility(pos, &mut list).unwrap() {
            assert_eq!(k, listed_mobility(v, pos, side), "the mobility answered with the list at {at}");
            seen[2] += 1;
        }
        if v.lists_every_kernel_move(pos, moves) {
            assert_eq!(moves.len(), listed_mobility(v, pos, side), "a list of every kernel move at {at}");
        }
        if v.rules.royal_codes[side] != 0 {
            assert_eq!(v.in_check(pos), v.reference_royal_attacked(pos, side), "in_check at {at}");
        }
        if pos.result().is_none() && pos.continuation().is_none() {
            seen[3] += 1;
        }
    }

    /// Every shortcut the plan turns on answers as the reference mode does, at every position
    /// of random games in every shipped variant: the legal list (as a set), `count_moves`,
    /// `count_to_pick` and `nth_move`, the mobility, the check test; and perft to depth 2 (the
    /// walk of placements, and the last level counted on the sets) at every fifth.
    #[test]
    fn every_shortcut_is_the_reference() {
        for (name, options) in cases() {
            let v = Variant::load(&name, &options).unwrap();
            let mut seen = [0u32; 4];
            let mut ply = 0;
            v.random_positions(49, 2, 40, |pos, moves| {
                let at = format!("{name} {options:?} at {}", pos.to_text(&v.rules));
                check_position(&v, pos, moves, &at, &mut seen);
                ply += 1;
                if ply % 5 == 0 {
                    for depth in 1..=2 {
                        let reference = perft_reference(&v, pos, depth).unwrap();
                        assert_eq!(crate::perft::perft(&v, pos, depth).unwrap(), reference, "perft {depth} at {at}");
                        assert_eq!(crate::perft::perft_made(&v, pos, depth).unwrap(), reference, "perft made {depth} at {at}");
                        assert_eq!(
                            crate::perft::perft_general(&v, pos, depth, false).unwrap(),
                            reference,
                            "perft --general {depth} at {at}"
                        );
                        if let Some(walk) = v.place_walk().filter(|w| w.applies(pos, depth)) {
                            assert_eq!(walk.perft(pos, depth, false).unwrap(), reference, "the walk of placements {depth} at {at}");
                        }
                    }
                }
            });
            assert!(seen[3] > 0, "{name}: no position to decide");
        }
    }

    /// The plan of the shipped games takes the shortcuts it should: a test of the tests above
    /// (a gate turned off everywhere would leave them nothing to compare).
    #[test]
    fn the_shortcuts_are_taken_where_they_apply() {
        let plan = |name: &str, o: &[(&str, &str)]| {
            let o: Vec<(String, String)> = o.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
            let v = Variant::load(name, &o).unwrap();
            (v.plan.clone(), v.place_walk().is_some())
        };
        let (checkers, walk) = plan("checkers", &[]);
        assert!(checkers.counts_moves && checkers.kernel_lists && !walk && checkers.plain_make);
        for name in ["international", "breakthrough", "basileus", "lielow"] {
            assert!(plan(name, &[]).0.plain_make, "{name}");
        }
        // Castling and en passant (chess), a push (Pyramida): the general make.
        for name in ["chess", "pyramida"] {
            assert!(!plan(name, &[]).0.plain_make, "{name}");
        }
        let (lielow, walk) = plan("lielow", &[]);
        assert!(lielow.counts_moves && !walk);
        let (tic_tac_toe, walk) = plan("tic-tac-toe", &[]);
        assert!(tic_tac_toe.places && walk);
        // Chess: the check rule refuses moves and castling adds some, so nothing is counted on
        // the sets; the check test plays a move on the board alone.
        let (chess, walk) = plan("chess", &[]);
        assert!(!chess.counts_moves && !chess.lists_kernel_moves && chess.kernel_check && chess.board_only != 0 && !walk);
        // Custodian capture: make takes pieces the move does not name; the moves are still
        // counted on the sets (captures change no list).
        let (brandubh, walk) = plan("brandubh", &[]);
        assert!(brandubh.rules.moves_others && !brandubh.places && !walk && brandubh.counts_moves);
        // An `allow_move` hook may refuse moves: nothing is counted, the list asks the script.
        let (basileus, walk) = plan("basileus", &[("king_adjacency", "forbidden")]);
        assert!(basileus.hooks.refuses_moves && !basileus.kernel_lists && !basileus.counts_moves && !walk);
    }

    /// A hook that adds or refuses moves turns the counting shortcuts off by its answer.
    #[test]
    fn a_hook_that_changes_the_list_turns_the_counts_off() {
        for h in Hook::ALL {
            let n = hook_needs(h);
            let mut hooks: [Option<HookFilter>; Hook::ALL.len()] = Default::default();
            hooks[h as usize] = Some(HookFilter::always());
            let p = Plan::of(&Variant::load("checkers", &[]).unwrap().rules, &hooks);
            assert_eq!(p.counts_moves, !n.changes_list(), "{}", h.name());
            assert_eq!(p.kernel_lists, !n.changes_list(), "{}", h.name());
            // A hook that runs while a move is made turns the plain make off.
            assert_eq!(p.plain_make, !matches!(h, Hook::AfterMove | Hook::Outcome), "{}", h.name());
            // Any hook that plays a part turns the walk of placements off; `evaluate` only reads.
            let p = Plan::of(&Variant::load("tic-tac-toe", &[]).unwrap().rules, &hooks);
            assert_eq!(p.places, h == Hook::Evaluate, "{}", h.name());
        }
    }
}
