//! Fuzzing with fixed seeds (so a failure is reproducible): mutated copies of the shipped
//! variants must load or be refused with an error, never panic or hang; random REPL command
//! streams must never panic or hang, and after every failed command the game is unchanged.

use boardlab::{Move, Position, Session, Style, Variant};
use rand::{RngExt, SeedableRng};
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::time::Duration;

type Rng = rand_pcg::Pcg64Mcg;

/// Runs `cases` cases of `case` on a worker thread; fails on a panic (naming the case and its
/// input) or when one case takes longer than `limit` (a hang).
fn fuzz(name: &str, cases: usize, limit: Duration, case: impl Fn(usize) -> String + Send + 'static) {
    let (tx, rx) = mpsc::channel::<(usize, Result<(), String>)>();
    std::thread::spawn(move || {
        for i in 0..cases {
            let r = std::panic::catch_unwind(AssertUnwindSafe(|| case(i)));
            let r = match r {
                Ok(failure) if failure.is_empty() => Ok(()),
                Ok(failure) => Err(failure),
                Err(p) => Err(format!("panicked: {}", p.downcast_ref::<String>().cloned().unwrap_or_default())),
            };
            let stop = r.is_err();
            if tx.send((i, r)).is_err() || stop {
                return;
            }
        }
    });
    for _ in 0..cases {
        match rx.recv_timeout(limit) {
            Ok((_, Ok(()))) => {}
            Ok((i, Err(e))) => panic!("{name}, case {i}: {e}"),
            Err(_) => panic!("{name}: a case took longer than {limit:?} (a hang?)"),
        }
    }
}

/// One random change to a text: a number replaced (by a huge, negative or small one), a line
/// deleted, duplicated or swapped, a word replaced, garbage inserted, or the text cut.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    if lines.is_empty() {
        return text.to_string();
    }
    let i = rng.random_range(0..lines.len());
    match rng.random_range(0..8) {
        0 | 1 => {
            let numbers =
                ["0", "-1", "1", "2", "3", "7", "255", "256", "300", "65536", "1099511627776", "-9223372036854775808", "1e9", "0.5"];
            let n = numbers[rng.random_range(0..numbers.len())];
            let l = &lines[i];
            if let Some(start) = l.find(|c: char| c.is_ascii_digit()) {
                let end = l[start..].find(|c: char| !c.is_ascii_digit()).map_or(l.len(), |e| start + e);
                lines[i] = format!("{}{n}{}", &l[..start], &l[end..]);
            }
        }
        2 => {
            lines.remove(i);
        }
        3 => {
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        4 => {
            let j = rng.random_range(0..lines.len());
            lines.swap(i, j);
        }
        5 => {
            let words = ["true", "false", "\"\"", "[]", "{}", "\"nowhere\"", "\"king\"", "\"white\"", "x", "=", "[[piece]]", "\"a1\""];
            let w = words[rng.random_range(0..words.len())];
            let l = &lines[i];
            lines[i] = match l.split_once('=') {
                Some((k, _)) => format!("{k}= {w}"),
                None => format!("{l} {w}"),
            };
        }
        6 => {
            let junk = ["\u{0}", "\"", "[", "]]", "é", "\\", "#", "{{", "🂡"];
            let pos = rng.random_range(0..=lines[i].len());
            if lines[i].is_char_boundary(pos) {
                lines[i].insert_str(pos, junk[rng.random_range(0..junk.len())]);
            }
        }
        _ => lines.truncate(i),
    }
    lines.join("\n")
}

#[test]
fn mutated_variants_load_or_fail_cleanly() {
    let root = crate::root();
    let dir = crate::scratch("fuzz-variants");
    let names = boardlab::shipped_names();
    let dir2 = dir.to_path_buf();
    fuzz("mutated variants", 1600, Duration::from_secs(20), move |i| {
        let mut rng = Rng::seed_from_u64(1000 + i as u64);
        let name = &names[i % names.len()];
        let src = root.join("variants").join(name);
        let case = dir2.join(format!("case{i}"));
        std::fs::create_dir_all(&case).unwrap();
        let mut changed = Vec::new();
        for f in ["variant.toml", "rules.rhai"] {
            let Ok(text) = std::fs::read_to_string(src.join(f)) else { continue };
            let mut t = text;
            // Mostly the TOML; the script a quarter of the time.
            let k = if f == "rules.rhai" { usize::from(rng.random_bool(0.25)) * rng.random_range(1..3) } else { rng.random_range(1..4) };
            for _ in 0..k {
                t = mutate(&t, &mut rng);
            }
            std::fs::write(case.join(f), &t).unwrap();
            changed.push(t);
        }
        let result = Variant::load(case.to_str().unwrap(), &[]);
        if let Ok(v) = result {
            exercise(&v, &mut rng);
        } else if let Err(e) = result {
            // The diagnostic renders (it names the file).
            let text = e.render(false);
            if text.trim().is_empty() {
                return format!("{name}: an empty diagnostic for\n{}", changed.join("\n----\n"));
            }
        }
        let _ = std::fs::remove_dir_all(&case);
        String::new()
    });
}

