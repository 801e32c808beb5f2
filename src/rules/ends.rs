//! End conditions, each in one place: how it is read from an `[[end]]` table, when it is
//! checked ([`Phase`]), and what it decides. Adding a condition is adding an [`EndKind`]
//! variant and a row of [`CONDITIONS`], then following the compiler through this file.

use super::raw::RawEnd;
use super::validate::{R, V, ZoneMap};
use crate::geometry::Geometry;
use crate::outcome::Outcome;
use crate::piece::PieceCode;
use crate::piece::{ByPlayer, Player};

/// What a player's having no legal move means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NoMoves {
    Loss,
    Draw,
    Pass,
}

/// What the repetition rule does to the player whose move repeats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RepetitionResult {
    Loss,
    Draw,
}

/// A declared end condition.
#[derive(Clone, Debug)]
pub enum EndKind {
    /// A royal (or crowned) piece was captured: its owner loses.
    RoyalCaptured,
    /// A player moved its own royal (or crowned) piece off the board: it loses.
    RoyalLeftBoard,
    /// A player's pieces stand on every cell of that player's zone: that player wins.
    ZoneFilled(ByPlayer<Vec<u16>>),
    /// A player with this many pieces or fewer on the board loses (or, with `win`, wins).
    PiecesAtMost {
        count: i64,
        win: bool,
    },
    NoMoves(NoMoves),
    /// The move that creates a position for the `count`-th time.
    Repetition {
        count: u32,
        result: RepetitionResult,
    },
}

/// When the kernel checks a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// After every move (its hooks included), from the board and what the move did.
    AfterMove,
    /// After the position is recorded in the repetition history.
    AfterRecord,
    /// When the player to decide has no legal move.
    NoMoves,
}

/// What the kernel did in a move, for hooks and end conditions.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveEffects {
    /// The code of the piece that moved (0 for a pass).
    pub code: PieceCode,
    /// The code it has after the move (differs after a promotion; 0 when it left the board).
    pub new_code: PieceCode,
    pub captured: u32,
    /// The owner of a captured royal (or crowned) piece, if any.
    pub royal_victim: Option<Player>,
    /// The owner of a royal (or crowned) piece that left the board, if any.
    pub royal_left: Option<Player>,
}

/// What an after-move check sees.
pub struct AfterMove<'a> {
    pub board: &'a [PieceCode],
    pub counts: &'a ByPlayer<u32>,
    pub effects: &'a MoveEffects,
    /// The player who decided the move.
    pub mover: Player,
}

impl EndKind {
    /// When this condition is checked.
    pub fn phase(&self) -> Phase {
        match self {
            EndKind::RoyalCaptured | EndKind::RoyalLeftBoard | EndKind::ZoneFilled(_) | EndKind::PiecesAtMost { .. } => Phase::AfterMove,
            EndKind::Repetition { .. } => Phase::AfterRecord,
            EndKind::NoMoves(_) => Phase::NoMoves,
        }
    }

    /// Whether capturing a royal piece ends the game (then a capture chain stops on it).
    pub fn royal_capture_ends_game(&self) -> bool {
        matches!(self, EndKind::RoyalCaptured)
    }

    /// The winner (or a draw) this condition declares after a move, if it is met.
    pub fn after_move(&self, m: &AfterMove) -> Option<Option<Player>> {
        match self {
            EndKind::RoyalCaptured => m.effects.royal_victim.map(|v| Some(v.other())),
            EndKind::RoyalLeftBoard => m.effects.royal_left.map(|o| Some(o.other())),
            EndKind::ZoneFilled(cells) => [m.mover, m.mover.other()].into_iter().find_map(|p| {
                let z = &cells[p];
                let filled = !z.is_empty() && z.iter().all(|&c| !m.board[c as usize].is_empty() && m.board[c as usize].owner() == p);
                filled.then_some(Some(p))
            }),
            EndKind::PiecesAtMost { count, win } => [m.mover.other(), m.mover]
                .into_iter()
                .find(|&p| (m.counts[p] as i64) <= *count)
                .map(|p| Some(if *win { p } else { p.other() })),
            EndKind::NoMoves(_) | EndKind::Repetition { .. } => None,
        }
    }

