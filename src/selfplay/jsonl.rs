//! Studies' JSON-lines files: read with a limit on each line and on the file (checked before
//! reading where the file system knows the size: `/dev/zero` is refused, not read until memory
//! runs out), merged into reports only when they hold one study (or a comparison of two rule
//! sets), and written game by game.
//!
//! A last line without its newline that is not a record is what a kill or a full disk leaves:
//! it is left out with a warning (and `--resume-from` cuts it off before appending). Any other
//! line that is not a record, or a record whose result is not one of its players or `draw`, is
//! an error naming the file and the line.

use super::study::differences;
use super::{GameRecord, Report, SelfplayError, title_of};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The longest line read (16 MiB; a game of 1000 plies with every move kept takes about 20 kB).
pub(crate) const MAX_LINE_BYTES: u64 = 16 << 20;

/// The largest file read (1 GiB: some 50 000 long games).
pub(crate) const MAX_FILE_BYTES: u64 = 1 << 30;

/// The records of one file.
#[derive(Debug, Default)]
pub(crate) struct Records {
    /// Each record with its line number (from 1).
    pub(crate) games: Vec<(usize, GameRecord)>,
    /// The bytes up to the end of the last record (where appending may start).
    pub(crate) good: u64,
    /// The line number of a last line cut off mid-write, left out.
    pub(crate) cut: Option<usize>,
    /// Whether the last record lacks its newline (an appender writes one first).
    pub(crate) unterminated: bool,
}

fn read_error(path: &Path, source: std::io::Error) -> SelfplayError {
    SelfplayError::Read { path: path.to_path_buf(), source }
}

fn too_large(path: &Path, what: String) -> SelfplayError {
    SelfplayError::TooLarge { path: path.to_path_buf(), what }
}

/// Opens `path` for reading at most [`MAX_FILE_BYTES`] (and one more, to see that there are
/// more): a regular file over the limit is refused before anything is read.
fn open(path: &Path) -> Result<impl BufRead, SelfplayError> {
    let f = std::fs::File::open(path).map_err(|e| read_error(path, e))?;
    let meta = f.metadata().map_err(|e| read_error(path, e))?;
    if meta.is_dir() {
        return Err(read_error(path, std::io::Error::other("a folder, not a JSON-lines file")));
    }
    if meta.is_file() && meta.len() > MAX_FILE_BYTES {
        return Err(too_large(path, format!("{} bytes, over the limit of {MAX_FILE_BYTES} bytes for a JSON-lines file", meta.len())));
    }
    Ok(std::io::BufReader::new(f.take(MAX_FILE_BYTES + 1)))
}

/// Reads the records of a JSON-lines file (see the module's documentation).
///
/// # Errors
/// The file cannot be read, is over a limit, or holds a line that is not a record (but a cut
/// last line) or a record with an unknown result.
pub(crate) fn read_records(path: &Path) -> Result<Records, SelfplayError> {
    let mut games = Vec::new();
    let mut r = read_each(path, |number, g| {
        games.push((number, g));
        Ok(())
    })?;
    r.games = games;
    Ok(r)
}

/// Reads the records of a JSON-lines file one at a time, handing each to `each` with its line
/// number (from 1): the file is never held whole. The [`Records`] returned say what else was
/// found, with no games.
///
/// # Errors
/// As [`read_records`], or what `each` returns.
fn read_each(path: &Path, mut each: impl FnMut(usize, GameRecord) -> Result<(), SelfplayError>) -> Result<Records, SelfplayError> {
    let mut r = open(path)?;
    let mut out = Records::default();
    let mut buf = Vec::new();
    let mut at = 0u64;
    for number in 1.. {
        let n = crate::files::read_line_limited(&mut r, &mut buf, MAX_LINE_BYTES as usize).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => too_large(path, format!("line {number}: {e}")),
            _ => read_error(path, e),
        })? as u64;
        if n == 0 {
            break;
        }
        at += n;
        if at > MAX_FILE_BYTES {
            return Err(too_large(path, format!("longer than the limit of {MAX_FILE_BYTES} bytes for a JSON-lines file")));
        }
        let ended = buf.last() == Some(&b'\n');
        if buf.iter().all(u8::is_ascii_whitespace) {
            out.good = at;
            continue;
        }
        match serde_json::from_slice::<GameRecord>(&buf) {
            Ok(g) if !g.result_known() => {
                let players = g.names().map(String::from);
                let result = g.result.chars().take(40).collect();
                return Err(SelfplayError::UnknownResult { path: path.to_path_buf(), line: number, result, players });
            }
            Ok(g) => {
                each(number, g)?;
                out.good = at;
                out.unterminated = !ended;
            }
            Err(_) if !ended => out.cut = Some(number),
            Err(source) => return Err(SelfplayError::NotARecord { path: path.to_path_buf(), line: number, source }),
        }
    }
    Ok(out)
}

