//! The position: board, attributes, counters, side to move, a pending continuation, the result,
//! the hash and the repetition history; and make/undo.
//!
//! Make logs each board write and each attribute write with the value it replaced (a move
//! changes two or three cells, and a few of a board's hundreds of attribute values), and copies
//! the counters and the small fields (hash, piece counts, the players' cell sets) onto a stack,
//! so undo restores the exact previous state whatever the kernel or a script hook changed.
//! Every write goes through a setter that keeps the hash, the piece counts and the
//! occupied-cell sets (per player, and per piece code where the rules move by cell sets) up to
//! date: move generation and the crown visit a player's pieces through them, not by scanning
//! the board.

use crate::cellset::{CellSet, Cells};
use crate::geometry::NONE;
use crate::notation::{Move, MoveKind};
use crate::outcome::Outcome;
use crate::piece::PieceCode;
use crate::piece::{ByPlayer, Player};
use crate::rules::{CastleRights, Convert, EffectOn, MAX_ATTRIBUTES, MakePath, MoveEffects, Ruleset, Zobrist};
use push::Prior;
use std::sync::Arc;

mod push;
// Sowing (mancala).
mod sow;
pub(crate) use sow::final_count;
// What a move takes that it does not list (for the search).
mod takes;
mod text;

/// The moves a start position has room for on its undo stacks before they grow (a typical
/// game's length or a search's depth; Lielow's attributes make it 32 KiB).
const START_PLIES: usize = 64;

/// The bit of a cell in a player's set of occupied cells. Past cell 127 the set is never read
/// (larger boards are scanned), so the shift may wrap there.
#[inline(always)]
fn bit(cell: u16) -> u128 {
    // Read from a table: a shift of 128 bits is seven instructions, two of them branches'
    // stand-ins, and a move writes four to six bits.
    BITS[(cell & 127) as usize]
}

/// [`bit`]'s table: the bit of each cell 0 to 127.
static BITS: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// An iterator over one player's occupied cells ([`Position::cells_of`]).
pub(crate) struct CellsOf<'a> {
    bits: Cells,
    /// The board, on boards too large for the bit set (else empty).
    board: &'a [PieceCode],
    next: usize,
    p: Player,
}

impl Iterator for CellsOf<'_> {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        if self.board.is_empty() {
            return self.bits.next();
        }
        while self.next < self.board.len() {
            let c = self.next;
            self.next += 1;
            if self.board[c].is_of(self.p) {
                return Some(c as u16);
            }
        }
        None
    }
}

/// A further decision handed to a player in the middle of a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Continuation {
    /// Who decides now.
    pub(crate) player: Player,
    /// Whose turn this continuation belongs to (the turn passes to the other player after it).
    pub(crate) turn: Player,
    /// A word that says what is being decided (`retreat`, `extra_move`); shared, so a
    /// continuation is copied without allocating.
    pub(crate) tag: Arc<str>,
    /// The explicit choices (moves of any piece): up to eight without allocating.
    pub(crate) moves: Choices,
    /// Whether every normal move of `player` is also a choice.
    pub(crate) normal: bool,
    /// What the kernel makes of it (read from the tag).
    pub(crate) kind: ContinuationKind,
}

/// A continuation's explicit choices.
pub(crate) type Choices = smallvec::SmallVec<[Move; 8]>;

/// The continuations the kernel hands out itself (a push's retreats and extra move), told apart
/// without reading the tag on every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ContinuationKind {
    /// A script's continuation.
    Other,
    /// `extra_move`: a further normal move.
    Extra,
    /// `retreat`: a victim's retreat is chosen.
    Retreat,
    /// `retreat_from_CELL`: a victim's retreat is chosen; the other victims beside the cell follow.
    RetreatFrom(u16),
}

impl ContinuationKind {
    /// The kind a tag names.
    pub(crate) fn of_tag(tag: &str, g: &crate::geometry::Geometry) -> ContinuationKind {
        match tag {
            "extra_move" => ContinuationKind::Extra,
            "retreat" => ContinuationKind::Retreat,
            _ => match tag.strip_prefix("retreat_from_").map(|c| g.parse_cell(c)) {
                Some(Ok(c)) => ContinuationKind::RetreatFrom(c.0),
                _ => ContinuationKind::Other,
            },
        }
    }
}

/// One player's highest value of the crown's attribute, how many of its pieces hold it, and
/// (when one does) that piece's cell: kept through make and undo so that the crown's update
/// after most moves reads it instead of visiting every piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Top {
    pub(crate) best: i32,
    /// 0: not known (the next crown update visits the pieces).
    pub(crate) count: u16,
    pub(crate) at: u16,
}

impl Top {
    pub(crate) const UNKNOWN: Top = Top { best: 0, count: 0, at: 0 };

    /// After the player's piece holding `a` moved to `to` holding `b`, its other pieces
    /// unchanged.
    #[inline(always)]
    pub(crate) fn moved(&mut self, a: i32, b: i32, to: u16) {
        if self.count == 0 {
        } else if b > self.best {
            *self = Top { best: b, count: 1, at: to };
        } else if a == self.best {
            if b == a {
                self.at = to;
            } else {
                // One fewer holds the highest: where the one left stands is not known.
                self.count = if self.count > 2 { self.count - 1 } else { 0 };
            }
        } else if b == self.best {
            self.count += 1;
        }
    }

    /// The [`Top`] of a player's pieces, `values` their (cell, value) in cell order: the first
    /// cell where one holds the highest value.
    pub(crate) fn of(values: impl Iterator<Item = (u16, i32)>) -> Top {
        let (mut best, mut count, mut at) = (i32::MIN, 0u32, 0);
        for (cell, v) in values {
            if v > best {
                (best, count, at) = (v, 1, cell);
            } else if v == best {
                count += 1;
            }
        }
        // More holders than a `u16` counts are as good as unknown (no board is that large).
        Top { best, count: u16::try_from(count).unwrap_or(0), at }
    }
}

/// The kernel's crown rule over one player's pieces (`cells`, in cell order; `top` their
/// [`Top`] of the crown's attribute): where one piece holds the highest value and is not
/// crowned, the crown moves to it, from the last crowned piece if any: `(from, to)`. A tie, no
/// piece, or a crowned highest piece leaves it where it is (`None`).
pub(crate) fn crown_move(top: Top, cells: impl Iterator<Item = u16>, crowned: impl Fn(u16) -> bool) -> Option<(Option<u16>, u16)> {
    if top.count != 1 || crowned(top.at) {
        return None;
    }
    Some((cells.filter(|&c| crowned(c)).last(), top.at))
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    hash: u64,
    ply: u32,
    history_len: u32,
    cell_log_len: u32,
    attr_log_len: u32,
    seed_log_len: u32,
    side: Player,
    en_passant: Option<(u16, u16)>,
    castle: CastleRights,
    clock: u32,
    prisoners: [u32; 2],
    since: u32,
    recorded_total: u32,
    grew: bool,
    top: [Top; 2],
    /// Whether a continuation or result was saved on `saved_extra`.
    extra: bool,
}

/// What undoing a move of [`Position::make_plain`] reads beside the cell log (its victims)
/// and the attribute log (their values, the mover's and the crown's): the piece's cells and
/// codes, the hash, the crown's [`Top`]s, and what the repetition record and a result's
/// prisoners change after it.
#[derive(Clone, Copy, Debug)]
struct PlainFrame {
    hash: u64,
    under: u32,
    history_len: u32,
    since: u32,
    recorded_total: u32,
    cell_log_len: u32,
    attr_log_len: u32,
    prisoners: [u32; 2],
    top: [Top; 2],
    from: u16,
    to: u16,
    code: PieceCode,
    new_code: PieceCode,
    grew: bool,
}

/// A game position.
#[derive(Debug, Default)]
pub struct Position {
    board: Vec<PieceCode>,
    attrs: Vec<i32>,
    nattr: usize,
    /// Per counter, each player's value.
    counters: Vec<ByPlayer<i32>>,
    side: Player,
    ply: u32,
    cont: Option<Continuation>,
    result: Option<Outcome>,
    /// The cell an `en_passant` slide just passed, and where its piece stands: open to an en
    /// passant capture for this move only.
    en_passant: Option<(u16, u16)>,
    /// The rooks each player may still castle with.
    castle: CastleRights,
    /// Per player, its gates ([`crate::rules::Gating`]): cells holding one of its pieces that
    /// never moved, where a piece in hand may enter as that piece leaves. Empty without gating.
    gates: ByPlayer<u128>,
    /// Whether the rules gate: the gates are then saved with each move.
    gating: bool,
    /// Plies since the last capture or move of a clock kind (`quiet_moves`; not hashed: the
    /// same position at another clock is the same position).
    clock: u32,
    /// Per player, the opponent's pieces its moves took off the board (`[rules]
    /// points_prisoners`; kept only where the count declares it; not hashed, as the clock).
    prisoners: ByPlayer<u32>,
    /// Kept up to date by every setter.
    hash: u64,
    counts: ByPlayer<u32>,
    /// Per player, a bit per cell holding one of its pieces (cells 0 to 127; a larger board is
    /// scanned instead, see [`Position::cells_of`]).
    occupied: ByPlayer<u128>,
    /// Per piece code (by [`PieceCode::index`]), a bit per cell holding one: kept where the
    /// board has at most 128 cells, else empty.
    by_code: Vec<u128>,
    /// The crown's attribute slot ([`crate::rules::Crown::by`]; `u8::MAX` without a crown),
    /// and per player its [`Top`]: a write to that slot or to a player's cells forgets the
    /// player's.
    crown_by: u8,
    top: ByPlayer<Top>,
    /// Position keys since the start position (inclusive), for repetition rules and for the
    /// search's view of positions that already occurred.
    history: Vec<u64>,
    /// Where in `history` the positions that may equal the current one begin: while the
    /// board's piece total has never risen along the history (`grew`), a position recorded
    /// before the total last fell has more pieces than every later one, so the repetition
    /// count need not read it. 0 once the total rose.
    since: u32,
    /// The board's piece total when the last history entry was recorded.
    recorded_total: u32,
    /// Whether the piece total rose at some record of the history.
    grew: bool,
    /// Each board write since the first unfinished move: (cell, the code before), undone in
    /// reverse (a move changes two or three cells; copying the board and the per-code sets
    /// cost more than the move).
    cell_log: Vec<(u16, PieceCode)>,
    /// Each attribute write since the first unfinished move: (index, the value before), undone
    /// in reverse (a move changes a few of them; copying them all cost Lielow 512 bytes twice).
    attr_log: Vec<(u32, i32)>,
    saved_counters: Vec<ByPlayer<i32>>,
    saved_gates: Vec<ByPlayer<u128>>,
    /// The continuation and result before a move, saved only when one of them is set.
    saved_extra: Vec<(Option<Continuation>, Option<Outcome>)>,
    frames: Vec<Frame>,
    /// The moves [`Position::make_plain`] played, each above the `frames` it names
    /// (`under`): undo takes the top one where no general frame was pushed after it.
    plain_frames: Vec<PlainFrame>,
    // ---- Sowing (mancala) ----
    /// Per cell, the seeds it holds (empty without `[sowing]`); hashed, and logged like the
    /// board.
    seeds: Vec<u16>,
    /// Each seed write since the first unfinished move: (cell, the count before).
    seed_log: Vec<(u16, u16)>,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        let mut p = Position::default();
        p.clone_from(self);
        p
    }

    /// Field by field, each list into the room it already has: a position reset to a game's
    /// start for each game of a study allocates nothing.
    fn clone_from(&mut self, o: &Position) {
        // Every field named: a new one does not compile until it is copied here.
        let Position {
            board,
            attrs,
            nattr,
            counters,
            side,
            ply,
            cont,
            result,
            en_passant,
            castle,
            gates,
            gating,
            clock,
            prisoners,
            hash,
            counts,
            occupied,
            by_code,
            crown_by,
            top,
            history,
            since,
            recorded_total,
            grew,
            cell_log,
            attr_log,
            saved_counters,
            saved_gates,
            saved_extra,
            frames,
            plain_frames,
            seeds,
            seed_log,
        } = self;
        board.clone_from(&o.board);
        attrs.clone_from(&o.attrs);
        *nattr = o.nattr;
        counters.clone_from(&o.counters);
        *side = o.side;
        *ply = o.ply;
        cont.clone_from(&o.cont);
        result.clone_from(&o.result);
        *en_passant = o.en_passant;
        *castle = o.castle;
        *gates = o.gates;
        *gating = o.gating;
        *clock = o.clock;
        *prisoners = o.prisoners;
        *hash = o.hash;
        *counts = o.counts;
        *occupied = o.occupied;
        by_code.clone_from(&o.by_code);
        *crown_by = o.crown_by;
        *top = o.top;
        history.clone_from(&o.history);
        *since = o.since;
        *recorded_total = o.recorded_total;
        *grew = o.grew;
        cell_log.clone_from(&o.cell_log);
        attr_log.clone_from(&o.attr_log);
        saved_counters.clone_from(&o.saved_counters);
        saved_gates.clone_from(&o.saved_gates);
        saved_extra.clone_from(&o.saved_extra);
        frames.clone_from(&o.frames);
        plain_frames.clone_from(&o.plain_frames);
        seeds.clone_from(&o.seeds);
        seed_log.clone_from(&o.seed_log);
    }
}

