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

// A line under the board: the rules' reason for a refusal, or (`hint`) what to do next.
function message(text, hint = false) {
  $("message").textContent = text || "";
  $("message").className = hint ? "hint" : "";
}

async function init() {
  const v = await api("GET", "/api/variants");
  const sel = $("variant");
  for (const n of v.variants) {
    const o = document.createElement("option");
    o.value = o.textContent = n;
    sel.appendChild(o);
  }
  // `?variant=NAME&moves=a3-b4,b6-a5`: a game to open, after these moves (a link to a position).
  const params = new URLSearchParams(location.search);
  const wanted = params.get("variant") || v.default;
  const moves = (params.get("moves") || "").split(/[\s,]+/).filter(Boolean);
  sel.value = wanted;
  sel.addEventListener("change", () => newGame(sel.value));
  $("new").addEventListener("click", () => newGame(sel.value));
  $("flip").addEventListener("click", () => { flip = !flip; show(latest); });
  $("undo").addEventListener("click", () => act("undo"));
  $("redo").addEventListener("click", () => act("redo"));
  $("start").addEventListener("click", () => goto(game.start_ply));
  $("end").addEventListener("click", () => goto(game.start_ply + game.history.length + game.ahead.length));
  $("machine").addEventListener("click", machine);
  $("board").addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  await newGame(wanted, moves);
}

// Left and right arrows step through the history; Escape drops the piece picked up.
function onKey(e) {
  if (!game || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.key === "ArrowLeft" && game.history.length) goto(game.ply - 1);
  else if (e.key === "ArrowRight" && game.ahead.length) goto(game.ply + 1);
  else if (e.key === "Escape") {
    selected = dropping = pending = null;
    $("chooser").hidden = true;
    message("");
    overlay();
  } else return;
  e.preventDefault();
}

async function newGame(name, moves = []) {
  const old = game && game.id;
  try {
    await show(await api("POST", "/api/games", { variant: name, moves }));
    message("");
  } catch (e) {
    message(e.message);
    return;
  }
  // The old game is dropped: the server holds a bounded number of games.
  if (old) api("DELETE", `/api/games/${old}`).catch(() => {});
}

let showing = 0; // how many times show began: only the latest one draws
let latest = null; // the state the API answered last (shown once its picture arrives)

