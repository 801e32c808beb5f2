//! boardlab's game records ([`crate::record::Record`]) to and from PGN and PDN.
//!
//! PGN (the chess family): the Seven-Tag Roster, `Variant` (the variant's name; left out for
//! the game Fairy-Stockfish calls `chess`), `SetUp` and `FEN` when the game does not start
//! from the initial position, SAN moves. PDN (draughts): the same roster, `GameType` (the
//! variant's `[notation] pdn`), `Variant`, `FEN` in PDN's form (`W:W31,32,K45:B1,2`) when not
//! the initial position, moves in the variant's style (numbered squares). PGN's White is the
//! player who moves first; PDN's Black is the player on whose side square 1 lies (English
//! draughts' first player), its White the other. Options set away from their defaults go in
//! a `BoardlabOptions` tag (`name=value,…`), so a record reads back as the same game.

use super::MoveWriter;
use super::pgn::{Game, SyntaxError, Token};
use crate::notation::Move;
use crate::outcome::{Outcome, Winner};
use crate::piece::{PieceCode, Player};
use crate::record::Record;
use crate::rules::MoveStyle;
use crate::state::Position;
use crate::variant::Variant;
use std::path::Path;

/// The kinds of record file, told by their extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// boardlab's own TOML record (any extension but these two).
    Record,
    /// `.pgn`
    Pgn,
    /// `.pdn`
    Pdn,
}

impl Format {
    /// The format a file's extension names (in any letter case).
    pub(crate) fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("pgn") => Format::Pgn,
            Some("pdn") => Format::Pdn,
            _ => Format::Record,
        }
    }
}

/// The tags a caller knows and the game does not.
#[derive(Clone, Debug)]
pub(crate) struct Header {
    pub(crate) event: String,
    pub(crate) round: String,
    /// The players' names (or engines), the first seat's first.
    pub(crate) players: [String; 2],
}

impl Default for Header {
    fn default() -> Header {
        Header { event: "boardlab game".into(), round: "-".into(), players: ["?".into(), "?".into()] }
    }
}

/// The player PGN and PDN call White.
fn white(v: &Variant, format: Format) -> Player {
    match (format, v.rules.move_style) {
        (Format::Pdn, MoveStyle::Numbered { square_one }) => square_one.other(),
        _ => v.rules.first,
    }
}

/// The result as the format writes it.
fn result_text(v: &Variant, format: Format, result: Option<&Outcome>) -> String {
    match result.map(|o| o.winner) {
        None => "*".into(),
        Some(Winner::Draw) => "1/2-1/2".into(),
        Some(Winner::Player(p)) if p == white(v, format) => "1-0".into(),
        Some(Winner::Player(_)) => "0-1".into(),
    }
}

/// A game as PGN or PDN text: `v`'s game from `start` through `moves` (legal, in order),
/// with `options` (set away from their defaults); its result is the one the moves reach
/// (`*` while the game goes on), the reason a comment after the moves.
///
/// # Errors
/// A start position the format cannot write (a PDN FEN of pieces other than men and kings).
pub(crate) fn game_text(
    v: &Variant,
    format: Format,
    (start, moves): (&Position, &[Move]),
    options: &[(String, String)],
    header: &Header,
) -> Result<String, RecordError> {
    let style = match (format, v.rules.move_style) {
        (Format::Pdn, s) => s,
        _ => MoveStyle::San,
    };
    let (numbers, mut end) = numbers(v, start, moves);
    let result = v.outcome(&mut end).ok().flatten();
    let result = result.as_ref();
    let w = white(v, format);
    let seat = |p: Player| if p == v.rules.first { &header.players[0] } else { &header.players[1] };
    let result_t = result_text(v, format, result);
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), header.event.clone()),
        ("Site".into(), "?".into()),
        ("Date".into(), "????.??.??".into()),
        ("Round".into(), header.round.clone()),
        ("White".into(), seat(w).clone()),
        ("Black".into(), seat(w.other()).clone()),
        ("Result".into(), result_t.clone()),
    ];
    if let (Format::Pdn, Some(n)) = (format, v.rules.pdn) {
        tags.push(("GameType".into(), n.to_string()));
    }
    let standard = format == Format::Pgn && v.rules.fairy_stockfish.as_deref() == Some("chess");
    if !standard || !options.is_empty() {
        tags.push(("Variant".into(), v.spec.clone()));
    }
    if !options.is_empty() {
        tags.push(("BoardlabOptions".into(), options.iter().map(|(k, x)| format!("{k}={x}")).collect::<Vec<_>>().join(",")));
    }
    if *start != v.start() {
        let fen = match format {
            Format::Pdn => pdn_fen(v, start)?,
            _ => crate::fen::write(&v.rules, start).unwrap_or_else(|_| start.to_text(&v.rules)),
        };
        if format == Format::Pgn {
            tags.push(("SetUp".into(), "1".into()));
        }
        tags.push(("FEN".into(), fen));
    }
    let writer = MoveWriter::with_style(v, style);
    let texts = writer.line(start, moves);
    let game = Game {
        tags,
        moves: texts.into_iter().map(|text| Token { text, line: 0, column: 0 }).collect(),
        result: result_t,
        comment: result.map(|o| o.reason.to_string()),
    };
    Ok(game.to_text(&numbers))
}

