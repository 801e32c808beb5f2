//! The one integration-test binary: scenarios (insta snapshots), perft files, diagnostics of
//! broken variants, the command line, and properties over random playouts.

mod cli;
mod errors;
mod limits;
mod perft_files;
mod properties;
mod repl;
mod scenarios;
mod selfplay;
mod session;
mod workflow;

/// The crate's root, where `variants/` lives (tests run there).
pub fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The newest autosaved session in a data folder (each REPL session writes its own file).
pub fn latest_autosave(data: &std::path::Path) -> std::path::PathBuf {
    let mut files: Vec<_> = std::fs::read_dir(data.join("autosaves")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files.pop().expect("an autosave")
}
