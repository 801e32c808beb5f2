//! Every scenario of every shipped variant, snapshot beside it in `scenarios/snapshots/`.

#[test]
fn scenarios() {
    insta::glob!("../../variants", "*/scenarios/*.toml", |path| {
        let snap = boardlab::scenario::run_file(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(path.parent().unwrap().join("snapshots"));
        settings.set_prepend_module_to_snapshot(false);
        settings.remove_snapshot_suffix();
        settings.set_omit_expression(true);
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        settings.bind(|| insta::assert_snapshot!(name, snap));
    });
}
