//! The games the server holds, owned by one thread: a [`Session`] is not `Send` (its progress
//! sink), and one owner also means requests on a game never interleave. Handlers send that
//! thread a job and await its answer; a job that panics is answered with an error and the
//! thread goes on with the next.

use crate::session::Session;
use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::time::Instant;

/// The most games held at once: a new game beyond it is refused until one is deleted (never
/// evicted: a game on the screen is the user's work).
pub const MAX_GAMES: usize = 64;

/// One game and when it was last touched.
pub struct Game {
    pub session: Session,
    pub touched: Instant,
}

/// Every game by its id.
#[derive(Default)]
pub struct Games {
    pub map: BTreeMap<u64, Game>,
    next: u64,
}

impl Games {
    /// Adds a game; its id, or `None` when [`MAX_GAMES`] are held.
    pub fn add(&mut self, session: Session) -> Option<u64> {
        if self.map.len() >= MAX_GAMES {
            return None;
        }
        self.next += 1;
        self.map.insert(self.next, Game { session, touched: Instant::now() });
        Some(self.next)
    }

    /// The game `id`, marked as touched.
    pub fn get(&mut self, id: u64) -> Option<&mut Session> {
        self.map.get_mut(&id).map(|g| {
            g.touched = Instant::now();
            &mut g.session
        })
    }
}

type Job = Box<dyn FnOnce(&mut Games) + Send>;

/// The handle requests use to reach the games' thread (cheap to clone).
#[derive(Clone)]
pub struct Owner {
    jobs: mpsc::Sender<Job>,
}

/// Why a job got no answer.
#[derive(Debug)]
pub struct Lost;

impl Owner {
    /// Starts the thread that owns the games.
    pub fn start() -> Owner {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("boardlab-games".into())
            .spawn(move || {
                let mut games = Games::default();
                for job in rx {
                    // A panicking job drops its answer channel (the request gets a 500); the
                    // games stay: the session's own guard keeps a failing command's game.
                    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| job(&mut games)));
                }
            })
            .expect("spawning the games' thread");
        Owner { jobs: tx }
    }

    /// Runs `f` on the games' thread and returns its answer.
    ///
    /// # Errors
    /// The job panicked or the thread is gone.
    pub async fn call<R: Send + 'static>(&self, f: impl FnOnce(&mut Games) -> R + Send + 'static) -> Result<R, Lost> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Box::new(move |g| {
                let _ = tx.send(f(g));
            }))
            .map_err(|_| Lost)?;
        rx.await.map_err(|_| Lost)
    }
}
