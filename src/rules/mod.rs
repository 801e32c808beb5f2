//! The validated rules of a variant: every name resolved to a small id, every option applied,
//! every movement form compiled into per-piece tables. Built by [`validate`] from the raw TOML
//! ([`raw`]); move generation and make/undo read only this.

pub(crate) mod attacks;
pub(crate) mod betza;
pub(crate) mod castling;
pub(crate) mod connect;
pub(crate) mod custodian;
pub(crate) mod ends;
pub(crate) mod error;
pub(crate) mod eval;
pub(crate) mod groups;
pub(crate) mod hooks;
pub(crate) mod movement;
pub(crate) mod names;
pub(crate) mod options;
pub(crate) mod pie;
pub(crate) mod promoted;
pub(crate) mod raw;
pub(crate) mod ring;
pub(crate) mod setwise;
// Sowing (mancala).
pub(crate) mod sowing;
pub(crate) mod validate;

pub(crate) use castling::{CastleRights, Castling};
pub(crate) use ends::{AfterMove, EndKind, EndRule, MoveEffects, NoMoves, NoMovesEnd, Phase, Tally};
pub(crate) use error::{LoadError, SourceFile};
pub(crate) use eval::{EvalModel, Term};
pub(crate) use hooks::{Hook, HookFilter, HookRules, HookSetting};
pub(crate) use movement::{BoardView, Distance, Flying, Form, Jump, Then};
pub(crate) use options::{OptionType, OptionValue, Options, ValueError};

use crate::cellset::CellSet;
use crate::geometry::{CellTable, Geometry, ZoneSet};
use crate::piece::PieceCode;
use crate::piece::{ByPlayer, KindId, Player};
use std::sync::Arc;

/// Where a column attack sends the enemy piece (in the order from its owner's back edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names, reason = "named as the TOML values they read: lowest_empty_below, lowest_only, lowest_empty_any")]
pub(crate) enum ColumnRetreat {
    /// The first empty cell of the file behind it.
    LowestEmptyBelow,
    /// The file's first cell, if empty.
    LowestOnly,
    /// The first empty cell of the whole file, even in front of it.
    LowestEmptyAny,
}

/// Who picks the victim and its cell when a contact attack leaves a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chooser {
    Attacker,
    Owner,
}

/// A pushing piece's rules, compiled for one piece code (`push = { … }` on a kind; the push
/// itself is made in `state::push`).
#[derive(Clone, Debug)]
pub(crate) struct Push {
    /// Only moves that go forward (the owner's forward) push.
    pub(crate) forward_only: bool,
    /// The owner's forward rank step (+1 or -1).
    pub(crate) forward: i8,
    pub(crate) column: Option<ColumnRetreat>,
    /// Per cell: the cells of its file, from the enemy's back edge forward.
    pub(crate) file: CellTable<u16>,
    /// Per cell: its `contact` neighbours.
    pub(crate) contact: CellTable<u16>,
    /// Per `retreat` direction (the enemy's), per cell: the next cell that way, or `NONE`.
    pub(crate) retreat: Vec<Vec<u16>>,
    /// How far an owner's last piece may retreat.
    pub(crate) last_piece_retreat: u16,
    /// A victim with no retreat cell on the board is not a victim (`edge = "immune"`).
    pub(crate) edge_immune: bool,
    /// Every victim that can retreat does (`victims = "all"`).
    pub(crate) all_victims: bool,
    pub(crate) chooser: Chooser,
    /// An attack that moved nothing earns an extra move.
    pub(crate) extra_move: bool,
    /// A normal move made inside a continuation pushes.
    pub(crate) in_continuation: bool,
    /// Per cell: its name's place in byte order (victims are taken in this order).
    pub(crate) order: Vec<u16>,
    /// The tags of its continuations, made once: `extra_move`, `retreat`, and per cell
    /// `retreat_from_CELL`.
    pub(crate) tags: (Arc<str>, Arc<str>, Vec<Arc<str>>),
}

/// A set of piece kinds (at most 60).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct KindSet(u64);

impl KindSet {
    pub(crate) const EMPTY: KindSet = KindSet(0);
    pub(crate) const ALL: KindSet = KindSet(u64::MAX);

    #[inline(always)]
    pub(crate) fn union(self, other: KindSet) -> KindSet {
        KindSet(self.0 | other.0)
    }

    pub(crate) fn contains(self, k: KindId) -> bool {
        self.0 & (1 << k.0) != 0
    }

    /// The set with `k` added.
    pub(crate) fn with(self, k: KindId) -> KindSet {
        KindSet(self.0 | 1 << k.0)
    }
}

/// A set of board codes (kind × owner) as a bit set: movement forms store their victims as the
/// codes of the enemy pieces they may capture, so a test is one shift.
pub(crate) type CodeSet = u128;

/// The code indices ([`PieceCode::index`]) in `set`, lowest first (the same walk as a
/// [`CellSet`]'s, over the same word).
#[inline(always)]
pub(crate) fn codes_in(set: CodeSet) -> impl Iterator<Item = usize> {
    CellSet::from_bits(set).iter().map(usize::from)
}

/// The codes of `player`'s enemies whose kind is in `kinds`.
pub(crate) fn enemy_codes(kinds: KindSet, player: Player) -> CodeSet {
    let mut s = 0u128;
    for k in 0..60u8 {
        if kinds.contains(KindId(k)) {
            s |= 1u128 << PieceCode::new(KindId(k), player.other()).index();
        }
    }
    s
}

