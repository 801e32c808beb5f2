//! The variant file exactly as written: serde mirrors of the TOML, with spans on everything
//! that validation checks later. Nothing outside `rules` sees these types.
//!
//! See `docs/variant-format.md` for the format a designer writes.

use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;
use toml::Spanned;
use toml::Value;

/// A value written directly, or taken from an option (`{ option = "name" }`), optionally
/// through a table from option values to settings (`{ option = "name", map = { a = 1 } }`).
#[derive(Serialize, Clone, Debug)]
// Written untagged; read by hand (`impl Deserialize` below) so a wrong shape says what is expected.
#[serde(untagged)]
pub(crate) enum Setting<T> {
    Value(T),
    Option(OptionRef<T>),
}

#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct OptionRef<T> {
    pub(crate) option: String,
    #[serde(default = "none", skip_serializing_if = "Option::is_none")]
    pub(crate) map: Option<BTreeMap<String, T>>,
}

fn none<T>() -> Option<T> {
    None
}

/// One name or a list of names (`to = "queen"` or `to = ["queen", "rook"]`).
#[derive(Serialize, Clone, Debug)]
// Written untagged; read by hand (`impl Deserialize` below) so a wrong shape says what is expected.
#[serde(untagged)]
pub(crate) enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    /// The names, in order.
    pub(crate) fn names(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(n) => vec![n.as_str()],
            OneOrMany::Many(ns) => ns.iter().map(String::as_str).collect(),
        }
    }
}

/// A boolean or a word (`capture = true` or `capture = "only"`).
#[derive(Serialize, Clone, Debug, PartialEq)]
// Written untagged; read by hand (`impl Deserialize` below) so a wrong shape says what is expected.
#[serde(untagged)]
pub(crate) enum TextOrBool {
    Bool(bool),
    Text(String),
}

impl std::fmt::Display for TextOrBool {
    /// As written in the file: `true` or `"only"`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextOrBool::Bool(b) => write!(f, "{b}"),
            TextOrBool::Text(t) => write!(f, "\"{t}\""),
        }
    }
}

/// A text or an integer (`pass_over = "any"` or `pass_over = 1`; `distance = "level"` or `2`).
#[derive(Serialize, Clone, Debug, PartialEq)]
// Written untagged; read by hand (`impl Deserialize` below) so a wrong shape says what is expected.
#[serde(untagged)]
pub(crate) enum TextOrInt {
    Int(i64),
    Text(String),
}

impl std::fmt::Display for TextOrInt {
    /// As written in the file: `2` or `"level"`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextOrInt::Int(i) => write!(f, "{i}"),
            TextOrInt::Text(t) => write!(f, "\"{t}\""),
        }
    }
}

#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawVariant {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) extends: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) script: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) board: Option<RawBoard>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) players: Option<RawPlayers>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) zones: BTreeMap<String, Spanned<RawZone>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) counters: BTreeMap<String, Spanned<i64>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) pieces: BTreeMap<String, RawPiece>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) captures: Option<RawCaptures>,
    #[serde(default, rename = "end", skip_serializing_if = "Option::is_none")]
    pub(crate) ends: Option<Vec<RawEnd>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) setup: Option<RawSetup>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) options: BTreeMap<String, RawOption>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) hooks: Option<RawHooks>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) crown: Option<RawCrown>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) display: Option<RawDisplay>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ai: Option<RawAi>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) rules: Option<RawRules>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) castling: Option<Spanned<CastlingSection>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) notation: Option<RawNotation>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "one_table")]
    pub(crate) sowing: Option<RawSowing>,
}

/// `[notation]`: how the variant's moves and positions are named to other programs.
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawNotation {
    /// The name Fairy-Stockfish (and its UCI_Variant, pyffish) gives the same game. Never
    /// inherited through `extends`: a derived variant is another game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) fairy_stockfish: Option<Spanned<String>>,
    /// A counter written in the FEN's check field (`3+3`, Fairy-Stockfish's three-check: the
    /// first player's value, `+`, the second's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) fen_checks: Option<Spanned<String>>,
    /// How moves are written for a person and in records (`boardlab`, `san`, `numbered`);
    /// inherited through `extends`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) moves: Option<RawMoveStyle>,
    /// With `moves = "numbered"`: the seat (`first` or `second`) on whose back rank square 1
    /// lies; inherited through `extends`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) square_one: Option<RawSeat>,
    /// The PDN `GameType` number of this game (20 international draughts, 21 English
    /// draughts…). Never inherited: a derived variant is another game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pdn: Option<u8>,
}

/// `[notation] moves`: how moves are written for a person and in records.
#[derive(Deserialize, Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RawMoveStyle {
    /// boardlab's own notation (`e2-e4`, `c3xe5`).
    Boardlab,
    /// Standard Algebraic Notation (`Nf3`, `exd5`, `O-O`).
    San,
    /// Numbered squares, as draughts writes them (`11-15`, `22x13`).
    Numbered,
}

/// A seat: the player who moves first, or the other.
#[derive(Deserialize, Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RawSeat {
    First,
    Second,
}

