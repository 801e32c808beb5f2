//! `boardlab serve`'s JSON API over real HTTP: a server started in-process on a free port,
//! driven by a tiny client over `TcpStream` (docs/web.md).

use boardlab::serve::Server;
use rand::RngExt;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

pub(crate) fn server(variant: &str) -> Server {
    Server::start("127.0.0.1".parse().unwrap(), 0, variant).unwrap()
}

/// A status, the response's headers (lower-case) and its body.
pub(crate) struct Reply {
    pub status: u16,
    pub headers: String,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// One request on a fresh connection, with this `Host` header (None: the server's own).
pub(crate) fn request_as(s: &Server, host: Option<&str>, method: &str, path: &str, body: Option<&[u8]>) -> Reply {
    let mut c = TcpStream::connect(s.addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let host = host.map_or_else(|| s.addr.to_string(), str::to_string);
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    if let Some(b) = body {
        head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", b.len()));
    }
    head.push_str("\r\n");
    c.write_all(head.as_bytes()).unwrap();
    if let Some(b) = body {
        // A server may answer (413) before reading all of a large body.
        let _ = c.write_all(b);
    }
    let mut raw = Vec::new();
    let _ = c.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no response to {method} {path}: {text:?}"));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap();
    let headers = head.to_ascii_lowercase();
    let body = if headers.contains("transfer-encoding: chunked") { unchunk(body) } else { body.to_string() };
    Reply { status, headers, body }
}

fn unchunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

pub(crate) fn get(s: &Server, path: &str) -> Reply {
    request_as(s, None, "GET", path, None)
}

pub(crate) fn post(s: &Server, path: &str, body: Value) -> Reply {
    request_as(s, None, "POST", path, Some(body.to_string().as_bytes()))
}

pub(crate) fn texts(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect()
}

#[test]
fn serve_plays_a_game_through_every_endpoint() {
    let s = server("checkers");
    let page = get(&s, "/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<script src=\"/app.js\">"));
    assert!(get(&s, "/app.js").headers.contains("content-type: text/javascript"));
    let vs = get(&s, "/api/variants").json();
    let names = texts(&vs["variants"]);
    assert!(names.contains(&"pyramida".to_string()), "{vs}");
    // Shipped and in ./variants/ from where the tests run: listed once.
    assert_eq!(names.iter().filter(|n| *n == "checkers").count(), 1, "{vs}");
    assert_eq!(vs["default"], "checkers");

    let st = post(&s, "/api/games", json!({"variant": "checkers"})).json();
    let id = st["id"].as_u64().unwrap();
    // English draughts as shipped: white moves first, 7 moves (a3-b4, c3-b4, c3-d4, e3-d4,
    // e3-f4, g3-f4, g3-h4).
    assert_eq!(st["legal"].as_array().unwrap().len(), 7, "{st}");
    assert_eq!(st["history"], json!([]));
    assert_eq!(st["ply"], 0);
    let first = &st["legal"][0];
    assert!(first["from"].is_string() && first["to"].is_string() && first["captured"] == json!([]), "{first}");
    let text = first["text"].as_str().unwrap().to_string();
    let side = st["side"].clone();

    let after = post(&s, &format!("/api/games/{id}/move"), json!({"move": text})).json();
    assert_eq!(texts(&after["history"]), vec![text.clone()]);
    assert_ne!(after["side"], side);
    assert_eq!(after["last"]["from"], first["from"]);

    // An illegal move: 422 with the reason, the game unchanged.
    let bad = post(&s, &format!("/api/games/{id}/move"), json!({"move": "a1-h8"}));
    assert_eq!(bad.status, 422, "{}", bad.body);
    assert!(bad.json()["error"].as_str().unwrap().len() > 5);
    assert_eq!(get(&s, &format!("/api/games/{id}")).json()["history"], after["history"]);

    let undone = post(&s, &format!("/api/games/{id}/undo"), json!({})).json();
    assert_eq!(undone["history"], json!([]));
    assert_eq!(texts(&undone["ahead"]), vec![text.clone()]);
    let redone = post(&s, &format!("/api/games/{id}/redo"), json!({})).json();
    assert_eq!(texts(&redone["history"]), vec![text.clone()]);
    let back = post(&s, &format!("/api/games/{id}/goto"), json!({"ply": 0})).json();
    assert_eq!((back["history"].clone(), back["ply"].clone()), (json!([]), json!(0)));
    assert_eq!(post(&s, &format!("/api/games/{id}/goto"), json!({"ply": 5})).status, 422);

    let m = post(&s, &format!("/api/games/{id}/engine"), json!({"engine": "ab:d2"}));
    assert_eq!(m.status, 200, "{}", m.body);
    let m = m.json();
    assert_eq!(texts(&m["history"]), [m["engine"]["move"].as_str().unwrap().to_string()]);
    assert_eq!(m["engine"]["search"]["depth"], 2, "{m}");
    assert_eq!(m["engine"]["search"]["line"][0], m["engine"]["move"]);
    assert_eq!(post(&s, &format!("/api/games/{id}/engine"), json!({"engine": "deep-blue"})).status, 400);
    // A request never starts a program: an external engine is refused, whatever it names.
    let m = post(&s, &format!("/api/games/{id}/engine"), json!({"engine": "uci:/bin/sh -c true"}));
    assert_eq!(m.status, 400, "{}", m.body);
    assert!(m.body.contains("does not start programs"), "{}", m.body);

    let svg = get(&s, &format!("/api/games/{id}/svg"));
    assert!(svg.headers.contains("content-type: image/svg+xml") && svg.body.starts_with("<svg"), "{}", svg.headers);
    let b = get(&s, &format!("/api/games/{id}/board?flip=true")).json();
    assert_eq!(b["cells"].as_object().unwrap().len(), 32);
    assert_eq!(b["svg"].as_str().unwrap().split("<svg").count(), 2);

    assert_eq!(request_as(&s, None, "DELETE", &format!("/api/games/{id}"), None).status, 204);
    assert_eq!(get(&s, &format!("/api/games/{id}")).status, 404);
}

#[test]
fn serve_cells_are_where_the_diagram_draws_them() {
    // Checkers from the first player's side: a1 is the bottom-left square, whose centre is
    // the margin (12) + the coordinates' band (22) + half a square (20) from the left, and
    // the top margin (12) + 7 squares (280) + half a square (20) from the top.
    let s = server("checkers");
    let id = post(&s, "/api/games", json!({})).json()["id"].as_u64().unwrap();
    let b = get(&s, &format!("/api/games/{id}/board")).json();
    assert_eq!(b["cells"]["a1"], json!([54.0, 312.0]));
    let f = get(&s, &format!("/api/games/{id}/board?flip=true")).json();
    // Flipped, a1 is at the top right: column 7, row 0.
    assert_eq!(f["cells"]["a1"], json!([34.0 + 7.0 * 40.0 + 20.0, 32.0]));
}

#[test]
fn serve_drops_and_second_parts_name_their_cells() {
    let s = server("checkers");
    let c4 = post(&s, "/api/games", json!({"variant": "connect-four"})).json();
    let drop = &c4["legal"][0];
    assert!(drop["from"].is_null() && drop["to"].is_string() && drop["drop"].is_string(), "{drop}");
    let am = post(&s, "/api/games", json!({"variant": "amazons"})).json();
    let m = &am["legal"][0];
    assert!(m["from"].is_string() && m["placed"].is_string(), "{m}");
    // A path from the browser is refused before the resolver sees it.
    // (tests/checkmate is a variant folder from where the tests run.)
    for path in ["tests/checkmate", "../checkers", "variants/checkers/variant.toml", "./checkers"] {
        assert_eq!(post(&s, "/api/games", json!({"variant": path})).status, 400, "{path}");
    }
    assert_eq!(post(&s, "/api/games", json!({"variant": "no-such-game"})).status, 422);
}

#[test]
fn serve_refuses_foreign_hosts_and_bad_requests() {
    let s = server("checkers");
    let port = s.addr.port();
    for host in ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "", "[::1"] {
        let r = request_as(&s, Some(host), "GET", "/api/variants", None);
        assert_eq!(r.status, 403, "Host {host:?}: {}", r.body);
    }
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}"), "[::1]:1".to_string(), "LOCALHOST".to_string()] {
        assert_eq!(request_as(&s, Some(&host), "GET", "/api/variants", None).status, 200, "Host {host}");
    }
    let id = post(&s, "/api/games", json!({})).json()["id"].as_u64().unwrap();
    let bad_json = request_as(&s, None, "POST", &format!("/api/games/{id}/move"), Some(b"{\"move\": "));
    assert!((400..500).contains(&bad_json.status), "{}", bad_json.status);
    let wrong_field = post(&s, &format!("/api/games/{id}/move"), json!({"mvoe": "a3-b4"}));
    assert!((400..500).contains(&wrong_field.status), "{}", wrong_field.status);
    let big = format!("{{\"move\": \"{}\"}}", "x".repeat(100_000));
    assert_eq!(request_as(&s, None, "POST", &format!("/api/games/{id}/move"), Some(big.as_bytes())).status, 413);
    assert_eq!(get(&s, "/api/games/999999").status, 404);
    assert_eq!(get(&s, "/api/games/not-a-number").status, 400);
}

