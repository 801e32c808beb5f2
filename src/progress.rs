//! Live progress of long work: a line on standard error saying how far a command is (perft
//! per root move, a search per depth and root move, self-play per game), drawn only when
//! standard error is a terminal, so piped and redirected output is exactly what it was.
//!
//! The work does not know who listens: it calls [`report`] (or [`report_with`], which builds
//! the text only when someone listens), and whoever runs the command lends a [`Sink`] for its
//! duration with [`install`]. The sink is kept per thread: the REPL and the command line lend
//! theirs on the thread that runs the command, and the worker threads of a study or a
//! multi-threaded perft never draw over it (their caller reports for them).

use std::cell::RefCell;
use std::time::{Duration, Instant};

/// Where progress goes: one line of text at a time, each replacing the last.
pub(crate) type Sink = Box<dyn FnMut(&str)>;

thread_local! {
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// Whether a sink listens on this thread (work may skip building its messages otherwise).
pub(crate) fn active() -> bool {
    SINK.with(|s| s.try_borrow().is_ok_and(|s| s.is_some()))
}

/// Tells the listening sink, if any, how far the work is.
pub(crate) fn report(msg: &str) {
    SINK.with(|s| {
        // A sink that reports from inside itself is not called again (no re-entry).
        if let Ok(mut s) = s.try_borrow_mut()
            && let Some(sink) = s.as_mut()
        {
            sink(msg);
        }
    });
}

/// [`report`] with a message built only when a sink listens.
pub(crate) fn report_with(msg: impl FnOnce() -> String) {
    if active() {
        report(&msg());
    }
}

/// The sink lent to this thread until the guard is dropped (or [`Lent::give_back`] is called),
/// when the one before it listens again.
#[must_use = "the sink listens only while the guard lives"]
pub(crate) struct Lent {
    before: Option<Option<Sink>>,
}

/// Lends `sink` (`None`: nobody listens) to the work done on this thread while the guard lives.
pub(crate) fn install(sink: Option<Sink>) -> Lent {
    let before = SINK.with(|s| s.replace(sink));
    Lent { before: Some(before) }
}

impl Lent {
    /// Ends the loan and hands the lent sink back (the one before listens again).
    pub(crate) fn give_back(mut self) -> Option<Sink> {
        self.restore()
    }

    fn restore(&mut self) -> Option<Sink> {
        let before = self.before.take()?;
        SINK.with(|s| s.replace(before))
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        self.restore();
    }
}

/// The listening sink, taken from this thread until the guard is dropped: work below reports
/// to nobody, and the holder reports alone through [`Detached::report`] (the REPL's `selfplay`
/// counts games; the searches of each game would otherwise draw over the count).
pub(crate) struct Detached {
    sink: Option<Sink>,
}

/// Takes the listening sink off this thread (see [`Detached`]).
pub(crate) fn detach() -> Detached {
    Detached { sink: SINK.with(|s| s.borrow_mut().take()) }
}

impl Detached {
    /// Whether the taken sink listens.
    pub(crate) fn active(&self) -> bool {
        self.sink.is_some()
    }

    pub(crate) fn report(&mut self, msg: &str) {
        if let Some(sink) = &mut self.sink {
            sink(msg);
        }
    }
}

impl Drop for Detached {
    fn drop(&mut self) {
        let sink = self.sink.take();
        SINK.with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                *s = sink;
            }
        });
    }
}

/// A progress line on standard error for the command line: an indicatif spinner showing the
/// latest message (hidden when standard error is not a terminal), cleared when dropped.
pub(crate) struct Spinner {
    bar: indicatif::ProgressBar,
    _lent: Lent,
}

impl Spinner {
    /// Starts listening on this thread; the line disappears when the spinner is dropped.
    pub(crate) fn start() -> Spinner {
        let bar = indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        // The spinner turns and the time runs while a long step reports nothing new.
        bar.enable_steady_tick(Duration::from_millis(200));
        let b = bar.clone();
        let lent = install(Some(Box::new(move |msg: &str| {
            b.set_message(msg.to_string());
        })));
        Spinner { bar, _lent: lent }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// A count and its rate since `start`: `1,234,567 positions, 850,000/s`.
pub(crate) fn rate(count: u64, what: &str, start: Instant) -> String {
    let secs = start.elapsed().max(Duration::from_millis(1)).as_secs_f64();
    let per_s = (count as f64 / secs) as u64;
    format!("{} {what}, {}/s", thousands(count), thousands(per_s))
}

/// `1234567` → `1,234,567`.
pub(crate) fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(50_012), "50,012");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn a_lent_sink_hears_reports_until_given_back() {
        let heard = Rc::new(RefCell::new(Vec::<String>::new()));
        report("nobody listens");
        assert!(!active());
        let h = heard.clone();
        let lent = install(Some(Box::new(move |m: &str| h.borrow_mut().push(m.to_string()))));
        assert!(active());
        report("one");
        report_with(|| "two".to_string());
        let sink = lent.give_back();
        assert!(sink.is_some() && !active());
        report("three");
        assert_eq!(*heard.borrow(), ["one", "two"]);
        // Nested loans: the inner one listens, then the outer one again.
        let h = heard.clone();
        let outer = install(Some(Box::new(move |m: &str| h.borrow_mut().push(format!("outer {m}")))));
        {
            let _inner = install(None);
            report("lost");
            assert!(!active());
        }
        report("four");
        {
            // Detached: the work below is quiet, the holder still reports; then all as before.
            let mut d = detach();
            assert!(d.active() && !active());
            report("quiet");
            d.report("five");
        }
        assert!(active());
        drop(outer);
        assert_eq!(heard.borrow().last().map(String::as_str), Some("outer five"));
        assert_eq!(heard.borrow().len(), 4);
    }

    #[test]
    fn rates_read_as_counts_per_second() {
        let r = rate(1_234_567, "positions", Instant::now() - Duration::from_secs(2));
        assert!(r.starts_with("1,234,567 positions, "), "{r}");
        assert!(r.ends_with("/s"), "{r}");
    }
}