/// The sets' view of a position: its own answers.
impl crate::rules::setwise::Occupancy for Position {
    #[inline(always)]
    fn cells_by_code(&self) -> &[u128] {
        Position::cells_by_code(self)
    }
    #[inline(always)]
    fn occupied_cells(&self) -> u128 {
        Position::occupied_cells(self)
    }
    #[inline(always)]
    fn occupied(&self, p: Player) -> u128 {
        Position::occupied(self, p)
    }
    #[inline(always)]
    fn counts(&self) -> ByPlayer<u32> {
        Position::counts(self)
    }
    #[inline(always)]
    fn board(&self) -> &[PieceCode] {
        Position::board(self)
    }
    #[inline(always)]
    fn view(&self) -> crate::rules::BoardView<'_> {
        Position::view(self)
    }
}

impl Default for Player {
    fn default() -> Player {
        Player::FIRST
    }
}

impl PartialEq for Position {
    /// Positions are equal when everything that matters for play is: the undo machinery is not
    /// compared.
    fn eq(&self, o: &Position) -> bool {
        self.board == o.board
            && self.attrs == o.attrs
            && self.counters == o.counters
            && self.side == o.side
            && self.ply == o.ply
            && self.cont == o.cont
            && self.result == o.result
            && self.hash == o.hash
            && self.counts == o.counts
            && self.en_passant == o.en_passant
            && self.castle == o.castle
            && self.gates == o.gates
            && self.clock == o.clock
            && self.prisoners == o.prisoners
            && self.history == o.history
            && self.seeds == o.seeds
    }
}

impl Position {
    /// The start position of a ruleset.
    pub(crate) fn start(rules: &Ruleset) -> Position {
        let mut p = Position {
            board: rules.setup.board.clone(),
            attrs: rules.setup.attrs.clone(),
            nattr: rules.nattr(),
            counters: rules.counters.iter().map(|&(_, v)| ByPlayer::new(v, v)).collect(),
            side: rules.first,
            castle: rules.castling.as_ref().map_or(CastleRights::NONE, |c| c.start_rights(&rules.geometry, &rules.setup.board)),
            seeds: rules.sowing.as_ref().map_or_else(Vec::new, |s| s.start.clone()),
            ..Position::default()
        };
        p.rehash(rules);
        if let Some(g) = &rules.drops.gating {
            // Every cell of a gated kind's zone holding one of its player's pieces, for a
            // player with a gated kind in hand.
            let gates = Player::both().map(|q| if p.gated_in_hand(rules, q) { g.cells[q] & p.occupied[q] } else { 0 });
            p.set_gates(ByPlayer::new(gates[0], gates[1]));
        }
        p.history.push(p.hash);
        p.recorded_total = p.total();
        p.reserve_plies(START_PLIES);
        p
    }

    /// Room on the undo stacks for `plies` moves, so that a game's first moves do not grow
    /// them one doubling at a time.
    pub(crate) fn reserve_plies(&mut self, plies: usize) {
        self.cell_log.reserve(plies * 4);
        self.attr_log.reserve(if self.attrs.is_empty() { 0 } else { plies * 4 });
        self.saved_counters.reserve(plies * self.counters.len());
        self.frames.reserve(plies);
        self.plain_frames.reserve(plies);
        self.history.reserve(plies);
    }

    /// Recomputes the hash and piece counts from scratch.
    pub fn rehash(&mut self, rules: &Ruleset) {
        let z = &rules.zobrist;
        let mut h = z.side[self.side.index()];
        let mut counts = ByPlayer::new(0, 0);
        let mut occupied = ByPlayer::new(0u128, 0);
        let mut by_code = Vec::new();
        if crate::cellset::CellSet::fits(rules.geometry.len()) {
            by_code.resize(PieceCode::count(rules.kinds.len()), 0);
        }
        for (c, &code) in self.board.iter().enumerate() {
            if !code.is_empty() {
                h ^= z.piece(c as u16, code);
                counts[code.owner()] += 1;
                occupied[code.owner()] |= bit(c as u16);
                if let Some(s) = by_code.get_mut(code.index()) {
                    *s |= bit(c as u16);
                }
            }
            for s in 0..self.nattr {
                h ^= Zobrist::attribute(c as u16, s as u8, self.attrs[c * self.nattr + s]);
            }
        }
        for (slot, values) in self.counters.iter().enumerate() {
            for p in Player::both() {
                h ^= Zobrist::counter(p, slot as u8, values[p]);
            }
        }
        if self.cont.is_some() {
            h ^= z.continuation;
        }
        if let Some((at, _)) = self.en_passant {
            h ^= Zobrist::en_passant(at);
        }
        h ^= castle_key(self.castle);
        h ^= gates_key(self.gates);
        if self.swap_open(rules) {
            h ^= Zobrist::PIE;
        }
        for (c, &n) in self.seeds.iter().enumerate() {
            h ^= Zobrist::seeds(c as u16, n);
        }
        self.hash = h;
        self.counts = counts;
        self.occupied = occupied;
        self.by_code = by_code;
        self.crown_by = rules.crown.map_or(u8::MAX, |c| c.by);
        self.top = ByPlayer::new(Top::UNKNOWN, Top::UNKNOWN);
    }

    /// `p`'s occupied cells as a bit set (boards of at most 128 cells).
    #[inline(always)]
    pub(crate) fn occupied(&self, p: Player) -> u128 {
        self.occupied[p]
    }

    /// Both players' occupied cells (boards of at most 128 cells).
    #[inline(always)]
    pub(crate) fn occupied_cells(&self) -> u128 {
        self.occupied[Player::FIRST] | self.occupied[Player::SECOND]
    }

    /// The cells of each piece code, by [`PieceCode::index`], where the rules have cell-set
    /// moves (else empty).
    #[inline(always)]
    pub(crate) fn cells_by_code(&self) -> &[u128] {
        &self.by_code
    }

    /// The board: a piece code per cell (0 = empty).
    #[inline(always)]
    pub fn board(&self) -> &[PieceCode] {
        &self.board
    }

    /// The board as scratch space for move generation, which empties cells during a capture
    /// chain and restores each one (the hash and counts are not touched, so every change must
    /// be undone before the position is used again).
    #[inline(always)]
    pub(crate) fn board_scratch(&mut self) -> &mut [PieceCode] {
        &mut self.board
    }

