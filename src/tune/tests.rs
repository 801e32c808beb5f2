//! `tune`'s model against the evaluator, the fit against numbers it should find, and the file it
//! writes against the model it fitted.

use super::features::{Data, Reader};
use super::fit::{self, Numbers, Param};
use super::*;
use crate::ai::Evaluator;
use crate::rules::EvalModel;

/// Positions of random games of `v`, read (results all ½), and the positions themselves.
fn read(v: &Variant, seed: u64, games: usize, plies: usize) -> (Data, Vec<crate::state::Position>) {
    let ones = Numbers { weights: [1.0; Term::COUNT], ..Numbers::of(&v.rules.eval) }.model(&v.rules);
    let mut reader = Reader::new(v, &ones);
    let mut data = Data::default();
    let mut positions = Vec::new();
    v.random_positions(seed, games, plies, |pos, moves| {
        if !moves.is_empty() && pos.continuation().is_none() {
            reader.read(pos, 0.5, false, &mut data).unwrap();
            positions.push(pos.clone());
        }
    });
    (data, positions)
}

/// The model's evaluation of every position is the evaluator's under `m`, within `tolerance`
/// units (the goal and fill terms are scaled, not rebuilt: see `features`).
fn agrees(v: &Variant, m: &EvalModel, data: &Data, positions: &mut [crate::state::Position], tolerance: f64) {
    let mut ev = Evaluator::with_model(v, m);
    for (i, pos) in positions.iter_mut().enumerate() {
        let want = ev.score(pos).unwrap() as f64;
        let got = data.eval(m, i);
        assert!((want - got).abs() <= tolerance, "{}: {got} for {want} at {}", v.name(), pos.to_text(&v.rules));
    }
}

/// Numbers unlike the defaults: every value, weight and point moved.
fn odd(n: &Numbers) -> Numbers {
    let mut o = n.clone();
    for (k, x) in o.values.iter_mut().enumerate() {
        *x = *x * 3 / 2 + 7 * k as i32 + 11;
    }
    for (t, w) in o.weights.iter_mut().enumerate() {
        *w = fit::clamp_weight(*w * 0.7 + 0.113 * t as f64);
    }
    // Points unlike the derived ones (the model's own table must be read, not the one the
    // positions were read with).
    for (i, x) in o.points.iter_mut().flatten().flatten().enumerate() {
        *x = *x * 2 - 13 * i as i32;
    }
    o
}

#[test]
fn the_model_of_the_numbers_is_the_model_loaded() {
    for name in ["checkers", "othello", "pyramida", "amazons", "tic-tac-toe", "bivouac", "lielow"] {
        let v = Variant::load(name, &[]).unwrap();
        let m = &v.rules.eval;
        let n = Numbers::of(m).model(&v.rules);
        assert_eq!((&n.values, &n.material, &n.progress), (&m.values, &m.material, &m.progress), "{name}");
        assert_eq!(
            (n.mobility, n.tempo, n.fill, n.territory, n.script, &n.hands, &n.exits),
            (m.mobility, m.tempo, m.fill, m.territory, m.script, &m.hands, &m.exits),
            "{name}"
        );
    }
}

#[test]
fn the_read_positions_evaluate_as_the_evaluator_does() {
    // Promotions (checkers), cells that can be turned over (Othello), a race with tempo
    // (Pyramida), territory (Amazons), open lines (Connect Four), goals to fill (Bivouac), a
    // script's term, hands (minishogi), Lielow and Breakthrough.
    let cases = [
        ("checkers", 0.0),
        ("othello", 0.0),
        ("pyramida", 0.0),
        ("amazons", 0.0),
        ("connect-four", 0.0),
        ("bivouac", 12.0),
        ("tests/scripted/evaluate/variant.toml", 0.0),
        ("minishogi", 0.0),
        ("lielow", 0.0),
        ("breakthrough", 0.0),
    ];
    for (name, tolerance) in cases {
        let v = Variant::load(name, &[]).unwrap();
        let (data, mut positions) = read(&v, 5, 6, 60);
        assert!(data.len() > 20, "{name}: {}", data.len());
        agrees(&v, &v.rules.eval, &data, &mut positions, tolerance);
        // And under other numbers, as a file holding them would load.
        let other = odd(&Numbers::of(&v.rules.eval)).model(&v.rules);
        agrees(&v, &other, &data, &mut positions, tolerance * 2.0);
    }
}

