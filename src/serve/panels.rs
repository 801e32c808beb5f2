//! The page's panels beside the board (docs/web.md): a variant's options as a form, `hint` and
//! `analyse` on request, an evaluation per ply for the graph, the board as a PNG, and the game
//! lines a session keeps. Every answer comes from the code the REPL and the command line use
//! (the options the loader declares, [`ai::analysis`], the evaluation, [`crate::diagram`], the
//! session's lines); each search is bounded here, since a request must end.

use super::app::{Answer, ApiError, App, bad, check_variant_name, no_game, with_game};
use super::games::{Games, Lost};
use crate::ai::{self, Budget, Engine, Evaluator, analysis};
use crate::notation::Move;
use crate::outcome::Winner;
use crate::rules::options::{OptionDecl, OptionType, OptionValue};
use crate::session::Session;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The most lines one analysis gives.
pub(crate) const MAX_LINES: usize = 10;
/// The deepest an analysis searches (`ab:dN` beyond it is searched to this depth).
pub(crate) const MAX_DEPTH: u32 = 6;
/// The most positions one line of an analysis searches.
pub(crate) const MAX_NODES: u64 = 1_000_000;
/// The longest one analysis thinks, over all its lines (a time budget is shared among them).
pub(crate) const MAX_TIME: Duration = Duration::from_secs(10);
/// The most positions the evaluation graph evaluates (the first ones of the game).
pub(crate) const MAX_EVAL_PLIES: usize = 1000;
/// The longest the evaluation graph's evaluations take together; the points after it are left
/// out (the answer says so).
pub(crate) const MAX_EVAL_TIME: Duration = Duration::from_secs(3);
/// The deepest search the evaluation graph makes per ply, and its most positions per ply.
pub(crate) const MAX_EVAL_DEPTH: u32 = 2;
pub(crate) const MAX_EVAL_NODES: u64 = 5000;

/// A session's refusal as the API's (422 with the session's words).
fn refused(e: impl ToString) -> ApiError {
    ApiError(StatusCode::UNPROCESSABLE_ENTITY, e.to_string())
}

/// Plays `m` (the move and engine endpoints): from an earlier ply, the old line is kept.
pub(super) fn play_keeping_line(s: &mut Session, m: Move) -> Result<(), ApiError> {
    s.play_keeping_line(m).map(|_| ()).map_err(refused)
}

/// An option's value as JSON: a number, a boolean or a word.
fn value(v: &OptionValue) -> Value {
    match v {
        OptionValue::Text(t) => json!(t),
        OptionValue::Int(i) => json!(i),
        OptionValue::Bool(b) => json!(b),
    }
}

/// One option as the form shows it: what `rules` lists and `--set` accepts.
fn option(d: &OptionDecl) -> Value {
    let mut o = json!({
        "name": d.name,
        "description": d.description,
        "default": value(&d.default),
        "allowed": d.ty.describe(),
        "declared_in": d.declared_in,
    });
    match &d.ty {
        OptionType::Choice(words) => (o["kind"], o["values"]) = (json!("choice"), json!(words)),
        OptionType::Bool => (o["kind"], o["values"]) = (json!("bool"), json!([true, false])),
        OptionType::Int { min, max, also } => {
            (o["kind"], o["min"], o["max"], o["also"]) = (json!("int"), json!(min), json!(max), json!(also));
        }
    }
    o
}

/// `GET /api/variants/NAME`: its title, description, players and options, as the loader
/// declares them; 422 with the loader's diagnostic when it does not load.
pub(crate) async fn variant(State(app): State<App>, Path(name): Path<String>) -> Answer {
    check_variant_name(&name, &app.default)?;
    let loaded = tokio::task::spawn_blocking(move || crate::variant::Variant::load(&name, &[]).map_err(|e| e.render(false)))
        .await
        .map_err(|_| ApiError::from(Lost))?;
    let v = loaded.map_err(refused)?;
    let r = &v.rules;
    Ok(Json(json!({
        "name": v.name(),
        "title": r.title,
        "description": r.description,
        "players": [r.player_name(crate::piece::Player::FIRST), r.player_name(crate::piece::Player::SECOND)],
        "options": r.options.decls.iter().map(option).collect::<Vec<_>>(),
    })))
}

