//! The script API: every function a variant's Rhai script can call, declared in one place.
//!
//! Cells are names (`"e4"`), players are names (`"white"`), kinds are names (`"pawn"`). Reads
//! see the position as it is during the hook; writes go through the position's logged setters
//! (undo reverts them). Documented for designers in `docs/scripting.md`; the list of registered
//! signatures is snapshot-tested so an API change shows up as a diff.

use super::Ctx;
use crate::geometry::{Cell, NONE, ZoneSet};
use crate::notation::{Move, MoveText, NotationError};
use crate::outcome::Outcome;
use crate::piece::PieceCode;
use crate::piece::Player;
use crate::rules::Ruleset;
use crate::state::{Continuation, ContinuationKind};
use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString};
use std::cell::RefCell;
use std::rc::Rc;

type RR<T> = Result<T, Box<EvalAltResult>>;

/// The registered functions, as `name(parameters) -> result`, for documentation and the
/// API snapshot test.
pub const SIGNATURES: &[&str] = &[
    "cells() -> array of cells",
    "cell(file: int, rank: int) -> cell or ()",
    "file(cell) -> int",
    "rank(cell) -> int",
    "is_dark(cell) -> bool",
    "neighbour(cell, dir) -> cell or ()",
    "in_zone(cell, zone) -> bool",
    "in_zone(cell, zone, player) -> bool",
    "zone(zone) -> array of cells",
    "zone(zone, player) -> array of cells",
    "is_empty(cell) -> bool",
    "owner(cell) -> player or \"\"",
    "kind(cell) -> kind or \"\"",
    "is_royal(cell) -> bool",
    "attacked(cell, player) -> bool",
    "in_check(player) -> bool",
    "attr(cell, attribute) -> int",
    "set_attr(cell, attribute, value)",
    "remove(cell)",
    "place(cell, kind, player)",
    "move_piece(from, to)",
    "pieces(player) -> array of cells",
    "count(player) -> int",
    "count(player, kind) -> int",
    "counter(player, counter) -> int",
    "set_counter(player, counter, value)",
    "adjacent(cell, dirs) -> array of cells",
    "adjacent_empty(cell, dirs) -> array of cells",
    "adjacent_pieces(cell, dirs, player) -> array of cells",
    "file_cells(cell) -> array of cells",
    "pieces_in_file(cell, player) -> array of cells",
    "side() -> player",
    "opponent(player) -> player",
    "forward(player) -> int",
    "ply() -> int",
    "repetitions() -> int",
    "option(option) -> string, int or bool",
    "win(player, reason)",
    "draw(reason)",
    "continuation(player, tag, moves: array of move texts, normal: bool)",
    "continuation_tag() -> string",
];

/// What a parameter of the API names (for `check`, which reads the names a script writes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum NameParam {
    Cell,
    Zone,
    Player,
    Kind,
    Attribute,
    Counter,
    Option,
    /// A compass direction (`neighbour`).
    Direction,
    /// A direction set or an array of them (`adjacent`).
    Directions,
}

/// What each parameter of the API function `name` with `arity` parameters names, read from
/// the parameter names in [`SIGNATURES`] (`cell`, `from` and `to` are cells, `zone` a zone, …);
/// `None` for a function the API does not have.
pub(crate) fn name_params(name: &str, arity: usize) -> Option<Vec<Option<NameParam>>> {
    SIGNATURES.iter().find_map(|sig| {
        let rest = sig.strip_prefix(name)?.strip_prefix('(')?;
        let params = &rest[..rest.find(')')?];
        let params: Vec<&str> = params.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
        (params.len() == arity).then(|| {
            params
                .iter()
                .map(|p| match p.split(':').next().unwrap_or(p).trim() {
                    "cell" | "from" | "to" => Some(NameParam::Cell),
                    "zone" => Some(NameParam::Zone),
                    "player" => Some(NameParam::Player),
                    "kind" => Some(NameParam::Kind),
                    "attribute" => Some(NameParam::Attribute),
                    "counter" => Some(NameParam::Counter),
                    "option" => Some(NameParam::Option),
                    "dir" => Some(NameParam::Direction),
                    "dirs" => Some(NameParam::Directions),
                    _ => None,
                })
                .collect()
        })
    })
}