#[test]
fn the_fit_finds_the_numbers_that_made_the_results() {
    // Breakthrough's positions labelled with the share of wins that known numbers predict: from
    // the defaults, the local search (with that K) finds those numbers again.
    let v = Variant::load("breakthrough", &[]).unwrap();
    let (mut data, _) = read(&v, 9, 40, 50);
    let start = Numbers::of(&v.rules.eval);
    let pawn = v.rules.kind_by_name("pawn").unwrap().0 as usize;
    let mut truth = start.clone();
    truth.values[pawn] = 160;
    truth.weights[Term::Mobility.index()] = 2.5;
    truth.weights[Term::Progress.index()] = 0.4;
    let k = 0.0008;
    let e = fit::evals(&data, &truth.model(&v.rules));
    for (i, x) in e.iter().enumerate() {
        data.results[i] = (1.0 / (1.0 + (-k * x).exp())) as f32;
        data.held_out[i] = i % 10 == 9;
    }
    let params = parameters(&v, &data, &start, &[]).unwrap();
    assert_eq!(params, [Param::Value(pawn), Param::Weight(Term::Progress), Param::Weight(Term::Mobility)]);
    let f = fit::local_search(&v.rules, &data, k, (&start, &params), 500, &mut |_, _| {});
    assert!(f.converged && f.error < 1e-6, "{f:?}");
    let n = &f.numbers;
    assert!((n.values[pawn] - 160).abs() <= 2, "{n:?}");
    assert!((n.weights[Term::Mobility.index()] - 2.5).abs() < 0.05, "{n:?}");
    assert!((n.weights[Term::Progress.index()] - 0.4).abs() < 0.01, "{n:?}");
    // The unit: the kind with the most pieces at the start (Breakthrough's only one), or none.
    assert_eq!(unit(&v, None).unwrap(), Some(pawn));
    assert_eq!(unit(&v, Some("none")).unwrap(), None);
    assert!(
        unit(&v, Some("queen")).unwrap_err().to_string().contains("--unit queen: not a piece kind of breakthrough (kinds: pawn; or none)")
    );
    let checkers = Variant::load("checkers", &[]).unwrap();
    assert_eq!(unit(&checkers, None).unwrap(), checkers.rules.kind_by_name("man").map(|k| k.0 as usize));
    // Kept numbers stay; an unknown name is refused.
    assert_eq!(parameters(&v, &data, &start, &["pawn".into(), "mobility".into()]).unwrap(), [Param::Weight(Term::Progress)]);
    let err = parameters(&v, &data, &start, &["bishop".into()]).unwrap_err().to_string();
    assert!(err.contains("--keep bishop") && err.contains("kinds: pawn"), "{err}");
}

/// A copy of a shipped variant's folder in a scratch folder (removed with the guard).
fn copy_of(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join(name);
    std::fs::create_dir_all(&to).unwrap();
    std::fs::copy(format!("variants/{name}/variant.toml"), to.join("variant.toml")).unwrap();
    (dir, to)
}

#[test]
fn the_written_file_evaluates_as_the_model_fitted() {
    let (_scratch, dir) = copy_of("lielow");
    let spec = dir.display().to_string();
    let v = Variant::load(&spec, &[]).unwrap();
    let (data, mut positions) = read(&v, 3, 4, 50);
    let plan = Plan { games: 0, seed: 1, engine: Engine::DEFAULT, random_plies: 0, threads: 1, max_positions: 0 };
    let start = Numbers::of(&v.rules.eval);
    let params = parameters(&v, &data, &start, &[]).unwrap();
    let mut numbers = start.clone();
    numbers.values[0] = 137;
    numbers.weights[Term::Mobility.index()] = 0.457;
    numbers.points[0].as_mut().unwrap()[3] = -7;
    let fitted = fit::Fitted { numbers: numbers.clone(), error: 0.0, sweeps: 1, converged: true, interrupted: false };
    let changes = params.iter().map(|&p| Change { param: p, name: param_name(&v, p), was: start.get(p), now: numbers.get(p) }).collect();
    let t = Tuning {
        variant: "lielow".into(),
        plan,
        unit: None,
        games: 0,
        seen: 0,
        positions: (0, 0),
        k: 1.0,
        changes,
        before: (0.0, 0.0),
        after: (0.0, 0.0),
        fitted,
        games_interrupted: false,
        seconds: 0.0,
        entries: entries(&v, &numbers, &params),
    };
    let old = std::fs::read_to_string(dir.join("variant.toml")).unwrap();
    write_into(&v, &t).unwrap();
    let new = std::fs::read_to_string(dir.join("variant.toml")).unwrap();
    // The file is the old one and the section.
    assert!(
        new.starts_with(&old)
            && new.ends_with(
                "[ai.eval]\nvalues = { stack = 137 }\nweights = { mobility = 0.457, royal = 1 }\nattributes = { stack = [10, 0, -11, -7, -32, -44, -56, -71, -100] }\n"
            ),
        "{new}"
    );
    // Loaded, it evaluates every position as the model fitted.
    let w = Variant::load(&spec, &[]).unwrap();
    agrees(&w, &w.rules.eval, &data, &mut positions, 0.0);
    let fitted_model = numbers.model(&v.rules);
    for i in 0..data.len() {
        assert_eq!(data.eval(&w.rules.eval, i), data.eval(&fitted_model, i));
    }
    // A read-only file is refused and left as it was.
    let file = dir.join("variant.toml");
    let mut perms = std::fs::metadata(&file).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&file, perms).unwrap();
    let err = write_into(&w, &t).unwrap_err().to_string();
    assert!(err.contains("read-only"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), new);
}