/// The move number written before each move (`1.`, or `1...` for a line that starts with the
/// second player's move), counting a move each time the first player is to move again.
fn numbers(v: &Variant, start: &Position, moves: &[Move]) -> (Vec<Option<String>>, Position) {
    let mut pos = start.clone();
    let mut n = start.ply() / 2 + 1;
    let mut out = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let first = pos.side() == v.rules.first;
        out.push(match (first, i) {
            (true, _) => Some(format!("{n}.")),
            (false, 0) => Some(format!("{n}...")),
            _ => None,
        });
        if v.make(&mut pos, m).is_err() {
            break;
        }
        if !first && pos.side() == v.rules.first {
            n += 1;
        }
    }
    let _ = v.take_output();
    (out, pos)
}

/// A draughts position in PDN's FEN: the side to move, then each side's squares, kings marked
/// `K` (`W:W31,32,K45:B1,2`). Men are the variant's pawn-like kind, kings its one other kind.
///
/// # Errors
/// The variant does not number its squares, or has other kinds of piece.
pub(crate) fn pdn_fen(v: &Variant, pos: &Position) -> Result<String, RecordError> {
    let (numbering, man) = pdn_parts(v)?;
    let w = white(v, Format::Pdn);
    let letter = |p: Player| if p == w { 'W' } else { 'B' };
    let mut s = letter(pos.side()).to_string();
    for p in [w, w.other()] {
        let mut squares: Vec<(u16, bool)> = (0..pos.board().len() as u16)
            .filter(|&c| pos.piece(c).is_of(p))
            .map(|c| (numbering.number(c), pos.piece(c).kind() != man))
            .collect();
        squares.sort();
        let list: Vec<String> = squares.iter().map(|&(n, king)| format!("{}{n}", if king { "K" } else { "" })).collect();
        s.push_str(&format!(":{}{}", letter(p), list.join(",")));
    }
    Ok(s)
}

/// The numbering and the men's kind of a variant PDN's FEN can write.
fn pdn_parts(v: &Variant) -> Result<(crate::numbered::Numbering, crate::piece::KindId), RecordError> {
    let numbering = crate::numbered::Numbering::of(&v.rules).ok_or("PDN's FEN needs numbered squares ([notation] moves = \"numbered\")")?;
    let man = crate::san::pawn_kind(&v.rules, &v.start()).filter(|_| v.rules.kinds.len() == 2);
    Ok((numbering, man.ok_or("PDN's FEN writes men and kings only: this variant has other pieces")?))
}

/// Reads a PDN FEN (see [`pdn_fen`]) into a position of `v`.
///
/// # Errors
/// Not a PDN FEN of this board.
pub(crate) fn read_pdn_fen(v: &Variant, text: &str) -> Result<Position, RecordError> {
    let (numbering, man) = pdn_parts(v)?;
    let king = crate::piece::KindId(1 - man.0);
    let w = white(v, Format::Pdn);
    let player = |c: char| match c.to_ascii_uppercase() {
        'W' => Ok(w),
        'B' => Ok(w.other()),
        _ => Err(format!("`{c}` is not a side (W or B)")),
    };
    let mut pos = v.start();
    let z = &v.rules.zobrist;
    for c in 0..pos.board().len() as u16 {
        pos.set_piece(z, c, PieceCode::EMPTY);
    }
    let mut fields = text.trim().trim_end_matches('.').split(':');
    let side = fields.next().and_then(|s| s.trim().chars().next()).ok_or("an empty FEN")?;
    pos.set_side(z, player(side)?);
    for f in fields {
        let f = f.trim();
        let Some(first) = f.chars().next() else { continue };
        let p = player(first)?;
        for sq in f[first.len_utf8()..].split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (kind, num) = match sq.strip_prefix(['K', 'k']) {
                Some(n) => (king, n),
                None => (man, sq),
            };
            let cell = num.parse::<u16>().ok().and_then(|n| numbering.cell(n));
            let cell = cell.ok_or_else(|| format!("`{}` is not a square of this board", crate::files::quote(sq)))?;
            pos.set_piece(z, cell, PieceCode::new(kind, p));
        }
    }
    Ok(pos)
}

