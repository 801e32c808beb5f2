//! Engine protocols: how other programs talk to boardlab's machine player.
//!
//! - [`coords`]: moves in the coordinate form engine protocols use (`e2e4`, `e7e8q`, `P@e4`,
//!   `0000`), translated both ways against the legal moves;
//! - [`inspect`]: `boardlab fen`, a position's FEN and legal moves in UCI form for scripts;
//! - [`uci`]: the UCI loop (`boardlab uci`), for chess GUIs and clients such as python-chess,
//!   with USI's dialect of it ([`usi`]: `boardlab usi`, for shogi GUIs), positions in SFEN
//!   ([`sfen`]).
//!
//! The other side, boardlab as a client of another engine (`uci:PATH` players), is
//! [`crate::ai::external`].
//!
//! The protocol documentation for users is `docs/protocols.md`.

pub mod coords;
pub(crate) mod inspect;
pub(crate) mod sfen;
pub(crate) mod uci;
pub(crate) mod usi;
