//! Finding a variant's files, the one way every command, the REPL and records name a variant:
//! a path (a `.toml` file, or a folder holding `variant.toml`), or a plain name looked up, in
//! order, in the current folder (`./NAME/`), `./variants/NAME/`, each folder of
//! `$BOARDLAB_PATH` (separated by `:`), the user's data directory's `variants/`, and last the
//! variants shipped inside the binary ([`Place`]). And reading them along their `extends` chain
//! (beside the extending variant first, then by the same search).

use crate::rules::raw::RawVariant;
use crate::rules::validate::Merged;
use crate::rules::{LoadError, SourceFile};
use include_dir::{Dir, include_dir};
use std::path::{Path, PathBuf};

/// The largest variant file or script boardlab reads (1 MiB).
pub(crate) const MAX_FILE_BYTES: u64 = 1 << 20;

/// The variants shipped with boardlab.
pub(crate) static SHIPPED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/variants");

/// Where a variant's files live.
#[derive(Clone, Debug)]
pub(crate) enum Origin {
    Disk(PathBuf),
    Shipped(String),
}

impl Origin {
    /// Reads one of the variant's files: (the name shown for it, its text). Files on disk must
    /// be regular files of at most [`MAX_FILE_BYTES`] (a script named `/dev/zero` is refused,
    /// not read until memory runs out).
    pub(crate) fn read(&self, file: &str) -> Option<(String, String)> {
        match self {
            Origin::Disk(dir) => {
                let p = dir.join(file);
                let meta = std::fs::metadata(&p).ok()?;
                if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
                    return None;
                }
                crate::files::read_to_string_limited(&p, MAX_FILE_BYTES).ok().map(|t| (p.display().to_string(), t))
            }
            Origin::Shipped(name) => {
                let path = format!("{name}/{file}");
                SHIPPED.get_file(&path).and_then(|f| f.contents_utf8()).map(|t| (format!("variants/{path}"), t.to_string()))
            }
        }
    }

    /// Why a file of this origin cannot be read, in words.
    pub(crate) fn why_unreadable(&self, file: &str) -> String {
        let Origin::Disk(dir) = self else { return "no such file".into() };
        match std::fs::metadata(dir.join(file)) {
            Err(e) => e.to_string(),
            Ok(m) if !m.is_file() => "not a regular file".into(),
            Ok(m) if m.len() > MAX_FILE_BYTES => format!("{} bytes; a variant's files are at most {MAX_FILE_BYTES} bytes", m.len()),
            Ok(_) => "not UTF-8 text".into(),
        }
    }

    /// The folder for display.
    pub(crate) fn describe(&self) -> String {
        match self {
            Origin::Disk(d) => d.display().to_string(),
            Origin::Shipped(n) => format!("(shipped) variants/{n}"),
        }
    }
}

/// Where a variant found by name lives, in the order the places are searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// `./NAME/` (where `boardlab new NAME` creates it).
    Here,
    /// `./variants/NAME/` (a project folder, such as this repository).
    Project,
    /// A folder of `$BOARDLAB_PATH`.
    SearchPath(PathBuf),
    /// The user's data directory's `variants/`.
    Data(PathBuf),
    /// Inside the binary.
    Shipped,
}

impl Place {
    /// Where, in words: `./mygame`, `$BOARDLAB_PATH /opt/games`, `shipped`.
    pub(crate) fn describe(&self) -> String {
        match self {
            Place::Here => ".".into(),
            Place::Project => "./variants".into(),
            Place::SearchPath(d) => format!("$BOARDLAB_PATH {}", d.display()),
            Place::Data(d) => format!("data {}", d.display()),
            Place::Shipped => "shipped".into(),
        }
    }
}

/// The folders searched for a variant by plain name, in order (the shipped ones come after).
pub(crate) fn search_folders() -> Vec<(Place, PathBuf)> {
    let mut v = vec![(Place::Here, PathBuf::from(".")), (Place::Project, PathBuf::from("variants"))];
    if let Some(path) = std::env::var_os("BOARDLAB_PATH") {
        for d in std::env::split_paths(&path).filter(|d| !d.as_os_str().is_empty()) {
            v.push((Place::SearchPath(d.clone()), d));
        }
    }
    if let Some(d) = crate::record::data_dir() {
        let d = d.join("variants");
        v.push((Place::Data(d.clone()), d));
    }
    v
}

/// Whether a spec is a plain name (looked up) rather than a path.
fn is_plain_name(spec: &str) -> bool {
    !spec.is_empty() && !spec.contains(['/', '\\']) && !spec.starts_with('.') && !spec.ends_with(".toml")
}