/// Why a PGN or PDN game could not be read as a record.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReadError {
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The file holds no game.
    #[error("no game in the file")]
    Empty,
    /// The game's variant, start or options, and why.
    #[error("{0}")]
    Game(String),
    /// A move that cannot be played, where it is.
    #[error("line {line}, column {column}: move {number} (`{text}`): {why}")]
    Move { line: usize, column: usize, number: usize, text: String, why: String },
}

/// The variant a game names: `Variant` (a name boardlab finds, or a Fairy-Stockfish name
/// given in `[notation]`), else (PDN) the variant whose `[notation] pdn` is the `GameType`,
/// else chess.
fn variant_of(game: &Game, options: &[(String, String)]) -> Result<Variant, ReadError> {
    let load = |name: &str| Variant::load(name, options);
    if let Some(name) = game.tag("Variant") {
        if let Ok(v) = load(name).or_else(|_| load(&name.to_ascii_lowercase())) {
            return Ok(v);
        }
        let by_fs = crate::variant::all_variants().into_iter().find_map(|(n, _, _)| {
            let v = load(&n).ok()?;
            v.rules.fairy_stockfish.as_deref().is_some_and(|f| f.eq_ignore_ascii_case(name)).then_some(v)
        });
        return by_fs
            .ok_or_else(|| ReadError::Game(format!("no variant is named `{}` (`boardlab list` lists them)", crate::files::quote(name))));
    }
    if let Some(t) = game.tag("GameType") {
        let n: Option<u8> = t.split(',').next().and_then(|n| n.trim().parse().ok());
        let found = n.and_then(|n| {
            crate::variant::all_variants().into_iter().find_map(|(name, _, _)| load(&name).ok().filter(|v| v.rules.pdn == Some(n)))
        });
        return found
            .ok_or_else(|| ReadError::Game(format!("no variant declares PDN GameType `{}` ([notation] pdn)", crate::files::quote(t))));
    }
    load("chess").map_err(|e| ReadError::Game(e.to_string()))
}

/// A game of a PGN or PDN file as a boardlab record: its variant, options, start and moves
/// (each played, so the record holds boardlab's own texts).
///
/// # Errors
/// The variant, start or a move, with the move's line and column.
pub(crate) fn record_of(game: &Game, format: Format) -> Result<Record, ReadError> {
    let options: Vec<(String, String)> = match game.tag("BoardlabOptions") {
        Some(t) => t
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.split_once('=').map(|(a, b)| (a.trim().to_string(), b.trim().to_string())))
            .collect::<Option<_>>()
            .ok_or_else(|| ReadError::Game("BoardlabOptions is name=value,…".into()))?,
        None => vec![],
    };
    let v = variant_of(game, &options)?;
    let mut pos = match game.tag("FEN") {
        None => v.start(),
        Some(f) => {
            let read = match format {
                Format::Pdn => read_pdn_fen(&v, f).map_err(|e| e.to_string()),
                _ => crate::fen::read(&v.rules, f).map_err(|e| e.to_string()),
            };
            read.or_else(|e| Position::from_text(&v.rules, f).map_err(|_| e)).map_err(|e| ReadError::Game(format!("FEN: {e}")))?
        }
    };
    let start = (pos != v.start()).then(|| pos.to_text(&v.rules));
    let mut moves = Vec::with_capacity(game.moves.len());
    for (i, t) in game.moves.iter().enumerate() {
        let m = v.play(&mut pos, &t.text).map_err(|e| ReadError::Move {
            line: t.line,
            column: t.column,
            number: i + 1,
            text: crate::files::quote(&t.text),
            why: e.to_string(),
        })?;
        moves.push(m.text(&v.rules.geometry));
    }
    let _ = v.take_output();
    Ok(Record {
        variant: v.spec.clone(),
        start,
        moves,
        options: options.into_iter().collect(),
        result: v.outcome(&mut pos).ok().flatten().map(|r| r.describe(&v.rules.player_names)),
        ..Record::default()
    })
}