/// The warning for a file's cut last line.
fn cut_warning(path: &Path, line: usize) -> String {
    format!("{}:{line}: the last line is cut off (a run killed while writing it, or a full disk): left out", path.display())
}

/// Reads the finished games of a JSON-lines file for `--resume-from`, and how many of its bytes
/// hold them: a last line cut off by a kill is not a game (appending starts where it began).
///
/// # Errors
/// As [`read_records`].
pub fn read_resumable(path: &Path) -> Result<(Vec<GameRecord>, u64), SelfplayError> {
    let r = read_records(path)?;
    Ok((r.games.into_iter().map(|(_, g)| g).collect(), r.good))
}

/// Reports merged from files, and what the reader should be told beside them.
#[derive(Debug)]
pub struct Merged {
    /// One report a rule set, in the order first seen.
    pub reports: Vec<Report>,
    /// Cut last lines, games found twice with the same record.
    pub warnings: Vec<String>,
}

/// Where a record was read: (file, line).
type Place = (usize, usize);

/// One rule set's games as they are read: their tally, and per game (its study but the shard,
/// hashed, and its index) where it was first read and a hash of its record without times, to
/// find a game read twice. Per study (but its shard), what `missing` needs.
struct Group {
    title: String,
    tally: super::tally::Tally,
    games: std::collections::HashMap<(u64, u64), (Place, u64)>,
    studies: BTreeMap<String, StudySeen>,
}

/// A study's games in one rule set: its description (from the first game read), the shards
/// seen, and how many distinct games.
struct StudySeen {
    study: Option<super::study::Study>,
    shards: BTreeSet<(u64, u64)>,
    games: u64,
}

/// What a merge keeps while it reads: the first record (every other must be of its study unless
/// `mixed`), the groups in the order first seen, and the games found twice with the same record
/// (how many, and the first: where first, where again, its index).
struct Merging {
    mixed: bool,
    opening_plies: usize,
    first: Option<(Place, GameRecord)>,
    groups: Vec<Group>,
    twice: (usize, Option<(Place, Place, u64)>),
}

/// A number standing for a value's JSON text (the same text, the same number, in any run).
fn hash_of(value: &impl serde::Serialize) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    serde_json::to_vec(value).unwrap_or_default().hash(&mut h);
    h.finish()
}

impl Merging {
    /// Takes one record read at `p`.
    ///
    /// # Errors
    /// Two studies are mixed, or one game has two different records (`at` names places).
    fn add(&mut self, p: Place, g: GameRecord, at: &dyn Fn(Place) -> String) -> Result<(), SelfplayError> {
        match &self.first {
            None => self.first = Some((p, g.clone())),
            Some((q, first)) if !self.mixed => {
                let d = differences(first, &g, false);
                if !d.is_empty() {
                    return Err(SelfplayError::OtherStudy(format!(
                        "{} and {} are games of different studies ({}); `report --mixed` reports them together anyway",
                        at(*q),
                        at(p),
                        d.join(", ")
                    )));
                }
            }
            Some(_) => {}
        }
        let title = title_of(&g);
        let i = match self.groups.iter().position(|x| x.title == title) {
            Some(i) => i,
            None => {
                let tally = super::tally::Tally::new(self.opening_plies);
                self.groups.push(Group { title, tally, games: Default::default(), studies: BTreeMap::new() });
                self.groups.len() - 1
            }
        };
        let group = &mut self.groups[i];
        let study = study_key(&g);
        let record = hash_of(&g.untimed());
        match group.games.get(&(hash_of(&study), g.index)) {
            Some((q, h)) if *h == record => {
                self.twice.0 += 1;
                self.twice.1.get_or_insert((*q, p, g.index));
                return Ok(());
            }
            Some((q, _)) => {
                let msg = format!("game {} of {} has two different records: {} and {}", g.index, group.title, at(*q), at(p));
                return Err(SelfplayError::OtherStudy(msg));
            }
            None => _ = group.games.insert((hash_of(&study), g.index), (p, record)),
        }
        let seen = group.studies.entry(study).or_insert_with(|| StudySeen { study: g.study.clone(), shards: BTreeSet::new(), games: 0 });
        seen.games += 1;
        seen.shards.extend(g.study.as_ref().and_then(|s| s.shard()));
        group.tally.add(&g.view());
        Ok(())
    }
}

