//! `boardlab serve`, live (docs/web.md): the event stream, stopping a search (by the endpoint,
//! by the stream dropping), live reload of a designer's variant, games shared with the REPL's
//! autosaves, and game records to download and open.

use crate::serve::{get, post, request_as, server, texts};
use boardlab::serve::{Options, Server};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A game's event stream read off a raw connection (HTTP/1.0, so the body is the events as
/// they come, not chunked).
struct Stream {
    lines: BufReader<TcpStream>,
}

impl Stream {
    fn open(s: &Server, id: u64) -> Result<Stream, u16> {
        let mut c = TcpStream::connect(s.addr).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        write!(c, "GET /api/games/{id}/events HTTP/1.0\r\nHost: {}\r\n\r\n", s.addr).unwrap();
        let mut lines = BufReader::new(c);
        let mut status = String::new();
        lines.read_line(&mut status).unwrap();
        let code: u16 = status.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap();
        loop {
            let mut h = String::new();
            lines.read_line(&mut h).unwrap();
            if h.trim().is_empty() {
                break;
            }
        }
        if code == 200 { Ok(Stream { lines }) } else { Err(code) }
    }

    /// The next event: its name and data (keep-alive comments skipped).
    fn next(&mut self) -> (String, Value) {
        let (mut kind, mut data) = (String::new(), String::new());
        loop {
            let mut l = String::new();
            assert!(self.lines.read_line(&mut l).unwrap() > 0, "the stream ended");
            let l = l.trim_end();
            if l.is_empty() && !kind.is_empty() {
                return (kind, serde_json::from_str(&data).unwrap());
            }
            if let Some(k) = l.strip_prefix("event: ") {
                kind = k.to_string();
            } else if let Some(d) = l.strip_prefix("data: ") {
                data.push_str(d);
            }
        }
    }

    /// Reads events until one named `kind` for which `pick` holds; the events read before it.
    fn until(&mut self, kind: &str, pick: impl Fn(&Value) -> bool) -> (Value, Vec<(String, Value)>) {
        let mut seen = Vec::new();
        loop {
            let (k, d) = self.next();
            if k == kind && pick(&d) {
                return (d, seen);
            }
            seen.push((k, d));
        }
    }
}

fn new_game(s: &Server, body: Value) -> u64 {
    let r = post(s, "/api/games", body);
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["id"].as_u64().unwrap()
}

