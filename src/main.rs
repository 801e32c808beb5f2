//! The `boardlab` binary: parse the command line, run, print an error once, exit.

use clap::Parser;

fn main() {
    let cli = boardlab::cli::Cli::parse();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Err(e) = boardlab::cli::run(cli, &mut out) {
        eprintln!("{}", e.message.trim_end());
        std::process::exit(e.code);
    }
}
