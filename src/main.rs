//! The `boardlab` binary: parse the command line, run, print an error once, exit.
//!
//! A closed standard output (`boardlab moves basileus | head -1`) is not an error: the reader
//! has what it wanted, so the exit status is 0 and nothing is printed.

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

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
