//! Betza's funny notation for fairy-chess pieces (`betza = "NR"`), translated into the kernel's
//! movement forms at load, the way the Chess Variant Pages and Fairy-Stockfish write pieces.
//!
//! What is read: the atoms `W F D N A H C Z G` (one leap each: (0,1), (1,1), (0,2), (1,2),
//! (2,2), (0,3), (1,3), (2,3), (3,3) and their images), the shorthands `K` (= WF), `Q` (= RB),
//! `R` (= WW) and `B` (= FF); an atom written twice is a rider (`NN`, the nightrider), an atom
//! followed by a number a rider of that range (`W3`). Prefixes apply to the next atom: `m`
//! moves only, `c` captures only; `f b l r v s h` keep directions as Fairy-Stockfish reads
//! them (as the player sees forward): a letter alone counts doubled, so `fN` is the two narrow
//! forward knight moves, `fsN` the two wide ones, `fhN` all four forward, `vN` and `sN` the
//! four narrow and the four wide; `rf` one image (see `SLOTS`); `n` makes a leap lame
//! (blocked one step short of its landing: `nN` is xiangqi's horse); `cp` on a rider captures by
//! hopping over exactly one screen (`mRcpR` is xiangqi's cannon), `p` alone moves and captures
//! so (`pR`, janggi's cannon without its restrictions by kind); `g` on a rider hops over the
//! first piece in the line to the cell just beyond it (`gQ`, the grasshopper); `i` allows the
//! form only from the piece's start cells (`ifmnD`, a pawn's double step); `ce` on a single
//! leap also captures en passant, and a move-only lame leap in the same string (`mnD`) opens
//! the cell it passes to that capture (`fmWfceFifmnD` is the chess pawn). Anything else (`j`,
//! `a`, `x`, …) is refused with a message: write those forms in TOML.

use super::raw::{RawDir, RawDirs, RawForm, Setting, TextOrBool, TextOrInt};
use toml::Spanned;

/// A value spanning the Betza string.
fn at<T>(span: &std::ops::Range<usize>, x: T) -> Spanned<T> {
    Spanned::new(span.clone(), x)
}

/// The base vector of an atom letter.
fn atom(c: char) -> Option<(i8, i8)> {
    Some(match c {
        'W' => (0, 1),
        'F' => (1, 1),
        'D' => (0, 2),
        'N' => (1, 2),
        'A' => (2, 2),
        'H' => (0, 3),
        'C' => (1, 3),
        'Z' => (2, 3),
        'G' => (3, 3),
        _ => return None,
    })
}

/// Every image of a base vector under reflection and rotation.
fn images((a, b): (i8, i8)) -> Vec<(i8, i8)> {
    let mut v = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let w = (x * sx, y * sy);
            if !v.contains(&w) {
                v.push(w);
            }
        }
    }
    v
}

/// The eight images of an atom, named by where each lies as the player sees the board, with
/// the direction tokens that keep each (Fairy-Stockfish's reading). For an atom of a long leg
/// `r` and a short leg `f` (the knight: 2 and 1), in order: forward narrow right `(f, r)`,
/// backward narrow left `(-f, -r)`, right wide backward `(r, -f)`, left wide forward `(-r, f)`,
/// right wide forward `(r, f)`, left wide backward `(-r, -f)`, backward narrow right `(f, -r)`,
/// forward narrow left `(-f, r)`. A doubled letter keeps a side's narrow (`ff`, `bb`) or wide
/// (`rr`, `ll`) pair; `vv` and `ss` the four narrow or wide images; a pair of a vertical and a
/// horizontal letter one image, the first letter naming the long leg's side (`rf`: the narrow
/// forward right, `fr`: the wide right forward); `fs`, `bs`, `rv`, `lv` two; `fh`, `bh`, `rh`,
/// `lh` a half of four; `hr` and `hl` the four images turning one way.
const SLOTS: [&[&str]; 8] = [
    &["ff", "vv", "rf", "rv", "fh", "rh", "hr"],
    &["bb", "vv", "lb", "lv", "bh", "lh", "hr"],
    &["rr", "ss", "br", "bs", "bh", "rh", "hr"],
    &["ll", "ss", "fl", "fs", "fh", "lh", "hr"],
    &["rr", "ss", "fr", "fs", "fh", "rh", "hl"],
    &["ll", "ss", "bl", "bs", "bh", "lh", "hl"],
    &["bb", "vv", "rb", "rv", "bh", "rh", "hl"],
    &["ff", "vv", "lf", "lv", "fh", "lh", "hl"],
];