#[test]
fn the_fit_finds_the_points_of_each_level() {
    // Lielow's positions labelled by planted points at levels 2 and 3 (the levels random games
    // reach most): the fit moves those points, not the attributes weight, and finds them.
    let v = Variant::load("lielow", &[]).unwrap();
    let (mut data, _) = read(&v, 5, 40, 40);
    let start = Numbers::of(&v.rules.eval);
    let mut truth = start.clone();
    let table = truth.points[0].as_mut().unwrap();
    (table[2], table[3]) = (-40, 15);
    let k = 0.0008;
    let e = fit::evals(&data, &truth.model(&v.rules));
    for (i, x) in e.iter().enumerate() {
        data.results[i] = (1.0 / (1.0 + (-k * x).exp())) as f32;
    }
    let keep = ["mobility".to_string(), "royal".to_string(), "stack".to_string()];
    let params = parameters(&v, &data, &start, &keep).unwrap();
    assert!(params.contains(&Param::Points(0, 2)) && params.contains(&Param::Points(0, 3)), "{params:?}");
    assert!(!params.contains(&Param::Weight(Term::Attributes)) && !params.contains(&Param::Points(0, 1)), "{params:?}");
    let f = fit::local_search(&v.rules, &data, k, (&start, &params), 500, &mut |_, _| {});
    let found = f.numbers.points[0].as_ref().unwrap();
    assert!((found[2] + 40).abs() <= 2 && (found[3] - 15).abs() <= 2, "{found:?}");
    // `--keep attributes` holds them.
    let keep = ["attributes".to_string()];
    assert!(!parameters(&v, &data, &start, &keep).unwrap().iter().any(|p| matches!(p, Param::Points(..))));
}

#[test]
fn games_are_the_same_for_any_number_of_threads() {
    let v = Variant::load("breakthrough", &[("move_limit".into(), "200".into())]).unwrap();
    let ones = Numbers { weights: [1.0; Term::COUNT], ..Numbers::of(&v.rules.eval) }.model(&v.rules);
    let plan = |threads| games::Plan {
        games: 12,
        seed: 3,
        engine: Engine::parse("ab:d1").unwrap(),
        random_plies: 2,
        threads,
        max_positions: 10_000,
    };
    let one = games::play(&v, &ones, &plan(1), &mut |_, _| {}).unwrap();
    let two = games::play(&v, &ones, &plan(2), &mut |_, _| {}).unwrap();
    assert_eq!((one.games, one.seen, one.data.len()), (two.games, two.seen, two.data.len()));
    assert_eq!(one.data.results, two.data.results);
    assert!(one.data.len() > 50 && one.data.held_out.iter().any(|&h| h), "{}", one.data.len());
    let m = &v.rules.eval;
    assert!((0..one.data.len()).all(|i| one.data.eval(m, i) == two.data.eval(m, i)));
    // A cap on the positions keeps the first ones, in the order of the games.
    let capped = games::play(&v, &ones, &games::Plan { max_positions: 40, ..plan(2) }, &mut |_, _| {}).unwrap();
    assert_eq!(capped.data.len(), 40);
    assert_eq!(capped.data.results[..], one.data.results[..40]);
}