/// Holds one of the server's search places, or says to wait.
fn search_permit(app: &App) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    app.searches.clone().try_acquire_owned().map_err(|_| {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("{} machine searches are running: try again when one ends", super::app::MAX_SEARCHES),
        )
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalyseReq {
    engine: Option<String>,
    lines: Option<usize>,
}

/// An alpha-beta budget within the analysis's bounds: the budget searched, and whether it was
/// cut down to them.
fn capped(budget: Budget, lines: usize, v: &crate::variant::Variant) -> (Budget, bool) {
    let share = MAX_TIME / lines as u32;
    match budget {
        Budget::Default if v.rules.eval.nodes > MAX_NODES => (Budget::Nodes(MAX_NODES), true),
        Budget::Depth(d) if d > MAX_DEPTH => (Budget::Depth(MAX_DEPTH), true),
        Budget::Nodes(n) if n > MAX_NODES => (Budget::Nodes(MAX_NODES), true),
        Budget::Time(t) if t > share => (Budget::Time(share), true),
        // The variant's own budget (`[ai] nodes`) is what `ai` plays with.
        b => (b, false),
    }
}

/// `POST /api/games/ID/analyse {"engine", "lines"}`: the best `lines` moves (default 3, at
/// most [`MAX_LINES`]) for the side to move, as the REPL's `analyse` finds them; `hint` is the
/// first. Alpha-beta only; its budget cut to the bounds above (`"capped"` says so).
pub(crate) async fn analyse(State(app): State<App>, Path(id): Path<u64>, Json(req): Json<AnalyseReq>) -> Answer {
    let spec = req.engine.unwrap_or_else(|| "ab".into());
    let asked = match Engine::parse(&spec).map_err(|e| bad(e.to_string()))? {
        Engine::AlphaBeta(b) => b,
        e => return Err(bad(format!("`{e}` does not score moves: analyse needs alpha-beta (ab, ab:d4, ab:200000, ab:2s)"))),
    };
    let lines = req.lines.unwrap_or(3);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(bad(format!("lines: from 1 to {MAX_LINES}")));
    }
    let _permit = search_permit(&app)?;
    let taken = app.games.call(move |g: &mut Games| g.get(id).map(|s| (s.variant.clone(), s.pos.clone(), s.rng.clone()))).await?;
    let (v, pos, mut rng) = taken.ok_or_else(|| no_game(id))?;
    let (budget, cut) = capped(asked, lines, &v);
    if pos.result().is_some() {
        return Err(refused(format!("the game is over ({})", crate::render::status(&v, &pos))));
    }
    // On a blocking thread, with copies: as the REPL, a copy of the generator, so the first
    // line is the move `ai` (and the engine endpoint) would play.
    let found = tokio::task::spawn_blocking(move || {
        let a = analysis::analyse(&v, &pos, budget, lines, &mut rng).map_err(|e| e.to_string())?;
        let g = &v.rules.geometry;
        let shown: Vec<Value> = a
            .lines
            .iter()
            .filter_map(|l| {
                let m = l.best?;
                Some(json!({
                    "move": m.text(g),
                    "score": l.score.to_string(),
                    "units": l.score.0,
                    "depth": l.depth,
                    "nodes": l.nodes,
                    "line": l.pv.iter().map(|m| m.text(g)).collect::<Vec<_>>(),
                }))
            })
            .collect();
        Ok::<_, String>(json!({
            "engine": Engine::AlphaBeta(budget).to_string(),
            "capped": cut,
            "position": pos.to_text(&v.rules),
            "side": v.rules.player_name(pos.side()),
            "head": a.head(&v, &pos),
            "text": a.body(&v),
            "nodes": a.nodes(),
            "lines": shown,
        }))
    })
    .await
    .map_err(|_| ApiError::from(Lost))?;
    found.map(Json).map_err(refused)
}

#[derive(Deserialize)]
pub(crate) struct EvalsQuery {
    engine: Option<String>,
}

/// How the graph evaluates each position: the static evaluation, or a small search.
#[derive(Clone, Copy)]
enum Judge {
    Static,
    Search(Budget),
}

fn judge(spec: Option<&str>) -> Result<Judge, ApiError> {
    let spec = spec.unwrap_or("static").trim();
    if spec == "static" {
        return Ok(Judge::Static);
    }
    let too_much =
        || bad(format!("the graph evaluates with `static`, ab:dN (N up to {MAX_EVAL_DEPTH}) or ab:N (N up to {MAX_EVAL_NODES})"));
    match Engine::parse(spec).map_err(|_| too_much())? {
        Engine::AlphaBeta(b @ Budget::Depth(d)) if d <= MAX_EVAL_DEPTH => Ok(Judge::Search(b)),
        Engine::AlphaBeta(b @ Budget::Nodes(n)) if n <= MAX_EVAL_NODES => Ok(Judge::Search(b)),
        _ => Err(too_much()),
    }
}

