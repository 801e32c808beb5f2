//! End conditions, each in one place: how it is read from an `[[end]]` table, when it is
//! checked ([`Phase`]), and what it decides. Adding a condition is adding an [`EndKind`]
//! variant and a row of [`CONDITIONS`], then following the compiler through this file.

use super::raw::RawEnd;
use super::validate::context::{R, V};
use super::validate::merge::Src;
use super::validate::zones::ZoneMap;
use super::{KindDef, KindSet};
use crate::geometry::{CellTable, Geometry, NONE};
use crate::outcome::Outcome;
use crate::piece::PieceCode;
use crate::piece::{ByPlayer, Player};

/// What a player's having no legal move means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum NoMoves {
    Loss,
    Draw,
    Pass,
    /// The player with no move wins (antichess's stalemate).
    Win,
}

/// What the repetition rule does to the player whose move repeats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum RepetitionResult {
    Loss,
    /// This player loses, whoever made the repeating move (`loser`).
    LossOf(Player),
    Draw,
    /// The count of `[rules] points` decides.
    Points,
}

/// A declared end condition.
#[derive(Clone, Debug)]
pub(crate) enum EndKind {
    /// A royal (or crowned) piece was captured: its owner loses; with `last` (the codes of each
    /// player's royal kinds), only once it has no royal piece left (extinction).
    RoyalCaptured { last: Option<ByPlayer<super::CodeSet>> },
    /// A player moved its own royal (or crowned) piece off the board: it loses.
    RoyalLeftBoard,
    /// A player's pieces stand on every cell of that player's zone: that player wins.
    ZoneFilled(ByPlayer<Vec<u16>>),
    /// The moved or dropped piece, of one of `kinds`, ended the move in its owner's part of the
    /// zone: its owner wins (or, with `win = false`, loses).
    ZoneReached {
        cells: ByPlayer<Vec<bool>>,
        kinds: KindSet,
        win: bool,
        /// Only if the opponent, moving next, cannot capture the piece there (Dōbutsu shōgi's
        /// "try"); the kernel checks that after the condition is met ([`EndKind::needs_safety`]).
        safe: bool,
        /// With `safe`: after every move, any piece of `kinds` standing in its owner's part of
        /// the zone, safe from the other player, meets it: the player to decide next first
        /// (where the mover has one too, a draw), then the mover ([`standing_in_zone`]).
        standing: bool,
    },
    /// The moved piece, of one of `kinds`, ended its move (after a capture, with
    /// `after_capture`) next to an enemy piece of one of `of`, a neighbour along `neighbours`:
    /// its owner loses (or, with `win`, wins). Basileus's two basileis.
    Beside { kinds: KindSet, of: KindSet, after_capture: bool, win: bool, neighbours: CellTable<u16> },
    /// A player with this many pieces or fewer on the board loses (or, with `win`, wins). With
    /// `reply` (a loss only): not yet if that player is to move and the opponent has at most one
    /// piece more than `count` (one capture could bring it there too); when both are at the
    /// count, the game goes on.
    PiecesAtMost { count: i64, win: bool, reply: bool },
    /// A line of `length` pieces of one player (of `kinds`) along one of `axes` through the cell
    /// where the move's piece landed (of exactly `length` when `exactly`, else at least): that
    /// player wins (or, with `loss`, loses).
    InARow {
        length: u32,
        exactly: bool,
        kinds: KindSet,
        /// Per axis, per cell: the next cell each way along it (or `NONE`).
        axes: Vec<Vec<(u16, u16)>>,
        win: bool,
    },
    /// Every cell (of the board, or of a zone) holds a piece: a draw, or a win or loss for the
    /// player who filled the last cell.
    BoardFull {
        /// The zone's cells, or `None` for the whole board (then the piece counts say it).
        cells: Option<Vec<u16>>,
        result: FullResult,
    },
    /// The player to decide has no legal move: `result` says what that means; with
    /// `if_attacked`, only when the opponent, were it to move now, could capture one of that
    /// player's pieces of those kinds (checkmate, as against stalemate).
    NoMoves { result: NoMoves, if_attacked: Option<KindSet> },
    /// Passing is the only move for both players (with `no_moves = pass`, the next two decisions
    /// would be passes): the game ends, scored by [`Tally`]; with `played` (the third field) the
    /// two passes are played first, and the second ends it.
    BothPass(Tally, KindSet, bool),
    /// The move that creates a position for the `count`-th time.
    Repetition { count: u32, result: RepetitionResult },
    /// `plies` moves in a row without a capture or a move of one of `kinds` (the fifty-move
    /// rule: 100 plies, pawns): a draw, or with `points` the count of `[rules] points` decides.
    /// A move that leaves the opponent checkmated is not drawn by it.
    QuietMoves { plies: u32, kinds: KindSet, points: bool },
    /// The players' royal pieces face each other on a file or rank with nothing between: the
    /// player to move must break it or pass (a rule on the legal moves, [`Ruleset::facing`]),
    /// and a pass while they face ends the game, a draw or with `points` by the count (janggi's
    /// bikjang). Judged by the kernel after a pass.
    Facing { points: bool },
    /// The pieces on the board, both players' together, are exactly one of `sets` (kind
    /// counts, indexed by kind): a draw (too little material to win).
    /// `hands`: the counter slots of the pieces in hand (while either player holds one, the
    /// material suffices: a piece in hand may yet enter).
    Material { sets: Vec<Vec<u8>>, hands: Vec<u8> },
    /// Check counting: each move that leaves the opponent in check takes one from the mover's
    /// counter `slot` (the checks it has still to give); a player whose counter is 0 or less
    /// after its move wins (three-check), or with `win` false loses.
    Checks { slot: u8, win: bool },
    /// After a move, none of the opponent's pieces can reach its part of the zone (`cells`, per
    /// player, a flag per cell) by steps along `neighbours` through cells free of the mover's
    /// pieces: the mover wins (Copenhagen Hnefatafl's encirclement).
    Enclosed { cells: ByPlayer<Vec<bool>>, neighbours: CellTable<u16> },
    /// After a move, the chain of the moved or dropped piece joins its owner's part of every
    /// zone of the list: its owner wins (or loses). Hex, Y ([`super::connect`]).
    Connected(super::connect::Connection),
    /// After a move, the chain of the moved or dropped piece encloses a cell (Havannah's ring,
    /// [`super::ring`]): its owner wins (or loses).
    Ring(super::ring::Ring),
}

/// What filling the board (or a zone) means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum FullResult {
    Draw,
    /// The player who filled the last cell wins.
    Win,
    /// The player who filled the last cell loses.
    Loss,
    /// The player with more pieces on the board wins; equal counts draw (Ataxx).
    MostPieces,
}

/// How a game that ends by itself (neither player can move) is scored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Tally {
    Draw,
    /// The player with more pieces on the board wins; equal counts draw (Othello).
    MostPieces,
    /// The player with fewer pieces on the board wins; equal counts draw.
    FewestPieces,
    /// The count of `[rules] points` decides (told by the ruleset, not by piece counts).
    Points,
}

impl Tally {
    /// The winner (`None`: a draw) for these piece counts.
    pub(crate) fn winner(self, counts: &ByPlayer<u32>) -> Option<Player> {
        let (a, b) = (counts[Player::FIRST], counts[Player::SECOND]);
        let more = match a.cmp(&b) {
            std::cmp::Ordering::Equal => return None,
            std::cmp::Ordering::Greater => Player::FIRST,
            std::cmp::Ordering::Less => Player::SECOND,
        };
        match self {
            Tally::Draw | Tally::Points => None,
            Tally::MostPieces => Some(more),
            Tally::FewestPieces => Some(more.other()),
        }
    }
}

