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
