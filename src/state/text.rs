//! The position line (the module docs of [`crate::notation`] give its form): a position written
//! as one line of text, and read back. A FEN is read by [`crate::fen`], which also holds
//! `Position::from_text`, the reader of either.

use super::{Choices, Continuation, ContinuationKind, Position, PositionError};
use crate::notation::MoveText;
use crate::outcome::Outcome;
use crate::piece::{ByPlayer, PieceCode, Player};
use crate::rules::Ruleset;
use std::sync::Arc;

/// The most prisoners a position text may give a player.
const MAX_PRISONERS: u32 = 1_000_000;

impl Position {
    /// The one-line position text (see [`crate::notation`]).
    pub fn to_text(&self, rules: &Ruleset) -> String {
        let g = &rules.geometry;
        let sym = |c: PieceCode| rules.symbol(c);
        let ka = |c: PieceCode| rules.kind(c.kind()).attributes.clone();
        let mut s = crate::board_text::board_text(g, &self.board, &self.attrs, self.nattr, &sym, &ka);
        s.push(' ');
        s.push_str(rules.player_name(self.side));
        s.push_str(&format!(" {}", self.ply));
        if !rules.counters.is_empty() {
            let parts: Vec<String> = rules
                .counters
                .iter()
                .enumerate()
                .map(|(i, (n, _))| format!("{n}:{}:{}", self.counters[i].0[0], self.counters[i].0[1]))
                .collect();
            s.push_str(&format!(" counters={}", parts.join(",")));
        }
        if let Some(c) = &self.cont {
            let moves: Vec<String> = c.moves.iter().map(|m| m.text(g)).collect();
            s.push_str(&format!(
                " cont={}:{}:{}:{}:{}",
                rules.player_name(c.player),
                rules.player_name(c.turn),
                c.tag,
                if c.normal { "normal" } else { "only" },
                moves.join(",")
            ));
        }
        if let Some((at, piece)) = self.en_passant {
            s.push_str(&format!(" ep={}/{}", g.name(crate::geometry::Cell(at)), g.name(crate::geometry::Cell(piece))));
        }
        if self.clock > 0 {
            s.push_str(&format!(" clock={}", self.clock));
        }
        if self.prisoners != ByPlayer::new(0, 0) {
            s.push_str(&format!(" prisoners={}:{}", self.prisoners[Player::FIRST], self.prisoners[Player::SECOND]));
        }
        if self.castle.any() {
            let rooks: Vec<&str> = self.castle.iter().map(|(_, _, r)| g.name(crate::geometry::Cell(r))).collect();
            s.push_str(&format!(" castle={}", rooks.join(",")));
        }
        let gates = self.gates[Player::FIRST] | self.gates[Player::SECOND];
        if gates != 0 {
            let cells: Vec<&str> =
                crate::cellset::CellSet::from_bits(gates).into_iter().map(|c| g.name(crate::geometry::Cell(c))).collect();
            s.push_str(&format!(" gates={}", cells.join(",")));
        }
        if let Some(sw) = &rules.sowing {
            // Sowing: the seeds of each cell of the track in its declared order, then of the
            // stores not on it.
            let counts: Vec<String> = sw.listed.iter().map(|&c| self.seeds[c as usize].to_string()).collect();
            s.push_str(&format!(" seeds={}", counts.join(",")));
        }
        if let Some(r) = &self.result {
            s.push_str(&format!(" result=\"{}\"", r.describe(&rules.player_names)));
        }
        s
    }

