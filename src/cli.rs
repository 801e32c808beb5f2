//! The command line: raw arguments → a command → output on standard output, errors returned
//! once to `main` with their exit code. The contract is `../shared/rules/README.md`
//! ("Command-line contract").

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
    pub command: Option<Command>,
}

/// The variant and the position every game command works on.
#[derive(Args, Debug, Clone)]
pub struct Game {
    /// A shipped variant name (basileus, checkers, …), a folder, or a variant .toml file.
    pub variant: String,
    /// Moves to play from the start (or from --position), separated by spaces or commas.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Override an option: NAME=VALUE (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Start from this position text instead of the initial position.
    #[arg(long)]
    pub position: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the shipped variants.
    List,
    /// Print the legal moves, one per line, sorted.
    Moves(Game),
    /// Count the leaf nodes of the move tree to DEPTH.
    Perft {
        #[command(flatten)]
        game: Game,
        depth: u32,
        /// First print `MOVE: COUNT` for each legal move.
        #[arg(long)]
        divide: bool,
    },
    /// Show the board, the side to move or the result, and the variant's state.
    Show(Game),
    /// Print the position as one line of text.
    Position(Game),
    /// Load and validate a variant; print problems; exit 2 on errors.
    Check {
        variant: String,
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
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
        name: String,
        #[arg(long = "from")]
        from: String,
    },
    /// Where two rule sets differ: legal moves and results at the positions reached by seeded
    /// random games (and VARIANT_A's scenarios).
    Diff {
        variant_a: String,
        variant_b: String,
        /// Override an option in both variants.
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// Override an option in VARIANT_B only.
        #[arg(long = "set-b", value_name = "NAME=VALUE")]
        set_b: Vec<String>,
        #[arg(long, default_value_t = 20)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Open the REPL (the default command).
    Play {
        /// The variant to start with.
        #[arg(default_value = "basileus")]
        variant: String,
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// Continue the game autosaved when the REPL last closed.
        #[arg(long)]
        resume: bool,
    },
    /// Play N machine games and report results, lengths, branching and speed.
    Selfplay(SelfplayArgs),
    /// Merge JSON-lines files written by `selfplay --jsonl` (e.g. shards) into one report.
    Report {
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Also write the report's SVG picture.
        #[arg(long)]
        svg: Option<std::path::PathBuf>,
    },
}

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    pub variant: String,
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// White's player: random or mcts:ITER.
    #[arg(long, default_value = "random")]
    pub white: String,
    /// Black's player: random or mcts:ITER.
    #[arg(long, default_value = "random")]
    pub black: String,
    /// Threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Also play VARIANT_B on the same seeds and compare.
    #[arg(long)]
    pub compare: Option<String>,
    /// Options for VARIANT_B only.
    #[arg(long = "set-b", value_name = "NAME=VALUE")]
    pub set_b: Vec<String>,
    /// Write one JSON object per game to FILE.
    #[arg(long)]
    pub jsonl: Option<std::path::PathBuf>,
    /// Play only the games whose index is I mod N.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Write a one-page SVG picture (length histogram, result bars).
    #[arg(long)]
    pub svg: Option<std::path::PathBuf>,
}

/// An error for `main` to print, with its exit code.
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub code: i32,
}

impl CliError {
    fn usage(message: impl Into<String>) -> CliError {
        CliError { message: message.into(), code: 2 }
    }
}

/// Whether standard output wants colour.
pub fn color_wanted() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal()
}