/// `[castling]`, or `castling = false`: a variant that extends a castling game takes castling
/// away (as a `[castling]` section with no side does).
#[derive(Clone, Debug)]
pub(crate) enum CastlingSection {
    Off,
    On(Box<RawCastling>),
}

impl<'de> Deserialize<'de> for CastlingSection {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CastlingSection, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = CastlingSection;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a [castling] section, or `castling = false`")
            }
            fn visit_bool<E: serde::de::Error>(self, on: bool) -> Result<CastlingSection, E> {
                if on {
                    Err(E::custom("`castling = true` says nothing: declare a [castling] section (king, rook, east, west)"))
                } else {
                    Ok(CastlingSection::Off)
                }
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(self, m: M) -> Result<CastlingSection, M::Error> {
                RawCastling::deserialize(serde::de::value::MapAccessDeserializer::new(m)).map(|c| CastlingSection::On(Box::new(c)))
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for CastlingSection {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            CastlingSection::Off => s.serialize_bool(false),
            CastlingSection::On(c) => c.serialize(s),
        }
    }
}

/// `[castling]`: a king moves two or more cells along its rank and a rook that, like it, has
/// not moved jumps to its other side. With neither side, no castling (`king` and `rook` may
/// then be left out).
#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCastling {
    /// The kind that castles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) king: Option<Spanned<String>>,
    /// The kind (or kinds) it castles with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) rook: Option<Spanned<OneOrMany>>,
    /// Castling with the rook on the king's east (higher files, written `O-O`): the files the
    /// king and the rook land on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) east: Option<Spanned<RawCastleSide>>,
    /// The same with the rook on the king's west (written `O-O-O`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) west: Option<Spanned<RawCastleSide>>,
}

/// Where the king and the rook land when castling on one side (file letters).
#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCastleSide {
    pub(crate) king: Spanned<String>,
    pub(crate) rook: Spanned<String>,
}

/// Rules about the whole game rather than one piece or end (`[rules]`).
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRules {
    /// `"allowed"` (default) or `"illegal"`: a move that leaves one of the mover's royal pieces
    /// attacked (capturable by the opponent's next move) is not legal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) check: Option<Spanned<Setting<String>>>,
    /// `false`: a move after which the opponent's royal piece is attacked is not legal (no
    /// check may be given: racing kings). Default `true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) give_check: Option<Spanned<Setting<bool>>>,
    /// `true`: a player may pass instead of moving, at any turn (janggi); under `check =
    /// "illegal"` not while in check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pass: Option<Spanned<Setting<bool>>>,
    /// Kind → points, for the ends whose `result = "points"`: the player with more points on
    /// the board (plus its `points_bonus`) wins (janggi's count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) points: Option<Spanned<BTreeMap<Spanned<String>, Spanned<f64>>>>,
    /// Player → points added to its count (janggi's 1.5 for the second player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) points_bonus: Option<BTreeMap<Spanned<String>, Spanned<f64>>>,
    // ---- the pie rule (issue 51, part 3) ----
    /// `true`: the second player's first move may be `swap` (the pie rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pie: Option<Spanned<Setting<bool>>>,
    /// `"none"` (default) or `"diagonal"`: where a swapped piece goes (its own cell, or the
    /// cell mirrored across the a1 diagonal: file ↔ rank).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pie_mirror: Option<Spanned<String>>,
    /// The Go family: `"none"` (default), `"simple"`, `"positional"` or `"situational"`: which
    /// earlier positions a move may not bring back (ko and superko).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ko: Option<Spanned<Setting<String>>>,
    /// The Go family: `true`: the count of `points` adds, per player, the empty cells of the
    /// regions only its pieces border (area scoring).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) points_territory: Option<Spanned<bool>>,
    /// Territory scoring: the points each player counts per piece of the opponent's its moves
    /// took off the board (prisoners).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) points_prisoners: Option<Spanned<f64>>,
}

impl RawRules {
    /// Whether the rules declare a count for `result = "points"`: `points`, or territory
    /// scoring's `points_territory` or `points_prisoners` alone (every kind then 0).
    pub(crate) fn declares_count(&self) -> bool {
        self.points.is_some() || self.points_prisoners.is_some() || self.points_territory.as_ref().is_some_and(|t| *t.get_ref())
    }
}

/// What the machine player is told about the game (`[ai]`).
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawAi {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) eval: Option<RawEval>,
    /// The node budget of a bare `ab` in this game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) nodes: Option<Spanned<i64>>,
    /// Which moves that take or convert pieces they do not list the search counts as captures:
    /// `captures` (custodian captures, groups, sowing's captures), `all` (conversions too),
    /// `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) implicit_takes: Option<Spanned<String>>,
    /// What random players (and playouts) leave out of their draw (the Go family's section).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) random: Option<Spanned<RawRandom>>,
}