/// Reads every game of a PGN or PDN text as records.
///
/// # Errors
/// The text is not PGN/PDN, holds no game, or a game does not replay.
pub(crate) fn read(text: &str, format: Format) -> Result<Vec<Record>, ReadError> {
    let games = super::pgn::parse(text)?;
    if games.is_empty() {
        return Err(ReadError::Empty);
    }
    games.iter().map(|g| record_of(g, format)).collect()
}

/// Self-play's games (each with its moves) as PGN or PDN text, in the order of their index:
/// each replayed in the one of `variants` it names, its result what the replay reached.
///
/// # Errors
/// A game of no variant given, a move that does not replay, or a start the format cannot write.
pub(crate) fn selfplay_text(
    variants: &[&Variant],
    games: &mut [crate::selfplay::GameRecord],
    format: Format,
) -> Result<String, RecordError> {
    games.sort_by_key(|g| g.index);
    let mut out = String::new();
    for g in games.iter() {
        let v =
            variants.iter().find(|v| v.name() == g.variant).ok_or_else(|| format!("game {}: variant {} not loaded", g.index, g.variant))?;
        let mut pos = v.start();
        let mut moves = Vec::with_capacity(g.moves.len());
        // (The text of each move as self-play wrote it: boardlab's own.)
        for t in &g.moves {
            moves.push(v.play(&mut pos, t).map_err(|e| format!("game {}: {t}: {e}", g.index))?);
        }
        let _ = v.take_output();
        let seat = |e: &str| if e.is_empty() { "?".to_string() } else { e.to_string() };
        let header = Header {
            event: format!("boardlab selfplay {}", g.variant),
            round: (g.index + 1).to_string(),
            players: [seat(&g.first), seat(&g.second)],
        };
        let options: Vec<(String, String)> = g.options.iter().map(|(k, x)| (k.clone(), x.clone())).collect();
        out.push_str(&game_text(v, format, (&v.start(), &moves), &options, &header)?);
    }
    Ok(out)
}

/// Reads a PGN or PDN file (at most [`crate::record::MAX_RECORD_BYTES`]) as records.
///
/// # Errors
/// The file cannot be read, or [`read`]'s errors, with the file's name.
pub(crate) fn load(path: &Path, format: Format) -> Result<Vec<Record>, RecordError> {
    let text =
        crate::files::read_to_string_limited(path, crate::record::MAX_RECORD_BYTES).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(read(&text, format).map_err(|e| format!("{}: {e}", path.display()))?)
}

/// The first game of a PGN or PDN file (the REPL's `load`).
///
/// # Errors
/// As for [`load`].
pub(crate) fn load_first(path: &Path, format: Format) -> Result<Record, RecordError> {
    let text =
        crate::files::read_to_string_limited(path, crate::record::MAX_RECORD_BYTES).map_err(|e| format!("{}: {e}", path.display()))?;
    let games = super::pgn::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let first = games.first().ok_or_else(|| format!("{}: {}", path.display(), ReadError::Empty))?;
    Ok(record_of(first, format).map_err(|e| format!("{}: {e}", path.display()))?)
}

/// Why a game cannot be written as PGN or PDN, a PDN FEN read, or a file of games loaded, in
/// words (with the file's name where there is one).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct RecordError(String);

impl From<String> for RecordError {
    fn from(why: String) -> RecordError {
        RecordError(why)
    }
}

impl From<&str> for RecordError {
    fn from(why: &str) -> RecordError {
        RecordError(why.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_extension() {
        assert_eq!(Format::of(Path::new("a/b.PGN")), Format::Pgn);
        assert_eq!(Format::of(Path::new("x.pdn")), Format::Pdn);
        assert_eq!(Format::of(Path::new("x.toml")), Format::Record);
        assert_eq!(Format::of(Path::new("pgn")), Format::Record);
    }
}
