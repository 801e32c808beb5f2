//! Playing studies: one or several (the arena's pairs) on a pool of threads sharing one loaded
//! variant, the games of an earlier run read back instead of played again, every finished game
//! handed to a sink in the canonical order (by study, then by index) whatever the thread count,
//! a progress bar, and Ctrl-C.

use super::study::{Study, differences};
use super::tally::Tally;
use super::{Config, Desk, Finished, GameRecord, Names, Report, SelfplayError, describe, game_seed, play_game, title_of, with_move_limit};
use crate::ai::Engine;
use crate::variant::Variant;
use std::collections::BTreeMap;
use std::time::Instant;

/// Where a study's games go as they finish: a JSON-lines file flushed game by game, so a run
/// killed after hours keeps every finished game (`--resume-from` continues it). A study given
/// none makes no record of its games (it tallies them as they are played).
pub(crate) type Sink<'a> = &'a mut dyn FnMut(&GameRecord) -> std::io::Result<()>;

/// Plays a study on `cfg.threads` threads (all sharing one loaded variant), with a progress bar
/// on standard error when `progress`. Games already in `resumed` (from an earlier run of the
/// same study, see [`resumable`]) are not played again but count in the report. Each new game
/// goes to `sink`, where there is one, in the order of the indices. Ctrl-C stops the study: the report covers the
/// finished games and says it was interrupted.
///
/// # Errors
/// The variant does not load, a player's name is not the variant's, a script hook failed,
/// `sink` failed, or a resumed game belongs to another study.
pub(crate) fn run_into(
    spec: &str,
    sets: &[(String, String)],
    cfg: &Config,
    progress: bool,
    resumed: &[GameRecord],
    sink: Option<Sink>,
) -> Result<Report, SelfplayError> {
    let batch = Batch { cfgs: std::slice::from_ref(cfg), arena: None, threads: cfg.threads, progress, keep: false };
    run_batch(spec, sets, &batch, resumed, sink).map(Played::report)
}

/// The games of several studies of one variant played together (see [`run_batch`]).
#[derive(Clone, Debug)]
pub(crate) struct Played {
    /// The rule set: the variant and the options given.
    pub(crate) title: String,
    /// The variant's players, the first seat's first.
    pub(crate) names: [String; 2],
    /// Each study's numbers, in the order of the configurations.
    pub(crate) tallies: Vec<Tally>,
    /// Each study's games by index, when the batch keeps them ([`Batch::keep`]; else empty).
    pub(crate) games: Vec<Vec<GameRecord>>,
    /// Ctrl-C stopped the batch: `games` are those finished.
    pub(crate) interrupted: bool,
    /// Games read back from an earlier run rather than played here.
    pub(crate) resumed: u64,
    /// Seconds the games took, when all were played here.
    pub(crate) seconds: Option<f64>,
}

impl Played {
    /// The report of the first (for a batch of one, the only) study.
    fn report(self) -> Report {
        let tally = self.tallies.into_iter().next().unwrap_or_else(|| Tally::new(1));
        let mut report = Report::of(self.title, tally, self.seconds);
        report.names = self.names;
        report.interrupted = self.interrupted;
        report.resumed = self.resumed;
        report
    }
}

/// Studies played as one: one pool of `threads` threads, one progress bar, one sink.
pub(crate) struct Batch<'a> {
    /// One self-play study, or an arena's studies (one per pair).
    pub(crate) cfgs: &'a [Config],
    /// The arena's engines (its records carry them as their study's), or `None` for self-play.
    pub(crate) arena: Option<&'a [Engine]>,
    pub(crate) threads: usize,
    /// A progress bar on standard error.
    pub(crate) progress: bool,
    /// Keep every game's record in [`Played::games`] (the arena's table reads them); a study's
    /// report needs only its tally, so its memory does not grow with its games.
    pub(crate) keep: bool,
}

