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
    let cli = match boardlab::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = boardlab::cli::run(cli, &mut out).and_then(|()| out.flush().map_err(boardlab::cli::CliError::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            // The last guard of what boardlab echoes: no word of the input comes back whole
            // past a few hundred characters, whichever part of the program quoted it.
            eprintln!("{}", boardlab::files::clip_long_words(e.to_string().trim_end()));
            ExitCode::from(e.code())
        }
    }
}

/// Prints clap's message for arguments it cannot read (help and version to standard output, as
/// clap does), a long word of the arguments quoted short, and exits with clap's status.
fn usage_error(e: clap::Error) -> ExitCode {
    let plain = e.render().to_string();
    if plain == boardlab::files::clip_long_words(&plain) {
        e.exit()
    }
    eprint!("{}", boardlab::files::clip_long_words(&plain));
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}