/// When the kernel checks a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// After every move (its hooks included), from the board and what the move did.
    AfterMove,
    /// After the position is recorded in the repetition history.
    AfterRecord,
    /// When the player to decide has no legal move.
    NoMoves,
}

/// What the kernel did in a move, for hooks and end conditions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveEffects {
    /// The code of the piece that moved (0 for a pass).
    pub(crate) code: PieceCode,
    /// The code it has after the move (differs after a promotion; 0 when it left the board).
    pub(crate) new_code: PieceCode,
    pub(crate) captured: u32,
    /// How many enemy pieces changed owner (`convert`).
    pub(crate) converted: u32,
    /// The owner of a captured royal (or crowned) piece, if any.
    pub(crate) royal_victim: Option<Player>,
    /// The owner of a royal (or crowned) piece that left the board, if any.
    pub(crate) royal_left: Option<Player>,
    /// The cell where the moved or dropped piece stands after the move (`NONE`: none).
    pub(crate) to: u16,
}

impl Default for MoveEffects {
    fn default() -> MoveEffects {
        MoveEffects {
            code: PieceCode::EMPTY,
            new_code: PieceCode::EMPTY,
            captured: 0,
            converted: 0,
            royal_victim: None,
            royal_left: None,
            to: NONE,
        }
    }
}

/// What an after-move check sees.
pub(crate) struct AfterMove<'a> {
    pub(crate) board: &'a [PieceCode],
    pub(crate) counts: &'a ByPlayer<u32>,
    pub(crate) effects: &'a MoveEffects,
    /// The player who decided the move.
    pub(crate) mover: Player,
    /// Plies since the last capture or move of a clock-resetting kind (`quiet_moves`).
    pub(crate) clock: u32,
    /// The players' counters, by slot.
    pub(crate) counters: &'a [ByPlayer<i32>],
    /// `[rules] points`, if declared.
    pub(crate) score: Option<&'a super::Score>,
    /// Per player, the opponent's pieces it took (for `points_prisoners`).
    pub(crate) prisoners: ByPlayer<u32>,
}

impl EndKind {
    /// When this condition is checked.
    pub(crate) fn phase(&self) -> Phase {
        match self {
            EndKind::RoyalCaptured { .. }
            | EndKind::RoyalLeftBoard
            | EndKind::ZoneFilled(_)
            | EndKind::ZoneReached { .. }
            | EndKind::Beside { .. }
            | EndKind::PiecesAtMost { .. }
            | EndKind::InARow { .. }
            | EndKind::BoardFull { .. }
            | EndKind::QuietMoves { .. }
            | EndKind::Material { .. }
            | EndKind::Facing { .. }
            | EndKind::Checks { .. }
            | EndKind::Enclosed { .. }
            | EndKind::Connected(_)
            | EndKind::Ring(_) => Phase::AfterMove,
            EndKind::Repetition { .. } => Phase::AfterRecord,
            EndKind::NoMoves { .. } | EndKind::BothPass(..) => Phase::NoMoves,
        }
    }

    /// Whether the condition, checked after a move, reads only whether the move took a royal
    /// piece or took one off the board (then a move that did neither cannot meet it).
    pub(crate) fn reads_royal_effects_only(&self) -> bool {
        matches!(self, EndKind::RoyalCaptured { last: None } | EndKind::RoyalLeftBoard)
    }

    /// Whether the condition holds only if the piece it names cannot be captured at once.
    pub(crate) fn needs_safety(&self) -> bool {
        matches!(self, EndKind::ZoneReached { safe: true, .. })
    }

    /// Whether capturing a royal piece ends the game (then a capture chain stops on it).
    pub(crate) fn royal_capture_ends_game(&self) -> bool {
        matches!(self, EndKind::RoyalCaptured { last: None })
    }

    /// The winner (or a draw) this condition declares after a move, if it is met.
    pub(crate) fn after_move(&self, m: &AfterMove) -> Option<Option<Player>> {
        match self {
            EndKind::RoyalCaptured { last: None } => m.effects.royal_victim.map(|v| Some(v.other())),
            EndKind::RoyalCaptured { last: Some(royal) } => {
                let v = m.effects.royal_victim?;
                let left = m.board.iter().any(|c| royal[v] & (1u128 << c.index()) != 0);
                (!left).then_some(Some(v.other()))
            }
            EndKind::RoyalLeftBoard => m.effects.royal_left.map(|o| Some(o.other())),
            EndKind::ZoneFilled(cells) => [m.mover, m.mover.other()].into_iter().find_map(|p| {
                let z = &cells[p];
                let filled = !z.is_empty() && z.iter().all(|&c| !m.board[c as usize].is_empty() && m.board[c as usize].owner() == p);
                filled.then_some(Some(p))
            }),
            EndKind::ZoneReached { cells, kinds, win, .. } => {
                let code = *m.board.get(m.effects.to as usize)?;
                let owner = code.owner();
                (!code.is_empty() && kinds.contains(code.kind()) && cells[owner][m.effects.to as usize])
                    .then_some(Some(winner(*win, owner)))
            }
            EndKind::Beside { kinds, of, after_capture, win, neighbours } => {
                stands_beside(m, *kinds, *of, *after_capture, neighbours).map(|o| Some(winner(*win, o)))
            }
            EndKind::PiecesAtMost { count, win, reply: false } => {
                [m.mover.other(), m.mover].into_iter().find(|&p| (m.counts[p] as i64) <= *count).map(|p| Some(winner(*win, p)))
            }
            EndKind::PiecesAtMost { count, reply: true, .. } => pieces_at_most_replied(m, *count),
            EndKind::InARow { length, exactly, kinds, axes, win } => {
                completes_row(m, (*length, *exactly), *kinds, axes).map(|o| Some(winner(*win, o)))
            }
            EndKind::BoardFull { cells, result } => {
                let full = match cells {
                    None => (m.counts[Player::FIRST] + m.counts[Player::SECOND]) as usize == m.board.len(),
                    Some(cells) => cells.iter().all(|&c| !m.board[c as usize].is_empty()),
                };
                full.then_some(match result {
                    FullResult::Draw => None,
                    FullResult::Win => Some(m.mover),
                    FullResult::Loss => Some(m.mover.other()),
                    FullResult::MostPieces => Tally::MostPieces.winner(m.counts),
                })
            }
            EndKind::QuietMoves { plies, points, .. } => {
                (m.clock >= *plies).then(|| if *points { m.score.and_then(|s| s.winner(m.board, m.prisoners)) } else { None })
            }
            EndKind::Material { sets, hands } => material_met(m, sets, hands).then_some(None),
            EndKind::Checks { slot, win } => (m.counters[*slot as usize][m.mover] <= 0).then_some(Some(winner(*win, m.mover))),
            EndKind::Enclosed { cells, neighbours } => {
                enclosed(m.board, m.mover.other(), &cells[m.mover.other()], neighbours).then_some(Some(m.mover))
            }
            EndKind::Connected(c) => c.joined_at(m.board, m.effects.to).map(|p| Some(winner(c.win, p))),
            EndKind::Ring(r) => r.closed_at(m.board, m.effects.to).map(|p| Some(winner(r.win, p))),
            // (Facing is judged by the kernel after a pass, which knows the geometry.)
            EndKind::NoMoves { .. } | EndKind::BothPass(..) | EndKind::Repetition { .. } | EndKind::Facing { .. } => None,
        }
    }