/// Plays a loaded (mutated) variant a little: perft 2 and a short random game.
fn exercise(v: &Variant, rng: &mut Rng) {
    let mut pos = v.start();
    // Perft 2 only where it stays small (a mutation may widen Amazons' board and its 2176 turns).
    if boardlab::perft::perft(v, &mut pos.clone(), 1).is_ok_and(|n| n <= 500) {
        let _ = boardlab::perft::perft(v, &mut pos.clone(), 2);
    }
    let mut moves = Vec::new();
    for _ in 0..40 {
        if v.legal_moves(&mut pos, &mut moves).is_err() || moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        if v.make(&mut pos, &m).is_err() {
            break;
        }
    }
    let _ = v.take_output();
}

/// Everything a failed command must leave as it was.
#[derive(PartialEq, Debug)]
struct Kept {
    pos: Position,
    played: Vec<Move>,
    undone: Vec<Move>,
    start: Position,
    variant: (String, Vec<(String, String)>),
    machine: [Option<boardlab::Engine>; 2],
    seed: u64,
    lines: (usize, usize),
    flags: (bool, bool, u32),
}

fn kept(s: &Session) -> Kept {
    Kept {
        pos: s.pos.clone(),
        played: s.played.clone(),
        undone: s.undone.clone(),
        start: s.start.clone(),
        variant: (s.variant.spec.clone(), s.variant.overrides.clone()),
        machine: s.machine,
        seed: s.seed,
        lines: (s.earlier.len(), s.later.len()),
        flags: (s.show_board, s.trace, s.machine_limit),
    }
}

/// A random command line: often a legal move, else any command with plausible or hostile
/// arguments.
fn command(s: &mut Session, rng: &mut Rng, files: &[String]) -> String {
    let g = s.variant.rules.geometry.clone();
    let cell = |rng: &mut Rng| -> String {
        if rng.random_bool(0.9) {
            let cells: Vec<_> = g.cells().collect();
            g.name(cells[rng.random_range(0..cells.len())]).to_string()
        } else {
            ["z9", "a0", "a99999999999", "", "-", "é1"][rng.random_range(0..6)].to_string()
        }
    };
    let mut legal = Vec::new();
    let _ = s.variant.legal_moves(&mut s.pos, &mut legal);
    let num = |rng: &mut Rng| ["0", "1", "2", "3", "-1", "5", "40", "99999999999999999999", "x"][rng.random_range(0..9)].to_string();
    let pick = rng.random_range(0..100);
    if pick < 35 && !legal.is_empty() {
        return legal[rng.random_range(0..legal.len())].text(&g);
    }
    let symbols = ["W", "b", "w", "B", "K", "Q", "white stone", "black king", "green man", "x y z"];
    match rng.random_range(0..34) {
        0 => format!("{}-{}", cell(rng), cell(rng)),
        1 => format!("{}x{}x{}", cell(rng), cell(rng), cell(rng)),
        2 => format!("undo {}", num(rng)),
        3 => format!("redo {}", num(rng)),
        4 => format!("back {}", num(rng)),
        5 => format!("forward {}", num(rng)),
        6 => format!("goto {}", num(rng)),
        7 => {
            let kinds = &s.variant.rules.kinds;
            let piece = if rng.random_bool(0.7) {
                format!("{} {}", ["white", "black"][rng.random_range(0..2)], kinds[rng.random_range(0..kinds.len())].name)
            } else {
                symbols[rng.random_range(0..symbols.len())].to_string()
            };
            format!("place {} {piece}", cell(rng))
        }
        8 => format!("remove {}", cell(rng)),
        9 => "clear".into(),
        10 => format!("turn {}", ["white", "black", "green", ""][rng.random_range(0..4)]),
        11 => {
            let text = s.pos.to_text(&s.variant.rules);
            format!("setup {}", if rng.random_bool(0.5) { mutate(&text, rng) } else { text })
        }
        12 => "new".into(),
        13 => format!(
            "variant {}",
            ["checkers", "lielow", "pyramida", "bivouac", "basileus", "nowhere", "../etc", ""][rng.random_range(0..8)]
        ),
        14 => {
            let decls = &s.variant.rules.options.decls;
            let name = if decls.is_empty() || rng.random_bool(0.2) {
                "nothing".to_string()
            } else {
                decls[rng.random_range(0..decls.len())].name.clone()
            };
            let values = ["true", "false", "draw", "loss", "win", "0", "1", "3", "1099511627776", "-5", "", "none"];
            format!("set {name} {}", values[rng.random_range(0..values.len())])
        }
        15 => format!("perft {}", ["0", "1", "2", "65", "x"][rng.random_range(0..5)]),
        16 => format!("ai {}", ["random", "mcts:8", "mcts:0", "minimax"][rng.random_range(0..4)]),
        17 => format!("auto {} random", rng.random_range(0..6)),
        18 => format!("play {} random {}", ["both", "white", "black", "none", "green"][rng.random_range(0..5)], rng.random_range(0..4)),
        19 => format!("seed {}", num(rng)),
        20 => {
            ["history", "moves", "position", "show", "options", "rules", "help", "help undo", "help nothing"][rng.random_range(0..9)].into()
        }
        21 => format!("why {}-{}", cell(rng), cell(rng)),
        22 => format!("load {}", files[rng.random_range(0..files.len())]),
        23 => format!("save {}", files[rng.random_range(0..files.len())]),
        24 => format!("selfplay {} --seed 3", rng.random_range(0..3)),
        25 => format!("trace {}", ["on", "off", "maybe"][rng.random_range(0..3)]),
        26 => format!("board {}", ["on", "off"][rng.random_range(0..2)]),
        27 => "reload".into(),
        28 => "pass".into(),
        29 => "moev".into(),
        30 => String::from_utf8_lossy(&(0..rng.random_range(0..12)).map(|_| rng.random_range(32u8..127)).collect::<Vec<u8>>()).into_owned(),
        31 => format!("{} {}", cell(rng), cell(rng)),
        32 => "MOVE".into(),
        _ => "undo 3".into(),
    }
}

