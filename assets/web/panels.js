// boardlab's page, the panels beside the board (docs/web.md, "The page"): the variant's
// options as a form, hint and analyse, the evaluation graph, the machine playing a side, the
// board's pictures to download, and the game lines kept. Loaded after app.js, whose globals it
// reads (game, board, flip) and whose functions it calls (api, show, message, goto); app.js
// calls panelsShown() after each state it shows. Every rule question goes to the server.
"use strict";

const panels = {
  variant: null, // the variant the options form describes
  seen: null, // {id, history} of the state shown last: tells a move played from other changes
  evalsKey: null, // the line the graph was drawn for
  hint: null, // {position, move, line}: the move suggested, while its position is shown
  machine: "none", // "none", "0", "1" (a player's index) or "both"
  busy: false, // a machine move is being asked for
  due: false, // a machine move is due when the machine's side is to move
  auto: 0, // machine moves made since the machine was last told to play
};

// The most machine moves in a row before the page stops and says so ("both" on a game that
// never ends).
const AUTO_LIMIT = 1000;

const el = (tag, attrs = {}, text) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};

function panelsBuild() {
  const box = $("panels");
  box.innerHTML = `
    <div class="row">
      <span>evaluation</span>
      <select id="evals-engine" title="how each position is judged">
        <option value="static">static</option><option value="ab:d1">ab:d1</option><option value="ab:d2">ab:d2</option>
      </select>
    </div>
    <div id="evals"></div>
    <details id="lines-box"><summary id="lines-title">lines</summary><ol id="lines" start="0"></ol></details>
    <div class="row">
      <label>machine plays <select id="machine-side"></select></label>
      <button id="machine-stop" hidden>stop</button>
    </div>
    <div class="row">
      <button id="hint" title="the move the engine would play (not played)">hint</button>
      <button id="analyse" title="the best moves with their scores and lines">analyse</button>
      <label>lines <input id="analyse-lines" type="number" value="3" min="1" max="10" size="3"></label>
    </div>
    <div id="analysis"></div>
    <div class="row">download <a id="dl-svg" class="button" download>SVG</a> <a id="dl-png" class="button" download>PNG</a></div>
    <details id="options-box"><summary>options</summary>
      <p id="variant-about"></p>
      <form id="options"></form>
      <button id="options-new">new game with these options</button>
      <pre id="options-error"></pre>
    </details>`;
  $("hint").addEventListener("click", () => analyse(1));
  $("analyse").addEventListener("click", () => analyse(Number($("analyse-lines").value) || 3));
  $("evals-engine").addEventListener("change", () => { panels.evalsKey = null; refreshEvals(); });
  $("options-new").addEventListener("click", newWithOptions);
  $("options").addEventListener("submit", (e) => { e.preventDefault(); newWithOptions(); });
  $("machine-side").addEventListener("change", () => {
    panels.machine = $("machine-side").value;
    panels.auto = 0;
    // Told to play: the machine moves now if its side is to move.
    panels.due = true;
    machineNext();
  });
  $("machine-stop").addEventListener("click", () => stopMachine("stopped: the machine makes no more moves"));
}

// Called by app.js after every state it shows.
function panelsShown() {
  try {
    const prev = panels.seen;
    panels.seen = { id: game.id, history: game.history.slice() };
    const fresh = !prev || prev.id !== game.id;
    const moved = !fresh && game.history.length === prev.history.length + 1 && prev.history.every((t, i) => game.history[i] === t);
    if (panels.hint && panels.hint.position !== game.position) {
      panels.hint = null;
      $("analysis").textContent = "";
    }
    drawHint();
    refreshSides();
    refreshDownloads();
    refreshEvals();
    refreshLines();
    if (game.variant !== panels.variant) loadOptions(game.variant);
    // The machine answers a move and opens a game; stepping through the history (undo,
    // goto, another line) or another game stops a machine playing both sides.
    if (panels.machine === "both" && !moved && !panels.busy) stopMachine(fresh ? "" : "stopped: the game changed");
    else if (moved || (fresh && game.history.length === 0)) panels.due = true;
    machineNext();
  } catch (e) {
    message(`the panels: ${e.message}`);
  }
}