/// Asks for a long search on another thread; its answer when it ends.
fn search_in_background(s: &Server, id: u64, engine: &str) -> std::thread::JoinHandle<(u16, Value)> {
    let addr = s.addr;
    let body = json!({ "engine": engine }).to_string();
    std::thread::spawn(move || {
        let mut c = TcpStream::connect(addr).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        write!(
            c,
            "POST /api/games/{id}/engine HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut raw = String::new();
        std::io::Read::read_to_string(&mut c, &mut raw).unwrap();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap();
        let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    })
}

#[test]
fn live_stop_ends_a_long_search_with_its_best_move() {
    let s = server("checkers");
    let id = new_game(&s, json!({}));
    let mut events = Stream::open(&s, id).unwrap();
    let (first, _) = events.until("state", |_| true);
    assert_eq!(first["id"], id);
    let asked = search_in_background(&s, id, "ab:60s");
    let (started, _) = events.until("search", |d| d["running"] == true);
    assert_eq!(started["engine"], "ab:60s");
    // The thinking as it goes: a completed depth with its line.
    let (depth, _) = events.until("thinking", |_| true);
    assert!(depth["depth"].as_u64().unwrap() >= 1 && !depth["line"].as_array().unwrap().is_empty(), "{depth}");
    assert_eq!(post(&s, &format!("/api/games/{id}/stop"), json!({})).json()["stopped"], 1);
    let (status, answer) = asked.join().unwrap();
    assert_eq!(status, 200, "{answer}");
    let e = &answer["engine"];
    assert_eq!(e["stopped"], true, "{e}");
    // Stopped long before its minute (by the search's own clock, not this test's).
    assert!(e["search"]["elapsed_ms"].as_u64().unwrap() < 30_000, "{e}");
    assert_eq!(texts(&answer["history"]), [e["move"].as_str().unwrap()]);
    let (ended, _) = events.until("search", |d| d["running"] == false);
    assert_eq!(ended["cancelled"], false);
    // The page hears of the move as any change: the state.
    let (st, _) = events.until("state", |d| !d["history"].as_array().unwrap().is_empty());
    assert_eq!(st["history"], answer["history"]);
    // Nothing runs now: a stop stops nothing.
    assert_eq!(post(&s, &format!("/api/games/{id}/stop"), json!({})).json()["stopped"], 0);
}

#[test]
fn live_a_dropped_stream_cancels_its_games_search() {
    let s = server("checkers");
    let id = new_game(&s, json!({}));
    let mut events = Stream::open(&s, id).unwrap();
    let asked = search_in_background(&s, id, "ab:60s");
    events.until("search", |d| d["running"] == true);
    // The tab closes: its stream goes, and with the game's last stream its searches.
    drop(events);
    let (status, answer) = asked.join().unwrap();
    assert_eq!(status, 409, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("cancelled"), "{answer}");
    let st = get(&s, &format!("/api/games/{id}")).json();
    assert_eq!((st["history"].clone(), st["searching"].clone()), (json!([]), json!([])));
}

#[test]
fn live_streams_are_bounded_and_hear_changes_made_elsewhere() {
    let s = server("checkers");
    let id = new_game(&s, json!({}));
    let mut streams: Vec<Stream> = (0..4).map(|_| Stream::open(&s, id).unwrap()).collect();
    assert_eq!(Stream::open(&s, id).err(), Some(429));
    streams.pop();
    // The server hears of a closed stream when it next writes to it (a comment each second on
    // an idle stream): until then the place is still taken.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut a = loop {
        match Stream::open(&s, id) {
            Ok(a) => break a,
            Err(429) if std::time::Instant::now() < deadline => std::thread::sleep(std::time::Duration::from_millis(100)),
            Err(e) => panic!("a closed stream's place was not given back: {e}"),
        }
    };
    assert_eq!(Stream::open(&s, 999).err(), Some(404));
    a.until("state", |_| true);
    assert_eq!(post(&s, &format!("/api/games/{id}/move"), json!({"move": "c3-d4"})).status, 200);
    let (st, _) = a.until("state", |_| true);
    assert_eq!(texts(&st["history"]), ["c3-d4"]);
    // A refused move changes nothing and tells nobody; the next event is the next change.
    assert_eq!(post(&s, &format!("/api/games/{id}/move"), json!({"move": "a1-h8"})).status, 422);
    assert_eq!(post(&s, &format!("/api/games/{id}/undo"), json!({})).status, 200);
    let (st, _) = a.until("state", |_| true);
    assert_eq!(st["history"], json!([]));
    // A deleted game ends its streams.
    assert_eq!(request_as(&s, None, "DELETE", &format!("/api/games/{id}"), None).status, 204);
    a.until("closed", |_| true);
}

/// A designer's variant on disk: checkers as it is, then with a man fewer on a3.
const DERIVED: &str = "name = \"mygame\"\nextends = \"checkers\"\n";
const A3_EMPTY: &str =
    "name = \"mygame\"\nextends = \"checkers\"\n\n[setup]\nrows = \"\"\"\nmmmm\nmmmm\nmmmm\n4\n4\n1MMM\nMMMM\nMMMM\n\"\"\"\n";
/// An unknown top-level key on line 3, column 1.
const BROKEN: &str = "name = \"mygame\"\nextends = \"checkers\"\ncolour = \"red\"\n";

