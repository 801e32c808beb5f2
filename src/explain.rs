//! Why a move is not legal, in terms of the rules: the reasons `why`, the REPL and scenario
//! snapshots give, as an [`IllegalReason`] whose text names the rule.

use crate::movegen::MoveList;
use crate::notation::{Move, MoveText};
use crate::piece::PieceCode;
use crate::rules::Ruleset;
use crate::rules::movement::victim;
use crate::state::Position;
use std::fmt;

/// A list of move texts, sorted, at most six with "… N more".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moves(pub(crate) Vec<String>);

impl Moves {
    fn of<'a>(rules: &Ruleset, ms: impl Iterator<Item = &'a Move>) -> Moves {
        let mut v: Vec<String> = ms.map(|m| m.text(&rules.geometry)).collect();
        v.sort();
        Moves(v)
    }
}

impl fmt::Display for Moves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.iter().take(6).cloned().collect::<Vec<_>>().join(", "))?;
        if self.0.len() > 6 {
            write!(f, ", … {} more", self.0.len() - 6)?;
        }
        Ok(())
    }
}

/// Why a move is illegal. Its text is what the designer reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    #[error("the game is over ({0})")]
    GameOver(String),
    #[error("{player} must decide the pending {tag} first: {choices}")]
    PendingDecision { player: String, tag: String, choices: Moves },
    #[error("passing is allowed only when the rules give no move")]
    PassNotAllowed,
    /// `swap` where the pie rule does not offer it (`None`: the rules have no pie rule).
    #[error("{}", match .0 {
        None => "these rules have no pie rule ([rules] pie = true): there is no swap".to_string(),
        Some(p) => format!("the pie rule's swap is only the second player's first move ({p}'s move right after the first), and this is not it"),
    })]
    SwapNotOffered(Option<String>),
    /// A hook refused it, with the hook's words.
    #[error("{0}")]
    Refused(String),
    #[error("capture is compulsory ({captures} {})", if captures.0.len() == 1 { "is available" } else { "are available" })]
    CaptureCompulsory { captures: Moves },
    #[error("only the captures that take the most pieces ({most}) are legal: {captures}")]
    NotMaximal { most: usize, captures: Moves },
    #[error("refused by the rules' filters")]
    Filtered,
    #[error("{} is not one of the choices of the pending {tag}: {choices}", crate::files::quote(.text))]
    NotAChoice { text: String, tag: String, choices: Moves },
    #[error("there is no piece on {0}")]
    NoPiece(String),
    #[error("{cell} holds a {owner} {kind}; {side} is to move")]
    NotYours { cell: String, owner: String, kind: String, side: String },
    #[error("the capture must go on while it can ({0})")]
    MustContinue(Moves),
    #[error("a flying capture lands where it can go on, when some square beyond the piece lets it ({0})")]
    LandWhereItContinues(Moves),
    #[error(
        "{0} was taken earlier in this capture: taken pieces stay on the board until the capture ends, and are not jumped or passed again"
    )]
    TakenTwice(String),
    #[error("{} {kind} may not capture {} {victim} ({cell} holds one)", a(.kind), a(.victim))]
    MayNotCapture { kind: String, victim: String, cell: String },
    #[error("{0} is occupied")]
    Occupied(String),
    #[error("{} {kind} may not hop over {} {screen} (on {cell})", a(.kind), a(.screen))]
    ScreenRefused { kind: String, screen: String, cell: String },
    #[error("{} {kind} is blocked on its way to {to}: {cell} is in the way", a(.kind))]
    LeapBlocked { kind: String, to: String, cell: String },
    #[error("{} {kind} {} only by hopping over exactly one piece, and {between} between {from} and {to}", a(.kind), if *.capture { "captures" } else { "moves" })]
    NotOneScreen { kind: String, capture: bool, between: String, from: String, to: String },
    #[error("{0} has no piece to drop in this game")]
    NoDrops(String),
    #[error("{side} has no piece written {letter} to drop (its drops: {drops})")]
    NoSuchDrop { side: String, letter: char, drops: String },
    #[error("{side} drops more than one kind: write the kind's letter before @ ({drops})")]
    WhichDrop { side: String, drops: String },
    #[error("{} {kind} may be dropped only in zone `{zone}`, and {cell} is not in it", a(.kind))]
    OutsideDropZone { kind: String, cell: String, zone: String },
    #[error("{side} has no {kind} in hand to drop (pieces come to the hand by capturing)")]
    EmptyHand { side: String, kind: String },
    #[error("{} {kind} must turn at least one enemy piece over, and on {cell} it turns none: it must {how}", a(.kind))]
    ConvertsNothing { kind: String, cell: String, how: &'static str },
    #[error("drops fall: {} {kind} dropped {line} lands on {landing}", a(.kind))]
    Falls { kind: String, line: String, landing: String },
    #[error("{0} has no legal move")]
    NoLegalMove(String),
    #[error("capture is compulsory ({0} available)")]
    OnlyCaptures(Moves),
    #[error("the {kind} on {cell} has no legal move here ({} {kind} moves by: {forms})", a(.kind))]
    PieceStuck { kind: String, cell: String, forms: String },
    #[error("{} {kind} must promote on {cell} (zone `{zone}`): {choices}", a(.kind))]
    MustPromote { kind: String, cell: String, zone: String, choices: Moves },
    #[error("{} {kind} must promote on {cell} (zone `{zone}`), and {owner} has every kind it may become at its limit", a(.kind))]
    NothingToBecome { kind: String, cell: String, zone: String, owner: String },
    #[error("a promotion to {} {kind} needs fewer than {limit} on the board, and {owner} has {has}", a(.kind))]
    OverLimit { kind: String, owner: String, limit: u32, has: u32 },
    #[error("the {kind} on {cell} cannot play {text}; its moves: {moves} ({} {kind} moves by: {forms})", a(.kind))]
    NotAMoveOf { kind: String, cell: String, text: String, moves: Moves, forms: String },
    #[error("a turn of the {kind} has two parts: after {first} it places {} {placed}; write {first}/CELL ({choices})", a(.placed))]
    SecondPartMissing { kind: String, first: String, placed: String, choices: Moves },
    #[error("after {first}, {} {placed} cannot go to {cell}{why}; it can go to: {choices}", a(.placed))]
    SecondPartUnreachable { first: String, placed: String, cell: String, why: String, choices: Moves },
}