    /// Reads a position line (not a FEN: `Position::from_text`, in [`crate::fen`], reads
    /// either); its repetition history starts empty (just itself). A finished game's text
    /// carries its result (`result=`); a text without one is taken as written (a designer's test
    /// position may lack what a game has, such as a royal piece).
    ///
    /// # Errors
    /// The field that is wrong, and why.
    pub(crate) fn from_line(rules: &Ruleset, text: &str) -> Result<Position, PositionError> {
        crate::notation::check_length("the position text", text, crate::notation::MAX_POSITION_TEXT)
            .map_err(|e| PositionError(e.to_string()))?;
        let bad = |m: String| PositionError(m);
        let fields = crate::board_text::split_fields(text);
        if fields.len() < 2 {
            return Err(bad("a position is BOARD SIDE [PLY] [fields…]".into()));
        }
        let lookup = |ch: char| rules.code_of_symbol(ch);
        let ka = |c: PieceCode| rules.kind(c.kind()).attributes.clone();
        let (board, attrs) =
            crate::board_text::parse_board(&rules.geometry, &fields[0], &lookup, &ka, rules.nattr()).map_err(|e| bad(e.0))?;
        let side = player(rules, &fields[1].to_ascii_lowercase())?;
        let counters = rules.counters.iter().map(|&(_, v)| ByPlayer::new(v, v)).collect();
        let seeds = rules.sowing.as_ref().map_or_else(Vec::new, |s| s.start.clone());
        let mut p = Position { board, attrs, nattr: rules.nattr(), counters, side, seeds, ..Position::default() };
        let mut rest = &fields[2..];
        if let Some(first) = rest.first()
            && let Ok(ply) = first.parse::<u32>()
        {
            if ply > MAX_TEXT_PLY {
                return Err(bad(format!("the ply {ply} is past the limit of {MAX_TEXT_PLY}")));
            }
            p.ply = ply;
            rest = &rest[1..];
        }
        for f in rest {
            let (k, v) = f.split_once('=').ok_or_else(|| bad(format!("`{f}` is not a key=value field", f = crate::files::quote(f))))?;
            match k {
                "counters" => p.read_counters(rules, v)?,
                "cont" => p.cont = Some(continuation(rules, v)?),
                "result" => p.result = Some(result(rules, v)?),
                "ep" => {
                    // `ep=d3/d4`: the cell open to an en passant capture, and the piece's cell.
                    let cell = |t: &str| {
                        rules
                            .geometry
                            .parse_cell(t)
                            .map(|c| c.0)
                            .map_err(|_| bad(format!("`{t}` is not a cell", t = crate::files::quote(t))))
                    };
                    let (at, piece) = v.split_once('/').ok_or_else(|| {
                        bad(format!("ep={v}: write ep=CELL/CELL (the cell passed, the piece's cell)", v = crate::files::quote(v)))
                    })?;
                    let (at, piece) = (cell(at)?, cell(piece)?);
                    if !p.board[at as usize].is_empty() || p.board[piece as usize].is_empty() {
                        return Err(bad(format!(
                            "ep={v}: the cell passed must be empty and the piece's cell hold a piece",
                            v = crate::files::quote(v)
                        )));
                    }
                    p.en_passant = Some((at, piece));
                }
                "castle" => p.read_castle(rules, v)?,
                "gates" => p.read_gates(rules, v)?,
                "seeds" => p.read_seeds(rules, v)?,
                "prisoners" => p.read_prisoners(rules, v)?,
                "clock" => {
                    p.clock =
                        v.parse().map_err(|_| bad(format!("clock={v}: the clock is a count of plies", v = crate::files::quote(v))))?;
                    if rules.clock.is_none() {
                        return Err(bad(format!(
                            "clock={v}: this variant has no quiet_moves rule to count for",
                            v = crate::files::quote(v)
                        )));
                    }
                }
                other => return Err(bad(format!("unknown position field `{other}`", other = crate::files::quote(other)))),
            }
        }
        p.rehash(rules);
        p.history.push(p.hash);
        p.recorded_total = p.total();
        Ok(p)
    }

