//! The perft file of every shipped variant (`variants/NAME/perft.txt`).

use boardlab::perft::{parse_file, run_check};

#[test]
fn perft_files() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(crate::root().join("variants")).unwrap() {
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
    assert!(parse_file("1").unwrap_err().contains("line 1"));
    assert!(parse_file("x 3").is_err());
    assert!(parse_file("1 3 bogus=1").is_err());
    let c = parse_file("# comment\n2 10 moves=a1-a2,b1-b2 set=x:y # hand\n").unwrap();
    assert_eq!(c[0].moves, vec!["a1-a2", "b1-b2"]);
    assert_eq!(c[0].options, vec![("x".to_string(), "y".to_string())]);
    assert_eq!(c[0].comment, "hand");
}