/// Every variant the search finds, in search order: (name, place, folder or shipped name).
/// A name found twice is listed twice; the first is the one a name resolves to.
pub(crate) fn all_variants() -> Vec<(String, Place, Origin)> {
    let mut out = Vec::new();
    for (place, dir) in search_folders() {
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        let mut found: Vec<(String, PathBuf)> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("variant.toml").is_file())
            .filter_map(|p| Some((p.file_name()?.to_string_lossy().to_string(), p)))
            .filter(|(n, _)| is_plain_name(n))
            .collect();
        found.sort();
        out.extend(found.into_iter().map(|(n, p)| (n, place.clone(), Origin::Disk(p))));
    }
    out.extend(shipped_names().into_iter().map(|n| (n.clone(), Place::Shipped, Origin::Shipped(n))));
    out
}

/// A plain name's variant: the first of [`every_named`].
fn by_name(name: &str) -> Option<(Origin, Place)> {
    every_named(name).into_iter().next()
}

/// Every variant a plain name finds, in search order: each place of [`search_folders`] holding
/// `NAME/variant.toml`, then the shipped one.
fn every_named(name: &str) -> Vec<(Origin, Place)> {
    let mut found: Vec<(Origin, Place)> = search_folders()
        .into_iter()
        .map(|(place, dir)| (dir.join(name), place))
        .filter(|(d, _)| d.join("variant.toml").is_file())
        .map(|(d, place)| (Origin::Disk(d), place))
        .collect();
    if SHIPPED.get_file(format!("{name}/variant.toml")).is_some() {
        found.push((Origin::Shipped(name.to_string()), Place::Shipped));
    }
    found
}

/// The names of the shipped variants, sorted.
pub fn shipped_names() -> Vec<String> {
    let mut v: Vec<String> =
        SHIPPED.dirs().filter(|d| d.get_file(d.path().join("variant.toml")).is_some()).map(|d| d.path().display().to_string()).collect();
    v.sort();
    v
}

/// How many variant names an "unknown variant" error lists.
const LISTED: usize = 24;

/// Finds a variant by name or path: (origin, file name in it, variant name).
fn locate(spec: &str) -> Result<(Origin, String, String), LoadError> {
    let p = Path::new(spec);
    if spec.ends_with(".toml") && p.is_file() {
        let dir = p.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
        let dir = if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir };
        let file = p.file_name().unwrap().to_string_lossy().to_string();
        let name = if file == "variant.toml" {
            dir.canonicalize().ok().and_then(|d| d.file_name().map(|n| n.to_string_lossy().to_string())).unwrap_or_else(|| "variant".into())
        } else {
            file.trim_end_matches(".toml").to_string()
        };
        return Ok((Origin::Disk(dir), file, name));
    }
    if !is_plain_name(spec) && p.is_dir() && p.join("variant.toml").is_file() {
        let name =
            p.canonicalize().ok().and_then(|c| c.file_name().map(|n| n.to_string_lossy().to_string())).unwrap_or_else(|| spec.to_string());
        return Ok((Origin::Disk(p.to_path_buf()), "variant.toml".into(), name));
    }
    if is_plain_name(spec)
        && let Some((origin, _)) = by_name(spec)
    {
        return Ok((origin, "variant.toml".into(), spec.to_string()));
    }
    let all = all_variants();
    let mut names: Vec<&str> = all.iter().map(|(n, _, _)| n.as_str()).collect();
    names.dedup();
    let what = if is_plain_name(spec) {
        let places: Vec<String> = search_folders().iter().map(|(_, d)| d.display().to_string()).collect();
        // (A long list is cut: the message stays short however many variants are found.)
        let shown = if names.len() > LISTED {
            format!("{}, … {} more (`boardlab list`)", names[..LISTED].join(", "), names.len() - LISTED)
        } else {
            names.join(", ")
        };
        format!("unknown variant `{}`: not in {} nor shipped; the variants found: {shown}", crate::files::quote(spec), places.join(", "))
    } else {
        format!("no variant at `{spec}` (a .toml file, or a folder holding variant.toml)")
    };
    let mut e = LoadError::plain(what);
    if let Some(h) = crate::rules::error::did_you_mean(spec.trim_start_matches("./"), names.iter().copied()) {
        e = e.with_help(h);
    }
    Err(e)
}

/// Where one variant's files are, as a key that two spellings of one folder share (the
/// canonical path; a shipped variant's name).
fn identity(o: &Origin) -> String {
    match o {
        Origin::Disk(d) => format!("disk:{}", d.canonicalize().unwrap_or_else(|_| d.clone()).display()),
        Origin::Shipped(n) => format!("shipped:{n}"),
    }
}

/// What looking for an `extends` base found.
enum Base {
    Found(Origin),
    /// Every variant of that name is already in the chain.
    Circle,
    Missing,
}

