//! `boardlab fen`: a position as other programs see it — its FEN and its legal moves in UCI
//! form — for scripts that compare boardlab with another engine move by move (the
//! Fairy-Stockfish round trips of `scripts/fen_oracle_test.py`).
//!
//! The moves given are read in UCI form (`e2e4`, `P@e4`, `0000`; [`super::coords`]) or, failing
//! that, in boardlab's notation, so a script can replay another engine's moves unchanged.

use super::coords;
use crate::script::ScriptError;
use crate::state::{Position, PositionError};
use crate::variant::{PlayError, Variant};

/// Why `boardlab fen` cannot report a position.
#[derive(Debug, thiserror::Error)]
pub(crate) enum InspectError {
    /// A move given is not legal: its number from 1, its text (quoted, shortened) and why.
    #[error("move {n} `{text}`: {why}")]
    Move { n: usize, text: String, why: PlayError },
    /// The variant has no FEN (its pieces carry attributes).
    #[error(transparent)]
    Fen(#[from] PositionError),
    #[error(transparent)]
    Script(#[from] ScriptError),
}

/// Plays `moves` (UCI form, else boardlab's notation) from `pos`.
///
/// # Errors
/// The first move that is not legal, numbered from 1, and why; `pos` is then where that move
/// was tried.
pub(crate) fn play_moves(v: &Variant, pos: &mut Position, moves: &[String]) -> Result<(), InspectError> {
    let mut legal = Vec::new();
    for (i, t) in moves.iter().enumerate() {
        v.legal_moves(pos, &mut legal)?;
        let m = match coords::find(t, &legal, &v.rules.geometry) {
            Ok(m) => m,
            Err(_) => v.find_move(pos, t).map_err(|why| InspectError::Move { n: i + 1, text: crate::files::quote(t), why })?,
        };
        v.make(pos, &m)?;
    }
    Ok(())
}

/// The report `boardlab fen` prints (docs/cli.md): the FEN; the legal moves in UCI form, sorted,
/// on one line (empty when there are none); and for a finished game a third line,
/// `result: …`.
///
/// # Errors
/// The variant has no FEN (its pieces carry attributes), or a script hook failed.
pub(crate) fn report(v: &Variant, pos: &mut Position) -> Result<String, InspectError> {
    let fen = crate::fen::write(&v.rules, pos)?;
    let mut legal = Vec::new();
    v.legal_moves(pos, &mut legal)?;
    let mut texts: Vec<String> = legal.iter().map(|m| coords::text(m, &v.rules.geometry)).collect();
    texts.sort();
    let mut out = format!("{fen}\n{}\n", texts.join(" "));
    // A declared result, or what having no move means (checkmate, stalemate).
    if let Some(r) = v.outcome(pos)? {
        out.push_str(&format!("result: {}\n", r.describe(&v.rules.player_names)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_and_boardlab_moves_both_play() {
        let v = Variant::load("chess", &[]).unwrap();
        let mut pos = v.start();
        play_moves(&v, &mut pos, &["e2e4".into(), "e7-e5".into(), "Nf3".into()]).unwrap();
        let r = report(&v, &mut pos).unwrap();
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines[0], "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
        // Black's 29 replies after 1.e4 e5 2.Nf3 (python-chess counts 29 too).
        assert_eq!(lines[1].split(' ').count(), 29, "{}", lines[1]);
        assert!(lines[1].split(' ').any(|m| m == "b8c6") && lines.len() == 2);
        let e = play_moves(&v, &mut pos, &["a1a5".into()]).unwrap_err().to_string();
        assert!(e.starts_with("move 1 `a1a5`"), "{e}");
    }

    #[test]
    fn a_finished_game_says_so() {
        let v = Variant::load("chess", &[]).unwrap();
        let mut pos = v.start();
        play_moves(&v, &mut pos, &["f2f3", "e7e5", "g2g4", "d8h4"].map(String::from)).unwrap();
        let r = report(&v, &mut pos).unwrap();
        assert_eq!(r, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n\nresult: black wins: checkmate\n");
    }
}