    /// `seeds=4,4,…`: the seeds of each cell of the sowing track, in its declared order.
    fn read_seeds(&mut self, rules: &Ruleset, v: &str) -> Result<(), PositionError> {
        let bad = |m: String| PositionError(m);
        let sw = rules.sowing.as_ref().ok_or_else(|| bad("seeds=…: this variant does not sow".into()))?;
        let counts: Vec<&str> = v.split(',').collect();
        if counts.len() != sw.listed.len() {
            return Err(bad(format!("seeds=…: {} counts, one for each of the {} pits and stores", counts.len(), sw.listed.len())));
        }
        let mut total = 0u32;
        for (&c, n) in sw.listed.iter().zip(counts) {
            let n: u16 = n.trim().parse().map_err(|_| bad(format!("seeds=…: `{}` is not a count of seeds", crate::files::quote(n))))?;
            total += u32::from(n);
            if total > crate::rules::sowing::MAX_SEEDS {
                return Err(bad(format!("seeds=…: more than {} seeds in all", crate::rules::sowing::MAX_SEEDS)));
            }
            self.seeds[c as usize] = n;
        }
        Ok(())
    }

    /// `prisoners=3:1`: the opponent's pieces each player took, the first player's first.
    fn read_prisoners(&mut self, rules: &Ruleset, v: &str) -> Result<(), PositionError> {
        let bad = |m: String| PositionError(m);
        if !rules.score.as_ref().is_some_and(crate::rules::Score::keeps_prisoners) {
            return Err(bad(format!("prisoners={}: this variant's count has no points_prisoners", crate::files::quote(v))));
        }
        let form = || {
            bad(format!("prisoners={}: write prisoners=N:M (pieces each player took, the first player's first)", crate::files::quote(v)))
        };
        let (a, b) = v.split_once(':').ok_or_else(form)?;
        let n = |t: &str| t.parse::<u32>().ok().filter(|&n| n <= MAX_PRISONERS).ok_or_else(form);
        self.prisoners = ByPlayer::new(n(a)?, n(b)?);
        Ok(())
    }

    /// `gates=b1,c1,g8`: the gates ([`crate::rules::Gating`]), each its piece's player's.
    fn read_gates(&mut self, rules: &Ruleset, v: &str) -> Result<(), PositionError> {
        let bad = |m: String| PositionError(m);
        let g = rules.drops.gating.as_ref().ok_or_else(|| bad("gates=…: this variant has no gated pieces".into()))?;
        let mut gates = ByPlayer::new(0u128, 0);
        for t in v.split(',').filter(|t| !t.is_empty() && *t != "-") {
            let quoted = (crate::files::quote(v), crate::files::quote(t));
            let c = rules.geometry.parse_cell(t).map_err(|_| bad(format!("gates={}: `{}` is not a cell", quoted.0, quoted.1)))?.0;
            let code = self.board[c as usize];
            if code.is_empty() || g.cells[code.owner()] & 1 << c == 0 {
                return Err(bad(format!("gates={}: {} holds no piece on a cell its player's gated kinds enter by", quoted.0, quoted.1)));
            }
            gates[code.owner()] |= 1 << c;
        }
        self.gates = gates;
        self.gating = true;
        Ok(())
    }

    /// `castle=h1,a1,h8`: the rooks that may still castle (each beside its own king, on its
    /// rank).
    fn read_castle(&mut self, rules: &Ruleset, v: &str) -> Result<(), PositionError> {
        let bad = |m: String| PositionError(m);
        let c = rules.castling.as_ref().ok_or_else(|| bad("castle=…: this variant has no castling".into()))?;
        let g = &rules.geometry;
        for t in v.split(',').filter(|t| !t.is_empty() && *t != "-") {
            let r = g
                .parse_cell(t)
                .map_err(|_| bad(format!("castle={v}: `{t}` is not a cell", v = crate::files::quote(v), t = crate::files::quote(t))))?
                .0;
            let rook = self.board[r as usize];
            if rook.is_empty() || !c.rooks.contains(rook.kind()) {
                return Err(bad(format!(
                    "castle={v}: no piece that castles stands on {t}",
                    v = crate::files::quote(v),
                    t = crate::files::quote(t)
                )));
            }
            let p = rook.owner();
            let king = c.king_on_rank(g, &self.board, p, r).ok_or_else(|| {
                bad(format!("castle={v}: no king of its side on the rank of {t}", v = crate::files::quote(v), t = crate::files::quote(t)))
            })?;
            let side = if g.coords(crate::geometry::Cell(r)).0 > g.coords(crate::geometry::Cell(king)).0 {
                crate::rules::castling::EAST
            } else {
                crate::rules::castling::WEST
            };
            if c.sides[side].is_none() {
                return Err(bad(format!(
                    "castle={v}: this variant does not castle on the side of {t}",
                    v = crate::files::quote(v),
                    t = crate::files::quote(t)
                )));
            }
            self.castle.set(p, side, r);
        }
        Ok(())
    }