    /// What move generation reads: the board and attribute values.
    #[inline(always)]
    pub fn view(&self) -> crate::rules::BoardView<'_> {
        let en_passant = self.en_passant.map_or([NONE, NONE], |(at, piece)| [at, piece]);
        crate::rules::BoardView { board: &self.board, attrs: &self.attrs, nattr: self.nattr, en_passant, occupied: self.occupied_cells() }
    }

    /// Who decides next (the side to move, or the player a continuation hands the decision).
    #[inline(always)]
    pub fn side(&self) -> Player {
        self.side
    }

    /// Plies played since the game's start.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The pending continuation, if the turn is not over.
    pub(crate) fn continuation(&self) -> Option<&Continuation> {
        self.cont.as_ref()
    }

    /// The declared result, if the game is over by a rule.
    pub fn result(&self) -> Option<&Outcome> {
        self.result.as_ref()
    }

    /// Declares (or clears) the result.
    pub(crate) fn set_result(&mut self, r: Option<Outcome>) {
        self.result = r;
    }

    /// The position's hash (placement, attributes, counters, who decides, continuation).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// How many pieces each player has on the board.
    #[inline(always)]
    pub fn counts(&self) -> ByPlayer<u32> {
        self.counts
    }

    /// The first cell from `start` on that holds one of `p`'s pieces (for loops that change
    /// the board as they go, which [`cells_of`](Self::cells_of) would keep borrowed).
    #[inline]
    pub(crate) fn next_cell_of(&self, p: Player, start: usize) -> Option<u16> {
        if !CellSet::fits(self.board.len()) {
            return (start..self.board.len()).find(|&c| self.board[c].is_of(p)).map(|c| c as u16);
        }
        (CellSet::from_bits(self.occupied[p]) - CellSet::board(start)).first()
    }

    /// The cells holding `p`'s pieces, in cell order: read from a bit set on boards of at most
    /// 128 cells, by scanning the board on larger ones.
    #[inline]
    pub(crate) fn cells_of(&self, p: Player) -> CellsOf<'_> {
        let wide = !CellSet::fits(self.board.len());
        CellsOf {
            bits: CellSet::from_bits(if wide { 0 } else { self.occupied[p] }).iter(),
            board: if wide { &self.board } else { &[] },
            next: 0,
            p,
        }
    }

    /// The position keys since the start (or set-up) position, the current one last.
    pub(crate) fn history(&self) -> &[u64] {
        &self.history
    }

    /// How many times the current key occurs in the history (the current position included).
    /// Read from where a position with as many pieces may stand (`since`; from the start where
    /// the board now holds more pieces than at the last record, as a hook that placed some may
    /// ask before the move is recorded).
    pub(crate) fn repetitions(&self) -> usize {
        let k = self.hash;
        let from = if self.total() > self.recorded_total { 0 } else { self.since as usize };
        self.history[from..].iter().filter(|&&h| h == k).count()
    }

    /// The board's piece total.
    #[inline(always)]
    fn total(&self) -> u32 {
        self.counts.0[0] + self.counts.0[1]
    }

    #[inline(always)]
    pub(crate) fn piece(&self, cell: u16) -> PieceCode {
        self.board[cell as usize]
    }

    /// The number of attribute slots each cell carries.
    pub(crate) fn nattr(&self) -> usize {
        self.nattr
    }

    #[inline]
    pub fn attr(&self, cell: u16, slot: u8) -> i32 {
        self.attrs[cell as usize * self.nattr + slot as usize]
    }

    pub(crate) fn counter(&self, p: Player, slot: u8) -> i32 {
        self.counters[slot as usize][p]
    }

    /// Sets a cell's piece code (attributes are not touched).
    #[inline(always)]
    pub(crate) fn set_piece(&mut self, z: &Zobrist, cell: u16, code: PieceCode) {
        let old = self.board[cell as usize];
        if old == code {
            return;
        }
        self.hash ^= z.piece(cell, old) ^ z.piece(cell, code);
        if !self.frames.is_empty() {
            self.cell_log.push((cell, old)); // outside a move, no undo reaches it
        }
        if !old.is_empty() {
            self.counts[old.owner()] -= 1;
            self.top[old.owner()] = Top::UNKNOWN;
            self.occupied[old.owner()] &= !bit(cell);
            if let Some(s) = self.by_code.get_mut(old.index()) {
                *s &= !bit(cell);
            }
        }
        if !code.is_empty() {
            self.counts[code.owner()] += 1;
            self.top[code.owner()] = Top::UNKNOWN;
            self.occupied[code.owner()] |= bit(cell);
            if let Some(s) = self.by_code.get_mut(code.index()) {
                *s |= bit(cell);
            }
        }
        self.board[cell as usize] = code;
    }

    /// Moves the piece `code` from `from` to `to`, which is empty (or is `from`), as `new_code`:
    /// what `set_piece(from, EMPTY)` and then `set_piece(to, new_code)` do inside a move, in
    /// one step (its owner's count does not change). Logged as those two writes.
    #[inline(always)]
    fn shift_piece(&mut self, z: &Zobrist, from: u16, to: u16, code: PieceCode, new_code: PieceCode) {
        self.hash ^= z.piece(from, code) ^ z.piece(to, new_code);
        self.cell_log.extend_from_slice(&[(from, code), (to, PieceCode::EMPTY)]);
        // Where `to` is `from`, the two bits cancel: the cell stays occupied.
        self.occupied[code.owner()] ^= bit(from) ^ bit(to);
        if let Some(s) = self.by_code.get_mut(code.index()) {
            *s &= !bit(from);
        }
        if let Some(s) = self.by_code.get_mut(new_code.index()) {
            *s |= bit(to);
        }
        self.board[from as usize] = PieceCode::EMPTY;
        self.board[to as usize] = new_code;
    }

    /// Sets an attribute value.
    #[inline(always)]
    pub(crate) fn set_attr(&mut self, cell: u16, slot: u8, value: i32) {
        let index = cell as usize * self.nattr + slot as usize;
        let old = self.attrs[index];
        if old == value {
            return;
        }
        self.hash ^= Zobrist::attribute(cell, slot, old) ^ Zobrist::attribute(cell, slot, value);
        if !(self.frames.is_empty() && self.plain_frames.is_empty()) {
            self.attr_log.push((index as u32, old)); // outside a move, no undo reaches it
        }
        self.attrs[index] = value;
        let code = self.board[cell as usize];
        if slot == self.crown_by && !code.is_empty() {
            self.top[code.owner()] = Top::UNKNOWN;
        }
    }

    /// How many pieces of `code` stand on the board.
    pub(crate) fn count_code(&self, code: PieceCode) -> u32 {
        self.cells_of(code.owner()).filter(|&c| self.board[c as usize] == code).count() as u32
    }

    /// Every counter's values, by slot.
    pub(crate) fn counters(&self) -> &[ByPlayer<i32>] {
        &self.counters
    }

    /// Sets a per-player counter.
    pub(crate) fn set_counter(&mut self, p: Player, slot: u8, value: i32) {
        let old = self.counters[slot as usize][p];
        if old == value {
            return;
        }
        self.hash ^= Zobrist::counter(p, slot, old) ^ Zobrist::counter(p, slot, value);
        self.counters[slot as usize][p] = value;
    }

    /// Clears a cell and its attributes.
    #[inline]
    pub(crate) fn clear_cell(&mut self, z: &Zobrist, cell: u16) {
        self.set_piece(z, cell, PieceCode::EMPTY);
        for s in 0..self.nattr as u8 {
            self.set_attr(cell, s, 0);
        }
    }

    /// Puts a piece with the given attribute values on a cell.
    #[inline(always)]
    pub(crate) fn put(&mut self, z: &Zobrist, cell: u16, code: PieceCode, attrs: &[i32]) {
        self.set_piece(z, cell, code);
        for (s, &v) in attrs.iter().enumerate() {
            self.set_attr(cell, s as u8, v);
        }
    }

    // ---- the pie rule (issue 51, part 3) ----

    /// Whether the pie rule's `swap` is on offer: the rules have it, one ply has been played
    /// from the start, and the second player decides with no turn going on.
    #[inline]
    pub(crate) fn swap_open(&self, rules: &Ruleset) -> bool {
        rules.pie.is_some() && self.ply == 1 && self.side == Player::SECOND && self.cont.is_none()
    }

    /// The swap: every piece changes owner (and cell, with the rule's mirror, which maps each
    /// cell's mirror back to it: each pair is exchanged once), attributes kept; each counter's
    /// two values change places. Nothing is allocated.
    fn swap_sides(&mut self, rules: &Ruleset) {
        let z = &rules.zobrist;
        let mirror = rules.pie.as_ref().and_then(|p| p.mirror.as_deref());
        let n = self.nattr.min(16);
        let turned = |code: PieceCode| if code.is_empty() { code } else { PieceCode::new(code.kind(), code.owner().other()) };
        for c in 0..self.board.len() as u16 {
            let d = mirror.map_or(c, |m| m[c as usize]);
            let (a, b) = (self.board[c as usize], self.board[d as usize]);
            if d < c || (a.is_empty() && b.is_empty()) {
                continue;
            }
            let (mut va, mut vb) = ([0i32; 16], [0i32; 16]);
            for s in 0..n {
                (va[s], vb[s]) = (self.attr(c, s as u8), self.attr(d, s as u8));
            }
            self.put(z, c, turned(b), &vb[..n]);
            if d != c {
                self.put(z, d, turned(a), &va[..n]);
            }
        }
        for slot in 0..self.counters.len() {
            let v = self.counters[slot];
            self.set_counter(Player::FIRST, slot as u8, v[Player::SECOND]);
            self.set_counter(Player::SECOND, slot as u8, v[Player::FIRST]);
        }
    }

    // ---- end of the pie rule ----

    /// Moves whatever stands on `from` to `to` (replacing what was there), attributes included.
    pub(crate) fn relocate(&mut self, z: &Zobrist, from: u16, to: u16) {
        let code = self.board[from as usize];
        let mut vals = [0i32; MAX_ATTRIBUTES];
        let n = self.nattr.min(16);
        for (s, v) in vals.iter_mut().enumerate().take(n) {
            *v = self.attr(from, s as u8);
        }
        self.clear_cell(z, from);
        self.put(z, to, code, &vals[..n]);
    }

    /// Sets who decides next, keeping the hash right.
    pub(crate) fn set_side(&mut self, z: &Zobrist, p: Player) {
        self.hash ^= z.side[self.side.index()] ^ z.side[p.index()];
        self.side = p;
    }

    /// Installs or removes a continuation, keeping the hash right (the side is set separately).
    pub(crate) fn set_continuation(&mut self, z: &Zobrist, c: Option<Continuation>) {
        if self.cont.is_some() != c.is_some() {
            self.hash ^= z.continuation;
        }
        self.cont = c;
    }

    /// Starts a move: everything until the matching [`undo`](Self::undo) is undone together.
    #[inline(always)]
    pub(crate) fn begin(&mut self) {
        if !self.counters.is_empty() {
            self.saved_counters.extend_from_slice(&self.counters);
        }
        if self.gating {
            self.saved_gates.push(self.gates);
        }
        let extra = self.cont.is_some() || self.result.is_some();
        if extra {
            self.saved_extra.push((self.cont.clone(), self.result.clone()));
        }
        self.frames.push(Frame {
            hash: self.hash,
            ply: self.ply,
            history_len: self.history.len() as u32,
            cell_log_len: self.cell_log.len() as u32,
            attr_log_len: self.attr_log.len() as u32,
            seed_log_len: self.seed_log.len() as u32,
            side: self.side,
            en_passant: self.en_passant,
            castle: self.castle,
            clock: self.clock,
            prisoners: self.prisoners.0,
            since: self.since,
            recorded_total: self.recorded_total,
            grew: self.grew,
            top: self.top.0,
            extra,
        });
    }

    /// Plays the kernel's part of a move: pieces, captures, promotion, attribute effects, ply and
    /// side to move. Hooks and end conditions are the caller's ([`crate::variant::Variant::make`]).
    ///
    /// One path for every move: each construct's step sits behind a cheap test of what the rules
    /// or the position hold (a continuation, an open en passant cell, castling rights, a piece's
    /// exit zone or conversion, a clock, attributes), so a game without the construct pays a
    /// branch for it. Undo needs nothing from here: the frame [`Position::begin`] pushes and the
    /// write logs restore everything.
    pub(crate) fn make_kernel(&mut self, rules: &Ruleset, mv: &Move) -> MoveEffects {
        self.begin();
        let z = &rules.zobrist;
        let turn = self.cont.as_ref().map_or(self.side, |c| c.turn);
        let swap_was = rules.pie.is_some() && self.swap_open(rules);
        // Rules with none of the constructs below, in a position with no continuation or open
        // en passant cell, skip them all on this one test.
        let general = rules.make_path == MakePath::General || self.cont.is_some() || self.en_passant.is_some();
        // The push's view of the continuation, read before `before_move` closes it.
        let prior = if general && rules.push { self.prior(mv) } else { None };
        let opened = if general { self.before_move(rules, mv) } else { None };
        let mut fx = MoveEffects::default();
        match mv.kind {
            MoveKind::Drop { code, .. } => self.drop_piece(rules, mv, code, &mut fx),
            MoveKind::Castle { .. } => self.castle_pieces(rules, mv, &mut fx),
            MoveKind::Pass => {}
            MoveKind::Swap => self.swap_sides(rules),
            MoveKind::Sow => {}
            MoveKind::Normal | MoveKind::Promote { .. } | MoveKind::Then { .. } | MoveKind::Off { .. } => {
                self.move_piece(rules, mv, &mut fx)
            }
        }
        if general
            && fx.to != NONE
            && let Some(cu) = &rules.pieces[fx.new_code.index()].custodian
        {
            self.custodian(rules, cu, fx.to, &mut fx);
        }
        if general
            && fx.to != NONE
            && let Some(l) = &rules.pieces[fx.new_code.index()].liberties
        {
            self.take_groups(rules, l, fx.to, &mut fx);
        }
        if general
            && fx.to != NONE
            && let Some(cv) = &rules.pieces[fx.new_code.index()].convert
        {
            fx.converted = self.convert(z, cv, fx.to, fx.new_code.owner());
        }
        if general
            && fx.captured > 0
            && fx.to != NONE
            && let Some(x) = &rules.captures.explode
        {
            self.explode(rules, x, fx.to, &mut fx);
        }
        self.after_crown(rules, &fx);
        if let Some((at, piece)) = opened {
            self.en_passant = Some((at, piece));
            self.hash ^= Zobrist::en_passant(at);
        }
        if self.gating {
            self.gates_after(rules, mv, turn);
        }
        if let Some(kinds) = rules.clock {
            let drop = matches!(mv.kind, MoveKind::Drop { .. });
            let reset = fx.captured > 0 || drop || (!fx.code.is_empty() && kinds.contains(fx.code.kind()));
            self.clock = if reset { 0 } else { self.clock.saturating_add(1) };
        }
        self.ply += 1;
        self.set_side(z, turn.other());
        if rules.pie.is_some() && swap_was != self.swap_open(rules) {
            self.hash ^= Zobrist::PIE;
        }
        if rules.push {
            push::after_move(self, rules, mv, &fx, prior, turn);
        }
        if let Some(sw) = &rules.sowing
            && mv.kind == MoveKind::Sow
        {
            fx.captured = sow::after_move(self, rules, sw, mv.from, turn);
        }
        fx
    }

    /// The continuation a push reads: its kind, and whether it lists `mv`.
    #[inline(never)]
    fn prior(&self, mv: &Move) -> Option<Prior> {
        self.cont.as_ref().map(|c| Prior { kind: c.kind, listed: c.moves.contains(mv) })
    }

    /// What a move does before its piece moves, where the rules or the position may need it:
    /// the continuation and the open en passant cell closed, the castling rights updated.
    /// Returns the en passant cell this move opens.
    #[inline(never)]
    fn before_move(&mut self, rules: &Ruleset, mv: &Move) -> Option<(u16, u16)> {
        if self.cont.is_some() {
            self.set_continuation(&rules.zobrist, None);
        }
        if let Some((at, _)) = self.en_passant.take() {
            self.hash ^= Zobrist::en_passant(at);
        }
        let opened = self.en_passant_opened(rules, mv);
        if let Some(c) = &rules.castling
            && self.castle.any()
        {
            self.castle_rights_after(c, mv);
        }
        opened
    }

    /// The castling rights after `mv`: the mover's piece and what it captures lose theirs.
    fn castle_rights_after(&mut self, c: &crate::rules::Castling, mv: &Move) {
        let code = if mv.from as usize >= self.board.len() { PieceCode::EMPTY } else { self.board[mv.from as usize] };
        let after = self.castle.after_move(c, mv.from, code, |r| mv.victims().any(|v| v == r));
        self.hash ^= castle_key(self.castle) ^ castle_key(after);
        self.castle = after;
    }

    /// A drop: the hand's counter, then the piece with its kind's initial values.
    fn drop_piece(&mut self, rules: &Ruleset, mv: &Move, code: PieceCode, fx: &mut MoveEffects) {
        if let Some(slot) = rules.pieces[code.index()].drop.as_ref().and_then(|d| d.hand) {
            let p = code.owner();
            self.set_counter(p, slot, self.counter(p, slot).saturating_sub(1));
        }
        self.place(rules, mv.landings()[0], code, fx);
    }

    /// A piece's move: what it captures taken, the piece moved to its landing with its
    /// attribute values (after their effects), promoted, leaving the game where its exit zone
    /// is, and the piece a two-part turn places. A move without a landing lifts the piece.
    #[inline(always)]
    fn move_piece(&mut self, rules: &Ruleset, mv: &Move, fx: &mut MoveEffects) {
        let Some(to) = mv.to() else {
            self.lift(rules, mv, fx);
            self.take_victims(rules, mv, fx);
            return;
        };
        let z = &rules.zobrist;
        let (from, n) = (mv.from, self.nattr);
        let code = self.board[from as usize];
        fx.code = code;
        self.take_victims(rules, mv, fx);
        let new_code = promoted(rules, mv, code);
        (fx.new_code, fx.to) = (new_code, to);
        if n == 0 && rules.make_path != MakePath::General {
            // Nothing but the piece to move (checkers, Breakthrough).
            if to == from || self.board[to as usize].is_empty() {
                self.shift_piece(z, from, to, code, new_code);
            } else {
                self.set_piece(z, from, PieceCode::EMPTY);
                self.set_piece(z, to, new_code);
            }
            return;
        }
        let pr = &rules.pieces[code.index()];
        let t0 = to as usize * n;
        // Before the cells are written: the landing's `put` below forgets the Top it tells.
        let vals = self.landed_values(rules, code, (from, to), fx.captured);
        if to == from || (self.board[to as usize].is_empty() && self.attrs[t0..t0 + n].iter().all(|&a| a == 0)) {
            self.shift_with_values(z, (from, to), (code, new_code), &vals[..n]);
        } else {
            // Not met by any move the generator makes: the landing holds a piece not taken.
            self.clear_cell(z, from);
            self.put(z, to, new_code, &vals[..n]);
        }
        if let Some(x) = &pr.exit
            && rules.geometry.zones_of(to).meets(x.zone)
        {
            self.exit(z, to, code.owner(), x.counter, fx);
        }
        if let Some((code, at)) = mv.placed() {
            // The turn's second part: a piece placed from the landing (Amazons' arrow) or gated.
            self.place_from_hand(rules, code, at);
        }
    }

    /// Moves the piece `code` from `from` to the empty `to` (whose values are all 0, or which
    /// is `from`) as `new_code` with the values `vals`: what clearing `from` and putting the
    /// piece on `to` write, each value once.
    #[inline(always)]
    fn shift_with_values(&mut self, z: &Zobrist, (from, to): (u16, u16), (code, new_code): (PieceCode, PieceCode), vals: &[i32]) {
        self.shift_piece(z, from, to, code, new_code);
        self.move_values((from, to), vals);
    }

    /// The values the piece `code` moving from `from` to `to` lands with, having taken
    /// `captured` pieces: its kind's effects applied to those it holds, its player's [`Top`]
    /// told (nothing is written).
    #[inline(always)]
    fn landed_values(&mut self, rules: &Ruleset, code: PieceCode, (from, to): (u16, u16), captured: u32) -> [i32; MAX_ATTRIBUTES] {
        let n = self.nattr;
        let f0 = from as usize * n;
        let mut vals = [0i32; MAX_ATTRIBUTES];
        vals[..n].copy_from_slice(&self.attrs[f0..f0 + n]);
        let by = self.crown_by as usize;
        let before = if by < n { vals[by] } else { 0 };
        apply_effects(&rules.pieces[code.index()].effects, n, &mut vals, captured);
        if by < n {
            self.top[code.owner()].moved(before, vals[by], to);
        }
        vals
    }

    /// The values of `from` cleared and `vals` written on `to` (whose values are all 0, or
    /// which is `from`), each write hashed and logged.
    #[inline(always)]
    fn move_values(&mut self, (from, to): (u16, u16), vals: &[i32]) {
        let n = vals.len();
        let (f0, t0) = (from as usize * n, to as usize * n);
        for s in 0..n {
            let a = std::mem::take(&mut self.attrs[f0 + s]);
            if a != 0 {
                self.hash ^= Zobrist::attribute(from, s as u8, a);
                self.attr_log.push(((f0 + s) as u32, a));
            }
        }
        for (s, &b) in vals.iter().enumerate() {
            if b != 0 {
                self.hash ^= Zobrist::attribute(to, s as u8, b);
                self.attr_log.push(((t0 + s) as u32, 0));
                self.attrs[t0 + s] = b;
            }
        }
    }

    /// The piece on `to` leaves the game (its exit zone), counted on `counter` if any.
    #[cold]
    fn exit(&mut self, z: &Zobrist, to: u16, owner: Player, counter: Option<u8>, fx: &mut MoveEffects) {
        fx.to = NONE;
        self.clear_cell(z, to);
        if let Some(slot) = counter {
            let v = self.counter(owner, slot);
            self.set_counter(owner, slot, v.saturating_add(1));
        }
    }

    /// The crown's update after a move: the mover's, and the opponent's where both are updated
    /// and a piece was taken (the opponent's levels did not change; only a capture can change
    /// its king).
    #[inline(always)]
    fn after_crown(&mut self, rules: &Ruleset, fx: &MoveEffects) {
        if let Some(c) = rules.crown
            && !fx.code.is_empty()
        {
            let mover = fx.code.owner();
            self.update_crown(c, mover);
            if c.both && fx.captured > 0 {
                self.update_crown(c, mover.other());
            }
        }
    }

    /// The cell open to an en passant capture after `mv`, and where its piece lands: when the
    /// piece moved has `en_passant` slides and one of them makes this move passing at least one
    /// cell, the cell it passed last. Read before the move is made.
    fn en_passant_opened(&self, rules: &Ruleset, mv: &Move) -> Option<(u16, u16)> {
        if mv.kind != MoveKind::Normal || mv.is_capture() || mv.from as usize >= self.board.len() {
            return None;
        }
        let code = self.board[mv.from as usize];
        let pr = &rules.pieces[code.index()];
        let to = mv.to()?;
        pr.en_passant.iter().find_map(|&i| pr.quiet[i].passed_last(&rules.geometry, self.view(), mv.from, to)).map(|at| (at, to))
    }

    /// Castling: king and rook leave their cells, then land (either may land where the other
    /// stood).
    fn castle_pieces(&mut self, rules: &Ruleset, mv: &Move, fx: &mut MoveEffects) {
        let z = &rules.zobrist;
        let (rook_from, rook_to) = mv.castling().expect("a castling");
        let n = self.nattr;
        let (king, rook) = (self.board[mv.from as usize], self.board[rook_from as usize]);
        let attrs_of = |p: &Position, c: u16| p.attrs[c as usize * n..(c as usize + 1) * n].to_vec();
        let (ka, ra) = (attrs_of(self, mv.from), attrs_of(self, rook_from));
        self.clear_cell(z, mv.from);
        self.clear_cell(z, rook_from);
        let to = mv.landings()[0];
        self.put(z, to, king, &ka);
        self.put(z, rook_to, rook, &ra);
        (fx.code, fx.new_code, fx.to) = (king, king, to);
        if let Some((code, at)) = mv.placed() {
            self.place_from_hand(rules, code, at);
        }
    }

    /// The piece of `code` a move places on `at` (a second part, a gated piece), taken from its
    /// owner's hand where its kind is dropped from one.
    fn place_from_hand(&mut self, rules: &Ruleset, code: PieceCode, at: u16) {
        self.put(&rules.zobrist, at, code, &initial_attrs(rules, code)[..self.nattr]);
        if let Some(slot) = rules.pieces[code.index()].drop.as_ref().and_then(|d| d.hand) {
            let owner = code.owner();
            self.set_counter(owner, slot, self.counter(owner, slot) - 1);
        }
    }

    /// The gates after `mover`'s move `mv`: the cells it leaves (a castling's rook's too) stop
    /// being gates, and so does every cell that no longer holds a piece of the gate's player
    /// (captured there, or blown away); with no gated kind left in hand, none of the mover's is.
    #[inline(never)]
    fn gates_after(&mut self, rules: &Ruleset, mv: &Move, mover: Player) {
        let mut g = self.gates;
        if (mv.from as usize) < self.board.len() {
            g[mover] &= !bit(mv.from);
        }
        if let Some((rook, _)) = mv.castling() {
            g[mover] &= !bit(rook);
        }
        for p in Player::both() {
            g[p] &= self.occupied[p];
        }
        if !self.gated_in_hand(rules, mover) {
            g[mover] = 0;
        }
        self.set_gates(g);
    }

    /// Whether `p` holds a piece of a gated kind in hand.
    pub(crate) fn gated_in_hand(&self, rules: &Ruleset, p: Player) -> bool {
        let Some(g) = &rules.drops.gating else { return false };
        g.codes[p].iter().any(|&(c, _)| self.has_in_hand(rules, c))
    }

    /// Whether `code`'s owner holds one of it in hand (its kind dropped from a hand).
    pub(crate) fn has_in_hand(&self, rules: &Ruleset, code: PieceCode) -> bool {
        rules.pieces[code.index()].drop.as_ref().and_then(|d| d.hand).is_some_and(|s| self.counter(code.owner(), s) > 0)
    }

    /// Sets the gates, keeping the hash right.
    pub(crate) fn set_gates(&mut self, gates: ByPlayer<u128>) {
        self.hash ^= gates_key(self.gates) ^ gates_key(gates);
        self.gates = gates;
        self.gating |= gates != ByPlayer::new(0, 0);
    }

    /// Each player's gates.
    pub(crate) fn gates(&self) -> ByPlayer<u128> {
        self.gates
    }

    /// Per player, the opponent's pieces its moves took (kept where `[rules] points_prisoners`
    /// is declared, else 0).
    pub(crate) fn prisoners(&self) -> ByPlayer<u32> {
        self.prisoners
    }

    /// Adds `n` to the pieces `p` took (the move that took them was begun: its undo restores
    /// the count).
    pub(crate) fn add_prisoners(&mut self, p: Player, n: u32) {
        self.prisoners[p] = self.prisoners[p].saturating_add(n);
    }

    /// Plies since the last capture or move of a kind that restarts the `quiet_moves` clock.
    pub(crate) fn clock(&self) -> u32 {
        self.clock
    }

    /// The rooks each player may still castle with.
    pub(crate) fn castle_rights(&self) -> CastleRights {
        self.castle
    }

    /// The cell open to an en passant capture and where the piece it would take stands.
    pub(crate) fn en_passant(&self) -> Option<(u16, u16)> {
        self.en_passant
    }

    /// Puts a dropped piece with its kind's initial attribute values on `to`.
    #[inline]
    fn place(&mut self, rules: &Ruleset, to: u16, code: PieceCode, fx: &mut MoveEffects) {
        self.put(&rules.zobrist, to, code, &initial_attrs(rules, code)[..self.nattr]);
        (fx.code, fx.new_code, fx.to) = (code, code, to);
    }

    /// Gives `owner` the enemy pieces that the piece landed on `at` converts: each unbroken line
    /// of them along a bracket direction that ends on one of `owner`'s pieces, and each
    /// neighbour along an adjacent direction. Returns how many changed owner.
    fn convert(&mut self, z: &Zobrist, cv: &Convert, at: u16, owner: Player) -> u32 {
        let mut n = 0;
        let enemy = |b: &[PieceCode], c: u16| c != NONE && b[c as usize].is_of(owner.other()) && cv.kinds.contains(b[c as usize].kind());
        for next in &cv.bracket {
            let mut c = next[at as usize];
            let mut run = 0;
            while enemy(&self.board, c) {
                run += 1;
                c = next[c as usize];
            }
            if run > 0 && c != NONE && self.board[c as usize].is_of(owner) {
                let mut c = next[at as usize];
                for _ in 0..run {
                    let code = self.board[c as usize];
                    self.set_piece(z, c, PieceCode::new(code.kind(), owner));
                    c = next[c as usize];
                }
                n += run;
            }
        }
        for next in &cv.adjacent {
            let c = next[at as usize];
            if enemy(&self.board, c) {
                let code = self.board[c as usize];
                self.set_piece(z, c, PieceCode::new(code.kind(), owner));
                n += 1;
            }
        }
        n
    }

    /// The custodian capture of the piece that landed on `at`: every enemy piece it encloses
    /// (found on the board as it stands after the landing, then taken together).
    #[inline(never)]
    fn custodian(&mut self, rules: &Ruleset, cu: &crate::rules::custodian::Custodian, at: u16, fx: &mut MoveEffects) {
        let mut victims = Vec::new();
        cu.victims(&rules.geometry, &rules.pieces, &self.board, at, &mut victims);
        for v in victims {
            self.take_victim(rules, v, fx);
        }
    }

    /// Capture by liberties after a piece landed on `at`: each enemy group next to it without a
    /// liberty is taken; then, where the piece's own group has none (a suicide the rules allow,
    /// or a move played without the legal list's test), that group is taken.
    #[inline(never)]
    fn take_groups(&mut self, rules: &Ruleset, l: &crate::rules::groups::Liberties, at: u16, fx: &mut MoveEffects) {
        use crate::rules::groups::{group, has_liberty};
        let me = self.board[at as usize].owner();
        let mut victims = Vec::new();
        for &x in l.n.of(at) {
            if x != NONE && self.board[x as usize].is_of(me.other()) && !has_liberty(&l.n, &self.board, x, NONE) {
                victims.clear();
                group(&l.n, &self.board, x, &mut victims);
                for &v in &victims {
                    self.take_victim(rules, v, fx);
                }
            }
        }
        if fx.captured == 0 && !has_liberty(&l.n, &self.board, at, NONE) {
            victims.clear();
            group(&l.n, &self.board, at, &mut victims);
            for &v in &victims {
                self.clear_cell(&rules.zobrist, v);
            }
            fx.to = NONE;
        }
    }

    /// The repetition key after `p`'s piece `code` is placed on the empty cell `at` under the
    /// liberty rule `l` (the groups it takes removed, and its own where it is a suicide the
    /// rules allow), the other player then to move: what the ko rule compares, found without
    /// making the move (`scratch` is overwritten).
    pub(crate) fn key_after_placement(
        &self,
        rules: &Ruleset,
        l: &crate::rules::groups::Liberties,
        at: u16,
        code: PieceCode,
        scratch: &mut Vec<u16>,
    ) -> u64 {
        use crate::rules::groups::{group, placement};
        let z = &rules.zobrist;
        let me = code.owner();
        let mut h = self.hash ^ z.piece(at, code) ^ z.side[me.index()] ^ z.side[me.other().index()];
        let pl = placement(&l.n, &self.board, at, me);
        scratch.clear();
        if pl.takes.is_empty() && !pl.breathes {
            // A suicide: the piece and its group leave (the piece's own key cancels).
            h ^= z.piece(at, code);
            for &x in l.n.of(at) {
                if x != NONE && self.board[x as usize].is_of(me) && !scratch.contains(&x) {
                    group(&l.n, &self.board, x, scratch);
                }
            }
        }
        for &t in &pl.takes {
            group(&l.n, &self.board, t, scratch);
        }
        for &c in scratch.iter() {
            h ^= z.piece(c, self.board[c as usize]);
        }
        h
    }

    /// Takes the moving piece off its start cell: its code and attribute values.
    #[inline]
    fn lift(&mut self, rules: &Ruleset, mv: &Move, fx: &mut MoveEffects) -> (PieceCode, [i32; MAX_ATTRIBUTES]) {
        let from = mv.from;
        let code = self.board[from as usize];
        fx.code = code;
        let mut vals = [0i32; MAX_ATTRIBUTES];
        for (s, v) in vals.iter_mut().enumerate().take(self.nattr) {
            *v = self.attr(from, s as u8);
        }
        if mv.to().is_none() && (rules.kind(code.kind()).royal || rules.crown.is_some_and(|c| vals[c.marker as usize] != 0)) {
            fx.royal_left = Some(code.owner());
        }
        self.clear_cell(&rules.zobrist, from);
        (code, vals)
    }

    /// Removes what the move captures, noting royal victims.
    #[inline(always)]
    fn take_victims(&mut self, rules: &Ruleset, mv: &Move, fx: &mut MoveEffects) {
        for v in mv.victims() {
            self.take_victim(rules, v, fx);
        }
    }

    /// A capture's explosion around `at` (`[captures] explode`): the capturing piece there and
    /// every piece on a neighbour the blast reaches but the spared kinds are taken (a royal one
    /// noted in `fx`, its owner's castling rights with it, a rook's right with the rook).
    #[inline(never)]
    fn explode(&mut self, rules: &Ruleset, x: &crate::rules::Explode, at: u16, fx: &mut MoveEffects) {
        let hit = |c: &u16| c == &at || !x.spare.contains(self.board[*c as usize].kind());
        let blast: Vec<u16> = std::iter::once(at)
            .chain(x.around.get(at).iter().copied())
            .filter(|c| !self.board[*c as usize].is_empty())
            .filter(hit)
            .collect();
        for c in blast {
            let code = self.board[c as usize];
            if let Some(cs) = &rules.castling
                && self.castle.any()
            {
                let after = self.castle.after_move(cs, c, code, |r| r == c);
                self.hash ^= castle_key(self.castle) ^ castle_key(after);
                self.castle = after;
            }
            self.take_victim(rules, c, fx);
        }
        // The capturing piece went with the blast: no piece of the move stands anywhere.
        (fx.to, fx.new_code) = (NONE, PieceCode::EMPTY);
    }

    /// Removes the piece on `v`, if any (a victim taken earlier in the move is gone). Out of
    /// line: a move that takes nothing does not set up for it.
    #[inline(never)]
    fn take_victim(&mut self, rules: &Ruleset, v: u16, fx: &mut MoveEffects) {
        {
            let vc = self.board[v as usize];
            if !vc.is_empty() {
                fx.captured += 1;
                if self.royal_at(rules, v, vc) {
                    fx.royal_victim = Some(vc.owner());
                }
                if rules.captures.to_hand
                    && let Some(slot) = rules.pieces[vc.index()].to_hand
                {
                    let captor = vc.owner().other();
                    self.set_counter(captor, slot, self.counter(captor, slot).saturating_add(1));
                }
                self.clear_cell(&rules.zobrist, v);
            }
        }
    }

    /// Whether the piece `code` on `cell` is royal: of a royal kind, or crowned.
    #[inline(always)]
    fn royal_at(&self, rules: &Ruleset, cell: u16, code: PieceCode) -> bool {
        rules.kind(code.kind()).royal || rules.crown.is_some_and(|c| self.attr(cell, c.marker) != 0)
    }

    /// Crowns `p`'s piece with the unique highest value of the crown's attribute; a tie (or no
    /// piece) leaves the crown where it is. Where `p`'s [`Top`] is known and says a tie or a
    /// crowned piece, nothing else is read.
    #[inline(always)]
    fn update_crown(&mut self, c: crate::rules::Crown, p: Player) {
        let top = self.top[p];
        let known = top.count != 0 && c.by == self.crown_by;
        if known && (top.count > 1 || self.attrs[top.at as usize * self.nattr + c.marker as usize] != 0) {
            return;
        }
        self.move_crown(c, p);
    }

    /// [`Position::update_crown`] where `p`'s [`Top`] is not known or the crown may move.
    #[inline(never)]
    fn move_crown(&mut self, c: crate::rules::Crown, p: Player) {
        let (n, by, marker) = (self.nattr, c.by as usize, c.marker as usize);
        let attrs = &self.attrs;
        let mut top = self.top[p];
        if top.count == 0 || c.by != self.crown_by {
            top = Top::of(self.cells_of(p).map(|cell| (cell, attrs[cell as usize * n + by])));
        }
        let moved = crown_move(top, self.cells_of(p), |cell| attrs[cell as usize * n + marker] != 0);
        if c.by == self.crown_by {
            self.top[p] = top;
        }
        if let Some((holder, at)) = moved {
            if let Some(h) = holder {
                self.set_attr(h, c.marker, 0);
            }
            self.set_attr(at, c.marker, 1);
        }
    }

    /// Records the current position in the repetition history (after the move's hooks ran).
    pub(crate) fn record(&mut self) {
        let total = self.total();
        if total > self.recorded_total {
            (self.grew, self.since) = (true, 0);
        } else if total < self.recorded_total && !self.grew {
            self.since = self.history.len() as u32;
        }
        self.recorded_total = total;
        self.history.push(self.hash);
    }

    /// Undoes the last move, restoring the exact previous state.
    ///
    /// # Panics
    /// When there is no move to undo (a caller bug, never user input).
    pub fn undo(&mut self) {
        if let Some(f) = self.plain_frames.last()
            && f.under as usize == self.frames.len()
        {
            self.undo_plain();
            return;
        }
        // Read in place and dropped at the end (popping it first copied the whole frame).
        let f = self.frames.last().expect("undo without a move");
        // The cells back in reverse order, the counts and the players' and each code's sets
        // with them (a frame holding the counts and sets whole was larger than the two or
        // three cells a move writes).
        while self.cell_log.len() > f.cell_log_len as usize {
            let (cell, old) = self.cell_log.pop().expect("longer than the mark");
            let now = std::mem::replace(&mut self.board[cell as usize], old);
            if !now.is_empty() {
                self.counts[now.owner()] -= 1;
                self.occupied[now.owner()] &= !bit(cell);
                if let Some(s) = self.by_code.get_mut(now.index()) {
                    *s &= !bit(cell);
                }
            }
            if !old.is_empty() {
                self.counts[old.owner()] += 1;
                self.occupied[old.owner()] |= bit(cell);
                if let Some(s) = self.by_code.get_mut(old.index()) {
                    *s |= bit(cell);
                }
            }
        }
        while self.attr_log.len() > f.attr_log_len as usize {
            let (index, old) = self.attr_log.pop().expect("longer than the mark");
            self.attrs[index as usize] = old;
        }
        while self.seed_log.len() > f.seed_log_len as usize {
            let (cell, old) = self.seed_log.pop().expect("longer than the mark");
            self.seeds[cell as usize] = old;
        }
        if !self.counters.is_empty() {
            let n = self.counters.len();
            let at = self.saved_counters.len() - n;
            self.counters.copy_from_slice(&self.saved_counters[at..]);
            self.saved_counters.truncate(at);
        }
        if self.gating {
            self.gates = self.saved_gates.pop().expect("saved with the frame");
        }
        self.side = f.side;
        self.ply = f.ply;
        if f.extra {
            let (c, r) = self.saved_extra.pop().expect("saved with the frame");
            self.cont = c;
            self.result = r;
        } else {
            self.cont = None;
            self.result = None;
        }
        self.hash = f.hash;
        self.en_passant = f.en_passant;
        self.castle = f.castle;
        self.clock = f.clock;
        self.prisoners = ByPlayer(f.prisoners);
        self.top = ByPlayer(f.top);
        self.history.truncate(f.history_len as usize);
        (self.since, self.recorded_total, self.grew) = (f.since, f.recorded_total, f.grew);
        self.frames.pop();
    }

    // ---- the plain make: a move undone from a compact record ----

    /// Whether `mv` may take [`Position::make_plain`] here, where the plan allows it
    /// ([`crate::plan::Plan::plain_make`]): a piece's move with a landing, from a position with
    /// no continuation, no open en passant cell and no result, that keeps its cells by code.
    #[inline(always)]
    pub(crate) fn plain_ready(&self, mv: &Move) -> bool {
        matches!(mv.kind, MoveKind::Normal | MoveKind::Promote { .. })
            && mv.len > 0
            && self.cont.is_none()
            && self.en_passant.is_none()
            && self.result.is_none()
            && !self.by_code.is_empty()
    }

    /// Plays `mv` as [`Position::make_kernel`] would under rules whose make is plain
    /// ([`MakePath::Plain`]: no counters, clock, castling, drops,
    /// conversions, pushes, exits or hand), where [`Position::plain_ready`] holds: its victims
    /// taken, the piece lifted and landed (promoted, maybe) with its values after their
    /// effects, the crown updated, the ply and the side. The same position, hash, cell sets and
    /// effects (a test holds them to the general make); what undo needs is one [`PlainFrame`]
    /// and the logs of the cells and values written, so undo reverses the move rather than
    /// reading a general frame.
    #[inline(always)]
    pub(crate) fn make_plain(&mut self, rules: &Ruleset, mv: &Move) -> MoveEffects {
        let z = &rules.zobrist;
        let (from, to) = (mv.from, mv.to().expect("plain_ready: a landing"));
        let code = self.board[from as usize];
        let new_code = promoted(rules, mv, code);
        // Pushed first: the crown's writes below are logged as inside a move.
        self.plain_frames.push(PlainFrame {
            hash: self.hash,
            under: self.frames.len() as u32,
            history_len: self.history.len() as u32,
            since: self.since,
            recorded_total: self.recorded_total,
            cell_log_len: self.cell_log.len() as u32,
            attr_log_len: self.attr_log.len() as u32,
            prisoners: self.prisoners.0,
            top: self.top.0,
            from,
            to,
            code,
            new_code,
            grew: self.grew,
        });
        let mut fx = MoveEffects { code, ..MoveEffects::default() };
        for v in mv.victims() {
            let vc = self.board[v as usize];
            if !vc.is_empty() {
                fx.captured += 1;
                if self.royal_at(rules, v, vc) {
                    fx.royal_victim = Some(vc.owner());
                }
                self.lift_logged(z, v, vc);
            }
        }
        let held = self.board[to as usize];
        if to != from && !held.is_empty() {
            // Not met by any move the generator makes: the landing holds a piece not taken.
            self.lift_logged(z, to, held);
            self.top[code.owner()] = Top::UNKNOWN;
        }
        (fx.new_code, fx.to) = (new_code, to);
        if self.nattr > 0 {
            let vals = self.landed_values(rules, code, (from, to), fx.captured);
            self.move_values((from, to), &vals[..self.nattr]);
        }
        self.hash ^= z.piece(from, code) ^ z.piece(to, new_code);
        // Where `to` is `from`, the two bits cancel: the cell stays occupied.
        self.occupied[code.owner()] ^= bit(from) ^ bit(to);
        self.by_code[code.index()] &= !bit(from);
        self.by_code[new_code.index()] |= bit(to);
        self.board[from as usize] = PieceCode::EMPTY;
        self.board[to as usize] = new_code;
        self.after_crown(rules, &fx);
        self.ply += 1;
        self.set_side(z, self.side.other());
        fx
    }

    /// Takes the piece `code` off `cell` with its values for [`Position::make_plain`], the
    /// cell and values logged for its undo.
    #[inline(always)]
    fn lift_logged(&mut self, z: &Zobrist, cell: u16, code: PieceCode) {
        self.hash ^= z.piece(cell, code);
        self.cell_log.push((cell, code));
        self.counts[code.owner()] -= 1;
        self.top[code.owner()] = Top::UNKNOWN;
        self.occupied[code.owner()] &= !bit(cell);
        self.by_code[code.index()] &= !bit(cell);
        self.board[cell as usize] = PieceCode::EMPTY;
        let n = self.nattr;
        for s in 0..n {
            let i = cell as usize * n + s;
            let a = std::mem::take(&mut self.attrs[i]);
            if a != 0 {
                self.hash ^= Zobrist::attribute(cell, s as u8, a);
                self.attr_log.push((i as u32, a));
            }
        }
    }

    /// Undoes the move [`Position::make_plain`] played last (with nothing but the repetition
    /// record, a result and prisoners written after it: [`crate::plan::Plan::plain_make`]).
    #[inline(never)]
    fn undo_plain(&mut self) {
        let f = self.plain_frames.pop().expect("a plain frame on top");
        let (from, to) = (f.from, f.to);
        self.board[to as usize] = PieceCode::EMPTY;
        self.board[from as usize] = f.code;
        self.occupied[f.code.owner()] ^= bit(from) ^ bit(to);
        self.by_code[f.new_code.index()] &= !bit(to);
        self.by_code[f.code.index()] |= bit(from);
        while self.cell_log.len() > f.cell_log_len as usize {
            let (cell, code) = self.cell_log.pop().expect("longer than the mark");
            self.board[cell as usize] = code;
            self.counts[code.owner()] += 1;
            self.occupied[code.owner()] |= bit(cell);
            self.by_code[code.index()] |= bit(cell);
        }
        while self.attr_log.len() > f.attr_log_len as usize {
            let (index, old) = self.attr_log.pop().expect("longer than the mark");
            self.attrs[index as usize] = old;
        }
        self.top = ByPlayer(f.top);
        self.hash = f.hash;
        self.side = self.side.other();
        self.ply -= 1;
        self.result = None;
        self.prisoners = ByPlayer(f.prisoners);
        self.history.truncate(f.history_len as usize);
        (self.since, self.recorded_total, self.grew) = (f.since, f.recorded_total, f.grew);
    }

    /// Sets the castling rights (for set-up positions read from other notations).
    /// After the board was edited by hand (`put`, `remove`, `clear`): drops each castling right
    /// whose rook or king is no longer there, an en passant cell whose piece has gone, and a
    /// gate whose piece has.
    pub(crate) fn drop_stale_rights(&mut self, rules: &Ruleset) {
        if self.en_passant.is_some_and(|(_, piece)| self.board[piece as usize].is_empty()) {
            self.en_passant = None;
        }
        self.drop_missing_castlers(rules);
        // A gate holds a piece of its player's.
        self.gates = ByPlayer::new(
            self.gates[Player::FIRST] & self.occupied[Player::FIRST],
            self.gates[Player::SECOND] & self.occupied[Player::SECOND],
        );
        self.rehash(rules);
    }

    /// Drops each castling right whose rook or king is no longer there: after the board was
    /// edited by hand, or by a script (a script that removes a rook, as an explosion does,
    /// takes the rook's right with it).
    pub(crate) fn drop_missing_castlers(&mut self, rules: &Ruleset) {
        let Some(c) = &rules.castling else { return };
        let mut kept = CastleRights::NONE;
        for (p, side, rook) in self.castle.iter() {
            let code = self.board[rook as usize];
            let still = !code.is_empty() && code.owner() == p && c.rooks.contains(code.kind());
            if still && c.king_on_rank(&rules.geometry, &self.board, p, rook).is_some() {
                kept.set(p, side, rook);
            }
        }
        if kept != self.castle {
            self.hash ^= castle_key(self.castle) ^ castle_key(kept);
            self.castle = kept;
        }
    }

    pub(crate) fn set_castle_rights(&mut self, rules: &Ruleset, r: CastleRights) {
        self.castle = r;
        self.rehash(rules);
        if let Some(h) = self.history.last_mut() {
            *h = self.hash;
        }
    }
}