/// Whether the image `v` (dy forward, dx to the player's right) of the atom `base` is kept by
/// one of the direction tokens `toks` (see [`SLOTS`]).
fn keeps(toks: &[String], base: (i8, i8), v: (i8, i8)) -> bool {
    let (r, f) = (base.0.abs().max(base.1.abs()), base.0.abs().min(base.1.abs()));
    let images = [(f, r), (-f, -r), (r, -f), (-r, f), (r, f), (-r, -f), (f, -r), (-f, r)];
    images.iter().zip(SLOTS).any(|(&image, keep)| image == v && toks.iter().any(|t| keep.contains(&t.as_str())))
}

/// Splits direction prefixes into tokens as Fairy-Stockfish does: a letter and the next pair up
/// when they are the same or one is vertical (`f b v h`) and the other horizontal (`r l s h`);
/// a letter alone counts doubled (`f` is `ff`). On a lone orthogonal atom (`W`, `D`, `H`, `R`)
/// a pair of two different letters keeps each letter's images (`fsW`: forward and sideways).
fn tokens(dirs: &str, orthogonal: bool) -> Vec<String> {
    const VERTICAL: &str = "fbvh";
    const HORIZONTAL: &str = "rlsh";
    let cs: Vec<char> = dirs.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        let pairs = cs
            .get(i + 1)
            .filter(|&&n| n == c || (VERTICAL.contains(c) && HORIZONTAL.contains(n)) || (HORIZONTAL.contains(c) && VERTICAL.contains(n)));
        match pairs {
            Some(&n) if orthogonal && n != c => out.extend([format!("{c}{c}"), format!("{n}{n}")]),
            Some(&n) => out.push(format!("{c}{n}")),
            None => out.push(format!("{c}{c}")),
        }
        i += if pairs.is_some() { 2 } else { 1 };
    }
    out
}

/// What cannot be read in a Betza string, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct BetzaError(String);

impl From<String> for BetzaError {
    fn from(why: String) -> BetzaError {
        BetzaError(why)
    }
}

impl From<&str> for BetzaError {
    fn from(why: &str) -> BetzaError {
        BetzaError(why.to_string())
    }
}

/// One term of a Betza string: its prefix, its atom letter, the atoms the letter stands for,
/// and whether it rides (and how far).
struct Term {
    prefix: String,
    letter: char,
    atoms: Vec<char>,
    rider: bool,
    range: Option<i64>,
}

/// What a term's prefix asks of its atoms.
#[derive(Default)]
struct Mods {
    /// `none` (`m`), `only` (`c`), `both` (`mc`), or as the kernel's default.
    capture: Option<&'static str>,
    dirs: String,
    lame: bool,
    screen: bool,
    initial: bool,
    en_passant: bool,
    hop: bool,
}

/// The forms a Betza string describes, each spanning the string in the file (for errors).
///
/// # Errors
/// What cannot be read, in words.
pub(crate) fn forms(text: &Spanned<String>) -> Result<Vec<Spanned<RawForm>>, BetzaError> {
    let span = text.span();
    let s: Vec<char> = text.get_ref().chars().collect();
    // A piece that captures en passant (`e`) opens the cells its lame double steps pass.
    let opens_en_passant = s.contains(&'e');
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let term = read_term(&s, &mut i)?;
        let mods = modifiers(&term)?;
        for &a in &term.atoms {
            let base = atom(a).expect("an atom");
            let toks = tokens(&mods.dirs, term.atoms.len() == 1 && base.0 == 0);
            let vecs: Vec<(i8, i8)> = images(base).into_iter().filter(|&v| toks.is_empty() || keeps(&toks, base, v)).collect();
            if vecs.is_empty() {
                return Err(format!("`{}{}` leaves no direction", term.prefix, term.letter).into());
            }
            out.push(at(&span, raw_form(&span, &term, &mods, &vecs, opens_en_passant)));
        }
    }
    if out.is_empty() {
        return Err("an empty Betza string moves nothing".into());
    }
    Ok(out)
}