/// Overrides of the evaluation derived from the rules (`[ai.eval]`).
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEval {
    /// Piece kind → value (100 = an ordinary piece).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) values: BTreeMap<Spanned<String>, Spanned<i64>>,
    /// Term name → multiplier of the derived weight (1 = as derived, 0 = off).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) weights: BTreeMap<Spanned<String>, Spanned<f64>>,
    /// Piece kind → the attributes term's points at each value (0, 1, 2, …) of the attribute
    /// that sets its move distance, in place of those derived from its reach.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) attributes: BTreeMap<Spanned<String>, Spanned<Vec<i64>>>,
}

/// A royal designation that moves to a player's piece with the unique highest value of an
/// attribute (ties keep it where it is).
#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCrown {
    pub(crate) attribute: Spanned<String>,
    /// `both` (after every move, for both players) or `mover` (only the mover's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) update: Option<Spanned<Setting<String>>>,
}

/// How `show` draws pieces: with an attribute's value beside the symbol.
#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDisplay {
    pub(crate) attribute: Spanned<String>,
}

#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBoard {
    pub(crate) files: Spanned<i64>,
    pub(crate) ranks: Spanned<i64>,
    /// `all` (default), `dark` or `light`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cells: Option<Spanned<String>>,
    /// Rows of the grid, top rank first: `-` is no cell, any other mark is a cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) mask: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) holes: Vec<Spanned<String>>,
    // ---- hexagonal boards (issue 51, part 2) ----
    /// `"square"` (default) or `"hex"`: a hex board's cells have six neighbours.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) geometry: Option<Spanned<String>>,
    /// `"squares"` (default) or `"intersections"`: how diagrams draw the board (Go's stones
    /// stand on the lines' crossings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) draw: Option<Spanned<String>>,
}

#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPlayers {
    pub(crate) names: Spanned<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) first: Option<Spanned<String>>,
    /// Player → `north` or `south`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) forward: BTreeMap<String, Spanned<String>>,
}

#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawZone {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    /// How `show` marks the zone's empty cells (one character).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) mark: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) cells: Vec<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) rect: Vec<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) files: Vec<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) ranks: Vec<Spanned<i64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) union: Vec<Spanned<String>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) by_player: BTreeMap<String, RawZone>,
}

#[derive(Serialize, Clone, Debug)]
// Written untagged; read by hand (`impl Deserialize` below) so a wrong shape says what is expected.
#[serde(untagged)]
pub(crate) enum RawSymbols {
    /// One letter: upper case for the first player, lower case for the second.
    One(String),
    ByPlayer(BTreeMap<String, String>),
}

#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPiece {
    pub(crate) symbol: Spanned<RawSymbols>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) royal: bool,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) attributes: BTreeMap<String, Spanned<i64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) moves: Vec<Spanned<RawForm>>,
    /// The movement in Betza's notation (`"NR"`), instead of `moves`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) betza: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "one_table")]
    pub(crate) promote: Option<RawPromote>,
    /// Attribute effects applied when a piece of this kind lands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) effects: Vec<Spanned<RawEffect>>,
    /// Removed on reaching a zone, counting it in a counter.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "one_table")]
    pub(crate) exit: Option<RawExit>,
    /// May be dropped (placed) onto the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) drop: Option<Spanned<RawDrop>>,
    /// Enemy pieces it turns into its owner's when it lands (Othello's flips, Ataxx's infection).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) convert: Option<Spanned<RawConvert>>,
    /// With `[captures] to_hand`: the kind it becomes in its captor's hand (default: its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) in_hand: Option<Spanned<String>>,
    /// Enemy pieces it pushes back when it lands (Pyramida's column and contact attacks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) push: Option<Spanned<RawPush>>,
    /// Enemy pieces it captures by enclosing them when it lands (tafl's custodian capture).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) custodian: Option<Spanned<RawCustodian>>,
    /// A piece of this kind is captured only when enclosed on every side (a tafl king).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) surround: Option<Spanned<RawSurround>>,
    /// Go's capture: enemy groups it leaves without a liberty are taken when it lands (see the
    /// Go family's section at the end of this file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) liberties: Option<Spanned<RawLiberties>>,
}

/// `custodian = { directions = "orthogonal", anvils = [...], hostile = [...], shieldwall = {…} }`:
/// after a move of this kind, an enemy piece next to the landing (along a direction) is
/// captured when the cell beyond it is an anvil: one of the mover's pieces of the `anvils`
/// kinds, or a cell `hostile` to the victim's owner.
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCustodian {
    /// The directions looked along from the landing (default orthogonal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) directions: Option<Spanned<RawDirs>>,
    /// The enemy kinds it captures (default: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) victims: Option<Vec<Spanned<String>>>,
    /// The mover's own kinds that close a capture on the far side (default: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) anvils: Option<Vec<Spanned<String>>>,
    /// Cells that close a capture like an own piece, per zone (for a per-player zone, the
    /// victim's part: the cells hostile to that player).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) hostile: Vec<Spanned<RawHostile>>,
    /// The row capture along the board's edge (Copenhagen's shieldwall).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) shieldwall: Option<Spanned<RawShieldwall>>,
}