/// `[rules] points` and `points_bonus`: a count of the pieces on the board by kind, for the
/// ends that say `result = "points"` (janggi's count at bikjang or after two passes).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Score {
    /// Per kind, its points (0 for a kind not named).
    pub(crate) points: Vec<f64>,
    /// Per player, the points added to its count.
    pub(crate) bonus: ByPlayer<f64>,
    /// `points_territory`: each player also counts the empty cells of the regions (joined
    /// along these neighbours) that only its pieces border.
    pub(crate) territory: Option<groups::Neighbours>,
    /// `points_prisoners`: each player also counts this per piece of the opponent's its moves
    /// took off the board (territory scoring's prisoners); 0 without.
    pub(crate) prisoners: f64,
}

impl Score {
    /// Whether the count needs each player's prisoners kept.
    pub(crate) fn keeps_prisoners(&self) -> bool {
        self.prisoners != 0.0
    }

    /// Each player's points on `board` with `prisoners` taken (see [`Score::prisoners`]), its
    /// bonus included.
    pub(crate) fn totals(&self, board: &[PieceCode], prisoners: ByPlayer<u32>) -> ByPlayer<f64> {
        let mut total = self.bonus;
        for p in Player::both() {
            total[p] += self.prisoners * f64::from(prisoners[p]);
        }
        for c in board.iter().filter(|c| !c.is_empty()) {
            total[c.owner()] += self.points[c.kind().0 as usize];
        }
        if let Some(n) = &self.territory {
            let (area, counts) = (groups::area(n, board), groups::pieces(board));
            for p in Player::both() {
                total[p] += f64::from(area[p] - counts[p]);
            }
        }
        total
    }

    /// The player with more points on `board` (its bonus included), `None` for equal counts,
    /// and by how many half points (rounded down to a half).
    pub(crate) fn winner_by(&self, board: &[PieceCode], prisoners: ByPlayer<u32>) -> (Option<Player>, u32) {
        let total = self.totals(board, prisoners);
        let halves = ((total[Player::FIRST] - total[Player::SECOND]).abs() * 2.0).floor() as u32;
        (Self::ahead(total), halves)
    }

    /// The player with more points on `board` (its bonus included); `None` for equal counts.
    pub(crate) fn winner(&self, board: &[PieceCode], prisoners: ByPlayer<u32>) -> Option<Player> {
        Self::ahead(self.totals(board, prisoners))
    }

    /// The player with more points in `total`; `None` for equal counts.
    fn ahead(total: ByPlayer<f64>) -> Option<Player> {
        let (a, b) = (total[Player::FIRST], total[Player::SECOND]);
        if a > b {
            Some(Player::FIRST)
        } else if b > a {
            Some(Player::SECOND)
        } else {
            None
        }
    }
}

/// Leaving the game on reaching a zone: the piece is removed and a counter of its owner's
/// goes up by one.
#[derive(Clone, Debug)]
pub(crate) struct Exit {
    pub(crate) zone: ZoneSet,
    pub(crate) counter: Option<u8>,
}

/// The counter that holds a player's pieces of `kind` in hand.
pub(crate) fn hand_counter(kind: &str) -> String {
    format!("{kind}_in_hand")
}

/// The kinds each player drops (in kind order) and the kinds it gates.
#[derive(Clone, Debug, Default)]
pub(crate) struct Drops {
    pub(crate) by: ByPlayer<Vec<PieceCode>>,
    pub(crate) gating: Option<Gating>,
}

impl std::ops::Index<Player> for Drops {
    type Output = Vec<PieceCode>;
    fn index(&self, p: Player) -> &Vec<PieceCode> {
        &self.by[p]
    }
}

/// Gating (S-chess): a piece in hand of a kind with `drop = { gate = true }` enters the board
/// only as part of a move of its owner's, onto the cell that move's piece leaves, where that
/// cell is a gate: in the kind's zone, and holding since the game began a piece of the player's
/// that never moved (a castling's rook's cell too). The gates are position state
/// ([`crate::state::Position::gates`]): a cell stops being one when its piece moves or is
/// taken, and all of a player's when its hand of gated kinds is empty.
#[derive(Clone, Debug, Default)]
pub(crate) struct Gating {
    /// Per player, the gated codes, in kind order, each with its zone's cells.
    pub(crate) codes: ByPlayer<Vec<(PieceCode, u128)>>,
    /// Per player, every cell some gated kind's zone holds.
    pub(crate) cells: ByPlayer<u128>,
}