/// Reads JSON-lines files (shards) into reports, one per rule set (variant and options) in the
/// order first seen, one record at a time (the files are never held whole). Unless `mixed`,
/// every record must be of one study (or of a comparison of rule sets played alike); a game
/// index found twice counts once if both records agree (times and shard aside) and is an error
/// if they do not. A report says which shards and how many of the study's games are missing.
///
/// # Errors
/// A file cannot be read or is over a limit, a line is not a record, a result is unknown, two
/// studies are mixed, or one game has two different records.
pub fn merge(files: &[PathBuf], mixed: bool, opening_plies: usize) -> Result<Merged, SelfplayError> {
    let mut warnings = Vec::new();
    let at = |(k, line): Place| format!("{}:{line}", files[k].display());
    let mut m = Merging { mixed, opening_plies, first: None, groups: Vec::new(), twice: (0, None) };
    for (k, f) in files.iter().enumerate() {
        let r = read_each(f, |line, g| m.add((k, line), g, &at))?;
        if let Some(line) = r.cut {
            warnings.push(cut_warning(f, line));
        }
    }
    if m.first.is_none() {
        return Err(SelfplayError::NoGames);
    }
    if let (n, Some((q, p, index))) = m.twice {
        warnings.push(format!(
            "{n} games are in these files twice with the same record, each counted once (the first: game {index}, {} and {})",
            at(q),
            at(p)
        ));
    }
    let reports = m
        .groups
        .into_iter()
        .map(|g| {
            let mut r = Report::of(g.title, g.tally, None);
            r.warnings = missing(&g.studies);
            r
        })
        .collect();
    Ok(Merged { reports, warnings })
}

/// What tells the records of one study apart from another's in one rule set: the study without
/// its shard (empty for records written before studies were recorded).
fn study_key(g: &GameRecord) -> String {
    let s = g.study.clone().map(|mut s| {
        s.shard = None;
        s
    });
    s.map(|s| serde_json::to_string(&s).unwrap_or_default()).unwrap_or_default()
}

/// What the games of one rule set lack of their studies: shards never seen, and games asked for
/// and not in the files (an interrupted run).
fn missing(studies: &BTreeMap<String, StudySeen>) -> Vec<String> {
    let mut out = Vec::new();
    for seen in studies.values() {
        let Some(s) = seen.study.as_ref() else { continue };
        if let Some(&(_, n)) = seen.shards.iter().next() {
            let absent: Vec<String> = (0..n.min(1000)).filter(|i| !seen.shards.contains(&(*i, n))).map(|i| format!("{i}/{n}")).collect();
            if !absent.is_empty() {
                out.push(format!(
                    "shards missing from these files: {} (the report covers {} of {n} shards)",
                    absent.join(", "),
                    seen.shards.len()
                ));
            }
        }
        let pairs = if s.kind == "arena" { (s.engines.len() * s.engines.len().saturating_sub(1) / 2).max(1) as u64 } else { 1 };
        let asked = s.games.saturating_mul(pairs);
        if seen.games < asked {
            out.push(format!("these files hold {} of the study's {asked} games (a run stopped early or a shard missing)", seen.games));
        }
    }
    out
}

/// The games of `--resume-from FILE` and the `--jsonl` file (or FILE itself) new games stream to.
pub(crate) struct GameFiles {
    /// The games read back.
    pub(crate) resumed: Vec<GameRecord>,
    /// The file resumed, to name in its errors.
    pub(crate) resume_from: Option<PathBuf>,
    /// Where new games go, and its name for errors.
    out: Option<(PathBuf, std::io::BufWriter<std::fs::File>)>,
}

