//! Movement forms, each in one place: how a form is read from the variant file, described in
//! words, compiled into per-cell tables, and how it generates moves.
//!
//! The forms are `step`, `slide`, `leap`, `jump` and `walk` ([`FormKind`]). A form names one of
//! them with its directions, plus shared modifiers (zone conditions, capture and victims, a
//! piece-count limit, `when`). Adding a form is adding a [`FormKind`] and a [`Shape`] variant
//! and following the compiler through this file (and the field in `raw::RawForm`).

use super::error::did_you_mean;
use super::raw::{RawDir, RawDirs, RawForm, Setting, TextOrBool, TextOrInt};
use super::validate::context::{R, V};
use super::validate::zones::ZoneMap;
use super::{CodeSet, KindDef, enemy_codes};
use crate::cellset::{CellSet, Word};
use crate::geometry::{CellTable, Geometry, NONE, ZoneSet, compass_index, compass_vector};
use crate::piece::PieceCode;
use crate::piece::{ByPlayer, Player};
use toml::Spanned;

/// The kinds of movement form, by the key that names them in a form.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum FormKind {
    Step,
    Slide,
    Leap,
    Jump,
    Walk,
}

impl FormKind {
    pub(crate) const ALL: [FormKind; 5] = [FormKind::Step, FormKind::Slide, FormKind::Leap, FormKind::Jump, FormKind::Walk];

    /// The key that names the form (`step = "diagonal"`).
    pub(crate) fn key(self) -> &'static str {
        match self {
            FormKind::Step => "step",
            FormKind::Slide => "slide",
            FormKind::Leap => "leap",
            FormKind::Jump => "jump",
            FormKind::Walk => "walk",
        }
    }

    /// The directions a raw form gives under this form's key.
    fn raw(self, fm: &RawForm) -> Option<&Spanned<RawDirs>> {
        match self {
            FormKind::Step => fm.step.as_ref(),
            FormKind::Slide => fm.slide.as_ref(),
            FormKind::Leap => fm.leap.as_ref(),
            FormKind::Jump => fm.jump.as_ref(),
            FormKind::Walk => fm.walk.as_ref(),
        }
    }
}

/// Zone conditions on a move's cells (an empty set: no condition).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Cond {
    pub(crate) from: ZoneSet,
    pub(crate) from_not: ZoneSet,
    pub(crate) to: ZoneSet,
    pub(crate) to_not: ZoneSet,
    pub(crate) from_or_to: ZoneSet,
    /// The jumped cell (jumps only).
    pub(crate) over: ZoneSet,
    /// Every cell passed over and the landing cell (slides).
    pub(crate) path: ZoneSet,
    /// The jumped cell and the landing (for a step: the start and the landing) share one of
    /// these zones.
    pub(crate) same_zone: ZoneSet,
    /// The form lands only on a piece it captures, never on an empty cell (`capture = "only"`:
    /// a chess pawn's diagonal).
    pub(crate) capture_only: bool,
    /// `en_passant`: a slide opens the cell it passed last to an en passant capture; a
    /// capture-only step may make that capture.
    pub(crate) en_passant: bool,
    /// The codes that may not serve as a screen slide's screen (`screen_not`).
    pub(crate) screen_not: CodeSet,
}

impl Cond {
    /// Whether no zone restricts the form: its start, path and landing are always allowed.
    #[inline(always)]
    pub(crate) fn is_plain(&self) -> bool {
        (self.from | self.from_not | self.to | self.to_not | self.from_or_to | self.path | self.same_zone).is_empty()
    }

    /// Whether no zone restricts the form but on its start (a pawn's double step from its
    /// start rank): from a start [`Cond::start_ok`] allows, every cell on the way and every
    /// landing is allowed.
    #[inline(always)]
    pub(crate) fn only_start(&self) -> bool {
        (self.to | self.to_not | self.from_or_to | self.path | self.same_zone).is_empty()
    }

    #[inline(always)]
    pub(crate) fn start_ok(&self, g: &Geometry, from: u16) -> bool {
        let z = g.zones_of(from);
        (self.from.is_empty() || z.meets(self.from)) && !z.meets(self.from_not)
    }

    /// Checks the landing-side conditions of a move from `from` to `to`.
    #[inline(always)]
    pub(crate) fn land_ok(&self, g: &Geometry, from: u16, to: u16) -> bool {
        let zt = g.zones_of(to);
        (self.to.is_empty() || zt.meets(self.to))
            && !zt.meets(self.to_not)
            && (self.from_or_to.is_empty() || (zt | g.zones_of(from)).meets(self.from_or_to))
            && (self.path.is_empty() || zt.meets(self.path))
    }

    /// Whether a move may pass over `cell`: the form has no `path` zone, or `cell` is in it.
    #[inline(always)]
    pub(crate) fn path_ok(&self, g: &Geometry, cell: u16) -> bool {
        self.path.is_empty() || g.zones_of(cell).meets(self.path)
    }

    /// Whether the start and landing (or jumped cell and landing) share a `same_zone` zone.
    #[inline(always)]
    pub(crate) fn same_zone_ok(&self, g: &Geometry, a: u16, b: u16) -> bool {
        self.same_zone.is_empty() || (g.zones_of(a) & g.zones_of(b)).meets(self.same_zone)
    }
}

/// How far an exact-distance move goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Distance {
    Fixed(u8),
    /// The value of an attribute slot of the moving piece.
    Attribute(u8),
}

/// Whether and how a piece may leave the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum OffBoard {
    No,
    /// Whenever the landing point is outside the board.
    AnyDistance,
    /// Only when the landing point is exactly one step outside the board.
    OneBeyond,
}

/// What a slide does at the first piece in its line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hurdle {
    /// It stops there, capturing it if it may.
    None,
    /// `screen`: its quiet moves stop there; it captures only the next piece beyond it (a
    /// cannon).
    Screen,
    /// `screen = "always"`: its quiet moves too go over exactly one piece, to the empty cells
    /// beyond it up to the next piece, which it may capture (janggi's cannon).
    ScreenAlways,
    /// `hop`: it lands on the cell just beyond it, a move if that is empty, a capture if it may
    /// take what stands there (a grasshopper); it has no other move.
    Hop,
}

/// What is particular to each form once read: the shape of the move.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Shape {
    Step,
    /// `pass_over`: how many pieces may be passed over (255 = any); with `stop_first`, the move
    /// stops on the first empty cell after any passed pieces.
    Slide {
        pass_over: u8,
        stop_first: bool,
        max: u8,
        /// What a piece in the line does to the slide (a cannon's screen, a grasshopper's hurdle).
        hurdle: Hurdle,
    },
    Leap {
        distance: Distance,
        off: OffBoard,
        off_per_direction: bool,
        /// Blocked by a piece one step short of the landing.
        lame: bool,
        /// With `lame`: blocked by a piece on any cell of the path, straight along the longer
        /// leg, then diagonally ([`lame_path`]).
        lame_path: bool,
    },
    /// `flying`: over a piece any distance along the line, to any empty cell beyond it;
    /// `continuing`: a flying jump lands only where the chain can go on, when some landing
    /// beyond that piece lets it.
    Jump {
        flying: bool,
        continuing: bool,
    },
    Walk {
        steps: u8,
    },
}

/// A form read from the file for one player: options applied, names resolved.
#[derive(Clone, Debug)]
pub(crate) struct FormSpec {
    pub(crate) shape: Shape,
    pub(crate) dirs: Vec<(i8, i8)>,
    pub(crate) cond: Cond,
    /// Landing captures (quiet forms) or the pieces jumped (jumps), as enemy codes.
    pub(crate) capture: CodeSet,
    /// The form applies only while its owner has at most this many pieces (`u16::MAX`: always).
    pub(crate) limit: u16,
    /// `not_in_check`: the form is not available while the mover is in check.
    pub(crate) calm: bool,
    /// The form in words, for explaining why a move is illegal.
    pub(crate) note: String,
}