/// Placing a piece from outside the board (`drop = { … }`): onto an empty cell of a zone, from
/// an unlimited supply, optionally falling along a direction to the last empty cell.
#[derive(Clone, Debug)]
pub(crate) struct DropRule {
    /// The cells a piece may be dropped on (the zone's, or every cell), in board order.
    pub(crate) cells: Vec<u16>,
    /// With gravity: per cell, the next cell along the fall (or [`crate::geometry::NONE`]); a
    /// drop lands only where that is no empty cell. Empty without gravity.
    pub(crate) fall: Vec<u16>,
    /// The kind's symbol in upper case (`K@c3`; `?` for a letter outside ASCII).
    pub(crate) letter: u8,
    /// Whether the letter is written: the player may drop more than one kind (else `@c3`).
    pub(crate) written: bool,
    /// The zone's name as written (for explanations), if the drop is restricted to one.
    pub(crate) zone: Option<String>,
    /// The fall's direction (files, ranks), if the piece falls.
    pub(crate) gravity: Option<(i8, i8)>,
    /// A drop must convert at least one enemy piece (the kind's [`Convert`]).
    pub(crate) must_convert: bool,
    /// `gate = true`: placed only by gating, on a gate its owner's piece leaves ([`Gating`]).
    pub(crate) gate: bool,
    /// `supply = "hand"`: the counter slot holding how many the player has in hand.
    pub(crate) hand: Option<u8>,
    /// `from_hand_of`: the slot is another kind's (this kind is that piece's other face).
    pub(crate) borrowed: bool,
    /// `not_on_file_with`: the code of the player's pieces of the kind whose count on the
    /// landing's file must stay below the limit (`file_limit`, default 1) for the drop.
    pub(crate) file_block: Option<(PieceCode, u8)>,
    /// `no_mate`: a drop that checkmates at once is not legal.
    pub(crate) no_mate: bool,
    /// `no_mate = "loses"`: a drop that checkmates at once is legal, and loses for the dropper.
    pub(crate) mate_loses: bool,
    /// `beside_own`: per cell, its neighbours, one of which must hold a piece of the dropper's
    /// (empty without the rule).
    pub(crate) beside: Vec<Vec<u16>>,
    /// The cells it may land on as cell sets, where they can be (see
    /// [`setwise::DropSets`]); else each cell is tested.
    pub(crate) sets: Option<setwise::DropSets>,
}

/// Enemy pieces that change owner when a piece lands (`convert = { … }`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Convert {
    /// Per `bracket` direction, per cell: the next cell along it (or [`crate::geometry::NONE`]).
    /// An unbroken line of convertible enemy pieces from the landing that ends on one of the
    /// mover's pieces changes owner.
    pub(crate) bracket: Vec<Vec<u16>>,
    /// Per `adjacent` direction, per cell: the neighbour that way (or `NONE`); a convertible enemy
    /// piece there changes owner.
    pub(crate) adjacent: Vec<Vec<u16>>,
    /// The enemy kinds that change owner.
    pub(crate) kinds: KindSet,
}

impl Convert {
    /// Whether `owner`'s piece landing on the empty cell `at` would convert any enemy piece.
    pub(crate) fn converts_any(&self, board: &[PieceCode], at: u16, owner: Player) -> bool {
        let enemy =
            |c: u16| c != crate::geometry::NONE && board[c as usize].is_of(owner.other()) && self.kinds.contains(board[c as usize].kind());
        let closes = |next: &Vec<u16>| {
            let mut c = next[at as usize];
            if !enemy(c) {
                return false;
            }
            while enemy(c) {
                c = next[c as usize];
            }
            c != crate::geometry::NONE && board[c as usize].is_of(owner)
        };
        self.bracket.iter().any(closes) || self.adjacent.iter().any(|next| enemy(next[at as usize]))
    }
}

/// A kind change on reaching a zone.
#[derive(Clone, Debug)]
pub(crate) struct Promotion {
    pub(crate) zone: ZoneSet,
    pub(crate) to: KindId,
    /// With a list of kinds (`to = ["queen", "rook", …]`): each kind's code for the promoted
    /// piece and its letter, one move per choice; empty with one kind (`to`, no choice).
    pub(crate) choices: Vec<(PieceCode, u8)>,
    pub(crate) ends_chain: bool,
    /// Whether any landing in the zone promotes, or only the move's last.
    pub(crate) at: PromoteAt,
    /// Where a move ends with no choice to stay unpromoted (`forced_in`; empty without one).
    pub(crate) forced: ZoneSet,
    /// The name of the `forced_in` zone (for `why`).
    pub(crate) forced_name: String,
    /// The index among `choices` of the piece's own kind (staying unpromoted), if offered.
    pub(crate) stay: Option<u8>,
    /// Per choice, the most pieces of its kind the player may have on the board for the choice
    /// to be offered (`limits`; `u32::MAX`: no limit).
    pub(crate) limits: Vec<u32>,
}

impl Promotion {
    /// Whether choice `i` is offered to a move that ends on `to` (staying unpromoted is not,
    /// where `forced_in` says so).
    #[inline]
    pub(crate) fn offers(&self, g: &Geometry, i: usize, to: Option<u16>) -> bool {
        self.stay != Some(i as u8) || self.forced.is_empty() || !to.is_some_and(|c| g.zones_of(c).meets(self.forced))
    }

    /// The choices offered to a move that ends on `to`, a bit per choice: `forced_in` and
    /// `limits` (`count`: how many pieces of a code stand on the board) applied.
    #[inline]
    pub(crate) fn offered(&self, g: &Geometry, to: Option<u16>, count: impl Fn(PieceCode) -> u32) -> u64 {
        let mut mask = 0;
        for (i, &(code, _)) in self.choices.iter().enumerate() {
            let limit = self.limits.get(i).copied().unwrap_or(u32::MAX);
            if self.offers(g, i, to) && (limit == u32::MAX || count(code) < limit) {
                mask |= 1 << i;
            }
        }
        mask
    }
}

/// When a piece that reaches its promotion zone is promoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PromoteAt {
    /// On any landing in the zone, also in the middle of a capture chain (then `ends_chain`
    /// says whether the chain stops there or goes on as the promoted kind).
    AnyLanding,
    /// Only when the move ends in the zone: a capture chain that passes through the zone and
    /// leaves it again does not promote (international draughts).
    EndOfMove,
    /// When the move starts or ends in the zone (shogi).
    FromOrTo,
}

/// When an attribute effect applies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum EffectOn {
    Quiet,
    Capture,
    Any,
}