impl GameFiles {
    /// Reads `resume_from` (if any) and opens the file new games go to: `jsonl`, else
    /// `resume_from` itself. The file resumed is appended to (cut back to its last whole line);
    /// another is created (or truncated: a device or a FIFO is written through, a symlink
    /// followed) with the resumed games first.
    ///
    /// # Errors
    /// Either file cannot be read or written (the message names it), or is over a limit.
    pub(crate) fn open(jsonl: Option<&Path>, resume_from: Option<&Path>) -> Result<GameFiles, SelfplayError> {
        let read = match resume_from {
            Some(p) => read_records(p)?,
            None => Records::default(),
        };
        let resumed: Vec<GameRecord> = read.games.into_iter().map(|(_, g)| g).collect();
        let Some(p) = jsonl.or(resume_from) else { return Ok(GameFiles { resumed, resume_from: None, out: None }) };
        let err = |e: std::io::Error| SelfplayError::Read { path: p.to_path_buf(), source: e };
        let same = resume_from.is_some_and(|r| r == p || std::fs::canonicalize(r).ok() == std::fs::canonicalize(p).ok());
        let mut w = if same {
            let f = std::fs::OpenOptions::new().read(true).append(true).open(p).map_err(err)?;
            // A game cut off mid-line by a kill is dropped, so the next one starts on its own line.
            if f.metadata().map_err(err)?.is_file() && f.metadata().map_err(err)?.len() > read.good {
                f.set_len(read.good).map_err(err)?;
            }
            let mut w = std::io::BufWriter::new(f);
            if read.unterminated && last_byte(w.get_mut(), read.good).map_err(err)? != Some(b'\n') {
                w.write_all(b"\n").map_err(err)?;
            }
            w
        } else {
            std::io::BufWriter::new(std::fs::File::create(p).map_err(err)?)
        };
        if !same {
            for g in &resumed {
                writeln!(w, "{}", serde_json::to_string(g).unwrap_or_default()).map_err(err)?;
            }
        }
        Ok(GameFiles { resumed, resume_from: resume_from.map(Path::to_path_buf), out: Some((p.to_path_buf(), w)) })
    }

    /// Writes a finished game as one line, flushed at once (a killed run keeps it).
    ///
    /// # Errors
    /// The file cannot be written: the error, of the same kind, names the file.
    /// Whether games are written (a file was given).
    pub(crate) fn writes(&self) -> bool {
        self.out.is_some()
    }

    pub(crate) fn write(&mut self, g: &GameRecord) -> std::io::Result<()> {
        let Some((p, f)) = &mut self.out else { return Ok(()) };
        let line = serde_json::to_string(g).unwrap_or_default();
        writeln!(f, "{line}").and_then(|()| f.flush()).map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", p.display())))
    }
}

/// The byte before `len` in `f` (None for an empty file).
fn last_byte(f: &mut std::fs::File, len: u64) -> std::io::Result<Option<u8>> {
    if len == 0 {
        return Ok(None);
    }
    f.seek(std::io::SeekFrom::Start(len - 1))?;
    let mut b = [0u8];
    f.read_exact(&mut b)?;
    Ok(Some(b[0]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    const GAME: &str =
        r#"{"index":0,"seed":1,"variant":"x","options":{},"result":"white","reason":"r","plies":1,"moves":["a1"],"branching":[1]}"#;

    #[test]
    fn a_cut_last_line_is_left_out_and_any_other_bad_line_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let cut = file(dir.path(), "cut.jsonl", &format!("{GAME}\n{}", &GAME[..30]));
        let r = read_records(&cut).unwrap();
        assert_eq!((r.games.len(), r.cut, r.good), (1, Some(2), GAME.len() as u64 + 1));
        // The same cut line with its newline: not what a kill leaves.
        let bad = file(dir.path(), "bad.jsonl", &format!("{}\n{GAME}\n", &GAME[..30]));
        assert!(read_records(&bad).unwrap_err().to_string().contains("bad.jsonl:1: not a game record"));
        // A whole last record without its newline is a record.
        let whole = file(dir.path(), "whole.jsonl", GAME);
        let r = read_records(&whole).unwrap();
        assert_eq!((r.games.len(), r.cut, r.unterminated), (1, None, true));
    }

    #[test]
    fn an_unknown_result_names_the_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let f = file(dir.path(), "m.jsonl", &format!("{GAME}\n{}\n", GAME.replace("\"white\"", "\"martian\"")));
        let e = read_records(&f).unwrap_err().to_string();
        assert!(e.contains("m.jsonl:2: unknown result `martian` (expected white, black or draw)"), "{e}");
        // Named players: their names are the results.
        let named = GAME.replace("\"result\":\"white\"", "\"players\":[\"black\",\"white\"],\"result\":\"red\"");
        let f = file(dir.path(), "n.jsonl", &format!("{named}\n"));
        assert!(read_records(&f).unwrap_err().to_string().contains("expected black, white or draw"));
    }

    #[test]
    fn endless_files_stop_at_the_line_limit() {
        let e = read_records(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("/dev/zero: line 1: a line longer than 16 MiB"), "{e}");
    }
}