/// A promotion choice refused by `limits` (the player has as many of the kind as allowed), or a
/// move written to stay unpromoted (its own kind's letter after `=`) that ends where its
/// promotion's `forced_in` zone takes that choice away: the choices it has.
fn by_promotion_choice(
    rules: &Ruleset,
    pos: &Position,
    mv: &MoveText,
    code: crate::piece::PieceCode,
    legal: &[Move],
) -> Option<IllegalReason> {
    let MoveText::Path { from, landings, promote, .. } = mv else { return None };
    let p = rules.pieces[code.index()].promote.as_ref()?;
    let to = *landings.last()?;
    let forced = !p.forced.is_empty() && rules.geometry.zones_of(to).meets(p.forced);
    if forced && !p.limits.is_empty() && p.offered(&rules.geometry, Some(to), |c| pos.count_code(c)) == 0 {
        let kind = rules.kind(code.kind()).name.clone();
        let cell = rules.geometry.name(crate::geometry::Cell(to)).to_string();
        let owner = rules.player_name(code.owner()).to_string();
        return Some(IllegalReason::NothingToBecome { kind, cell, zone: p.forced_name.clone(), owner });
    }
    let letter = promote.as_ref()?;
    let i = p.choices.iter().position(|&(_, l)| l == *letter as u8)?;
    let limit = p.limits.get(i).copied().unwrap_or(u32::MAX);
    let chosen = p.choices[i].0;
    if limit != u32::MAX && pos.count_code(chosen) >= limit {
        let (kind, owner) = (rules.kind(chosen.kind()).name.clone(), rules.player_name(chosen.owner()).to_string());
        return Some(IllegalReason::OverLimit { kind, owner, limit, has: pos.count_code(chosen) });
    }
    if p.stay != Some(i as u8) || p.offers(&rules.geometry, i, Some(to)) {
        return None;
    }
    let zone = p.forced_name.clone();
    let choices = Moves::of(rules, legal.iter().filter(|m| m.from == *from && m.to() == Some(to)));
    let cell = rules.geometry.name(crate::geometry::Cell(to)).to_string();
    Some(IllegalReason::MustPromote { kind: rules.kind(code.kind()).name.clone(), cell, zone, choices })
}