/// `{ zone = "throne", if = "empty" }`: the zone's cells are hostile, always (`any`, the
/// default) or only while `empty` or `occupied`.
#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawHostile {
    pub(crate) zone: Spanned<String>,
    #[serde(default, rename = "if", skip_serializing_if = "Option::is_none")]
    pub(crate) when: Option<Spanned<Setting<String>>>,
}

/// `shieldwall = { min = 2, spare = ["king"] }`: a row of enemy pieces along the board's edge,
/// each fronted (on its inner side) by one of the mover's pieces, is captured when the move
/// brackets it at one end and an anvil closes the other.
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawShieldwall {
    /// The fewest pieces a row has (default 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) min: Option<Spanned<Setting<i64>>>,
    /// Kinds that may stand in the row but are not captured by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) spare: Option<Vec<Spanned<String>>>,
}

/// `surround = { zone = "…", edge = "immune" }`: a piece of this kind is captured only when
/// every side (along `directions`, default orthogonal) is closed by an enemy piece or a cell
/// hostile to it, after an enemy move next to it; with `zone`, only while it stands in the
/// zone (elsewhere it is captured as other pieces are).
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSurround {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) directions: Option<Spanned<RawDirs>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) zone: Option<Spanned<Setting<String>>>,
    /// A side off the board: `immune` (the piece cannot be captured there, the default) or
    /// `closed` (the edge closes that side).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) edge: Option<Spanned<Setting<String>>>,
}

/// `push = { contact = "diagonal", retreat = "backward_diagonal", … }`: after a move of this
/// kind, enemy pieces are sent back: along the landing's file (`column`), else from beside the
/// landing (`contact`); an attack that moves nothing may earn an extra move. Each key is a
/// setting (a value, or `{ option = … }`).
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPush {
    /// Only a move that goes forward pushes (default false: every move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) forward_only: Option<Spanned<Setting<bool>>>,
    /// The column attack and where it sends the enemy piece: `lowest_empty_below`,
    /// `lowest_only`, `lowest_empty_any` or `none` (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) column: Option<Spanned<Setting<String>>>,
    /// The enemy pieces on these neighbours of the landing are the contact attack's victims.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) contact: Option<Spanned<RawDirs>>,
    /// Where a victim retreats: one cell along one of these directions (its owner's forward).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) retreat: Option<Spanned<RawDirs>>,
    /// How far a victim that is its owner's last piece may retreat along one direction, the
    /// cells passed empty (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) last_piece_retreat: Option<Spanned<Setting<i64>>>,
    /// A victim with no retreat cell on the board: `blocked` (the default) or `immune`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) edge: Option<Spanned<Setting<String>>>,
    /// `one` victim retreats (the default), or `all` that can.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) victims: Option<Spanned<Setting<String>>>,
    /// Who picks the victim and its cell when there is a choice: `attacker` (the default) or
    /// `owner`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) chooser: Option<Spanned<Setting<String>>>,
    /// What an attack that moves nothing earns: `extra_move` or `nothing` (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) blocked: Option<Spanned<Setting<String>>>,
    /// Whether a normal move made inside a continuation (an extra move) pushes (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) in_continuation: Option<Spanned<Setting<bool>>>,
}

/// `convert = { bracket = "all", adjacent = "orthogonal", kinds = [...] }`: when a piece of this
/// kind lands, enemy pieces change owner: each unbroken line of them along a `bracket` direction
/// that ends on one of the mover's pieces, and each one on an `adjacent` cell.
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawConvert {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) bracket: Option<Spanned<RawDirs>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) adjacent: Option<Spanned<RawDirs>>,
    /// The enemy kinds that change owner (default: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) kinds: Option<Vec<Spanned<String>>>,
}

/// `drop = { zone = "…", supply = "unlimited", gravity = "s" }`: a piece placed from outside
/// the board onto an empty cell.
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDrop {
    /// The cells it may be dropped on (default: the whole board).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) zone: Option<Spanned<String>>,
    /// Where dropped pieces come from: `unlimited` (the default) or `hand` (the player's count of
    /// the kind in hand, a counter `<kind>_in_hand`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) supply: Option<Spanned<Setting<String>>>,
    /// One direction the piece falls along to the last empty cell (Connect Four: `s`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) gravity: Option<Spanned<RawDirs>>,
    /// A drop is legal only where the kind's `convert` turns at least one enemy piece (Othello).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) must_convert: Option<Spanned<bool>>,
    /// Not onto a file where one of the player's pieces of this kind stands (shogi's nifu: two
    /// pawns on a file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) not_on_file_with: Option<Spanned<String>>,
    /// With `not_on_file_with`: how many of those pieces a file may hold (default 1: none may
    /// stand there before the drop; tori shogi's swallows: 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) file_limit: Option<Spanned<i64>>,
    /// Only onto a cell next to (one of the eight neighbours of) one of the dropper's pieces
    /// (Ataxx's clone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) beside_own: Option<Spanned<bool>>,
    /// A drop that checkmates at once: `true` or `"illegal"` (shogi's uchifuzume), `"loses"`
    /// (listed, and the mate loses for the dropper: Fairy-Stockfish's reading), `false` or
    /// `"allowed"` (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) no_mate: Option<Spanned<Setting<TextOrBool>>>,
    /// With `supply = "hand"`: placed only by gating, onto a gate (a cell of `zone` holding an
    /// unmoved piece of the player's since the start) as the piece there leaves it (S-chess).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) gate: Option<Spanned<bool>>,
    /// With `supply = "hand"`: dropped from the hand's pieces of that kind, not from a count of
    /// its own (a promoted face dropped face up: Kyoto shogi's gold from a lance in hand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) from_hand_of: Option<Spanned<String>>,
}