    /// The kinds whose moves restart the `quiet_moves` clock, if the rule is declared.
    pub(crate) fn clock_kinds(&self) -> Option<KindSet> {
        match self {
            EndKind::QuietMoves { kinds, .. } => Some(*kinds),
            _ => None,
        }
    }

    /// The result this condition declares once the position has occurred `repetitions` times
    /// after `mover`'s move, if it is met (`points`: the winner by the count of `[rules]
    /// points`, asked only then).
    pub(crate) fn after_record(
        &self,
        repetitions: usize,
        mover: Player,
        points: impl FnOnce() -> Option<Player>,
    ) -> Option<Option<Player>> {
        match self {
            EndKind::Repetition { count, result } => (repetitions >= *count as usize).then(|| match result {
                RepetitionResult::Loss => Some(mover.other()),
                RepetitionResult::LossOf(p) => Some(p.other()),
                RepetitionResult::Draw => None,
                RepetitionResult::Points => points(),
            }),
            // Every other condition by name (no `_` arm): a new one of phase `AfterRecord`
            // must be decided here.
            EndKind::RoyalCaptured { .. }
            | EndKind::RoyalLeftBoard
            | EndKind::ZoneFilled(_)
            | EndKind::ZoneReached { .. }
            | EndKind::Beside { .. }
            | EndKind::PiecesAtMost { .. }
            | EndKind::InARow { .. }
            | EndKind::BoardFull { .. }
            | EndKind::QuietMoves { .. }
            | EndKind::Material { .. }
            | EndKind::Checks { .. }
            | EndKind::Enclosed { .. }
            | EndKind::Connected(_)
            | EndKind::Ring(_)
            | EndKind::Facing { .. }
            | EndKind::NoMoves { .. }
            | EndKind::BothPass(..) => None,
        }
    }

    /// What the condition decides when the player to decide has no legal move (the conditions
    /// of phase [`Phase::NoMoves`]); `None` for the others. Every condition is named (no `_`
    /// arm), so a new condition of that phase cannot compile without saying what it decides.
    pub(crate) fn on_no_moves(&self) -> Option<NoMovesEnd> {
        match self {
            EndKind::NoMoves { result, if_attacked } => Some(NoMovesEnd::Rule(*result, *if_attacked)),
            EndKind::BothPass(tally, kinds, _) => Some(NoMovesEnd::BothPass(*tally, *kinds)),
            EndKind::RoyalCaptured { .. }
            | EndKind::RoyalLeftBoard
            | EndKind::ZoneFilled(_)
            | EndKind::ZoneReached { .. }
            | EndKind::Beside { .. }
            | EndKind::PiecesAtMost { .. }
            | EndKind::InARow { .. }
            | EndKind::BoardFull { .. }
            | EndKind::QuietMoves { .. }
            | EndKind::Material { .. }
            | EndKind::Checks { .. }
            | EndKind::Enclosed { .. }
            | EndKind::Connected(_)
            | EndKind::Ring(_)
            | EndKind::Facing { .. }
            | EndKind::Repetition { .. } => None,
        }
    }
}

/// What a condition of phase [`Phase::NoMoves`] decides ([`EndKind::on_no_moves`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum NoMovesEnd {
    /// `no_moves`: its result, and the kinds that must be attacked for it to apply.
    Rule(NoMoves, Option<KindSet>),
    /// `passes`: the count that decides when both players pass in a row, over these kinds.
    BothPass(Tally, KindSet),
}

/// Whether none of `p`'s pieces can reach a cell of `zone` by steps along `neighbours` through
/// cells that hold no piece of the other player (empty, or `p`'s own): a flood fill from `p`'s
/// pieces. A player with no piece is not enclosed (another rule decides that game).
fn enclosed(board: &[PieceCode], p: Player, zone: &[bool], neighbours: &CellTable<u16>) -> bool {
    let mut seen = vec![false; board.len()];
    let mut stack: Vec<u16> = (0..board.len() as u16).filter(|&c| board[c as usize].is_of(p)).collect();
    if stack.is_empty() {
        return false;
    }
    for &c in &stack {
        seen[c as usize] = true;
    }
    while let Some(c) = stack.pop() {
        if zone[c as usize] {
            return false;
        }
        for &n in neighbours.get(c) {
            if !seen[n as usize] && !board[n as usize].is_of(p.other()) {
                seen[n as usize] = true;
                stack.push(n);
            }
        }
    }
    true
}

/// Who wins when a condition is met by `p`'s piece: `p` where it is a win, else the opponent.
fn winner(win: bool, p: Player) -> Player {
    if win { p } else { p.other() }
}

/// `beside`: the owner of the moved piece, if it is of `kinds` and now stands beside an enemy
/// piece of `of` (after a capture only, with `after_capture`).
fn stands_beside(m: &AfterMove, kinds: KindSet, of: KindSet, after_capture: bool, neighbours: &CellTable<u16>) -> Option<Player> {
    if after_capture && m.effects.captured == 0 {
        return None;
    }
    let code = *m.board.get(m.effects.to as usize)?;
    if code.is_empty() || !kinds.contains(code.kind()) {
        return None;
    }
    let owner = code.owner();
    let enemy = |n: &u16| {
        let c = m.board[*n as usize];
        !c.is_empty() && c.owner() != owner && of.contains(c.kind())
    };
    neighbours.get(m.effects.to).iter().any(enemy).then_some(owner)
}

/// `pieces_at_most` with a reply: the winner once a player brought to `count` pieces was not
/// answered, or cannot be.
fn pieces_at_most_replied(m: &AfterMove, count: i64) -> Option<Option<Player>> {
    let (mover, next) = (m.mover, m.mover.other());
    let at = |p: Player| (m.counts[p] as i64) <= count;
    if at(next) && !at(mover) && (m.counts[mover] as i64) > count + 1 {
        // No single capture can answer: the player to move is beaten now.
        Some(Some(mover))
    } else if at(mover) && !at(next) {
        // Brought to the count and not answered (or brought there by its own move).
        Some(Some(next))
    } else {
        None
    }
}

/// `in_a_row`: the owner of the moved piece, if it is of `kinds` and now ends a line of
/// `length` of its owner's pieces of `kinds` along one of `axes` (exactly that many when
/// `exactly`: a longer line does not count).
fn completes_row(m: &AfterMove, (length, exactly): (u32, bool), kinds: KindSet, axes: &[Vec<(u16, u16)>]) -> Option<Player> {
    let to = m.effects.to;
    let code = *m.board.get(to as usize)?;
    if code.is_empty() || !kinds.contains(code.kind()) {
        return None;
    }
    let same = |c: u16| c != NONE && m.board[c as usize].is_of(code.owner()) && kinds.contains(m.board[c as usize].kind());
    let line = |axis: &Vec<(u16, u16)>| {
        let mut n = 1;
        let (mut a, mut b) = axis[to as usize];
        while same(a) {
            n += 1;
            a = axis[a as usize].0;
        }
        while same(b) {
            n += 1;
            b = axis[b as usize].1;
        }
        if exactly { n == length } else { n >= length }
    };
    axes.iter().any(line).then_some(code.owner())
}