/// A change to one of the moving piece's attributes when it lands.
#[derive(Clone, Debug)]
pub(crate) struct Effect {
    pub(crate) slot: u8,
    pub(crate) on: EffectOn,
    pub(crate) add: i32,
    pub(crate) set: Option<i32>,
}

/// Everything about how one piece code (kind × owner) moves.
#[derive(Clone, Debug, Default)]
pub(crate) struct PieceRules {
    pub(crate) quiet: Vec<Form>,
    /// For each quiet form: it applies only while its owner has at most this many pieces on
    /// the board (`u16::MAX`: always).
    pub(crate) limits: Vec<u16>,
    /// Per quiet form: `not_in_check`, the form is not available while the mover is in check.
    pub(crate) calm: Vec<bool>,
    pub(crate) jumps: Vec<Jump>,
    /// All jump forms merged, (jumped, landing, victim codes) per cell: a quick test of whether
    /// a piece can capture at all before a chain is set up.
    pub(crate) any_jump: CellTable<(u16, u16, CodeSet)>,
    pub(crate) promote: Option<Promotion>,
    /// Whether any of `jumps` is a flying jump (then the quick "can it capture at all" test
    /// walks lines as well as reading `any_jump`).
    pub(crate) flies: bool,
    pub(crate) effects: Vec<Effect>,
    pub(crate) exit: Option<Exit>,
    /// How the piece is dropped onto the board, if it may be.
    pub(crate) drop: Option<DropRule>,
    /// The enemy pieces it converts when it lands, if any.
    pub(crate) convert: Option<Convert>,
    /// The enemy pieces it pushes back after a move, if any.
    pub(crate) push: Option<Push>,
    /// The enemy pieces it captures by enclosing them when it lands, if any.
    pub(crate) custodian: Option<custodian::Custodian>,
    /// A piece of this code is captured by enclosure only when closed in on every side.
    pub(crate) surround: Option<custodian::Surround>,
    /// Capture by liberties when it lands (`liberties`), and whether a suicide is legal.
    pub(crate) liberties: Option<groups::Liberties>,
    /// With `[captures] to_hand`: the captor's counter slot that a capture of this piece raises
    /// (the hand of the kind it becomes, `in_hand`); `None`: a captured piece leaves the game.
    pub(crate) to_hand: Option<u8>,
    /// Each form in words, for explaining why a move is illegal.
    pub(crate) notes: Vec<String>,
    /// For each quiet form: the second part of the turn it asks for, if any (`then`).
    pub(crate) thens: Vec<Option<Then>>,
    /// Indices into `quiet` of the slides with `en_passant`: a move by one of them opens the
    /// cell it passed last to an en passant capture.
    pub(crate) en_passant: Vec<usize>,
    /// Where every quiet form is a step (no en passant, no piece-count limit, no second part,
    /// no exit zone) that may capture by landing on the same codes (or on none): its targets
    /// per cell, which are every quiet move of the piece.
    pub(crate) steps: Option<StepTargets>,
    /// Every quiet form applies at any piece count and has no second part: the forms are
    /// listed one after another with nothing else to ask.
    pub(crate) unconditional: bool,
}

/// The targets of a piece whose quiet forms are all steps ([`PieceRules::steps`]).
#[derive(Clone, Debug)]
pub(crate) struct StepTargets {
    /// The targets per cell in form order: a target that is empty is a move there, one holding
    /// a piece of `capture` a capture by landing, in the order the forms list them.
    pub(crate) targets: CellTable<u16>,
    /// The codes every one of the forms captures by landing on (0: none, plain steps).
    pub(crate) capture: CodeSet,
    /// `targets` as one cell set per cell, where the board has at most 128 cells and no cell's
    /// targets repeat: a piece's moves counted on the sets.
    pub(crate) sets: Option<Vec<u128>>,
}

/// Whether a capturing piece must, may or cannot go on capturing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Chain {
    MustContinue,
    MayStop,
    Single,
}

/// When jumped pieces leave the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Removal {
    Immediate,
    EndOfChain,
}

/// When two capture chains are the same move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Identity {
    /// Chains that land on different cells (or take different pieces on the way) are different
    /// moves.
    Path,
    /// Chains with the same start, the same end and the same set of captured pieces are one
    /// move, written as the path of one of them (see `movegen::merge_same_captures`).
    CapturedSet,
}

#[derive(Clone, Debug)]
pub(crate) struct CapturePolicy {
    pub(crate) compulsory: bool,
    pub(crate) chain: Chain,
    pub(crate) removal: Removal,
    pub(crate) maximum: bool,
    pub(crate) identity: Identity,
    /// Captured pieces go to the captor's hand.
    pub(crate) to_hand: bool,
    /// Every capture explodes (`explode = { … }`), if the rules say so.
    pub(crate) explode: Option<Explode>,
}

/// `[captures] explode`: after a capture, the capturing piece is removed, and every piece
/// (either player's) on a neighbour of the landing but those of `spare` kinds (atomic chess).
#[derive(Clone, Debug)]
pub(crate) struct Explode {
    /// Per cell, its neighbours the blast reaches (along the `around` directions).
    pub(crate) around: CellTable<u16>,
    /// The kinds a blast around them spares (a captured or capturing piece of them goes anyway).
    pub(crate) spare: KindSet,
}

impl Explode {
    /// Whether the blast of a capture on `at` would remove a piece of `codes` (a bit per code)
    /// standing next to it.
    pub(crate) fn reaches(&self, board: &[PieceCode], at: u16, codes: CodeSet) -> bool {
        self.around.get(at).iter().any(|&n| {
            let code = board[n as usize];
            codes >> code.index() & 1 != 0 && !self.spare.contains(code.kind())
        })
    }
}

