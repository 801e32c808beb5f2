//! Files boardlab writes and reads, the way a careful program must.
//!
//! Writing: every whole-file output (game records, autosaves, pictures, reports, whatever
//! comes later) goes through [`write`], and every streamed one (JSON lines) is opened with
//! [`open_stream`]. Both look at what the path names first, because `rename` over a path
//! replaces whatever is there (run as root, a picture written "atomically" to `/dev/null` would
//! replace the machine's `/dev/null` with a regular file):
//! - `-`: standard output;
//! - a regular file, or nothing yet: written atomically (a temporary file in the same folder,
//!   synced, then renamed over it), keeping the old file's permissions;
//! - a symbolic link: followed (the whole chain), and its target written as above; the link
//!   stays a link;
//! - a character or block device, or a FIFO: opened and written through, never replaced;
//!   a Unix socket: connected to and written through;
//! - a directory: refused, with a message saying it is one.
//!
//! Reading: [`read_to_string_limited`] and [`read_line_limited`] stop at a size limit, checked
//! before reading where the file says its size and enforced while reading (`/dev/zero` and a
//! FIFO say nothing), with the limit in the message. [`quote`] shortens input quoted in an
//! error message.

use std::fs::{self, File};
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

/// The path that means standard output wherever boardlab takes a file to write.
pub(crate) const STDOUT: &str = "-";

/// Whether `path` is [`STDOUT`] (`-`).
pub(crate) fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == STDOUT
}

/// How many symbolic links a chain may hold before it counts as a loop (as Linux's `ELOOP`).
const MAX_LINKS: usize = 40;

/// What a path names, for writing: the end of its chain of links, and what is there.
enum Target {
    Stdout,
    /// A regular file (its permissions, to keep) or nothing yet, at this resolved path.
    File(PathBuf, Option<u32>),
    /// A device or a FIFO: written through.
    Special(PathBuf),
    /// A Unix socket: connected to.
    Socket(PathBuf),
}

/// Follows `path`'s chain of symbolic links to what it ends at, which may not exist yet (a
/// dangling link names the file to create). Relative links are read from the link's folder.
fn resolve(path: &Path) -> io::Result<(PathBuf, Option<fs::Metadata>)> {
    let mut p = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) => dir.join(to),
                    None => to,
                };
            }
            Ok(m) => return Ok((p, Some(m))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((p, None)),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!("more than {MAX_LINKS} symbolic links in a row (a loop?)")))
}

/// What writing to `path` means (see the module's contract).
fn target(path: &Path) -> io::Result<Target> {
    if is_stdout(path) {
        return Ok(Target::Stdout);
    }
    let (p, meta) = resolve(path)?;
    let Some(m) = meta else { return Ok(Target::File(p, None)) };
    let t = m.file_type();
    if t.is_dir() {
        return Err(io::Error::new(io::ErrorKind::IsADirectory, "is a directory; give a file name (in it, or instead of it)"));
    }
    if t.is_file() {
        return Ok(Target::File(p, Some(mode(&m))));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_socket() {
            return Ok(Target::Socket(p));
        }
    }
    Ok(Target::Special(p))
}

#[cfg(unix)]
fn mode(m: &fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o7777
}

#[cfg(not(unix))]
fn mode(_: &fs::Metadata) -> u32 {
    0o644
}

/// Writes `contents` (text or bytes) as the whole of `path`, the way its file type asks (see
/// the module's contract): `-` is standard output, a regular or new file is replaced
/// atomically (its folder created if missing; a crash leaves the old file or the new one,
/// never half of one), a symbolic link's target is written that way, a device, FIFO or socket
/// is written through, and a directory is refused.
///
/// # Errors
/// A directory; the folder, file, device or socket cannot be created, opened or written (the
/// caller names the path: the error does not).
pub(crate) fn write(path: &Path, contents: impl AsRef<[u8]>) -> io::Result<()> {
    let bytes = contents.as_ref();
    match target(path)? {
        Target::Stdout => {
            let mut out = io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()
        }
        Target::File(p, mode) => write_atomic(&p, mode, bytes),
        Target::Special(p) => {
            let mut f = fs::OpenOptions::new().write(true).open(p)?;
            f.write_all(bytes)?;
            f.flush()
        }
        Target::Socket(p) => connect(&p)?.write_all(bytes),
    }
}

#[cfg(unix)]
fn connect(p: &Path) -> io::Result<Box<dyn Write + Send>> {
    Ok(Box::new(std::os::unix::net::UnixStream::connect(p)?))
}

#[cfg(not(unix))]
fn connect(_: &Path) -> io::Result<Box<dyn Write + Send>> {
    Err(io::Error::other("is a socket"))
}

