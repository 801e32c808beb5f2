//! The command line: raw arguments → a command → output on standard output, errors returned
//! once to `main` with their exit code. The contract other tools rely on (what `moves`,
//! `perft`, `show` and `position` print, and the exit codes) is `docs/cli.md`.

use crate::perft;
use crate::render::{self, Style};
use crate::state::Position;
use crate::variant::{self, Variant};
use clap::{Args, Parser, Subcommand};
use std::io::Write;

#[derive(Parser, Debug)]
#[command(
    name = "boardlab",
    version,
    about = "A workbench for abstract board game designers: rules as data, a REPL, perft and snapshot tests."
)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
}

/// The variant and the position every game command works on.
#[derive(Args, Debug, Clone)]
pub(crate) struct Game {
    /// A variant: a name (looked up as `boardlab list` shows), a folder, or a .toml file.
    pub(crate) variant: String,
    /// Moves to play from the start (or from --position), separated by spaces or commas.
    #[arg(long, default_value = "")]
    pub(crate) moves: String,
    #[command(flatten)]
    pub(crate) sets: Sets,
    /// Start from this position text (or a FEN) instead of the initial position.
    #[arg(long)]
    pub(crate) position: Option<String>,
    /// Start from this FEN (chess-like variants: docs/variant-format.md, FEN).
    #[arg(long, conflicts_with = "position")]
    pub(crate) fen: Option<String>,
}

/// `--set NAME=VALUE`, repeatable: option overrides.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct Sets {
    /// Override an option: NAME=VALUE (repeatable; `diff` and `selfplay --compare` set it for
    /// both rule sets).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) set: Vec<String>,
}

impl Sets {
    /// The overrides as (name, value) pairs.
    ///
    /// # Errors
    /// An item without `=`.
    pub(crate) fn pairs(&self) -> Result<Vec<(String, String)>, CliError> {
        parse_sets(&self.set)
    }
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// List the shipped variants.
    List,
    /// Speak UCI on standard input and output: a chess GUI or a client such as python-chess
    /// plays boardlab's machine player in any variant found (`UCI_Variant`; docs/protocols.md).
    Uci,
    /// Speak USI on standard input and output, for shogi GUIs: the shogi family (`USI_Variant`,
    /// minishogi by default; docs/protocols.md).
    Usi,
    /// Print the legal moves, one per line, sorted.
    Moves(Game),
    /// Print the FEN, then the legal moves in UCI form on one line, then `result: …` for a
    /// finished game; --moves may be in UCI form (`e2e4`, `P@e4`) (docs/cli.md).
    Fen(Game),
    /// Count the leaf nodes of the move tree to DEPTH.
    Perft {
        #[command(flatten)]
        game: Game,
        /// At most 64 (`perft::MAX_DEPTH`).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=perft::MAX_DEPTH as i64))]
        depth: u32,
        /// First print `MOVE: COUNT` for each legal move.
        #[arg(long)]
        divide: bool,
        /// Make and unmake every leaf, hooks included (the same count; a measure of make/undo
        /// rather than of move generation; on the walk of placements where perft takes it, see
        /// --general).
        #[arg(long)]
        made: bool,
        /// Share the root moves out over this many threads (the same count).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=perft::MAX_THREADS as i64))]
        threads: u32,
        /// Walk the tree with the general kernel as the search uses it (positions made and
        /// undone, the last level counted as the search's mobility counts it) even in a game of
        /// placements, where perft walks them on the cell sets (the same count; docs/cli.md).
        #[arg(long)]
        general: bool,
        /// List every move through the reference mode (the simplest code, no shortcut) and
        /// make every leaf: slow, the count every shortcut is held to (docs/cli.md).
        #[arg(long, conflicts_with_all = ["general", "made"])]
        reference: bool,
    },
    /// Show the board, the side to move or the result, and the variant's state; or draw it as
    /// an SVG or PNG picture (docs/diagrams.md).
    Show(ShowArgs),
    /// Print the position as one line of text, or as a FEN.
    Position {
        #[command(flatten)]
        game: Game,
        /// `text` (the position text) or `fen`.
        #[arg(long, default_value = "text", value_parser = ["text", "fen"])]
        format: String,
    },
    /// Load and validate a variant; print problems; exit 2 on errors.
    Check {
        /// A variant: a name (looked up as `boardlab list` shows), a folder, or a .toml file.
        variant: String,
        #[command(flatten)]
        sets: Sets,
        /// Print the fully resolved variant (after `extends`).
        #[arg(long)]
        resolved: bool,
    },
    /// Run the scenarios and perft files of a variant folder (or of every folder in variants/)
    /// against their stored snapshots; print a diff for each change; exit 1 on any failure.
    Test {
        /// A variant folder, or a variant name under variants/.
        target: Option<String>,
        /// Record the new snapshots instead of failing (like `cargo insta accept`).
        #[arg(long)]
        accept: bool,
    },
    /// Create a variant folder NAME that extends VARIANT, with its scenarios and snapshots.
    New {
        /// The new variant's name: a plain folder name (letters, digits, `-`, `_`), created as
        /// ./NAME, or variants/NAME when the current folder has a variants/ folder.
        name: String,
        /// The variant to extend (its options, listed commented out, and its scenarios come along).
        #[arg(long = "from")]
        from: String,
    },
    /// Where two rule sets of one game behave differently: both play the same positions (every
    /// line to --depth, VARIANT_A's scenarios, --games random games) and every move is played
    /// under both; differences are grouped by kind, each with its count and first example.
    Diff {
        /// The rule set called A.
        variant_a: String,
        /// The rule set called B (of the same board and pieces).
        variant_b: String,
        // Options for both variants.
        #[command(flatten)]
        sets: Sets,
        /// Override an option in VARIANT_B only.
        #[arg(long = "set-b", value_name = "NAME=VALUE")]
        set_b: Vec<String>,
        /// Every line from the start to this many plies.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=12))]
        depth: u32,
        /// Seeded random games (up to 300 plies each) along the moves both accept.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=100_000))]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Show the first N kinds of difference in full (default 5).
        #[arg(long, default_value_t = 5)]
        limit: usize,
        /// Show every kind of difference.
        #[arg(long)]
        all: bool,
        /// Stop after comparing this many positions.
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        max_positions: u64,
    },
    /// The machine's evaluation of the position, term by term for each player (docs/ai.md).
    Eval(Game),
    /// The best moves of the position with their scores and expected lines (docs/ai.md).
    #[command(alias = "analyze")]
    Analyse {
        #[command(flatten)]
        game: Game,
        /// The search: ab (the default budget), ab:dDEPTH, ab:NODES, ab:Nms, ab:Ns.
        #[arg(long, default_value = "ab")]
        engine: String,
        /// How many moves to show, best first (each searched with the whole budget).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=crate::ai::analysis::MAX_LINES as u64))]
        lines: u64,
        /// Seeds the order in which equal moves are tried.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Prove the position's value with perfect play: a win or a loss for the player to move, in
    /// how many plies, or a draw; with the best move and line (docs/ai.md).
    Solve {
        #[command(flatten)]
        game: Game,
        /// The table of positions, in MiB.
        #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65_536))]
        memory: u64,
        /// Stop after visiting this many positions.
        #[arg(long, default_value_t = 1_000_000_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
        nodes: u64,
        /// The longest line searched, in plies (a line cut there counts as a draw).
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=crate::solve::MAX_HORIZON as i64))]
        horizon: u32,
    },
    /// Open the REPL (the default command).
    Play {
        /// The variant to start with.
        #[arg(default_value = "basileus")]
        variant: String,
        #[command(flatten)]
        sets: Sets,
        /// Continue an autosaved game: the latest (`--resume`), the N-th latest (`--resume N`),
        /// or list them (`--resume list`). Each REPL session autosaves to a file of its own.
        #[arg(long, num_args = 0..=1, default_missing_value = "latest", value_name = "N|list")]
        resume: Option<String>,
    },
    /// The board in the browser: a local web page to play by hand or against the machine and
    /// step through the game, with its JSON API (docs/web.md).
    Serve {
        /// The variant the page opens with.
        #[arg(default_value = "checkers")]
        variant: String,
        /// The port (0: any free one; default 8765, or a free one when 8765 is taken).
        #[arg(long)]
        port: Option<u16>,
        /// The address to listen on: 127.0.0.1 (this machine only) unless you mean to share it.
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// Play N machine games and report results, lengths, branching and speed.
    Selfplay(Box<SelfplayArgs>),
    /// Merge JSON-lines files written by `selfplay --jsonl` (e.g. shards) into one report.
    Report {
        /// JSON-lines files written by `selfplay --jsonl` (any number, any rule sets).
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Also write the report's SVG picture.
        #[arg(long)]
        svg: Option<std::path::PathBuf>,
        /// Also write the report's picture as PNG.
        #[arg(long)]
        png: Option<std::path::PathBuf>,
        /// The opening table's plies: scores by first move (1) or by first 2 or 3 plies.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
        openings: u8,
        /// Report files of different studies (seeds, players, game counts, edited rules) anyway,
        /// one report per rule set.
        #[arg(long)]
        mixed: bool,
    },
    /// Self-play under every setting of some options (`--set NAME=V1,V2,…`), the same players,
    /// seeds and openings for each, ranked by a metric with 95% intervals (docs/selfplay.md).
    Sweep(Box<SweepArgs>),
    /// Every pair of engines plays N games, colours alternating: wins, draws, losses, score and
    /// Elo with 95% intervals, why games ended, seconds per move (docs/ai.md).
    Arena(ArenaArgs),
    /// Fit the evaluation's values, weights and points (`[ai.eval]`) to the results of self-play games
    /// (Texel's method): print them with the error before and after, and the section to paste,
    /// or write them into the variant's file (docs/ai.md).
    Tune(TuneArgs),
    /// Convert a game record between boardlab's record (TOML), PGN (.pgn, the chess family) and
    /// PDN (.pdn, draughts), told by the files' extensions (docs/protocols.md).
    Convert {
        /// The file read: a boardlab record, or a .pgn/.pdn file (every game in it).
        input: std::path::PathBuf,
        /// The file written (`-`: standard output).
        output: std::path::PathBuf,
    },
}