/// A capture policy applied after the check test ([`Ruleset::late_policy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LatePolicy {
    pub(crate) compulsory: bool,
    pub(crate) maximum: bool,
}

/// A piece kind.
#[derive(Clone, Debug)]
pub struct KindDef {
    pub name: String,
    pub(crate) description: String,
    pub(crate) symbols: ByPlayer<char>,
    pub(crate) royal: bool,
    /// (attribute slot, initial value) for the attributes this kind has.
    pub(crate) attributes: Vec<(u8, i32)>,
}

/// Random keys for position hashing, fixed by a seed so hashes are the same in every run.
#[derive(Clone, Debug)]
pub(crate) struct Zobrist {
    /// `cell * codes + code`.
    pub(crate) pieces: Vec<u64>,
    pub(crate) codes: usize,
    pub(crate) side: [u64; 2],
    pub(crate) continuation: u64,
}

impl Zobrist {
    pub(crate) fn new(cells: usize, codes: usize) -> Zobrist {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            mix(state)
        };
        let pieces = (0..cells * codes).map(|i| if i % codes == 0 { 0 } else { next() }).collect();
        Zobrist { pieces, codes, side: [next(), next()], continuation: next() }
    }

    #[inline(always)]
    pub(crate) fn piece(&self, cell: u16, code: PieceCode) -> u64 {
        self.pieces[cell as usize * self.codes + code.index()]
    }

    /// The key of an attribute value (0 for value 0, so absent attributes cost nothing).
    #[inline]
    pub(crate) fn attribute(cell: u16, slot: u8, value: i32) -> u64 {
        if value == 0 { 0 } else { mix(((cell as u64) << 40) ^ ((slot as u64) << 32) ^ (value as u32 as u64) ^ 0xA5A5_0000_0000_0000) }
    }

    /// The key of the pie rule's swap on offer ([`pie::Pie`]).
    pub(crate) const PIE: u64 = 0x6A09_E667_F3BC_C908;

    /// The key of an open en passant cell.
    #[inline]
    pub(crate) fn en_passant(cell: u16) -> u64 {
        mix(0xE9E9_0000_0000_0000 ^ cell as u64)
    }

    /// The key of a gate of `p`'s on `cell`.
    #[inline]
    pub(crate) fn gate(p: Player, cell: u16) -> u64 {
        mix(0x6A7E_0000_0000_0000 ^ ((p.index() as u64) << 32) ^ cell as u64)
    }

    /// The key of a castling right: its slot and rook cell.
    #[inline]
    pub(crate) fn castle(slot: usize, rook: u16) -> u64 {
        mix(0xCA57_0000_0000_0000 ^ ((slot as u64) << 32) ^ rook as u64)
    }

    /// The key of a per-player counter value.
    #[inline]
    pub(crate) fn counter(player: Player, slot: u8, value: i32) -> u64 {
        if value == 0 { 0 } else { mix(0x5151_0000_0000_0000 ^ ((player.0 as u64) << 40) ^ ((slot as u64) << 32) ^ (value as u32 as u64)) }
    }

    /// The key of a cell holding `count` seeds (sowing; 0 for none).
    #[inline]
    pub(crate) fn seeds(cell: u16, count: u16) -> u64 {
        if count == 0 { 0 } else { mix(0x5EED_0000_0000_0000 ^ ((cell as u64) << 20) ^ count as u64) }
    }
}

/// splitmix64's finaliser.
#[inline]
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A royal designation held by the piece with a player's unique highest value of an attribute;
/// a tie leaves it where it is. Stored as the `crown` attribute (1 on the crowned piece).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Crown {
    /// The attribute slot compared.
    pub(crate) by: u8,
    /// The attribute slot marking the crowned piece.
    pub(crate) marker: u8,
    /// Recompute for both players after every move (or only for the mover).
    pub(crate) both: bool,
}

/// The starting position as board codes and attribute values.
#[derive(Clone, Debug)]
pub(crate) struct Setup {
    pub(crate) board: Vec<PieceCode>,
    pub(crate) attrs: Vec<i32>,
}

/// How moves are written for a person and in records (`[notation] moves`): boardlab's own
/// notation, SAN ([`crate::san`]) or numbered squares ([`crate::numbered`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum MoveStyle {
    #[default]
    Boardlab,
    San,
    /// Square 1 lies on `square_one`'s back rank.
    Numbered {
        square_one: Player,
    },
}

/// The most attributes a variant may declare: make/undo carry a piece's values in a fixed array
/// of this length.
pub(crate) const MAX_ATTRIBUTES: usize = 16;

