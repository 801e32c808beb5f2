// boardlab's page: a client of the JSON API (docs/web.md). The board is the server's SVG
// (the drawing of `show --svg`); the server says where each cell's centre is, so a click is
// turned into a cell here and every rule question goes back to the server.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";

let game = null; // the state the API answered last
let board = null; // {svg, cells: {name: [x, y]}, cell_side}
let flip = false;
let selected = null; // the cell of the piece picked up
let path = []; // the landings clicked so far for it (a capture chain, one landing at a time)
let dropping = null; // the symbol of the hand piece picked up
let pending = null; // moves that differ only by their second part (Amazons' arrow)

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  if (r.status === 204) return null;
  const data = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function message(text) {
  $("message").textContent = text || "";
}

async function init() {
  const v = await api("GET", "/api/variants");
  const sel = $("variant");
  for (const n of v.variants) {
    const o = document.createElement("option");
    o.value = o.textContent = n;
    sel.appendChild(o);
  }
  const wanted = new URLSearchParams(location.search).get("variant") || v.default;
  sel.value = wanted;
  sel.addEventListener("change", () => newGame(sel.value));
  $("new").addEventListener("click", () => newGame(sel.value));
  $("flip").addEventListener("click", () => { flip = !flip; show(game); });
  $("undo").addEventListener("click", () => act("undo"));
  $("redo").addEventListener("click", () => act("redo"));
  $("start").addEventListener("click", () => goto(game.start_ply));
  $("end").addEventListener("click", () => goto(game.start_ply + game.history.length + game.ahead.length));
  $("machine").addEventListener("click", machine);
  $("board").addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  await newGame(wanted);
}

// Left and right arrows step through the history; Escape drops the piece picked up.
function onKey(e) {
  if (!game || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.key === "ArrowLeft" && game.history.length) goto(game.ply - 1);
  else if (e.key === "ArrowRight" && game.ahead.length) goto(game.ply + 1);
  else if (e.key === "Escape") {
    selected = dropping = pending = null;
    $("chooser").hidden = true;
    overlay();
  } else return;
  e.preventDefault();
}

async function newGame(name) {
  const old = game && game.id;
  try {
    await show(await api("POST", "/api/games", { variant: name }));
    message("");
  } catch (e) {
    message(e.message);
    return;
  }
  // The old game is dropped: the server holds a bounded number of games.
  if (old) api("DELETE", `/api/games/${old}`).catch(() => {});
}

async function show(state) {
  game = state;
  selected = dropping = pending = null;
  path = [];
  board = await api("GET", `/api/games/${game.id}/board?flip=${flip}`);
  $("board").innerHTML = board.svg;
  $("chooser").hidden = true;
  renderSide();
  overlay();
  if (window.boardlabLive) window.boardlabLive.shown(game);
}

async function act(what, body) {
  try {
    await show(await api("POST", `/api/games/${game.id}/${what}`, body));
    message("");
  } catch (e) {
    message(e.message);
  }
}

const goto = (ply) => act("goto", { ply });
const play = (text) => act("move", { move: text });

async function machine() {
  const engine = $("engine").value.trim() || "ab";
  $("machine").disabled = true;
  $("thinking").textContent = `${engine} is thinking…`;
  try {
    const s = await api("POST", `/api/games/${game.id}/engine`, { engine });
    const e = s.engine;
    const found = e.search ? `: ${e.search.summary}; line ${e.search.line.join(" ")}` : "";
    await show(s);
    $("thinking").textContent = `${e.engine} played ${e.move}${found}`;
    message("");
  } catch (err) {
    $("thinking").textContent = "";
    message(err.message);
  } finally {
    $("machine").disabled = false;
  }
}

function renderSide() {
  $("status").textContent = game.result ? `${game.status}` : game.status;
  $("position").textContent = game.position;
  $("fen").textContent = game.fen ? `FEN ${game.fen}` : "";
  const list = $("moves");
  list.innerHTML = "";
  list.start = 1;
  const all = game.history.concat(game.ahead);
  all.forEach((text, i) => {
    const li = document.createElement("li");
    li.textContent = text;
    if (i === game.history.length - 1) li.className = "current";
    if (i >= game.history.length) li.className = "ahead";
    li.addEventListener("click", () => goto(game.start_ply + i + 1));
    list.appendChild(li);
  });
  const hand = $("hand");
  hand.innerHTML = "";
  const symbols = [...new Set(game.legal.filter((m) => m.drop).map((m) => m.drop))];
  for (const sym of symbols) {
    const b = document.createElement("button");
    b.textContent = `drop ${sym}`;
    b.addEventListener("click", () => {
      selected = pending = null;
      dropping = dropping === sym ? null : sym;
      renderSide();
      overlay();
    });
    if (sym === dropping) b.className = "selected";
    hand.appendChild(b);
  }
  const others = $("others");
  others.innerHTML = "";
  for (const m of game.legal.filter((m) => m.from === null && m.to === null)) {
    const b = document.createElement("button");
    b.textContent = m.text;
    b.addEventListener("click", () => play(m.text));
    others.appendChild(b);
  }
}

