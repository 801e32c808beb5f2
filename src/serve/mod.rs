//! `boardlab serve`: the board in the browser (docs/web.md). A local web application: the page
//! and its assets are inside the binary (`assets/web/`, plain HTML, JavaScript and CSS); the
//! JSON API ([`api`]) is a client of the same session as the REPL.
//!
//! Safe by construction: it listens on loopback unless told otherwise (and then says so
//! loudly); a request whose `Host` is a name other than `localhost` is refused, so a web page
//! elsewhere cannot reach it through DNS rebinding; bodies are limited; the browser names
//! variants only, never paths; games are held by one thread ([`games`]), at most
//! [`games::MAX_GAMES`] of them.

pub mod api;
pub mod games;
pub mod panels;
mod state;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The largest request body read (a move, an engine, options: a few hundred bytes).
pub const MAX_BODY: usize = 16 * 1024;

/// The port tried first when none is given (another free port when it is taken).
pub const DEFAULT_PORT: u16 = 8765;

const INDEX: &str = include_str!("../../assets/web/index.html");
const SCRIPT: &str = include_str!("../../assets/web/app.js");
const PANELS: &str = include_str!("../../assets/web/panels.js");
const STYLE: &str = include_str!("../../assets/web/style.css");

/// Whether a request's `Host` may reach the server: `localhost` or an IP address literal (no
/// DNS rebinding reaches a literal); a literal other than loopback only when the server
/// listens wider than loopback.
pub fn host_allowed(host: &str, wide: bool) -> bool {
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

/// The application: the page, its assets and the API, behind the Host guard and the body
/// limit. `default` is the variant the page opens with; `wide`: listening beyond loopback.
pub fn router(default: &str, wide: bool) -> Router {
    let app = api::App {
        games: games::Owner::start(),
        searches: Arc::new(tokio::sync::Semaphore::new(api::MAX_SEARCHES)),
        default: default.to_string(),
    };
    Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", INDEX) }))
        .route("/app.js", get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }))
        .route("/panels.js", get(|| async { asset("text/javascript; charset=utf-8", PANELS) }))
        .route("/style.css", get(|| async { asset("text/css; charset=utf-8", STYLE) }))
        .route("/api/variants", get(api::variants))
        .route("/api/games", post(api::new_game))
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
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
        let listener = runtime.block_on(tokio::net::TcpListener::bind((host, port)))?;
        let addr = listener.local_addr()?;
        let app = router(default, !host.is_loopback());
        runtime.spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Server { addr, runtime })
    }

    /// Serves until the process ends (Ctrl-C).
    pub fn wait(self) {
        self.runtime.block_on(std::future::pending::<()>());
    }

    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

/// Why `boardlab serve` could not start.
#[derive(Debug)]
pub enum ServeError {
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
pub fn run(variant: &str, port: Option<u16>, host: IpAddr, open: bool, out: &mut dyn std::io::Write) -> Result<(), ServeError> {
    crate::Variant::load(variant, &[]).map_err(|e| ServeError::Load(e.render(false)))?;
    if !host.is_loopback() {
        eprintln!(
            "WARNING: listening on {host}, not only on this machine: anyone who can reach it can play, create games and make this machine search. Use the default (127.0.0.1) unless you mean that."
        );
    }
    let server = match port {
        Some(p) => Server::start(host, p, variant)?,
        // The usual port, or any free one when another program holds it.
        None => Server::start(host, DEFAULT_PORT, variant).or_else(|_| Server::start(host, 0, variant))?,
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