/// Several studies of one variant played as one (the arena's, one per pair of engines).
/// Otherwise as [`run_into`]: `resumed` games of these studies are not played again, Ctrl-C
/// stops with the games finished.
///
/// # Errors
/// The variant does not load, a player's name is not the variant's, a script hook failed,
/// `sink` failed, or a resumed game belongs to another study.
pub(crate) fn run_batch(
    spec: &str,
    sets: &[(String, String)],
    batch: &Batch,
    resumed: &[GameRecord],
    sink: Option<Sink>,
) -> Result<Played, SelfplayError> {
    let v = Variant::load(spec, &with_move_limit(sets)).map_err(|e| SelfplayError::Load(e.render(false)))?;
    let cfgs = batch.cfgs.iter().map(|c| c.seated(&v.rules)).collect::<Result<Vec<_>, _>>()?;
    prepare(&v, &cfgs)?;
    let label = Study::of(&v, &cfgs, batch.arena);
    let mine = resumable(&v, &cfgs, &label, resumed)?;
    let total: usize = cfgs.iter().map(|c| c.indices().count()).sum();
    let done: usize = mine.iter().map(Vec::len).sum();
    let bar = batch.progress.then(|| progress_bar(total as u64, done as u64, v.name()));
    let mut tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let played = study(&v, &cfgs, (&label, batch), mine, (sink, &mut tick));
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    played
}

/// Loads and checks what the studies' engines need before a game is played (the file of an
/// `ENGINE@eval=FILE`): a wrong one is the command's error, not a lost game.
fn prepare(v: &Variant, cfgs: &[Config]) -> Result<(), SelfplayError> {
    for c in cfgs {
        for e in [c.first, c.second] {
            crate::ai::evaluated::prepare(v, e).map_err(SelfplayError::Load)?;
        }
    }
    Ok(())
}

/// [`run_into`] with nothing resumed and the games kept in the report only.
///
/// # Errors
/// The variant does not load, or a script hook failed.
pub fn run(spec: &str, sets: &[(String, String)], cfg: &Config, progress: bool) -> Result<Report, SelfplayError> {
    run_into(spec, sets, cfg, progress, &[], None)
}

/// [`run`], with every game's record (in the order of the indices) beside the report.
///
/// # Errors
/// The variant does not load, or a script hook failed.
pub fn run_games(spec: &str, sets: &[(String, String)], cfg: &Config, progress: bool) -> Result<(Report, Vec<GameRecord>), SelfplayError> {
    let mut games = Vec::new();
    let report = run_into(
        spec,
        sets,
        cfg,
        progress,
        &[],
        Some(&mut |g| {
            games.push(g.clone());
            Ok(())
        }),
    )?;
    Ok((report, games))
}

/// Plays a study on an already loaded variant, on this thread (the REPL's `selfplay`);
/// `each` hears of every finished game (for a progress line); no record is made.
///
/// # Errors
/// A player's name is not the variant's, or a script hook failed.
pub(crate) fn run_variant(v: &Variant, cfg: &Config, each: &mut dyn FnMut()) -> Result<Report, SelfplayError> {
    let v = v.with_options(&with_move_limit(&v.overrides)).map_err(|e| SelfplayError::Load(e.render(false)))?;
    let cfg = cfg.seated(&v.rules)?;
    prepare(&v, std::slice::from_ref(&cfg))?;
    let label = Study::of(&v, std::slice::from_ref(&cfg), None);
    let batch = Batch { cfgs: &[], arena: None, threads: 1, progress: false, keep: false };
    let played = study(&v, std::slice::from_ref(&cfg), (&label, &batch), vec![vec![]], (None, each));
    played.map(Played::report)
}

