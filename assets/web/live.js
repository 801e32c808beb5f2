// boardlab's page, live (docs/web.md, "Live updates"): the game's event stream (the machine's
// thinking, changes made elsewhere, reload notices), the stop button, the game record to
// download and to open, and the autosaved games to resume. It uses app.js's `game`, `show`,
// `api`, `message` and `newGame`; app.js calls `boardlabLive.shown(game)` after drawing a state.
"use strict";

(function () {
  const byId = (id) => document.getElementById(id);
  let source = null; // the EventSource of the game shown
  let sourceFor = null; // its game's id
  const running = new Map(); // search id -> engine

  function make(tag, props, parent) {
    const e = document.createElement(tag);
    Object.assign(e, props || {});
    if (parent) parent.appendChild(e);
    return e;
  }

  // The controls this file adds: a stop button beside "machine move", a line for the
  // search's progress, a box for a load error, and a section for records and autosaves.
  make("style", { textContent: "#progress { color: #666; font-size: 0.85em; min-height: 1em; } #load-error { background: #fff0f0; border: 1px solid #e0b0b0; padding: 0.5em; overflow-x: auto; font-size: 0.85em; } #saved li { margin: 0.2em 0; }" }, document.head);
  const stop = make("button", { id: "stop", textContent: "stop", disabled: true, title: "stop the search: the machine plays its best move so far" });
  byId("machine").after(stop);
  const progress = make("p", { id: "progress" });
  byId("thinking").after(progress);
  const loadError = make("pre", { id: "load-error", hidden: true });
  byId("message").after(loadError);
  const files = make("details", { id: "games" });
  byId("moves").parentNode.appendChild(files);
  make("summary", { textContent: "records and autosaved games" }, files);
  const recordRow = make("p", {}, files);
  const download = make("a", { id: "download-record", textContent: "download the game record" }, recordRow);
  download.setAttribute("download", "");
  recordRow.append(" · ");
  const openLabel = make("label", { textContent: "open a record " }, recordRow);
  const openInput = make("input", { id: "open-record", type: "file", accept: ".toml,text/plain" }, openLabel);
  const savedHead = make("p", {}, files);
  savedHead.append("autosaved games (shared with the REPL's --resume) ");
  const refresh = make("button", { id: "saved-refresh", textContent: "refresh" }, savedHead);
  const savedList = make("ul", { id: "saved" }, files);

  stop.addEventListener("click", async () => {
    if (!game) return;
    try {
      await api("POST", `/api/games/${game.id}/stop`, {});
    } catch (e) {
      message(e.message);
    }
  });

  // Replaces the page's game with another (opened or resumed), dropping the old one as
  // app.js's newGame does.
  async function replaceWith(request) {
    const old = game && game.id;
    try {
      await show(await api("POST", "/api/games", request));
      message("");
    } catch (e) {
      message(e.message);
      return;
    }
    if (old && old !== game.id) api("DELETE", `/api/games/${old}`).catch(() => {});
  }

  openInput.addEventListener("change", async () => {
    const f = openInput.files[0];
    if (!f) return;
    if (f.size > 1 << 20) {
      message("that file is larger than any game record (1 MiB)");
      return;
    }
    await replaceWith({ record: await f.text() });
    openInput.value = "";
  });

  async function listSaved() {
    savedList.innerHTML = "";
    let data;
    try {
      data = await api("GET", "/api/saved");
    } catch (e) {
      message(e.message);
      return;
    }
    if (!data.folder) make("li", { textContent: "this server keeps no autosaves" }, savedList);
    else if (!data.saved.length) make("li", { textContent: "none yet" }, savedList);
    for (const s of data.saved) {
      const li = make("li", {}, savedList);
      const when = new Date(s.saved).toLocaleString();
      const what = s.error ? `unreadable: ${s.error}` : `${s.variant}, ${s.moves} move${s.moves === 1 ? "" : "s"}${s.over ? ", over" : ""}`;
      li.append(`${what} (${when}) `);
      if (game && s.name === game.autosave) li.append("· this game");
      else if (s.live) li.append("· open in a running session");
      else if (!s.error) {
        const b = make("button", { textContent: "resume" }, li);
        b.addEventListener("click", () => replaceWith({ resume: s.name }));
      }
    }
  }
  refresh.addEventListener("click", listSaved);
  files.addEventListener("toggle", () => { if (files.open) listSaved(); });

  function sameGame(a, b) {
    const key = (s) => JSON.stringify([s.id, s.position, s.history, s.ahead, s.legal.length]);
    return a && b && key(a) === key(b);
  }

  function showThinking(d) {
    const engine = running.get(d.search) || "the machine";
    byId("thinking").textContent = `${engine}: depth ${d.depth}, ${d.score}, ${d.nodes} positions; line ${d.line.join(" ")}`;
  }

  function onReload(r) {
    if (!r.ok) {
      const e = r.error;
      const where = e.file ? ` in ${e.file}${e.line ? `, line ${e.line}, column ${e.column}` : ""}` : "";
      message(`the rules did not reload${where}: the game stays as it was`);
      loadError.textContent = e.rendered;
      loadError.hidden = false;
      return;
    }
    loadError.hidden = true;
    const parted = r.parted_at_ply === null ? `replayed all ${r.replayed} moves`
      : `the game parted at ply ${r.parted_at_ply}: ${r.illegal} is no longer legal (dropped: ${r.dropped.join(" ")})`;
    message(`reloaded the rules (${r.files.join(", ")}): ${parted}`);
  }

  const handlers = {
    state: (st) => { if (!sameGame(game, st)) show(st); },
    search: (d) => {
      if (d.running) {
        running.set(d.search, d.engine);
        byId("thinking").textContent = `${d.engine} is thinking…`;
      } else {
        running.delete(d.search);
        if (d.cancelled) byId("thinking").textContent = `${d.engine}: cancelled, no move played`;
        progress.textContent = "";
      }
      stop.disabled = running.size === 0;
    },
    thinking: showThinking,
    progress: (d) => { progress.textContent = d.text; },
    reload: onReload,
    autosave: (d) => message(d.error),
    lagged: async () => { if (game) show(await api("GET", `/api/games/${game.id}`)); },
    closed: () => disconnect(),
  };

  function disconnect() {
    if (source) source.close();
    source = sourceFor = null;
    running.clear();
    stop.disabled = true;
  }

  function connect(id) {
    disconnect();
    source = new EventSource(`/api/games/${id}/events`);
    sourceFor = id;
    for (const [kind, handle] of Object.entries(handlers)) {
      source.addEventListener(kind, (e) => {
        if (sourceFor !== id) return;
        try {
          handle(JSON.parse(e.data));
        } catch (err) {
          message(err.message);
        }
      });
    }
  }

  // A closed tab lets its game go: its searches are cancelled and its autosave lock released
  // (so the REPL can resume it); the game is on disk once it changed.
  window.addEventListener("pagehide", () => {
    if (game) fetch(`/api/games/${game.id}`, { method: "DELETE", keepalive: true }).catch(() => {});
    disconnect();
  });
  // Back from the browser's page cache: the game was let go, so take it up again.
  window.addEventListener("pageshow", (e) => {
    if (!e.persisted || !game) return;
    if (game.autosave) replaceWith({ resume: game.autosave });
    else newGame(game.variant);
  });

  window.boardlabLive = {
    // Called by app.js after it draws a state.
    shown(state) {
      if (state.id !== sourceFor) connect(state.id);
      download.href = `/api/games/${state.id}/record`;
      for (const s of state.searching || []) running.set(s.search, s.engine);
      stop.disabled = running.size === 0;
    },
  };
})();