/// `show`: the game, and the pictures to write instead of printing the board.
#[derive(Args, Debug)]
pub(crate) struct ShowArgs {
    #[command(flatten)]
    pub(crate) game: Game,
    /// Write the board as an SVG picture to FILE (`-`: standard output), atomically.
    #[arg(long, value_name = "FILE")]
    pub(crate) svg: Option<std::path::PathBuf>,
    /// Write the board as a PNG picture to FILE (`-`: standard output), atomically.
    #[arg(long, value_name = "FILE")]
    pub(crate) png: Option<std::path::PathBuf>,
    /// Draw the board from the second player's side (pictures only).
    #[arg(long)]
    pub(crate) flip: bool,
    /// Draw only the board and its coordinates, without the caption (pictures only).
    #[arg(long)]
    pub(crate) no_caption: bool,
}

#[derive(Args, Debug)]
pub(crate) struct StudyArgs {
    #[arg(long, default_value_t = 1000)]
    pub(crate) games: u64,
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// The engine of the first seat (the player who moves first, whatever the variant calls
    /// it): random, mcts:ITER, ab, ab:dDEPTH, ab:NODES (docs/ai.md). Default: random.
    #[arg(long, value_name = "ENGINE")]
    pub(crate) first: Option<String>,
    /// The engine of the second seat, as for --first.
    #[arg(long, value_name = "ENGINE")]
    pub(crate) second: Option<String>,
    /// The engine of the player the variant calls white (the second seat in Othello).
    #[arg(long, value_name = "ENGINE")]
    pub(crate) white: Option<String>,
    /// The engine of the player the variant calls black (the first seat in Othello).
    #[arg(long, value_name = "ENGINE")]
    pub(crate) black: Option<String>,
    /// The engine of a player by the variant's name for it: `--player red=ab:d2` (repeatable).
    #[arg(long, value_name = "NAME=ENGINE")]
    pub(crate) player: Vec<String>,
    /// Threads (default: all cores).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Write one JSON object per game to FILE, each as soon as its game ends.
    #[arg(long)]
    pub(crate) jsonl: Option<std::path::PathBuf>,
    /// Continue a study that was stopped: the games already in FILE (a `--jsonl` file of the
    /// same study) are not played again; new games are appended to it (or go to --jsonl).
    #[arg(long, value_name = "FILE")]
    pub(crate) resume_from: Option<std::path::PathBuf>,
    /// Play only the games whose index is I mod N.
    #[arg(long, value_name = "I/N")]
    pub(crate) shard: Option<String>,
    /// The opening table's plies: scores by first move (1) or by first 2 or 3 plies.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub(crate) openings: u8,
    /// Open each game with N uniformly random decisions (0 to 20): varied games between
    /// deterministic engines (fixed depths), which would otherwise replay the same few games.
    /// Default: 4 when neither seat's engine varies its games by itself (random and MCTS
    /// players do), else 0.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=20))]
    pub(crate) random_plies: Option<u32>,
    /// `full`: also evaluate every position of random players' games, for the metrics that
    /// follow the evaluation (lead changes, drama…); `lean` (the default) leaves them out of
    /// random games, where the evaluation costs more than the game. Searching players' games
    /// are always evaluated.
    #[arg(long, default_value = "lean", value_parser = ["lean", "full"])]
    pub(crate) metrics: String,
}