fn rules(c: &Ctx) -> &Ruleset {
    c.rules.as_deref().expect("the script context always has rules")
}

fn cell_of(c: &Ctx, name: &str) -> RR<u16> {
    rules(c).geometry.parse_cell(name).map(|c| c.0).map_err(|e| e.to_string().into())
}

fn player_of(c: &Ctx, name: &str) -> RR<Player> {
    rules(c).parse_player(name).ok_or_else(|| format!("`{name}` is not a player").into())
}

fn kind_of(c: &Ctx, name: &str) -> RR<u8> {
    rules(c).kind_by_name(name).map(|k| k.0).ok_or_else(|| format!("`{name}` is not a piece kind").into())
}

/// A script's integer for a 32-bit slot of the position (an attribute or a counter value); out
/// of range is an error naming the call, never a cut value.
fn int32(call: &str, value: i64) -> RR<i32> {
    i32::try_from(value)
        .map_err(|_| format!("{call}: {value} is out of range; values are integers from {} to {}", i32::MIN, i32::MAX).into())
}

fn name_of(c: &Ctx, cell: u16) -> Dynamic {
    if cell == NONE {
        Dynamic::UNIT
    } else {
        match c.names.get(cell as usize) {
            Some(n) => Dynamic::from(n.clone()),
            None => Dynamic::from(rules(c).geometry.name(Cell(cell)).to_string()),
        }
    }
}

fn player_str(c: &Ctx, p: Player) -> ImmutableString {
    c.players.get(p.index()).cloned().unwrap_or_else(|| rules(c).player_name(p).into())
}

/// A direction set for the neighbour functions: any direction-set name of the variant format
/// (`diagonal`, `ne`, …, read with forward = north; on a hex board its six: `hex`), or an
/// array of them.
fn dir_set(d: &Dynamic, hex: bool) -> RR<Vec<(i8, i8)>> {
    let one = |n: &str| -> RR<Vec<(i8, i8)>> {
        crate::rules::movement::named_dirs_on(n, 1, hex).ok_or_else(|| {
            let names = if hex { "e ne nw w sw se" } else { "n ne e se s sw w nw" };
            format!("`{n}` is not a direction ({names}, orthogonal, diagonal, all, …)").into()
        })
    };
    if let Some(s) = d.read_lock::<ImmutableString>() {
        return one(&s);
    }
    if let Some(a) = d.read_lock::<Array>() {
        let mut out = Vec::new();
        for x in a.iter() {
            let s = x.read_lock::<ImmutableString>().ok_or("directions are names")?;
            out.extend(one(&s)?);
        }
        return Ok(out);
    }
    Err("directions are a name or an array of names".into())
}

/// The existing neighbours of `cell` in the directions `d`, in the order given.
fn neighbours(c: &Ctx, cell: u16, d: &Dynamic) -> RR<Vec<u16>> {
    let g = &rules(c).geometry;
    let (f, r) = g.coords(Cell(cell));
    Ok(dir_set(d, g.hex)?.into_iter().filter_map(|v| g.at(f as i32 + v.0 as i32, r as i32 + v.1 as i32)).map(|t| t.0).collect())
}

fn zone_mask(c: &Ctx, zone: &str, p: Player) -> RR<ZoneSet> {
    if zone == "board" {
        return Ok(ZoneSet::BOARD);
    }
    rules(c).zone_mask(zone, p).ok_or_else(|| format!("`{zone}` is not a zone").into())
}

