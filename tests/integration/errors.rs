//! Broken variants: each folder of `tests/broken/` is a variant with one mistake; its
//! diagnostic (file, line, column, caret, hint) is snapshot-tested without colour.

use boardlab::Variant;

#[test]
fn broken_variants() {
    insta::glob!("../broken", "*/variant.toml", |path| {
        let rel = path.strip_prefix(crate::root()).unwrap();
        let dir = rel.parent().unwrap().display().to_string();
        let err = match Variant::load(&format!("./{dir}"), &[]) {
            Ok(_) => panic!("{dir} loaded, but it is broken on purpose"),
            Err(e) => e.render_plain(),
        };
        let mut settings = insta::Settings::clone_current();
        settings.set_omit_expression(true);
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| insta::assert_snapshot!(err));
    });
}

fn load_err(name: &str, sets: &[(&str, &str)]) -> String {
    let sets: Vec<(String, String)> = sets.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    match Variant::load(name, &sets) {
        Ok(_) => panic!("{name} {sets:?} loaded"),
        Err(e) => format!("{} {}", e.message, e.help.clone().unwrap_or_default()),
    }
}

#[test]
fn unknown_option_lists_the_options() {
    let e = load_err("basileus", &[("capture_choise", "any")]);
    assert!(e.contains("unknown option `capture_choise`"), "{e}");
    assert!(e.contains("king_adjacency"), "{e}");
    assert!(e.contains("did you mean `capture_choice`?"), "{e}");
}

#[test]
fn bad_option_value_lists_the_values() {
    let e = load_err("basileus", &[("king_adjacency", "sometimes")]);
    assert!(e.contains("loss_after_capture, replacement_move, loss_after_any_move, forbidden"), "{e}");
    let e = load_err("checkers", &[("move_limit", "-3")]);
    assert!(e.contains("an integer from 0"), "{e}");
}

#[test]
fn unknown_variant_suggests() {
    let e = load_err("basilevs", &[]);
    assert!(e.contains("unknown variant `basilevs`") && e.contains("did you mean `basileus`?"), "{e}");
}

/// A variant extending checkers with `toml` appended; its load error rendered without colour.
fn load_error_of(name: &str, toml: &str) -> String {
    let dir = crate::scratch(&format!("errors-{name}"));
    std::fs::write(dir.join("variant.toml"), format!("name = \"{name}\"\nextends = \"checkers\"\n{toml}")).unwrap();
    let t = std::time::Instant::now();
    let e = match Variant::load(dir.to_str().unwrap(), &[]) {
        Ok(_) => panic!("{name} loaded:\n{toml}"),
        Err(e) => e.render_plain(),
    };
    assert!(t.elapsed() < std::time::Duration::from_secs(2));
    e
}

/// A player called `draw` would make a drawn game's record name a winner.
#[test]
fn a_player_may_not_be_called_draw() {
    let e = load_error_of("drawplayer", "[players]\nnames = [\"red\", \"Draw\"]\n");
    assert!(e.contains("may not be called `draw`") && e.contains("variant.toml:4"), "{e}");
}