#[derive(Args, Debug)]
pub(crate) struct SelfplayArgs {
    /// A variant: a name (looked up as `boardlab list` shows), a folder, or a .toml file.
    pub(crate) variant: String,
    #[command(flatten)]
    pub(crate) sets: Sets,
    #[command(flatten)]
    pub(crate) study: StudyArgs,
    /// Also play VARIANT_B on the same seeds and compare.
    #[arg(long)]
    pub(crate) compare: Option<String>,
    /// Options for VARIANT_B only.
    #[arg(long = "set-b", value_name = "NAME=VALUE")]
    pub(crate) set_b: Vec<String>,
    /// Write every game to FILE as PGN (SAN moves; the chess family), when the study ends.
    #[arg(long, value_name = "FILE")]
    pub(crate) pgn: Option<std::path::PathBuf>,
    /// Write every game to FILE as PDN (numbered squares; draughts), when the study ends.
    #[arg(long, value_name = "FILE")]
    pub(crate) pdn: Option<std::path::PathBuf>,
    /// Write a one-page SVG picture (result bars, length histogram, a typical game's
    /// evaluation, the quality metrics).
    #[arg(long)]
    pub(crate) svg: Option<std::path::PathBuf>,
    /// Write the same picture as PNG.
    #[arg(long)]
    pub(crate) png: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct SweepArgs {
    /// A variant: a name (looked up as `boardlab list` shows), a folder, or a .toml file.
    pub(crate) variant: String,
    /// An option and its values: NAME=V1,V2,… (repeatable; every combination is played, the
    /// last option varying fastest); NAME=VALUE sets it in every setting.
    #[arg(long = "set", value_name = "NAME=V1,V2,…")]
    pub(crate) set: Vec<String>,
    /// More variants to sweep with the same options (each setting of each variant).
    #[arg(long, num_args = 1.., value_name = "VARIANT")]
    pub(crate) variants: Vec<String>,
    /// Play only N of the settings: the first and N − 1 others drawn with the seed.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=crate::sweep::MAX_POINTS as u64))]
    pub(crate) sample: Option<u64>,
    /// The metric to rank by: balance, decisiveness, draws, move-limit, length, branching,
    /// forced, drama, lead-changes, comebacks, swing.
    #[arg(long, default_value = "balance")]
    pub(crate) by: String,
    /// Read the games from these JSON-lines files (a sweep's shards) instead of playing.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub(crate) from: Vec<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) study: StudyArgs,
    /// Write the chart (the metric by setting, with intervals) as SVG.
    #[arg(long)]
    pub(crate) svg: Option<std::path::PathBuf>,
    /// Write the chart as PNG.
    #[arg(long)]
    pub(crate) png: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct ArenaArgs {
    /// A variant: a name (looked up as `boardlab list` shows), a folder, or a .toml file.
    pub(crate) variant: String,
    /// The engines, at least two, each once: random, mcts:ITER, ab, ab:dDEPTH, ab:NODES, ab:TIME
    /// (docs/ai.md).
    #[arg(required = true, value_name = "ENGINE")]
    pub(crate) engines: Vec<String>,
    #[command(flatten)]
    pub(crate) sets: Sets,
    /// Games each pair plays (1 to 100000; colours alternate).
    #[arg(long)]
    pub(crate) games: u64,
    /// Open each game with N uniformly random decisions (0 to 20), the same N in both games of
    /// a colour-swapped pair: varied games between deterministic engines (fixed depths).
    /// Default: 4 for a pair of engines neither of which varies its games by itself (random and
    /// MCTS players do), else 0.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=20))]
    pub(crate) random_plies: Option<u32>,
    #[arg(long)]
    pub(crate) seed: u64,
    /// Threads (default: all cores).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Write one JSON object per game to FILE, each as soon as its game ends.
    #[arg(long)]
    pub(crate) jsonl: Option<std::path::PathBuf>,
    /// Continue an arena that was stopped: the games already in FILE (a `--jsonl` file of the
    /// same arena) are not played again; new games are appended to it (or go to --jsonl).
    #[arg(long, value_name = "FILE")]
    pub(crate) resume_from: Option<std::path::PathBuf>,
    /// Leave the times per move out of the games' records (two runs then write the same
    /// bytes); the table's time per move says "not timed".
    #[arg(long)]
    pub(crate) no_times: bool,
}

#[derive(Args, Debug)]
pub(crate) struct TuneArgs {
    /// A variant: a name (looked up as `boardlab list` shows), a folder, or a .toml file.
    pub(crate) variant: String,
    #[command(flatten)]
    pub(crate) sets: Sets,
    /// Self-play games to learn from (every tenth held out to measure the fit).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=crate::tune::MAX_GAMES))]
    pub(crate) games: u64,
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// The engine that plays both sides of the games (docs/ai.md).
    #[arg(long, default_value = "ab:d2")]
    pub(crate) engine: String,
    /// Open each game with N uniformly random decisions (0 to 20), so that games differ.
    #[arg(long, default_value_t = 4, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=20))]
    pub(crate) random_plies: u32,
    /// Stop playing once this many quiet positions are read.
    #[arg(long, default_value_t = 500_000, value_parser = clap::value_parser!(u64).range(1..=crate::tune::MAX_POSITIONS as u64))]
    pub(crate) positions: u64,
    /// Sweeps of the local search at most.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=crate::tune::MAX_SWEEPS as i64))]
    pub(crate) sweeps: u32,
    /// Keep a kind's value or a term's weight as it is (repeatable).
    #[arg(long, value_name = "KIND|TERM")]
    pub(crate) keep: Vec<String>,
    /// The kind whose value stays, the scale of the others (default: the kind with the most
    /// pieces at the start; `none`: fit every value).
    #[arg(long, value_name = "KIND|none")]
    pub(crate) unit: Option<String>,
    /// Threads for the games (default: all cores; the numbers do not depend on it).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Write the numbers into the variant's file (its [ai.eval]; the rest of the file is kept).
    #[arg(long, conflicts_with = "dry_run")]
    pub(crate) write: bool,
    /// Only print the section to paste (the default).
    #[arg(long)]
    pub(crate) dry_run: bool,
}

/// An error for `main` to print once, with its exit code.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input: arguments, a variant that does not load, an illegal move (exit status 2).
    #[error("{0}")]
    Usage(String),
    /// The command ran and failed: a failing test, a REPL command, a file (exit status 1).
    #[error("{0}")]
    Failed(String),
    /// Standard output could not be written (exit status 1; a closed pipe is not an error).
    #[error("{0}")]
    Output(#[from] std::io::Error),
}

impl CliError {
    fn usage(message: impl std::fmt::Display) -> CliError {
        CliError::Usage(message.to_string())
    }

    fn failed(message: impl std::fmt::Display) -> CliError {
        CliError::Failed(message.to_string())
    }

    /// The process exit status for this error.
    pub fn code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Failed(_) | CliError::Output(_) => 1,
        }
    }

