//! Board diagrams (`show --svg` / `--png`): the SVG text of every shipped variant's start as a
//! snapshot, a last move with its captures, the PNG, and the commands that write them.

use boardlab::diagram::{self, Options};
use boardlab::{Effect, Position, Session, Style, Variant};

/// The picture after playing `moves` from `position` (or the start), with the last move marked.
fn picture(variant: &str, position: Option<&str>, moves: &[&str], opts: Options) -> String {
    let v = Variant::load(variant, &[]).unwrap();
    let mut pos = position.map_or_else(|| v.start(), |t| Position::from_text(&v.rules, t).unwrap());
    let mut last = None;
    for m in moves {
        last = Some(v.play(&mut pos, m).unwrap());
    }
    diagram::svg(&v, &pos, last.as_ref(), opts)
}

#[test]
fn diagram_of_each_shipped_start() {
    // One snapshot per folder of variants/, all failures reported at the end.
    insta::glob!("../../variants", "*/variant.toml", |path| {
        let name = path.parent().unwrap().file_name().unwrap().to_str().unwrap();
        insta::assert_snapshot!(picture(name, None, &[], Options::default()));
    });
}

#[test]
fn diagram_marks_the_last_move_and_its_captures() {
    // A jump: the path from d4 over e5 to f6, e5 crossed out (it is empty now).
    let svg = picture("checkers", None, &["c3-d4", "f6-e5", "d4xf6"], Options::default());
    assert!(svg.contains("<g id=\"arrow\"") && svg.contains("<g id=\"captured\""));
    assert!(svg.contains("last move: d4xf6"));
    insta::assert_snapshot!("checkers_jump", svg);
    // A capture by landing (Lielow): the landing framed in red, kings ringed, levels on discs.
    let before = "p[0,3]7/5p[1,4]2/5p[0,3]P[1,1]p[0,2]/4p[0,4]3/2P[0,3]5/4P[0,2]1P[0,3]P[0,3]/8/P[0,3]5P[0,3]1 black 33";
    let svg = picture("lielow", Some(before), &["e5xa1"], Options::default());
    insta::assert_snapshot!("lielow_capture_by_landing", svg);
    // Seen from black's side, without the caption.
    let svg = picture("checkers", None, &["c3-d4", "f6-e5", "d4xf6"], Options { flip: true, caption: false });
    assert!(!svg.contains("id=\"caption\"") && svg.contains("<g id=\"arrow\""));
    insta::assert_snapshot!("checkers_jump_flipped_bare", svg);
}

/// PNG width and height from the IHDR chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    let word = |i: usize| u32::from_be_bytes(png[i..i + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn diagram_png_has_the_svg_size_and_its_letters() {
    let svg = picture("basileus", None, &[], Options::default());
    let png = diagram::png(&svg, diagram::PNG_SCALE).unwrap();
    let attr = |name: &str| -> u32 {
        let at = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        svg[at..].split('"').next().unwrap().parse().unwrap()
    };
    let (w, h) = png_size(&png);
    assert_eq!((w, h), (attr("width") * 2, attr("height") * 2));
    // The letters were drawn (a font was found): the caption band below the coordinates has ink.
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    let caption_top = h - 2 * 60;
    let dark = pixmap.pixels()[(caption_top * w) as usize..].iter().filter(|p| p.red() < 100 && p.green() < 100 && p.blue() < 100).count();
    assert!(dark > 200, "only {dark} dark pixels in the caption: no text drawn?");
    assert!(matches!(diagram::png("not svg", 1.0), Err(diagram::PngError::Svg(_))));
}

#[test]
fn show_svg_and_png_in_the_repl_are_effects() {
    let dir = crate::scratch("diagram-repl");
    let mut s = Session::new("checkers", &[], Style::PLAIN).unwrap();
    for m in ["c3-d4", "f6-e5", "d4xf6"] {
        s.execute(m).unwrap();
    }
    let (svg, png) = (dir.join("b.svg"), dir.join("pictures/b.png"));
    let reply = s.execute(&format!("show --svg {} --png {} --flip", svg.display(), png.display())).unwrap();
    assert_eq!(reply.text, format!("wrote {} and {}\n", svg.display(), png.display()));
    match reply.effects.as_slice() {
        [Effect::Write { path: a, contents }, Effect::WriteBytes { path: b, bytes }] => {
            assert_eq!((a, b), (&svg, &png));
            assert_eq!(*contents, picture("checkers", None, &["c3-d4", "f6-e5", "d4xf6"], Options { flip: true, caption: true }));
            assert_eq!(&bytes[1..4], b"PNG");
        }
        other => panic!("expected an SVG and a PNG write, got {other:?}"),
    }
    assert!(!svg.exists(), "the session writes nothing itself");
    boardlab::repl::perform(&reply).unwrap();
    assert!(svg.exists() && png.exists(), "the shell writes both, creating the folder");
    // The text board is still `show`; a picture needs a file name.
    assert!(s.execute("show").unwrap().text.contains("black to move"));
    for bad in ["show --svg", "show --png", "show --flip", "show --bogus x"] {
        assert!(s.execute(bad).unwrap_err().to_string().starts_with("usage: show"), "{bad}");
    }
}

#[test]
fn show_svg_and_png_on_the_command_line() {
    let dir = crate::scratch("diagram-cli");
    let (svg, png) = (dir.join("p.svg"), dir.join("p.png"));
    let args = ["show", "checkers", "--moves", "c3-d4 f6-e5 d4xf6", "--svg", svg.to_str().unwrap(), "--png", png.to_str().unwrap()];
    let o = crate::binary(&args, "", &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty(), "standard output carries only results: the files");
    let written = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(written, picture("checkers", None, &["c3-d4", "f6-e5", "d4xf6"], Options::default()));
    assert_eq!(png_size(&std::fs::read(&png).unwrap()).0 % 2, 0);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&png).unwrap().permissions().mode() & 0o777, 0o644, "a picture others can read");
    }
    // `-` is standard output; options and --position as for every game command.
    let o = crate::binary(&["show", "lielow", "--svg", "-", "--no-caption", "--flip"], "", &dir);
    assert_eq!(String::from_utf8(o.stdout).unwrap(), picture("lielow", None, &[], Options { flip: true, caption: false }));
    let o = crate::binary(&["show", "checkers", "--moves", "c3-d5", "--svg", "x.svg"], "", &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("move 1 (c3-d5)"));
}

#[test]
fn diagram_marks_a_drop() {
    // A drop has no start: its landing is marked, with no arrow.
    let svg = picture("connect-four", None, &["@d1", "@d2"], Options::default());
    assert!(svg.contains("<g id=\"last-move\"") && !svg.contains("<g id=\"arrow\""), "{svg}");
    assert!(svg.contains("last move: @d2"));
}