#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawExit {
    pub(crate) zone: Spanned<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) counter: Option<Spanned<String>>,
}

#[derive(Serialize, Clone, Debug)]
// Written untagged; read by hand (`impl Deserialize` below) so a wrong shape says what is expected.
#[serde(untagged)]
pub(crate) enum RawDir {
    Name(String),
    Vector([i64; 2]),
}

#[derive(Serialize, Clone, Debug)]
// Written untagged; read by hand (`impl Deserialize` below) so a wrong shape says what is expected.
#[serde(untagged)]
pub(crate) enum RawDirs {
    One(String),
    List(Vec<RawDir>),
}

#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawForm {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) step: Option<Spanned<RawDirs>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) slide: Option<Spanned<RawDirs>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) leap: Option<Spanned<RawDirs>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) jump: Option<Spanned<RawDirs>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) walk: Option<Spanned<RawDirs>>,
    /// How many single steps a walk makes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) steps: Option<Spanned<i64>>,
    /// The form applies only while its owner has at most this many pieces on the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) own_pieces_at_most: Option<Spanned<Setting<i64>>>,
    /// The form is not available while the mover is in check (a Cambodian king's leap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) not_in_check: Option<Spanned<Setting<bool>>>,
    /// Explicit vectors are turned round for a player whose forward is south.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) relative: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) distance: Option<Spanned<Setting<TextOrInt>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// `true` (may also land on an enemy piece), `false`, or `"only"` (only onto an enemy piece).
    pub(crate) capture: Option<Spanned<Setting<TextOrBool>>>,
    /// On a quiet slide: the cell it passes is open to an en passant capture on the opponent's
    /// next move. On a capture-only step: it may make that capture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) en_passant: Option<Spanned<bool>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) victims: Option<Vec<Spanned<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pass_over: Option<Spanned<Setting<TextOrInt>>>,
    /// A slide that captures only by hopping over exactly one piece (the screen) onto the first
    /// piece beyond it (xiangqi's cannon); its quiet moves are a plain slide's. `"always"`: its
    /// quiet moves too go over exactly one screen (janggi's cannon, Betza's `pR`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) screen: Option<Spanned<Setting<TextOrBool>>>,
    /// The kinds that may not serve as a screen (of either player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) screen_not: Option<Vec<Spanned<String>>>,
    /// A slide that hops over the first piece in its line and lands on the cell just beyond it
    /// (a grasshopper): a move there if it is empty, a capture if it holds a piece it may take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) hop: Option<Spanned<Setting<bool>>>,
    /// The form moves a piece only from a cell where the start position has a piece of its kind
    /// and owner (Betza's `i`: a pawn's double step written without a zone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) initial: Option<Spanned<bool>>,
    /// A leap blocked by a piece on the cell one step short of its landing (xiangqi's horse and
    /// elephant); `"path"`: on any cell of its path, straight along the longer leg, then
    /// diagonally (janggi's elephant).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) lame: Option<Spanned<Setting<TextOrBool>>>,
    /// A jump over a piece any distance away, to any empty cell beyond it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) flying: Option<Spanned<Setting<bool>>>,
    /// Where a flying jump may land: `continuing` (default) or `any`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) land: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) stop: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) max_distance: Option<Spanned<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) off_board: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) off_moves: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) from: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) from_not: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) to: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) to_not: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) from_or_to: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) over: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) path: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) same_zone: Option<Vec<Spanned<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) when: Option<Spanned<String>>,
    /// A second part of the turn, from the landing: a form that places a piece of the kind
    /// `place` names where it could move (Amazons: `then = { place = "arrow", slide = "any" }`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) then: Option<Box<Spanned<RawForm>>>,
    /// Inside `then`: the kind of the piece placed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) place: Option<Spanned<String>>,
}

#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPromote {
    /// A kind, or a list of kinds to choose from (each choice a move of its own).
    pub(crate) to: Spanned<OneOrMany>,
    pub(crate) zone: Spanned<String>,
    /// Whether a chain stops on promotion (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ends_chain: Option<Spanned<bool>>,
    /// `any_landing` (default) or `end_of_move`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) at: Option<Spanned<Setting<String>>>,
    /// A zone where a move that ends there may not stay unpromoted (the piece's own kind
    /// among `to` is not offered there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) forced_in: Option<Spanned<String>>,
    /// Per kind among `to`: the choice is offered only while the player has fewer than this many
    /// pieces of the kind on the board (grand chess: only to a kind that was captured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) limits: Option<BTreeMap<Spanned<String>, Spanned<i64>>>,
}

