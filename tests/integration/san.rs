//! SAN typed where moves are typed: `--moves` and the REPL (expected positions from
//! python-chess's `Board.push_san` and `Board.fen()`).

use boardlab::{Session, Style};

#[test]
fn moves_flag_reads_san() {
    let o = crate::binary(&["position", "chess", "--format", "fen", "--moves", "e4 e5 Nf3 Nc6 Bb5 a6 O-O"], "", &crate::scratch("san"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8(o.stdout).unwrap().trim(), "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 1 4");
    // An ambiguous SAN says which moves it could be, and exits 2.
    let o = crate::binary(&["moves", "chess", "--moves", "d4 d5 Nf3 Nf6 Nd2"], "", &crate::scratch("san"));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("move 5 (Nd2)") && err.contains("b1-d2, f3-d2"), "{err}");
}

#[test]
fn the_repl_reads_san() {
    let mut s = Session::new("chess", &[], Style::PLAIN).unwrap();
    for m in [
        "e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "d4", "Nf6", "Nf3", "c6", "Bc4", "Bf5", "Ne5", "e6", "g4", "Bg6", "h4", "Nbd7", "Nxd7",
        "Nxd7", "h5", "Be4", "Rh3",
    ] {
        s.execute(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    // python-chess, the same moves: Board.fen().
    let fen = boardlab::fen::write(&s.variant.rules, &s.pos).unwrap();
    assert_eq!(fen, "r3kb1r/pp1n1ppp/2p1p3/q6P/2BPb1P1/2N4R/PPP2P2/R1BQK3 b Qkq - 2 12");
    let before = s.pos.clone();
    assert!(s.execute("Qd9").is_err());
    assert!(s.execute("Ng8").unwrap_err().to_string().contains("names no legal move"));
    assert_eq!(s.pos, before);
}
