//! The page's panels through the API (docs/web.md): a variant's options, `hint`/`analyse`, the
//! evaluation graph's points, the board as PNG, the game lines kept, and the page's script.

use super::serve::{get, post, request_as, server, texts};
use boardlab::Session;
use boardlab::Variant;
use boardlab::ai::{self, Budget};
use serde_json::{Value, json};

fn new_game(s: &boardlab::serve::Server, variant: &str) -> u64 {
    let st = post(s, "/api/games", json!({ "variant": variant }));
    assert_eq!(st.status, 200, "{}", st.body);
    st.json()["id"].as_u64().unwrap()
}

fn play(s: &boardlab::serve::Server, id: u64, text: &str) -> Value {
    let r = post(s, &format!("/api/games/{id}/move"), json!({ "move": text }));
    assert_eq!(r.status, 200, "{text}: {}", r.body);
    r.json()
}

#[test]
fn serve_panels_variant_options_make_a_game() {
    let s = server("checkers");
    let v = get(&s, "/api/variants/basileus");
    assert_eq!(v.status, 200, "{}", v.body);
    let v = v.json();
    assert_eq!(v["name"], "basileus");
    assert!(!v["title"].as_str().unwrap().is_empty(), "{v}");
    let opts = v["options"].as_array().unwrap();
    let by = |n: &str| opts.iter().find(|o| o["name"] == n).unwrap_or_else(|| panic!("no {n}: {v}")).clone();
    // As variants/basileus/variant.toml declares them, and move_limit every game has.
    let cc = by("capture_choice");
    assert_eq!(
        (cc["kind"].clone(), cc["values"].clone(), cc["default"].clone()),
        (json!("choice"), json!(["any", "maximum"]), json!("any"))
    );
    assert!(cc["description"].as_str().unwrap().starts_with("any capture chain may be chosen"), "{cc}");
    assert_eq!(by("no_moves")["values"], json!(["loss", "draw"]));
    let ml = by("move_limit");
    assert_eq!(
        (ml["kind"].clone(), ml["min"].clone(), ml["max"].clone(), ml["default"].clone()),
        (json!("int"), json!(0), json!(1_000_000_000), json!(0))
    );
    assert_eq!(opts.len(), 4, "{v}");

    // The form's new game: a good value plays, a bad one is refused with the loader's reason.
    let ok = post(&s, "/api/games", json!({"variant": "basileus", "set": {"no_moves": "draw", "move_limit": 40}}));
    assert_eq!(ok.status, 200, "{}", ok.body);
    let bad = post(&s, "/api/games", json!({"variant": "basileus", "set": {"no_moves": "perhaps"}}));
    assert_eq!(bad.status, 422, "{}", bad.body);
    let why = bad.json()["error"].as_str().unwrap().to_string();
    assert!(why.contains("perhaps") && why.contains("loss, draw"), "{why}");

    assert_eq!(get(&s, "/api/variants/no-such-game").status, 422);
    for path in ["..%2Fcheckers", "checkers.toml", ".hidden"] {
        assert_eq!(get(&s, &format!("/api/variants/{path}")).status, 400, "{path}");
    }
}