/// A variant's validated rules under one assignment of its options.
#[derive(Clone, Debug)]
pub struct Ruleset {
    pub(crate) name: String,
    /// The name Fairy-Stockfish gives this game (`[notation] fairy_stockfish`), where it has it.
    pub(crate) fairy_stockfish: Option<String>,
    /// The counter a FEN writes in its check field (`[notation] fen_checks`), if any.
    pub(crate) fen_checks: Option<u8>,
    /// How moves are written for a person and in records (`[notation] moves`).
    pub(crate) move_style: MoveStyle,
    /// The PDN `GameType` number (`[notation] pdn`), where the variant declares one.
    pub(crate) pdn: Option<u8>,
    pub(crate) title: String,
    pub(crate) description: String,
    pub geometry: Geometry,
    pub player_names: ByPlayer<String>,
    pub(crate) first: Player,
    /// +1 when the player's forward is towards higher ranks, -1 otherwise.
    pub(crate) forward: ByPlayer<i8>,
    pub kinds: Vec<KindDef>,
    pub(crate) attributes: Vec<String>,
    pub(crate) counters: Vec<(String, i32)>,
    /// Indexed by piece code (index 0 = empty, unused).
    pub(crate) pieces: Vec<PieceRules>,
    /// The codes each player may drop (those whose [`PieceRules::drop`] is set, not gated), in
    /// kind order, and the gated ones.
    pub(crate) drops: Drops,
    pub(crate) captures: CapturePolicy,
    pub(crate) ends: Vec<EndRule>,
    pub(crate) setup: Setup,
    pub options: Options,
    pub(crate) hooks: HookRules,
    /// Plies after which the game is a draw (0 = off).
    pub(crate) move_limit: u32,
    pub(crate) zobrist: Zobrist,
    /// Whether two forms may produce the same move (then move lists are deduplicated).
    pub(crate) dedup: bool,
    /// Whether any royal capture ends the game (then a chain stops on it).
    pub(crate) royal_ends_game: bool,
    /// `[rules] check = "illegal"`: a move that leaves one of the mover's royal pieces attacked
    /// is not legal.
    pub(crate) check_illegal: bool,
    /// `[rules] give_check = false`: a move after which one of the opponent's royal pieces is
    /// attacked is not legal.
    pub(crate) no_giving_check: bool,
    /// Whether some form is barred while the mover is in check (`not_in_check`).
    pub(crate) calm_forms: bool,
    /// `[rules] points`: how an end whose result is `"points"` is scored.
    pub(crate) score: Option<Score>,
    /// An end `facing`: while the players' royal pieces face each other, the player to move
    /// must break it or pass ([`EndKind::Facing`]).
    pub(crate) facing: bool,
    /// The Go family's keys beside the pieces: `[rules] ko`, `[ai] random`, `[board] draw`.
    pub(crate) go: groups::GoKeys,
    /// `[rules] pass = true`: a player may pass at any turn (a pass in check is refused by the
    /// check rule like any move that leaves the king attacked).
    pub(crate) may_pass: bool,
    /// `[rules] pie = true`: the second player's first move may be `swap` ([`pie::Pie`]).
    pub(crate) pie: Option<pie::Pie>,
    /// The capture policy where it applies to the legal moves, after the check test, instead
    /// of in move generation (`captures` then holds none): where `check = "illegal"` meets a
    /// compulsory or maximal capture, a capture that would leave the king attacked does not
    /// make the other moves illegal.
    pub(crate) late_policy: Option<LatePolicy>,
    /// The kinds whose moves (and any capture) restart the `quiet_moves` clock, if that rule is
    /// declared (then positions keep the clock).
    pub(crate) clock: Option<KindSet>,
    /// Whether some movement form captures by landing (a replacement capture, as in chess),
    /// which move generation lists with the quiet moves.
    pub(crate) landing_captures: bool,
    /// `[castling]`, if the variant has it.
    pub(crate) castling: Option<Castling>,
    /// Whether some drop may not checkmate (`no_mate`).
    pub(crate) drop_no_mate: bool,
    /// Whether some drop's checkmate loses for the dropper (`no_mate = "loses"`).
    pub(crate) drop_mate_loses: bool,
    /// The counter each check a player gives takes one from (an end condition `checks`).
    pub(crate) check_counter: Option<u8>,
    /// Captures run backwards from a cell: the check test's tables.
    pub(crate) attacks: attacks::Attacks,
    /// Per player, the codes of its royal kinds (a bit per code).
    pub(crate) royal_codes: ByPlayer<CodeSet>,
    /// Per piece code and cell, the cells a piece of that code there could capture on, on an
    /// empty board (a superset: blockers and zone conditions ignored; every cell where that
    /// cannot be said, as for a jump, which a chain continues, or en passant). Empty on boards
    /// of more than 128 cells. The attack query ([`crate::attack`]) generates the captures only
    /// of the pieces that can reach its cell.
    /// Indexed by `code × cells + cell` (one flat table: the test reads it once per piece).
    pub(crate) attack_reach: Vec<u128>,
    /// Whether some piece promotes with a choice of kinds (then each such move is listed once
    /// per choice).
    pub(crate) promotion_choices: bool,
    /// Whether some piece pushes enemy pieces back (`push`): make then runs the push.
    pub(crate) push: bool,
    /// The crown, if the variant has one.
    pub(crate) crown: Option<Crown>,
    /// The attribute `show` writes beside each piece's symbol.
    pub(crate) display_attribute: Option<u8>,
    /// Whether a repetition rule exists (then make ends the game on a repeated position).
    pub(crate) repetition: bool,
    /// After which moves make checks the end conditions.
    pub(crate) end_checks: EndChecks,
    /// Which of make's paths a normal move takes, decided once from what the rules hold.
    pub(crate) make_path: MakePath,
    /// Named zones as the designer wrote them, per player (a shared zone has the same mask twice).
    pub(crate) zones: Vec<(String, ByPlayer<ZoneSet>)>,
    /// What a machine player's evaluation measures, derived from these rules and `[ai.eval]`.
    pub(crate) eval: EvalModel,
    /// The pieces' steps and jumps as shifts of cell sets, where the board and codes allow
    /// ([`setwise`]).
    pub(crate) setwise: Option<setwise::Setwise>,
    // ---- Sowing (mancala) ----
    /// `[sowing]`: seeds counted per cell and moves that sow them ([`sowing`]).
    pub(crate) sowing: Option<sowing::Sowing>,
}