    /// `counters=name:first:second,…`.
    fn read_counters(&mut self, rules: &Ruleset, v: &str) -> Result<(), PositionError> {
        for part in v.split(',') {
            let bits: Vec<&str> = part.split(':').collect();
            if bits.len() != 3 {
                return Err(PositionError(format!("`{part}`: a counter is name:first:second", part = crate::files::quote(part))));
            }
            let slot =
                rules.counter_slot(bits[0]).ok_or_else(|| PositionError(format!("`{}` is not a counter", crate::files::quote(bits[0]))))?;
            for (i, b) in bits[1..].iter().enumerate() {
                self.counters[slot as usize].0[i] = crate::board_text::parse_i32(b).map_err(|e| PositionError(e.to_string()))?;
            }
        }
        Ok(())
    }
}

/// The largest ply a position text may give (games go on from it without overflowing).
const MAX_TEXT_PLY: u32 = 10_000_000;

fn player(rules: &Ruleset, text: &str) -> Result<Player, PositionError> {
    rules.parse_player(text).ok_or_else(|| PositionError(format!("`{text}` is not a player", text = crate::files::quote(text))))
}

/// `cont=PLAYER:TURN:TAG:normal|only:MOVES`.
fn continuation(rules: &Ruleset, v: &str) -> Result<Continuation, PositionError> {
    let bits: Vec<&str> = v.splitn(5, ':').collect();
    if bits.len() != 5 {
        return Err(PositionError("cont is PLAYER:TURN:TAG:normal|only:MOVES".into()));
    }
    let normal = match bits[3] {
        "normal" => true,
        "only" => false,
        o => return Err(PositionError(format!("`{o}`: expected normal or only", o = crate::files::quote(o)))),
    };
    let mut moves = Choices::new();
    for m in bits[4].split(',').filter(|m| !m.is_empty()) {
        let text = MoveText::parse(m, &rules.geometry).map_err(|e| PositionError(e.to_string()))?;
        if let MoveText::Drop { .. } | MoveText::Castle { .. } = text {
            return Err(PositionError(format!("`{m}`: a continuation cannot list a drop or castling", m = crate::files::quote(m))));
        }
        moves.push(text.capturing_at_landings());
    }
    let (tag, kind) = (Arc::from(bits[2]), ContinuationKind::of_tag(bits[2], &rules.geometry));
    Ok(Continuation { player: player(rules, bits[0])?, turn: player(rules, bits[1])?, tag, kind, moves, normal })
}

/// `result="white wins: reason"`, `result="white wins by 3.5: reason"` (a count's margin) or
/// `result="draw: reason"`.
fn result(rules: &Ruleset, v: &str) -> Result<Outcome, PositionError> {
    let form = || PositionError("result is \"white wins: reason\", \"white wins by 3.5: reason\" or \"draw: reason\"".into());
    let (who, reason) = v.trim_matches('"').split_once(": ").ok_or_else(form)?;
    if who == "draw" {
        return Ok(Outcome::draw(reason));
    }
    let (who, margin) = match who.split_once(" wins by ") {
        Some((w, m)) => {
            // Half points: `3.5` is 7, `12` is 24.
            let halves = match m.split_once('.') {
                Some((i, "5")) => i.parse::<u32>().ok().and_then(|i| i.checked_mul(2)?.checked_add(1)),
                Some(_) => None,
                None => m.parse::<u32>().ok().and_then(|i| i.checked_mul(2)),
            };
            (w, Some(halves.ok_or_else(form)?))
        }
        None => (who.strip_suffix(" wins").ok_or_else(form)?, None),
    };
    Ok(Outcome::win(player(rules, who)?, reason).by(margin))
}
