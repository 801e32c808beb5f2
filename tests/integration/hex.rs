//! Hex boards, the `connected` end condition and the pie rule (issue 51, parts 2 and 3), on
//! small variants written here: moves along the six directions, chains joining zones on hex
//! and square boards (Y's three shared sides), the swap in a game without a mirror, and the
//! diagnostics of each new key.

use boardlab::{Variant, Winner};

/// Writes `toml` as a variant in its own scratch folder and loads it.
fn load(name: &str, toml: &str) -> Result<Variant, String> {
    let dir = crate::scratch(&format!("hex-{name}"));
    std::fs::write(dir.join("variant.toml"), format!("name = \"{name}\"\n{toml}")).unwrap();
    Variant::load(dir.to_str().unwrap(), &[]).map_err(|e| e.render_plain())
}

/// A board of `files` × `ranks` (hex or not), one kind `stone` placed anywhere, and `rest`.
fn placement(hex: bool, files: u8, ranks: u8, rest: &str) -> String {
    let rows = vec![files.to_string(); ranks as usize].join("\n");
    let geometry = if hex { "geometry = \"hex\"\n" } else { "" };
    format!(
        "[board]\n{geometry}files = {files}\nranks = {ranks}\n[players]\nnames = [\"red\", \"blue\"]\n[pieces.stone]\nsymbol = {{ red = \"R\", blue = \"B\" }}\ndrop = {{ supply = \"unlimited\" }}\n{rest}\n[setup]\nrows = \"\"\"\n{rows}\n\"\"\"\n"
    )
}

