//! Interrupting long work: Ctrl-C stops the running command, not the program.
//!
//! The shell installs the handler ([`install`]); long loops (search, perft, self-play, machine
//! games) call [`check`] now and then and stop with [`Interrupted`]. A command that stops this
//! way changes nothing it had not finished (see `docs/repl.md`). The flag is one per process,
//! because a signal is: one user at one keyboard.
//!
//! A second Ctrl-C while the first has not yet been noticed ends the program (status 130), so a
//! loop that forgets to look can never trap the user; the game was saved after its last change.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};

static FLAG: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// The running command was interrupted (Ctrl-C).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;

/// Whether an interruption was asked for and not yet cleared.
pub(crate) fn requested() -> bool {
    FLAG.load(Ordering::Relaxed)
}

/// `Err(Interrupted)` once an interruption was asked for.
///
/// # Errors
/// Ctrl-C was pressed since the flag was last cleared.
pub(crate) fn check() -> Result<(), Interrupted> {
    if requested() { Err(Interrupted) } else { Ok(()) }
}

/// Asks the running command to stop (what Ctrl-C does).
pub(crate) fn request() {
    FLAG.store(true, Ordering::Relaxed);
}

/// Forgets an interruption: the shell calls it before each command.
pub(crate) fn clear() {
    FLAG.store(false, Ordering::Relaxed);
}

/// Makes Ctrl-C (SIGINT) ask the running command to stop; a second one before the first is
/// noticed exits with status 130.
///
/// # Errors
/// The handler could not be installed.
pub(crate) fn install() -> std::io::Result<()> {
    use signal_hook::consts::SIGINT;
    // Registered first, so it sees the flag as it was before this signal set it.
    signal_hook::flag::register_conditional_shutdown(SIGINT, 130, FLAG.clone())?;
    signal_hook::flag::register(SIGINT, FLAG.clone())?;
    Ok(())
}