#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEffect {
    pub(crate) attribute: Spanned<String>,
    /// `quiet` (landing on an empty cell), `capture`, or `any`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) on: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) add: Option<Spanned<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) set: Option<Spanned<i64>>,
}

#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCaptures {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) compulsory: Option<Spanned<Setting<bool>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) chain: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) removal: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) maximum: Option<Spanned<Setting<bool>>>,
    /// `path` (default) or `captured_set`: when two chains are one move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) identity: Option<Spanned<Setting<String>>>,
    /// Captured pieces go to the captor's hand (kinds dropped from a hand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) to_hand: Option<Spanned<Setting<bool>>>,
    /// Every capture explodes (atomic chess): `explode = { around = "all", spare = ["pawn"] }`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) explode: Option<Spanned<RawExplode>>,
}

/// `explode = { around = "all", spare = ["pawn"] }`: after a capture the capturing piece is
/// removed too, and so is every piece on the landing's neighbours along `around` (default
/// all eight) but those of the `spare` kinds.
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawExplode {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) around: Option<Spanned<RawDirs>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) spare: Option<Vec<Spanned<String>>>,
}

#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEnd {
    /// What a variant that extends this one calls it to replace or remove it (by default its
    /// condition, where no other inherited end has that condition, or its reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<Spanned<String>>,
    /// With `name`: takes the inherited end of that name away.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) remove: Option<Spanned<bool>>,
    pub(crate) condition: Spanned<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) result: Option<Spanned<Setting<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) count: Option<Spanned<Setting<i64>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) zone: Option<Spanned<String>>,
    /// `in_a_row`: how many pieces make a line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) length: Option<Spanned<Setting<i64>>>,
    /// `in_a_row`: the kinds that count (default: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) kinds: Option<Vec<Spanned<String>>>,
    /// `in_a_row`: the lines' directions (default `all`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) directions: Option<Spanned<RawDirs>>,
    /// `in_a_row`: only a line of exactly `length` counts, not a longer one (default: at least).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) exactly: Option<Spanned<Setting<bool>>>,
    /// `beside`: the enemy kinds whose neighbourhood ends the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) of: Option<Vec<Spanned<String>>>,
    /// `beside`: `capture` (only after a capturing move) or `any_move` (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) after: Option<Spanned<Setting<String>>>,
    /// `zone_reached`: only if the piece cannot be captured there at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) safe: Option<Spanned<Setting<bool>>>,
    /// `passes`: the passes are played as moves (each player passes in turn), and the game ends
    /// after the second in a row (Fairy-Stockfish's reading), instead of at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) played: Option<Spanned<Setting<bool>>>,
    /// `repetition` with `result = "loss"`: the player who loses, whoever made the repeating move
    /// (Copenhagen Hnefatafl: perpetual repetition is a loss for white).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) loser: Option<Spanned<String>>,
    /// `zone_reached` with `safe`: judged after every move for every piece of both players
    /// standing in the zone, not only for the piece that arrived (Fairy-Stockfish's reading).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) standing: Option<Spanned<Setting<bool>>>,
    /// `no_moves`: the rule applies only when one of the player's pieces of these kinds is
    /// attacked (could be captured by the opponent's next move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) if_attacked: Option<Vec<Spanned<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) when: Option<Spanned<String>>,
    /// `pieces_at_most` (a loss): a player brought to the count, while the opponent has only one
    /// piece more than it, has one move to bring the opponent to it too (shatranj's reprieve).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) reply: Option<Spanned<Setting<bool>>>,
    /// `royal_captured`: the player loses only when its last royal piece is captured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) last: Option<Spanned<Setting<bool>>>,
    /// `material`: the sets of pieces on the board, both players' together (kind names,
    /// repeated for two of a kind), too small to win.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) sets: Option<Vec<Vec<Spanned<String>>>>,
    /// `checks`: the counter of the checks each player has still to give.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) counter: Option<Spanned<String>>,
    // ---- connection (issue 51, part 3) ----
    /// `connected`: the zones one chain of a player's pieces must join (each player's part of
    /// each).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) zones: Option<Spanned<Vec<Spanned<String>>>>,
    // ---- Havannah's ends (issue 51, part 3) ----
    /// `connected`: how many of the goals one chain must touch (default: all of them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) at_least: Option<Spanned<Setting<i64>>>,
    /// `connected`: each cell of each listed zone is a goal of its own (default: each zone is one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) each_cell: Option<Spanned<Setting<bool>>>,
    // ---- end of Havannah's ends ----
}

#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSetup {
    /// The board as rows, top rank first, in the position-text board grammar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) rows: Option<Spanned<String>>,
    /// Player → kind → cells.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) pieces: BTreeMap<String, BTreeMap<String, Vec<Spanned<String>>>>,
}