// ---- the machine playing a side ----

function refreshSides() {
  const sel = $("machine-side");
  const labels = [["none", "none"], ["0", game.players[0]], ["1", game.players[1]], ["both", "both"]];
  if (sel.options.length && [...sel.options].every((o, i) => o.textContent === labels[i][1])) return;
  sel.innerHTML = "";
  for (const [v, t] of labels) sel.appendChild(el("option", { value: v }, t));
  sel.value = panels.machine;
}

function machineToMove() {
  if (!game || game.result || panels.machine === "none") return false;
  return panels.machine === "both" || game.players[Number(panels.machine)] === game.side;
}

function machineNext() {
  // A game played out: "both" has nothing more to do.
  if (panels.machine === "both" && game && game.result) stopMachine("");
  $("machine-stop").hidden = panels.machine === "none";
  if (panels.busy || !panels.due) return;
  panels.due = false;
  if (!machineToMove()) return;
  if (panels.auto >= AUTO_LIMIT) return stopMachine(`stopped after ${AUTO_LIMIT} machine moves in a row`);
  // A short pause between the moves of a game the machine plays out, so it can be watched.
  setTimeout(machineStep, panels.machine === "both" ? 150 : 0);
}

async function machineStep() {
  if (panels.busy || !machineToMove()) return;
  const id = game.id;
  const engine = $("engine").value.trim() || "ab";
  panels.busy = true;
  $("thinking").textContent = `${engine} is thinking for ${game.side}…`;
  try {
    const s = await api("POST", `/api/games/${id}/engine`, { engine });
    panels.auto += 1;
    // Another game on the page meanwhile: the move was played in the old one, not shown.
    if (!game || game.id !== id) return;
    await show(s);
    const e = s.engine;
    $("thinking").textContent = `${e.engine} played ${e.move}` + (e.search ? `: ${e.search.summary}; line ${e.search.line.join(" ")}` : "");
  } catch (err) {
    $("thinking").textContent = "";
    message(err.message);
    stopMachine("");
  } finally {
    panels.busy = false;
    machineNext();
  }
}

// No more automatic moves (a search already asked for still ends and is shown).
function stopMachine(why) {
  panels.machine = "none";
  panels.due = false;
  $("machine-side").value = "none";
  $("machine-stop").hidden = true;
  if (why) $("thinking").textContent = why;
}

// ---- hint and analyse ----

async function analyse(lines) {
  const engine = $("engine").value.trim() || "ab";
  const at = game.position;
  $("analysis").textContent = `${engine} is analysing…`;
  try {
    const a = await api("POST", `/api/games/${game.id}/analyse`, { engine, lines });
    if (game.position !== at) return; // the game moved on meanwhile
    const capped = a.capped ? ` (capped to ${a.engine})` : "";
    showAnalysis(`${a.head}${capped}`, a.lines);
    const best = a.lines[0];
    panels.hint = best ? { position: at, move: best.move } : null;
    drawHint();
  } catch (e) {
    $("analysis").textContent = e.message;
  }
}

// The lines as a table: move, score for the side to move, depth, the line expected.
function showAnalysis(head, lines) {
  const box = $("analysis");
  box.innerHTML = "";
  box.appendChild(el("div", {}, head));
  const table = el("table");
  lines.forEach((l, i) => {
    const tr = el("tr");
    for (const t of [`${i + 1}.`, l.move, l.score, `d${l.depth}`, l.line.slice(0, 10).join(" ") + (l.line.length > 10 ? " …" : "")]) tr.appendChild(el("td", {}, t));
    table.appendChild(tr);
  });
  box.appendChild(table);
}