/// The games of `resumed` that belong to these studies, labelled `label`: for each study, its
/// games by index. A game goes to the study whose two engines played it (with one study, to
/// that study). Games of another rule set played with everything else the same are skipped
/// (the other half of a `selfplay --compare` run).
///
/// # Errors
/// A game of another study: another seed, other players, another shard, the variant's files
/// changed; continuing would mix two studies.
pub(crate) fn resumable(
    v: &Variant,
    cfgs: &[Config],
    label: &Study,
    resumed: &[GameRecord],
) -> Result<Vec<Vec<GameRecord>>, SelfplayError> {
    let title = describe(v);
    let mut out: Vec<BTreeMap<u64, GameRecord>> = vec![BTreeMap::new(); cfgs.len()];
    let met = |c: &Config, g: &GameRecord| {
        let (w, b) = (c.first.to_string(), c.second.to_string());
        (g.first == w && g.second == b) || (g.first == b && g.second == w)
    };
    let other = |g: &GameRecord, why: String| {
        SelfplayError::OtherStudy(format!(
            "game {} ({}) is not of this study: {why}",
            g.index,
            title_of(g).chars().take(80).collect::<String>()
        ))
    };
    let ours = GameRecord {
        variant: v.name().into(),
        options: v.overrides.iter().cloned().collect(),
        study: Some(label.clone()),
        ..GameRecord::default()
    };
    for g in resumed {
        if g.study.is_some() {
            let d = differences(&ours, g, true);
            if !d.is_empty() {
                return Err(other(g, format!("this run's against the file's: {}", d.join(", "))));
            }
            if title_of(g) != title {
                continue;
            }
        } else if title_of(g) != title {
            return Err(other(g, format!("its rule set is not {title}")));
        }
        let Some(k) = (if cfgs.len() == 1 { Some(0) } else { cfgs.iter().position(|c| met(c, g)) }) else {
            return Err(other(g, format!("it was played by {} against {}, who do not meet here", g.first, g.second)));
        };
        let cfg = &cfgs[k];
        if !cfg.plays(g.index) {
            return Err(other(g, format!("its index is not among this study's {} games (or this shard's)", cfg.games)));
        }
        let (w, b) = cfg.players(g.index);
        let players = (w.to_string(), b.to_string());
        if g.random_plies != cfg.random_plies.min(g.plies) {
            let why = format!("it opened with {} random decisions, not this study's {} (--random-plies)", g.random_plies, cfg.random_plies);
            return Err(other(g, why));
        }
        if g.seed != game_seed(cfg.seed, g.index) || (!g.first.is_empty() && (g.first.clone(), g.second.clone()) != players) {
            let why = format!(
                "it was played with seed {} by {} against {}, not with this study's (--seed {}, {} against {})",
                g.seed, g.first, g.second, cfg.seed, players.0, players.1
            );
            return Err(other(g, why));
        }
        out[k].insert(g.index, g.clone());
    }
    Ok(out.into_iter().map(|m| m.into_values().collect()).collect())
}

/// The games to play, by study then index, without a list of them (a study of a million
/// games would hold 16 MB of it): per study, the indices it plays (every `step`-th from
/// `first`, `count` of them) less the positions among them of the games already done.
struct Jobs {
    studies: Vec<(u64, u64, Vec<u64>)>,
    /// Per study, the jobs before it; then the number of jobs.
    starts: Vec<usize>,
}

impl Jobs {
    /// The games of `cfgs` not in `done` (by study).
    fn new(cfgs: &[Config], done: &[Vec<GameRecord>]) -> Jobs {
        let (mut studies, mut starts) = (Vec::new(), vec![0]);
        for (k, cfg) in cfgs.iter().enumerate() {
            let (first, step, count) = Jobs::played(cfg);
            let mut skip: Vec<u64> =
                done.get(k).into_iter().flatten().map(|g| g.index).filter(|&i| cfg.plays(i)).map(|i| (i - first) / step).collect();
            skip.sort_unstable();
            skip.dedup();
            starts.push(starts[k] + (count - skip.len() as u64) as usize);
            studies.push((first, step, skip));
        }
        Jobs { studies, starts }
    }

    /// The indices `cfg` plays: (the first, the step, how many), as [`Config::plays`] says.
    fn played(cfg: &Config) -> (u64, u64, u64) {
        let (first, step) = cfg.shard.unwrap_or((0, 1));
        (first, step, if first < cfg.games { (cfg.games - first).div_ceil(step) } else { 0 })
    }

    fn len(&self) -> usize {
        self.starts[self.starts.len() - 1]
    }