    /// Whether the reader of standard output went away (`boardlab moves x | head -1`): the
    /// command's work is done as far as anyone can tell, so `main` exits quietly with success.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// Whether standard output wants colour.
pub(crate) fn color_wanted() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal()
}

/// Splits `NAME=VALUE` overrides.
///
/// # Errors
/// An item without `=`.
pub(crate) fn parse_sets(items: &[String]) -> Result<Vec<(String, String)>, CliError> {
    items
        .iter()
        .map(|s| {
            s.split_once('=')
                .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
                .ok_or_else(|| CliError::usage(format!("--set {s}: expected NAME=VALUE")))
        })
        .collect()
}

/// Splits a `--moves` list.
pub(crate) fn split_moves(text: &str) -> Vec<String> {
    text.split([' ', ',', '\n', '\t']).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

fn load(name: &str, sets: &[(String, String)]) -> Result<Variant, CliError> {
    Variant::load(name, sets).map_err(|e| CliError::Usage(e.render(color_wanted_err())))
}

fn color_wanted_err() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
}

/// Loads the variant and plays the game's moves.
fn setup(game: &Game) -> Result<(Variant, Position), CliError> {
    setup_last(game).map(|(v, pos, _)| (v, pos))
}

/// Loads the variant and plays the game's moves; also returns the last move played.
fn setup_last(game: &Game) -> Result<(Variant, Position, Option<crate::notation::Move>), CliError> {
    crate::notation::check_length("--moves", &game.moves, crate::notation::MAX_MOVES_TEXT).map_err(CliError::usage)?;
    let v = load(&game.variant, &game.sets.pairs()?)?;
    let mut pos = match (&game.position, &game.fen) {
        (Some(t), _) => Position::from_text(&v.rules, t).map_err(|e| CliError::usage(format!("--position: {e}")))?,
        (_, Some(t)) => crate::fen::read(&v.rules, t).map_err(|e| CliError::usage(format!("--fen: {e}")))?,
        _ => v.start(),
    };
    let mut last = None;
    for (i, t) in split_moves(&game.moves).iter().enumerate() {
        let m = v.play(&mut pos, t).map_err(|error| variant::MoveListError { number: i + 1, text: t.clone(), error });
        last = Some(m.map_err(|e| CliError::Usage(e.to_string()))?);
    }
    Ok((v, pos, last))
}