#[test]
fn serve_panels_analyse_is_the_repls() {
    let s = server("checkers");
    let id = new_game(&s, "checkers");
    let r = post(&s, &format!("/api/games/{id}/analyse"), json!({"engine": "ab:d3", "lines": 3}));
    assert_eq!(r.status, 200, "{}", r.body);
    let a = r.json();
    // The REPL's `analyse` on the same game: the same lines, word for word.
    let mut repl = Session::new("checkers", &[], boardlab::Style::PLAIN).unwrap();
    let said = repl.execute("analyse ab:d3 3").unwrap();
    assert_eq!(a["text"].as_str().unwrap(), said.text);
    let lines = a["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{a}");
    let v = Variant::load("checkers", &[]).unwrap();
    let direct = ai::analysis::analyse(&v, &v.start(), Budget::Depth(3), 3, &mut ai::rng(0)).unwrap();
    for (l, d) in lines.iter().zip(&direct.lines) {
        assert_eq!(l["move"], d.best.unwrap().text(&v.rules.geometry));
        assert_eq!(l["score"], d.score.to_string());
        assert_eq!(l["line"][0], l["move"]);
    }
    assert_eq!((a["engine"].clone(), a["capped"].clone()), (json!("ab:d3"), json!(false)));

    // hint: the first line; the machine then plays that move.
    let hint = post(&s, &format!("/api/games/{id}/analyse"), json!({"engine": "ab:d3", "lines": 1})).json();
    assert_eq!(hint["lines"].as_array().unwrap().len(), 1);
    assert_eq!(hint["lines"][0]["move"], lines[0]["move"]);
    let played = post(&s, &format!("/api/games/{id}/engine"), json!({"engine": "ab:d3"})).json();
    assert_eq!(played["engine"]["move"], lines[0]["move"]);

    // Bounds: lines, engines that do not score, the budget capped and said so.
    for (body, status) in [
        (json!({"lines": 0}), 400),
        (json!({"lines": 11}), 400),
        (json!({"engine": "random"}), 400),
        (json!({"engine": "mcts:10"}), 400),
        (json!({"engine": "deep-blue"}), 400),
        (json!({"move": "a3-b4"}), 422),
    ] {
        assert_eq!(post(&s, &format!("/api/games/{id}/analyse"), body.clone()).status, status, "{body}");
    }
    let t = new_game(&s, "tic-tac-toe");
    let deep = post(&s, &format!("/api/games/{t}/analyse"), json!({"engine": "ab:d20", "lines": 1})).json();
    assert_eq!((deep["engine"].clone(), deep["capped"].clone()), (json!("ab:d6"), json!(true)), "{deep}");
    // A finished game has nothing to analyse: X takes the a-file.
    for m in ["@a1", "@b1", "@a2", "@b2", "@a3"] {
        play(&s, t, m);
    }
    let over = post(&s, &format!("/api/games/{t}/analyse"), json!({}));
    assert_eq!(over.status, 422, "{}", over.body);
    assert_eq!(post(&s, "/api/games/999/analyse", json!({})).status, 404);
}

#[test]
fn serve_panels_evals_follow_the_line() {
    let s = server("checkers");
    let t = new_game(&s, "tic-tac-toe");
    for m in ["@a1", "@b1", "@a2", "@b2", "@a3"] {
        play(&s, t, m);
    }
    // Two plies back: the graph still covers the whole line, plies ahead included.
    post(&s, &format!("/api/games/{t}/goto"), json!({"ply": 3}));
    let e = get(&s, &format!("/api/games/{t}/evals")).json();
    let points = e["points"].as_array().unwrap();
    let plies: Vec<u64> = points.iter().map(|p| p["ply"].as_u64().unwrap()).collect();
    assert_eq!(plies, [0, 1, 2, 3, 4, 5]);
    assert_eq!(e["complete"], true);
    // The first player (X) won: the last point is a proven win for them.
    assert_eq!(points[5]["units"], ai::search::MATE, "{e}");
    assert_eq!(points[5]["score"], "win in 0");
    // Each other point: the static evaluation, turned to the first player's side.
    let v = Variant::load("tic-tac-toe", &[]).unwrap();
    let mut pos = v.start();
    for (i, m) in ["@a1", "@b1", "@a2", "@b2"].iter().enumerate() {
        let mover = ai::Evaluator::new(&v).score(&mut pos).unwrap();
        let first = if i % 2 == 0 { mover } else { -mover };
        assert_eq!(points[i]["units"], first, "ply {i}: {e}");
        v.play(&mut pos, m).unwrap();
    }
    let shallow = get(&s, &format!("/api/games/{t}/evals?engine=ab:d1"));
    assert_eq!(shallow.status, 200, "{}", shallow.body);
    for engine in ["ab:d3", "ab:1000000", "mcts", "random", "%00"] {
        assert_eq!(get(&s, &format!("/api/games/{t}/evals?engine={engine}")).status, 400, "{engine}");
    }
}