/// The atomic replacement of a regular file (or the creation of a new one) at the resolved
/// path `path`: a temporary file in the same folder, synced, then renamed over it.
fn write_atomic(path: &Path, mode: Option<u32>, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    // The temporary file is private (0600); the file it becomes keeps the permissions of the
    // file it replaces, or gets the usual 0644, so a picture can be served or shared.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file().set_permissions(fs::Permissions::from_mode(mode.unwrap_or(0o644)))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    tmp.write_all(bytes)?;
    tmp.flush()?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Whether a stream starts afresh or goes on at the end of what is there.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StreamMode {
    /// A regular file is emptied first (created if missing, its folder too).
    Create,
    /// A regular file is appended to (created if missing, its folder too).
    Append,
}

/// An output written piece by piece (one JSON line per game): standard output, an open file,
/// or a socket.
#[cfg(test)]
pub(crate) enum Stream {
    Stdout(io::Stdout),
    /// A regular file, a device or a FIFO, open for writing.
    File(File),
    Other(Box<dyn Write + Send>),
}

#[cfg(test)]
impl Stream {}

#[cfg(test)]
impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Stdout(s) => s.write(buf),
            Stream::File(f) => f.write(buf),
            Stream::Other(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Stdout(s) => s.flush(),
            Stream::File(f) => f.flush(),
            Stream::Other(w) => w.flush(),
        }
    }
}

/// Opens `path` for an output written line by line, with [`write`]'s rules on file types:
/// `-` is standard output, a symbolic link is followed, a device or FIFO is written through
/// (never emptied nor replaced), a socket is connected to, a directory is refused; a regular
/// file is emptied or appended to as `mode` says (not atomic: a stream is read as it grows).
///
/// # Errors
/// A directory, or the file cannot be created or opened.
#[cfg(test)]
pub(crate) fn open_stream(path: &Path, mode: StreamMode) -> io::Result<Stream> {
    Ok(match target(path)? {
        Target::Stdout => Stream::Stdout(io::stdout()),
        Target::File(p, _) => {
            if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                fs::create_dir_all(dir)?;
            }
            let mut o = fs::OpenOptions::new();
            match mode {
                StreamMode::Create => o.write(true).create(true).truncate(true),
                StreamMode::Append => o.append(true).create(true),
            };
            Stream::File(o.open(p)?)
        }
        Target::Special(p) => Stream::File(fs::OpenOptions::new().write(true).open(p)?),
        Target::Socket(p) => Stream::Other(connect(&p)?),
    })
}

/// A size for a person: `16 MiB`, `64 KiB`, `100 bytes`.
pub(crate) fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

fn too_large(max_bytes: u64) -> io::Error {
    io::Error::new(io::ErrorKind::FileTooLarge, format!("larger than {}, the most boardlab reads here", size_text(max_bytes)))
}

/// Reads the whole of `path`, at most `max_bytes` of it: a file whose size says it is larger is
/// refused before reading, and reading stops one byte past the limit whatever the file (a FIFO,
/// `/dev/zero`, a file that grows), so no input can exhaust memory.
///
/// # Errors
/// A directory, a file larger than `max_bytes` (the limit in the message), or a read error
/// (the caller names the path).
pub(crate) fn read_limited(path: &Path, max_bytes: u64) -> io::Result<Vec<u8>> {
    let meta = fs::metadata(path)?;
    if meta.is_dir() {
        return Err(io::Error::new(io::ErrorKind::IsADirectory, "is a directory, not a file"));
    }
    if meta.is_file() && meta.len() > max_bytes {
        return Err(too_large(max_bytes));
    }
    let mut bytes = Vec::with_capacity(if meta.is_file() { meta.len() as usize } else { 0 });
    File::open(path)?.take(max_bytes.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large(max_bytes));
    }
    Ok(bytes)
}

/// [`read_limited`], as UTF-8 text.
///
/// # Errors
/// As [`read_limited`], and text that is not UTF-8.
pub(crate) fn read_to_string_limited(path: &Path, max_bytes: u64) -> io::Result<String> {
    String::from_utf8(read_limited(path, max_bytes)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("not UTF-8 text (at byte {})", e.utf8_error().valid_up_to())))
}