/// A compiled non-chaining movement form for one piece code.
#[derive(Clone, Debug)]
pub(crate) enum Form {
    /// One cell along one of the vectors: the targets of each cell, zone conditions applied.
    /// `quiet`: it may land on an empty cell (false: `capture = "only"`).
    /// `en_passant`: it may also land on the cell an enemy slide just passed, taking that piece.
    Step { targets: CellTable<u16>, capture: CodeSet, quiet: bool, en_passant: bool },
    /// Along a line (see [`Shape::Slide`]); a [`Hurdle`] changes what the first piece in the
    /// line does.
    Slide {
        vecs: Vec<u16>,
        pass_over: u8,
        stop_first: bool,
        max: u8,
        capture: CodeSet,
        cond: Cond,
        hurdle: Hurdle,
        /// The cells its landing conditions allow from any start, as a set: where no
        /// condition reads the start (`from_or_to`) on a board of at most 128 cells.
        land_cells: Option<u128>,
    },
    /// Exactly `distance` cells along a vector, passing over anything (with `lame`, over
    /// anything but the cell one step short of the landing).
    Leap {
        vecs: Vec<(i8, i8)>,
        distance: Distance,
        capture: CodeSet,
        off: OffBoard,
        off_per_direction: bool,
        cond: Cond,
        lame: bool,
        /// With `lame`: every cell of the path must be empty ([`lame_path`]).
        lame_path: bool,
        /// Its ends worked out once per start cell and distance (not for a lame leap, whose
        /// leg depends on the board).
        rays: Option<LeapRays>,
    },
    /// Exactly `steps` single steps along any of the vectors, each to an empty cell (the start
    /// counts as empty), ending on a cell other than the start; one move per end cell.
    Walk { vecs: Vec<u16>, steps: u8, cond: Cond },
}

/// The second part of a two-part turn: from the landing, a piece of `code` is placed on a cell
/// that `form` reaches (the moved piece's start counts as empty: it has left it).
#[derive(Clone, Debug)]
pub(crate) struct Then {
    pub(crate) code: PieceCode,
    pub(crate) form: Form,
    /// Where the placed kind is dropped from a hand (`supply = "hand"`): its counter slot. The
    /// piece placed is then taken from the mover's hand, and with none in hand the turn cannot
    /// be made.
    pub(crate) hand: Option<u8>,
}

/// A compiled jump capture: over an adjacent enemy to the empty cell beyond, or (flying) over
/// the first piece along a line of empty cells to any empty cell beyond it.
#[derive(Clone, Debug)]
pub(crate) struct Jump {
    /// For each cell: (jumped cell, landing cell), zone conditions applied (empty for a flying
    /// jump, whose cells depend on the board).
    pub(crate) table: CellTable<(u16, u16)>,
    pub(crate) victims: CodeSet,
    pub(crate) flying: Option<Flying>,
}

/// A flying jump: along each vector, any number of empty cells, one enemy piece, then any of
/// the empty cells beyond it (up to the next piece or the edge).
#[derive(Clone, Debug)]
pub(crate) struct Flying {
    /// Interned direction vectors.
    pub(crate) vecs: Vec<u16>,
    /// Zone conditions, checked during generation (start, jumped cell, landing).
    pub(crate) cond: Cond,
    /// Land only where the chain can go on, when some landing beyond the piece lets it.
    pub(crate) continuing: bool,
}

/// A compiled form: a move of its own, or a link of a capture chain.
#[derive(Clone, Debug)]
pub(crate) enum Compiled {
    Quiet(Form),
    Jump(Jump),
}

/// What a piece's forms are resolved against.
pub(crate) struct PieceCtx<'a> {
    pub(crate) kinds: &'a [KindDef],
    pub(crate) counters: &'a [&'a str],
    pub(crate) zones: &'a ZoneMap,
    pub(crate) forward: &'a ByPlayer<i8>,
    pub(crate) attributes: &'a [String],
    /// The start position's board (for `initial` forms).
    pub(crate) start: &'a [PieceCode],
}

impl<'a> PieceCtx<'a> {
    pub(crate) fn new(
        kinds: &'a [KindDef],
        counters: &'a [&'a str],
        zones: &'a ZoneMap,
        forward: &'a ByPlayer<i8>,
        attributes: &'a [String],
        start: &'a [PieceCode],
    ) -> PieceCtx<'a> {
        PieceCtx { kinds, counters, zones, forward, attributes, start }
    }
}

/// What generation reads of a position.
#[derive(Clone, Copy)]
pub struct BoardView<'a> {
    pub(crate) board: &'a [PieceCode],
    pub attrs: &'a [i32],
    pub(crate) nattr: usize,
    /// The cell open to an en passant capture and the cell of the piece it would take, or
    /// `[NONE, NONE]`.
    pub(crate) en_passant: [u16; 2],
    /// The occupied cells, on boards of at most 128 cells (where [`Geometry::ray`] answers).
    /// They must agree with `board`: whoever builds a view over a board changed in place (a
    /// second part's scratch board) updates them too, as `movegen::second_parts` does.
    pub(crate) occupied: u128,
}

// ---------------------------------------------------------------- reading a form