/// `material`: whether the pieces on the board, by kind, are one of `sets` (checked only after
/// a capture or a promotion, the moves that change the material).
fn material_met(m: &AfterMove, sets: &[Vec<u8>], hands: &[u8]) -> bool {
    if m.effects.captured == 0 && m.effects.code == m.effects.new_code {
        return false;
    }
    if hands.iter().any(|&s| m.counters[s as usize].0.iter().any(|&n| n > 0)) {
        return false;
    }
    let total = (m.counts[Player::FIRST] + m.counts[Player::SECOND]) as usize;
    if sets.iter().all(|s| s.iter().map(|&n| n as usize).sum::<usize>() != total) {
        return false; // no set has this many pieces
    }
    let mut have = vec![0u8; sets[0].len()];
    for c in m.board.iter().filter(|c| !c.is_empty()) {
        let n = &mut have[c.kind().0 as usize];
        *n = n.saturating_add(1);
    }
    sets.contains(&have)
}

/// `zone_reached` with `standing` after a move of `mover`: the player whose piece of `kinds`
/// stands in its part of the zone (`cells`), where `safe` says the other player cannot take
/// it; the player to decide next is asked first, and where both have one it is a draw
/// (`Some(None)`). `None`: neither has one.
pub(crate) fn standing_in_zone(
    board: &[PieceCode],
    cells: &ByPlayer<Vec<bool>>,
    kinds: KindSet,
    mover: Player,
    safe: impl Fn(u16) -> bool,
) -> Option<Option<Player>> {
    let stands = |p: Player| {
        (0..board.len() as u16).any(|c| {
            let code = board[c as usize];
            !code.is_empty() && code.owner() == p && kinds.contains(code.kind()) && cells[p][c as usize] && safe(c)
        })
    };
    let next = mover.other();
    if stands(next) {
        return Some((!stands(mover)).then_some(next));
    }
    stands(mover).then_some(Some(mover))
}

/// The result a position read from a FEN (which cannot say the game is over) meets as it
/// stands: the conditions checked after a move, judged as if the player who is not to
/// decide had just moved, since a text does not say which move led there.
///
/// - a condition about the moved piece (`in_a_row`, `zone_reached`, `beside`) holds if it holds
///   for any piece of that player (`zone_reached` with `safe`: one the opponent cannot take);
/// - `ring`: any chain of that player encloses a cell (the whole board looked at);
/// - `royal_captured` and `royal_left_board`: a player who has royal pieces at the start and
///   none on the board has lost;
/// - `zone_filled`, `pieces_at_most`, `board_full`, `material` and the move limit read the board
///   and the ply as they are.
///
/// Not judged here: `beside` with `after_capture` and `quiet_moves` (they need the move: the
/// next move judges the clock), repetition and a pass while the royal pieces face (a text has
/// no history), what a script's `outcome`
/// hook would say, and having no legal move (judged whenever the moves are listed); nor a
/// position whose turn goes on (a pending continuation: who moved last is not known, the player
/// deciding may be the one who moved): the caller leaves those out.
///
/// `board`, `counts`, `counters`, `prisoners` and `ply` are the position's, `mover` the player not to decide,
/// `safe` whether the owner's opponent cannot take the piece on a cell.
#[allow(clippy::too_many_arguments)]
pub(crate) fn standing_result(
    rules: &super::Ruleset,
    board: &[PieceCode],
    counts: ByPlayer<u32>,
    counters: &[ByPlayer<i32>],
    prisoners: ByPlayer<u32>,
    ply: u32,
    mover: Player,
    safe: impl Fn(u16) -> bool,
) -> Option<Outcome> {
    let has_royal = |b: &[PieceCode], p: Player| b.iter().any(|c| !c.is_empty() && rules.royal_codes[p] & (1u128 << c.index()) != 0);
    let royal_gone = [mover.other(), mover].into_iter().find(|&p| has_royal(&rules.setup.board, p) && !has_royal(board, p));
    let at =
        |to: u16, captured: u32| MoveEffects { to, captured, royal_victim: royal_gone, royal_left: royal_gone, ..MoveEffects::default() };
    let judge = |e: &EndRule, fx: MoveEffects| {
        e.kind.after_move(&AfterMove {
            board,
            counts: &counts,
            effects: &fx,
            mover,
            clock: 0,
            counters,
            score: rules.score.as_ref(),
            prisoners,
        })
    };
    let found = rules.ends.iter().find_map(|e| {
        let winner = match &e.kind {
            EndKind::ZoneReached { cells, kinds, win, standing: true, .. } => {
                standing_in_zone(board, cells, *kinds, mover, &safe).map(|w| w.map(|p| if *win { p } else { p.other() }))?
            }
            EndKind::InARow { .. } | EndKind::Connected(_) | EndKind::ZoneReached { .. } | EndKind::Beside { after_capture: false, .. } => {
                (0..board.len() as u16)
                    .filter(|&c| !board[c as usize].is_empty() && board[c as usize].owner() == mover)
                    .find_map(|c| judge(e, at(c, 0)).filter(|_| !e.kind.needs_safety() || safe(c)))?
            }
            EndKind::Ring(r) => r.any(board, mover).then_some(Some(winner(r.win, mover)))?,
            EndKind::RoyalCaptured { .. } | EndKind::RoyalLeftBoard => judge(e, at(NONE, 1))?,
            // A capture (or promotion) is what makes these look at the material.
            EndKind::Material { .. } => judge(e, at(NONE, 1))?,
            EndKind::ZoneFilled(_)
            | EndKind::PiecesAtMost { .. }
            | EndKind::BoardFull { .. }
            | EndKind::Checks { .. }
            | EndKind::Enclosed { .. } => judge(e, at(NONE, 0))?,
            EndKind::Beside { .. }
            | EndKind::QuietMoves { .. }
            | EndKind::Repetition { .. }
            | EndKind::Facing { .. }
            | EndKind::NoMoves { .. }
            | EndKind::BothPass(..) => return None,
        };
        Some(e.outcome(winner))
    });
    found.or_else(|| (rules.move_limit > 0 && ply >= rules.move_limit).then(|| Outcome::draw("move limit")))
}

/// An end condition with the reason its results give.
#[derive(Clone, Debug)]
pub(crate) struct EndRule {
    pub(crate) kind: EndKind,
    /// Shared by every result it gives (a result costs no allocation).
    pub(crate) reason: std::sync::Arc<str>,
}

impl EndRule {
    /// The outcome for a winner (`None`: a draw), with this rule's reason.
    pub(crate) fn outcome(&self, winner: Option<Player>) -> Outcome {
        match winner {
            Some(p) => Outcome::win(p, self.reason.clone()),
            None => Outcome::draw(self.reason.clone()),
        }
    }
}

/// What the readers of the conditions see.
struct EndCtx<'a> {
    f: usize,
    zones: &'a ZoneMap,
    g: &'a Geometry,
    kinds: &'a [KindDef],
    counters: &'a [&'a str],
    players: &'a ByPlayer<String>,
}

type Reader = fn(&V, &RawEnd, &EndCtx) -> R<Option<EndKind>>;