/// Reads one line (through its `\n`, kept) into `buf` (cleared first), holding at most
/// `max_bytes` of it. Returns the line's length in bytes, 0 at the end of the input.
///
/// # Errors
/// A line longer than `max_bytes` (kind `InvalidData`, the limit in the message): what was
/// read of it is in `buf`, and the rest of it is left unread (it may never end: `/dev/zero`);
/// or a read error.
pub(crate) fn read_line_limited(r: &mut impl BufRead, buf: &mut Vec<u8>, max_bytes: usize) -> io::Result<usize> {
    buf.clear();
    loop {
        let available = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(buf.len());
        }
        let (take, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let room = max_bytes.saturating_add(1).saturating_sub(buf.len());
        let take = take.min(room);
        buf.extend_from_slice(&available[..take]);
        r.consume(take);
        // The newline does not count against the limit.
        let content = buf.len() - usize::from(buf.last() == Some(&b'\n'));
        if content > max_bytes {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a line longer than {}, the most boardlab reads in one line", size_text(max_bytes as u64)),
            ));
        }
        if done && buf.last() == Some(&b'\n') {
            return Ok(buf.len());
        }
    }
}

/// How many characters of input an error message quotes.
pub(crate) const QUOTED_CHARS: usize = 80;

/// `text` as an error message quotes it: whole when it is at most [`QUOTED_CHARS`]
/// characters, else its start, an ellipsis and its whole length; control characters and a
/// byte-order mark are shown escaped (`\u{feff}`) rather than invisible.
pub(crate) fn quote(text: &str) -> String {
    let shown = |c: char| if c.is_control() || c == '\u{feff}' { c.escape_default().to_string() } else { c.to_string() };
    let n = text.chars().count();
    if n <= QUOTED_CHARS {
        return text.chars().map(shown).collect();
    }
    // Room for the ellipsis and the length after the head.
    let head: String = text.chars().take(QUOTED_CHARS - 30).map(shown).collect();
    format!("{head}… ({n} characters)")
}

