//! boardlab: a workbench for designers of abstract board games.
//!
//! A game is data: a TOML variant file (board, pieces, movement forms, capture policy, end
//! conditions, options) plus an optional Rhai script for what data cannot say. This crate loads
//! it once into a validated [`Ruleset`], and plays it with a generic kernel: move generation,
//! make/undo, notation, perft, and a REPL.
//!
//! The modules, in the order data flows through them:
//! - [`geometry`]: cells, directions, neighbour tables, zones;
//! - [`piece`]: players, piece kinds, [`ByPlayer`];
//! - [`rules`]: TOML → [`Ruleset`], with diagnostics;
//! - [`variant`]: finding variant files, `extends`, options, the script: a playable [`Variant`];
//! - [`state`]: [`Position`], make/undo, hashing;
//! - [`movegen`]: legal moves, capture chains, continuations, why a move is illegal;
//! - [`outcome`]: results and their reasons;
//! - [`notation`]: moves and positions as text;
//! - [`script`]: the Rhai host and the script API;
//! - [`render`]: boards for a person;
//! - [`perft`], [`scenario`], [`session`], [`repl`], [`cli`]: the tools built on top.

// Load errors carry the file's text for their diagnostic; they are cold-path values returned
// once per load, so their size does not matter.
#![allow(clippy::result_large_err)]

pub mod ai;
pub mod cli;
pub mod explain;
pub mod geometry;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod piece;
pub mod record;
pub mod render;
pub mod repl;
pub mod rules;
pub mod scenario;
pub mod script;
pub mod selfplay;
pub mod session;
pub mod state;
pub mod variant;
pub mod workflow;

pub use geometry::{Cell, Geometry};
pub use movegen::MoveList;
pub use notation::Move;
pub use outcome::{Outcome, Winner};
pub use piece::{ByPlayer, KindId, Player};
pub use rules::Ruleset;
pub use state::Position;
pub use variant::Variant;