/// A position text that cannot be read: which field, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PositionError(pub(crate) String);

/// The attribute values a new piece of `code` starts with (dropped or placed).
fn initial_attrs(rules: &Ruleset, code: PieceCode) -> [i32; MAX_ATTRIBUTES] {
    let mut vals = [0i32; MAX_ATTRIBUTES];
    for &(slot, init) in &rules.kind(code.kind()).attributes {
        vals[slot as usize] = init;
    }
    vals
}

/// The hash of the players' gates.
fn gates_key(gates: ByPlayer<u128>) -> u64 {
    let mut h = 0;
    for p in Player::both() {
        for c in crate::cellset::CellSet::from_bits(gates[p]) {
            h ^= Zobrist::gate(p, c);
        }
    }
    h
}

/// The hash of a set of castling rights.
fn castle_key(r: CastleRights) -> u64 {
    r.0.iter().enumerate().filter(|&(_, &c)| c != NONE).fold(0, |h, (i, &c)| h ^ Zobrist::castle(i, c))
}

/// Applies the piece's attribute effects to its values `vals` (of `n` attributes) as it lands,
/// having taken `captured` pieces.
#[inline(always)]
pub(crate) fn apply_effects(effects: &[crate::rules::Effect], n: usize, vals: &mut [i32; MAX_ATTRIBUTES], captured: u32) {
    for e in effects.iter().filter(|e| (e.slot as usize) < n) {
        let applies = match e.on {
            EffectOn::Any => true,
            EffectOn::Quiet => captured == 0,
            EffectOn::Capture => captured > 0,
        };
        if applies {
            let v = &mut vals[e.slot as usize];
            // Values are 32-bit: an effect that would pass the limit stops at it.
            *v = e.set.unwrap_or(v.saturating_add(e.add));
        }
    }
}