/// The score of `pos` in units for the first player (+ good for them); a finished game is
/// a proven result ([`ai::search::MATE`]) or 0.
fn score_of(v: &crate::variant::Variant, pos: &mut crate::state::Position, how: Judge, rng: &mut ai::Rng) -> Result<i32, String> {
    let first = crate::piece::Player::FIRST;
    if let Some(o) = pos.result() {
        return Ok(match o.winner {
            Winner::Player(p) if p == first => ai::search::MATE,
            Winner::Player(_) => -ai::search::MATE,
            Winner::Draw => 0,
        });
    }
    let mover = match how {
        Judge::Static => Evaluator::new(v).score(pos).map_err(|e| e.to_string())?,
        Judge::Search(b) => ai::search::search(v, pos, b, rng).map_err(|e| e.to_string())?.score.0,
    };
    Ok(if pos.side() == first { mover } else { -mover })
}

/// The evaluations of the positions of the whole line (start, each move played, each move
/// ahead), at most [`MAX_EVAL_PLIES`] of them and for at most [`MAX_EVAL_TIME`].
fn evaluate_line(v: &crate::variant::Variant, start: &crate::state::Position, moves: &[Move], how: Judge) -> Result<Value, String> {
    let began = Instant::now();
    let mut rng = ai::rng(0);
    let mut pos = start.clone();
    let mut points = Vec::new();
    let mut complete = true;
    for i in 0..=moves.len() {
        if points.len() >= MAX_EVAL_PLIES || began.elapsed() > MAX_EVAL_TIME {
            complete = false;
            break;
        }
        let units = score_of(v, &mut pos, how, &mut rng)?;
        points.push(json!({ "ply": pos.ply(), "units": units, "score": ai::Score(units).to_string() }));
        if let Some(m) = moves.get(i) {
            v.make(&mut pos, m).map_err(|e| e.to_string())?;
        }
    }
    let _ = v.take_output();
    Ok(json!({ "points": points, "complete": complete, "for": v.rules.player_name(crate::piece::Player::FIRST) }))
}

/// `GET /api/games/ID/evals[?engine=static|ab:dN|ab:N]`: the evaluation after each ply of the
/// whole line (played and ahead), for the first player: `{"points": [{"ply", "units",
/// "score"}], "complete", "for"}`.
pub(crate) async fn evals(State(app): State<App>, Path(id): Path<u64>, Query(q): Query<EvalsQuery>) -> Answer {
    let how = judge(q.engine.as_deref())?;
    let _permit = match how {
        Judge::Static => None,
        Judge::Search(_) => Some(search_permit(&app)?),
    };
    let taken = app
        .games
        .call(move |g: &mut Games| {
            g.get(id)
                .map(|s| (s.variant.clone(), s.start.clone(), s.played.iter().chain(s.undone.iter().rev()).copied().collect::<Vec<_>>()))
        })
        .await?;
    let (v, start, moves) = taken.ok_or_else(|| no_game(id))?;
    let found = tokio::task::spawn_blocking(move || evaluate_line(&v, &start, &moves, how)).await.map_err(|_| ApiError::from(Lost))?;
    found.map(Json).map_err(refused)
}

#[derive(Deserialize)]
pub(crate) struct PngQuery {
    #[serde(default)]
    flip: bool,
}

/// `GET /api/games/ID/png[?flip=true]`: the board as `show --png` draws it.
pub(crate) async fn png(State(app): State<App>, Path(id): Path<u64>, Query(q): Query<PngQuery>) -> Result<Response, ApiError> {
    let drawn = app.games.call(move |g: &mut Games| g.get(id).map(|s| super::state::board(s, q.flip))).await?.ok_or_else(|| no_game(id))?;
    let svg = drawn["svg"].as_str().unwrap_or_default().to_string();
    let bytes = tokio::task::spawn_blocking(move || crate::diagram::png(&svg, crate::diagram::PNG_SCALE))
        .await
        .map_err(|_| ApiError::from(Lost))?
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "image/png")], bytes).into_response())
}

/// `GET /api/games/ID/lines`: every game line the session keeps, the current one at
/// `"current"`: `{"current", "lines": [{"variant", "moves", "cursor", "start_ply", "edit"}]}`.
pub(crate) async fn lines(State(app): State<App>, Path(id): Path<u64>) -> Answer {
    let all = app.games.call(move |g: &mut Games| g.get(id).map(|s| (s.earlier.len(), s.lines()))).await?.ok_or_else(|| no_game(id))?;
    let (current, all) = all;
    let shown: Vec<Value> = all
        .into_iter()
        .map(|l| json!({ "variant": l.variant, "moves": l.moves, "cursor": l.cursor, "start_ply": l.start_ply, "edit": l.edit }))
        .collect();
    Ok(Json(json!({ "current": current, "lines": shown })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SwitchReq {
    line: usize,
}

/// `POST /api/games/ID/lines/switch {"line"}`: that line becomes the current one; the state.
pub(crate) async fn switch_line(State(app): State<App>, Path(id): Path<u64>, Json(req): Json<SwitchReq>) -> Answer {
    with_game(&app, id, move |s| s.switch_line(req.line).map_err(refused)).await
}