impl V<'_> {
    /// Reads one movement form for player `p`; `None` when its `when` condition is false.
    pub(crate) fn form(&self, f: usize, form: &Spanned<RawForm>, p: Player, ctx: &PieceCtx) -> R<Option<FormSpec>> {
        let fm = form.get_ref();
        if !self.when(f, &fm.when)? {
            return Ok(None);
        }
        let given: Vec<FormKind> = FormKind::ALL.into_iter().filter(|k| k.raw(fm).is_some()).collect();
        let [kind] = given[..] else {
            let keys: Vec<&str> = FormKind::ALL.iter().map(|k| k.key()).collect();
            return Err(self
                .err(f, form.span(), format!("a movement form names exactly one of {}", keys.join(", ")), "this form")
                .with_help("e.g. { step = \"diagonal\" } or { jump = \"orthogonal\", victims = [\"pawn\"] }"));
        };
        let note = describe(self, f, fm, kind)?;
        let dirs = dirs_of(self, f, kind.raw(fm).expect("given"), ctx.forward[p], fm.relative.unwrap_or(false))?;
        let cond = self.cond(f, fm, ctx.zones, p)?;
        let victims = enemy_codes(self.kind_set(f, &fm.victims, ctx.kinds)?, p);
        let mut cond = cond;
        let capture = match (&fm.capture, kind) {
            (_, FormKind::Jump) => victims,
            (Some(c), _) => match self.capture_mode(f, c)? {
                Some(only) => {
                    cond.capture_only = only;
                    victims
                }
                None => 0,
            },
            _ => 0,
        };
        if let Some(ep) = &fm.en_passant
            && *ep.get_ref()
        {
            let quiet_slide = kind == FormKind::Slide && capture == 0;
            let lame = self.lame(f, fm)?.0;
            let quiet_lame_leap = kind == FormKind::Leap && capture == 0 && lame;
            let taking_step = kind == FormKind::Step && cond.capture_only;
            if !quiet_slide && !quiet_lame_leap && !taking_step {
                return Err(self
                    .err(f, ep.span(), "`en_passant` belongs to a non-capturing slide or lame leap, or to a capture-only step", "here")
                    .with_help("a pawn's double step: { slide = \"forward\", max_distance = 2, from = \"pawn_start\", en_passant = true }; its capture: { step = \"forward_diagonal\", capture = \"only\", en_passant = true }"));
            }
            cond.en_passant = true;
        }
        if cond.capture_only && kind == FormKind::Walk {
            let at = fm.capture.as_ref().map_or(form.span(), |c| c.span());
            return Err(self.err(f, at, "a walk ends on an empty cell", "so it cannot capture only").with_help("remove `capture`"));
        }
        cond.screen_not = self.screen_not(f, form, ctx, p)?;
        let limit = self.limit(f, fm, kind)?;
        let calm = self.calm(f, fm, kind, capture)?;
        // Keys that belong to one form only: each with that form and a hint.
        const JUMP_HELP: &str = "a flying jump is { jump = \"diagonal\", flying = true }; a slide moves any distance by itself";
        const SLIDE_HELP: &str = "a cannon's or a grasshopper's hurdle stands in a slide's line: { slide = \"orthogonal\", ... }";
        let own_keys = [
            ("steps", fm.steps.as_ref().map(|x| x.span()), FormKind::Walk, "a walk makes `steps` single steps"),
            ("flying", fm.flying.as_ref().map(|x| x.span()), FormKind::Jump, JUMP_HELP),
            ("land", fm.land.as_ref().map(|x| x.span()), FormKind::Jump, JUMP_HELP),
            ("screen", fm.screen.as_ref().map(|x| x.span()), FormKind::Slide, SLIDE_HELP),
            ("hop", fm.hop.as_ref().map(|x| x.span()), FormKind::Slide, SLIDE_HELP),
        ];
        for (key, given, owner, help) in own_keys {
            if let Some(span) = given
                && kind != owner
            {
                return Err(self.err(f, span, format!("`{key}` belongs to a {}", owner.key()), "here").with_help(help));
            }
        }
        let shape = self.shape(f, fm, kind, ctx)?;
        Ok(Some(FormSpec { shape, dirs, cond, capture, limit, calm, note }))
    }

    /// What the first piece in a slide's line does to it: `screen` or `hop` (not both, and
    /// neither with `pass_over` or `stop`, which say other things about passed pieces).
    fn hurdle(&self, f: usize, fm: &RawForm) -> R<Hurdle> {
        let screen = match &fm.screen {
            None => None,
            Some(s) => match self.setting(f, s)? {
                TextOrBool::Bool(b) => b.then_some((s.span(), false)),
                TextOrBool::Text(t) if t == "always" => Some((s.span(), true)),
                TextOrBool::Text(t) => {
                    return Err(self
                        .err(f, s.span(), format!("`screen` is true, false or \"always\", not \"{t}\""), "here")
                        .with_help("\"always\": its quiet moves too hop over exactly one piece (janggi's cannon)"));
                }
            },
        };
        let hop = match &fm.hop {
            Some(s) if self.setting(f, s)? => Some(s.span()),
            _ => None,
        };
        let (hurdle, span, what) = match (screen, hop) {
            (None, None) => return Ok(Hurdle::None),
            (Some(_), Some(h)) => {
                return Err(self
                    .err(f, h, "a slide has one kind of hurdle: `screen` (a cannon) or `hop` (a grasshopper)", "and this one has both")
                    .with_help("keep one of them"));
            }
            (Some((s, false)), None) => (Hurdle::Screen, s, "a screen slide hops exactly one piece to capture"),
            (Some((s, true)), None) => (Hurdle::ScreenAlways, s, "a screen slide hops exactly one piece"),
            (None, Some(h)) => (Hurdle::Hop, h, "a hopping slide lands just beyond the first piece in its line"),
        };
        if fm.pass_over.is_some() || fm.stop.is_some() {
            return Err(self
                .err(f, span, what, "with pass_over or stop")
                .with_help("remove pass_over and stop: the first piece in the line is the hurdle"));
        }
        Ok(hurdle)
    }

    /// `screen_not`: the codes (of both players) of the kinds that may not be a screen.
    fn screen_not(&self, f: usize, form: &Spanned<RawForm>, ctx: &PieceCtx, p: Player) -> R<CodeSet> {
        let fm = form.get_ref();
        let Some(not) = &fm.screen_not else { return Ok(0) };
        if fm.screen.is_none() {
            let at = not.first().map_or(form.span(), |k| k.span());
            return Err(self
                .err(f, at, "`screen_not` names the kinds a screen may not be", "but this form has no screen")
                .with_help("{ slide = \"orthogonal\", capture = true, screen = \"always\", screen_not = [\"cannon\"] }"));
        }
        let kinds = self.kind_set(f, &fm.screen_not, ctx.kinds)?;
        Ok(enemy_codes(kinds, p) | enemy_codes(kinds, p.other()))
    }

    /// `not_in_check`: whether the form is barred while the mover is in check (a move-only
    /// form: a capture by it would still threaten).
    fn calm(&self, f: usize, fm: &RawForm, kind: FormKind, capture: CodeSet) -> R<bool> {
        match &fm.not_in_check {
            Some(s) if self.setting(f, s)? => {
                if capture != 0 || kind == FormKind::Jump {
                    let e = self.err(f, s.span(), "a form barred in check only moves", "but this one captures");
                    return Err(e.with_help("{ leap = [[1, 2], [-1, 2]], distance = 1, initial = true, not_in_check = true }"));
                }
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// `lame`: (blocked, blocked along its whole path): `true`, or `"path"`.
    fn lame(&self, f: usize, fm: &RawForm) -> R<(bool, bool)> {
        let Some(l) = &fm.lame else { return Ok((false, false)) };
        match self.setting(f, l)? {
            TextOrBool::Bool(b) => Ok((b, false)),
            TextOrBool::Text(t) if t == "path" => Ok((true, true)),
            TextOrBool::Text(t) => Err(self
                .err(f, l.span(), format!("`lame` is true, false or \"path\", not \"{t}\""), "here")
                .with_help("\"path\": blocked on any cell of its path (janggi's elephant)")),
        }
    }

    /// `capture`: `None` for false, `Some(only)` for true (`only`: `"only"`, never onto an empty
    /// cell).
    fn capture_mode(&self, f: usize, c: &Spanned<Setting<TextOrBool>>) -> R<Option<bool>> {
        match self.setting(f, c)? {
            TextOrBool::Bool(b) => Ok(b.then_some(false)),
            TextOrBool::Text(t) if t == "only" => Ok(Some(true)),
            TextOrBool::Text(t) => Err(self
                .err(f, c.span(), format!("`capture` is true, false or \"only\", not \"{t}\""), "here")
                .with_help("\"only\" lands only on an enemy piece (a chess pawn's diagonal)")),
        }
    }

    /// The shape of a form of `kind`: what is particular to it.
    fn shape(&self, f: usize, fm: &RawForm, kind: FormKind, ctx: &PieceCtx) -> R<Shape> {
        Ok(match kind {
            FormKind::Step => Shape::Step,
            FormKind::Jump => {
                let flying = match &fm.flying {
                    Some(s) => self.setting(f, s)?,
                    None => false,
                };
                let continuing = match &fm.land {
                    None => true,
                    Some(s) if !flying => {
                        return Err(self
                            .err(f, s.span(), "`land` chooses among a flying jump's landings", "but this jump is not flying")
                            .with_help("add flying = true, or remove `land` (a short jump has one landing)"));
                    }
                    Some(s) => self.word(f, s, &["continuing", "any"])? == "continuing",
                };
                Shape::Jump { flying, continuing }
            }
            FormKind::Walk => Shape::Walk {
                steps: match &fm.steps {
                    None => 2,
                    Some(s) if (1..=8).contains(s.get_ref()) => *s.get_ref() as u8,
                    Some(s) => return Err(self.err(f, s.span(), format!("a walk makes 1 to 8 steps, not {}", s.get_ref()), "here")),
                },
            },
            FormKind::Slide => Shape::Slide {
                hurdle: self.hurdle(f, fm)?,
                pass_over: self.pass_over(f, &fm.pass_over)?,
                stop_first: match &fm.stop {
                    None => false,
                    Some(s) => self.word(f, s, &["any", "first_empty"])? == "first_empty",
                },
                max: match &fm.max_distance {
                    None => 255,
                    // Any distance past the largest board (99 ranks) is the same as none.
                    Some(m) if *m.get_ref() >= 1 => (*m.get_ref()).min(255) as u8,
                    Some(m) => return Err(self.err(f, m.span(), format!("max_distance is 1 or more, not {}", m.get_ref()), "here")),
                },
            },
            FormKind::Leap => Shape::Leap {
                distance: self.distance(f, &fm.distance, ctx.attributes)?,
                off: match &fm.off_board {
                    None => OffBoard::No,
                    Some(s) => match self.word(f, s, &["no", "any_distance", "one_beyond"])?.as_str() {
                        "any_distance" => OffBoard::AnyDistance,
                        "one_beyond" => OffBoard::OneBeyond,
                        _ => OffBoard::No,
                    },
                },
                off_per_direction: match &fm.off_moves {
                    None => false,
                    Some(s) => self.word(f, s, &["one_per_piece", "per_direction"])? == "per_direction",
                },
                lame: self.lame(f, fm)?.0,
                lame_path: self.lame(f, fm)?.1,
            },
        })
    }

    fn cond(&self, f: usize, fm: &RawForm, zones: &ZoneMap, p: Player) -> R<Cond> {
        let mut same_zone = ZoneSet::EMPTY;
        for z in fm.same_zone.iter().flatten() {
            same_zone |= self.zone_named(f, z.get_ref(), z.span(), zones, p)?;
        }
        Ok(Cond {
            from: anywhere(self.zone_ref(f, &fm.from, zones, p)?),
            from_not: self.zone_ref(f, &fm.from_not, zones, p)?,
            to: anywhere(self.zone_ref(f, &fm.to, zones, p)?),
            to_not: self.zone_ref(f, &fm.to_not, zones, p)?,
            from_or_to: anywhere(self.zone_ref(f, &fm.from_or_to, zones, p)?),
            over: anywhere(self.zone_ref(f, &fm.over, zones, p)?),
            path: anywhere(self.zone_ref(f, &fm.path, zones, p)?),
            same_zone,
            capture_only: false,
            en_passant: false,
            screen_not: 0,
        })
    }

    fn limit(&self, f: usize, fm: &RawForm, kind: FormKind) -> R<u16> {
        let Some(s) = &fm.own_pieces_at_most else { return Ok(u16::MAX) };
        let n: i64 = self.setting(f, s)?;
        if !(0..u16::MAX as i64).contains(&n) {
            return Err(self.err(
                f,
                s.span(),
                format!("own_pieces_at_most is a number of pieces from 0 to {}, not {n}", u16::MAX - 1),
                "here",
            ));
        }
        if kind == FormKind::Jump {
            return Err(self.err(f, s.span(), "own_pieces_at_most applies to step, slide, leap and walk forms", "on a jump"));
        }
        Ok(n as u16)
    }

    fn pass_over(&self, f: usize, s: &Option<Spanned<Setting<TextOrInt>>>) -> R<u8> {
        let Some(s) = s else { return Ok(0) };
        match self.setting(f, s)? {
            TextOrInt::Text(t) if t == "none" => Ok(0),
            TextOrInt::Text(t) if t == "any" => Ok(255),
            TextOrInt::Int(i) if (0..255).contains(&i) => Ok(i as u8),
            other => Err(self.err(f, s.span(), format!("pass_over is none, any or a number of pieces from 0 to 254, not {other}"), "here")),
        }
    }

    fn distance(&self, f: usize, s: &Option<Spanned<Setting<TextOrInt>>>, attributes: &[String]) -> R<Distance> {
        let Some(s) = s else { return Ok(Distance::Fixed(1)) };
        match self.setting(f, s)? {
            TextOrInt::Int(i) if (1..=30).contains(&i) => Ok(Distance::Fixed(i as u8)),
            TextOrInt::Text(t) => {
                let known = super::names::Names::new("attribute", attributes.iter().map(String::as_str));
                Ok(Distance::Attribute(self.lookup(f, s.span(), &known, &t, "", "distance from this attribute")? as u8))
            }
            other => Err(self.err(f, s.span(), format!("a distance is 1 to 30 or an attribute name, not {other}"), "here")),
        }
    }
}

// ---------------------------------------------------------------- compiling

impl FormSpec {
    /// A short jump's table: per cell, the (jumped cell, landing) pairs its zone conditions
    /// allow.
    fn jump_table(&self, g: &mut Geometry) -> CellTable<(u16, u16)> {
        let (vecs, cond) = (intern(g, &self.dirs), &self.cond);
        CellTable::build(g.len(), |at, out| {
            if !cond.start_ok(g, at) {
                return;
            }
            for &v in &vecs {
                let over = g.step(v, at);
                let land = if over == NONE { NONE } else { g.step(v, over) };
                if land == NONE || (!cond.over.is_empty() && !g.zones_of(over).meets(cond.over)) {
                    continue;
                }
                if cond.land_ok(g, at, land) && cond.same_zone_ok(g, over, land) {
                    out.push((over, land));
                }
            }
        })
    }

    /// Compiles the form into per-cell tables on `g` (interning its direction vectors).
    pub(crate) fn compile(&self, g: &mut Geometry) -> Compiled {
        let cond = self.cond.clone();
        let capture = self.capture;
        match self.shape {
            Shape::Step => {
                let vecs = intern(g, &self.dirs);
                let targets = CellTable::build(g.len(), |from, out| {
                    if cond.start_ok(g, from) {
                        let lands = vecs.iter().map(|&v| g.step(v, from)).filter(|&to| to != NONE);
                        out.extend(lands.filter(|&to| cond.land_ok(g, from, to) && cond.same_zone_ok(g, from, to)));
                    }
                });
                Compiled::Quiet(Form::Step { targets, capture, quiet: !cond.capture_only, en_passant: cond.en_passant })
            }
            Shape::Jump { flying: true, continuing } => {
                let vecs = intern(g, &self.dirs);
                let table = CellTable::build(g.len(), |_, _| {});
                Compiled::Jump(Jump { table, victims: capture, flying: Some(Flying { vecs, cond, continuing }) })
            }
            Shape::Jump { flying: false, .. } => Compiled::Jump(Jump { table: self.jump_table(g), victims: capture, flying: None }),
            Shape::Walk { steps } => Compiled::Quiet(Form::Walk { vecs: intern(g, &self.dirs), steps, cond }),
            Shape::Slide { pass_over: 255, stop_first: false, max, hurdle: Hurdle::None }
                if capture == 0 && !cond.capture_only && !cond.en_passant =>
            {
                // Passing over any piece and taking none, it lands on the empty cells of a fixed
                // list (its line within its path, in the order the slide walks it): a step's table.
                let vecs = intern(g, &self.dirs);
                let targets = CellTable::build(g.len(), |from, out| {
                    if !cond.start_ok(g, from) {
                        return;
                    }
                    for &v in &vecs {
                        let mut cur = from;
                        for _ in 0..max {
                            cur = g.step(v, cur);
                            if cur == NONE || (!cond.path.is_empty() && !g.zones_of(cur).meets(cond.path)) {
                                break;
                            }
                            if cond.land_ok(g, from, cur) {
                                out.push(cur);
                            }
                        }
                    }
                });
                Compiled::Quiet(Form::Step { targets, capture, quiet: true, en_passant: false })
            }
            Shape::Slide { pass_over, stop_first, max, hurdle } => {
                let land_cells = (CellSet::fits(g.len()) && cond.from_or_to.is_empty()).then(|| {
                    // (With no `from_or_to`, a landing's conditions read the landing alone.)
                    (0..g.len() as u16).filter(|&to| cond.land_ok(g, to, to)).collect::<CellSet>().bits()
                });
                Compiled::Quiet(Form::Slide { vecs: intern(g, &self.dirs), pass_over, stop_first, max, capture, cond, hurdle, land_cells })
            }
            Shape::Leap { distance, off, off_per_direction, lame, lame_path } => {
                let rays = if lame { None } else { LeapRays::of(g, &self.dirs, distance, off, &cond) };
                Compiled::Quiet(Form::Leap {
                    vecs: self.dirs.clone(),
                    distance,
                    capture,
                    off,
                    off_per_direction,
                    cond,
                    lame,
                    lame_path,
                    rays,
                })
            }
        }
    }
}

/// A zone condition naming the whole board (`board`) holds on every cell: no condition (so the
/// form keeps the plain paths a form without one takes).
fn anywhere(z: ZoneSet) -> ZoneSet {
    if z == ZoneSet::BOARD { ZoneSet::EMPTY } else { z }
}

pub(crate) fn intern(g: &mut Geometry, dirs: &[(i8, i8)]) -> Vec<u16> {
    dirs.iter().map(|&d| g.intern_vector(d)).collect()
}

// ---------------------------------------------------------------- reach and generation

impl Form {
    /// For a slide that can move from `from` to `to` passing at least one cell, the cell it
    /// passes last, and for a lame leap there, the cell one step short of the landing (an en
    /// passant form's open cell); `None` otherwise.
    pub(crate) fn passed_last(&self, g: &Geometry, b: BoardView, from: u16, to: u16) -> Option<u16> {
        if let Form::Leap { vecs, distance: Distance::Fixed(d), cond, lame: true, .. } = self {
            if !cond.start_ok(g, from) {
                return None;
            }
            let ((f0, r0), (f1, r1)) = (g.coords(crate::geometry::Cell(from)), g.coords(crate::geometry::Cell(to)));
            let (df, dr) = (f1 as i32 - f0 as i32, r1 as i32 - r0 as i32);
            let hit = vecs.iter().any(|&(x, y)| (x as i32 * *d as i32, y as i32 * *d as i32) == (df, dr));
            return if hit { g.at(f1 as i32 - df.signum(), r1 as i32 - dr.signum()).map(|c| c.0).filter(|&c| c != from) } else { None };
        }
        let Form::Slide { vecs, max, cond, .. } = self else { return None };
        if !cond.start_ok(g, from) {
            return None;
        }
        for &v in vecs {
            let (mut prev, mut cur) = (from, from);
            for dist in 1..=*max {
                cur = g.step(v, cur);
                if cur == NONE || !b.board[cur as usize].is_empty() {
                    break;
                }
                if cur == to {
                    return (dist >= 2).then_some(prev);
                }
                prev = cur;
            }
        }
        None
    }

    /// The cells the form can reach from `from` on an empty board (ignoring occupancy, so it
    /// errs on the side of "may"), its zone conditions applied; leaving the board is not a cell.
    pub(crate) fn reach(&self, g: &Geometry, from: u16) -> Vec<u16> {
        let mut out = Vec::new();
        match self {
            Form::Step { targets, .. } => out.extend_from_slice(targets.get(from)),
            Form::Walk { cond, .. } | Form::Slide { cond, .. } | Form::Leap { cond, .. } if !cond.start_ok(g, from) => {}
            Form::Walk { vecs, steps, cond } => {
                let mut frontier = vec![from];
                for _ in 0..*steps {
                    frontier = frontier.iter().flat_map(|&c| vecs.iter().map(move |&v| g.step(v, c))).filter(|&c| c != NONE).collect();
                    frontier.sort();
                    frontier.dedup();
                }
                out.extend(frontier.into_iter().filter(|&c| c != from && cond.land_ok(g, from, c)));
            }
            Form::Slide { vecs, max, cond, .. } => {
                for &v in vecs {
                    let mut cur = from;
                    for _ in 0..*max {
                        cur = g.step(v, cur);
                        if cur == NONE || (!cond.path.is_empty() && !g.zones_of(cur).meets(cond.path)) {
                            break;
                        }
                        if cond.land_ok(g, from, cur) {
                            out.push(cur);
                        }
                    }
                }
            }
            Form::Leap { vecs, distance, cond, .. } => {
                let (f0, r0) = g.coords(crate::geometry::Cell(from));
                let ds: Vec<i32> = match distance {
                    Distance::Fixed(d) => vec![*d as i32],
                    Distance::Attribute(_) => (1..=g.files.max(g.ranks) as i32).collect(),
                };
                for &(dx, dy) in vecs {
                    let cells = ds.iter().filter_map(|&d| g.at(f0 as i32 + dx as i32 * d, r0 as i32 + dy as i32 * d));
                    out.extend(cells.map(|c| c.0).filter(|&c| cond.land_ok(g, from, c)));
                }
            }
        }
        out
    }

    /// [`Form::reach_on`]'s cells as a set, where the form is a step, or a slide that stops at
    /// the first piece with no range, no path zone and landing conditions that read only the
    /// landing (a rook that may not stop on a corner), and the geometry keeps rays for it
    /// (`None` otherwise, and on a board past 128 cells).
    #[inline]
    pub(crate) fn reach_set(&self, g: &Geometry, b: BoardView, from: u16) -> Option<u128> {
        if !CellSet::fits(g.len()) {
            return None;
        }
        match self {
            Form::Step { targets, .. } => {
                Some((targets.get(from).iter().copied().collect::<CellSet>() - CellSet::from_bits(b.occupied)).bits())
            }
            Form::Slide { .. } => {
                let (vecs, cond, lands) = self.slide_on_sets()?;
                if !cond.start_ok(g, from) {
                    return Some(0);
                }
                let mut cells = 0;
                for &v in vecs {
                    let (ray, up) = g.ray(v, from)?;
                    cells |= before_first(ray, up, b.occupied).0;
                }
                Some(cells & lands)
            }
            _ => None,
        }
    }

    /// A slide whose reach the cell sets hold ([`Form::reach_set`], [`Form::fills`]): its
    /// vectors, conditions and the cells it may land on, where it stops at the first piece with
    /// no range and no path zone, and its landing conditions read only the landing.
    fn slide_on_sets(&self) -> Option<(&[u16], &Cond, u128)> {
        match self {
            Form::Slide {
                vecs,
                pass_over: 0,
                stop_first: false,
                max: u8::MAX,
                cond,
                hurdle: Hurdle::None | Hurdle::Screen,
                land_cells: Some(lands),
                ..
            } if cond.path.is_empty() && cond.same_zone.is_empty() => Some((vecs, cond, *lands)),
            _ => None,
        }
    }

    /// [`Form::reach_set`] for a whole set of start cells at once, as shifts of the set (one
    /// [`Fill`] per direction): where the form is a step, or a slide that stops at the first
    /// piece with no range, no path zone and landing conditions that read only the landing,
    /// and each direction's steps split into at most [`Fill::MAX_GROUPS`] offsets of the cell
    /// index (`None` otherwise, and past 128 cells).
    pub(crate) fn fills(&self, g: &Geometry) -> Option<Vec<Fill>> {
        let n = g.len();
        if !CellSet::fits(n) {
            return None;
        }
        let grouped = |pairs: &mut dyn Iterator<Item = (u16, u16)>| {
            let mut groups: Vec<(i16, u128)> = Vec::new();
            for (from, to) in pairs {
                let offset = to as i16 - from as i16;
                match groups.iter().position(|g| g.0 == offset) {
                    Some(i) => groups[i].1 |= 1u128 << from,
                    None if groups.len() < Fill::MAX_GROUPS => groups.push((offset, 1u128 << from)),
                    None => return None,
                }
            }
            Some(groups)
        };
        match self {
            Form::Step { targets, .. } => {
                let mut pairs = (0..n as u16).flat_map(|c| targets.get(c).iter().map(move |&t| (c, t)));
                Some(vec![Fill { groups: grouped(&mut pairs)?, slide: false, starts: u128::MAX, lands: u128::MAX }])
            }
            Form::Slide { .. } => {
                let (vecs, cond, lands) = self.slide_on_sets()?;
                let starts = (0..n as u16).filter(|&c| cond.start_ok(g, c)).collect::<CellSet>().bits();
                vecs.iter()
                    .map(|&v| {
                        let mut pairs = (0..n as u16).map(|c| (c, g.step(v, c))).filter(|&(_, t)| t != NONE);
                        Some(Fill { groups: grouped(&mut pairs)?, slide: true, starts, lands })
                    })
                    .collect()
            }
            _ => None,
        }
    }

    /// The form as a slide that stops at the first piece (taking it if it may) with no zone
    /// but on its start: its vectors, `max`, what it captures and its condition. What the
    /// counts on the rays read (`movegen::forms` piece by piece, `rules::setwise` by code);
    /// `None` for any other form.
    #[inline(always)]
    pub(crate) fn plain_slide(&self) -> Option<(&[u16], u8, CodeSet, &Cond)> {
        match self {
            Form::Slide { vecs, pass_over: 0, stop_first: false, max, capture, cond, hurdle: Hurdle::None, .. } if cond.only_start() => {
                Some((vecs, *max, *capture, cond))
            }
            _ => None,
        }
    }

    /// Whether the form may capture (by landing).
    pub(crate) fn captures(&self) -> bool {
        match self {
            Form::Step { capture, .. } | Form::Slide { capture, .. } | Form::Leap { capture, .. } => *capture != 0,
            Form::Walk { .. } => false,
        }
    }
}

/// Whether a board code is in a victim set (enemy codes only; never 0).
#[inline(always)]
pub(crate) fn victim(code: PieceCode, set: CodeSet) -> bool {
    (set >> code.index()) & 1 != 0
}

/// A ray's cells before its first occupied cell, and that cell ([`NONE`] if none is); in words
/// of `W` bits (the board's cells all fit).
#[inline(always)]
pub(crate) fn before_first<W: Word>(ray: W, up: bool, occupied: W) -> (W, u16) {
    let blockers = ray & occupied;
    // (Tested for empty first, once: the first and last cells then need no test of their own,
    // which in this hot loop cost about 0.8% of a chess search's instructions.)
    if blockers == W::ZERO {
        (ray, NONE)
    } else if up {
        let first = blockers.lowest();
        (ray & W::below(first), first)
    } else {
        let last = blockers.highest();
        (ray & W::above(last), last)
    }
}

/// Where a leap of some distance from some cell ends, worked out at load: a landing on the
/// board (its landing conditions met), or leaving it in a direction (where the form allows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LeapEnd {
    Land(u16),
    /// Off the board along the direction of this compass index.
    Off(u8),
}

/// A leap's ends per start cell and distance, in the order of its directions: what [`leap`]
/// works out from coordinates, read from a table (Lielow's stacks leap by their level on every
/// move and in every mobility count).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LeapRays {
    /// The longest distance held (a longer one ends as it does).
    max: i32,
    /// The ends of a leap of `d` from `from`: `ends[start[i]..start[i + 1]]`, `i = from × max + d − 1`.
    start: Vec<u32>,
    ends: Vec<LeapEnd>,
}