#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawOption {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    /// The allowed values of a choice option, or `true`/`false` for a switch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) values: Option<Spanned<Vec<toml::Value>>>,
    /// The range of an integer option.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) min: Option<Spanned<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) max: Option<Spanned<i64>>,
    /// Integers allowed outside the range (e.g. 0 for "off").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) also: Vec<Spanned<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) default: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawHooks {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) after_move: Option<Spanned<RawHook>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) allow_move: Option<Spanned<RawHook>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) generate_moves: Option<Spanned<RawHook>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) outcome: Option<Spanned<RawHook>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) evaluate: Option<Spanned<RawHook>>,
}

/// When a hook runs: `true` (always), or a filter.
#[derive(Serialize, Clone, Debug)]
// Written untagged; read by hand (`impl Deserialize` below) so a wrong shape says what is expected.
#[serde(untagged)]
pub(crate) enum RawHook {
    Always(bool),
    Filter(Box<RawHookFilter>),
}

#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawHookFilter {
    /// Only moves of pieces of these kinds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) kinds: Vec<String>,
    /// Only captures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) captures_only: Option<Setting<bool>>,
    /// Only moves that end on a higher rank than they started (as the mover sees forward).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) forward_only: Option<bool>,
    /// Only moves whose landing has an enemy piece next to it in one of these directions…
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) enemy_adjacent: Option<RawDirs>,
    /// …or anywhere in the landing's file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) enemy_in_file: Option<bool>,
    /// Only moves that land in this zone (a per-player zone: the mover's part).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) to: Option<String>,
    /// Only while the mover's counter is within bounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) counter: Option<RawCounterCondition>,
    /// An option condition (`name == value`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) when: Option<String>,
}

/// `counter = { name = "escaped", min = 1, max = 3 }`: the mover's counter is in `min..=max`.
#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCounterCondition {
    pub(crate) name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) min: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) max: Option<i64>,
}

/// Reads a value that may be written in more than one shape (what serde's untagged enums do,
/// whose error says only "data did not match any variant"): the value is read whole, `pick`
/// chooses by its TOML type, and a value of no accepted shape is an error saying which shapes
/// are (`expected`). The error is raised while reading this value, so it points at it.
fn shaped<'de, D: Deserializer<'de>, T>(
    d: D,
    expected: &str,
    pick: impl FnOnce(Value) -> Option<Result<T, String>>,
) -> Result<T, D::Error> {
    let v = Value::deserialize(d)?;
    let found = v.type_str();
    match pick(v) {
        Some(r) => r.map_err(serde::de::Error::custom),
        None => Err(serde::de::Error::custom(format!("expected {expected}; found {}", a_type(found)))),
    }
}

/// A TOML type in words ("a string", "an integer").
fn a_type(t: &str) -> String {
    let article = if t.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {t}")
}

/// Reads one shape of a [`shaped`] value, its error prefixed by what it was read as.
fn read_as<T: serde::de::DeserializeOwned>(v: Value, what: &str) -> Option<Result<T, String>> {
    Some(v.try_into().map_err(|e: toml::de::Error| format!("{what}: {}", e.message().trim())))
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for Setting<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        if let Value::Table(t) = &v
            && t.contains_key("option")
        {
            return v.try_into().map(Setting::Option).map_err(|e| {
                serde::de::Error::custom(format!("an option reference ({{ option = \"NAME\", map = {{ … }} }}): {}", e.message().trim()))
            });
        }
        v.try_into()
            .map(Setting::Value)
            .map_err(|e| serde::de::Error::custom(format!("{}, or an option reference ({{ option = \"NAME\" }})", e.message().trim())))
    }
}

impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        shaped(d, "a name in quotes (\"queen\") or a list of names ([\"queen\", \"rook\"])", |v| match v {
            Value::String(s) => Some(Ok(OneOrMany::One(s))),
            Value::Array(_) => read_as(v, "a list of names").map(|r| r.map(OneOrMany::Many)),
            _ => None,
        })
    }
}

impl<'de> Deserialize<'de> for TextOrBool {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        shaped(d, "true, false or a word in quotes (\"only\")", |v| match v {
            Value::Boolean(b) => Some(Ok(TextOrBool::Bool(b))),
            Value::String(s) => Some(Ok(TextOrBool::Text(s))),
            _ => None,
        })
    }
}

impl<'de> Deserialize<'de> for TextOrInt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        shaped(d, "a whole number (2) or a word in quotes (\"any\")", |v| match v {
            Value::Integer(i) => Some(Ok(TextOrInt::Int(i))),
            Value::String(s) => Some(Ok(TextOrInt::Text(s))),
            _ => None,
        })
    }
}

impl<'de> Deserialize<'de> for RawSymbols {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        shaped(d, "one letter in quotes (\"K\") or a letter per player ({ white = \"K\", black = \"k\" })", |v| match v {
            Value::String(s) => Some(Ok(RawSymbols::One(s))),
            Value::Table(_) => read_as(v, "a letter per player").map(|r| r.map(RawSymbols::ByPlayer)),
            _ => None,
        })
    }
}