#[test]
fn live_reload_replays_the_game_and_keeps_its_legal_prefix() {
    let dir = crate::scratch("live-reload");
    let folder = dir.join("mygame");
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join("variant.toml");
    std::fs::write(&file, DERIVED).unwrap();
    // The server's own variant may be a path (from its command line, not from the browser).
    let s = server(folder.to_str().unwrap());
    let id = new_game(&s, json!({}));
    for m in ["c3-d4", "b6-a5", "a3-b4"] {
        assert_eq!(post(&s, &format!("/api/games/{id}/move"), json!({ "move": m })).status, 200, "{m}");
    }
    let mut events = Stream::open(&s, id).unwrap();
    events.until("state", |_| true);

    // With a3 empty, the third move (ply 3) is illegal: the game keeps plies 1 and 2.
    std::fs::write(&file, A3_EMPTY).unwrap();
    let (r, _) = events.until("reload", |_| true);
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(
        (r["parted_at_ply"].clone(), r["illegal"].clone(), r["dropped"].clone()),
        (json!(2), json!("a3-b4"), json!(["a3-b4"])),
        "{r}"
    );
    assert!(r["files"][0].as_str().unwrap().ends_with("variant.toml"), "{r}");
    let (st, _) = events.until("state", |_| true);
    assert_eq!(texts(&st["history"]), ["c3-d4", "b6-a5"]);
    let before = get(&s, &format!("/api/games/{id}")).json();
    assert_eq!(before["history"], st["history"]);

    // A broken file: the error with its place, and the game exactly as it was.
    std::fs::write(&file, BROKEN).unwrap();
    let (r, _) = events.until("reload", |_| true);
    assert_eq!(r["ok"], false, "{r}");
    let e = &r["error"];
    assert!(e["file"].as_str().unwrap().ends_with("mygame/variant.toml"), "{e}");
    assert_eq!((e["line"].clone(), e["column"].clone()), (json!(3), json!(1)), "{e}");
    assert!(e["rendered"].as_str().unwrap().contains("colour = \"red\""), "{e}");
    assert_eq!(get(&s, &format!("/api/games/{id}")).json(), before);

    // Mended (the base's rules again): every move replays; undo returns to the line before.
    std::fs::write(&file, format!("# mended\n{DERIVED}")).unwrap();
    let (r, _) = events.until("reload", |_| true);
    assert_eq!((r["ok"].clone(), r["parted_at_ply"].clone(), r["replayed"].clone()), (json!(true), Value::Null, json!(2)), "{r}");
}

#[test]
fn live_games_are_shared_with_the_repls_autosaves() {
    let data = crate::scratch("live-autosaves");
    let saves = data.join("autosaves");
    let s = Server::start_with(
        "127.0.0.1".parse().unwrap(),
        0,
        Options { default: "checkers".into(), autosaves: Some(saves.clone()), ..Options::default() },
    )
    .unwrap();
    let id = new_game(&s, json!({}));
    assert_eq!(get(&s, "/api/saved").json()["saved"], json!([]), "a game that has not changed is not saved");
    for m in ["c3-d4", "b6-a5"] {
        assert_eq!(post(&s, &format!("/api/games/{id}/move"), json!({ "move": m })).status, 200);
    }
    // Written on the autosave thread: wait for it.
    let listed = (0..200)
        .find_map(|_| {
            let l = get(&s, "/api/saved").json();
            if l["saved"][0]["moves"] == 2 {
                return Some(l);
            }
            std::thread::sleep(Duration::from_millis(50));
            None
        })
        .expect("the game autosaved");
    let entry = &listed["saved"][0];
    let name = entry["name"].as_str().unwrap().to_string();
    assert_eq!((entry["variant"].clone(), entry["live"].clone()), (json!("checkers"), json!(true)), "{listed}");
    assert_eq!(get(&s, &format!("/api/games/{id}")).json()["autosave"], name);

    // While the server holds it, the REPL does not take it over.
    let held = crate::binary(&["play", "--resume"], "history\n", &data);
    assert!(!held.status.success() && String::from_utf8_lossy(&held.stderr).contains("open in another boardlab session"), "{held:?}");
    // Let go (the page closed), the REPL resumes it and plays on; it saves to the same file.
    assert_eq!(request_as(&s, None, "DELETE", &format!("/api/games/{id}"), None).status, 204);
    let out = crate::binary(&["play", "--resume"], "a3-b4\nquit\n", &data);
    assert!(out.status.success(), "{out:?}");
    let listed = get(&s, "/api/saved").json();
    assert_eq!(listed["saved"].as_array().unwrap().len(), 1, "{listed}");
    assert_eq!((listed["saved"][0]["moves"].clone(), listed["saved"][0]["live"].clone()), (json!(3), json!(false)), "{listed}");

    // And back in the page, with the REPL's move; held again, so not resumed twice.
    let back = post(&s, "/api/games", json!({ "resume": name }));
    assert_eq!(back.status, 200, "{}", back.body);
    assert_eq!(texts(&back.json()["history"]), ["c3-d4", "b6-a5", "a3-b4"]);
    assert_eq!(post(&s, "/api/games", json!({ "resume": name })).status, 409);
    // Names from the browser are only the folder's files.
    for bad in ["../history.txt", "nothing.toml", ""] {
        assert_eq!(post(&s, "/api/games", json!({ "resume": bad })).status, 404, "{bad}");
    }
}