/// The indefinite article for `word` ("an amazon", "a man").
fn a(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}

/// What explaining a move needs besides the position: the legal moves, the moves before the
/// capture policy and hook filters were applied, and the moves a hook refused with its reason.
pub(crate) struct Lists<'a> {
    pub(crate) legal: &'a [Move],
    pub(crate) pseudo: &'a MoveList,
    pub(crate) refused: &'a [(Move, String)],
    /// The captures as they would be if flying jumps could land anywhere beyond their piece
    /// (empty unless a flying jump lands only where the chain goes on).
    pub(crate) relaxed: &'a [Move],
}

/// Explains, in terms of the rules, why the move `mv` names is not legal in `pos`.
pub(crate) fn explain(rules: &Ruleset, pos: &Position, mv: &MoveText, l: &Lists) -> IllegalReason {
    let names = |p: crate::piece::Player| rules.player_name(p).to_string();
    if let Some(r) = pos.result() {
        return IllegalReason::GameOver(r.describe(&rules.player_names));
    }
    if let Some(c) = pos.continuation()
        && !c.normal
    {
        return IllegalReason::PendingDecision {
            player: names(c.player),
            tag: c.tag.replace('_', " "),
            choices: Moves::of(rules, l.legal.iter()),
        };
    }
    if let Some((_, why)) = l.refused.iter().find(|(m, _)| mv.names(m)) {
        return IllegalReason::Refused(why.clone());
    }
    if l.pseudo.iter().any(|m| mv.names(m)) {
        return by_policy(rules, mv, l.legal);
    }
    if l.relaxed.iter().any(|m| mv.names(m))
        && let Some(from) = mv.from()
    {
        return IllegalReason::LandWhereItContinues(Moves::of(rules, l.legal.iter().filter(|m| m.from == from && m.is_capture())));
    }
    if let MoveText::Drop { letter, to } = mv {
        return by_drop(rules, pos, *letter, *to).unwrap_or(IllegalReason::Filtered);
    }
    if let MoveText::Swap = mv {
        return IllegalReason::SwapNotOffered(rules.pie.as_ref().map(|_| names(crate::piece::Player::SECOND)));
    }
    let Some(from) = mv.from() else { return IllegalReason::PassNotAllowed };
    let text = mv.text(&rules.geometry);
    if let Some(c) = pos.continuation()
        && c.moves.iter().any(|m| m.from == from)
    {
        return IllegalReason::NotAChoice { text, tag: c.tag.replace('_', " "), choices: Moves::of(rules, l.legal.iter()) };
    }
    let cell = rules.geometry.name(crate::geometry::Cell(from)).to_string();
    let code = pos.board()[from as usize];
    if code.is_empty() {
        return IllegalReason::NoPiece(cell);
    }
    let kind = rules.kind(code.kind()).name.clone();
    if code.owner() != pos.side() {
        return IllegalReason::NotYours { cell, owner: names(code.owner()), kind, side: names(pos.side()) };
    }
    if let Some(r) = by_second_part(rules, pos, mv, &kind, l.legal) {
        return r;
    }
    if let Some(r) = by_path(rules, pos, mv, code, l.legal) {
        return r;
    }
    if let Some(r) = by_promotion_choice(rules, pos, mv, code, l.legal) {
        return r;
    }
    if let Some(r) = by_screen(rules, pos, mv, code).or_else(|| by_lame_leap(rules, pos, mv, code)) {
        return r;
    }
    let forms = rules.pieces[code.index()].notes.join("; ");
    let own: Vec<&Move> = l.legal.iter().filter(|m| m.from == from).collect();
    if !own.is_empty() {
        return IllegalReason::NotAMoveOf { kind, cell, text, moves: Moves::of(rules, own.into_iter()), forms };
    }
    if l.legal.is_empty() {
        return IllegalReason::NoLegalMove(names(pos.side()));
    }
    if rules.compulsory() && l.legal.iter().any(Move::is_capture) {
        return IllegalReason::OnlyCaptures(Moves::of(rules, l.legal.iter().filter(|m| m.is_capture())));
    }
    IllegalReason::PieceStuck { kind, cell, forms }
}