/// Runs a parsed command, writing to `out`.
///
/// # Errors
/// Anything the user must be told, with the exit code; [`CliError::is_broken_pipe`] when the
/// reader of `out` went away.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<(), CliError> {
    match cli.command.unwrap_or(Command::Play { variant: "basileus".into(), sets: Sets::default(), resume: None }) {
        Command::List => list(out),
        Command::Uci => Ok(crate::protocol::uci::run(Box::new(std::io::BufReader::new(std::io::stdin())), out, true)?),
        Command::Usi => {
            let input = Box::new(std::io::BufReader::new(std::io::stdin()));
            Ok(crate::protocol::uci::run_dialect(crate::protocol::coords::Dialect::Usi, input, out, true)?)
        }
        Command::Moves(game) => moves(&game, out),
        Command::Fen(game) => {
            let (v, mut pos) = setup(&Game { moves: String::new(), ..game.clone() })?;
            crate::notation::check_length("--moves", &game.moves, crate::notation::MAX_MOVES_TEXT).map_err(CliError::usage)?;
            // Separated by spaces only: a comma belongs to a UCI move (`d1d7,d7g7`).
            let moves: Vec<String> = game.moves.split_whitespace().map(str::to_string).collect();
            crate::protocol::inspect::play_moves(&v, &mut pos, &moves).map_err(CliError::usage)?;
            Ok(out.write_all(crate::protocol::inspect::report(&v, &mut pos).map_err(CliError::usage)?.as_bytes())?)
        }
        Command::Perft { game, depth, divide, made, threads, general, reference } => {
            perft(&game, depth, divide, (perft::Mode { made, general, reference }, threads as usize), out)
        }
        Command::Show(a) if a.svg.is_some() || a.png.is_some() => pictures(&a, out),
        Command::Show(a) => show(&a.game, out),
        Command::Position { game, format } => {
            let (v, pos) = setup(&game)?;
            let line = match format.as_str() {
                "fen" => crate::fen::write(&v.rules, &pos).map_err(|e| CliError::usage(e.to_string()))?,
                _ => pos.to_text(&v.rules),
            };
            Ok(writeln!(out, "{line}")?)
        }
        Command::Check { variant, sets, resolved } => check(&variant, &sets, resolved, out),
        Command::Test { target, accept } => {
            let r = crate::workflow::test(target.as_deref(), accept).map_err(CliError::usage)?;
            out.write_all(r.text.as_bytes())?;
            if r.failed > 0 {
                return Err(CliError::failed(format!("{} failed", r.failed)));
            }
            Ok(())
        }
        Command::New { name, from } => {
            let msg = crate::workflow::new_variant(&name, &from).map_err(CliError::usage)?;
            Ok(out.write_all(msg.as_bytes())?)
        }
        Command::Diff { variant_a, variant_b, sets, set_b, depth, games, seed, limit, all, max_positions } => {
            let both = sets.pairs()?;
            let a = load(&variant_a, &both)?;
            let b = load(&variant_b, &[both, parse_sets(&set_b)?].concat())?;
            let cfg = crate::diff::Config { depth, games, seed, max_positions: max_positions as usize };
            let report = crate::diff::diff(&a, &b, &cfg).map_err(CliError::usage)?;
            Ok(out.write_all(report.text((!all).then_some(limit)).as_bytes())?)
        }
        Command::Play { variant, sets, resume } => {
            let r = crate::repl::Resume::parse(resume.as_deref())
                .ok_or_else(|| CliError::Usage(format!("--resume {}: expected a number from 1, or list", resume.unwrap_or_default())))?;
            crate::repl::run(&variant, &sets.pairs()?, r).map_err(CliError::failed)
        }
        Command::Serve { variant, port, host, open } => crate::serve::run(&variant, port, host, open, out).map_err(|e| match e {
            crate::serve::ServeError::Load(m) => CliError::Usage(m),
            crate::serve::ServeError::Io(e) => CliError::failed(e),
        }),
        Command::Eval(game) => {
            let (v, pos) = setup(&game)?;
            let t = crate::ai::analysis::eval_text(&v, &pos).map_err(CliError::failed)?;
            Ok(out.write_all(t.as_bytes())?)
        }
        Command::Analyse { game, engine, lines, seed } => analyse(&game, &engine, lines as usize, seed, out),
        Command::Solve { game, memory, nodes, horizon } => {
            let limits = crate::solve::Limits { memory: (memory as usize) << 20, nodes, horizon };
            solve(&game, limits, out)
        }
        Command::Selfplay(a) => Ok(out.write_all(selfplay(&a)?.as_bytes())?),
        Command::Report { files, svg, png, openings, mixed } => report(&files, [svg.as_deref(), png.as_deref()], openings, mixed, out),
        Command::Arena(a) => Ok(out.write_all(arena(&a)?.as_bytes())?),
        Command::Sweep(a) => Ok(out.write_all(sweep(&a)?.as_bytes())?),
        Command::Convert { input, output } => convert(&input, &output),
        Command::Tune(a) => tune(&a, out),
    }
}

/// Every variant a name can reach, where it lives, and its title; a name found in two places
/// resolves to the first (the later one is marked as hidden).
fn list(out: &mut dyn Write) -> Result<(), CliError> {
    let mut seen = std::collections::HashSet::new();
    for (n, place, origin) in variant::all_variants() {
        let spec = match &origin {
            variant::Origin::Disk(d) => d.display().to_string(),
            variant::Origin::Shipped(n) => n.clone(),
        };
        let v = Variant::load(&spec, &[]);
        let title = v.as_ref().map(|v| v.rules.title.clone()).unwrap_or_else(|_| "(does not load: `boardlab check` says why)".into());
        let hidden = if seen.insert(n.clone()) { "" } else { " (hidden by the one above)" };
        writeln!(out, "{n:<18} {title:<40} {}{hidden}", place.describe())?;
    }
    Ok(())
}

fn moves(game: &Game, out: &mut dyn Write) -> Result<(), CliError> {
    let (v, mut pos) = setup(game)?;
    let mut moves = Vec::new();
    v.legal_moves(&mut pos, &mut moves).map_err(CliError::usage)?;
    let mut texts: Vec<String> = moves.iter().map(|m| m.text(&v.rules.geometry)).collect();
    texts.sort();
    for t in texts {
        writeln!(out, "{t}")?;
    }
    Ok(())
}

fn perft(game: &Game, depth: u32, divide: bool, (mode, threads): (perft::Mode, usize), out: &mut dyn Write) -> Result<(), CliError> {
    let (v, mut pos) = setup(game)?;
    if divide && (mode.made || mode.general || mode.reference || threads > 1) {
        return Err(CliError::usage("--divide counts one root move at a time: leave out --made, --general, --reference and --threads"));
    }
    // The progress line is cleared before anything is printed.
    let line = crate::progress::Spinner::start();
    if divide {
        let rows = perft::divide(&v, &mut pos, depth).map_err(CliError::usage)?;
        drop(line);
        let mut total = 0;
        for (m, n) in rows {
            writeln!(out, "{m}: {n}")?;
            total += n;
        }
        writeln!(out, "{total}")?;
    } else {
        let n = perft::perft_threads(&v, &pos, depth, mode, threads).map_err(CliError::usage)?;
        drop(line);
        writeln!(out, "{n}")?;
    }
    Ok(())
}