/// Random paths and bodies with a fixed seed: every answer is a response below 500.
#[test]
fn serve_fuzzed_requests_never_fail_inside() {
    let s = server("checkers");
    let id = post(&s, "/api/games", json!({"variant": "checkers"})).json()["id"].as_u64().unwrap();
    let mut rng = boardlab::ai::rng(47);
    let parts = [
        "api",
        "games",
        &id.to_string(),
        "0",
        "move",
        "undo",
        "redo",
        "goto",
        "engine",
        "svg",
        "board",
        "stop",
        "record",
        "saved",
        "variants",
        "..",
        "%00",
        "?flip=x",
        "-1",
        "18446744073709551616",
        // The panels (serve_panels.rs).
        "analyse",
        "evals",
        "evals?engine=ab:d1",
        "evals?engine=ab:d9",
        "png",
        "lines",
        "switch",
        "checkers",
        "no-such-game",
    ];
    let bodies = [
        json!({"move": "a3-b4"}),
        json!({"move": ""}),
        json!({"move": "undo"}),
        json!({"move": "quit"}),
        json!({"move": "save /tmp/x"}),
        json!({"ply": -3}),
        json!({"ply": 4294967295u64}),
        json!({"engine": "mcts:0"}),
        json!({"engine": "random"}),
        json!({"variant": "tic-tac-toe", "set": {"x": [1, 2]}}),
        json!([1, 2, 3]),
        json!(null),
        json!({"move": "é".repeat(300)}),
        json!({"engine": "ab:d2", "lines": 2}),
        json!({"lines": 0}),
        json!({"lines": 1_000_000}),
        json!({"engine": "random", "lines": 1}),
        json!({"line": 0}),
        json!({"line": 1}),
        json!({"line": -1}),
        json!({"cancel": true}),
        json!({"resume": "../history.txt"}),
        json!({"record": "variant = \"checkers\"\nmoves = [\"c3-d4\", \"zz\"]"}),
        json!({"record": "variant = \"/etc\"\npath = \"/etc\""}),
    ];
    for _ in 0..300 {
        let n = rng.random_range(1..5);
        let path: Vec<&str> = (0..n).map(|_| parts[rng.random_range(0..parts.len())]).collect();
        let path = format!("/{}", path.join("/"));
        let method = ["GET", "POST", "DELETE", "PUT"][rng.random_range(0..4)];
        let body = bodies[rng.random_range(0..bodies.len())].to_string();
        let r = request_as(&s, None, method, &path, (method != "GET").then_some(body.as_bytes()));
        assert!(r.status < 500, "{method} {path} {body}: {} {}", r.status, r.body);
    }
    // Every endpoint by its own path (random paths rarely spell one whole), on a second game,
    // with random methods, bodies and query strings.
    let other = post(&s, "/api/games", json!({"variant": "checkers"})).json()["id"].as_u64().unwrap();
    let endpoints = [
        "/api/variants",
        "/api/variants/checkers",
        "/api/variants/basileus",
        "/api/variants/no-such-game",
        "/api/games",
        "/api/games/ID",
        "/api/games/ID/move",
        "/api/games/ID/undo",
        "/api/games/ID/redo",
        "/api/games/ID/goto",
        "/api/games/ID/engine",
        "/api/games/ID/svg",
        "/api/games/ID/board",
        "/api/games/ID/analyse",
        "/api/games/ID/evals",
        "/api/games/ID/png",
        "/api/games/ID/lines",
        "/api/games/ID/lines/switch",
    ];
    let queries = ["", "?flip=true", "?flip=2", "?engine=ab:d1", "?engine=ab:d3", "?engine=", "?engine=%FF", "?x=1"];
    for _ in 0..300 {
        let path = endpoints[rng.random_range(0..endpoints.len())].replace("ID", &other.to_string());
        let path = format!("{path}{}", queries[rng.random_range(0..queries.len())]);
        // Deleting the game now and then is part of the test; the first game stays.
        let method = ["GET", "GET", "POST", "POST", "DELETE", "PUT"][rng.random_range(0..6)];
        let body = bodies[rng.random_range(0..bodies.len())].to_string();
        let r = request_as(&s, None, method, &path, (method != "GET").then_some(body.as_bytes()));
        assert!(r.status < 500, "{method} {path} {body}: {} {}", r.status, r.body);
    }
    // Still serving, the game still there.
    assert_eq!(get(&s, &format!("/api/games/{id}")).status, 200);
}