/// Every condition by name, with its reader (`None` from a reader: the rule is off).
const CONDITIONS: [(&str, Reader); 18] = [
    ("royal_captured", royal_captured),
    ("royal_left_board", |_, _, _| Ok(Some(EndKind::RoyalLeftBoard))),
    ("zone_filled", zone_filled),
    ("zone_reached", zone_reached),
    ("beside", beside),
    ("pieces_at_most", pieces_at_most),
    ("in_a_row", in_a_row),
    ("board_full", board_full),
    ("no_moves", no_moves),
    ("passes", passes),
    ("repetition", repetition),
    ("quiet_moves", quiet_moves),
    ("material", material),
    ("checks", checks),
    ("facing", facing),
    ("enclosed", enclosed_rule),
    ("connected", connected),
    ("ring", ring),
];

/// `result = "points"` needs the count it names (`[rules] points`, or territory scoring's
/// `points_territory` or `points_prisoners`).
fn points_declared(v: &V, c: &EndCtx, r: &toml::Spanned<super::raw::Setting<String>>) -> R<()> {
    if v.m.rules.as_ref().is_some_and(|x| x.val.declares_count()) {
        return Ok(());
    }
    Err(v
        .err(c.f, r.span(), "`result = \"points\"` counts the pieces' `points`", "but [rules] declares none")
        .with_help("[rules] points = { rook = 5, knight = 3 } (and points_bonus = { black = 1.5 } if one side gets more)"))
}

/// `[rules] pass = true`: whether a player may pass at any turn.
fn voluntary_pass(v: &V) -> R<bool> {
    match v.m.rules.as_ref().and_then(|x| x.val.pass.as_ref().map(|p| (x.file, p))) {
        Some((f, p)) => v.setting(f, p),
        None => Ok(false),
    }
}

fn facing(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let r = e.result.as_ref().ok_or_else(|| need(v, e, c.f, "result"))?;
    let points = v.word(c.f, r, &["draw", "points"])? == "points";
    if points {
        points_declared(v, c, r)?;
    }
    if !voluntary_pass(v)? {
        return Err(v
            .err(
                c.f,
                e.condition.span(),
                "while the royal pieces face each other a player breaks it or passes",
                "but these rules have no pass",
            )
            .with_help("add [rules] pass = true"));
    }
    if !c.kinds.iter().any(|k| k.royal) {
        return Err(v
            .err(c.f, e.condition.span(), "`facing` is about the royal pieces", "but no kind is royal")
            .with_help("mark the general's kind with `royal = true`"));
    }
    Ok(Some(EndKind::Facing { points }))
}

fn checks(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let name = e.counter.as_ref().ok_or_else(|| need(v, e, c.f, "counter"))?;
    let known = crate::rules::names::Names::new("counter", c.counters.iter().copied());
    let slot = v.lookup(c.f, name.span(), &known, name.get_ref(), "", "declare it under [counters] with the checks to give")?;
    if !c.kinds.iter().any(|k| k.royal) {
        let err =
            v.err(c.f, e.condition.span(), "`checks` counts checks, and a check is an attack on a royal piece", "but no kind is royal");
        return Err(err.with_help("mark the king's kind `royal = true`"));
    }
    let win = match &e.result {
        None => true,
        Some(r) => v.word(c.f, r, &["win", "loss"])? == "win",
    };
    Ok(Some(EndKind::Checks { slot: slot as u8, win }))
}

fn royal_captured(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let last = match &e.last {
        Some(l) if v.setting(c.f, l)? => {
            let codes = |p: Player| {
                (0..c.kinds.len())
                    .filter(|&k| c.kinds[k].royal)
                    .fold(0u128, |s, k| s | 1u128 << PieceCode::new(crate::piece::KindId(k as u8), p).index())
            };
            Some(ByPlayer::new(codes(Player::FIRST), codes(Player::SECOND)))
        }
        _ => None,
    };
    Ok(Some(EndKind::RoyalCaptured { last }))
}

fn need(v: &V, e: &RawEnd, f: usize, what: &str) -> crate::rules::LoadError {
    v.err(f, e.condition.span(), format!("end condition `{}` needs `{what}`", e.condition.get_ref()), "this condition")
}

fn zone_filled(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let z = e.zone.as_ref().ok_or_else(|| need(v, e, c.f, "zone"))?;
    let mut cells = ByPlayer::new(Vec::new(), Vec::new());
    for p in Player::both() {
        let m = v.zone_named(c.f, z.get_ref(), z.span(), c.zones, p)?;
        cells[p] = c.g.cells().filter(|x| c.g.zones_of(x.0).meets(m)).map(|x| x.0).collect();
    }
    Ok(Some(EndKind::ZoneFilled(cells)))
}

fn zone_reached(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let z = e.zone.as_ref().ok_or_else(|| need(v, e, c.f, "zone"))?;
    let mut cells = ByPlayer::new(Vec::new(), Vec::new());
    for p in Player::both() {
        let m = v.zone_named(c.f, z.get_ref(), z.span(), c.zones, p)?;
        cells[p] = (0..c.g.len()).map(|x| c.g.zones_of(x as u16).meets(m)).collect();
    }
    let win = match &e.result {
        None => true,
        Some(r) => v.word(c.f, r, &["win", "loss"])? == "win",
    };
    let kinds = v.kind_set(c.f, &e.kinds, c.kinds)?;
    let safe = match &e.safe {
        None => false,
        Some(s) => v.setting(c.f, s)?,
    };
    let standing = match &e.standing {
        None => false,
        Some(s) => v.setting(c.f, s)?,
    };
    if standing && !safe {
        let at = e.standing.as_ref().map_or(e.condition.span(), |s| s.span());
        let err = v.err(c.f, at, "`standing` needs `safe = true`", "here");
        return Err(err.with_help("a piece standing in the zone is judged by whether the other player can take it"));
    }
    Ok(Some(EndKind::ZoneReached { cells, kinds, win, safe, standing }))
}

fn beside(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    if e.of.is_none() {
        return Err(need(v, e, c.f, "of"));
    }
    let of = v.kind_set(c.f, &e.of, c.kinds)?;
    let kinds = v.kind_set(c.f, &e.kinds, c.kinds)?;
    let win = match &e.result {
        None => false,
        Some(r) => v.word(c.f, r, &["loss", "win"])? == "win",
    };
    let after_capture = match &e.after {
        None => false,
        Some(a) => v.word(c.f, a, &["any_move", "capture"])? == "capture",
    };
    let dirs = match &e.directions {
        None => crate::rules::movement::named_dirs_on("all", 1, c.g.hex).unwrap_or_default(),
        Some(d) => crate::rules::movement::dirs_of(v, c.f, d, 1, false)?,
    };
    Ok(Some(EndKind::Beside { kinds, of, after_capture, win, neighbours: c.g.neighbour_table(&dirs) }))
}

/// `enclosed`: the zone each player's pieces must be able to reach, and the steps they take.
fn enclosed_rule(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let z = e.zone.as_ref().ok_or_else(|| need(v, e, c.f, "zone"))?;
    let mut cells = ByPlayer::new(Vec::new(), Vec::new());
    for p in Player::both() {
        let m = v.zone_named(c.f, z.get_ref(), z.span(), c.zones, p)?;
        cells[p] = c.g.cells().map(|x| c.g.zones_of(x.0).meets(m)).collect();
    }
    let dirs = match &e.directions {
        None => crate::rules::movement::named_dirs_on("orthogonal", 1, c.g.hex).unwrap_or_default(),
        Some(d) => crate::rules::movement::dirs_of(v, c.f, d, 1, false)?,
    };
    Ok(Some(EndKind::Enclosed { cells, neighbours: c.g.neighbour_table(&dirs) }))
}