// The suggested move on the board: its start ringed, its landings and its second part dotted.
function drawHint() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const old = svg.querySelector("#hint-mark");
  if (old) old.remove();
  const m = panels.hint && game.legal.find((l) => l.text === panels.hint.move);
  if (!m) return;
  const g = document.createElementNS(SVG_NS, "g");
  g.setAttribute("id", "hint-mark");
  g.setAttribute("pointer-events", "none");
  const half = board.cell_side / 2;
  const cells = [m.from, ...m.landings, m.placed].filter((c) => c && board.cells[c]);
  const points = cells.filter((c) => c !== m.placed).map((c) => board.cells[c].join(","));
  if (points.length > 1) {
    const line = document.createElementNS(SVG_NS, "polyline");
    for (const [k, v] of [["points", points.join(" ")], ["fill", "none"], ["stroke", "#2f9e44"], ["stroke-width", 4], ["stroke-opacity", 0.7]]) line.setAttribute(k, v);
    g.appendChild(line);
  }
  for (const c of cells) {
    const [x, y] = board.cells[c];
    const mark = document.createElementNS(SVG_NS, "circle");
    const r = c === m.from ? half - 3 : half / 3;
    for (const [k, v] of [["cx", x], ["cy", y], ["r", r], ["fill", c === m.from ? "none" : "#2f9e44"], ["stroke", "#2f9e44"], ["stroke-width", 3], ["fill-opacity", 0.7]]) mark.setAttribute(k, v);
    g.appendChild(mark);
  }
  svg.appendChild(g);
}

// ---- the evaluation graph ----

async function refreshEvals() {
  const engine = $("evals-engine").value;
  const key = `${game.id} ${engine} ${game.history.concat(game.ahead).join(" ")}`;
  if (key !== panels.evalsKey) {
    panels.evalsKey = key;
    try {
      panels.evals = await api("GET", `/api/games/${game.id}/evals?engine=${encodeURIComponent(engine)}`);
    } catch (e) {
      // (Asked again at the next state shown: a busy server is not the end of the graph.)
      panels.evals = panels.evalsKey = null;
      $("evals").textContent = e.message;
      return;
    }
    if (key !== panels.evalsKey) return; // a newer line was asked for meanwhile
  }
  drawEvals();
}

// A small line chart: one point per ply, + up for the first player; click a point to go there.
function drawEvals() {
  const box = $("evals");
  box.innerHTML = "";
  const ev = panels.evals;
  if (!ev || ev.points.length < 2) return;
  const [w, h, pad] = [280, 90, 6];
  const n = ev.points.length;
  // Scores squashed into (-1, 1): a piece or two shows, a proven result is at the edge.
  const y = (u) => h / 2 - (h / 2 - pad) * Math.tanh(u / 4000);
  const x = (i) => pad + (i * (w - 2 * pad)) / (n - 1);
  const svg = document.createElementNS(SVG_NS, "svg");
  for (const [k, v] of [["viewBox", `0 0 ${w} ${h}`], ["width", w], ["height", h], ["role", "img"], ["aria-label", `evaluation for ${ev.for}`]]) svg.setAttribute(k, v);
  const add = (tag, attrs) => {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.appendChild(e);
    return e;
  };
  add("rect", { x: 0, y: 0, width: w, height: h, fill: "#fff", stroke: "#ccc" });
  add("line", { x1: 0, y1: h / 2, x2: w, y2: h / 2, stroke: "#bbb", "stroke-dasharray": "3 3" });
  const here = ev.points.findIndex((p) => p.ply === game.ply);
  if (here >= 0) add("line", { x1: x(here), y1: 0, x2: x(here), y2: h, stroke: "#ffd43b", "stroke-width": 3 });
  add("polyline", { points: ev.points.map((p, i) => `${x(i)},${y(p.units)}`).join(" "), fill: "none", stroke: "#1c5fa8", "stroke-width": 1.5 });
  ev.points.forEach((p, i) => {
    const dot = add("circle", { cx: x(i), cy: y(p.units), r: n > 120 ? 2 : 3, fill: i === here ? "#a61e1e" : "#1c5fa8", class: "eval-point", "data-ply": p.ply });
    const t = document.createElementNS(SVG_NS, "title");
    t.textContent = `ply ${p.ply}: ${p.score} for ${ev.for}`;
    dot.appendChild(t);
    dot.addEventListener("click", () => goto(p.ply));
  });
  box.appendChild(svg);
  if (!ev.complete) box.appendChild(el("div", { class: "note" }, "(the first plies only: the rest took too long)"));
}