    /// Job `at`: (its study, its index).
    #[inline]
    fn get(&self, at: usize) -> (usize, u64) {
        // (One study with no game done: the job's place is its index's.)
        if let [(first, step, skip)] = &self.studies[..]
            && skip.is_empty()
        {
            return (0, first + at as u64 * step);
        }
        let k = self.starts.partition_point(|&s| s <= at) - 1;
        let (first, step, skip) = &self.studies[k];
        let j = (at - self.starts[k]) as u64;
        // The `j`-th position not skipped: the least p with more than j positions up to it left.
        let left = |p: u64| p + 1 - skip.partition_point(|&d| d <= p) as u64;
        let (mut lo, mut hi) = (j, j + skip.len() as u64);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if left(mid) > j { hi = mid } else { lo = mid + 1 }
        }
        (k, first + lo * step)
    }
}

/// Hands finished games to a sink in the order of the jobs, whatever order they finish in: a
/// game waits here until every earlier job's game has gone.
struct InOrder {
    next: usize,
    waiting: BTreeMap<usize, GameRecord>,
}

impl InOrder {
    /// Takes job `at`'s game and sends every game now due (the game due goes straight out;
    /// one that must wait is moved here, leaving an empty record in `g`).
    fn put(&mut self, at: usize, g: &mut GameRecord, sink: &mut dyn FnMut(&GameRecord) -> std::io::Result<()>) -> std::io::Result<()> {
        if at == self.next {
            sink(g)?;
            self.next += 1;
        } else {
            self.waiting.insert(at, std::mem::take(g));
        }
        while let Some(g) = self.waiting.remove(&self.next) {
            sink(&g)?;
            self.next += 1;
        }
        Ok(())
    }

    /// Sends the games still waiting (after a gap that Ctrl-C left), so none finished is lost.
    fn flush(&mut self, sink: &mut dyn FnMut(&GameRecord) -> std::io::Result<()>) -> std::io::Result<()> {
        for g in std::mem::take(&mut self.waiting).into_values() {
            sink(&g)?;
        }
        Ok(())
    }
}

/// The games of the studies `cfgs` not in `done` (by study), played on the batch's threads;
/// every finished game is tallied in its study's tally, counted by `tick`, and, where there is
/// a `sink` or the batch keeps its games, made into its record, which goes to `sink` (on this
/// thread, in the order of the jobs: by study, by index).
fn study(
    v: &Variant,
    cfgs: &[Config],
    (label, batch): (&Study, &Batch),
    done: Vec<Vec<GameRecord>>,
    (mut sink, tick): (Option<Sink>, &mut dyn FnMut()),
) -> Result<Played, SelfplayError> {
    let jobs = Jobs::new(cfgs, &done);
    let resumed: usize = done.iter().map(Vec::len).sum();
    let (mut tallies, mut games) = resumed_into(cfgs, done, batch.keep);
    let names: Vec<Names> = cfgs.iter().map(|c| Names::of(v, c)).collect();
    // Games are made into records (one, written over) only where a sink or the batch keeps them.
    let (records, mut rec) = (sink.is_some() || batch.keep, GameRecord::default());
    let mut failure: Option<SelfplayError> = None;
    let mut interrupted = false;
    let mut order = InOrder { next: 0, waiting: BTreeMap::new() };
    let mut write = |g: &GameRecord| sink.as_mut().map_or(Ok(()), |s| s(g));
    let t = Instant::now();
    // Expects a game (asks for what its tally will read), or takes job `at`'s finished game (or
    // why it did not finish); false: stop the study.
    let mut take = |step: Step| -> bool {
        let (at, r) = match step {
            Step::Expect(at, digest) => {
                tallies[jobs.get(at).0].expect(digest);
                return true;
            }
            Step::Take(at, r) => (at, r),
        };
        let k = jobs.get(at).0;
        let r = r.and_then(|f| {
            tallies[k].add(&f.view(&names[k]));
            tick();
            if !records {
                return Ok(());
            }
            f.record_into(v, &names[k], &mut rec);
            // (The study's label matters only to a record written down: resumed or merged.)
            if cfgs[k].record_moves {
                rec.study = Some(label.clone());
            }
            if batch.keep {
                games[k].push(rec.clone());
            }
            order.put(at, &mut rec, &mut write).map_err(SelfplayError::Output)
        });
        match r {
            Ok(()) => true,
            Err(SelfplayError::Interrupted(_)) => {
                interrupted = true;
                false
            }
            Err(e) => {
                failure.get_or_insert(e);
                false
            }
        }
    };
    let play = |desk: &mut Desk, at: usize, f: &mut Finished| {
        let (k, index) = jobs.get(at);
        play_game(&cfgs[k], index, desk, f)
    };
    let panicked = pool(v, batch.threads, jobs.len(), &play, &mut take);
    if let Err(e) = order.flush(&mut write) {
        failure.get_or_insert(SelfplayError::Output(e));
    }
    if let Some(e) = failure {
        return Err(e);
    }
    if panicked {
        return Err(SelfplayError::Panicked);
    }
    for g in &mut games {
        g.sort_by_key(|g| g.index);
    }
    // The speed is for the games played here; resumed games were timed elsewhere.
    let seconds = (resumed == 0).then(|| t.elapsed().as_secs_f64());
    let names = crate::piece::Player::both().map(|p| v.rules.player_name(p).to_string());
    Ok(Played { title: describe(v), names, tallies, games, interrupted, resumed: resumed as u64, seconds })
}