#[test]
fn integers_out_of_range_are_errors_at_the_value() {
    const BIG: &str = "1099511627776"; // 2^40: cut to 32 bits it would be 0
    let man = "[pieces.man]\nsymbol = \"M\"\nattributes = { level = 1 }\n";
    let cases: Vec<(String, &str, &str)> = vec![
        (
            format!("{man}moves = [{{ step = \"diagonal\" }}]\n[pieces.king]\nsymbol = \"K\"\nattributes = {{ level = {BIG} }}\n"),
            "9:24",
            "attribute `level` 1099511627776 is out of range",
        ),
        (format!("[counters]\nescaped = {BIG}\n"), "4:11", "counter `escaped` 1099511627776 is out of range"),
        (
            format!("{man}effects = [{{ attribute = \"level\", add = {BIG} }}]\n"),
            "6:41",
            "`add` to attribute `level` 1099511627776 is out of range",
        ),
        (
            format!("{man}effects = [{{ attribute = \"level\", set = -{BIG} }}]\n"),
            "6:41",
            "`set` of attribute `level` -1099511627776 is out of range",
        ),
        (format!("[board]\nfiles = {BIG}\nranks = 8\n"), "4:9", "a board has 1 to 26 files, not 1099511627776"),
        (format!("[board]\nfiles = 8\nranks = {BIG}\n"), "5:9", "a board has 1 to 99 ranks"),
        (format!("[zones.far]\nranks = [{BIG}]\n"), "4:10", "rank 1099511627776 is not on this board"),
        (format!("{man}moves = [{{ walk = \"diagonal\", steps = {BIG} }}]\n"), "6:39", "a walk makes 1 to 8 steps"),
        (format!("{man}moves = [{{ slide = \"diagonal\", max_distance = -{BIG} }}]\n"), "6:47", "max_distance is 1 or more"),
        (
            format!("{man}moves = [{{ step = \"diagonal\", own_pieces_at_most = {BIG} }}]\n"),
            "6:52",
            "own_pieces_at_most is a number of pieces from 0 to 65534",
        ),
        (format!("{man}moves = [{{ leap = \"diagonal\", distance = {BIG} }}]\n"), "6:42", "a distance is 1 to 30"),
        (
            format!("{man}moves = [{{ slide = \"diagonal\", pass_over = {BIG} }}]\n"),
            "6:44",
            "pass_over is none, any or a number of pieces from 0 to 254",
        ),
        (format!("{man}moves = [{{ step = [[{BIG}, 1]] }}]\n"), "6:19", "[1099511627776, 1] is not a vector"),
        ("[pieces.man]\nsymbol = \"M\"\nmoves = [{ step = [[-9223372036854775808, 1]] }]\n".into(), "5:19", "each from -30 to 30"),
        (format!("[[end]]\ncondition = \"pieces_at_most\"\ncount = {BIG}\n"), "5:9", "a piece count is 0 to 32"),
        (format!("[[end]]\ncondition = \"repetition\"\ncount = {BIG}\nresult = \"draw\"\n"), "5:9", "a repetition count is 2 to 1000"),
        (format!("[options.move_limit]\nmin = 0\nmax = {BIG}\n"), "5:7", "option `move_limit`: 1099511627776 is out of range"),
        (format!("[options.army]\nmin = 0\nmax = 5\ndefault = {BIG}\n"), "6:11", "expected an integer from 0 to 5"),
        ("[options.army]\nmin = 5\nmax = 0\n".into(), "5:7", "option `army`: max 0 is below min 5"),
        (
            format!("{man}moves = [{{ step = \"diagonal\" }}]\n[setup]\nrows = \"4/4/4/4/4/4/4/MMM[{BIG}]M\"\n"),
            "8:8",
            "setup rows: rank 1: `1099511627776` is out of range; values are integers from -2147483648 to",
        ),
    ];
    for (i, (toml, at, msg)) in cases.iter().enumerate() {
        let e = load_error_of(&format!("int{i}"), toml);
        assert!(e.contains(&format!("variant.toml:{at}]")) && e.contains(msg), "case {i}: expected {msg} at {at}:\n{toml}\n{e}");
    }
}