#[test]
fn random_command_streams_never_panic_and_failures_change_nothing() {
    let dir = crate::scratch("fuzz-commands");
    // Files for load and save: a real record, a variant file, nothing, a device, a folder.
    let record = dir.join("game.toml");
    std::fs::write(&record, "# boardlab game record\nvariant = \"checkers\"\nmoves = [\"c3-d4\", \"f6-e5\"]\n").unwrap();
    let files: Vec<String> = vec![
        record.display().to_string(),
        crate::root().join("variants/lielow/variant.toml").display().to_string(),
        dir.join("missing.toml").display().to_string(),
        "/dev/zero".into(),
        dir.display().to_string(),
    ];
    let variants = [
        "checkers",
        "lielow",
        "pyramida",
        "bivouac",
        "basileus",
        "hostile-bivouac",
        "lielow-ludii",
        "pyramida-calm",
        "tic-tac-toe",
        "connect-four",
        "international",
        "russian",
        "othello",
        "breakthrough",
        "dobutsu",
        "amazons",
    ];
    fuzz("command streams", 60, Duration::from_secs(30), move |i| {
        let mut rng = Rng::seed_from_u64(7000 + i as u64);
        let mut s = Session::new(variants[i % variants.len()], &[], Style::PLAIN).unwrap();
        let mut log = Vec::new();
        for _ in 0..60 {
            let line = command(&mut s, &mut rng, &files);
            log.push(line.clone());
            let before = kept(&s);
            match s.execute(&line) {
                Err(e) => {
                    let after = kept(&s);
                    if after != before {
                        return format!("`{line}` failed ({e}) but changed the game; commands: {log:?}");
                    }
                }
                Ok(_) => {
                    // The autosave brings back exactly this game.
                    let back = match Session::from_record(&s.autosave_record(), Style::PLAIN) {
                        Ok(b) => b,
                        Err(e) => return format!("after `{line}` the autosave does not load: {e}; commands: {log:?}"),
                    };
                    let (a, b) = (kept(&s), kept(&back));
                    if (a.pos.to_text(&s.variant.rules), &a.played, &a.undone, a.lines.0)
                        != (b.pos.to_text(&back.variant.rules), &b.played, &b.undone, b.lines.0)
                    {
                        return format!("after `{line}` the autosave restores another game; commands: {log:?}");
                    }
                }
            }
        }
        String::new()
    });
}

#[test]
fn the_fuzz_helpers_can_fail() {
    // A case that panics, and one that reports, are caught as failures.
    let r = std::panic::catch_unwind(|| fuzz("probe", 3, Duration::from_secs(5), |i| if i == 1 { panic!("boom") } else { String::new() }));
    assert!(r.is_err());
    let r = std::panic::catch_unwind(|| fuzz("probe", 3, Duration::from_secs(5), |_| "bad".into()));
    assert!(r.is_err());
    let mut rng = Rng::seed_from_u64(1);
    let text = "a = 1\nb = 2\nc = 3";
    assert!((0..20).any(|_| mutate(text, &mut rng) != text));
}