impl LeapRays {
    /// The most ends a table holds (past it, leaps are worked out on the board).
    const MAX_ENDS: usize = 1 << 20;

    /// The table of a leap along `vecs` (distances up to the board's longer side, or its fixed
    /// distance), or `None` where it would pass [`LeapRays::MAX_ENDS`].
    pub(crate) fn of(g: &Geometry, vecs: &[(i8, i8)], distance: Distance, off: OffBoard, cond: &Cond) -> Option<LeapRays> {
        // A distance read from an attribute: up to one past the board's longer side. Every
        // longer leap ends as that one does (off the board in every direction, at least two
        // cells beyond it), so the table answers for any distance.
        let max = match distance {
            Distance::Fixed(d) => d as i32,
            Distance::Attribute(_) => g.files.max(g.ranks) as i32 + 1,
        };
        if g.len() * max as usize * vecs.len() > Self::MAX_ENDS {
            return None;
        }
        let (mut start, mut ends) = (vec![0u32], Vec::new());
        for from in 0..g.len() as u16 {
            let (f0, r0) = g.coords(crate::geometry::Cell(from));
            for d in 1..=max {
                for &(dx, dy) in vecs {
                    let (tf, tr) = (f0 as i32 + dx as i32 * d, r0 as i32 + dy as i32 * d);
                    if g.in_rect(tf, tr) {
                        if let Some(to) = g.at(tf, tr)
                            && cond.land_ok(g, from, to.0)
                        {
                            ends.push(LeapEnd::Land(to.0));
                        }
                    } else if match off {
                        OffBoard::No => false,
                        OffBoard::AnyDistance => true,
                        OffBoard::OneBeyond => g.in_rect(tf - dx as i32, tr - dy as i32),
                    } {
                        ends.push(LeapEnd::Off(compass_index((dx, dy))));
                    }
                }
                start.push(ends.len() as u32);
            }
        }
        Some(LeapRays { max, start, ends })
    }