/// Parses a move text written by a script: each `x` landing captures what stands there.
///
/// # Errors
/// Text that is not a move of this board.
pub(crate) fn parse_script_move(text: &str, rules: &Ruleset) -> Result<Move, NotationError> {
    match MoveText::parse(text, &rules.geometry)? {
        MoveText::Drop { .. } | MoveText::Castle { .. } => Err(NotationError::Unreadable(
            text.into(),
            "a script cannot list a drop or castling (they come from [pieces.NAME] drop and [castling])",
        )),
        t => Ok(t.capturing_at_landings()),
    }
}

/// Whether a move a hook adds is one the kernel can play: it starts on a piece of the side to
/// move; a landing written with `-` is an empty cell other than the start; each landing
/// written with `x` holds an enemy piece, taken once. Cells are on the board (the text parsed).
///
/// # Errors
/// What is wrong, in the rules' words.
pub(crate) fn check_script_move(rules: &Ruleset, pos: &crate::state::Position, mv: &MoveText) -> Result<(), ScriptMoveError> {
    let g = &rules.geometry;
    let side = pos.side();
    let name = |c: u16| g.name(Cell(c)).to_string();
    let holds = |c: u16| {
        let code = pos.board()[c as usize];
        format!("{}'s {}", rules.player_name(code.owner()), rules.kind(code.kind()).name)
    };
    if let MoveText::Drop { .. } | MoveText::Castle { .. } = mv {
        return Err(ScriptMoveError("a script cannot add a drop or castling (they come from [pieces.NAME] drop and [castling])".into()));
    }
    let Some(from) = mv.from() else { return Ok(()) };
    let mover = rules.player_name(side);
    let code = pos.board()[from as usize];
    if code.is_empty() {
        return Err(ScriptMoveError(format!("{} is empty: a move starts on a piece of {mover}, the side to move", name(from))));
    }
    if code.owner() != side {
        return Err(ScriptMoveError(format!(
            "{} holds {}: a move starts on a piece of {mover}, the side to move",
            name(from),
            holds(from)
        )));
    }
    let landings = mv.landings();
    if !mv.is_capture() {
        return match landings {
            [to] if *to == from => Err(ScriptMoveError(format!("{} is where the move starts: a move leaves its cell", name(*to)))),
            [to] if !pos.board()[*to as usize].is_empty() => Err(ScriptMoveError(format!(
                "{} holds {}: a landing written with `-` is an empty cell (`x` captures)",
                name(*to),
                holds(*to)
            ))),
            _ => Ok(()),
        };
    }
    for (i, &to) in landings.iter().enumerate() {
        let v = pos.board()[to as usize];
        if landings[..i].contains(&to) {
            return Err(ScriptMoveError(format!(
                "{} is taken twice: each landing written with `x` takes the piece standing there",
                name(to)
            )));
        }
        if v.is_empty() {
            return Err(ScriptMoveError(format!(
                "{} is empty: each landing written with `x` takes the enemy piece standing there",
                name(to)
            )));
        }
        if v.owner() == side {
            return Err(ScriptMoveError(format!(
                "{} holds {}, not an enemy piece: a capture takes the opponent's pieces",
                name(to),
                holds(to)
            )));
        }
    }
    Ok(())
}

/// Why a move a hook adds is not one the kernel can play ([`check_script_move`]), in the rules'
/// words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct ScriptMoveError(String);

/// The move a hook receives (`m`): a typed value whose properties (`m.to`, `m.player`, …) are
/// made only when the script reads them, so a call that reads little costs little.
/// How many captured pieces a hook's move remembers (what it captures is also read from the
/// board before the move; a longer chain's first 16).
const HOOK_CAPTURED: usize = 16;