#[test]
fn live_records_download_and_open() {
    let s = server("checkers");
    let id = new_game(&s, json!({}));
    for m in ["c3-d4", "b6-a5"] {
        assert_eq!(post(&s, &format!("/api/games/{id}/move"), json!({ "move": m })).status, 200);
    }
    let r = get(&s, &format!("/api/games/{id}/record"));
    assert_eq!(r.status, 200);
    assert!(r.headers.contains("content-disposition: attachment; filename=\"checkers-game.toml\""), "{}", r.headers);
    // The REPL's `save` format (docs/repl.md): a TOML file with the variant and the moves.
    assert!(r.body.starts_with("# boardlab game record\n"), "{}", r.body);
    let rec: toml::Table = toml::from_str(&r.body).unwrap();
    assert_eq!(rec["variant"].as_str(), Some("checkers"));
    assert_eq!(rec["moves"], toml::Value::Array(vec!["c3-d4".into(), "b6-a5".into()]));

    let opened = post(&s, "/api/games", json!({ "record": r.body }));
    assert_eq!(opened.status, 200, "{}", opened.body);
    let opened = opened.json();
    assert_ne!(opened["id"], id);
    assert_eq!(texts(&opened["history"]), ["c3-d4", "b6-a5"]);

    // A record's folder is ignored, its variant must be a name, its text a record.
    // (tests/checkmate is a variant folder from where the tests run: not reached.)
    let elsewhere = "variant = \"checkers\"\npath = \"tests/checkmate\"\nmoves = [\"c3-d4\"]\n";
    let opened = post(&s, "/api/games", json!({ "record": elsewhere }));
    assert_eq!((opened.status, opened.json()["variant"].clone()), (200, json!("checkers")), "{}", opened.body);
    let by_path = "variant = \"tests/checkmate\"\nmoves = []\n";
    assert_eq!(post(&s, "/api/games", json!({ "record": by_path })).status, 400);
    assert_eq!(post(&s, "/api/games", json!({ "record": "not a record" })).status, 422);
    let illegal = r.body.replace("b6-a5", "b6-b5");
    assert_eq!(post(&s, "/api/games", json!({ "record": illegal })).status, 422);
    assert_eq!(post(&s, "/api/games", json!({ "record": r.body, "variant": "checkers" })).status, 400);
    // Records may be larger than other bodies, up to 1 MiB.
    let padded = format!("{}\n#{}\n", r.body, "x".repeat(100_000));
    let p = post(&s, "/api/games", json!({ "record": padded }));
    assert_eq!(p.status, 200, "{}", p.body);
    let huge = format!("#{}\n", "x".repeat(1 << 20));
    assert_eq!(post(&s, "/api/games", json!({ "record": huge })).status, 413);
    assert_eq!(get(&s, "/api/games/999/record").status, 404);
}

