//! `boardlab usi`: the Universal Shogi Interface, for the shogi family (minishogi, dōbutsu, and
//! any variant the resolver finds: `USI_Variant`), as Fairy-Stockfish speaks it in USI mode.
//!
//! This file holds USI's own parts; the loop is UCI's (`uci::run_dialect` with
//! [`Dialect::Usi`], which `boardlab usi` runs): `usi`/`usiok`,
//! `usinewgame`, `position sfen …` ([`super::sfen`]), moves in USI coordinates
//! ([`super::coords::Dialect::Usi`]: `7g7f`, `P*5e`, `2b3c+`), `go btime/wtime/binc/winc`
//! where `b` is the first player (sente), `byoyomi`, `mate` in plies, and `bestmove resign` or
//! `bestmove win` where UCI says `(none)`. The commands are documented in `docs/protocols.md`.

use crate::outcome::Winner;
use crate::state::Position;
use crate::variant::Variant;

/// The variant played until `setoption name USI_Variant` says otherwise.
pub(crate) const DEFAULT_VARIANT: &str = "minishogi";

/// `bestmove`'s word when the player to move has no move: `win` when the game is over and won
/// by that player (its opponent's last move lost it, or a rule such as the lion's try), else
/// `resign`.
pub(crate) fn no_move(v: &Variant, pos: &Position) -> &'static str {
    let over = pos.result().cloned().or_else(|| v.outcome(&mut pos.clone()).ok().flatten());
    match over {
        Some(o) if o.winner == Winner::Player(pos.side()) => "win",
        _ => "resign",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::coords::{self, Dialect};

    /// Runs a session: the lines in, what came out.
    fn session(script: &str) -> String {
        let mut out = Vec::new();
        // The loop is UCI's, in USI's dialect (as `boardlab usi` runs it).
        let input = Box::new(std::io::Cursor::new(script.to_string().into_bytes()));
        crate::protocol::uci::run_dialect(Dialect::Usi, input, &mut out, false).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn usi_coordinates_number_files_from_the_right_and_letter_ranks_from_the_top() {
        let v = Variant::load("minishogi", &[]).unwrap();
        let g = &v.rules.geometry;
        let mut pos = v.start();
        // Sente's rook on e1 (bottom right, as sente sees the board) is USI's 1e; its step
        // to e2 is 1e1d.
        let m = v.find_move(&mut pos, "e1-e2").unwrap();
        assert_eq!(coords::text_in(Dialect::Usi, &m, g), "1e1d");
        // Gote's king on e5 is 1a; a5 (gote's rook) is 5a.
        assert_eq!(Dialect::Usi.cell(g.parse_cell("e5").unwrap().0, g), "1a");
        assert_eq!(Dialect::Usi.cell(g.parse_cell("a5").unwrap().0, g), "5a");
    }

    #[test]
    fn a_promotion_without_a_choice_is_written_with_a_plus() {
        // Sente's pawn on e4 (USI 1b) must promote on e5 (1a): the kernel's move has no choice
        // to write, but USI (and Fairy-Stockfish) write it 1b1a+. Found in an arena against
        // Fairy-Stockfish, where the missing `+` made it drop the rest of the moves sent.
        let v = Variant::load("minishogi", &[]).unwrap();
        let mut pos = crate::fen::read(&v.rules, "2k2/4P/5/5/KGSBR[] w - - 0 1").unwrap();
        let m = v.find_move(&mut pos, "e4-e5").unwrap();
        assert!(coords::promotes_alone(&v.rules, &pos, &m));
        assert_eq!(coords::text_at(Dialect::Usi, &m, &v.rules, &pos), "1b1a+");
        let mut legal = Vec::new();
        v.legal_moves(&mut pos, &mut legal).unwrap();
        for text in ["1b1a+", "1b1a"] {
            assert_eq!(coords::find_at(Dialect::Usi, text, &legal, &v.rules, &pos), Ok(m), "{text}");
        }
        // A move that does not promote takes no `+`.
        let rook = v.find_move(&mut pos, "e1-e2").unwrap();
        assert_eq!(coords::text_at(Dialect::Usi, &rook, &v.rules, &pos), "1e1d");
        assert!(coords::find_at(Dialect::Usi, "1e1d+", &legal, &v.rules, &pos).is_err());
    }

    #[test]
    fn a_usi_session_plays_sfen_positions_and_drops() {
        let out = session("usi\nisready\nusinewgame\nposition startpos moves 1e1d\ngo depth 1\nquit\n");
        assert!(out.contains("option name USI_Variant type combo default minishogi") && out.contains("usiok"), "{out}");
        assert!(out.contains("readyok"), "{out}");
        let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap();
        // Gote's reply, in USI coordinates: file digit, rank letter, twice (or a drop).
        assert!(best.len() >= 4 && best.as_bytes()[0].is_ascii_digit() && best.as_bytes()[1].is_ascii_lowercase(), "{best}");
        // A position with a pawn in sente's hand: its drop is written P*…, and read back.
        let out = session("position sfen 2k2/5/5/5/2K2 b P 1\ngo perft 1\nposition sfen 2k2/5/5/5/2K2 b P 1 moves P*3c\ngo perft 1\n");
        assert!(out.contains("P*3c: 1"), "{out}");
        assert!(!out.contains("info string"), "{out}");
        // The end of a game: sente's king on 5e (a1) mated by a gold on 5d that gote's silver on
        // 4c guards; sente to move answers `resign`.
        assert_eq!(session("position sfen 4k/5/1s3/g4/K4 b - 1\ngo depth 1\n").lines().last(), Some("bestmove resign"));
    }
}
