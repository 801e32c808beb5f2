//! No panic where the docs promise an error: `diff` over every ordered pair of shipped
//! variants (in process, a small walk per pair) either compares them or says why it cannot.

use boardlab::Variant;
use boardlab::diff::{Config, DiffError, diff};

/// Every ordered pair of shipped variants: no panic; a pair that cannot be compared says why
/// (the words after "cannot compare A and B: "); a variant always compares with itself.
#[test]
fn diff_over_every_pair_of_shipped_variants_never_panics() {
    let names = boardlab::shipped_names();
    let loaded: Vec<(String, Variant)> = names.iter().map(|n| (n.clone(), Variant::load(n, &[]).unwrap())).collect();
    // The smallest walk that still plays moves under both rule sets: the start, one ply, one
    // short random game; enough to reach every place the two rule sets are read side by side.
    let cfg = Config { depth: 1, games: 1, seed: 1, max_positions: 40 };
    let mut panics = Vec::new();
    let mut refused = 0;
    for (na, a) in &loaded {
        for (nb, b) in &loaded {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| diff(a, b, &cfg)));
            match r {
                Err(_) => panics.push(format!("{na} {nb}")),
                Ok(Ok(_)) => {}
                Ok(Err(e @ DiffError::OtherGame { .. })) => {
                    assert_ne!(na, nb, "{na} cannot be compared with itself: {e}");
                    let text = e.to_string();
                    let why = text.strip_prefix(&format!("cannot compare {na} and {nb}: ")).unwrap_or("");
                    assert!(why.len() > 10, "no reason for {na} {nb}: {text}");
                    refused += 1;
                }
                Ok(Err(e)) => panic!("{na} {nb}: {e}"),
            }
        }
    }
    assert!(panics.is_empty(), "diff panicked on {} pairs: {}", panics.len(), panics.join("; "));
    // Most pairs are of different games (checked by hand: 26 variants, a handful of families).
    assert!(refused > names.len() * (names.len() - 1) / 2, "only {refused} pairs refused");
}

/// The pairs the issue found panicking say, on the command line, what differs, with exit
/// status 2 (a usage error), not 101.
#[test]
fn diff_of_two_games_says_why_it_cannot_compare() {
    let data = crate::scratch("nopanic-diff");
    let o = crate::binary(&["diff", "chess", "grasshopper", "--games", "1", "--depth", "1"], "", &data);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot compare chess and grasshopper: the pieces differ: only B has grasshopper (G)"), "{err}");
    let o = crate::binary(&["diff", "lielow", "chess", "--games", "1", "--depth", "1"], "", &data);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot compare lielow and chess: "), "{err}");
}