/// Splits `NAME=VALUE` overrides.
///
/// # Errors
/// An item without `=`.
pub fn parse_sets(items: &[String]) -> Result<Vec<(String, String)>, CliError> {
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
pub fn split_moves(text: &str) -> Vec<String> {
    text.split([' ', ',', '\n', '\t']).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

fn load(name: &str, set: &[String]) -> Result<Variant, CliError> {
    let sets = parse_sets(set)?;
    Variant::load(name, &sets).map_err(|e| CliError { message: e.render(color_wanted_err()), code: 2 })
}

fn color_wanted_err() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
}

/// Loads the variant and plays the game's moves.
fn setup(game: &Game) -> Result<(Variant, Position), CliError> {
    let v = load(&game.variant, &game.set)?;
    let mut pos = match &game.position {
        Some(t) => Position::from_text(&v.rules, t).map_err(|e| CliError::usage(format!("--position: {e}")))?,
        None => v.start(),
    };
    v.play_all(&mut pos, &split_moves(&game.moves)).map_err(|e| CliError::usage(e.to_string()))?;
    Ok((v, pos))
}

fn script_err(e: impl std::fmt::Display) -> CliError {
    CliError { message: e.to_string(), code: 2 }
}

/// Runs a parsed command, writing to `out`.
///
/// # Errors
/// Anything the user must be told, with the exit code.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<(), CliError> {
    let w = |out: &mut dyn Write, s: &str| -> Result<(), CliError> {
        out.write_all(s.as_bytes()).map_err(|e| CliError { message: e.to_string(), code: 1 })
    };
    match cli.command.unwrap_or(Command::Play { variant: "basileus".into(), set: vec![], resume: false }) {
        Command::List => {
            for n in variant::shipped_names() {
                let v = Variant::load(&n, &[]);
                let title = v.as_ref().map(|v| v.rules.title.clone()).unwrap_or_else(|_| "(does not load)".into());
                w(out, &format!("{n:<18} {title}\n"))?;
            }
        }
        Command::Moves(game) => {
            let (v, mut pos) = setup(&game)?;
            let mut moves = Vec::new();
            v.legal_moves(&mut pos, &mut moves).map_err(script_err)?;
            let mut texts: Vec<String> = moves.iter().map(|m| m.text(&v.rules.geometry)).collect();
            texts.sort();
            let mut s = String::new();
            for t in texts {
                s.push_str(&t);
                s.push('\n');
            }
            w(out, &s)?;
        }
        Command::Perft { game, depth, divide } => {
            let (v, mut pos) = setup(&game)?;
            if divide {
                let rows = perft::divide(&v, &mut pos, depth).map_err(script_err)?;
                let mut total = 0;
                for (m, n) in rows {
                    w(out, &format!("{m}: {n}\n"))?;
                    total += n;
                }
                w(out, &format!("{total}\n"))?;
            } else {
                let n = perft::perft(&v, &mut pos, depth).map_err(script_err)?;
                w(out, &format!("{n}\n"))?;
            }
        }
        Command::Show(game) => {
            let (v, pos) = setup(&game)?;
            let style = Style { color: color_wanted() };
            w(out, &render::board(&v, &pos, None, style))?;
            let legend = render::legend(&v);
            if !legend.is_empty() {
                w(out, &format!("{legend}\n"))?;
            }
        }
        Command::Position(game) => {
            let (v, pos) = setup(&game)?;
            w(out, &format!("{}\n", pos.to_text(&v.rules)))?;
        }
        Command::Check { variant, set, resolved } => {
            let v = load(&variant, &set)?;
            if resolved {
                w(out, &render::resolved(&v))?;
            } else {
                let r = &v.rules;
                w(
                    out,
                    &format!(
                        "{}: ok ({} cells, {} piece kinds, {} options{})\n",
                        r.name,
                        r.geometry.len(),
                        r.kinds.len(),
                        r.options.decls.len(),
                        if v.script.is_some() { ", script compiled" } else { "" }
                    ),
                )?;
            }
        }
        Command::Test { target, accept } => {
            let r = crate::workflow::test(target.as_deref(), accept).map_err(CliError::usage)?;
            w(out, &r.text)?;
            if r.failed > 0 {
                return Err(CliError { message: format!("{} failed", r.failed), code: 1 });
            }
        }
        Command::New { name, from } => {
            let msg = crate::workflow::new_variant(&name, &from).map_err(CliError::usage)?;
            w(out, &msg)?;
        }
        Command::Diff { variant_a, variant_b, set, set_b, games, seed } => {
            let a = load(&variant_a, &set)?;
            let mut both = set.clone();
            both.extend(set_b);
            let b = load(&variant_b, &both)?;
            let report = crate::workflow::diff(&a, &b, games, seed, 5).map_err(CliError::usage)?;
            w(out, &report)?;
        }
        Command::Play { variant, set, resume } => {
            let sets = parse_sets(&set)?;
            crate::repl::run(&variant, &sets, resume).map_err(|e| CliError { message: e, code: 1 })?;
        }
        Command::Selfplay(a) => w(out, &selfplay(&a)?)?,
        Command::Report { files, svg } => {
            let reports = crate::selfplay::Report::merge(&files).map_err(|e| CliError { message: e, code: 1 })?;
            let refs: Vec<&crate::selfplay::Report> = reports.iter().collect();
            if let Some(p) = svg {
                std::fs::write(&p, crate::selfplay::svg(&refs))
                    .map_err(|e| CliError { message: format!("{}: {e}", p.display()), code: 1 })?;
            }
            let texts: Vec<String> = reports.iter().map(|r| r.text()).collect();
            w(out, &texts.join("\n"))?;
            if let [a, b] = refs.as_slice() {
                w(out, &format!("\n{}", crate::selfplay::compare(a, b)))?;
            }
        }
    }
    Ok(())
}

fn selfplay(a: &SelfplayArgs) -> Result<String, CliError> {
    use crate::selfplay::{Config, Report, compare, run, svg};
    let fail = |e: String| CliError { message: e, code: 1 };
    let engine = |t: &str| crate::ai::Engine::parse(t).map_err(CliError::usage);
    let shard = match &a.shard {
        None => None,
        Some(t) => {
            let (i, n) = t
                .split_once('/')
                .and_then(|(i, n)| Some((i.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
                .filter(|(i, n)| *n > 0 && i < n)
                .ok_or_else(|| CliError::usage(format!("--shard {t}: expected I/N with 0 <= I < N")))?;
            Some((i, n))
        }
    };
    let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let cfg = Config {
        games: a.games,
        seed: a.seed,
        white: engine(&a.white)?,
        black: engine(&a.black)?,
        threads,
        shard,
        record_moves: a.jsonl.is_some(),
    };
    let sets = parse_sets(&a.set)?;
    let progress = {
        use std::io::IsTerminal;
        std::io::stderr().is_terminal()
    };
    let ra: Report = run(&a.variant, &sets, &cfg, progress).map_err(fail)?;
    let mut jsonl = ra.jsonl();
    let (text, picture) = match &a.compare {
        None => (ra.text(), svg(&[&ra])),
        Some(b) => {
            let mut sets_b = sets.clone();
            sets_b.extend(parse_sets(&a.set_b)?);
            let rb = run(b, &sets_b, &cfg, progress).map_err(fail)?;
            jsonl.push_str(&rb.jsonl());
            (format!("{}\n{}\n{}", ra.text(), rb.text(), compare(&ra, &rb)), svg(&[&ra, &rb]))
        }
    };
    let write = |p: &std::path::Path, t: &str| std::fs::write(p, t).map_err(|e| fail(format!("{}: {e}", p.display())));
    if let Some(p) = &a.jsonl {
        write(p, &jsonl)?;
    }
    if let Some(p) = &a.svg {
        write(p, &picture)?;
    }
    Ok(text)
}