/// Reads the term starting at `s[*i]` (prefix, letter, doubling or range) and moves past it.
fn read_term(s: &[char], i: &mut usize) -> Result<Term, BetzaError> {
    let start = *i;
    while *i < s.len() && s[*i].is_ascii_lowercase() {
        *i += 1;
    }
    let prefix: String = s[start..*i].iter().collect();
    let Some(&letter) = s.get(*i) else {
        return Err(format!("`{prefix}` at the end modifies no atom").into());
    };
    *i += 1;
    // Shorthands expand to their atoms, riders or not.
    let (atoms, mut rider) = match letter {
        'K' => (vec!['W', 'F'], false),
        'Q' => (vec!['W', 'F'], true),
        'R' => (vec!['W'], true),
        'B' => (vec!['F'], true),
        c if atom(c).is_some() => (vec![c], false),
        c => return Err(format!("`{c}` is not an atom this reader knows (W F D N A H C Z G, K Q R B)").into()),
    };
    let mut range = None;
    if atoms.len() == 1 && !rider && s.get(*i) == Some(&letter) {
        rider = true;
        *i += 1;
    }
    let digits_start = *i;
    while *i < s.len() && s[*i].is_ascii_digit() {
        *i += 1;
    }
    if *i > digits_start {
        let n: i64 = s[digits_start..*i].iter().collect::<String>().parse().map_err(|_| "a range is a number")?;
        if !(1..=99).contains(&n) {
            return Err(format!("a range is 1 to 99, not {n}").into());
        }
        rider = true;
        range = Some(n);
    }
    Ok(Term { prefix, letter, atoms, rider, range })
}

/// What the term's prefix asks, refused where this reader does not give it a meaning.
fn modifiers(term: &Term) -> Result<Mods, BetzaError> {
    let mut m = Mods::default();
    for c in term.prefix.chars() {
        match c {
            'm' => m.capture = Some(if m.capture == Some("only") { "both" } else { "none" }),
            'c' => m.capture = Some(if m.capture == Some("none") { "both" } else { "only" }),
            'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => m.dirs.push(c),
            'n' => m.lame = true,
            'p' => m.screen = true,
            'g' => m.hop = true,
            'i' => m.initial = true,
            'e' => m.en_passant = true,
            other => {
                return Err(format!("the modifier `{other}` is not read here: write that form in TOML (see docs/variant-format.md)").into());
            }
        }
    }
    let rider = term.rider;
    if m.screen && !rider {
        return Err("`p` goes with a rider (pR: janggi's cannon; cpR: xiangqi's cannon's capture)".into());
    }
    if m.hop && (!rider || m.screen) {
        return Err("`g` goes with a rider (gQ: the grasshopper), and not with `p`".into());
    }
    if m.en_passant && (rider || m.capture != Some("only")) {
        return Err("`e` is read as `ce` on a single leap, a capture that may also take en passant (fceF: a chess pawn's)".into());
    }
    if m.lame && rider {
        return Err("`n` (lame) goes with a single leap, not a rider".into());
    }
    Ok(m)
}