#[derive(Clone)]
pub(crate) struct HookMove {
    m: Move,
    /// The moving (or dropped) piece; empty for a pass.
    code: PieceCode,
    /// Who decides the move.
    player: Player,
    /// The pieces it captures, read before the move, and how many.
    captured: [PieceCode; HOOK_CAPTURED],
    ncaptured: u8,
    /// The tag of the continuation it is made in.
    continuation: Option<ImmutableString>,
    /// The moving piece's attribute values before the move, by slot (zero for a drop or a pass).
    attrs: [i32; crate::rules::MAX_ATTRIBUTES],
}

impl HookMove {
    /// `m` in `pos`, before it is made.
    pub(crate) fn new(pos: &crate::state::Position, m: &Move) -> HookMove {
        let code = match m.dropped() {
            Some(c) => c,
            None if m.from != NONE => pos.board().get(m.from as usize).copied().unwrap_or_default(),
            None => PieceCode::EMPTY,
        };
        let mut captured = [PieceCode::EMPTY; HOOK_CAPTURED];
        let mut n = 0;
        for v in m.victims() {
            let c = pos.board().get(v as usize).copied().unwrap_or_default();
            if !c.is_empty() && n < captured.len() {
                captured[n] = c;
                n += 1;
            }
        }
        let continuation = pos.continuation().map(|c| (&*c.tag).into());
        let mut attrs = [0; crate::rules::MAX_ATTRIBUTES];
        if m.dropped().is_none() && !code.is_empty() {
            for (slot, a) in attrs.iter_mut().enumerate().take(pos.nattr()) {
                *a = pos.attr(m.from, slot as u8);
            }
        }
        HookMove { m: *m, code, player: pos.side(), captured, ncaptured: n as u8, continuation, attrs }
    }
}

/// The properties of [`HookMove`] (`m.text`, `m.from`, …; docs/scripting.md).
fn register_move(engine: &mut Engine, ctx: &Rc<RefCell<Ctx>>) {
    engine.register_type_with_name::<HookMove>("Move");
    macro_rules! prop {
        ($name:literal, |$c:ident, $m:ident| $body:expr) => {{
            let cx = ctx.clone();
            engine.register_get($name, move |$m: &mut HookMove| -> Dynamic {
                let guard = cx.borrow();
                let $c: &Ctx = &guard;
                $body
            });
        }};
    }
    prop!("text", |c, m| m.m.text(&rules(c).geometry).into());
    prop!("from", |c, m| name_of(c, m.m.from));
    prop!("to", |c, m| m.m.to().map_or(Dynamic::UNIT, |t| name_of(c, t)));
    prop!("path", |c, m| Dynamic::from_array(m.m.landings().iter().map(|&t| name_of(c, t)).collect()));
    prop!("captured", |c, m| Dynamic::from_array(m.m.victims().map(|t| name_of(c, t)).collect()));
    prop!("captured_kinds", |c, m| {
        let kinds = m.captured[..m.ncaptured as usize].iter().map(|k| Dynamic::from(rules(c).kind(k.kind()).name.clone()));
        Dynamic::from_array(kinds.collect())
    });
    prop!("capture", |_c, m| m.m.is_capture().into());
    prop!("off", |_c, m| matches!(m.m.kind, crate::notation::MoveKind::Off { .. }).into());
    prop!("pass", |_c, m| (m.m.kind == crate::notation::MoveKind::Pass).into());
    prop!("drop", |_c, m| m.m.dropped().is_some().into());
    prop!("placed", |c, m| m.m.placed().map_or(Dynamic::UNIT, |(_, at)| name_of(c, at)));
    prop!("kind", |c, m| if m.code.is_empty() { "".into() } else { rules(c).kind(m.code.kind()).name.clone().into() });
    prop!("owner", |c, m| if m.code.is_empty() { "".into() } else { Dynamic::from(player_str(c, m.code.owner())) });
    prop!("player", |c, m| Dynamic::from(player_str(c, m.player)));
    prop!("continuation", |_c, m| m.continuation.clone().map_or_else(|| "".into(), Dynamic::from));
    // `m.attr(name)`: the moving piece's attribute as it was before the move (the value a dropped
    // piece starts with), kept for the hook even when the piece left the board.
    let cx = ctx.clone();
    engine.register_fn("attr", move |m: &mut HookMove, name: &str| -> RR<i64> {
        let c = cx.borrow();
        let rules = rules(&c);
        let slot = rules.attribute_slot(name).ok_or_else(|| format!("`{name}` is not an attribute"))?;
        Ok(match m.m.dropped() {
            Some(code) => rules.kind(code.kind()).attributes.iter().find(|a| a.0 == slot).map_or(0, |a| a.1),
            None => m.attrs[slot as usize],
        } as i64)
    });
}