// The cell under a click, from the cells' centres the server gave.
function cellAt(evt) {
  const svg = $("board").querySelector("svg");
  if (!svg) return null;
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX;
  pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const half = board.cell_side / 2;
  for (const [name, [x, y]] of Object.entries(board.cells)) {
    if (Math.abs(p.x - x) <= half && Math.abs(p.y - y) <= half) return name;
  }
  return null;
}

function onClick(evt) {
  const c = cellAt(evt);
  if (!c) return;
  message("");
  if (pending) {
    const ms = pending.filter((m) => m.placed === c);
    pending = null;
    if (ms.length) return pick(ms);
    overlay();
    return;
  }
  if (dropping !== null) {
    const ms = game.legal.filter((m) => m.drop === dropping && m.to === c);
    dropping = null;
    renderSide();
    if (ms.length) return pick(ms);
  }
  if (selected !== null) {
    // The next landing of a chain, or a move's last landing (the whole chain at once).
    const on = path.concat([c]);
    const next = game.legal.filter((m) => m.from === selected && on.every((l, i) => m.landings[i] === l));
    if (next.length && next.some((m) => m.landings.length > on.length)) {
      const ending = next.filter((m) => m.landings.length === on.length);
      if (ending.length) return choose(next);
      path = on;
      overlay();
      return;
    }
    if (next.length) return pick(next);
    const ms = game.legal.filter((m) => m.from === selected && m.to === c);
    if (ms.length) return pick(ms);
    if (c === selected) {
      selected = null;
      overlay();
      return;
    }
    if (!game.legal.some((m) => m.from === c)) {
      // Not a landing: the server says why.
      const from = selected;
      selected = null;
      overlay();
      return why(`${from}-${c}`);
    }
  }
  if (game.legal.some((m) => m.from === c)) return select(c);
  const drops = game.legal.filter((m) => m.from === null && m.to === c);
  if (drops.length) return pick(drops);
  why(c);
}

// Asks the server to play a text it will refuse, to show its reason.
async function why(text) {
  try {
    await show(await api("POST", `/api/games/${game.id}/move`, { move: text }));
  } catch (e) {
    message(e.message);
  }
}

function select(c) {
  selected = c;
  path = [];
  dropping = pending = null;
  overlay();
  // Moves from the piece that land nowhere (bearing off): buttons.
  const off = game.legal.filter((m) => m.from === c && m.to === null);
  if (off.length) choose(off);
  else $("chooser").hidden = true;
}

// Several moves share this click: a second part on the board, or a chooser of their texts.
function pick(ms) {
  selected = null;
  if (ms.length === 1) return play(ms[0].text);
  const placed = new Set(ms.map((m) => m.placed));
  if (ms.every((m) => m.placed) && placed.size === ms.length) {
    pending = ms;
    overlay();
    message("now the second part: click where it goes");
    return;
  }
  choose(ms);
}

function choose(ms) {
  const box = $("chooser");
  box.innerHTML = "";
  for (const m of ms) {
    const b = document.createElement("button");
    b.textContent = m.text;
    b.addEventListener("click", () => play(m.text));
    box.appendChild(b);
  }
  const cancel = document.createElement("button");
  cancel.textContent = "cancel";
  cancel.addEventListener("click", () => { box.hidden = true; selected = null; overlay(); });
  box.appendChild(cancel);
  box.hidden = false;
}

// Dots on the cells the picked piece can reach, a ring on the piece.
function overlay() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const old = svg.querySelector("#overlay");
  if (old) old.remove();
  const g = document.createElementNS(SVG_NS, "g");
  g.setAttribute("id", "overlay");
  g.setAttribute("pointer-events", "none");
  const half = board.cell_side / 2;
  let targets = [];
  if (pending) targets = pending.map((m) => m.placed);
  else if (dropping !== null) targets = game.legal.filter((m) => m.drop === dropping).map((m) => m.to);
  else if (selected !== null) {
    // The next landings of the moves that follow the path clicked so far.
    targets = game.legal
      .filter((m) => m.from === selected && m.landings.length > path.length && path.every((l, i) => m.landings[i] === l))
      .map((m) => m.landings[path.length]);
    const [x, y] = board.cells[selected];
    const ring = document.createElementNS(SVG_NS, "rect");
    for (const [k, v] of [["x", x - half + 2], ["y", y - half + 2], ["width", 2 * half - 4], ["height", 2 * half - 4], ["fill", "none"], ["stroke", "#1c5fa8"], ["stroke-width", 3]]) ring.setAttribute(k, v);
    g.appendChild(ring);
  }
  for (const t of new Set(targets)) {
    if (!board.cells[t]) continue;
    const [x, y] = board.cells[t];
    const dot = document.createElementNS(SVG_NS, "circle");
    for (const [k, v] of [["cx", x], ["cy", y], ["r", half / 3.5], ["fill", "#1c5fa8"], ["fill-opacity", 0.6]]) dot.setAttribute(k, v);
    g.appendChild(dot);
  }
  svg.appendChild(g);
}

init().catch((e) => message(`the page could not start: ${e.message}`));