// ---- connection (issue 51, part 3) ----

/// `connected`: the zones a chain must join (2 to 16 goals, each with a cell in each
/// player's part; with `each_cell` every cell of a zone is a goal), how many of them
/// (`at_least`), the chain's adjacency (`directions`, default the board's: `orthogonal`, six
/// on a hex board), the kinds that make chains, and whether joining wins.
fn connected(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    use super::connect::{Connection, MAX_GOALS};
    let zs = e.zones.as_ref().ok_or_else(|| need(v, e, c.f, "zones"))?;
    let each_cell = match &e.each_cell {
        Some(x) => v.setting(c.f, x)?,
        None => false,
    };
    let n = zs.get_ref().len();
    if !(1..=MAX_GOALS).contains(&n) || (n == 1 && !each_cell) {
        let err = v.err(c.f, zs.span(), format!("a connection joins 2 to {MAX_GOALS} zones, not {n}"), "here");
        return Err(err.with_help("zones = [\"north_edge\", \"south_edge\"] (a per-player zone gives each player its own sides)"));
    }
    let mut marks = ByPlayer::new(vec![0u16; c.g.len()], vec![0u16; c.g.len()]);
    let mut goals = ByPlayer::new(0u32, 0u32);
    for z in zs.get_ref() {
        for p in Player::both() {
            let m = v.zone_named(c.f, z.get_ref(), z.span(), c.zones, p)?;
            let cells: Vec<u16> = c.g.cells().filter(|x| c.g.zones_of(x.0).meets(m)).map(|x| x.0).collect();
            if cells.is_empty() {
                let msg = format!("zone `{}` has no cell for {}: no chain could join it", z.get_ref(), c.players[p]);
                return Err(v.err(c.f, z.span(), msg, "here"));
            }
            let first = goals[p];
            goals[p] += if each_cell { cells.len() as u32 } else { 1 };
            if goals[p] as usize > MAX_GOALS {
                let what = if each_cell { "cells (each a goal with `each_cell`)" } else { "zones" };
                let msg = format!("a connection joins at most {MAX_GOALS} goals; {} has more {what}", c.players[p]);
                return Err(v.err(c.f, z.span(), msg, "the goals pass the limit here"));
            }
            for (i, x) in cells.iter().enumerate() {
                marks[p][*x as usize] |= 1 << (first + if each_cell { i as u32 } else { 0 });
            }
        }
    }
    let at_least = connected_at_least(v, e, c, goals)?;
    let dirs = match &e.directions {
        None => crate::rules::movement::named_dirs_on("orthogonal", 1, c.g.hex).unwrap_or_default(),
        Some(d) => crate::rules::movement::dirs_of(v, c.f, d, 1, false)?,
    };
    let win = match &e.result {
        None => true,
        Some(r) => v.word(c.f, r, &["win", "loss"])? == "win",
    };
    let kinds = v.kind_set(c.f, &e.kinds, c.kinds)?;
    let neighbours = c.g.neighbour_table(&dirs);
    let neighbour_sets = crate::rules::connect::NeighbourSets::of(&neighbours, c.g.len());
    Ok(Some(EndKind::Connected(Connection { marks, goals, at_least, each_cell, kinds, neighbours, neighbour_sets, win })))
}

/// `connected`'s `at_least`: 2 to the fewer goals a player has (default: each player's all).
fn connected_at_least(v: &V, e: &RawEnd, c: &EndCtx, goals: ByPlayer<u32>) -> R<ByPlayer<u32>> {
    let Some(a) = &e.at_least else {
        if goals.0.contains(&1) {
            let zs = e.zones.as_ref().map_or(e.condition.span(), |z| z.span());
            let err = v.err(c.f, zs, "a connection joins 2 goals or more", "this zone has one cell, one goal");
            return Err(err.with_help("list a zone of several cells with `each_cell = true`, or more zones"));
        }
        return Ok(goals);
    };
    let n: i64 = v.setting(c.f, a)?;
    let most = goals.0.iter().copied().min().unwrap_or(0) as i64;
    if !(2..=most).contains(&n) {
        let err = v.err(c.f, a.span(), format!("`at_least` is 2 to {most} (the goals the chain may touch), not {n}"), "here");
        return Err(err.with_help("a chain touching one goal would win with any piece in it: write zone_reached for that"));
    }
    Ok(ByPlayer::new(n as u32, n as u32))
}

// ---- end of connection ----

// ---- ring (issue 51, part 3: Havannah) ----

/// `at_least` and `each_cell` belong to `connected`: elsewhere they are an error at the key.
fn connection_keys_only_there(v: &V, e: &RawEnd, f: usize) -> R<()> {
    let cname = e.condition.get_ref();
    let span = e.at_least.as_ref().map(|x| x.span()).or_else(|| e.each_cell.as_ref().map(|x| x.span()));
    match span {
        Some(span) if cname != "connected" => {
            let key = if e.at_least.is_some() { "at_least" } else { "each_cell" };
            let err = v.err(f, span, format!("`{key}` belongs to `connected`, not to `{cname}`"), "here");
            Err(err.with_help("it says how many of a connection's goals one chain must touch, or makes each cell a goal"))
        }
        _ => Ok(()),
    }
}

/// `ring`: the chain's adjacency (`directions`, default the board's `orthogonal`: six on a hex
/// board; at most 16), the kinds that make chains, and whether a ring wins.
fn ring(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    use super::ring::{MAX_DIRECTIONS, Ring};
    let dirs = match &e.directions {
        None => crate::rules::movement::named_dirs_on("orthogonal", 1, c.g.hex).unwrap_or_default(),
        Some(d) => {
            let dirs = crate::rules::movement::dirs_of(v, c.f, d, 1, false)?;
            if dirs.len() > MAX_DIRECTIONS {
                let msg = format!("a ring's chain is joined along at most {MAX_DIRECTIONS} directions, not {}", dirs.len());
                return Err(v.err(c.f, d.span(), msg, "here"));
            }
            dirs
        }
    };
    let win = match &e.result {
        None => true,
        Some(r) => v.word(c.f, r, &["win", "loss"])? == "win",
    };
    let kinds = v.kind_set(c.f, &e.kinds, c.kinds)?;
    Ok(Some(EndKind::Ring(Ring::new(c.g.len(), &dirs, |x, d| c.g.offset(crate::geometry::Cell(x), d), kinds, win))))
}

// ---- end of ring ----

fn pieces_at_most(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let n = e.count.as_ref().ok_or_else(|| need(v, e, c.f, "count"))?;
    let win = match &e.result {
        None => false,
        Some(r) => v.word(c.f, r, &["loss", "win"])? == "win",
    };
    let count: i64 = v.setting(c.f, n)?;
    let cells = c.g.len() as i64;
    if !(0..=cells).contains(&count) {
        return Err(v.err(c.f, n.span(), format!("a piece count is 0 to {cells} (the board's cells), not {count}"), "here"));
    }
    let reply = match &e.reply {
        Some(r) => v.setting(c.f, r)?,
        None => false,
    };
    if reply && win {
        let at = e.reply.as_ref().map_or(n.span(), |r| r.span());
        return Err(v
            .err(c.f, at, "`reply` gives a player brought to the count a move to answer", "but here reaching the count wins")
            .with_help("remove `reply`, or make the result a loss"));
    }
    Ok(Some(EndKind::PiecesAtMost { count, win, reply }))
}