/// Registers the API on an engine; every function works on `ctx`.
pub(crate) fn register(engine: &mut Engine, ctx: &Rc<RefCell<Ctx>>) {
    register_move(engine, ctx);
    macro_rules! reg {
        ($name:literal, |$c:ident $(, $a:ident : $t:ty)*| -> $ret:ty $body:block) => {{
            let cx = ctx.clone();
            engine.register_fn($name, move |$($a: $t),*| -> $ret {
                #[allow(unused_mut)]
                let mut guard = cx.borrow_mut();
                let $c: &mut Ctx = &mut guard;
                $body
            });
        }};
    }

    reg!("cells", |c| -> Array { rules(c).geometry.cells().map(|x| name_of(c, x.0)).collect::<Array>() });
    reg!("cell", |c, f: i64, r: i64| -> Dynamic {
        // Any integers: a point off the board, however far, is no cell.
        let (Ok(f), Ok(r)) = (i32::try_from(f.saturating_sub(1)), i32::try_from(r.saturating_sub(1))) else { return Dynamic::UNIT };
        rules(c).geometry.at(f, r).map_or(Dynamic::UNIT, |x| name_of(c, x.0))
    });
    reg!("file", |c, cell: &str| -> RR<i64> { Ok(rules(c).geometry.coords(Cell(cell_of(c, cell)?)).0 as i64 + 1) });
    reg!("rank", |c, cell: &str| -> RR<i64> { Ok(rules(c).geometry.coords(Cell(cell_of(c, cell)?)).1 as i64 + 1) });
    reg!("is_dark", |c, cell: &str| -> RR<bool> { Ok(rules(c).geometry.is_dark(Cell(cell_of(c, cell)?))) });
    reg!("neighbour", |c, cell: &str, dir: &str| -> RR<Dynamic> {
        let x = cell_of(c, cell)?;
        let g = &rules(c).geometry;
        let v = crate::geometry::compass_vector_on(dir, g.hex)
            .ok_or_else(|| format!("`{dir}` is not a direction ({})", if g.hex { "e ne nw w sw se" } else { "n ne e se s sw w nw" }))?;
        let (f, r) = g.coords(Cell(x));
        Ok(g.at(f as i32 + v.0 as i32, r as i32 + v.1 as i32).map_or(Dynamic::UNIT, |t| name_of(c, t.0)))
    });
    reg!("in_zone", |c, cell: &str, zone: &str| -> RR<bool> {
        let x = cell_of(c, cell)?;
        let m = zone_mask(c, zone, c.pos.side())?;
        Ok(rules(c).geometry.zones_of(x).meets(m))
    });
    reg!("in_zone", |c, cell: &str, zone: &str, player: &str| -> RR<bool> {
        let x = cell_of(c, cell)?;
        let p = player_of(c, player)?;
        let m = zone_mask(c, zone, p)?;
        Ok(rules(c).geometry.zones_of(x).meets(m))
    });
    reg!("zone", |c, zone: &str| -> RR<Array> {
        let m = zone_mask(c, zone, c.pos.side())?;
        let g = &rules(c).geometry;
        Ok(g.cells().filter(|x| g.zones_of(x.0).meets(m)).map(|x| name_of(c, x.0)).collect())
    });
    reg!("zone", |c, zone: &str, player: &str| -> RR<Array> {
        let p = player_of(c, player)?;
        let m = zone_mask(c, zone, p)?;
        let g = &rules(c).geometry;
        Ok(g.cells().filter(|x| g.zones_of(x.0).meets(m)).map(|x| name_of(c, x.0)).collect())
    });
    reg!("is_empty", |c, cell: &str| -> RR<bool> { Ok(c.pos.board()[cell_of(c, cell)? as usize].is_empty()) });
    reg!("owner", |c, cell: &str| -> RR<ImmutableString> {
        let code = c.pos.board()[cell_of(c, cell)? as usize];
        Ok(if code.is_empty() { "".into() } else { player_str(c, code.owner()) })
    });
    reg!("kind", |c, cell: &str| -> RR<ImmutableString> {
        let code = c.pos.board()[cell_of(c, cell)? as usize];
        Ok(if code.is_empty() { "".into() } else { rules(c).kind(code.kind()).name.as_str().into() })
    });
    reg!("is_royal", |c, cell: &str| -> RR<bool> {
        let code = c.pos.board()[cell_of(c, cell)? as usize];
        Ok(!code.is_empty() && rules(c).kind(code.kind()).royal)
    });
    reg!("attacked", |c, cell: &str, player: &str| -> RR<bool> {
        let x = cell_of(c, cell)?;
        let p = player_of(c, player)?;
        Ok(crate::attack::attacker(rules(c), c.pos.view(), p, x).is_some())
    });
    reg!("in_check", |c, player: &str| -> RR<bool> {
        let p = player_of(c, player)?;
        let r = rules(c);
        let royal = |x: u16| {
            let code = c.pos.board()[x as usize];
            !code.is_empty() && r.kind(code.kind()).royal
        };
        Ok(c.pos.cells_of(p).any(|x| royal(x) && crate::attack::attacker(r, c.pos.view(), p.other(), x).is_some()))
    });
    reg!("attr", |c, cell: &str, name: &str| -> RR<i64> {
        let x = cell_of(c, cell)?;
        let s = rules(c).attribute_slot(name).ok_or_else(|| format!("`{name}` is not an attribute"))?;
        Ok(c.pos.attr(x, s) as i64)
    });
    reg!("set_attr", |c, cell: &str, name: &str, value: i64| -> RR<()> {
        let x = cell_of(c, cell)?;
        let s = rules(c).attribute_slot(name).ok_or_else(|| format!("`{name}` is not an attribute"))?;
        c.pos.set_attr(x, s, int32("set_attr", value)?);
        Ok(())
    });
    reg!("remove", |c, cell: &str| -> RR<()> {
        let x = cell_of(c, cell)?;
        let r = c.rules.clone().unwrap();
        c.pos.clear_cell(&r.zobrist, x);
        Ok(())
    });
    reg!("place", |c, cell: &str, kind: &str, player: &str| -> RR<()> {
        let x = cell_of(c, cell)?;
        let k = kind_of(c, kind)?;
        let p = player_of(c, player)?;
        let r = c.rules.clone().unwrap();
        let code = PieceCode::new(crate::piece::KindId(k), p);
        let mut vals = vec![0; r.nattr()];
        for &(s, v) in &r.kind(crate::piece::KindId(k)).attributes {
            vals[s as usize] = v;
        }
        c.pos.put(&r.zobrist, x, code, &vals);
        Ok(())
    });
    reg!("move_piece", |c, from: &str, to: &str| -> RR<()> {
        let a = cell_of(c, from)?;
        let b = cell_of(c, to)?;
        if c.pos.board()[a as usize].is_empty() {
            return Err(format!("move_piece: {from} is empty").into());
        }
        let r = c.rules.clone().unwrap();
        c.pos.relocate(&r.zobrist, a, b);
        Ok(())
    });
    reg!("pieces", |c, player: &str| -> RR<Array> {
        let p = player_of(c, player)?;
        Ok((0..c.pos.board().len() as u16)
            .filter(|&x| !c.pos.board()[x as usize].is_empty() && c.pos.board()[x as usize].owner() == p)
            .map(|x| name_of(c, x))
            .collect())
    });
    reg!("count", |c, player: &str| -> RR<i64> { Ok(c.pos.counts()[player_of(c, player)?] as i64) });
    reg!("count", |c, player: &str, kind: &str| -> RR<i64> {
        let p = player_of(c, player)?;
        let code = PieceCode::new(crate::piece::KindId(kind_of(c, kind)?), p);
        Ok(c.pos.board().iter().filter(|&&b| b == code).count() as i64)
    });
    reg!("counter", |c, player: &str, name: &str| -> RR<i64> {
        let p = player_of(c, player)?;
        let s = rules(c).counter_slot(name).ok_or_else(|| format!("`{name}` is not a counter"))?;
        Ok(c.pos.counter(p, s) as i64)
    });
    reg!("set_counter", |c, player: &str, name: &str, value: i64| -> RR<()> {
        let p = player_of(c, player)?;
        let s = rules(c).counter_slot(name).ok_or_else(|| format!("`{name}` is not a counter"))?;
        c.pos.set_counter(p, s, int32("set_counter", value)?);
        Ok(())
    });
    reg!("side", |c| -> ImmutableString { player_str(c, c.pos.side()) });
    reg!("opponent", |c, player: &str| -> RR<ImmutableString> { Ok(player_str(c, player_of(c, player)?.other())) });
    reg!("adjacent", |c, cell: &str, dirs: Dynamic| -> RR<Array> {
        let x = cell_of(c, cell)?;
        Ok(neighbours(c, x, &dirs)?.into_iter().map(|t| name_of(c, t)).collect())
    });
    reg!("adjacent_empty", |c, cell: &str, dirs: Dynamic| -> RR<Array> {
        let x = cell_of(c, cell)?;
        Ok(neighbours(c, x, &dirs)?.into_iter().filter(|&t| c.pos.board()[t as usize].is_empty()).map(|t| name_of(c, t)).collect())
    });
    reg!("adjacent_pieces", |c, cell: &str, dirs: Dynamic, player: &str| -> RR<Array> {
        let x = cell_of(c, cell)?;
        let p = player_of(c, player)?;
        Ok(neighbours(c, x, &dirs)?
            .into_iter()
            .filter(|&t| {
                let b = c.pos.board()[t as usize];
                !b.is_empty() && b.owner() == p
            })
            .map(|t| name_of(c, t))
            .collect())
    });
    reg!("file_cells", |c, cell: &str| -> RR<Array> {
        let x = cell_of(c, cell)?;
        let g = &rules(c).geometry;
        let f = g.coords(Cell(x)).0 as i32;
        Ok((0..g.ranks as i32).filter_map(|r| g.at(f, r)).map(|t| name_of(c, t.0)).collect())
    });
    reg!("pieces_in_file", |c, cell: &str, player: &str| -> RR<Array> {
        let x = cell_of(c, cell)?;
        let p = player_of(c, player)?;
        let g = &rules(c).geometry;
        let f = g.coords(Cell(x)).0 as i32;
        Ok((0..g.ranks as i32)
            .filter_map(|r| g.at(f, r))
            .filter(|t| {
                let b = c.pos.board()[t.0 as usize];
                !b.is_empty() && b.owner() == p
            })
            .map(|t| name_of(c, t.0))
            .collect())
    });
    reg!("forward", |c, player: &str| -> RR<i64> { Ok(rules(c).forward[player_of(c, player)?] as i64) });
    reg!("ply", |c| -> i64 { c.pos.ply() as i64 });
    reg!("repetitions", |c| -> i64 { c.pos.repetitions() as i64 });
    reg!("option", |c, name: &str| -> RR<Dynamic> {
        match rules(c).options.get(name) {
            Some(crate::rules::OptionValue::Text(s)) => Ok(Dynamic::from(s.clone())),
            Some(crate::rules::OptionValue::Int(i)) => Ok(Dynamic::from(*i)),
            Some(crate::rules::OptionValue::Bool(b)) => Ok(Dynamic::from(*b)),
            None => Err(format!("`{name}` is not an option").into()),
        }
    });
    reg!("win", |c, player: &str, reason: &str| -> RR<()> {
        let p = player_of(c, player)?;
        c.pos.set_result(Some(Outcome::win(p, reason)));
        Ok(())
    });
    reg!("draw", |c, reason: &str| -> () {
        c.pos.set_result(Some(Outcome::draw(reason)));
    });
    reg!("continuation", |c, player: &str, tag: &str, moves: Array, normal: bool| -> RR<()> {
        check_tag(tag)?;
        let p = player_of(c, player)?;
        let r = c.rules.clone().unwrap();
        let mut ms = Vec::new();
        for m in moves {
            let t = m.into_string().map_err(|_| "continuation: moves are texts")?;
            ms.push(parse_script_move(&t, &r).map_err(|e| format!("continuation: `{t}`: {e}"))?);
        }
        // After the kernel's make, `side` is the next player, so the turn belongs to the other
        // one, unless this hook already granted a continuation (then keep its turn).
        let turn = c.pos.continuation().map_or(c.pos.side().other(), |k| k.turn);
        c.pos.set_continuation(
            &r.zobrist,
            Some(Continuation {
                player: p,
                turn,
                tag: tag.into(),
                kind: ContinuationKind::of_tag(tag, &r.geometry),
                moves: ms.into(),
                normal,
            }),
        );
        c.pos.set_side(&r.zobrist, p);
        Ok(())
    });
    reg!("continuation_tag", |c| -> ImmutableString { c.pos.continuation().map_or("".into(), |k| (&*k.tag).into()) });
}