/// A lame leap to the move's landing blocked on its way: the cell one step short of the
/// landing, or with `lame = "path"` any cell of its path, holds a piece.
fn by_lame_leap(rules: &Ruleset, pos: &Position, mv: &MoveText, code: PieceCode) -> Option<IllegalReason> {
    use crate::rules::movement::{Distance, Form, lame_path};
    let (from, to, g, board) = (mv.from()?, *mv.landings().last()?, &rules.geometry, pos.board());
    let ((f0, r0), (f1, r1)) = (g.coords(crate::geometry::Cell(from)), g.coords(crate::geometry::Cell(to)));
    let (df, dr) = (f1 as i32 - f0 as i32, r1 as i32 - r0 as i32);
    for f in &rules.pieces[code.index()].quiet {
        let Form::Leap { vecs, distance: Distance::Fixed(d), lame: true, lame_path: path, .. } = f else { continue };
        let d = *d as i32;
        if !vecs.iter().any(|&(x, y)| (x as i32 * d, y as i32 * d) == (df, dr)) {
            continue;
        }
        let cells: Vec<(i32, i32)> = if *path { lame_path(df, dr).collect() } else { vec![(df - df.signum(), dr - dr.signum())] };
        let busy = cells.into_iter().filter_map(|(x, y)| g.at(f0 as i32 + x, r0 as i32 + y)).find(|c| !board[c.0 as usize].is_empty());
        if let Some(c) = busy {
            let kind = rules.kind(code.kind()).name.clone();
            return Some(IllegalReason::LeapBlocked {
                kind,
                to: g.name(crate::geometry::Cell(to)).to_string(),
                cell: g.name(c).to_string(),
            });
        }
    }
    None
}

/// A screen slide along the move's line whose screen is of a kind that may not be one
/// (`screen_not`), or whose landing holds an enemy piece it may not take (`victims`).
fn by_screen(rules: &Ruleset, pos: &Position, mv: &MoveText, code: PieceCode) -> Option<IllegalReason> {
    use crate::rules::movement::{Form, Hurdle};
    let (from, to, g, board) = (mv.from()?, *mv.landings().last()?, &rules.geometry, pos.board());
    let name = |c: u16| rules.kind(board[c as usize].kind()).name.clone();
    for f in &rules.pieces[code.index()].quiet {
        let Form::Slide { vecs, cond, hurdle: hurdle @ (Hurdle::Screen | Hurdle::ScreenAlways), capture, .. } = f else { continue };
        for &v in vecs {
            let (mut cur, mut between) = (from, Vec::new());
            while cur != to {
                cur = g.step(v, cur);
                if cur == crate::geometry::NONE {
                    break;
                }
                if cur != to && !board[cur as usize].is_empty() {
                    between.push(cur);
                }
            }
            if cur != to {
                continue;
            }
            let cell = |c: u16| g.name(crate::geometry::Cell(c)).to_string();
            let vc = board[to as usize];
            if !vc.is_empty() && vc.owner() != code.owner() && !victim(vc, *capture) {
                return Some(IllegalReason::MayNotCapture { kind: name(from), victim: name(to), cell: cell(to) });
            }
            let first = between.first().copied().unwrap_or(crate::geometry::NONE);
            let takes = !board[to as usize].is_empty();
            if between.len() != 1 && (takes || *hurdle == Hurdle::ScreenAlways) {
                let between = match &between[..] {
                    [] => "none stands".to_string(),
                    more => format!("{} stand", more.iter().map(|&c| cell(c)).collect::<Vec<_>>().join(" and ")),
                };
                return Some(IllegalReason::NotOneScreen { kind: name(from), capture: takes, between, from: cell(from), to: cell(to) });
            }
            if first != crate::geometry::NONE && cond.screen_not >> board[first as usize].index() & 1 != 0 {
                return Some(IllegalReason::ScreenRefused { kind: name(from), screen: name(first), cell: cell(first) });
            }
        }
    }
    None
}