/// A move's round trip through the API (printed for the record, never asserted).
#[test]
fn serve_move_round_trip_time() {
    let s = server("checkers");
    let st = post(&s, "/api/games", json!({})).json();
    let id = st["id"].as_u64().unwrap();
    let text = st["legal"][0]["text"].as_str().unwrap().to_string();
    let mut times = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        assert_eq!(post(&s, &format!("/api/games/{id}/move"), json!({"move": text})).status, 200);
        times.push(t.elapsed());
        assert_eq!(post(&s, &format!("/api/games/{id}/undo"), json!({})).status, 200);
    }
    times.sort();
    println!("serve: a move's round trip, median of 200: {:?}", times[100]);
}

/// The command: prints where it listens; warns on standard error when that is wider than
/// this machine; a variant that does not load stops it with status 2.
#[test]
fn serve_command_prints_its_address_and_warns_when_wide() {
    use std::io::BufRead;
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_boardlab"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    for (host, wide) in [("127.0.0.1", false), ("0.0.0.0", true)] {
        let mut child = run(&["serve", "checkers", "--port", "0", "--host", host]);
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        child.kill().unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(line.starts_with(&format!("boardlab serve: checkers on http://{host}:")), "{line}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.contains("WARNING"), wide, "{host}: {err}");
    }
    let out = run(&["serve", "no-such-variant", "--port", "0"]).wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}