fn analyse(game: &Game, engine: &str, lines: usize, seed: u64, out: &mut dyn Write) -> Result<(), CliError> {
    use crate::ai::{Engine, analysis};
    let budget = match Engine::parse(engine).map_err(CliError::usage)? {
        Engine::AlphaBeta(b) => b,
        e => return Err(CliError::usage(format!("--engine {e}: only alpha-beta scores moves; use ab, ab:d6, ab:200000 or ab:2s"))),
    };
    let (v, pos) = setup(game)?;
    let line = crate::progress::Spinner::start();
    let a = analysis::analyse(&v, &pos, budget, lines, &mut crate::ai::rng(seed)).map_err(CliError::failed)?;
    drop(line);
    Ok(out.write_all(a.text(&v, &pos).as_bytes())?)
}

fn solve(game: &Game, limits: crate::solve::Limits, out: &mut dyn Write) -> Result<(), CliError> {
    let (v, pos) = setup(game)?;
    // Ctrl-C stops it with what it proved.
    crate::interrupt::install().map_err(CliError::failed)?;
    let line = crate::progress::Spinner::start();
    let solution = crate::solve::solve(&v, &pos, limits, crate::progress::report).map_err(CliError::failed)?;
    drop(line);
    Ok(out.write_all(solution.text(&v, &pos).as_bytes())?)
}

fn show(game: &Game, out: &mut dyn Write) -> Result<(), CliError> {
    let (v, pos) = setup(game)?;
    let style = Style { color: color_wanted() };
    out.write_all(render::board(&v, &pos, None, style).as_bytes())?;
    let legend = render::legend(&v);
    if !legend.is_empty() {
        writeln!(out, "{legend}")?;
    }
    Ok(())
}

/// `show --svg FILE` / `--png FILE`: the pictures, written atomically (or to `out` for `-`).
fn pictures(a: &ShowArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (v, pos, last) = setup_last(&a.game)?;
    let opts = crate::diagram::Options { flip: a.flip, caption: !a.no_caption };
    let svg = crate::diagram::svg(&v, &pos, last.as_ref(), opts);
    let mut write = |path: &std::path::Path, bytes: &[u8]| -> Result<(), CliError> {
        // Standard output is `out` here, so that what the command prints stays in order.
        if crate::files::is_stdout(path) {
            return Ok(out.write_all(bytes)?);
        }
        write_file(path, bytes)
    };
    if let Some(p) = &a.svg {
        write(p, svg.as_bytes())?;
    }
    if let Some(p) = &a.png {
        let png = crate::diagram::png(&svg, crate::diagram::PNG_SCALE).map_err(CliError::failed)?;
        write(p, &png)?;
    }
    Ok(())
}

/// Loads the variant, then under every other option setting, and reads its script
/// (`crate::check`); a setting that breaks it or an error in the script fails the check (all
/// findings on standard error), warnings alone are printed before the `ok` line.
fn check(variant: &str, sets: &Sets, resolved: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let v = load(variant, &sets.pairs()?)?;
    if resolved {
        return Ok(out.write_all(crate::render::resolved(&v).as_bytes())?);
    }
    let sweep = crate::check::sweep(&v, color_wanted_err());
    let found = crate::check::script(&v);
    let r = &v.rules;
    let n = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    let errors = found.iter().filter(|f| f.severity == crate::script::lint::Severity::Error).count();
    let warnings = found.len() - errors;
    let rendered = |color: bool| v.script.as_ref().map_or_else(String::new, |s| crate::script::lint::render(&s.file, &found, color));
    if errors > 0 || !sweep.broken.is_empty() {
        let mut text = String::new();
        if !found.is_empty() {
            let counts = format!("{} and {}", n(errors, "error", "errors"), n(warnings, "warning", "warnings"));
            text.push_str(&format!("{}: the script has {counts}\n\n{}", r.name, rendered(color_wanted_err())));
        }
        if !sweep.broken.is_empty() {
            text.push_str(&format!("{}: {} of {} option settings fail\n", r.name, sweep.broken.len(), sweep.settings));
            // Settings that fail the same way share one diagnostic.
            for (headings, error) in sweep.grouped() {
                let shown = headings.len().min(8);
                let more = if headings.len() > shown { format!("; and {} more", headings.len() - shown) } else { String::new() };
                text.push_str(&format!("\n{}{more}:\n{}\n", headings[..shown].join("; "), error.trim_end()));
            }
        }
        return Err(CliError::Usage(text));
    }
    out.write_all(rendered(color_wanted()).as_bytes())?;
    writeln!(
        out,
        "{}: ok ({}, {}, {}{}; {} loaded{}{}{})",
        r.name,
        n(r.geometry.len(), "cell", "cells"),
        n(r.kinds.len(), "piece kind", "piece kinds"),
        n(r.options.decls.len(), "option", "options"),
        if v.script.is_some() { ", script compiled" } else { "" },
        n(sweep.settings, "option setting", "option settings"),
        if sweep.all_combinations { "" } else { ", one option at a time" },
        if sweep.moves_listed < sweep.settings {
            format!("; start moves listed under {} of them (time limit)", sweep.moves_listed)
        } else {
            String::new()
        },
        if warnings > 0 { format!("; {} in the script", n(warnings, "warning", "warnings")) } else { String::new() }
    )?;
    Ok(())
}

fn report(
    files: &[std::path::PathBuf],
    pictures: [Option<&std::path::Path>; 2],
    openings: u8,
    mixed: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let merged = crate::selfplay::jsonl::merge(files, mixed, openings.into()).map_err(CliError::failed)?;
    for w in &merged.warnings {
        eprintln!("warning: {w}");
    }
    let reports = merged.reports;
    let refs: Vec<&crate::selfplay::Report> = reports.iter().collect();
    write_pictures(&crate::selfplay::svg(&refs), pictures)?;
    let texts: Vec<String> = reports.iter().map(|r| r.text()).collect();
    out.write_all(texts.join("\n").as_bytes())?;
    if let [a, b] = refs.as_slice() {
        write!(out, "\n{}", crate::selfplay::compare(a, b))?;
    }
    Ok(())
}