fn in_a_row(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let n = e.length.as_ref().ok_or_else(|| need(v, e, c.f, "length"))?;
    let length: i64 = v.setting(c.f, n)?;
    let most = c.g.files.max(c.g.ranks) as i64;
    if !(2..=most).contains(&length) {
        return Err(v.err(c.f, n.span(), format!("a line's length is 2 to {most} (the board's longer side), not {length}"), "here"));
    }
    let win = match &e.result {
        None => true,
        Some(r) => v.word(c.f, r, &["win", "loss"])? == "win",
    };
    let kinds = v.kind_set(c.f, &e.kinds, c.kinds)?;
    let dirs = match &e.directions {
        None => crate::rules::movement::named_dirs_on("all", 1, c.g.hex).unwrap_or_default(),
        Some(d) => crate::rules::movement::dirs_of(v, c.f, d, 1, false)?,
    };
    // A direction and its opposite are one axis.
    let mut axes: Vec<(i8, i8)> = dirs.iter().map(|&(x, y)| if (y, x) < (0, 0) { (-x, -y) } else { (x, y) }).collect();
    axes.sort();
    axes.dedup();
    let axes = axes.iter().map(|&(dx, dy)| c.g.cells().map(|x| (c.g.offset(x, (dx, dy)), c.g.offset(x, (-dx, -dy)))).collect()).collect();
    let exactly = match &e.exactly {
        Some(x) => v.setting(c.f, x)?,
        None => false,
    };
    Ok(Some(EndKind::InARow { length: length as u32, exactly, kinds, axes, win }))
}

fn board_full(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let r = e.result.as_ref().ok_or_else(|| need(v, e, c.f, "result"))?;
    let result = match v.word(c.f, r, &["draw", "win", "loss", "most_pieces"])?.as_str() {
        "draw" => FullResult::Draw,
        "win" => FullResult::Win,
        "most_pieces" => FullResult::MostPieces,
        _ => FullResult::Loss,
    };
    let cells = match &e.zone {
        Some(z) if z.get_ref() != "board" => {
            let m = v.zone_named(c.f, z.get_ref(), z.span(), c.zones, Player::FIRST)?;
            let m2 = v.zone_named(c.f, z.get_ref(), z.span(), c.zones, Player::SECOND)?;
            if m != m2 {
                return Err(v.err(
                    c.f,
                    z.span(),
                    format!("`board_full` needs a zone shared by both players; `{}` differs per player", z.get_ref()),
                    "here",
                ));
            }
            Some(c.g.cells().filter(|x| c.g.zones_of(x.0).meets(m)).map(|x| x.0).collect())
        }
        _ => None,
    };
    Ok(Some(EndKind::BoardFull { cells, result }))
}

fn no_moves(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let r = e.result.as_ref().ok_or_else(|| need(v, e, c.f, "result"))?;
    let result = match v.word(c.f, r, &["loss", "draw", "pass", "win"])?.as_str() {
        "loss" => NoMoves::Loss,
        "draw" => NoMoves::Draw,
        "win" => NoMoves::Win,
        _ => NoMoves::Pass,
    };
    let if_attacked = match &e.if_attacked {
        None => None,
        Some(kinds) => Some(v.kind_set(c.f, &Some(kinds.clone()), c.kinds)?),
    };
    Ok(Some(EndKind::NoMoves { result, if_attacked }))
}

fn passes(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    if let Some(n) = &e.count {
        let count: i64 = v.setting(c.f, n)?;
        if count != 2 {
            let err = v.err(c.f, n.span(), format!("the passes that end a game are 2 in a row, not {count}"), "here");
            return Err(err.with_help("passes are forced (`no_moves = pass`), so a third in a row would repeat the second"));
        }
    }
    let r = e.result.as_ref().ok_or_else(|| need(v, e, c.f, "result"))?;
    // The pieces the tally counts: `kinds`, or every kind.
    let kinds = v.kind_set(c.f, &e.kinds, c.kinds)?;
    let tally = match v.word(c.f, r, &["most_pieces", "fewest_pieces", "draw", "points"])?.as_str() {
        "most_pieces" => Tally::MostPieces,
        "fewest_pieces" => Tally::FewestPieces,
        "points" => {
            points_declared(v, c, r)?;
            Tally::Points
        }
        _ => Tally::Draw,
    };
    let played = match &e.played {
        None => false,
        Some(p) => v.setting(c.f, p)?,
    };
    Ok(Some(EndKind::BothPass(tally, kinds, played)))
}

fn repetition(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let n = e.count.as_ref().ok_or_else(|| need(v, e, c.f, "count"))?;
    let count = v.setting(c.f, n)?;
    let r = e.result.as_ref().ok_or_else(|| need(v, e, c.f, "result"))?;
    let result = match v.word(c.f, r, &["loss", "draw", "points"])?.as_str() {
        "loss" => match &e.loser {
            Some(l) => RepetitionResult::LossOf(loser(v, c, l)?),
            None => RepetitionResult::Loss,
        },
        "points" => {
            points_declared(v, c, r)?;
            RepetitionResult::Points
        }
        _ => RepetitionResult::Draw,
    };
    if let Some(l) = e.loser.as_ref().filter(|_| !matches!(result, RepetitionResult::LossOf(_))) {
        let err = v.err(c.f, l.span(), "`loser` names who loses by repetition", "but the rule's result is not a loss");
        return Err(err.with_help("write result = \"loss\" with it"));
    }
    if count == 0 {
        return Ok(None); // 0 turns the rule off
    }
    if !(2..=1000).contains(&count) {
        return Err(v.err(c.f, n.span(), format!("a repetition count is 2 to 1000 (0 = off), not {count}"), "here"));
    }
    Ok(Some(EndKind::Repetition { count: count as u32, result }))
}

/// The player a repetition's `loser` names.
fn loser(v: &V, c: &EndCtx, l: &toml::Spanned<String>) -> R<Player> {
    let known = crate::rules::names::Names::new("player", c.players.0.iter().map(String::as_str));
    let i = v.lookup(c.f, l.span(), &known, l.get_ref(), "", "not a player of this variant")?;
    Ok(Player::both()[i])
}

fn quiet_moves(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let n = e.count.as_ref().ok_or_else(|| need(v, e, c.f, "count"))?;
    let count: i64 = v.setting(c.f, n)?;
    if count == 0 {
        return Ok(None); // 0 turns the rule off
    }
    if !(1..=10_000).contains(&count) {
        return Err(v.err(c.f, n.span(), format!("a count of quiet moves is 1 to 10000 plies (0 = off), not {count}"), "here"));
    }
    let points = match &e.result {
        Some(r) if v.word(c.f, r, &["draw", "points"])? == "points" => {
            points_declared(v, c, r)?;
            true
        }
        _ => false,
    };
    let kinds = match &e.kinds {
        None => KindSet::EMPTY,
        Some(_) => v.kind_set(c.f, &e.kinds, c.kinds)?,
    };
    Ok(Some(EndKind::QuietMoves { plies: count as u32, kinds, points }))
}