#[test]
fn serve_panels_png_is_show_pngs() {
    let s = server("checkers");
    let id = new_game(&s, "checkers");
    let r = get(&s, &format!("/api/games/{id}/png?flip=true"));
    assert_eq!(r.status, 200);
    assert!(r.headers.contains("content-type: image/png"), "{}", r.headers);
    let v = Variant::load("checkers", &[]).unwrap();
    let svg = boardlab::diagram::svg(&v, &v.start(), None, boardlab::diagram::Options { flip: true, caption: true });
    let png = boardlab::diagram::png(&svg, boardlab::diagram::PNG_SCALE).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    // (The test client reads bodies as text: compared the same way.)
    assert_eq!(r.body, String::from_utf8_lossy(&png));
    assert_eq!(get(&s, "/api/games/999/png").status, 404);
}

#[test]
fn serve_panels_a_new_line_keeps_the_old_one() {
    let s = server("checkers");
    let id = new_game(&s, "checkers");
    play(&s, id, "c3-d4");
    play(&s, id, "f6-g5");
    post(&s, &format!("/api/games/{id}/goto"), json!({"ply": 0}));
    let only = get(&s, &format!("/api/games/{id}/lines")).json();
    assert_eq!((only["current"].clone(), only["lines"].as_array().unwrap().len()), (json!(0), 1));
    // Another first move: the old line is kept, not dropped.
    let st = play(&s, id, "a3-b4");
    assert_eq!((texts(&st["history"]), st["ahead"].clone()), (vec!["a3-b4".to_string()], json!([])));
    let l = get(&s, &format!("/api/games/{id}/lines")).json();
    assert_eq!(l["current"], 1, "{l}");
    assert_eq!(l["lines"][0]["moves"], json!(["c3-d4", "f6-g5"]));
    assert_eq!(l["lines"][0]["cursor"], 0);
    assert_eq!(l["lines"][0]["edit"], "a new line from ply 0: a3-b4");
    assert_eq!((l["lines"][1]["moves"].clone(), l["lines"][1]["edit"].clone()), (json!(["a3-b4"]), Value::Null));

    // Back to the old line, as it was left.
    let back = post(&s, &format!("/api/games/{id}/lines/switch"), json!({"line": 0})).json();
    assert_eq!((back["history"].clone(), texts(&back["ahead"])), (json!([]), vec!["c3-d4".to_string(), "f6-g5".to_string()]));
    assert_eq!(get(&s, &format!("/api/games/{id}/lines")).json()["current"], 0);
    // The machine's move from an earlier ply keeps the line too.
    post(&s, &format!("/api/games/{id}/goto"), json!({"ply": 0}));
    let m = post(&s, &format!("/api/games/{id}/engine"), json!({"engine": "random"})).json();
    let kept = get(&s, &format!("/api/games/{id}/lines")).json();
    if m["engine"]["move"] != "c3-d4" {
        assert_eq!(kept["lines"].as_array().unwrap().len(), 3, "{kept}");
    } else {
        assert_eq!(kept["lines"].as_array().unwrap().len(), 2, "{kept}");
    }
    let r = post(&s, &format!("/api/games/{id}/lines/switch"), json!({"line": 9}));
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.json()["error"].as_str().unwrap().contains("no line 9"));
    // The next move of the history steps forward: no line kept.
    let id2 = new_game(&s, "checkers");
    play(&s, id2, "c3-d4");
    post(&s, &format!("/api/games/{id2}/undo"), json!({}));
    play(&s, id2, "c3-d4");
    assert_eq!(get(&s, &format!("/api/games/{id2}/lines")).json()["lines"].as_array().unwrap().len(), 1);
}

#[test]
fn serve_panels_page_loads_its_script() {
    let s = server("checkers");
    assert!(get(&s, "/").body.contains("<script src=\"/panels.js\">"));
    let js = get(&s, "/panels.js");
    assert!(js.headers.contains("content-type: text/javascript"), "{}", js.headers);
    assert!(js.body.contains("function panelsShown()"));
    // app.js calls the panels after each state it shows.
    assert!(get(&s, "/app.js").body.contains("panelsShown();"));
    assert_eq!(request_as(&s, Some("evil.example"), "GET", "/panels.js", None).status, 403);
}