/// Each study's tally of its games `done` (read back), and those games where the batch
/// keeps its games.
fn resumed_into(cfgs: &[Config], done: Vec<Vec<GameRecord>>, keep: bool) -> (Vec<Tally>, Vec<Vec<GameRecord>>) {
    let mut tallies: Vec<Tally> = cfgs.iter().map(|c| Tally::with_room(c.opening_plies, Jobs::played(c).2 as usize)).collect();
    let mut games: Vec<Vec<GameRecord>> = vec![vec![]; cfgs.len()];
    for (k, list) in done.into_iter().enumerate().take(cfgs.len()) {
        list.iter().for_each(|g| tallies[k].add(&g.view()));
        if keep {
            games[k] = list;
        }
    }
    (tallies, games)
}

/// Plays job `at` on a desk into a finished game (an earlier one's, reused).
type Play<'a> = dyn Fn(&mut Desk, usize, &mut Finished) -> Result<(), SelfplayError> + Sync + 'a;

/// What [`pool`] hands the study, a run of finished jobs at a time: each job in turn (its game
/// or why it did not finish), and each finished game a few jobs ahead of its turn (to ask for
/// what taking it will read, so that the cache misses of games near each other overlap).
pub(super) enum Step<'a> {
    /// Job `at`'s game is coming: its digest.
    Expect(usize, u64),
    Take(usize, Result<&'a mut Finished, SelfplayError>),
}

/// Plays jobs `0..n` with `play` on `threads` threads (each with a desk of its own), handing
/// each finished one to `take` on this thread ([`Step`]) until it says stop (false) or a job
/// fails; returns whether a thread panicked. Games go back to the thread that played them
/// once taken, so a study allocates nothing per game.
fn pool(v: &Variant, threads: usize, n: usize, play: &Play, take: &mut dyn FnMut(Step) -> bool) -> bool {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let threads = threads.max(1).min(n.max(1));
    if threads == 1 {
        let (mut desk, mut run, mut size) = (Desk::new(v), Run::default(), 1);
        let mut first = 0;
        while first < n {
            let end = (first + size).min(n);
            let failed = run.play(&mut desk, play, first..end, &mut size);
            if !run.hand_over(take) || failed {
                break;
            }
            first = end;
        }
        return false;
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        // Bounded: workers that outrun this thread wait, so finished games never pile up here.
        let (tx, rx) = std::sync::mpsc::sync_channel::<(usize, Run)>(4 * threads);
        let mut backs = Vec::new();
        let handles: Vec<_> = (0..threads)
            .map(|w| {
                let tx = tx.clone();
                let (back, spares) = std::sync::mpsc::channel::<Run>();
                backs.push(back);
                let (next, stop) = (&next, &stop);
                s.spawn(move || work(v, n, play, (next, stop), (&spares, &tx, w)))
            })
            .collect();
        drop(tx);
        for (w, mut run) in &rx {
            if !run.hand_over(take) {
                break;
            }
            // (A worker that has stopped no longer takes its runs back.)
            let _ = backs[w].send(run);
        }
        stop.store(true, Ordering::Relaxed);
        drop(rx);
        handles.into_iter().any(|h| h.join().is_err())
    })
}

