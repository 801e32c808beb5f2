//! The `boardlab` binary: parse the command line, run, print an error once, exit.
//!
//! A closed standard output (`boardlab moves basileus | head -1`) is not an error: the reader
//! has what it wanted, so the exit status is 0 and nothing is printed.

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

/// mimalloc rather than the system's allocator: a self-play study keeps every game's record
/// (a dozen small allocations a game, none freed before the report), where glibc's slow path
/// cost tic-tac-toe self-play a sixth of its time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = boardlab::cli::Cli::parse();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = boardlab::cli::run(cli, &mut out).and_then(|()| out.flush().map_err(boardlab::cli::CliError::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", e.to_string().trim_end());
            ExitCode::from(e.code())
        }
    }
}
