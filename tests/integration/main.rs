//! The one integration-test binary: scenarios (insta snapshots), perft files, diagnostics of
//! broken variants, the command line, properties over random playouts, and allocations per
//! node (a counting global allocator).

mod alloc;
mod analysis;
mod arena;
mod autosaves;
mod cli;
mod compose;
mod crash;
mod diagrams;
mod engines;
mod errors;
mod fen_fs;
mod files;
mod fn_length;
mod fuzz;
mod hex;
mod kernel;
mod layers;
mod limits;
mod nopanic;
mod perft_files;
mod properties;
mod records;
mod repl;
mod san;
mod scenarios;
mod selfplay;
mod serve;
mod serve_live;
mod serve_panels;
mod session;
mod studies;
mod sweep;
mod tune;
mod uci;
mod workflow;

/// The crate's root, where `variants/` lives (tests run there).
pub fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The newest autosaved session in a data folder (each REPL session writes its own file,
/// named by time; a live session's lock file is beside it).
pub fn latest_autosave(data: &std::path::Path) -> std::path::PathBuf {
    let mut files: Vec<_> = std::fs::read_dir(data.join("autosaves"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files.pop().expect("an autosave")
}

/// An empty scratch folder for one test, of its own (named `boardlab-NAME-` and a unique tail,
/// so that tests running at once never share one), removed when the test is done with it: a
/// test run leaves nothing in the system's temporary folder. Kept where the test failed, so
/// that what it wrote can be read, and said so.
pub fn scratch(name: &str) -> Scratch {
    Scratch(tempfile::Builder::new().prefix(&format!("boardlab-{name}-")).tempdir().unwrap())
}

/// A test's scratch folder ([`scratch`]): a path while it lives.
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        self.0.path()
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        self.0.path()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.disable_cleanup(true);
            eprintln!("the failed test's scratch folder is kept: {}", self.0.path().display());
        }
    }
}

/// Runs the binary with `input` on standard input and `data` as its data folder.
pub fn binary(args: &[&str], input: &str, data: &std::path::Path) -> std::process::Output {
    binary_in(&crate::root(), args, input, data)
}

/// [`binary`] run in the folder `dir` (and with no `$BOARDLAB_PATH`).
pub fn binary_in(dir: &std::path::Path, args: &[&str], input: &str, data: &std::path::Path) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_boardlab"))
        .args(args)
        .env("BOARDLAB_DATA_DIR", data)
        .env("NO_COLOR", "1")
        .env_remove("BOARDLAB_PATH")
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A program that exits before reading its input (a refused command) closes the pipe: the
    // write then fails with a broken pipe, which says nothing about the program.
    match std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("writing the input: {e}"),
        _ => {}
    }
    child.wait_with_output().unwrap()
}

/// Sends Ctrl-C (SIGINT) to `child` and waits for it to finish, at most `limit` (then it is
/// killed, so that a test of stopping cannot hang): its output.
pub fn interrupt(mut child: std::process::Child, limit: std::time::Duration) -> std::process::Output {
    let sent = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let t = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() && t.elapsed() < limit {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    if child.try_wait().unwrap().is_none() {
        child.kill().unwrap();
    }
    child.wait_with_output().unwrap()
}