/// A worker of [`pool`]: takes jobs below `n` from `next` in runs ([`Run::play`]), plays them
/// into a run from `spares` (or a new one) and sends it as worker `w`, until the jobs run out,
/// `stop` is set, the receiver is gone or a job fails.
fn work(
    v: &Variant,
    n: usize,
    play: &Play,
    (next, stop): (&std::sync::atomic::AtomicUsize, &std::sync::atomic::AtomicBool),
    (spares, tx, w): (&std::sync::mpsc::Receiver<Run>, &std::sync::mpsc::SyncSender<(usize, Run)>, usize),
) {
    use std::sync::atomic::Ordering;
    let (mut desk, mut size) = (Desk::new(v), 1);
    while !stop.load(Ordering::Relaxed) {
        let first = next.fetch_add(size, Ordering::Relaxed);
        if first >= n {
            break;
        }
        let mut run: Run = spares.try_recv().unwrap_or_default();
        let failed = run.play(&mut desk, play, first..(first + size).min(n), &mut size);
        if tx.send((w, run)).is_err() || failed {
            break;
        }
    }
}

/// A run of finished jobs handed over at once: the jobs that finished, each game in `games` at
/// the same place (games beyond are spares), and the job that failed after them, if one did
/// (a run stops at it).
#[derive(Default)]
struct Run {
    done: Vec<usize>,
    failed: Option<(usize, SelfplayError)>,
    games: Vec<Finished>,
}

impl Run {
    /// The most jobs in a run.
    const MOST: usize = 256;

    /// Plays `jobs` into this run (what it held is dropped), stopping at a job that fails;
    /// whether one did. `size` (the next run's) doubles while a run takes under a millisecond:
    /// a game cheaper than its hand-over goes in a run of many, a searching player's alone.
    fn play(&mut self, desk: &mut Desk, play: &Play, jobs: std::ops::Range<usize>, size: &mut usize) -> bool {
        self.done.clear();
        self.failed = None;
        let t = std::time::Instant::now();
        for at in jobs {
            let k = self.done.len();
            if self.games.len() <= k {
                self.games.push(Finished::default());
            }
            if let Err(e) = play(desk, at, &mut self.games[k]) {
                self.failed = Some((at, e));
                return true;
            }
            self.done.push(at);
        }
        if t.elapsed() < std::time::Duration::from_millis(1) && *size < Self::MOST {
            *size *= 2;
        }
        false
    }

    /// How many jobs ahead of the one taken a finished game is expected: enough for its cache
    /// miss to land before its turn, few enough that the misses asked for at once do not
    /// outnumber what the processor keeps in flight (a whole run asked at once lost most).
    const AHEAD: usize = 8;

    /// Hands each job to `take` to take, each finished game [`Run::AHEAD`] jobs earlier to
    /// expect; false: `take` said stop.
    fn hand_over(&mut self, take: &mut dyn FnMut(Step) -> bool) -> bool {
        let Run { done, failed, games } = self;
        for (k, &at) in done.iter().enumerate().take(Self::AHEAD) {
            take(Step::Expect(at, games[k].line));
        }
        for (k, &at) in done.iter().enumerate() {
            if let Some(&ahead) = done.get(k + Self::AHEAD) {
                take(Step::Expect(ahead, games[k + Self::AHEAD].line));
            }
            if !take(Step::Take(at, Ok(&mut games[k]))) {
                return false;
            }
        }
        match failed.take() {
            Some((at, e)) => take(Step::Take(at, Err(e))),
            None => true,
        }
    }
}

