//! `boardlab serve`: the board in the browser (docs/web.md). A local web application: the page
//! and its assets are inside the binary (`assets/web/`, plain HTML, JavaScript and CSS); the
//! JSON API ([`api`]) is a client of the same session as the REPL.
//!
//! Safe by construction: it listens on loopback unless told otherwise (and then says so
//! loudly); a request whose `Host` is a name other than `localhost` is refused, so a web page
//! elsewhere cannot reach it through DNS rebinding; bodies are limited; the browser names
//! variants only, never paths; games are held by one thread ([`games`]), at most
//! [`games::MAX_GAMES`] of them.
//!
//! Live: each game streams its events to its pages ([`live`]: state changes, the machine's
//! thinking, reload notices), its searches can be stopped ([`think`]), its variant's files
//! are watched and its rules reloaded when they change ([`reload`]), and it is autosaved as a
//! REPL session is, its record downloaded or opened ([`saved`]).

pub(crate) mod api;
pub(crate) mod app;
pub(crate) mod games;
pub(crate) mod hub;
pub(crate) mod live;
pub(crate) mod panels;
pub(crate) mod reload;
pub(crate) mod saved;
pub(crate) mod slots;
mod state;
pub(crate) mod think;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The largest request body read (a move, an engine, options: a few hundred bytes).
pub(crate) const MAX_BODY: usize = 16 * 1024;

/// The port tried first when none is given (another free port when it is taken).
pub(crate) const DEFAULT_PORT: u16 = 8765;

const INDEX: &str = include_str!("../../assets/web/index.html");
const SCRIPT: &str = include_str!("../../assets/web/app.js");
const PANELS: &str = include_str!("../../assets/web/panels.js");
const LIVE: &str = include_str!("../../assets/web/live.js");
const STYLE: &str = include_str!("../../assets/web/style.css");

/// Whether a request's `Host` may reach the server: `localhost` or an IP address literal (no
/// DNS rebinding reaches a literal); a literal other than loopback only when the server
/// listens wider than loopback.
pub(crate) fn host_allowed(host: &str, wide: bool) -> bool {
    let host = host.trim();
    // The host without its port: `[::1]:8765`, `127.0.0.1:8765`, `localhost`.
    let name = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((ip, tail)) if tail.is_empty() || tail.starts_with(':') => ip,
            _ => return false,
        }
    } else {
        host.rsplit_once(':').map_or(host, |(h, _)| h)
    };
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback() || wide,
        Err(_) => false,
    }
}

async fn guard_host(wide: bool, req: Request, next: Next) -> Response {
    let host = req.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if host_allowed(host, wide) {
        next.run(req).await
    } else {
        let msg = format!(
            "refused: the Host `{}` is not this machine's loopback name or address (DNS rebinding guard)\n",
            crate::files::quote(host)
        );
        (StatusCode::FORBIDDEN, msg).into_response()
    }
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

/// How a server is set up besides its address.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The variant the page opens with (the one spec from outside the browser that may be a path).
    pub default: String,
    /// Listening beyond loopback.
    pub wide: bool,
    /// Where games are autosaved (the REPL's autosaves folder); none: not autosaved.
    pub autosaves: Option<std::path::PathBuf>,
}