/// The TOML form of one atom of a term, along the vectors its directions keep.
fn raw_form(span: &std::ops::Range<usize>, term: &Term, m: &Mods, vecs: &[(i8, i8)], opens_en_passant: bool) -> RawForm {
    let list = RawDirs::List(vecs.iter().map(|&(x, y)| RawDir::Vector([x as i64, y as i64])).collect());
    let mut f = RawForm { relative: Some(true), ..RawForm::default() };
    if m.initial {
        f.initial = Some(at(span, true));
    }
    f.capture = Some(at(
        span,
        Setting::Value(match m.capture {
            Some("none") => TextOrBool::Bool(false),
            Some("only") => TextOrBool::Text("only".into()),
            _ => TextOrBool::Bool(true),
        }),
    ));
    if term.rider {
        f.slide = Some(at(span, list));
        f.max_distance = term.range.map(|n| at(span, n));
        if m.screen {
            // `cp` captures over a screen (its quiet moves are another term's); `p` alone, or
            // `mp`, moves over one too.
            let always = m.capture != Some("only");
            f.screen = Some(at(span, Setting::Value(if always { TextOrBool::Text("always".into()) } else { TextOrBool::Bool(true) })));
        }
        if m.hop {
            f.hop = Some(at(span, Setting::Value(true)));
        }
    } else if m.en_passant {
        // A one-cell move as a step: a step is the form that captures en passant.
        f.step = Some(at(span, list));
        f.en_passant = Some(at(span, true));
    } else {
        f.leap = Some(at(span, list));
        f.distance = Some(at(span, Setting::Value(TextOrInt::Int(1))));
        if m.lame {
            f.lame = Some(at(span, Setting::Value(TextOrBool::Bool(true))));
            if opens_en_passant && m.capture == Some("none") {
                f.en_passant = Some(at(span, true));
            }
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(t: &str) -> Result<Vec<RawForm>, String> {
        forms(&Spanned::new(0..t.len(), t.to_string())).map(|v| v.into_iter().map(Spanned::into_inner).collect()).map_err(|e| e.to_string())
    }

    fn vectors(f: &RawForm) -> Vec<(i64, i64)> {
        let d = f.leap.as_ref().or(f.slide.as_ref()).or(f.step.as_ref()).unwrap().get_ref();
        let RawDirs::List(l) = d else { panic!() };
        let mut v: Vec<(i64, i64)> = l.iter().map(|x| if let RawDir::Vector([a, b]) = x { (*a, *b) } else { panic!() }).collect();
        v.sort();
        v
    }

    #[test]
    fn atoms_riders_and_shorthands() {
        let n = read("N").unwrap();
        assert_eq!(n.len(), 1);
        assert!(n[0].leap.is_some());
        assert_eq!(vectors(&n[0]).len(), 8);
        let q = read("Q").unwrap();
        assert_eq!(q.len(), 2);
        assert!(q.iter().all(|f| f.slide.is_some() && f.max_distance.is_none()));
        let nn = read("NN").unwrap();
        assert!(nn[0].slide.is_some());
        let w3 = read("W3").unwrap();
        assert_eq!(w3[0].max_distance.as_ref().map(|m| *m.get_ref()), Some(3));
        // The chancellor: a rook and a knight.
        let rn = read("RN").unwrap();
        assert_eq!((rn[0].slide.is_some(), rn[1].leap.is_some()), (true, true));
    }

    #[test]
    fn modifiers_pick_directions_and_captures() {
        // A chess pawn without its double step: one step forward to an empty cell, a capture one
        // step diagonally forward.
        let p = read("fmWfcF").unwrap();
        assert_eq!(vectors(&p[0]), vec![(0, 1)]);
        assert!(matches!(p[0].capture.as_ref().unwrap().get_ref(), Setting::Value(TextOrBool::Bool(false))));
        assert_eq!(vectors(&p[1]), vec![(-1, 1), (1, 1)]);
        assert!(matches!(p[1].capture.as_ref().unwrap().get_ref(), Setting::Value(TextOrBool::Text(t)) if t == "only"));
        // Directions as Fairy-Stockfish reads them (each expected list is what its move
        // generator, pyffish 0.0.90, lists for the piece alone on d4: white's moves, and black's
        // turned round, the same).
        for (betza, want) in [
            ("fN", vec![(-1, 2), (1, 2)]),
            ("ffN", vec![(-1, 2), (1, 2)]),
            ("bN", vec![(-1, -2), (1, -2)]),
            ("lN", vec![(-2, -1), (-2, 1)]),
            ("rN", vec![(2, -1), (2, 1)]),
            ("vN", vec![(-1, -2), (-1, 2), (1, -2), (1, 2)]),
            ("sN", vec![(-2, -1), (-2, 1), (2, -1), (2, 1)]),
            ("fsN", vec![(-2, 1), (2, 1)]),
            ("bsN", vec![(-2, -1), (2, -1)]),
            ("fhN", vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]),
            ("bhN", vec![(-2, -1), (-1, -2), (1, -2), (2, -1)]),
            ("lhN", vec![(-2, -1), (-2, 1), (-1, -2), (-1, 2)]),
            ("rhN", vec![(1, -2), (1, 2), (2, -1), (2, 1)]),
            ("hrN", vec![(-2, 1), (-1, -2), (1, 2), (2, -1)]),
            ("hlN", vec![(-2, -1), (-1, 2), (1, -2), (2, 1)]),
            ("frN", vec![(2, 1)]),
            ("rfN", vec![(1, 2)]),
            ("flN", vec![(-2, 1)]),
            ("lfN", vec![(-1, 2)]),
            ("brN", vec![(2, -1)]),
            ("rbN", vec![(1, -2)]),
            ("blN", vec![(-2, -1)]),
            ("lbN", vec![(-1, -2)]),
            ("rvN", vec![(1, -2), (1, 2)]),
            ("lvN", vec![(-1, -2), (-1, 2)]),
            ("fW", vec![(0, 1)]),
            ("sW", vec![(-1, 0), (1, 0)]),
            ("fsW", vec![(-1, 0), (0, 1), (1, 0)]),
            ("vW", vec![(0, -1), (0, 1)]),
            ("fF", vec![(-1, 1), (1, 1)]),
            ("lF", vec![(-1, -1), (-1, 1)]),
            ("fsF", vec![(-1, 1), (1, 1)]),
            ("fC", vec![(-1, 3), (1, 3)]),
            ("sC", vec![(-3, -1), (-3, 1), (3, -1), (3, 1)]),
            ("fsZ", vec![(-3, 2), (3, 2)]),
            ("sD", vec![(-2, 0), (2, 0)]),
            ("fA", vec![(-2, 2), (2, 2)]),
        ] {
            let mut got: Vec<(i64, i64)> = read(betza).unwrap().iter().flat_map(vectors).collect();
            got.sort();
            assert_eq!(got, want, "{betza}");
        }
        // The king's two atoms are read apart (no splitting of `fs` on the orthogonal one).
        for (betza, want) in [
            ("fK", vec![(-1, 1), (0, 1), (1, 1)]),
            ("fsK", vec![(-1, 0), (-1, 1), (1, 0), (1, 1)]),
            ("frK", vec![(1, 0), (1, 1)]),
            ("sK", vec![(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]),
        ] {
            let mut got: Vec<(i64, i64)> = read(betza).unwrap().iter().flat_map(vectors).collect();
            got.sort();
            assert_eq!(got, want, "{betza}");
        }
        // Xiangqi's horse and cannon.
        assert!(read("nN").unwrap()[0].lame.is_some());
        let cannon = read("mRcpR").unwrap();
        assert!(cannon[1].screen.is_some());
        // The grasshopper hops along a queen's lines.
        let g = read("gQ").unwrap();
        assert!(g.iter().all(|f| f.hop.is_some() && f.slide.is_some()));
    }

    #[test]
    fn the_chess_pawn_with_its_double_step_and_en_passant() {
        let p = read("fmWfceFifmnD").unwrap();
        assert_eq!(p.len(), 3);
        // The capture is a step that also takes en passant.
        assert!(p[1].step.is_some() && p[1].en_passant.is_some());
        // The double step: from the start cells only, lame, opening en passant.
        assert_eq!(vectors(&p[2]), vec![(0, 2)]);
        assert!(p[2].initial.is_some() && p[2].lame.is_some() && p[2].en_passant.is_some());
        // Without `e` in the string, the double step opens nothing.
        assert!(read("fmWfcFifmnD").unwrap()[2].en_passant.is_none());
    }

    #[test]
    fn what_is_not_read_says_so() {
        assert!(read("feF").unwrap_err().contains("`ce`"));
        assert!(read("gN").unwrap_err().contains("rider"));
        assert!(read("X").unwrap_err().contains("not an atom"));
        assert!(read("pN").unwrap_err().contains("rider"));
        assert!(read("pR").unwrap()[0].screen.is_some());
        assert!(read("nNN").unwrap_err().contains("lame"));
        assert!(read("fm").unwrap_err().contains("modifies no atom"));
    }

    /// Left and right are the player's own: a knight that leaps only narrow forward right
    /// (`rfN`) goes from d4 to e6 for white and, turned round, to c2 for black (as
    /// Fairy-Stockfish's move generator lists them).
    #[test]
    fn directions_turn_round_for_the_second_player() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rf.toml");
        let toml = "name = \"rf\"\nextends = \"chess\"\n[pieces.knight]\nsymbol = \"N\"\nbetza = \"rfN\"\n";
        std::fs::write(&path, toml).unwrap();
        let v = crate::variant::Variant::load(path.to_str().unwrap(), &[]).unwrap();
        for (fen, want) in [("k7/8/8/8/3N4/8/8/R6K w - - 0 1", "d4-e6"), ("K7/8/8/8/3n4/8/8/r6k b - - 0 1", "d4-c2")] {
            let mut pos = crate::fen::read(&v.rules, fen).unwrap();
            let mut moves = Vec::new();
            v.legal_moves(&mut pos, &mut moves).unwrap();
            let from_d4: Vec<String> = moves.iter().map(|m| m.text(&v.rules.geometry)).filter(|t| t.starts_with("d4")).collect();
            assert_eq!(from_d4, vec![want.to_string()], "{fen}");
        }
    }
}