/// What the progress bar says after its count: the rate and the time left once a game played
/// here has ended (`done` of them in `secs` seconds, `left` to play), and until then that it
/// waits for one (a rate or an eta from nothing would be made up).
pub(crate) fn rate_and_eta(done: u64, left: u64, secs: f64) -> String {
    if done == 0 || secs <= 0.0 {
        return "waiting for the first game to end".into();
    }
    let rate = done as f64 / secs;
    let eta = std::time::Duration::from_secs((left as f64 / rate).ceil() as u64);
    format!("{} games/s, eta {}", super::sig3(rate), indicatif::HumanDuration(eta))
}

/// A bar of `n` games, `resumed` of them read back (they count as done, but not in the rate).
fn progress_bar(n: u64, resumed: u64, name: &str) -> indicatif::ProgressBar {
    let b = indicatif::ProgressBar::new(n);
    let rate = move |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let done = s.pos().saturating_sub(resumed);
        let _ = w.write_str(&rate_and_eta(done, s.len().unwrap_or(0).saturating_sub(s.pos()), s.elapsed().as_secs_f64()));
    };
    b.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} games, {elapsed} elapsed, {rate_eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .with_key("rate_eta", rate)
            .progress_chars("=> "),
    );
    b.set_message(name.to_string());
    b.set_position(resumed);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_rate_or_eta_before_a_game_ends() {
        assert_eq!(rate_and_eta(0, 100, 3.0), "waiting for the first game to end");
        // 4 games in 2 s: 2 games/s, 10 left: 5 s.
        assert_eq!(rate_and_eta(4, 10, 2.0), "2.00 games/s, eta 5 seconds");
    }

    /// The jobs are the list the studies' indices make less the games done, in order: shards,
    /// games done (some of another shard, some twice), studies of no game.
    #[test]
    fn jobs_are_the_indices_not_done() {
        let game = |i: u64| GameRecord { index: i, ..GameRecord::default() };
        let cases: Vec<(Vec<Config>, Vec<Vec<GameRecord>>)> = vec![
            (vec![Config::new(10, 1)], vec![]),
            (vec![Config::new(10, 1)], vec![vec![game(0), game(3), game(3), game(9)]]),
            (vec![Config { shard: Some((2, 3)), ..Config::new(20, 1) }], vec![vec![game(5), game(4), game(17), game(30)]]),
            (vec![Config::new(0, 1), Config::new(5, 1), Config { shard: Some((7, 4)), ..Config::new(6, 1) }], vec![vec![], vec![game(4)]]),
            (vec![Config::new(4, 1), Config::new(3, 1)], vec![vec![game(0), game(1), game(2), game(3)], vec![game(1)]]),
        ];
        for (cfgs, done) in cases {
            let mut want = Vec::new();
            for (k, cfg) in cfgs.iter().enumerate() {
                let skip: Vec<u64> = done.get(k).into_iter().flatten().map(|g| g.index).collect();
                want.extend(cfg.indices().filter(|i| !skip.contains(i)).map(|i| (k, i)));
            }
            let jobs = Jobs::new(&cfgs, &done);
            let got: Vec<(usize, u64)> = (0..jobs.len()).map(|at| jobs.get(at)).collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn games_go_out_in_the_order_of_the_jobs() {
        let mut order = InOrder { next: 0, waiting: BTreeMap::new() };
        let mut out = Vec::new();
        let g = |i: u64| GameRecord { index: i, ..GameRecord::default() };
        for at in [2usize, 0, 3, 1, 5] {
            order
                .put(at, &mut g(at as u64), &mut |g| {
                    out.push(g.index);
                    Ok(())
                })
                .unwrap();
        }
        assert_eq!(out, [0, 1, 2, 3]);
        order
            .flush(&mut |g| {
                out.push(g.index);
                Ok(())
            })
            .unwrap();
        assert_eq!(out, [0, 1, 2, 3, 5]);
    }
}