fn winner(v: &Variant, moves: &str) -> Option<Winner> {
    let mut pos = v.start();
    for m in moves.split_whitespace() {
        v.play(&mut pos, m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    pos.result().map(|o| o.winner)
}

fn count(v: &Variant, moves: &str, depth: u32) -> u64 {
    let mut pos = v.start();
    for m in moves.split_whitespace() {
        v.play(&mut pos, m).unwrap();
    }
    boardlab::perft::perft(v, &mut pos, depth).unwrap()
}

const RED: Option<Winner> = Some(Winner::Player(boardlab::Player::FIRST));
const BLUE: Option<Winner> = Some(Winner::Player(boardlab::Player::SECOND));

/// A king stepping `all` on a hex board has six moves from the middle, two from an acute
/// corner (a1) and three from an obtuse one (e1); `diagonal` reaches the six hex diagonals.
#[test]
fn a_hex_board_has_six_neighbours() {
    let toml = |dirs: &str| {
        format!(
            "[board]\ngeometry = \"hex\"\nfiles = 5\nranks = 5\n[pieces.king]\nsymbol = \"K\"\nmoves = [{{ step = \"{dirs}\" }}]\n[setup]\nrows = \"\"\"\n5\n5\n5\n5\n5\n\"\"\"\n"
        )
    };
    let v = load("six", &toml("all")).unwrap();
    for (cell, n) in [("c3", 6), ("a1", 2), ("e1", 3), ("a5", 3), ("e5", 2)] {
        let board = board_with_king(cell);
        let mut pos = boardlab::Position::from_text(&v.rules, &format!("{board} white")).unwrap();
        assert_eq!(boardlab::perft::perft(&v, &mut pos, 1).unwrap(), n, "{cell}");
    }
    let v = load("diag", &toml("diagonal")).unwrap();
    let mut pos = boardlab::Position::from_text(&v.rules, &format!("{} white", board_with_king("c3"))).unwrap();
    assert_eq!(boardlab::perft::perft(&v, &mut pos, 1).unwrap(), 6);
    let Err(e) = load("north", &toml("n")) else { panic!("`n` loaded on a hex board") };
    assert!(e.contains("`n` is not a direction set on a hex board") && e.contains("variant.toml:"), "{e}");
}

/// A 5 × 5 board text with a white king on `cell` (rank 5 first).
fn board_with_king(cell: &str) -> String {
    let (f, r) = ((cell.as_bytes()[0] - b'a') as usize, (cell.as_bytes()[1] - b'1') as usize);
    (0..5)
        .rev()
        .map(|rank| {
            if rank == r {
                format!("{}K{}", if f > 0 { f.to_string() } else { String::new() }, if f < 4 { (4 - f).to_string() } else { String::new() })
            } else {
                "5".into()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Hex on 3 × 3: red joins ranks 1 and 3, blue files a and c; a chain through grid
/// diagonals is no chain, one through hex neighbours is.
#[test]
fn hex_chains_join_their_edges() {
    let rest = "[zones.low]\nby_player = { red = { ranks = [1] }, blue = { files = [\"a\"] } }\n[zones.high]\nby_player = { red = { ranks = [3] }, blue = { files = [\"c\"] } }\n[[end]]\ncondition = \"connected\"\nzones = [\"low\", \"high\"]\nreason = \"joined\"\n";
    let v = load("hex3", &placement(true, 3, 3, rest)).unwrap();
    // a1, b2, c3 run along the grid's diagonal: not neighbours on a hex board.
    assert_eq!(winner(&v, "@a1 @c1 @b2 @a3 @c3"), None);
    // b1, b2 (ne of b1), a3 (nw of b2): rank 1 to rank 3.
    assert_eq!(winner(&v, "@b1 @c1 @b2 @a1 @a3"), RED);
    // Blue's a2, b2, c1 (se of b2): file a to file c.
    assert_eq!(winner(&v, "@a1 @a2 @a3 @b2 @b1 @c1"), BLUE);
    // Every 3 × 3 game ends with a winner by the ninth stone (no draw in Hex).
    assert_eq!(count(&v, "", 10), 0);
}

/// Y on a triangle of side 4 (a mask): one chain touching all three shared sides wins; the
/// corner a1 touches two sides at once.
#[test]
fn y_joins_three_shared_sides() {
    let rest = "[zones.left]\nfiles = [\"a\"]\n[zones.bottom]\nranks = [1]\n[zones.slant]\ncells = [\"a4\", \"b3\", \"c2\", \"d1\"]\n[[end]]\ncondition = \"connected\"\nzones = [\"left\", \"bottom\", \"slant\"]\nreason = \"three sides\"\n";
    let toml = placement(true, 4, 4, rest)
        .replace("ranks = 4\n", "ranks = 4\nmask = \"\"\"\no---\noo--\nooo-\noooo\n\"\"\"\n")
        .replace("rows = \"\"\"\n4\n4\n4\n4\n", "rows = \"\"\"\n1\n2\n3\n4\n");
    let v = load("y", &toml).unwrap();
    assert_eq!(count(&v, "", 1), 10);
    // a1 (left and bottom), b1, c1, d1 (bottom and slant): all three sides.
    assert_eq!(winner(&v, "@a1 @a3 @b1 @b2 @c1 @a4 @d1"), RED);
    // Red's b1-c1-d1 misses the left side, blue's a3-a4 the bottom: no winner yet.
    assert_eq!(winner(&v, "@d1 @a3 @c1 @a4 @b1"), None);
}

/// On a square board the chain's default adjacency is the four orthogonal neighbours; `all`
/// lets diagonals join it.
#[test]
fn square_chains_follow_their_directions() {
    let rest = |dirs: &str| {
        format!(
            "[zones.low]\nranks = [1]\n[zones.high]\nranks = [3]\n[[end]]\ncondition = \"connected\"\nzones = [\"low\", \"high\"]\n{dirs}reason = \"joined\"\n"
        )
    };
    let v = load("square4", &placement(false, 3, 3, &rest(""))).unwrap();
    assert_eq!(winner(&v, "@a1 @c1 @b2 @c2 @c3"), None);
    assert_eq!(winner(&v, "@a1 @c1 @a2 @c2 @a3"), RED);
    let v = load("square8", &placement(false, 3, 3, &rest("directions = \"all\"\n"))).unwrap();
    assert_eq!(winner(&v, "@a1 @c1 @b2 @c2 @c3"), RED);
}

/// The pie rule without a mirror (tic-tac-toe's marks): the swap turns the first mark into
/// the second player's, on its cell, and the first player moves again; perft counts it.
#[test]
fn the_swap_takes_over_the_first_move() {
    let rest = "[[end]]\ncondition = \"in_a_row\"\nlength = 3\nreason = \"three\"\n[rules]\npie = true\n";
    let v = load("pie", &placement(false, 3, 3, rest)).unwrap();
    assert_eq!(count(&v, "", 1), 9);
    assert_eq!(count(&v, "", 2), 9 * (8 + 1));
    assert_eq!(count(&v, "", 3), 9 * 8 * 7 + 9 * 8);
    let mut pos = v.start();
    v.play(&mut pos, "@b2").unwrap();
    v.play(&mut pos, "swap").unwrap();
    assert_eq!(pos.to_text(&v.rules).split_whitespace().take(2).collect::<Vec<_>>(), ["3/1B1/3", "red"]);
    let e = v.play(&mut pos, "swap").unwrap_err().to_string();
    assert!(e.contains("only the second player's first move"), "{e}");
    // Blue's swapped b2 counts for blue's lines.
    assert_eq!(winner(&v, "@b2 swap @a1 @a2 @c1 @c2"), BLUE);
}

/// Each new key's mistakes are errors at the key, with the file, line and column.
#[test]
fn mistakes_point_at_the_key() {
    let cases = [
        (
            "geometry",
            placement(false, 3, 3, "").replace("files = 3", "geometry = \"hexagonal\"\nfiles = 3"),
            "`hexagonal` is not a board geometry",
        ),
        (
            "one_zone",
            placement(true, 3, 3, "[zones.low]\nranks = [1]\n[[end]]\ncondition = \"connected\"\nzones = [\"low\"]\n"),
            "a connection joins 2 to 16 zones, not 1",
        ),
        ("no_zones", placement(true, 3, 3, "[[end]]\ncondition = \"connected\"\n"), "end condition `connected` needs `zones`"),
        (
            "unknown_zone",
            placement(true, 3, 3, "[zones.low]\nranks = [1]\n[[end]]\ncondition = \"connected\"\nzones = [\"low\", \"hihg\"]\n"),
            "hihg",
        ),
        ("mirror_word", placement(true, 3, 3, "[rules]\npie = true\npie_mirror = \"vertical\"\n"), "`vertical` is not a pie mirror"),
        ("mirror_alone", placement(true, 3, 3, "[rules]\npie_mirror = \"diagonal\"\n"), "but `pie` is not on"),
        (
            "betza",
            placement(true, 3, 3, "").replace("drop = { supply = \"unlimited\" }", "betza = \"K\""),
            "Betza's notation describes moves on a square board",
        ),
        (
            "mirror_oblong",
            placement(true, 4, 3, "[rules]\npie = true\npie_mirror = \"diagonal\"\n"),
            "has no mirror across the a1 diagonal",
        ),
    ];
    for (name, toml, want) in cases {
        let Err(e) = load(name, &toml) else { panic!("{name} loaded") };
        assert!(e.contains(want) && e.contains("variant.toml:"), "{name}: {e}");
    }
}

/// Past 128 cells (the cell sets' limit) the chain is found by the general flood: on a 20 × 20
/// hex board red's file a joins ranks 1 and 20 on its 20th stone, not before.
#[test]
fn large_boards_join_chains_too() {
    let rest = "[zones.low]\nranks = [1]\n[zones.high]\nranks = [20]\n[[end]]\ncondition = \"connected\"\nzones = [\"low\", \"high\"]\nreason = \"joined\"\n";
    let v = load("hex20", &placement(true, 20, 20, rest)).unwrap();
    let moves: Vec<String> = (1..=20).flat_map(|r| [format!("@a{r}"), format!("@c{r}")]).collect();
    assert_eq!(winner(&v, &moves[..37].join(" ")), None);
    assert_eq!(winner(&v, &moves[..39].join(" ")), RED);
}

// ---- Havannah's ends (issue 51, part 3) ----

/// Three zones (files a, c, e of a 5 × 5 hex board), of which `at_least` 2: red's a1-b1-c1
/// joins two and wins; with every zone needed it does not.
#[test]
fn at_least_some_zones_win() {
    let zones = "[zones.a]\nfiles = [\"a\"]\n[zones.c]\nfiles = [\"c\"]\n[zones.e]\nfiles = [\"e\"]\n";
    let end =
        |extra: &str| format!("{zones}[[end]]\ncondition = \"connected\"\nzones = [\"a\", \"c\", \"e\"]\n{extra}reason = \"joined\"\n");
    let two = load("two_of_three", &placement(true, 5, 5, &end("at_least = 2\n"))).unwrap();
    assert_eq!(winner(&two, "@a1 @a5 @b1 @b5 @c1"), RED);
    let all = load("all_three", &placement(true, 5, 5, &end(""))).unwrap();
    assert_eq!(winner(&all, "@a1 @a5 @b1 @b5 @c1"), None);
    // Each cell of one zone a goal: any two corners of the board.
    let corners = "[zones.corners]\ncells = [\"a1\", \"e1\", \"a5\", \"e5\"]\n[[end]]\ncondition = \"connected\"\nzones = [\"corners\"]\neach_cell = true\nat_least = 2\nreason = \"bridge\"\n";
    let v = load("corners", &placement(true, 5, 5, corners)).unwrap();
    assert_eq!(winner(&v, "@a1 @c3 @b1 @c4 @c1 @d4 @d1"), None);
    assert_eq!(winner(&v, "@a1 @c3 @b1 @c4 @c1 @d4 @d1 @b4 @e1"), RED);
}

/// A ring on a hexagon (a masked hex board): six stones around c3 win, whatever c3 holds; a
/// loop around a cell of the rim (d1, beside cells the mask leaves out) does not.
#[test]
fn rings_enclose_cells_and_the_mask_is_outside() {
    let mask = "mask = \"\"\"\nooo--\noooo-\nooooo\n-oooo\n--ooo\n\"\"\"\n";
    let rest = "[[end]]\ncondition = \"ring\"\nreason = \"ring\"\n";
    let toml = placement(true, 5, 5, rest)
        .replace("ranks = 5\n", &format!("ranks = 5\n{mask}"))
        .replace("rows = \"\"\"\n5\n5\n5\n5\n5\n\"\"\"", "rows = \"\"\"\n3\n4\n5\n4\n3\n\"\"\"");
    let v = load("hexagon", &toml).unwrap();
    // Around c3: d3 c4 b4 b3 c2 d2; blue's stone on c3 inside.
    assert_eq!(winner(&v, "@d3 @c3 @c4 @e1 @b4 @e2 @b3 @e3 @c2 @a5 @d2"), RED);
    assert_eq!(winner(&v, "@d3 @e1 @c4 @e2 @b4 @e3 @b3 @a5 @c2"), None);
    // d1 is on the rim (its two southern neighbours are off the board): c1 c2 d2 e1 around it
    // enclose nothing.
    assert_eq!(winner(&v, "@c1 @a5 @c2 @b5 @d2 @c5 @e1"), None);
}

/// The new keys' mistakes are errors at the key.
#[test]
fn havannah_mistakes_point_at_the_key() {
    let zones = "[zones.a]\nfiles = [\"a\"]\n[zones.c]\nfiles = [\"c\"]\n";
    let cases = [
        (
            "at_least_high",
            format!("{zones}[[end]]\ncondition = \"connected\"\nzones = [\"a\", \"c\"]\nat_least = 3\n"),
            "`at_least` is 2 to 2 (the goals the chain may touch), not 3",
        ),
        (
            "at_least_one",
            format!("{zones}[[end]]\ncondition = \"connected\"\nzones = [\"a\", \"c\"]\nat_least = 1\n"),
            "`at_least` is 2 to 2",
        ),
        (
            "at_least_elsewhere",
            "[[end]]\ncondition = \"ring\"\nat_least = 2\n".to_string(),
            "`at_least` belongs to `connected`, not to `ring`",
        ),
        (
            "too_many_goals",
            "[zones.all]\nranks = [1, 2, 3, 4, 5]\n[[end]]\ncondition = \"connected\"\nzones = [\"all\"]\neach_cell = true\nat_least = 2\n"
                .to_string(),
            "a connection joins at most 16 goals",
        ),
        ("ring_result", "[[end]]\ncondition = \"ring\"\nresult = \"draw\"\n".to_string(), "draw"),
    ];
    for (name, rest, want) in cases {
        let Err(e) = load(name, &placement(true, 5, 5, &rest)) else { panic!("{name} loaded") };
        assert!(e.contains(want) && e.contains("variant.toml:"), "{name}: {e}");
    }
}

// ---- end of Havannah's ends ----