fn material(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let raw = e.sets.as_ref().ok_or_else(|| need(v, e, c.f, "sets"))?;
    if let Some(r) = &e.result {
        v.word(c.f, r, &["draw"])?;
    }
    let known = crate::rules::names::Names::new("piece kind", c.kinds.iter().map(|k| k.name.as_str()));
    let mut sets = Vec::new();
    for set in raw {
        let mut counts = vec![0u8; c.kinds.len()];
        for name in set {
            let k = v.lookup(c.f, name.span(), &known, name.get_ref(), " in a material set", "here")?;
            counts[k] = counts[k].saturating_add(1);
        }
        sets.push(counts);
    }
    if sets.is_empty() {
        return Err(v.err(c.f, e.condition.span(), "`material` needs at least one set of pieces", "this condition"));
    }
    let hand = |s: &str| c.kinds.iter().any(|k| crate::rules::hand_counter(&k.name) == s);
    let hands = (0..c.counters.len() as u8).filter(|&s| hand(c.counters[s as usize])).collect();
    Ok(Some(EndKind::Material { sets, hands }))
}

/// The `[[end]]` tables in force.
pub(super) fn stage_ends(
    v: &V,
    zones: &ZoneMap,
    g: &Geometry,
    kinds: &[KindDef],
    (counters, players): (&[&str], &ByPlayer<String>),
) -> R<Vec<EndRule>> {
    let mut out = Vec::new();
    let Some(ends) = &v.m.ends else {
        return Ok(out);
    };
    let names: Vec<&str> = CONDITIONS.iter().map(|(n, _)| *n).collect();
    let mut passes = None;
    let mut c = EndCtx { f: 0, zones, g, kinds, counters, players };
    for Src { file, val: e } in ends {
        c.f = *file;
        if let Some(r) = e.remove.as_ref().filter(|r| *r.get_ref()) {
            let named = e.name.as_ref().map_or("(no name)".to_string(), |n| format!("`{}`", n.get_ref()));
            let err = v.err(c.f, r.span(), format!("`remove` names no inherited end condition: {named}"), "here");
            return Err(err.with_help("an end answers to its `name`, its condition (where no other inherited end has it) or its reason"));
        }
        if !v.when(c.f, &e.when)? {
            continue;
        }
        let cname = e.condition.get_ref().as_str();
        let Some((_, read)) = CONDITIONS.iter().find(|(n, _)| *n == cname) else {
            let expected = format!("expected one of: {}", names.join(", "));
            let err = v.err(c.f, e.condition.span(), format!("unknown end condition `{cname}`"), "here");
            return Err(match crate::rules::error::did_you_mean(cname, names.iter().copied()) {
                Some(h) => err.with_help(format!("{h} ({expected})")),
                None => err.with_help(expected),
            });
        };
        if let Some(k) = &e.if_attacked
            && cname != "no_moves"
        {
            let span = k.first().map_or(e.condition.span(), |x| x.span());
            let err = v.err(c.f, span, format!("`if_attacked` belongs to `no_moves`, not to `{cname}`"), "here");
            return Err(err.with_help("it makes a no-moves result depend on an attack (checkmate as against stalemate)"));
        }
        connection_keys_only_there(v, e, c.f)?;
        if let Some(kind) = read(v, e, &c)? {
            if let EndKind::BothPass(_, _, played) = kind {
                passes = Some((c.f, e.condition.span(), played));
            }
            out.push(EndRule { kind, reason: e.reason.clone().unwrap_or_else(|| cname.replace('_', " ")).into() });
        }
    }
    // Passes come from having no move, or from `[rules] pass` (then both are played).
    if let Some((f, span, played)) = passes
        && !out.iter().any(|e| matches!(e.kind, EndKind::NoMoves { result: NoMoves::Pass, .. }))
        && !(played && voluntary_pass(v)?)
    {
        let err = v.err(f, span, "`passes` needs a player with no move to pass", "here");
        return Err(err.with_help(
            "add an [[end]] with condition = \"no_moves\" and result = \"pass\", or let players pass at will ([rules] pass = true) and write played = true here",
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::rules::EndChecks;
    use crate::variant::Variant;

    /// `in_a_row` with `exactly`: on a 7 × 2 board, white's a1 b1 d1 then c1 makes four in a
    /// row, a win for "at least three" and nothing for "exactly three"; black's e2 f2 g2 then
    /// wins with exactly three.
    #[test]
    fn exactly_counts_only_a_line_of_that_length() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let result = |exactly: bool, moves: &str| {
            std::fs::create_dir_all(&dir).unwrap();
            let toml = format!(
                "name = \"exact\"\n[board]\nfiles = 7\nranks = 2\n[players]\nnames = [\"white\", \"black\"]\n[pieces.mark]\nsymbol = {{ white = \"X\", black = \"O\" }}\ndrop = {{ supply = \"unlimited\" }}\n[[end]]\ncondition = \"in_a_row\"\nlength = 3\nexactly = {exactly}\ndirections = \"orthogonal\"\nreason = \"three\"\n[setup]\nrows = \"\"\"\n7\n7\n\"\"\"\n"
            );
            std::fs::write(dir.join("variant.toml"), toml).unwrap();
            let v = Variant::load(dir.to_str().unwrap(), &[]).unwrap();
            let mut pos = v.start();
            for m in moves.split_whitespace() {
                v.play(&mut pos, m).unwrap();
            }
            pos.result().map(|o| o.winner)
        };
        let four = "@a1 @a2 @b1 @g2 @d1 @f2 @c1";
        assert_eq!(result(false, four), Some(crate::outcome::Winner::Player(crate::piece::Player::FIRST)));
        assert_eq!(result(true, four), None);
        assert_eq!(result(true, &format!("{four} @e2")), Some(crate::outcome::Winner::Player(crate::piece::Player::SECOND)));
    }

    /// Make checks the end conditions after the moves that can meet one: no move in checkers
    /// (its only end is having no move), only a move that takes a king or takes one off the
    /// board in Lielow, every move where a condition reads the board.
    #[test]
    fn end_checks_follow_the_conditions() {
        for (name, want) in [
            ("checkers", EndChecks::Never),
            ("lielow", EndChecks::RoyalMoves),
            ("basileus", EndChecks::Every),
            ("tic-tac-toe", EndChecks::Every),
        ] {
            assert_eq!(Variant::load(name, &[]).unwrap().rules.end_checks, want, "{name}");
        }
    }

    /// Every condition of every shipped variant is decided in its phase: one of phase
    /// `NoMoves` says what it decides when no move is left, no other does; one of phase
    /// `AfterRecord` decides on a position repeated often enough, no other does.
    #[test]
    fn every_condition_is_decided_in_its_phase() {
        use super::Phase;
        use crate::piece::Player;
        let (mut no_moves, mut records) = (0, 0);
        for name in crate::variant::shipped_names() {
            let v = Variant::load(&name, &[]).unwrap();
            for e in &v.rules.ends {
                let phase = e.kind.phase();
                assert_eq!(e.kind.on_no_moves().is_some(), phase == Phase::NoMoves, "{name}: {}", e.reason);
                assert_eq!(
                    e.kind.after_record(1000, Player::FIRST, || None).is_some(),
                    phase == Phase::AfterRecord,
                    "{name}: {}",
                    e.reason
                );
                no_moves += (phase == Phase::NoMoves) as usize;
                records += (phase == Phase::AfterRecord) as usize;
            }
        }
        assert!(no_moves > 10 && records > 0, "{no_moves} no-moves and {records} repetition conditions");
    }
}