    /// The table as cell sets, for counting the leap's moves on them: by `from × max + d − 1`,
    /// the cells a leap of `d` from `from` lands on (none where the start fails `cond`) and how
    /// many of its moves leave the board (`per_direction`: one a direction that leaves, else at
    /// most one); with the longest distance held. `None` where two directions land on one cell
    /// (a set would count that once, the list twice) or on a board past 128 cells.
    pub(crate) fn landing_sets(&self, g: &Geometry, cond: &Cond, per_direction: bool) -> Option<(i32, Vec<(u128, u8)>)> {
        let mut out = Vec::with_capacity(self.start.len() - 1);
        for (i, w) in self.start.windows(2).enumerate() {
            let from = (i / self.max as usize) as u16;
            let (mut set, mut off) = (CellSet::EMPTY, 0u8);
            if cond.start_ok(g, from) {
                for e in &self.ends[w[0] as usize..w[1] as usize] {
                    match *e {
                        LeapEnd::Land(to) if !CellSet::can_hold(to) || set.contains(to) => return None,
                        LeapEnd::Land(to) => set.insert(to),
                        LeapEnd::Off(_) => off += 1,
                    }
                }
            }
            out.push((set.bits(), if per_direction { off } else { off.min(1) }));
        }
        Some((self.max, out))
    }