/// The longest continuation tag.
const MAX_TAG: usize = 40;

/// A continuation's tag is one word of letters, digits and `_` (shown as a space): it is
/// written into position texts and records (`cont=PLAYER:TURN:TAG:…`), where a space, `:` or
/// `,` would make the text unreadable.
fn check_tag(tag: &str) -> Result<(), String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if tag.is_empty() || tag.len() > MAX_TAG || !tag.chars().all(word) {
        let shown: String = tag.chars().take(MAX_TAG).collect();
        let more = if tag.chars().count() > MAX_TAG { "…" } else { "" };
        return Err(format!(
            "continuation: the tag `{shown}{more}` is not one word of at most {MAX_TAG} letters, digits and `_` (like \"extra_move\")"
        ));
    }
    Ok(())
}

/// The signatures actually registered on an engine, sorted (for the API snapshot test).
pub fn registered_signatures() -> Vec<String> {
    let mut engine = Engine::new_raw();
    let ctx = Rc::new(RefCell::new(Ctx::default()));
    register(&mut engine, &ctx);
    // The move's properties (`get$to`, …) are documented with the hooks, not as functions.
    let mut v: Vec<String> = engine
        .gen_fn_signatures(false)
        .into_iter()
        .filter(|s| !s.starts_with("get$"))
        .map(|s| {
            s.replace("core::result::Result<", "")
                .replace(",alloc::boxed::Box<rhai::types::error::EvalAltResult>>", " (or error)")
                .replace("rhai::types::immutable_string::ImmutableString", "string")
                .replace("rhai::types::dynamic::Dynamic", "dynamic")
                .replace("types::dynamic::Dynamic", "dynamic")
                .replace("alloc::vec::Vec<dynamic>", "array")
        })
        .collect();
    v.sort();
    v
}