/// Finds the base of an `extends`: beside the extending variant, then as any name is found,
/// skipping the variants already in the chain (`seen`, by [`identity`]). So a folder named like
/// its base (`./lielow/` extending `lielow`, made by `boardlab new lielow --from lielow`)
/// extends the next `lielow` found (the shipped one), not itself.
fn locate_base(from: &Origin, name: &str, seen: &[String]) -> Base {
    let mut found = Vec::new();
    if let Origin::Disk(dir) = from
        && dir.join("..").join(name).join("variant.toml").is_file()
    {
        found.push(Origin::Disk(dir.join("..").join(name)));
    }
    found.extend(every_named(name).into_iter().map(|(o, _)| o));
    if found.is_empty() {
        return Base::Missing;
    }
    found.into_iter().find(|o| !seen.contains(&identity(o))).map_or(Base::Circle, Base::Found)
}

/// The keys a variant file has at its top, before any `[section]`.
const TOP_LEVEL_KEYS: &[&str] = &["name", "title", "description", "extends", "script"];

/// Parses one file's TOML, with a diagnostic on error.
fn parse_file(file: &SourceFile) -> Result<RawVariant, LoadError> {
    toml::from_str::<RawVariant>(&file.text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let msg = e.message().trim().to_string();
        let mut err = LoadError::at(file, span.clone(), format!("invalid variant file: {msg}"), "here");
        if let Some(field) = msg.strip_prefix("unknown field `").and_then(|r| r.split('`').next()) {
            // A top-level key written below a [section] header belongs to that section (TOML's
            // rule), which is rarely what was meant: say so rather than suggest a field.
            let header = file.text[..span.start.min(file.text.len())].lines().rev().map(str::trim).find(|l| l.starts_with('['));
            if let (true, Some(h)) = (TOP_LEVEL_KEYS.contains(&field), header) {
                return err.with_help(format!(
                    "`{field}` is a top-level key, but it is written after the `{h}` header: in TOML every key after a [section] header belongs to that section; move `{field}` above the first [section]"
                ));
            }
            // toml lists the expected fields after "expected one of".
            let known: Vec<&str> = msg.split('`').skip(3).step_by(2).collect();
            if let Some(h) = crate::rules::error::did_you_mean(field, known.iter().copied()) {
                err = err.with_help(h);
            }
        }
        err
    })
}

/// Reads a variant's files along its `extends` chain, base first.
pub(crate) fn read_merged(spec: &str) -> Result<(Merged, Origin, Vec<Origin>), LoadError> {
    let (origin, file, name) = locate(spec)?;
    let mut chain: Vec<(Origin, SourceFile, RawVariant, String)> = Vec::new();
    let (mut cur_origin, mut cur_file, mut cur_name) = (origin.clone(), file, name);
    loop {
        let (display, text) = cur_origin.read(&cur_file).ok_or_else(|| {
            LoadError::plain(format!("cannot read {} in {}: {}", cur_file, cur_origin.describe(), cur_origin.why_unreadable(&cur_file)))
        })?;
        let sf = SourceFile { name: display, text };
        let raw = parse_file(&sf)?;
        let ext = raw.extends.clone();
        chain.push((cur_origin.clone(), sf, raw, cur_name.clone()));
        let Some(ext) = ext else { break };
        let seen: Vec<String> = chain.iter().map(|(o, ..)| identity(o)).collect();
        let base = match locate_base(&cur_origin, ext.get_ref(), &seen) {
            Base::Found(o) => Some(o),
            Base::Circle => {
                let sf = &chain.last().unwrap().1;
                let names: Vec<&str> = chain.iter().map(|(.., n)| n.as_str()).collect();
                return Err(LoadError::at(sf, ext.span(), "`extends` goes round in a circle", "here").with_help(format!(
                    "{} → {}: every variant named `{}` is already in this chain",
                    names.join(" → "),
                    ext.get_ref(),
                    ext.get_ref()
                )));
            }
            Base::Missing => None,
        };
        let Some(base) = base else {
            let sf = &chain.last().unwrap().1;
            let names: Vec<String> = all_variants().into_iter().map(|(n, _, _)| n).collect();
            let mut e = LoadError::at(
                sf,
                ext.span(),
                format!("`extends`: no variant `{}` beside this one, in the search folders or shipped", ext.get_ref()),
                "this variant",
            );
            if let Some(h) = crate::rules::error::did_you_mean(ext.get_ref(), names.iter().map(String::as_str)) {
                e = e.with_help(h);
            }
            return Err(e);
        };
        if chain.len() > 16 {
            return Err(LoadError::plain("`extends` chain is longer than 16"));
        }
        cur_origin = base;
        cur_file = "variant.toml".into();
        cur_name = ext.get_ref().clone();
    }
    let mut m = Merged::default();
    let mut origins = Vec::new();
    // Base first, so later (more derived) files override.
    for (i, (o, sf, raw, name)) in chain.into_iter().rev().enumerate() {
        origins.push(o);
        m.files.push(sf);
        let name = raw.name.clone().unwrap_or(name);
        m.overlay(i, raw, &name);
    }
    Ok((m, origin, origins))
}
