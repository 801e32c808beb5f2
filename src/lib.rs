//! boardlab: a workbench for designers of abstract board games.
//!
//! A game is data: a TOML variant file (board, pieces, movement forms, capture policy, end
//! conditions, options) plus an optional Rhai script for what data cannot say. This crate loads
//! it once into a validated [`Ruleset`], and plays it with a generic kernel: move generation,
//! make/undo, notation, perft, machine players, self-play, and a REPL.
//!
//! The modules, in the order data flows through them (each depends only on those above it):
//! - a leaf: `cache` (hints to the memory system: a prefetch);
//! - vocabulary: `geometry` (cells, directions, zones), `cellset` (sets of cells), `piece` (players, kinds, [`ByPlayer`]),
//!   `outcome` (results and their reasons);
//! - [`rules`]: TOML → [`Ruleset`], with diagnostics; movement forms, end conditions and hooks
//!   each in one module;
//! - [`notation`]: moves and boards as text, [`san`] (chess's algebraic moves, read against the legal moves and written), [`numbered`] (draughts' numbered squares), [`fen`] for chess-like variants (below the rules: `board_text`, the board of setup rows and position lines); `state`: [`Position`], make/undo, hashing, the position line;
//! - `movegen`: legal moves and capture chains; `explain`: why a move is illegal
//!   ([`IllegalReason`]);
//! - [`script`]: the Rhai host and the script API;
//! - `variant`: a playable [`Variant`] (files found, `extends`, options, script, hooks);
//! - `render`: boards for a person; [`diagram`]: boards as SVG and PNG pictures; [`perft`]
//!   (and `placewalk`: the walk of placements on the cell sets, for perft and self-play);
//!   [`scenario`] files;
//! - the tools on top: [`ai`] (machine players: the engine grammar, the evaluation, the
//!   searches), [`solve`] (a position's value with perfect play, proved), [`selfplay`] (studies, reports, and in `selfplay::quality` what the games say
//!   about the variant: game-quality metrics and the opening table), [`arena`] (engines against each other: score, Elo, seconds per
//!   move, on self-play's machinery), `sweep` (one study per setting of some options, ranked by a metric), `tune` (the evaluation's numbers fitted to self-play results), `record` (game records), [`records`] (moves in the variant's notation; PGN and PDN), `autosave` (the REPL's autosaves:
//!   order, locks, pruning),
//!   `session` (the I/O-free REPL session) and [`repl`] (its shell), [`serve`] (the board in the
//!   browser and its JSON API), [`workflow`] (the
//!   designer's loop), [`diff`] (where two rule sets behave differently), [`check`] (a variant
//!   under every option setting, its script's calls and names), [`cli`] (the command line);
//!   [`protocol`]: engine protocols (`boardlab uci`) and their move form;
//!   [`interrupt`]: Ctrl-C stops a command, not the program; [`progress`]: how far a long
//!   command is, on a terminal; [`files`]: every file written the way its type asks (devices,
//!   FIFOs and links kept), bounded reads, input quoted short.
//!
//! Text formats and tools with a vocabulary of their own are public modules; everything else is
//! re-exported here, flat, for the binary, the tests and the benches: crate code names an item
//! from its defining module (the test `layers` holds the order and that rule).

// Load errors carry the file's text for their diagnostic; they are cold-path values returned
// once per load, so their size does not matter.
#![allow(clippy::result_large_err)]

mod board_text;
mod cache;
mod cellset;
mod geometry;
mod outcome;
mod piece;
mod rules;

pub mod fen;
pub mod notation;
mod numbered;
mod san;
mod state;

mod attack;
mod explain;
mod movegen;
mod placewalk;
mod plan;
pub mod script;

pub mod diagram;
mod render;
mod variant;

pub mod ai;
mod arena;
mod autosave;
mod check;
pub mod cli;
pub mod diff;
pub mod files;
mod interrupt;
pub mod perft;
mod progress;
pub mod protocol;
mod record;
mod records;
pub mod repl;
pub mod scenario;
pub mod selfplay;
pub mod serve;
mod session;
pub mod solve;
mod sweep;
mod tune;
pub mod workflow;

pub use ai::Engine;
#[cfg(test)]
pub(crate) use geometry::Cell;
pub use movegen::MoveList;
pub use notation::Move;
pub use outcome::{Outcome, Winner};
pub use piece::Player;
pub use record::Record;
pub use render::Style;
pub use session::{COMMANDS, Effect, Session};
pub use state::Position;
pub use variant::{Variant, shipped_names};