    /// The result this condition declares once the position has occurred `repetitions` times
    /// after `mover`'s move, if it is met.
    pub fn after_record(&self, repetitions: usize, mover: Player) -> Option<Option<Player>> {
        match self {
            EndKind::Repetition { count, result } if repetitions >= *count as usize => Some(match result {
                RepetitionResult::Loss => Some(mover.other()),
                RepetitionResult::Draw => None,
            }),
            _ => None,
        }
    }
}

/// An end condition with the reason its results give.
#[derive(Clone, Debug)]
pub struct EndRule {
    pub kind: EndKind,
    pub reason: String,
}

impl EndRule {
    /// The outcome for a winner (`None`: a draw), with this rule's reason.
    pub fn outcome(&self, winner: Option<Player>) -> Outcome {
        match winner {
            Some(p) => Outcome::win(p, self.reason.as_str()),
            None => Outcome::draw(self.reason.as_str()),
        }
    }
}

/// What the readers of the conditions see.
struct EndCtx<'a> {
    f: usize,
    zones: &'a ZoneMap,
    g: &'a Geometry,
}

type Reader = fn(&V, &RawEnd, &EndCtx) -> R<Option<EndKind>>;

/// Every condition by name, with its reader (`None` from a reader: the rule is off).
const CONDITIONS: [(&str, Reader); 6] = [
    ("royal_captured", |_, _, _| Ok(Some(EndKind::RoyalCaptured))),
    ("royal_left_board", |_, _, _| Ok(Some(EndKind::RoyalLeftBoard))),
    ("zone_filled", zone_filled),
    ("pieces_at_most", pieces_at_most),
    ("no_moves", no_moves),
    ("repetition", repetition),
];

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
    Ok(Some(EndKind::PiecesAtMost { count, win }))
}

fn no_moves(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let r = e.result.as_ref().ok_or_else(|| need(v, e, c.f, "result"))?;
    Ok(Some(EndKind::NoMoves(match v.word(c.f, r, &["loss", "draw", "pass"])?.as_str() {
        "loss" => NoMoves::Loss,
        "draw" => NoMoves::Draw,
        _ => NoMoves::Pass,
    })))
}

fn repetition(v: &V, e: &RawEnd, c: &EndCtx) -> R<Option<EndKind>> {
    let n = e.count.as_ref().ok_or_else(|| need(v, e, c.f, "count"))?;
    let count = v.setting(c.f, n)?;
    let r = e.result.as_ref().ok_or_else(|| need(v, e, c.f, "result"))?;
    let result = match v.word(c.f, r, &["loss", "draw"])?.as_str() {
        "loss" => RepetitionResult::Loss,
        _ => RepetitionResult::Draw,
    };
    if count == 0 {
        return Ok(None); // 0 turns the rule off
    }
    if !(2..=1000).contains(&count) {
        return Err(v.err(c.f, n.span(), format!("a repetition count is 2 to 1000 (0 = off), not {count}"), "here"));
    }
    Ok(Some(EndKind::Repetition { count: count as u32, result }))
}

/// The `[[end]]` tables in force.
pub(super) fn stage_ends(v: &V, zones: &ZoneMap, g: &Geometry) -> R<Vec<EndRule>> {
    let mut out = Vec::new();
    let Some(ends) = &v.m.ends else {
        return Ok(out);
    };
    let c = EndCtx { f: ends.file, zones, g };
    let names: Vec<&str> = CONDITIONS.iter().map(|(n, _)| *n).collect();
    for e in &ends.val {
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
        if let Some(kind) = read(v, e, &c)? {
            out.push(EndRule { kind, reason: e.reason.clone().unwrap_or_else(|| cname.replace('_', " ")) });
        }
    }
    Ok(out)
}
