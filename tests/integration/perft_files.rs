//! The perft file of every shipped variant (`variants/NAME/perft.txt`) and test fixture
//! (`tests/NAME/perft.txt`).

use boardlab::perft::{parse_file, run_check};

#[test]
fn perft_files() {
    let mut failures = Vec::new();
    let mut checked = 0;
    // The shipped variants', and test fixtures' that carry one.
    let dirs = ["variants", "tests"].into_iter().flat_map(|d| std::fs::read_dir(crate::root().join(d)).unwrap());
    for entry in dirs {
        let dir = entry.unwrap().path();
        let file = dir.join("perft.txt");
        if !file.is_file() {
            continue;
        }
        let checks = parse_file(&std::fs::read_to_string(&file).unwrap()).unwrap();
        for c in checks {
            match run_check(&dir.display().to_string(), &c) {
                Ok(n) if n == c.count => checked += 1,
                Ok(n) => failures.push(format!("{}:{}: depth {} gave {n}, expected {}", file.display(), c.line, c.depth, c.count)),
                Err(e) => failures.push(format!("{}:{}: {e}", file.display(), c.line)),
            }
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    assert!(checked >= 15, "only {checked} perft checks ran");
}

#[test]
fn perft_file_format_errors() {
    assert!(parse_file("1").unwrap_err().to_string().contains("line 1"));
    assert!(parse_file("x 3").is_err());
    assert!(parse_file("1 3 bogus=1").is_err());
    let c = parse_file("# comment\n2 10 moves=a1-a2,b1-b2 set=x:y # hand\n").unwrap();
    assert_eq!(c[0].moves, vec!["a1-a2", "b1-b2"]);
    assert_eq!(c[0].options, vec![("x".to_string(), "y".to_string())]);
    assert_eq!(c[0].comment, "hand");
}

/// Counting the last level gives the same numbers as making every leaf, on every shipped
/// variant (continuations, passes and finished games included).
#[test]
fn counted_and_made_perft_agree() {
    for name in boardlab::shipped_names() {
        let v = boardlab::Variant::load(&name, &[]).unwrap();
        let mut pos = v.start();
        // Three plies, four in Pyramida; two where a position has thousands of moves (Amazons'
        // 2176 would make depth 3 some 9 billion leaves).
        let wide = boardlab::perft::perft(&v, &mut pos, 1).unwrap() > 500;
        let depth = if name.starts_with("pyramida") {
            4
        } else if wide {
            2
        } else {
            3
        };
        let counted = boardlab::perft::perft(&v, &mut pos, depth).unwrap();
        let made = boardlab::perft::perft_made(&v, &mut pos, depth).unwrap();
        assert_eq!(counted, made, "{name}");
        assert_eq!(pos, v.start());
    }
    // A finished game: 1 at depth 0, 0 below, in both modes.
    let v = boardlab::Variant::load("pyramida", &[]).unwrap();
    let mut pos = boardlab::Position::from_text(&v.rules, "1/W1/3/4/5/6/7/8/9/10/11/10/11/b3b3b1 white 10 counters=escaped:4:0").unwrap();
    v.play(&mut pos, "j13-k14").unwrap();
    for d in 0..3 {
        let want = u64::from(d == 0);
        assert_eq!(boardlab::perft::perft(&v, &mut pos, d).unwrap(), want);
        assert_eq!(boardlab::perft::perft_made(&v, &mut pos, d).unwrap(), want);
    }
}