impl<'de> Deserialize<'de> for RawDir {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        shaped(d, "a direction's name in quotes (\"north\") or a vector [files, ranks] ([1, 2])", |v| match v {
            Value::String(s) => Some(Ok(RawDir::Name(s))),
            Value::Array(_) => read_as(v, "a vector [files, ranks] of two whole numbers").map(|r| r.map(RawDir::Vector)),
            _ => None,
        })
    }
}

impl<'de> Deserialize<'de> for RawDirs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        shaped(d, "a direction's name in quotes (\"orthogonal\") or a list of names and vectors ([\"north\", [1, 2]])", |v| match v {
            Value::String(s) => Some(Ok(RawDirs::One(s))),
            Value::Array(_) => read_as(v, "a list of directions").map(|r| r.map(RawDirs::List)),
            _ => None,
        })
    }
}

impl<'de> Deserialize<'de> for RawHook {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        shaped(d, "true, false or a filter ({ kinds = [\"man\"], captures_only = true })", |v| match v {
            Value::Boolean(b) => Some(Ok(RawHook::Always(b))),
            Value::Table(_) => read_as(v, "a hook's filter").map(|r| r.map(RawHook::Filter)),
            _ => None,
        })
    }
}

/// Reads a key that holds one table. Serde would read a list into a table's fields one by one
/// (`promote = [{ to = "king", … }]` then fails on `to`, "expected a name…, found a table"),
/// so a list is refused as a list. The table itself is read by `T` from the file's own reader,
/// so its spans and unknown-field errors stay.
fn one_table<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    struct OneTable<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for OneTable<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("one table (`{ key = value, … }` or a [section]), not a list")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_map(OneTable(std::marker::PhantomData)).map(Some)
}

// ---- The Go family: capture by liberties, ko, area scoring, random playouts ----

/// `liberties = { directions = "orthogonal", suicide = "illegal" }` on a piece kind: when a
/// piece of the kind lands, each enemy group next to it (pieces of one player joined along the
/// directions) left with no empty neighbour is taken; a landing whose own group is then left
/// with none is a suicide.
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawLiberties {
    /// What joins pieces into groups and what a liberty is next to (default orthogonal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) directions: Option<Spanned<RawDirs>>,
    /// `"illegal"` (default) or `"allowed"` (the mover's own group is taken: self-capture).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) suicide: Option<Spanned<Setting<String>>>,
}

/// `[ai] random = { pass = "last", own_eyes = false }`: the moves random players (and the
/// playouts of `mcts`) leave out while they have another.
#[derive(Deserialize, Serialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRandom {
    /// `"any"` (default) or `"last"`: a pass is drawn only when no other move is left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pass: Option<Spanned<Setting<String>>>,
    /// `false`: a drop on a one-cell eye of the player's own (every neighbour along its kind's
    /// `liberties` directions its own piece or off the board) is not drawn. Default `true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) own_eyes: Option<Spanned<bool>>,
}

// ---- Sowing (mancala): `[sowing]` ----

/// `[sowing]`: cells that hold a count of seeds (pits and stores), and moves that sow them
/// along a track (see docs/variant-format.md, "Sowing").
#[derive(Deserialize, Serialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSowing {
    /// Every cell sown, in sowing order (a circuit: after the last comes the first).
    pub(crate) track: Spanned<Vec<Spanned<String>>>,
    /// Per player, the pits a move may start from (the player's side of the board).
    pub(crate) pits: Spanned<BTreeMap<String, Spanned<Vec<Spanned<String>>>>>,
    /// Per player, the store its captures go to.
    pub(crate) stores: Spanned<BTreeMap<String, Spanned<String>>>,
    /// Seeds in every pit at the start (stores start empty).
    pub(crate) seeds: Spanned<i64>,
    /// Cells passed over while sowing: `origin` (the pit sown from, when a lap passes it),
    /// `opponent_store`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) skip: Vec<Spanned<String>>,
    /// The last seed in the mover's own store earns another move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) extra_move: Option<Spanned<bool>>,
    /// What the last seed captures: `none` (default), `own_empty`, `counts`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) capture: Option<Spanned<String>>,
    /// With `own_empty`: the capture happens even when the opposite pit is empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) capture_empty_opposite: Option<Spanned<bool>>,
    /// With `counts`: the counts that capture (Oware: [2, 3]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) counts: Option<Spanned<Vec<Spanned<i64>>>>,
    /// With `counts`: a move that would take all the opponent's seeds: `no_capture` (default),
    /// `capture`, `illegal`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) grand_slam: Option<Spanned<String>>,
    /// A player whose opponent has no seeds must sow into the opponent's pits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) feed: Option<Spanned<bool>>,
    /// When the game ends: `side_empty` (after a move that leaves either side's pits empty)
    /// or `no_move` (the player to move has no legal move); the seeds left go to the owner of
    /// the pit they lie in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) end: Option<Spanned<String>>,
    /// A store holding more than half of all seeds ends the game at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) majority: Option<Spanned<bool>>,
}