/// A message with every word (a run without spaces) longer than three times
/// [`QUOTED_CHARS`] shortened by [`quote`]: the last guard of what the REPL prints about its
/// input, so a 100 kB move cannot come back as a 100 kB error, whichever part echoed it.
pub fn clip_long_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4096));
    let mut rest = text;
    while !rest.is_empty() {
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, after) = rest.split_at(word_end);
        if word.chars().nth(3 * QUOTED_CHARS).is_some() {
            out.push_str(&quote(word))
        } else {
            out.push_str(word)
        }
        let space_end = after.find(|c: char| !c.is_whitespace()).unwrap_or(after.len());
        out.push_str(&after[..space_end]);
        rest = &after[space_end..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new().prefix(&format!("boardlab-files-{name}")).tempdir().unwrap()
    }

    #[test]
    fn a_new_or_regular_file_is_replaced_keeping_its_mode() {
        let d = dir("regular");
        let p = d.path().join("sub/out.txt");
        write(&p, "one").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o644);
            fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
            write(&p, "two").unwrap();
            assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);
        }
        assert_eq!(fs::read_to_string(&p).unwrap(), "two");
        // Nothing else is left in the folder (the temporary file became the file).
        assert_eq!(fs::read_dir(p.parent().unwrap()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_chain_of_links_is_followed_and_stays() {
        let d = dir("links");
        let real = d.path().join("real.txt");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink("real.txt", d.path().join("one")).unwrap();
        std::os::unix::fs::symlink(d.path().join("one"), d.path().join("two")).unwrap();
        write(&d.path().join("two"), "new").unwrap();
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        for link in ["one", "two"] {
            assert!(fs::symlink_metadata(d.path().join(link)).unwrap().file_type().is_symlink(), "{link}");
        }
        // A dangling link names the file to create.
        std::os::unix::fs::symlink("later.txt", d.path().join("dangling")).unwrap();
        write(&d.path().join("dangling"), "made").unwrap();
        assert_eq!(fs::read_to_string(d.path().join("later.txt")).unwrap(), "made");
        // A loop is an error, not a hang.
        std::os::unix::fs::symlink("loop-b", d.path().join("loop-a")).unwrap();
        std::os::unix::fs::symlink("loop-a", d.path().join("loop-b")).unwrap();
        assert!(write(&d.path().join("loop-a"), "x").unwrap_err().to_string().contains("symbolic links"));
    }

    #[test]
    fn a_directory_is_refused() {
        let d = dir("dir");
        let e = write(d.path(), "x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
        assert!(e.to_string().contains("is a directory"), "{e}");
        assert!(open_stream(d.path(), StreamMode::Append).is_err());
        assert!(fs::metadata(d.path()).unwrap().is_dir());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_device_is_written_through() {
        // /dev/null takes anything and must stay a device; /dev/full refuses with ENOSPC.
        write(Path::new("/dev/null"), "x").unwrap();
        assert!(!fs::metadata("/dev/null").unwrap().is_file());
        let e = write(Path::new("/dev/full"), "x").unwrap_err();
        assert_eq!(e.raw_os_error(), Some(28), "{e}");
        let mut s = open_stream(Path::new("/dev/null"), StreamMode::Create).unwrap();
        writeln!(s, "a line").unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_socket_is_written_through() {
        let d = dir("socket");
        let p = d.path().join("sock");
        let listener = std::os::unix::net::UnixListener::bind(&p).unwrap();
        let reader = std::thread::spawn(move || {
            let mut got = String::new();
            listener.accept().unwrap().0.read_to_string(&mut got).unwrap();
            got
        });
        write(&p, "over the socket").unwrap();
        assert_eq!(reader.join().unwrap(), "over the socket");
    }

    #[test]
    fn streams_create_and_append() {
        let d = dir("stream");
        let p = d.path().join("a/games.jsonl");
        writeln!(open_stream(&p, StreamMode::Create).unwrap(), "1").unwrap();
        writeln!(open_stream(&p, StreamMode::Append).unwrap(), "2").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "1\n2\n");
        writeln!(open_stream(&p, StreamMode::Create).unwrap(), "3").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "3\n");
    }

    #[test]
    fn reads_stop_at_the_limit() {
        let d = dir("read");
        let p = d.path().join("f");
        fs::write(&p, "12345").unwrap();
        assert_eq!(read_to_string_limited(&p, 5).unwrap(), "12345");
        let e = read_to_string_limited(&p, 4).unwrap_err();
        assert!(e.to_string().contains("larger than 4 bytes"), "{e}");
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(read_limited(d.path(), 10).unwrap_err().kind(), io::ErrorKind::IsADirectory);
        fs::write(&p, [0xff, 0xfe]).unwrap();
        assert!(read_to_string_limited(&p, 10).unwrap_err().to_string().contains("not UTF-8"));
        #[cfg(unix)]
        {
            // A device says nothing of its size: reading stops one byte past the limit.
            let e = read_limited(Path::new("/dev/zero"), 1 << 20).unwrap_err();
            assert!(e.to_string().contains("larger than 1 MiB"), "{e}");
        }
    }

    #[test]
    fn lines_stop_at_the_limit() {
        let mut r = io::BufReader::with_capacity(3, &b"ab\nabcd\nabc\nlast"[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line_limited(&mut r, &mut buf, 3).unwrap(), 3);
        assert_eq!(buf, b"ab\n");
        let e = read_line_limited(&mut r, &mut buf, 3).unwrap_err();
        assert!(e.to_string().contains("longer than 3 bytes"), "{e}");
        assert_eq!(buf, b"abcd", "one byte past the limit, no more");
        // The caller may go on: the rest of that line comes next.
        assert_eq!(read_line_limited(&mut r, &mut buf, 3).unwrap(), 1);
        assert_eq!(read_line_limited(&mut r, &mut buf, 3).unwrap(), 4, "exactly the limit, and its newline");
        assert_eq!(buf, b"abc\n");
        assert_eq!(read_line_limited(&mut r, &mut buf, 3).unwrap_err().kind(), io::ErrorKind::InvalidData);
        let mut r = io::BufReader::new(&b"end"[..]);
        assert_eq!(read_line_limited(&mut r, &mut buf, 3).unwrap(), 3);
        assert_eq!(read_line_limited(&mut r, &mut buf, 3).unwrap(), 0);
        // An endless line stops too.
        let mut zero = io::BufReader::new(io::repeat(b'0'));
        assert!(read_line_limited(&mut zero, &mut buf, 1 << 16).is_err());
        assert_eq!(buf.len(), (1 << 16) + 1);
    }

    #[test]
    fn quotes_are_short_and_visible() {
        assert_eq!(quote("c3-d4"), "c3-d4");
        assert_eq!(quote("\u{feff}c3"), "\\u{feff}c3");
        let long = "x".repeat(100_000);
        let q = quote(&long);
        assert!(q.chars().count() <= QUOTED_CHARS, "{q}");
        assert!(q.starts_with("xxx") && q.ends_with("… (100000 characters)"), "{q}");
        assert_eq!(quote(&"y".repeat(QUOTED_CHARS)), "y".repeat(QUOTED_CHARS));
        let msg = format!("line 1: `{long}` is not a legal move:\n  because");
        let clipped = clip_long_words(&msg);
        assert!(
            clipped.starts_with("line 1: `xxx") && clipped.ends_with("(100002 characters) is not a legal move:\n  because"),
            "{clipped}"
        );
        let path = format!("/{}", "p".repeat(200));
        assert_eq!(clip_long_words(&path), path, "a long path is shown whole");
    }
}