/// The code the piece `code` has once `mv` lands it: the kind chosen, or the one its
/// promotion zone gives, or its own.
#[inline(always)]
fn promoted(rules: &Ruleset, mv: &Move, code: PieceCode) -> PieceCode {
    if let Some(chosen) = mv.promoted() {
        return chosen;
    }
    if let Some(p) = &rules.pieces[code.index()].promote
        && p.choices.is_empty()
        && mv.reaches(&rules.geometry, p)
    {
        return PieceCode::new(p.to, code.owner());
    }
    code
}

// A move read under the rules' promotion: here, above both (the move is notation's, the
// promotion the rules'), so that neither of them imports the other.
impl Move {
    /// Whether this move of a piece that promotes by `p` reaches its zone as `p.at` asks: on
    /// any landing, at the end, or (shogi) at the start or the end.
    #[inline(always)]
    pub(crate) fn reaches(&self, g: &crate::geometry::Geometry, p: &crate::rules::Promotion) -> bool {
        use crate::rules::PromoteAt;
        let inside = |c: u16| g.zones_of(c).meets(p.zone);
        match p.at {
            // (Most moves land once: that landing is read alone.)
            PromoteAt::AnyLanding if self.len == 1 => inside(self.only_landing()),
            PromoteAt::AnyLanding => self.landings().iter().any(|&c| inside(c)),
            PromoteAt::EndOfMove => self.to().is_some_and(inside),
            PromoteAt::FromOrTo => self.to().is_some_and(|c| inside(c) || inside(self.from)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// A position played into (pieces, attributes, counters, a result, the undo logs and the
    /// repetition history all written), then reset with `clone_from`, is the start again in
    /// every field, and plays on exactly as a fresh start does.
    #[test]
    fn clone_from_resets_every_field() {
        use rand::RngExt;
        for name in ["lielow", "pyramida", "chess", "othello", "go-japanese"] {
            let v = Variant::load(name, &[]).unwrap();
            let start = v.start();
            let mut rng = crate::ai::rng(5);
            let mut pos = start.clone();
            let mut moves = Vec::new();
            for _ in 0..300 {
                v.legal_moves(&mut pos, &mut moves).unwrap();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                v.make(&mut pos, &m).unwrap();
            }
            assert!(pos.ply > 0 && !pos.frames.is_empty(), "{name}: the game moved");
            pos.clone_from(&start);
            assert_eq!(pos, start, "{name}");
            assert_eq!(format!("{pos:?}"), format!("{start:?}"), "{name}: the undo machinery too");
        }
    }

    /// Territory scoring's prisoners over random Go games, against an independent count: with
    /// suicide illegal, a player has taken exactly the stones the opponent placed and no longer
    /// has on the board. Undo restores the count, and the position text carries it.
    #[test]
    fn prisoners_are_the_stones_placed_and_gone() {
        use rand::RngExt;
        let v = Variant::load("go-japanese", &[]).unwrap();
        let mut rng = crate::ai::rng(11);
        let mut moves = Vec::new();
        let mut taken_some = false;
        for _ in 0..4 {
            let mut pos = v.start();
            let mut placed = ByPlayer::new(0u32, 0);
            let mut seen = vec![pos.prisoners()];
            for _ in 0..250 {
                v.legal_moves(&mut pos, &mut moves).unwrap();
                let stones: Vec<Move> = moves.iter().filter(|m| m.kind != MoveKind::Pass).copied().collect();
                if stones.is_empty() {
                    break;
                }
                let m = stones[rng.random_range(0..stones.len())];
                placed[pos.side()] += 1;
                v.make(&mut pos, &m).unwrap();
                for p in Player::both() {
                    assert_eq!(pos.prisoners()[p], placed[p.other()] - pos.counts()[p.other()]);
                }
                let back = Position::from_line(&v.rules, &pos.to_text(&v.rules)).unwrap();
                assert_eq!(back.prisoners(), pos.prisoners());
                seen.push(pos.prisoners());
            }
            taken_some |= seen.last().is_some_and(|t| t[Player::FIRST] + t[Player::SECOND] > 0);
            while pos.ply() > 0 {
                seen.pop();
                pos.undo();
                assert_eq!(Some(&pos.prisoners()), seen.last());
            }
        }
        assert!(taken_some, "the games took stones");
        let go = Variant::load("go", &[]).unwrap();
        let e = Position::from_line(&go.rules, "9/9/9/9/9/9/9/9/9 black 0 prisoners=1:0").unwrap_err();
        assert!(e.0.contains("no points_prisoners"), "{}", e.0);
        let e = Position::from_line(&v.rules, "9/9/9/9/9/9/9/9/9 black 0 prisoners=1").unwrap_err();
        assert!(e.0.contains("prisoners=N:M"), "{}", e.0);
    }

    /// Under plain rules ([`MakePath::Plain`]), make's short paths leave every move exactly as
    /// the general path does: the same position, hash, cell sets and effects, and the same after
    /// undo. So does the plain make ([`Position::make_plain`]), with a general frame pushed and
    /// undone above it, and its undo restores the position whole (the repetition history too).
    #[test]
    fn the_short_makes_are_the_general_make() {
        use rand::RngExt;
        let (mut plain, mut made_plain) = (Vec::new(), 0);
        for name in crate::variant::shipped_names() {
            let v = Variant::load(&name, &[]).unwrap();
            if v.rules.make_path == MakePath::General {
                continue;
            }
            plain.push(name.clone());
            let mut general = (*v.rules).clone();
            general.make_path = MakePath::General;
            let mut rng = crate::ai::rng(8);
            for _ in 0..6 {
                let mut pos = v.start();
                let mut moves = Vec::new();
                for _ in 0..120 {
                    v.legal_moves(&mut pos, &mut moves).unwrap();
                    if moves.is_empty() {
                        break;
                    }
                    for m in &moves {
                        let (mut a, mut b) = (pos.clone(), pos.clone());
                        let (fa, fb) = (a.make_kernel(&v.rules, m), b.make_kernel(&general, m));
                        let said = |p: &Position| (p.to_text(&v.rules), p.hash(), p.cells_by_code().to_vec(), p.occupied, p.counts);
                        assert_eq!(said(&a), said(&b), "{name}: {}", m.text(&v.rules.geometry));
                        assert_eq!(format!("{fa:?}"), format!("{fb:?}"), "{name}: {}", m.text(&v.rules.geometry));
                        a.undo();
                        assert_eq!(said(&a), said(&pos), "{name}: {} undone", m.text(&v.rules.geometry));
                        if v.plan.plain_make && pos.plain_ready(m) {
                            // The plain make, then a general frame on top (a filter hook's),
                            // undone in turn.
                            let mut c = pos.clone();
                            let fc = c.make_plain(&v.rules, m);
                            c.record();
                            top_is_known_right(&c, &v);
                            assert_eq!(said(&c), said(&b), "{name}: {} made plain", m.text(&v.rules.geometry));
                            assert_eq!(format!("{fc:?}"), format!("{fb:?}"), "{name}: {} made plain", m.text(&v.rules.geometry));
                            let (inner, z) = (c.clone(), &v.rules.zobrist);
                            c.begin();
                            c.set_piece(z, m.from, c.board[m.to().unwrap() as usize]);
                            c.undo();
                            assert_eq!(c, inner, "{name}: {} a frame above the plain one", m.text(&v.rules.geometry));
                            c.undo();
                            assert_eq!((said(&c), &c), (said(&pos), &pos), "{name}: {} undone plain", m.text(&v.rules.geometry));
                            top_is_known_right(&c, &v);
                            made_plain += 1;
                        }
                    }
                    v.make(&mut pos, &moves[rng.random_range(0..moves.len())]).unwrap();
                }
            }
        }
        for name in ["checkers", "international", "basileus", "breakthrough", "lielow", "lielow-ludii"] {
            assert!(plain.iter().any(|p| p == name), "{name} takes the general path: {plain:?}");
        }
        assert!(made_plain > 10_000, "the plain make was tried {made_plain} times");
    }

    /// Where a player's [`Top`] is known, it is the one its pieces' values give.
    fn top_is_known_right(pos: &Position, v: &Variant) {
        let Some(c) = v.rules.crown else { return };
        for p in Player::both() {
            let top = pos.top[p];
            if top.count != 0 && c.by == pos.crown_by {
                let of = Top::of(pos.cells_of(p).map(|cell| (cell, pos.attr(cell, c.by))));
                // (Where several hold the highest, where one stands is not read.)
                let read = |t: Top| (t.best, t.count, if t.count == 1 { t.at } else { 0 });
                assert_eq!(read(top), read(of), "{}: {p:?}'s top at {}", v.rules.name, pos.to_text(&v.rules));
            }
        }
    }

    /// Each player's occupied cells, by scanning the board.
    fn scanned(pos: &Position, p: Player) -> Vec<u16> {
        (0..pos.board().len() as u16).filter(|&c| pos.board()[c as usize].is_of(p)).collect()
    }

    fn occupancy_matches(pos: &Position) {
        for p in Player::both() {
            let want = scanned(pos, p);
            assert_eq!(pos.cells_of(p).collect::<Vec<_>>(), want);
            let mut via_next = Vec::new();
            let mut at = 0;
            while let Some(c) = pos.next_cell_of(p, at) {
                via_next.push(c);
                at = c as usize + 1;
            }
            assert_eq!(via_next, want);
        }
        // Each code's cells, where they are kept.
        for (i, &set) in pos.cells_by_code().iter().enumerate().skip(1) {
            let want: CellSet = (0..pos.board().len() as u16).filter(|&c| pos.board()[c as usize].index() == i).collect();
            assert_eq!(CellSet::from_bits(set), want, "the cells of code {i}");
        }
    }

    /// The per-player and per-code occupancy follow every make and undo, and undo restores
    /// the position exactly (attributes through their log): random games (captures, pushes,
    /// drops, promotions, pieces leaving the board, custodian captures) in games from 9 to 121
    /// cells, and a board of more than 128 cells, which is scanned instead.
    #[test]
    fn occupancy_follows_make_and_undo() {
        use rand::RngExt;
        for name in [
            "checkers",
            "lielow",
            "pyramida",
            "minishogi",
            "xiangqi",
            "amazons",
            "othello",
            "bivouac",
            "breakthrough",
            "brandubh",
            "hnefatafl",
        ] {
            let v = Variant::load(name, &[]).unwrap();
            let mut rng = crate::ai::rng(7);
            for _ in 0..3 {
                let mut pos = v.start();
                let mut moves = Vec::new();
                // Each position before a move, to compare with what undo restores (board,
                // attributes through their log, counters, hash, history).
                let mut before = Vec::new();
                for _ in 0..120 {
                    v.legal_moves(&mut pos, &mut moves).unwrap();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.random_range(0..moves.len())];
                    before.push(pos.clone());
                    v.make(&mut pos, &m).unwrap();
                    occupancy_matches(&pos);
                }
                while let Some(b) = before.pop() {
                    pos.undo();
                    occupancy_matches(&pos);
                    assert!(pos == b, "{name}: undo did not restore the position");
                }
            }
        }
        // A 12×12 board (144 cells): past the bit set, cells are found by scanning.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("variant.toml"),
            "name = \"wide\"\n[board]\nfiles = 12\nranks = 12\n[players]\nnames = [\"white\", \"black\"]\n\
             [pieces.man]\nsymbol = \"M\"\nmoves = [{ step = \"all\" }]\n[setup]\nrows = \"\"\"\n12\n12\n12\n12\n12\n12\n12\n12\n12\n12\nm10m\nM10M\n\"\"\"\n",
        )
        .unwrap();
        let v = Variant::load(dir.path().to_str().unwrap(), &[]).unwrap();
        let mut pos = v.start();
        occupancy_matches(&pos);
        v.play(&mut pos, "a1-b2").unwrap();
        occupancy_matches(&pos);
        assert_eq!(pos.cells_of(Player::FIRST).collect::<Vec<_>>().len(), 2);
    }

    #[test]
    fn repetitions_read_from_the_last_fall_count_every_return() {
        // The count from where the pieces last fell, against the whole history's, after every
        // move and every undo of random games: with captures only (chess, checkers, Pyramida's
        // escapes), with drops of captured pieces (crazyhouse, shogi) and placements (Go,
        // Othello), and in positions read from text.
        use rand::RngExt;
        let plain = |p: &Position| p.history.iter().filter(|&&h| h == p.hash).count();
        let (mut bounded, mut repeated) = (0, 0);
        for name in ["chess", "checkers", "pyramida", "crazyhouse", "shogi", "go", "othello", "kalah"] {
            let v = Variant::load(name, &[]).unwrap();
            let mut rng = crate::ai::rng(7);
            let mut moves = Vec::new();
            for game in 0..12 {
                let mut pos = if game % 3 == 2 { Position::from_line(&v.rules, &v.start().to_text(&v.rules)).unwrap() } else { v.start() };
                for ply in 0..300 {
                    v.legal_moves(&mut pos, &mut moves).unwrap();
                    if moves.is_empty() || pos.result().is_some() {
                        break;
                    }
                    // Now and then the move is taken back and made again: undo restores the bound.
                    let m = moves[rng.random_range(0..moves.len())];
                    v.make(&mut pos, &m).unwrap();
                    assert_eq!(pos.repetitions(), plain(&pos), "{name} game {game} ply {ply}");
                    if ply % 7 == 3 {
                        pos.undo();
                        assert_eq!(pos.repetitions(), plain(&pos), "{name} game {game} ply {ply}, undone");
                        v.make(&mut pos, &m).unwrap();
                    }
                    bounded += usize::from(pos.since > 0);
                    repeated += usize::from(pos.since > 0 && pos.repetitions() > 1);
                }
            }
        }
        assert!(bounded > 1000, "the history was read from a later start {bounded} times");
        // (Returns the bound had to find: a count that read too little would differ above.)
        assert!(repeated >= 10, "a position recurred behind a later start {repeated} times");
        // A piece taken off and put back: the start recurs, read again from the start.
        let v = Variant::load("chess", &[]).unwrap();
        let (mut pos, z) = (v.start(), &v.rules.zobrist);
        let e2 = v.rules.geometry.parse_cell("e2").unwrap().0;
        let pawn = pos.piece(e2);
        pos.set_piece(z, e2, PieceCode::EMPTY);
        pos.record();
        assert_eq!((pos.since, pos.repetitions()), (1, 1));
        pos.set_piece(z, e2, pawn);
        pos.record();
        assert_eq!((pos.since, pos.repetitions()), (0, 2));
    }

    #[test]
    fn make_and_undo_restore_everything() {
        let v = Variant::load("lielow", &[]).unwrap();
        let mut pos = v.start();
        let before = pos.clone();
        v.play(&mut pos, "d2-d3").unwrap();
        assert_eq!(pos.attr(v.rules.geometry.parse_cell("d3").unwrap().0, v.rules.attribute_slot("level").unwrap()), 2);
        assert_ne!(pos.hash, before.hash);
        pos.undo();
        assert_eq!(pos, before);
    }

    #[test]
    fn position_text_errors() {
        let v = Variant::load("basileus", &[]).unwrap();
        for bad in ["", "9/9 white", "9/9/9/9/9/9/9/9 purple 0", "9/9/9/9/9/9/9/8Z white 0", "9/9/9/9/9/9/9/9 white 0 bogus=1"] {
            assert!(Position::from_text(&v.rules, bad).is_err(), "{bad}");
        }
        let p = Position::from_text(&v.rules, "9/9/9/9/9/9/9/4K4 black 7").unwrap();
        assert_eq!((p.side, p.ply), (Player::SECOND, 7));
    }

    #[test]
    fn continuation_round_trips_in_text() {
        let v = Variant::load("basileus", &[("king_adjacency".into(), "replacement_move".into())]).unwrap();
        let mut pos = Position::from_text(&v.rules, "9/4k4/9/4p4/4K4/9/9/9 white 0").unwrap();
        v.play(&mut pos, "e4xe6").unwrap();
        let text = pos.to_text(&v.rules);
        assert!(text.ends_with("cont=black:white:replacement:only:e7xe6"), "{text}");
        let mut back = Position::from_text(&v.rules, &text).unwrap();
        assert_eq!(back.hash, pos.hash);
        v.play(&mut back, "e7xe6").unwrap();
        assert_eq!(back.result.unwrap().reason.as_ref(), "basileus replaced");
    }
}