async function show(state) {
  const mine = ++showing;
  latest = state;
  const picture = await api("GET", `/api/games/${state.id}/board?flip=${flip}`);
  // A later show (a second click on flip, a move made meanwhile) began while this one
  // waited: its state and picture are the newer ones.
  if (mine !== showing) return;
  game = state;
  board = picture;
  selected = dropping = pending = null;
  path = [];
  // What drawing costs, from the picture received to the board laid out, and to the next
  // frame: the measures "board" and "board-frame" (the browser test reports them).
  const t0 = performance.now();
  const el = $("board");
  el.innerHTML = board.svg;
  el.dataset.game = game.id;
  // The picture as wide as the column allows and the board in it (down to its coordinates)
  // as tall as the window allows; the caption under it may need a scroll (style.css).
  const box = el.querySelector("svg").viewBox.baseVal;
  const lowest = Math.max(...Object.values(board.cells).map(([, y]) => y));
  const boardBottom = Math.min(box.height, lowest + board.cell_side / 2 + 30);
  if (box && boardBottom > 0) el.style.setProperty("--ratio", box.width / boardBottom);
  if (box) el.style.setProperty("--natural", `${box.width}px`);
  $("chooser").hidden = true;
  renderSide();
  overlay();
  el.getBoundingClientRect(); // forces the layout, so that the measure includes it
  performance.measure("board", { start: t0 });
  requestAnimationFrame(() => setTimeout(() => performance.measure("board-frame", { start: t0 })));
  if (typeof panelsShown === "function") panelsShown(); // panels.js: options, analysis, graph, machine
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
  // Where every move drops the one kind of piece (Connect Four), a click on a dotted cell
  // says it all: no button.
  const onlyDrops = symbols.length === 1 && game.legal.every((m) => m.drop);
  for (const sym of onlyDrops ? [] : symbols) {
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
  // The nearest centre within half a cell each way (hex cells' squares overlap between rows).
  let best = null, bestD = Infinity;
  for (const [name, [x, y]] of Object.entries(board.cells)) {
    const d = (p.x - x) ** 2 + (p.y - y) ** 2;
    if (Math.abs(p.x - x) <= half && Math.abs(p.y - y) <= half && d < bestD) [best, bestD] = [name, d];
  }
  return best;
}

function onClick(evt) {
  const c = cellAt(evt);
  if (!c) return;
  message("");
  $("chooser").hidden = true;
  if (pending) {
    // The second part's cell; another click keeps the first part (Escape takes it back).
    const ms = pending.filter((m) => m.placed === c);
    if (ms.length) {
      pending = null;
      return pick(ms);
    }
    message(`${c} is not a cell for the second part: click a dotted cell, or Escape to take back ${pending[0].from}-${pending[0].to}`, true);
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
  // A move written as its cell alone (a pit sown) is played on one click.
  const whole = game.legal.filter((m) => m.from === c);
  if (whole.length === 1 && whole[0].to === null && whole[0].text === c) return play(whole[0].text);
  if (whole.length) return select(c);
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
    message("now the second part: click a dotted cell (Escape takes the move back)", true);
    return;
  }
  choose(ms);
}

function choose(ms) {
  const box = $("chooser");
  box.innerHTML = "";
  // A promotion's choices differ only by the piece put down: named by it (the text as a tip).
  const promotions = ms.every((m) => m.promote && m.from === ms[0].from && m.to === ms[0].to);
  if (promotions) box.appendChild(document.createTextNode("promote to"));
  // Gating's choices: the move alone, or with a piece from the hand on a cell it leaves.
  const gates = !promotions && ms.some((m) => m.gate) && ms.every((m) => m.from === ms[0].from && m.to === ms[0].to);
  if (gates) box.appendChild(document.createTextNode("gate"));
  for (const m of ms) {
    const b = document.createElement("button");
    b.textContent = promotions ? m.promote.toUpperCase() : gates ? (m.gate || "none") : m.text;
    b.title = m.text;
    b.dataset.move = m.text;
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
  if (pending) {
    targets = pending.map((m) => m.placed);
    ghost(g, pending[0].from, pending[0].to);
  }
  else if (game.legal.length && game.legal.every((m) => m.from === null && m.to !== null)) {
    // Every move is a drop on a cell (Connect Four, Othello): their cells, dotted from the start.
    targets = game.legal.filter((m) => dropping === null || m.drop === dropping).map((m) => m.to);
  }
  else if (dropping !== null) targets = game.legal.filter((m) => m.drop === dropping).map((m) => m.to);
  else if (selected !== null) {
    // The next landings of the moves that follow the path clicked so far.
    targets = game.legal
      .filter((m) => m.from === selected && m.landings.length > path.length && path.every((l, i) => m.landings[i] === l))
      .map((m) => m.landings[path.length]);
    const [x, y] = board.cells[selected];
    const ring = document.createElementNS(SVG_NS, "rect");
    ring.setAttribute("data-picked", selected);
    for (const [k, v] of [["x", x - half + 2], ["y", y - half + 2], ["width", 2 * half - 4], ["height", 2 * half - 4], ["fill", "none"], ["stroke", "#1c5fa8"], ["stroke-width", 3]]) ring.setAttribute(k, v);
    g.appendChild(ring);
  }
  for (const t of new Set(targets)) {
    if (!board.cells[t]) continue;
    const [x, y] = board.cells[t];
    const dot = document.createElementNS(SVG_NS, "circle");
    dot.setAttribute("data-cell", t);
    for (const [k, v] of [["cx", x], ["cy", y], ["r", half / 3.5], ["fill", "#1c5fa8"], ["fill-opacity", 0.6]]) dot.setAttribute(k, v);
    g.appendChild(dot);
  }
  svg.appendChild(g);
}

// The first part of a two-part turn, shown before the second is chosen: a dashed ring where
// the piece stood and a copy of it, faded, where it lands.
function ghost(g, from, to) {
  if (!board.cells[from] || !board.cells[to]) return;
  const [fx, fy] = board.cells[from];
  const [tx, ty] = board.cells[to];
  const half = board.cell_side / 2;
  const ring = document.createElementNS(SVG_NS, "rect");
  for (const [k, v] of [["x", fx - half + 3], ["y", fy - half + 3], ["width", 2 * half - 6], ["height", 2 * half - 6], ["fill", "none"], ["stroke", "#1c5fa8"], ["stroke-width", 2], ["stroke-dasharray", "5 4"]]) ring.setAttribute(k, v);
  g.appendChild(ring);
  const copy = document.createElementNS(SVG_NS, "g");
  copy.setAttribute("transform", `translate(${tx - fx} ${ty - fy})`);
  copy.setAttribute("opacity", "0.75");
  // The piece's drawing: the shapes and letters centred on its cell (diagram.rs draws them
  // in the group "pieces"; a letter's baseline sits a little below the centre).
  const pieces = $("board").querySelector("svg #pieces");
  // The group's own attributes (bold letters, centred) hold for the copy too.
  for (const at of pieces ? pieces.attributes : []) if (at.name !== "id") copy.setAttribute(at.name, at.value);
  for (const el of pieces ? pieces.children : []) {
    const x = +(el.getAttribute("cx") ?? el.getAttribute("x"));
    const y = +(el.getAttribute("cy") ?? el.getAttribute("y"));
    if (Math.abs(x - fx) < 1 && Math.abs(y - fy) < half / 2) copy.appendChild(el.cloneNode(true));
  }
  g.appendChild(copy);
}

// For scripts that drive the page (the browser test; docs/web.md): where a cell's centre is
// on the screen, the board's cells, and the game's state as the API answered it.
window.boardlab = {
  cellPoint(name) {
    const svg = $("board").querySelector("svg");
    const [x, y] = board.cells[name];
    const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
    return [p.x, p.y];
  },
  cells: () => board.cells,
  state: () => game,
};

init().catch((e) => message(`the page could not start: ${e.message}`));