// ---- downloads ----

function refreshDownloads() {
  const base = `${game.variant}-ply${game.ply}`;
  const q = flip ? "?flip=true" : "";
  for (const kind of ["svg", "png"]) {
    const a = $(`dl-${kind}`);
    a.href = `/api/games/${game.id}/${kind}${q}`;
    a.setAttribute("download", `${base}.${kind}`);
  }
}

// ---- game lines ----

async function refreshLines() {
  let data;
  try {
    data = await api("GET", `/api/games/${game.id}/lines`);
  } catch (e) {
    return;
  }
  const list = $("lines");
  list.innerHTML = "";
  $("lines-title").textContent = data.lines.length > 1 ? `lines kept: ${data.lines.length}` : "lines (one)";
  data.lines.forEach((l, i) => {
    const li = el("li");
    const moves = l.moves.length ? l.moves.map((t, j) => (j === l.cursor - 1 ? `[${t}]` : t)).join(" ") : "(no moves)";
    li.appendChild(el("span", {}, `${moves}${l.edit ? ` — ${l.edit}` : ""}`));
    if (i === data.current) li.className = "current";
    else {
      const b = el("button", { title: "make this line the current one" }, "go");
      b.addEventListener("click", () => act("lines/switch", { line: i }));
      li.appendChild(b);
    }
    list.appendChild(li);
  });
}

// ---- the variant's options ----

async function loadOptions(name) {
  panels.variant = name;
  const form = $("options");
  form.innerHTML = "";
  $("options-error").textContent = "";
  let v;
  try {
    v = await api("GET", `/api/variants/${encodeURIComponent(name)}`);
  } catch (e) {
    $("variant-about").textContent = e.message;
    return;
  }
  if (panels.variant !== name) return;
  $("variant-about").textContent = `${v.title}${v.description ? `: ${v.description}` : ""}`;
  for (const o of v.options) form.appendChild(optionField(o));
}

// One option: a chooser of its words, a box for a boolean, a number box for an integer.
function optionField(o) {
  const row = el("label", { class: "option", title: `${o.description} (allowed: ${o.allowed}; declared in ${o.declared_in})` });
  row.appendChild(el("span", {}, o.name));
  let input;
  if (o.kind === "bool") {
    input = el("input", { type: "checkbox" });
    input.checked = o.default === true;
  } else if (o.kind === "choice") {
    input = el("select");
    for (const w of o.values) input.appendChild(el("option", { value: w }, w));
    input.value = o.default;
  } else {
    input = el("input", { type: "number", step: 1, value: o.default, size: 8 });
  }
  input.dataset.option = o.name;
  input.dataset.default = String(o.default);
  row.appendChild(input);
  row.appendChild(el("small", {}, o.description));
  return row;
}

// A new game with the options changed from their defaults; the loader's reason when refused.
async function newWithOptions() {
  const set = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const v = input.type === "checkbox" ? String(input.checked) : input.value.trim();
    if (v !== input.dataset.default) set[input.dataset.option] = v;
  }
  const old = game && game.id;
  try {
    await show(await api("POST", "/api/games", { variant: panels.variant, set }));
    $("options-error").textContent = "";
    message("");
  } catch (e) {
    $("options-error").textContent = e.message;
    return;
  }
  if (old) api("DELETE", `/api/games/${old}`).catch(() => {});
}

panelsBuild();