/// After which moves make checks the end conditions (decided at load from the conditions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EndChecks {
    /// No condition is checked after a move.
    Never,
    /// Every condition checked after a move asks only whether a royal piece was taken or left
    /// the board: only a move that did either can meet one, so only those are checked.
    RoyalMoves,
    /// After every move.
    Every,
}

/// Which of make's paths a normal move takes (no continuation or en passant pending): each
/// does, in order, what the general path would, and skips what the rules cannot hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MakePath {
    /// Everything is looked at: castling, en passant, drops, conversion, push, exits, counters,
    /// the clock, the hand.
    General,
    /// The piece is lifted, its victims taken, and it lands (promoted, maybe), its attribute
    /// values carried, their effects applied on landing and the crown updated: the rules have
    /// none of the above.
    Plain,
}

impl Ruleset {
    /// Whether captures are compulsory, in move generation or after the check test.
    pub(crate) fn compulsory(&self) -> bool {
        self.captures.compulsory || self.late_policy.is_some_and(|p| p.compulsory)
    }

    /// Whether only the captures that take the most are legal, in move generation or after the
    /// check test.
    pub(crate) fn maximum(&self) -> bool {
        self.captures.maximum || self.late_policy.is_some_and(|p| p.maximum)
    }

    /// The [`Ruleset::make_path`] of these rules.
    fn make_path_of(&self) -> MakePath {
        // Every field named: a new one does not compile until it is decided here whether make
        // must look at it (the short path would silently skip it).
        let plain_piece = |p: &PieceRules| {
            let PieceRules {
                quiet: _,
                limits: _,
                calm: _, // a filter on the move list, not make
                jumps: _,
                any_jump: _,
                promote: _, // the short path promotes
                flies: _,
                effects: _, // the lean path applies them, and the plain path has no attributes
                exit,
                drop,
                convert,
                push,
                custodian,
                surround: _, // read only by a mover's custodian capture
                liberties,
                to_hand: _, // read only under `[captures] to_hand`, tested below
                notes: _,
                thens,
                en_passant,
                steps: _,
                unconditional: _,
            } = p;
            en_passant.is_empty()
                && convert.is_none()
                && push.is_none()
                && custodian.is_none()
                && liberties.is_none()
                && exit.is_none()
                && drop.is_none()
                && thens.iter().all(Option::is_none)
        };
        let plain = self.counters.is_empty()
            && self.castling.is_none()
            && self.clock.is_none()
            && !self.push
            && !self.captures.to_hand
            && self.captures.explode.is_none()
            && self.drops.by.0.iter().all(|d| d.is_empty())
            && self.pieces.iter().all(plain_piece);
        if plain { MakePath::Plain } else { MakePath::General }
    }

    /// The [`Ruleset::attack_reach`] table of `pieces` on `g`.
    pub(crate) fn attack_reach_of(g: &Geometry, pieces: &[PieceRules]) -> Vec<u128> {
        if !CellSet::fits(g.len()) {
            return Vec::new();
        }
        let all = CellSet::board(g.len()).bits();
        pieces
            .iter()
            .map(|p| {
                (0..g.len() as u16)
                    .map(|from| {
                        // (A capture chain goes on past its first jump's victim.)
                        if !p.jumps.is_empty() || !p.en_passant.is_empty() {
                            return all;
                        }
                        let mut m = 0u128;
                        for f in p.quiet.iter().filter(|f| f.captures()) {
                            for c in f.reach(g, from) {
                                m |= 1 << c;
                            }
                        }
                        for j in &p.jumps {
                            for &(over, _) in j.table.get(from) {
                                m |= 1 << over;
                            }
                        }
                        m
                    })
                    .collect::<Vec<u128>>()
            })
            .collect::<Vec<Vec<u128>>>()
            .concat()
    }

    /// The cells a piece of `code` on `from` could capture on (see [`Ruleset::attack_reach`]).
    #[inline(always)]
    pub(crate) fn reach_of(&self, code: PieceCode, from: u16) -> u128 {
        self.attack_reach[code.index() * self.geometry.len() + from as usize]
    }

    /// The number of attribute slots each cell carries (at most [`MAX_ATTRIBUTES`]).
    #[inline]
    pub(crate) fn nattr(&self) -> usize {
        self.attributes.len()
    }

    pub fn player_name(&self, p: Player) -> &str {
        &self.player_names[p]
    }

    /// A player by name (case-insensitive), or by its first letter.
    pub(crate) fn parse_player(&self, text: &str) -> Option<Player> {
        let t = text.to_ascii_lowercase();
        let names = &self.player_names;
        Player::both()
            .into_iter()
            .find(|&p| names[p] == t)
            .or_else(|| Player::both().into_iter().find(|&p| t.len() == 1 && names[p].starts_with(&t)))
    }

    pub(crate) fn kind(&self, k: KindId) -> &KindDef {
        &self.kinds[k.0 as usize]
    }

    pub(crate) fn kind_by_name(&self, name: &str) -> Option<KindId> {
        self.kinds.iter().position(|k| k.name == name).map(|i| KindId(i as u8))
    }

    /// The piece code of a symbol letter.
    pub(crate) fn code_of_symbol(&self, ch: char) -> Option<PieceCode> {
        for (i, k) in self.kinds.iter().enumerate() {
            for p in Player::both() {
                if k.symbols[p] == ch {
                    return Some(PieceCode::new(KindId(i as u8), p));
                }
            }
        }
        None
    }

    /// The symbol letter of a non-empty code.
    pub(crate) fn symbol(&self, code: PieceCode) -> char {
        self.kinds[code.kind().0 as usize].symbols[code.owner()]
    }