#[test]
fn live_a_search_whose_request_goes_away_stops() {
    let s = server("checkers");
    let id = new_game(&s, json!({}));
    let mut events = Stream::open(&s, id).unwrap();
    let mut c = TcpStream::connect(s.addr).unwrap();
    let body = json!({ "engine": "ab:60s" }).to_string();
    write!(
        c,
        "POST /api/games/{id}/engine HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        s.addr,
        body.len()
    )
    .unwrap();
    events.until("search", |d| d["running"] == true);
    // The client gives up: the request's guard goes, and the search with it; nothing is played.
    drop(c);
    let (ended, _) = events.until("search", |d| d["running"] == false);
    assert_eq!(ended["engine"], "ab:60s");
    let st = get(&s, &format!("/api/games/{id}")).json();
    assert_eq!((st["history"].clone(), st["searching"].clone()), (json!([]), json!([])));
    // Its thread stopped too (within its next 1024 positions, so a few shallow depths may
    // still be told): a second later it tells nothing more, where a running search tells its
    // progress four times a second.
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(post(&s, &format!("/api/games/{id}/move"), json!({"move": "c3-d4"})).status, 200);
    events.until("state", |_| true);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(post(&s, &format!("/api/games/{id}/undo"), json!({})).status, 200);
    let (_, between) = events.until("state", |_| true);
    let late: Vec<_> = between.iter().filter(|(k, _)| k == "progress" || k == "thinking").collect();
    assert!(late.is_empty(), "{late:?}");
}

#[test]
fn live_a_game_whose_pages_all_closed_is_let_go() {
    let data = crate::scratch("live-let-go");
    let options = Options { default: "checkers".into(), autosaves: Some(data.join("autosaves")), ..Options::default() };
    let s = Server::start_with("127.0.0.1".parse().unwrap(), 0, options).unwrap();
    let watched = new_game(&s, json!({}));
    let unwatched = new_game(&s, json!({}));
    assert_eq!(post(&s, &format!("/api/games/{watched}/move"), json!({"move": "c3-d4"})).status, 200);
    let mut events = Stream::open(&s, watched).unwrap();
    events.until("state", |_| true);
    // The browser is killed (no pagehide): its stream goes, and a few seconds later the game,
    // its autosave lock released for the REPL.
    drop(events);
    let gone = (0..300).any(|_| {
        std::thread::sleep(Duration::from_millis(100));
        get(&s, &format!("/api/games/{watched}")).status == 404
    });
    assert!(gone, "the game was let go");
    let listed = get(&s, "/api/saved").json();
    assert_eq!((listed["saved"][0]["moves"].clone(), listed["saved"][0]["live"].clone()), (json!(1), json!(false)), "{listed}");
    // A game no page listened to stays.
    assert_eq!(get(&s, &format!("/api/games/{unwatched}")).status, 200);
}

#[test]
fn live_stop_ends_an_mcts_search_too() {
    let s = server("checkers");
    let id = new_game(&s, json!({}));
    let mut events = Stream::open(&s, id).unwrap();
    // (Hours of iterations: only the stop ends it within the test.)
    let asked = search_in_background(&s, id, "mcts:2000000000");
    events.until("search", |d| d["running"] == true);
    assert_eq!(post(&s, &format!("/api/games/{id}/stop"), json!({})).json()["stopped"], 1);
    let (status, answer) = asked.join().unwrap();
    assert_eq!(status, 200, "{answer}");
    assert_eq!((answer["engine"]["stopped"].clone(), answer["history"].as_array().unwrap().len()), (json!(true), 1), "{answer}");
}