/// A report's picture as SVG and as PNG (`[svg, png]`, each when asked; `-` is standard output).
fn write_pictures(svg: &str, [to_svg, to_png]: [Option<&std::path::Path>; 2]) -> Result<(), CliError> {
    if let Some(p) = to_svg {
        write_file(p, svg.as_bytes())?;
    }
    if let Some(p) = to_png {
        let png = crate::diagram::png(svg, crate::diagram::PNG_SCALE).map_err(CliError::failed)?;
        write_file(p, &png)?;
    }
    Ok(())
}

/// Writes a whole output file with [`crate::files::write`] (`-`: standard output); a failure
/// names the file (a closed standard output is not one).
fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), CliError> {
    crate::files::write(path, bytes).map_err(|e| match e {
        e if crate::files::is_stdout(path) => CliError::Output(e),
        e => CliError::failed(format!("{}: {e}", path.display())),
    })
}

/// `--shard I/N`.
fn shard(text: Option<&str>) -> Result<Option<(u64, u64)>, CliError> {
    let Some(t) = text else { return Ok(None) };
    t.split_once('/')
        .and_then(|(i, n)| Some((i.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
        .filter(|(i, n)| *n > 0 && i < n)
        .map(Some)
        .ok_or_else(|| CliError::usage(format!("--shard {t}: expected I/N with 0 <= I < N")))
}

/// A study's configuration from its arguments (`record_moves`: keep every move's text).
fn study_config(a: &StudyArgs, record_moves: bool) -> Result<crate::selfplay::Config, CliError> {
    let engine = |t: &Option<String>| t.as_deref().map_or(Ok(crate::ai::Engine::Random), crate::ai::Engine::parse).map_err(CliError::usage);
    let mut named = Vec::new();
    for (name, e) in [("first", &a.first), ("second", &a.second), ("white", &a.white), ("black", &a.black)] {
        if e.is_some() {
            named.push((name.to_string(), engine(e)?));
        }
    }
    for p in &a.player {
        let (name, e) = p.split_once('=').ok_or_else(|| CliError::usage(format!("--player {p}: expected NAME=ENGINE")))?;
        named.push((name.to_string(), engine(&Some(e.to_string()))?));
    }
    Ok(crate::selfplay::Config {
        named: named.clone(),
        threads: threads(a.threads),
        shard: shard(a.shard.as_deref())?,
        record_moves,
        random_plies: a.random_plies.unwrap_or_else(|| crate::selfplay::auto_random_plies(&named)),
        opening_plies: a.openings.into(),
        full_metrics: a.metrics == "full",
        ..crate::selfplay::Config::new(a.games, a.seed)
    })
}

fn selfplay(a: &SelfplayArgs) -> Result<String, CliError> {
    use crate::selfplay::{GameFiles, Report, compare, run_into, svg};
    let record_moves = a.study.jsonl.is_some() || a.study.resume_from.is_some() || a.pgn.is_some() || a.pdn.is_some();
    let cfg = study_config(&a.study, record_moves)?;
    let sets = a.sets.pairs()?;
    let mut files = GameFiles::open(a.study.jsonl.as_deref(), a.study.resume_from.as_deref()).map_err(CliError::failed)?;
    // Without the handler Ctrl-C would end the process before the report is printed.
    crate::interrupt::install().map_err(CliError::failed)?;
    let (progress, resumed) = (stderr_is_terminal(), std::mem::take(&mut files.resumed));
    let from = files.resume_from.clone();
    let keep = a.pgn.is_some() || a.pdn.is_some();
    let writes = keep || files.writes();
    let mut kept: Vec<crate::selfplay::GameRecord> = Vec::new();
    let mut sink = |g: &crate::selfplay::GameRecord| {
        if keep {
            kept.push(g.clone());
        }
        files.write(g)
    };
    // (No sink where nothing is written: the study then makes no record of its games.)
    let mut sink = writes.then_some(&mut sink as crate::selfplay::Sink);
    let ra: Report = run_into(&a.variant, &sets, &cfg, progress, &resumed, sink.as_mut().map(|s| &mut **s as crate::selfplay::Sink))
        .map_err(|e| study_failed(e, from.as_deref()))?;
    let (text, picture) = match &a.compare {
        Some(b) if !ra.interrupted => {
            let sets_b = [sets.clone(), parse_sets(&a.set_b)?].concat();
            let rb = run_into(b, &sets_b, &cfg, progress, &resumed, sink.as_mut().map(|s| &mut **s as crate::selfplay::Sink))
                .map_err(|e| study_failed(e, from.as_deref()))?;
            (format!("{}\n{}\n{}", ra.text(), rb.text(), compare(&ra, &rb)), svg(&[&ra, &rb]))
        }
        _ => (ra.text(), svg(&[&ra])),
    };
    write_pictures(&picture, [a.svg.as_deref(), a.png.as_deref()])?;
    if keep {
        let mut loaded = vec![load(&a.variant, &sets)?];
        if let Some(b) = &a.compare {
            loaded.push(load(b, &[sets.clone(), parse_sets(&a.set_b)?].concat())?);
        }
        let refs: Vec<&Variant> = loaded.iter().collect();
        use crate::records::convert::{Format, selfplay_text};
        for (path, format) in [(&a.pgn, Format::Pgn), (&a.pdn, Format::Pdn)] {
            if let Some(p) = path {
                write_file(p, selfplay_text(&refs, &mut kept, format).map_err(CliError::failed)?.as_bytes())?;
            }
        }
    }
    Ok(text)
}

/// `sweep`: Ctrl-C stops it and the table covers the settings finished.
fn sweep(a: &SweepArgs) -> Result<String, CliError> {
    use crate::sweep::{By, Grid, SweepError};
    let usage = |e: SweepError| match e {
        SweepError::Usage(m) => CliError::Usage(m),
        SweepError::Study(e) => study_failed(e, a.study.resume_from.as_deref()),
    };
    let by = By::parse(&a.by).map_err(usage)?;
    let grid = Grid {
        variants: [vec![a.variant.clone()], a.variants.clone()].concat(),
        axes: Grid::axes(&a.set).map_err(usage)?,
        sample: a.sample.map(|n| n as usize),
    };
    let points = grid.points(a.study.seed).map_err(usage)?;
    let (sweep, warnings) = if a.from.is_empty() {
        let mut cfg = study_config(&a.study, a.study.jsonl.is_some() || a.study.resume_from.is_some())?;
        cfg.full_metrics |= by.needs_evaluation();
        let mut files =
            crate::selfplay::GameFiles::open(a.study.jsonl.as_deref(), a.study.resume_from.as_deref()).map_err(CliError::failed)?;
        crate::interrupt::install().map_err(CliError::failed)?;
        let resumed = std::mem::take(&mut files.resumed);
        let writes = files.writes();
        let mut sink = |g: &crate::selfplay::GameRecord| files.write(g);
        let sink = writes.then_some(&mut sink as crate::selfplay::Sink);
        (crate::sweep::run(points, &cfg, by, stderr_is_terminal(), &resumed, sink).map_err(usage)?, vec![])
    } else {
        crate::sweep::merged(points, &a.from, by, a.study.openings.into()).map_err(usage)?
    };
    for w in warnings {
        eprintln!("warning: {w}");
    }
    write_pictures(&sweep.svg(), [a.svg.as_deref(), a.png.as_deref()])?;
    Ok(sweep.text())
}

/// `convert IN OUT`: between boardlab's record, PGN and PDN, by the files' extensions.
fn convert(input: &std::path::Path, output: &std::path::Path) -> Result<(), CliError> {
    use crate::records::convert::{Format, load as load_games};
    let records = match Format::of(input) {
        Format::Record => vec![crate::record::Record::load(input).map_err(CliError::usage)?],
        f => load_games(input, f).map_err(CliError::usage)?,
    };
    let text = match Format::of(output) {
        Format::Record if records.len() > 1 => {
            let why = format!(
                "{} holds {} games and a boardlab record one; convert to .pgn or .pdn to keep them all",
                input.display(),
                records.len()
            );
            return Err(CliError::usage(why));
        }
        Format::Record => records[0].to_text(),
        f => {
            let mut text = String::new();
            for r in &records {
                let s = crate::session::Session::from_record(r, Style { color: false }).map_err(|e| CliError::usage(e.to_string()))?;
                text.push_str(&s.export(f).map_err(CliError::usage)?);
            }
            text
        }
    };
    write_file(output, text.as_bytes())
}

/// `--threads`, by default all cores.
fn threads(t: Option<usize>) -> usize {
    t.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Whether standard error is a terminal (for a progress bar).
fn stderr_is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal()
}

/// A study's failure; a closed reader of the games (`--jsonl /dev/stdout | head -1`) ends the run
/// quietly. A game of another study in `resume_from` names that file.
fn study_failed(e: crate::selfplay::SelfplayError, resume_from: Option<&std::path::Path>) -> CliError {
    use crate::selfplay::SelfplayError;
    match (e, resume_from) {
        (SelfplayError::Output(e), _) => CliError::Output(e),
        (e @ SelfplayError::Seats(_), _) => CliError::usage(e),
        (SelfplayError::OtherStudy(why), Some(p)) => CliError::failed(format!("{}: {why}", p.display())),
        (e, _) => CliError::failed(e),
    }
}

/// `arena`: Ctrl-C stops it and the table covers the games finished.
fn arena(a: &ArenaArgs) -> Result<String, CliError> {
    use crate::arena::ArenaError;
    let record_moves = a.jsonl.is_some() || a.resume_from.is_some();
    let mut cfg = crate::arena::Config::new(&a.engines, a.games, a.seed, threads(a.threads), record_moves).map_err(CliError::usage)?;
    cfg.random_plies = a.random_plies;
    cfg.times = !a.no_times;
    let mut files = crate::selfplay::GameFiles::open(a.jsonl.as_deref(), a.resume_from.as_deref()).map_err(CliError::failed)?;
    let resumed = std::mem::take(&mut files.resumed);
    let from = files.resume_from.clone();
    // Without the handler Ctrl-C would end the process before the table is printed.
    crate::interrupt::install().map_err(CliError::failed)?;
    let table = crate::arena::run(&a.variant, &a.sets.pairs()?, &cfg, stderr_is_terminal(), &resumed, Some(&mut |g| files.write(g)));
    table.map(|t| t.text()).map_err(|e| match e {
        e if e.is_usage() => CliError::usage(e),
        ArenaError::Study(e) => study_failed(e, from.as_deref()),
        e => CliError::failed(e),
    })
}

/// `tune`: the numbers fitted, and written into the variant's file with `--write` (not after
/// Ctrl-C).
fn tune(a: &TuneArgs, out: &mut dyn Write) -> Result<(), CliError> {
    use crate::tune::{Config, Plan, TuneError};
    let engine = crate::ai::Engine::parse(&a.engine).map_err(|e| CliError::usage(format!("--engine: {e}")))?;
    let v = load(&a.variant, &crate::selfplay::with_move_limit(&a.sets.pairs()?))?;
    crate::ai::evaluated::prepare(&v, engine).map_err(CliError::usage)?;
    let plan = Plan {
        games: a.games,
        seed: a.seed,
        engine,
        random_plies: a.random_plies,
        threads: threads(a.threads),
        max_positions: a.positions as usize,
    };
    let cfg = Config { plan, sweeps: a.sweeps, keep: a.keep.clone(), unit: a.unit.clone() };
    crate::interrupt::install().map_err(CliError::failed)?;
    let line = crate::progress::Spinner::start();
    let t = crate::tune::tune(&v, &cfg, &mut |m| crate::progress::report(m)).map_err(|e| match e {
        TuneError::Usage(m) => CliError::Usage(m),
        e => CliError::failed(e),
    })?;
    drop(line);
    let mut text = t.text();
    if a.write && t.interrupted() {
        text.push_str("(not written: interrupted)\n");
    } else if a.write {
        let path = crate::tune::write_into(&v, &t).map_err(CliError::failed)?;
        text.push_str(&format!("(written into {})\n", path.display()));
    } else {
        text.push_str("(paste it into the variant file, or run again with --write)\n");
    }
    Ok(out.write_all(text.as_bytes())?)
}