    pub fn attribute_slot(&self, name: &str) -> Option<u8> {
        self.attributes.iter().position(|a| a == name).map(|i| i as u8)
    }

    pub(crate) fn counter_slot(&self, name: &str) -> Option<u8> {
        self.counters.iter().position(|(a, _)| a == name).map(|i| i as u8)
    }

    /// The kinds whose pieces are held in hand, each with its counter slot: one kind per
    /// slot, the one the counter is named after (a kind dropped `from_hand_of` another is that
    /// piece's other face, not a piece of its own), in kind order. What the hands' display,
    /// the FEN and the evaluation count.
    pub(crate) fn hand_kinds(&self) -> Vec<(KindId, u8)> {
        (0..self.kinds.len())
            .filter_map(|k| {
                let d = self.pieces[PieceCode::new(KindId(k as u8), Player::FIRST).index()].drop.as_ref()?;
                Some((KindId(k as u8), d.hand.filter(|_| !d.borrowed)?))
            })
            .collect()
    }

    /// The cells of a named zone for a player.
    pub(crate) fn zone_mask(&self, name: &str, p: Player) -> Option<ZoneSet> {
        self.zones.iter().find(|(n, _)| n == name).map(|(_, m)| m[p])
    }

    /// The `passes` rule: the game ends when neither player can move, scored by a [`Tally`] of
    /// the pieces of the kinds it counts.
    pub(crate) fn both_pass_rule(&self) -> Option<(&EndRule, Tally, KindSet)> {
        self.ends.iter().find_map(|e| match e.kind.on_no_moves()? {
            NoMovesEnd::BothPass(t, k) => Some((e, t, k)),
            NoMovesEnd::Rule(..) => None,
        })
    }

    /// Whether the `passes` rule plays both passes before the game ends (`played = true`).
    pub(crate) fn passes_played(&self) -> bool {
        self.ends.iter().any(|e| matches!(e.kind, EndKind::BothPass(_, _, true)))
    }

    /// The first `no_moves` rule (what having no move usually means: conditional rules
    /// included, so that a checkmate's loss speaks for the rule set).
    pub(crate) fn no_moves_rule(&self) -> Option<(&EndRule, NoMoves)> {
        self.no_moves_rules().next().map(|(e, n, _)| (e, n))
    }

    /// Every `no_moves` rule in order, with its condition (`if_attacked` kinds).
    pub(crate) fn no_moves_rules(&self) -> impl Iterator<Item = (&EndRule, NoMoves, Option<KindSet>)> {
        self.ends.iter().filter_map(|e| match e.kind.on_no_moves()? {
            NoMovesEnd::Rule(result, if_attacked) => Some((e, result, if_attacked)),
            NoMovesEnd::BothPass(..) => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Score;
    use crate::piece::{ByPlayer, KindId, PieceCode, Player};

    const NONE_TAKEN: ByPlayer<u32> = ByPlayer([0, 0]);

    /// Janggi's count, by hand: two chariots (26) against one chariot and a cannon (20), and
    /// the second player's 1.5.
    #[test]
    fn points_count_the_board_and_the_bonus() {
        let s = Score { points: vec![13.0, 7.0], bonus: ByPlayer::new(0.0, 1.5), territory: None, prisoners: 0.0 };
        let (r, c) = (KindId(0), KindId(1));
        let mut board = vec![PieceCode::EMPTY; 6];
        board[0] = PieceCode::new(r, Player::FIRST);
        board[1] = PieceCode::new(r, Player::FIRST);
        board[2] = PieceCode::new(r, Player::SECOND);
        board[3] = PieceCode::new(c, Player::SECOND);
        assert_eq!(s.totals(&board, NONE_TAKEN), ByPlayer::new(26.0, 21.5));
        assert_eq!(s.winner(&board, NONE_TAKEN), Some(Player::FIRST));
        board[1] = PieceCode::new(c, Player::FIRST);
        assert_eq!(s.winner(&board, NONE_TAKEN), Some(Player::SECOND)); // 20 against 21.5
        let even = Score { points: vec![13.0, 7.0], bonus: ByPlayer::new(0.0, 0.0), territory: None, prisoners: 0.0 };
        assert_eq!(even.winner(&board, NONE_TAKEN), None); // 20 against 20
    }

    /// Territory scoring's prisoners, by hand: the board above (20 against 20) and a point per
    /// piece taken; the winner's margin in half points.
    #[test]
    fn prisoners_add_their_points() {
        let (r, c) = (KindId(0), KindId(1));
        let mut board = vec![PieceCode::EMPTY; 4];
        board[0] = PieceCode::new(r, Player::FIRST);
        board[1] = PieceCode::new(c, Player::FIRST);
        board[2] = PieceCode::new(r, Player::SECOND);
        board[3] = PieceCode::new(c, Player::SECOND);
        let s = Score { points: vec![13.0, 7.0], bonus: ByPlayer::new(0.0, 0.5), territory: None, prisoners: 1.0 };
        assert!(s.keeps_prisoners());
        assert_eq!(s.totals(&board, ByPlayer::new(3, 1)), ByPlayer::new(23.0, 21.5));
        assert_eq!(s.winner_by(&board, ByPlayer::new(3, 1)), (Some(Player::FIRST), 3));
        assert_eq!(s.winner_by(&board, ByPlayer::new(1, 1)), (Some(Player::SECOND), 1));
        assert!(!Score { prisoners: 0.0, ..s }.keeps_prisoners());
    }
}