    /// The ends of a leap of `d` (at least 1) from `from`: a longer distance than the table
    /// holds ends as its longest (see [`LeapRays::of`]; a fixed distance is its longest).
    #[inline]
    pub(crate) fn ends(&self, from: u16, d: i32) -> &[LeapEnd] {
        let i = from as usize * self.max as usize + d.min(self.max) as usize - 1;
        &self.ends[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// Whether two of a piece's non-chaining forms can reach the same cell from the same start (then
/// the same move text could be generated twice and move lists must be deduplicated).
pub(crate) fn forms_may_overlap(g: &Geometry, forms: &[Form]) -> bool {
    forms.len() > 1
        && g.cells().any(|c| {
            let mut seen: Vec<(u16, usize)> = Vec::new();
            for (i, f) in forms.iter().enumerate() {
                for t in f.reach(g, c.0) {
                    if seen.iter().any(|&(u, j)| u == t && j != i) {
                        return true;
                    }
                    seen.push((t, i));
                }
            }
            false
        })
}

// ---------------------------------------------------------------- directions and words

/// A movement form in words: `slide orthogonal, from run, within run, passing over any pieces`.
fn describe(v: &V, f: usize, fm: &RawForm, kind: FormKind) -> R<String> {
    let raw = kind.raw(fm).expect("the form names its kind");
    let mut s = match kind {
        FormKind::Walk => format!("walk {} steps {}", fm.steps.as_ref().map_or(2, |s| *s.get_ref()), dirs_words(raw)),
        FormKind::Step | FormKind::Slide | FormKind::Leap | FormKind::Jump => format!("{} {}", kind.key(), dirs_words(raw)),
    };
    let mut parts = zone_words(v, f, fm, kind)?;
    way_words(v, f, fm, &mut parts)?;
    capture_words(v, f, fm, kind, &mut parts)?;
    if let Some(o) = &fm.off_board
        && v.setting(f, o)? != "no"
    {
        parts.push("may leave the board".into());
    }
    if let Some(m) = &fm.max_distance {
        parts.push(format!("at most {} cells", m.get_ref()));
    }
    if let Some(n) = &fm.own_pieces_at_most {
        let n: i64 = v.setting(f, n)?;
        parts.push(format!("only while its side has at most {n} piece{} on the board", plural(n)));
    }
    if !parts.is_empty() {
        s.push_str(", ");
        s.push_str(&parts.join(", "));
    }
    Ok(s)
}

/// A form's directions as written: a name, or names and vectors separated by spaces.
fn dirs_words(d: &Spanned<RawDirs>) -> String {
    match d.get_ref() {
        RawDirs::One(s) => s.clone(),
        RawDirs::List(l) => l
            .iter()
            .map(|x| match x {
                RawDir::Name(n) => n.clone(),
                RawDir::Vector([a, b]) => format!("[{a}, {b}]"),
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// "s" unless `n` is 1.
fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The cells a leap of `(dx, dy)` passes on its way, short of its landing (relative to its
/// start): straight along the longer leg until what is left is a diagonal, then diagonally.
/// For `(2, 3)` (janggi's elephant): `(0, 1)` and `(1, 2)`; for `(1, 2)`: `(0, 1)`, the
/// horse's leg.
pub(crate) fn lame_path(dx: i32, dy: i32) -> impl Iterator<Item = (i32, i32)> {
    let (ax, ay) = (dx.abs(), dy.abs());
    let straight = (ax - ay).abs();
    let (sx, sy) = (dx.signum(), dy.signum());
    (1..ax.max(ay)).map(move |i| {
        if i <= straight {
            if ax > ay { (sx * i, 0) } else { (0, sy * i) }
        } else {
            let diag = i - straight;
            if ax > ay { (sx * (straight + diag), sy * diag) } else { (sx * diag, sy * (straight + diag)) }
        }
    })
}

/// How a form makes its way, in words: its distance, what it passes over or hops, where it
/// stops, whether it starts only from its start cells or can be blocked short of its landing.
fn way_words(v: &V, f: usize, fm: &RawForm, parts: &mut Vec<String>) -> R<()> {
    if let Some(d) = &fm.distance {
        match v.setting(f, d)? {
            TextOrInt::Int(i) => parts.push(format!("exactly {i} cells")),
            TextOrInt::Text(t) => parts.push(format!("as far as its {t}")),
        }
    }
    if let Some(po) = &fm.pass_over {
        match v.setting(f, po)? {
            TextOrInt::Text(t) if t == "any" => parts.push("passing over any pieces".into()),
            TextOrInt::Int(n) if n > 0 => parts.push(format!("passing over up to {n} piece{}", plural(n))),
            _ => {}
        }
    }
    if let Some(st) = &fm.stop
        && v.setting(f, st)? == "first_empty"
    {
        parts.push("stopping on the first empty cell".into());
    }
    if let Some(s) = &fm.screen {
        match v.setting(f, s)? {
            TextOrBool::Bool(true) => parts.push("capturing only by hopping over exactly one piece (a screen)".into()),
            TextOrBool::Bool(false) => {}
            TextOrBool::Text(_) => parts.push("moving and capturing only by hopping over exactly one piece (a screen)".into()),
        }
    }
    if let Some(s) = &fm.hop
        && v.setting(f, s)?
    {
        parts.push("hopping over the first piece in its line to the cell just beyond it".into());
    }
    if fm.initial.as_ref().is_some_and(|i| *i.get_ref()) {
        parts.push("only from its start cells".into());
    }
    match v.lame(f, fm)? {
        (true, false) => parts.push("blocked by a piece one step short of its landing".into()),
        (true, true) => parts.push("blocked by a piece on any cell of its path".into()),
        _ => {}
    }
    Ok(())
}

/// What a form captures, in words: which victims, by landing or only so, en passant, flying.
fn capture_words(v: &V, f: usize, fm: &RawForm, kind: FormKind, parts: &mut Vec<String>) -> R<()> {
    if let Some(vs) = &fm.victims {
        let names: Vec<&str> = vs.iter().map(|x| x.get_ref().as_str()).collect();
        parts.push(format!("capturing only {}", names.join(" or ")));
    } else {
        match fm.capture.as_ref().map(|c| v.capture_mode(f, c)).transpose()?.flatten() {
            Some(true) => parts.push("only to capture (never onto an empty cell)".into()),
            Some(false) => parts.push("may capture by landing".into()),
            None => {}
        }
    }
    if fm.en_passant.as_ref().is_some_and(|e| *e.get_ref()) {
        parts.push(if kind == FormKind::Slide {
            "opening the cell it passes last to an en passant capture".into()
        } else {
            "also en passant (onto the cell an enemy slide just passed, taking that piece)".into()
        });
    }
    if let Some(fl) = &fm.flying
        && v.setting(f, fl)?
    {
        parts.push("flying (any distance to the piece, landing on any empty cell beyond)".into());
        if fm.land.as_ref().map(|l| v.setting(f, l)).transpose()?.is_none_or(|l| l == "continuing") {
            parts.push("landing where the capture can go on, when some landing lets it".into());
        }
    }
    Ok(())
}

/// The zone conditions of a form in words.
fn zone_words(v: &V, f: usize, fm: &RawForm, kind: FormKind) -> R<Vec<String>> {
    let zone = |x: &Option<Spanned<Setting<String>>>| -> R<Option<String>> { x.as_ref().map(|z| v.setting(f, z)).transpose() };
    let mut parts = Vec::new();
    if let Some(z) = zone(&fm.from)?.filter(|z| z != "board") {
        parts.push(format!("from {z}"));
    }
    if let Some(z) = zone(&fm.from_not)? {
        parts.push(format!("not from {z}"));
    }
    if let Some(z) = zone(&fm.to)? {
        parts.push(format!("to {z}"));
    }
    if let Some(z) = zone(&fm.to_not)? {
        parts.push(format!("not to {z}"));
    }
    if let Some(z) = zone(&fm.from_or_to)? {
        parts.push(format!("start or landing in {z}"));
    }
    if let Some(z) = zone(&fm.over)? {
        parts.push(format!("over {z}"));
    }
    if let Some(z) = zone(&fm.path)? {
        parts.push(format!("within {z}"));
    }
    if let Some(zs) = &fm.same_zone {
        let names: Vec<&str> = zs.iter().map(|z| z.get_ref().as_str()).collect();
        parts.push(format!(
            "{} in one {}",
            if kind == FormKind::Jump { "jumped and landing cells" } else { "start and landing" },
            names.join(" or ")
        ));
    }
    Ok(parts)
}

/// Direction sets by name, for a player whose forward is `fwd` (+1 north, -1 south).
pub(crate) fn named_dirs(name: &str, fwd: i8) -> Option<Vec<(i8, i8)>> {
    let all: Vec<(i8, i8)> = crate::geometry::COMPASS.iter().map(|(_, d)| *d).collect();
    let v = match name {
        "orthogonal" => all.iter().copied().filter(|d| d.0 == 0 || d.1 == 0).collect(),
        "diagonal" => all.iter().copied().filter(|d| d.0 != 0 && d.1 != 0).collect(),
        "all" => all,
        "forward" => vec![(0, fwd)],
        "backward" => vec![(0, -fwd)],
        "sideways" => vec![(1, 0), (-1, 0)],
        "forward_diagonal" => vec![(-1, fwd), (1, fwd)],
        "backward_diagonal" => vec![(-1, -fwd), (1, -fwd)],
        "forward_all" => vec![(-1, fwd), (0, fwd), (1, fwd)],
        "backward_all" => vec![(-1, -fwd), (0, -fwd), (1, -fwd)],
        other => vec![compass_vector(other)?],
    };
    Some(v)
}

// ---- hexagonal boards (issue 51, part 2) ----

/// Direction sets by name on a square board (`hex` false, [`named_dirs`]) or a hex board: there
/// `orthogonal` and `all` are the six neighbours, `diagonal` the six hex diagonals (Gliński's
/// bishop), `forward` the two neighbours ahead (`ne`, `nw` for a player whose forward is
/// north), `backward` the two behind, `sideways` east and west; the single directions are `e`,
/// `ne`, `nw`, `w`, `sw`, `se`. The other forward-relative sets have no meaning there (`None`).
pub(crate) fn named_dirs_on(name: &str, fwd: i8, hex: bool) -> Option<Vec<(i8, i8)>> {
    if !hex {
        return named_dirs(name, fwd);
    }
    let six: Vec<(i8, i8)> = crate::geometry::HEX_COMPASS.iter().map(|(_, d)| *d).collect();
    let v = match name {
        "orthogonal" | "all" => six,
        "diagonal" => crate::geometry::HEX_DIAGONALS.to_vec(),
        "forward" => vec![(0, fwd), (-fwd, fwd)],
        "backward" => vec![(0, -fwd), (fwd, -fwd)],
        "sideways" => vec![(1, 0), (-1, 0)],
        other => vec![crate::geometry::compass_vector_on(other, true)?],
    };
    Some(v)
}

const HEX_DIR_NAMES: &str = "orthogonal, diagonal, all, forward, backward, sideways, e, ne, nw, w, sw, se, or [dx, dy] vectors";

// ---- end of hexagonal boards ----

const DIR_NAMES: &str = "orthogonal, diagonal, all, forward, backward, sideways, forward_diagonal, backward_diagonal, forward_all, backward_all, n, ne, e, se, s, sw, w, nw, or [dx, dy] vectors";

pub(in crate::rules) fn dirs_of(v: &V, f: usize, d: &Spanned<RawDirs>, fwd: i8, relative: bool) -> R<Vec<(i8, i8)>> {
    let mut out = Vec::new();
    let items: Vec<RawDir> = match d.get_ref() {
        RawDirs::One(s) => vec![RawDir::Name(s.clone())],
        RawDirs::List(l) => l.clone(),
    };
    let hex = v.hex_board()?;
    let (dir_names, board) = if hex { (HEX_DIR_NAMES, " on a hex board") } else { (DIR_NAMES, "") };
    for it in items {
        match it {
            RawDir::Name(n) => {
                let ds = named_dirs_on(&n, fwd, hex).ok_or_else(|| {
                    let names: Vec<&str> = dir_names.split(", ").collect();
                    let mut e = v
                        .err(f, d.span(), format!("`{n}` is not a direction set{board}"), "here")
                        .with_help(format!("expected {dir_names}"));
                    if let Some(h) = did_you_mean(&n, names) {
                        e = e.with_help(format!("{h} (expected {dir_names})"));
                    }
                    e
                })?;
                out.extend(ds);
            }
            RawDir::Vector([dx, dy]) => {
                if !(-30..=30).contains(&dx) || !(-30..=30).contains(&dy) || (dx == 0 && dy == 0) {
                    return Err(v.err(
                        f,
                        d.span(),
                        format!("[{dx}, {dy}] is not a vector: [dx, dy] is not both 0, each from -30 to 30"),
                        "here",
                    ));
                }
                // Turned round (both coordinates) for a player whose forward is south, so that
                // left and right are the player's own, as in Fairy-Stockfish's Betza.
                let (dx, dy) = if relative { (dx * fwd as i64, dy * fwd as i64) } else { (dx, dy) };
                out.push((dx as i8, dy as i8));
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// One direction of a form's quiet moves as shifts of a cell set (see [`Form::fills`]): each
/// group's start cells (`1 << from` in the mask) reach the cell `offset` further on; a slide
/// repeats the step through empty cells.
#[derive(Clone, Debug)]
pub(crate) struct Fill {
    groups: Vec<(i16, u128)>,
    slide: bool,
    /// The cells a move by it may start from, and those it may land on (a slide passes over
    /// the others).
    starts: u128,
    lands: u128,
}

impl Fill {
    /// The most offsets one direction may split into.
    pub(crate) const MAX_GROUPS: usize = 4;

    /// The cells one step on from the cells of `s`.
    #[inline(always)]
    fn step(&self, s: u128) -> u128 {
        self.groups.iter().fold(0, |out, &(offset, from)| {
            let s = s & from;
            out | if offset >= 0 { s.rotate_left(offset as u32) } else { s.rotate_right(offset.unsigned_abs() as u32) }
        })
    }

    /// The empty cells (of `empty`) a piece on any cell of `starts` reaches by this direction:
    /// one step, or for a slide every cell up to the first that is not empty where it may land.
    #[inline]
    pub(crate) fn reach(&self, starts: u128, empty: u128) -> u128 {
        let mut new = self.step(starts & self.starts) & empty;
        if !self.slide {
            return new;
        }
        let mut out = new;
        while new != 0 {
            new = self.step(new) & empty & !out;
            out |= new;
        }
        out & self.lands
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells a `lame = "path"` leap passes, worked out by hand: straight along the longer
    /// leg, then diagonally, every image turned with its vector.
    #[test]
    fn a_leaps_path_goes_straight_then_diagonally() {
        let path = |dx, dy| lame_path(dx, dy).collect::<Vec<_>>();
        assert_eq!(path(2, 3), [(0, 1), (1, 2)]); // janggi's elephant
        assert_eq!(path(-3, -2), [(-1, 0), (-2, -1)]);
        assert_eq!(path(3, -2), [(1, 0), (2, -1)]);
        assert_eq!(path(1, 2), [(0, 1)]); // the horse's leg
        assert_eq!(path(2, 2), [(1, 1)]); // xiangqi's elephant's eye
        assert_eq!(path(0, -2), [(0, -1)]);
        assert_eq!(path(3, 1), [(1, 0), (2, 0)]);
        assert!(path(0, 1).is_empty());
    }

    #[test]
    fn relative_directions_turn_with_forward() {
        assert_eq!(named_dirs("forward_diagonal", 1), Some(vec![(-1, 1), (1, 1)]));
        assert_eq!(named_dirs("forward_diagonal", -1), Some(vec![(-1, -1), (1, -1)]));
        assert_eq!(named_dirs("all", 1).unwrap().len(), 8);
        assert_eq!(named_dirs("ne", -1), Some(vec![(1, 1)]));
        assert_eq!(named_dirs("sideways-ish", 1), None);
    }

    /// On a hex board every set has six directions or two, a direction and its opposite
    /// negate each other, and forward turns with the player.
    #[test]
    fn hex_directions() {
        assert_eq!(named_dirs_on("all", 1, true).unwrap().len(), 6);
        assert_eq!(named_dirs_on("orthogonal", 1, true), named_dirs_on("all", -1, true));
        assert_eq!(named_dirs_on("ne", 1, true), Some(vec![(0, 1)]));
        assert_eq!(named_dirs_on("sw", 1, true), Some(vec![(0, -1)]));
        assert_eq!(named_dirs_on("n", 1, true), None);
        assert_eq!(named_dirs_on("forward_diagonal", 1, true), None);
        let fwd = named_dirs_on("forward", -1, true).unwrap();
        assert_eq!(fwd, named_dirs_on("backward", 1, true).unwrap());
        for d in named_dirs_on("diagonal", 1, true).unwrap() {
            assert!(named_dirs_on("diagonal", 1, true).unwrap().contains(&(-d.0, -d.1)));
        }
        assert_eq!(named_dirs_on("ne", 1, false), Some(vec![(1, 1)]));
    }
}