/// [`router`] with all its [`Options`].
pub(crate) fn router_with(options: Options) -> Router {
    let wide = options.wide;
    let app = app::App {
        games: games::Owner::start_with(options.autosaves.map(slots::Saves::start)),
        searches: Arc::new(tokio::sync::Semaphore::new(app::MAX_SEARCHES)),
        default: options.default,
    };
    Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", INDEX) }))
        .route("/app.js", get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }))
        .route("/panels.js", get(|| async { asset("text/javascript; charset=utf-8", PANELS) }))
        .route("/live.js", get(|| async { asset("text/javascript; charset=utf-8", LIVE) }))
        .route("/style.css", get(|| async { asset("text/css; charset=utf-8", STYLE) }))
        .route("/api/variants", get(api::variants))
        // (A record to open may be larger than other bodies.)
        .route("/api/games", post(api::new_game).layer(DefaultBodyLimit::max(saved::MAX_RECORD_BODY)))
        .route("/api/saved", get(saved::list))
        .route("/api/games/{id}", get(api::get_game).delete(api::delete_game))
        .route("/api/games/{id}/move", post(api::play))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/redo", post(api::redo))
        .route("/api/games/{id}/goto", post(api::goto))
        .route("/api/games/{id}/engine", post(api::engine))
        .route("/api/games/{id}/svg", get(api::svg))
        .route("/api/games/{id}/board", get(api::board))
        .route("/api/variants/{name}", get(panels::variant))
        .route("/api/games/{id}/analyse", post(panels::analyse))
        .route("/api/games/{id}/evals", get(panels::evals))
        .route("/api/games/{id}/png", get(panels::png))
        .route("/api/games/{id}/lines", get(panels::lines))
        .route("/api/games/{id}/lines/switch", post(panels::switch_line))
        .route("/api/games/{id}/events", get(live::events))
        .route("/api/games/{id}/stop", post(live::stop))
        .route("/api/games/{id}/record", get(saved::record))
        .with_state(app)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn(move |req: Request, next: Next| guard_host(wide, req, next)))
}

/// A server running on its own threads.
pub struct Server {
    /// Where it listens (the port chosen when 0 was asked).
    pub addr: SocketAddr,
    runtime: tokio::runtime::Runtime,
}

impl Server {
    /// Binds `host:port` (port 0: any free port) and starts serving `default`'s page.
    ///
    /// # Errors
    /// The address cannot be bound.
    pub fn start(host: IpAddr, port: u16, default: &str) -> std::io::Result<Server> {
        Server::start_with(host, port, Options { default: default.to_string(), ..Options::default() })
    }

    /// [`Server::start`] with its [`Options`] (`wide` is set from `host`).
    ///
    /// # Errors
    /// The address cannot be bound.
    pub fn start_with(host: IpAddr, port: u16, options: Options) -> std::io::Result<Server> {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
        let listener = runtime.block_on(tokio::net::TcpListener::bind((host, port)))?;
        let addr = listener.local_addr()?;
        let app = router_with(Options { wide: !host.is_loopback(), ..options });
        runtime.spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Server { addr, runtime })
    }

    /// Serves until the process ends (Ctrl-C).
    pub(crate) fn wait(self) {
        self.runtime.block_on(std::future::pending::<()>());
    }

    /// The page's address.
    pub(crate) fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

/// Why `boardlab serve` could not start.
#[derive(Debug)]
pub(crate) enum ServeError {
    /// The variant does not load (its diagnostic, rendered).
    Load(String),
    /// The address cannot be bound, or output failed.
    Io(std::io::Error),
}

impl From<std::io::Error> for ServeError {
    fn from(e: std::io::Error) -> ServeError {
        ServeError::Io(e)
    }
}

/// `boardlab serve`: checks that `variant` loads, listens, prints the address, opens the page
/// when asked, and serves until the process ends.
///
/// # Errors
/// The variant does not load; the address cannot be bound.
pub(crate) fn run(variant: &str, port: Option<u16>, host: IpAddr, open: bool, out: &mut dyn std::io::Write) -> Result<(), ServeError> {
    crate::variant::Variant::load(variant, &[]).map_err(|e| ServeError::Load(e.render(false)))?;
    if !host.is_loopback() {
        eprintln!(
            "WARNING: listening on {host}, not only on this machine: anyone who can reach it can play, create games and make this machine search. Use the default (127.0.0.1) unless you mean that."
        );
    }
    // Games are autosaved where the REPL's are, so each can resume the other's.
    let options = Options { default: variant.to_string(), wide: false, autosaves: crate::autosave::dir() };
    let server = match port {
        Some(p) => Server::start_with(host, p, options)?,
        // The usual port, or any free one when another program holds it.
        None => Server::start_with(host, DEFAULT_PORT, options.clone()).or_else(|_| Server::start_with(host, 0, options))?,
    };
    writeln!(out, "boardlab serve: {} on {} (Ctrl-C stops)", variant, server.url())?;
    out.flush()?;
    if open {
        open_browser(&server.url());
    }
    server.wait();
    Ok(())
}

/// Asks the desktop to open `url`; says so on standard error when it cannot.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if spawned.is_err() {
        eprintln!("could not open a browser ({opener}): open {url} yourself");
    }
}