#[test]
fn check_loads_every_option_setting_and_names_the_one_that_breaks() {
    let dir = crate::scratch("errors-options");
    let toml = "name = \"options\"\nextends = \"checkers\"\n\
                [options.army]\nmin = 0\nmax = 40\ndefault = 3\n\
                [options.style]\nvalues = [\"a\", \"b\"]\n\
                [captures]\ncompulsory = true\nchain = { option = \"style\", map = { a = \"must_continue\", b = \"sometimes\" } }\n\
                [[end]]\ncondition = \"pieces_at_most\"\ncount = { option = \"army\" }\n";
    std::fs::write(dir.join("variant.toml"), toml).unwrap();
    let path = dir.to_str().unwrap();
    // The default setting loads: only `check` finds the others.
    assert!(Variant::load(path, &[]).is_ok());
    let t = std::time::Instant::now();
    let o = crate::binary(&["check", path], "", &dir);
    assert!(t.elapsed() < std::time::Duration::from_secs(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    // army takes 3 (its default), 0 and 40; style a and b: 6 settings, 4 broken.
    assert!(err.starts_with("options: 4 of 6 option settings fail"), "{err}");
    assert!(err.contains("\nwith army=40:\n") && err.contains("a piece count is 0 to 32 (the board's cells), not 40"), "{err}");
    assert!(err.contains("variant.toml:14:9]"), "{err}");
    // Settings that fail the same way share one diagnostic.
    assert!(err.contains("\nwith style=b; with army=0, style=b; with army=40, style=b:\n"), "{err}");
    assert!(err.contains("`sometimes` is not allowed here; expected one of: must_continue, may_stop, single"), "{err}");
    // Options given with --set stay put.
    let o = crate::binary(&["check", path, "--set", "style=a", "--set", "army=3"], "", &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("; 1 option setting loaded)"));
    // A shipped variant: every combination, or one option at a time past 64.
    let o = crate::binary(&["check", "bivouac"], "", &dir);
    assert!(String::from_utf8_lossy(&o.stdout).contains("48 option settings loaded)"));
    let o = crate::binary(&["check", "pyramida"], "", &dir);
    assert!(String::from_utf8_lossy(&o.stdout).contains("option settings loaded, one option at a time)"));
}

/// A scratch variant extending checkers with a script; `boardlab check` on it.
fn check_script(name: &str, script: &str) -> (Option<i32>, String, String) {
    let dir = crate::scratch(&format!("errors-{name}"));
    std::fs::write(dir.join("variant.toml"), format!("name = \"{name}\"\nextends = \"checkers\"\nscript = \"rules.rhai\"\n")).unwrap();
    std::fs::write(dir.join("rules.rhai"), script).unwrap();
    // Loading does not read the script this way: it loads, and `check` reports.
    assert!(Variant::load(dir.to_str().unwrap(), &[]).is_ok());
    let t = std::time::Instant::now();
    let o = crate::binary(&["check", dir.to_str().unwrap()], "", &dir);
    assert!(t.elapsed() < std::time::Duration::from_secs(2));
    (o.status.code(), String::from_utf8_lossy(&o.stdout).to_string(), String::from_utf8_lossy(&o.stderr).to_string())
}

#[test]
fn check_reports_undefined_functions_and_unknown_names_in_the_script() {
    let script = "fn helper(a) { a }\n\
                  fn after_move(m) {\n\
                  \x20   if ownr(m.to) == \"white\" { helper(1, 2); }\n\
                  \x20   place(m.to, \"kingg\", \"whit\");\n\
                  \x20   if in_zone(m.to, \"far_rnak\") { remove(\"e9\"); }\n\
                  \x20   set_attr(m.to, \"level\", counter(m.player, \"escaped\"));\n\
                  \x20   let n = adjacent_pieces(m.to, [\"ne\", \"up\"], \"black\").filter(|c| is_royall(c));\n\
                  \x20   if kind(m.to) == \"kign\" { m.to.nosuch(); }\n\
                  }\n\
                  fn outcome() { if option(\"no_moves\") == 1 { win(side(), \"done\"); } }\n";
    let (code, _, err) = check_script("lint", script);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("lint: the script has 12 errors and 1 warning"), "{err}");
    let expect = [
        (
            "rules.rhai:3:8]",
            "× hook `after_move` calls `ownr`, which is defined nowhere: not in the script, the boardlab API",
            Some("did you mean `owner`?"),
        ),
        ("rules.rhai:3:32]", "× hook `after_move` calls `helper` with 2 arguments, but `helper` takes 1", None),
        (
            "rules.rhai:4:17]",
            "× hook `after_move` calls `place` with \"kingg\": unknown piece kind `kingg` (this variant has:",
            Some("did you mean `king`?"),
        ),
        ("rules.rhai:4:26]", "× hook `after_move` calls `place` with \"whit\": unknown player `whit`", Some("did you mean `white`?")),
        (
            "rules.rhai:5:22]",
            "× hook `after_move` calls `in_zone` with \"far_rnak\": unknown zone `far_rnak`",
            Some("did you mean `far_rank`?"),
        ),
        ("rules.rhai:5:43]", "× hook `after_move` calls `remove` with \"e9\": e9 is not on the board", None),
        (
            "rules.rhai:6:20]",
            "× hook `after_move` calls `set_attr` with \"level\": unknown attribute `level` (this variant has: none)",
            None,
        ),
        ("rules.rhai:6:47]", "× hook `after_move` calls `counter` with \"escaped\": unknown counter `escaped`", None),
        ("rules.rhai:7:42]", "× hook `after_move` calls `adjacent_pieces` with \"up\": `up` is not a direction", None),
        ("rules.rhai:7:69]", "calls `is_royall`, which is defined nowhere", Some("did you mean `is_royal`?")),
        (
            "rules.rhai:8:22]",
            "⚠ hook `after_move` compares `kind(…)` with \"kign\", which it never returns: unknown piece kind",
            Some("did you mean `king`?"),
        ),
        ("rules.rhai:8:36]", "× hook `after_move` calls `nosuch`, which is defined nowhere", None),
        (
            "rules.rhai:10:26]",
            "× hook `outcome` calls `option` with \"no_moves\": unknown option `no_moves` (this variant has: move_limit)",
            None,
        ),
    ];
    // Each finding: its message, then its place in the script, then its hint.
    let blocks: Vec<&str> = err.split("\n\n").collect();
    for (place, msg, help) in expect {
        let b = blocks.iter().find(|b| b.contains(place)).unwrap_or_else(|| panic!("nothing at {place}:\n{err}"));
        let flat = b.replace("\n  │ ", " ");
        assert!(flat.contains(msg), "at {place} expected {msg}:\n{b}");
        if let Some(h) = help {
            assert!(b.contains(h), "at {place} expected {h}:\n{b}");
        }
    }
    // Warnings alone do not fail the check; they are printed before the ok line.
    let (code, out, err) = check_script("warned", "fn after_move(m) { if owner(m.to) == \"blak\" { print(\"x\"); } }\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.replace("\n  │ ", " ")
            .contains("⚠ hook `after_move` compares `owner(…)` with \"blak\", which it never returns: unknown player `blak`"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("; 1 option setting loaded; 1 warning in the script)"), "{out}");
    // The shipped scripts are clean, Rhai's own functions included.
    let builtins = "fn helper(a, b) { a + b }\nfn after_move(m) {\n\
                    let arr = [3, 1, 2]; arr.push(4); arr.sort(); let s = arr.len().to_string(); let x = (-3).abs();\n\
                    let t = \"a,b\".split(\",\"); let i = parse_int(\"12\"); for k in range(0, 3) { print(k); debug(k); }\n\
                    let mp = #{ a: 1, f: Fn(\"helper\") }; let y = mp.f.call(1, 2); let z = call(Fn(\"helper\"), 1, 2);\n\
                    let c = arr.filter(|v| v > 1).map(|v| v * 2); let ty = type_of(x); let d = is_def_fn(\"helper\", 2);\n\
                    let q = 3 in arr; let p = arr.pop(); let st = `${s}`; let w = m.to.owner(); let e = zone(\"board\").len();\n\
                    if kind(m.to) == \"\" || owner(m.to) == \"\" || side() == \"white\" { helper(1, 2); }\n}\n";
    let (code, out, err) = check_script("builtins", builtins);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains('×') && !out.contains('⚠'), "{out}");
    for v in ["basileus", "pyramida", "pyramida-calm"] {
        let o = crate::binary(&["check", v], "", &crate::root());
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success() && out.starts_with(&format!("{v}: ok")) && !out.contains('⚠'), "{out}");
    }
}

/// A rule that asks whether a piece is attacked cannot see custodian captures (they are made by
/// make, not moves of the attack query): with `custodian` it is an error at its key.
#[test]
fn custodian_capture_with_an_attack_rule_is_refused_at_the_rule() {
    let dir = crate::scratch("errors-custodian-check");
    let cases = [
        ("[rules]\ncheck = \"illegal\"\n", "variant.toml:4:9", "`check = \"illegal\"` asks whether a piece is attacked"),
        ("[[end]]\ncondition = \"no_moves\"\nresult = \"loss\"\nif_attacked = [\"king\"]\n", "variant.toml:6:16", "`if_attacked` asks"),
    ];
    for (toml, at, msg) in cases {
        std::fs::write(dir.join("variant.toml"), format!("name = \"mine\"\nextends = \"brandubh\"\n{toml}")).unwrap();
        let e = match Variant::load(dir.to_str().unwrap(), &[]) {
            Ok(_) => panic!("loaded:\n{toml}"),
            Err(e) => e.render_plain(),
        };
        assert!(e.contains(msg) && e.contains("`custodian`") && e.contains(at), "{e}");
    }
}