/// The first piece a capture text crosses again after taking it (when jumped pieces stay until
/// the chain ends): each leg runs along a straight line from one landing to the next and takes
/// the one piece it passes. Legs that are not straight lines are left to the other reasons.
fn taken_twice(rules: &Ruleset, pos: &Position, from: u16, path: &[u16]) -> Option<u16> {
    let g = &rules.geometry;
    let mut taken: Vec<u16> = Vec::new();
    let mut at = from;
    for &land in path {
        let ((f0, r0), (f1, r1)) = (g.coords(crate::geometry::Cell(at)), g.coords(crate::geometry::Cell(land)));
        let (df, dr) = (f1 as i32 - f0 as i32, r1 as i32 - r0 as i32);
        if (df == 0 && dr == 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return None;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let mut passed = Vec::new();
        let (mut f, mut r) = (f0 as i32 + sf, r0 as i32 + sr);
        while (f, r) != (f1 as i32, r1 as i32) {
            // Grid points that are not cells (the light squares) hold nothing.
            if let Some(c) = g.at(f, r)
                && c.0 != from
                && !pos.board()[c.0 as usize].is_empty()
            {
                if taken.contains(&c.0) {
                    return Some(c.0);
                }
                passed.push(c.0);
            }
            (f, r) = (f + sf, r + sr);
        }
        taken.extend(passed);
        at = land;
    }
    None
}

/// Why a drop on `to` is not among the moves: no kind to drop (or none with that letter), an
/// occupied cell, a cell outside the drop's zone, or a piece that would fall further.
fn by_drop(rules: &Ruleset, pos: &Position, letter: Option<char>, to: u16) -> Option<IllegalReason> {
    let g = &rules.geometry;
    let side = pos.side();
    let name = |c: u16| g.name(crate::geometry::Cell(c)).to_string();
    let codes = &rules.drops[side];
    let drops = || codes.iter().map(|&c| format!("{}@", rules.symbol(c).to_ascii_uppercase())).collect::<Vec<_>>().join(", ");
    let player = rules.player_name(side).to_string();
    if codes.is_empty() {
        return Some(IllegalReason::NoDrops(player));
    }
    let code = match letter {
        Some(l) => match codes.iter().find(|&&c| rules.symbol(c).to_ascii_uppercase() == l) {
            Some(&c) => c,
            None => return Some(IllegalReason::NoSuchDrop { side: player, letter: l, drops: drops() }),
        },
        None if codes.len() > 1 => return Some(IllegalReason::WhichDrop { side: player, drops: drops() }),
        None => codes[0],
    };
    if !pos.board()[to as usize].is_empty() {
        return Some(IllegalReason::Occupied(name(to)));
    }
    let d = rules.pieces[code.index()].drop.as_ref()?;
    let kind = rules.kind(code.kind()).name.clone();
    if d.hand.is_some_and(|slot| pos.counter(side, slot) <= 0) {
        return Some(IllegalReason::EmptyHand { side: player, kind });
    }
    if !d.cells.contains(&to) {
        let zone = d.zone.clone().unwrap_or_default();
        return Some(IllegalReason::OutsideDropZone { kind, cell: name(to), zone });
    }
    if !d.beside.is_empty() && !d.beside[to as usize].iter().any(|&n| pos.board()[n as usize].is_of(side)) {
        return Some(IllegalReason::Refused(format!(
            "{} {kind} is dropped only next to one of your pieces, and {} has none beside it",
            a(&kind),
            name(to)
        )));
    }
    if let Some((block, limit)) = d.file_block {
        let file = g.coords(crate::geometry::Cell(to)).0;
        let on_file: Vec<u16> =
            (0..g.ranks as i32).filter_map(|r| g.at(file as i32, r)).filter(|c| pos.board()[c.0 as usize] == block).map(|c| c.0).collect();
        if on_file.len() >= limit as usize {
            let own = rules.kind(block.kind()).name.clone();
            let file = crate::geometry::file_letter(file);
            let cells: Vec<String> = on_file.iter().map(|&c| name(c)).collect();
            return Some(IllegalReason::Refused(if limit == 1 {
                format!("a {kind} may not be dropped on file {file}, where your {own} on {} stands", cells[0])
            } else {
                format!("a {kind} may not be dropped on file {file}, which holds {limit} of your {own}s already ({})", cells.join(", "))
            }));
        }
    }
    if let Some((dx, dy)) = d.gravity {
        let mut landing = to;
        while d.fall[landing as usize] != crate::geometry::NONE && pos.board()[d.fall[landing as usize] as usize].is_empty() {
            landing = d.fall[landing as usize];
        }
        if landing != to {
            let (f, r) = g.coords(crate::geometry::Cell(to));
            let line = match (dx, dy) {
                (0, _) => format!("in column {}", crate::geometry::file_letter(f)),
                (_, 0) => format!("in row {}", r + 1),
                _ => format!("on {}", name(to)),
            };
            return Some(IllegalReason::Falls { kind, line, landing: name(landing) });
        }
    }
    if d.must_convert
        && let Some(cv) = &rules.pieces[code.index()].convert
        && !cv.converts_any(pos.board(), to, side)
    {
        let how = match (cv.bracket.is_empty(), cv.adjacent.is_empty()) {
            (false, true) => "bracket a line of enemy pieces between it and one of yours",
            (true, false) => "stand next to an enemy piece",
            _ => "bracket a line of enemy pieces or stand next to one",
        };
        return Some(IllegalReason::ConvertsNothing { kind, cell: name(to), how });
    }
    suicide(rules, pos, code, to, &kind)
}

/// Where the drop of `code` on `to` is a suicide the liberty rule refuses: why (the pieces of
/// the player's it would join, and that it takes no enemy group).
fn suicide(rules: &Ruleset, pos: &Position, code: crate::piece::PieceCode, to: u16, kind: &str) -> Option<IllegalReason> {
    let l = rules.pieces[code.index()].liberties.as_ref()?;
    if crate::rules::groups::placement_legal(&l.n, pos.board(), to, pos.side(), l.suicide) {
        return None;
    }
    let g = &rules.geometry;
    let side = pos.side();
    let name = |c: u16| g.name(crate::geometry::Cell(c)).to_string();
    let joined: Vec<String> =
        l.n.of(to).iter().filter(|&&x| x != crate::geometry::NONE && pos.board()[x as usize].is_of(side)).map(|&x| name(x)).collect();
    let with = if joined.is_empty() { String::new() } else { format!(" (with your pieces on {})", joined.join(", ")) };
    Some(IllegalReason::Refused(format!(
        "suicide: {} {kind} on {} would leave its group{with} without a liberty, and it takes no enemy group; these rules forbid a suicide",
        a(kind),
        name(to)
    )))
}

/// A move the pieces can make that the capture policy (or a filter) took away.
fn by_policy(rules: &Ruleset, mv: &MoveText, legal: &[Move]) -> IllegalReason {
    let captures = || legal.iter().filter(|m| m.is_capture());
    if rules.compulsory() && !mv.is_capture() && legal.iter().any(Move::is_capture) {
        return IllegalReason::CaptureCompulsory { captures: Moves::of(rules, captures()) };
    }
    if rules.maximum() && mv.is_capture() {
        let most = legal.iter().map(Move::captures).max().unwrap_or(0);
        return IllegalReason::NotMaximal { most, captures: Moves::of(rules, legal.iter().filter(|m| m.captures() == most)) };
    }
    IllegalReason::Filtered
}

/// What the cells of the text say: a capture stopped short, a jump over a piece this piece may
/// not take (found through the piece's own jump tables), a step onto an occupied cell.
/// A two-part turn whose first part is legal: its second part is missing, or cannot go there
/// (occupied, or the first piece on the way there).
fn by_second_part(rules: &Ruleset, pos: &Position, mv: &MoveText, kind: &str, legal: &[Move]) -> Option<IllegalReason> {
    let MoveText::Path { from, landings, then, .. } = mv else { return None };
    let g = &rules.geometry;
    let seconds: Vec<&Move> =
        legal.iter().filter(|m| m.from == *from && m.landings() == &landings[..] && m.placed().is_some() && m.gated().is_none()).collect();
    let (code, _) = seconds.first()?.placed()?;
    let first = MoveText::Path { from: *from, landings: landings.clone(), capture: mv.is_capture(), then: None, promote: None }.text(g);
    let placed = rules.kind(code.kind()).name.clone();
    let choices = Moves(seconds.iter().map(|m| g.name(crate::geometry::Cell(m.placed().expect("second part").1)).to_string()).collect());
    let Some(crate::notation::Placed { at: Some(at), letter: None }) = *then else {
        let examples = Moves(choices.0.iter().map(|c| format!("{first}/{c}")).collect());
        return Some(IllegalReason::SecondPartMissing { kind: kind.to_string(), first, placed, choices: examples });
    };
    // The board as the first part leaves it: the start empty, the piece on its landing.
    let land = *landings.last()?;
    let busy = |c: u16| c == land || (c != *from && !pos.board()[c as usize].is_empty());
    let why = if busy(at) {
        format!(": {} is occupied", g.name(crate::geometry::Cell(at)))
    } else {
        let ((f0, r0), (f1, r1)) = (g.coords(crate::geometry::Cell(land)), g.coords(crate::geometry::Cell(at)));
        let (df, dr) = (f1 as i32 - f0 as i32, r1 as i32 - r0 as i32);
        let n = df.abs().max(dr.abs());
        let aligned = df == 0 || dr == 0 || df.abs() == dr.abs();
        let blocker = if aligned {
            (1..n).filter_map(|i| g.at(f0 as i32 + df / n * i, r0 as i32 + dr / n * i)).map(|c| c.0).find(|&c| busy(c))
        } else {
            None
        };
        blocker.map_or(String::new(), |b| format!(": {} is in the way", g.name(crate::geometry::Cell(b))))
    };
    Some(IllegalReason::SecondPartUnreachable { first, placed, cell: g.name(crate::geometry::Cell(at)).to_string(), why, choices })
}

fn by_path(rules: &Ruleset, pos: &Position, mv: &MoveText, code: PieceCode, legal: &[Move]) -> Option<IllegalReason> {
    let from = mv.from()?;
    let path = mv.landings();
    if mv.is_capture()
        && rules.captures.removal == crate::rules::Removal::EndOfChain
        && let Some(cell) = taken_twice(rules, pos, from, path)
    {
        return Some(IllegalReason::TakenTwice(rules.geometry.name(crate::geometry::Cell(cell)).to_string()));
    }
    if mv.is_capture() {
        let longer: Vec<&Move> =
            legal.iter().filter(|m| m.from == from && m.len() > path.len() && m.landings()[..path.len()] == *path).collect();
        if !longer.is_empty() {
            return Some(IllegalReason::MustContinue(Moves::of(rules, longer.into_iter())));
        }
        let pr = &rules.pieces[code.index()];
        let mut at = from;
        for &land in path {
            for &(over, _, _) in pr.any_jump.get(at).iter().filter(|j| j.1 == land) {
                let vc = pos.board()[over as usize];
                let can = pr.jumps.iter().any(|j| j.table.get(at).contains(&(over, land)) && victim(vc, j.victims));
                if !vc.is_empty() && vc.owner() != code.owner() && !can {
                    let (kind, victim) = (rules.kind(code.kind()).name.clone(), rules.kind(vc.kind()).name.clone());
                    return Some(IllegalReason::MayNotCapture {
                        kind,
                        victim,
                        cell: rules.geometry.name(crate::geometry::Cell(over)).to_string(),
                    });
                }
            }
            at = land;
        }
    }
    match path {
        [to] if !mv.is_capture() && !pos.board()[*to as usize].is_empty() => {
            Some(IllegalReason::Occupied(rules.geometry.name(crate::geometry::Cell(*to)).to_string()))
        }
        _ => None,
    }
}

/// Why a text that gates a piece (`b1-c3/H`, `O-O/H@h1`), or drops a kind that only gating
/// places (`H@b1`), names no legal move while the move without the piece is legal: a letter of
/// no gated kind, none in hand, a cell the move does not leave, a cell outside the kind's zone
/// or no gate, a castling's landing. `None` where none of these holds (the check test then
/// speaks) or the text gates nothing.
pub(crate) fn by_gate(rules: &Ruleset, pos: &Position, mv: &MoveText, legal: &[Move]) -> Option<String> {
    let gating = rules.drops.gating.as_ref()?;
    let (g, side) = (&rules.geometry, pos.side());
    let name = |c: u16| g.name(crate::geometry::Cell(c)).to_string();
    let gated = |l: char| gating.codes[side].iter().find(|(c, _)| rules.symbol(*c).to_ascii_uppercase() == l).copied();
    let kind_of = |c: PieceCode| rules.kind(c.kind()).name.clone();
    let (placed, plain) = match mv {
        MoveText::Drop { letter: Some(l), .. } => {
            let (code, _) = gated(*l)?;
            let kind = kind_of(code);
            return Some(format!(
                "{} {kind} is never dropped on its own: it enters by gating, placed on the cell one of your pieces leaves from a gate as part of that move (write the move, then /{l}: b1-c3/{l})",
                a(&kind)
            ));
        }
        MoveText::Path { from, landings, capture, then: Some(p), promote } if p.letter.is_some() => {
            (*p, MoveText::Path { from: *from, landings: landings.clone(), capture: *capture, then: None, promote: *promote })
        }
        MoveText::Castle { east, then: Some(p) } => (*p, MoveText::Castle { east: *east, then: None }),
        _ => return None,
    };
    let m = *legal.iter().find(|m| plain.names(m))?;
    let letter = placed.letter?;
    let Some((code, zone)) = gated(letter) else {
        let kinds: Vec<String> = gating.codes[side].iter().map(|(c, _)| rules.symbol(*c).to_ascii_uppercase().to_string()).collect();
        return Some(format!("{letter} is no kind that enters by gating (those are {})", kinds.join(", ")));
    };
    let kind = kind_of(code);
    let d = rules.pieces[code.index()].drop.as_ref()?;
    if !pos.has_in_hand(rules, code) {
        return Some(format!("{} has no {kind} in hand", rules.player_name(side)));
    }
    let leaves: Vec<u16> = std::iter::once(m.from).chain(m.castling().map(|(r, _)| r)).collect();
    let left = leaves.iter().map(|&c| name(c)).collect::<Vec<_>>().join(" or ");
    let cells = match placed.at {
        Some(at) if !leaves.contains(&at) => {
            return Some(format!("a gated {kind} enters on the cell the move leaves ({left}), not on {}", name(at)));
        }
        Some(at) => vec![at],
        None => leaves.clone(),
    };
    for c in cells {
        if zone & 1 << c == 0 {
            return Some(format!(
                "{} is outside the {kind}'s zone{}",
                name(c),
                d.zone.as_ref().map_or(String::new(), |z| format!(" ({z})"))
            ));
        }
        if pos.gates()[side] & 1 << c == 0 {
            return Some(format!(
                "{} is no gate of yours: a piece enters there only as the piece that has stood on it since the start leaves it",
                name(c)
            ));
        }
        if m.to() == Some(c) || m.castling().is_some_and(|(_, r)| r == c) {
            return Some(format!("the castling lands a piece on {}, so nothing can enter there", name(c)));
        }
    }
    None
}
