// The page of `territory serve`. It holds no rules: the server sends the picture, the
// legal moves as click sequences on the board ("paths"), scores, groups and the result;
// the page maps clicks to the move strings the server listed and sends them back.
"use strict";

const $ = (id) => document.getElementById(id);
let games = {};       // game -> parameter descriptions (from the engine)
let view = null;      // the server's view of the current game
let clicks = [];      // cells clicked so far for the move being entered
let busy = false;     // a request is under way

// --- talking to the server ------------------------------------------------------------

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

async function request(work) {
  // One request at a time; its error is shown under the board.
  if (busy) return;
  setBusy(true);
  $("message").textContent = "";
  try {
    await work();
  } catch (error) {
    $("message").textContent = error.message;
  } finally {
    setBusy(false);
  }
}

function setBusy(on) {
  busy = on;
  $("board").classList.toggle("busy", on);
  document.body.dataset.busy = on ? "1" : "0";
}

const sessionUrl = (what) => `/api/sessions/${view.id}${what ? "/" + what : ""}`;

async function show(next) {
  view = next;
  clicks = [];
  render();
  if (view.agent_to_move && !view.over) {
    $("status").textContent = "The agent is thinking…";
    show(await api(sessionUrl("agent"), {}));
  }
}

// --- new games ---------------------------------------------------------------------------

function paramInput(p) {
  const id = `param-${p.name}`;
  const label = document.createElement("label");
  label.title = `${p.help}; ${p.allowed}`;
  label.append(p.name.replace("_", " ") + " ");
  let input;
  if (p.kind === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = p.default;
  } else if (p.choices) {
    input = document.createElement("select");
    for (const c of p.choices) input.add(new Option(c, c, false, c === p.default));
  } else {
    input = document.createElement("input");
    input.type = "text";
    input.value = p.default === null ? "none" : String(p.default);
  }
  input.id = id;
  input.dataset.kind = p.kind;
  label.append(input);
  return label;
}

function showParams() {
  const box = $("params");
  box.innerHTML = "";
  for (const p of games[$("game").value]) box.append(paramInput(p));
}

function valueOf(kind, text) {
  // Form text to JSON by the parameter's kind; the engine checks the value itself.
  if (kind === "bool") return text === true || text === "true";
  if (text === "none" || text === "") return kind.includes("None") ? null : text;
  if (kind.startsWith("int") || kind.startsWith("half")) {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  return text;
}

function formParams() {
  const params = {};
  for (const p of games[$("game").value]) {
    const input = $(`param-${p.name}`);
    params[p.name] = valueOf(p.kind, p.kind === "bool" ? input.checked : input.value);
  }
  return params;
}

function players() {
  const mode = $("mode").value;
  return {
    mode: mode === "humans" ? "humans" : "agent",
    agent_seat: mode === "agent0" ? 0 : 1,
    strength: Number($("strength").value),
  };
}

function start(extra) {
  return request(async () => {
    await show(await api("/api/sessions", { game: $("game").value, params: formParams(), ...players(), ...extra }));
  });
}

// --- drawing the view -------------------------------------------------------------------

function render() {
  $("board").innerHTML = view.svg;
  $("board").querySelector("svg").addEventListener("click", onBoardClick);
  renderTargets();
  renderStatus();
  renderActions();
  renderScores();
  renderGroups();
  renderHistory();
  renderGraph(view.evaluations);
  $("picker").hidden = true;
  $("position").value = view.position;
  const link = permalink();
  $("permalink").href = link;
  history.replaceState(null, "", link);
}

function seatName(seat) {
  const who = view.mode === "agent" ? (seat === view.agent_seat ? "agent" : "you") : `player ${seat + 1}`;
  return `seat ${seat} (${view.colors[seat]}, ${who})`;
}

function renderStatus() {
  let text;
  const mover = view.over ? "" : seatName(view.to_move).replace("seat", "Seat");
  if (view.over) text = `Game over: ${view.reason}.`;
  else if (view.forced_pass) text = `${mover} has no move and must pass.`;
  else text = `${mover} to move.`;
  if (view.note) text = `${view.note[0].toUpperCase()}${view.note.slice(1)}. ${text}`;
  $("status").textContent = text;
  $("result").textContent = view.over ? view.reason : "";
  $("result").dataset.winner = view.over ? String(view.winner) : "";
  document.body.dataset.over = view.over ? "1" : "0";
  document.body.dataset.ply = String(view.history.length);
}

function pathsFrom(prefix) {
  return view.paths.filter((p) => prefix.every((c, i) => p.clicks[i] === c));
}

function nextTargets() {
  const next = new Set();
  for (const p of pathsFrom(clicks)) if (p.clicks.length > clicks.length) next.add(p.clicks[clicks.length]);
  return next;
}

function renderTargets() {
  // The picture highlights every cell of a legal move; show only the next click's.
  document.body.dataset.clicks = String(clicks.length);
  const next = view.agent_to_move ? new Set() : nextTargets();
  for (const h of $("board").querySelectorAll(".highlight")) {
    h.classList.toggle("off", !next.has(h.dataset.cell) && !clicks.includes(h.dataset.cell));
    h.classList.toggle("selected", clicks.includes(h.dataset.cell));
  }
}

function renderActions() {
  // Moves that touch no cell (the pie swap, a forced pass, Nume's komi choices).
  const box = $("actions");
  box.innerHTML = "";
  if (view.forced_pass && !view.agent_to_move) {
    const note = document.createElement("div");
    note.className = "forced";
    note.textContent = "No legal move: you must pass.";
    box.append(note);
  }
  if (view.agent_to_move) return;
  if (view.buttons.length > 8) {
    // Many such moves (Nume's komi choices): a list and one button.
    const list = document.createElement("select");
    list.id = "move-list";
    for (const move of view.buttons) list.add(new Option(move, move));
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Play";
    button.addEventListener("click", () => play(list.value));
    box.append(list, button);
    return;
  }
  for (const move of view.buttons) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = move;
    button.textContent = move === "swap" ? "Swap sides (pie rule)" : move === "pass" ? "Pass" : move;
    button.addEventListener("click", () => play(move));
    box.append(button);
  }
}

function renderScores() {
  const box = $("scores");
  box.innerHTML = "";
  for (const seat of [0, 1]) {
    const row = document.createElement("div");
    row.className = "seat" + (view.to_move === seat ? " to-move" : "");
    row.innerHTML = `<span></span><span id="score-${seat}"></span>`;
    row.firstChild.textContent = seatName(seat);
    row.lastChild.textContent = String(view.scores[seat]);
    box.append(row);
  }
}

function renderGroups() {
  // Groups by size and colour; Nume groups also show their prices.
  const colors = [...new Set(view.colors)];
  const bySize = new Map();
  for (const g of view.groups) {
    if (!bySize.has(g.size)) bySize.set(g.size, { counts: {}, prices: {} });
    const entry = bySize.get(g.size);
    entry.counts[g.color] = (entry.counts[g.color] || 0) + 1;
    if (g.price !== undefined) entry.prices[g.color] = (entry.prices[g.color] || 0) + g.price;
  }
  const nume = view.game === "nume";
  let html = `<table><tr><th>size</th>${colors.map((c) => `<th>${c}</th>`).join("")}</tr>`;
  for (const size of [...bySize.keys()].sort((a, b) => b - a)) {
    const e = bySize.get(size);
    const cell = (c) => (e.counts[c] || 0) + (nume && e.counts[c] ? ` (price ${e.prices[c]})` : "");
    html += `<tr><td>${size}</td>${colors.map((c) => `<td>${cell(c)}</td>`).join("")}</tr>`;
  }
  $("groups").innerHTML = html + "</table>";
}

function renderHistory() {
  const list = $("history");
  list.innerHTML = "";
  for (const move of view.history) {
    const item = document.createElement("li");
    item.textContent = move;
    if (move === "pass") item.className = "pass";
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

function renderGraph(points) {
  // The evaluation for seat 0 (+1 a sure win, -1 a sure loss) by ply.
  const w = 360, h = 120, n = Math.max(1, view.history.length);
  const x = (ply) => 10 + (ply / n) * (w - 20);
  const y = (v) => h / 2 - v * (h / 2 - 8);
  const line = points.map(([ply, v]) => `${x(ply).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  $("graph").innerHTML = `<svg viewBox="0 0 ${w} ${h}" class="evaluation">
    <rect width="${w}" height="${h}" fill="#fff" stroke="#ccc"/>
    <line x1="10" x2="${w - 10}" y1="${h / 2}" y2="${h / 2}" stroke="#999" stroke-dasharray="4 3"/>
    <text x="12" y="14" font-size="10" fill="#555">+1</text><text x="12" y="${h - 4}" font-size="10" fill="#555">-1</text>
    <polyline points="${line}" fill="none" stroke="#2b6cb0" stroke-width="2"/>
    ${points.map(([ply, v]) => `<circle class="point" data-ply="${ply}" cx="${x(ply).toFixed(1)}" cy="${y(v).toFixed(1)}" r="2.5" fill="#2b6cb0"/>`).join("")}
  </svg>`;
}

function permalink() {
  const q = new URLSearchParams({ game: view.game });
  for (const [k, v] of Object.entries(view.params)) q.set(k, v === null ? "none" : String(v));
  q.set("position", view.position);
  q.set("mode", view.mode === "humans" ? "humans" : `agent${view.agent_seat}`);
  q.set("strength", String(view.strength));
  return `/?${q}`;
}

// --- entering moves by clicks -------------------------------------------------------------

function cellOf(target) {
  const element = target.closest("[data-cell]:not(.border)");
  return element ? element.dataset.cell : null;
}

function onBoardClick(event) {
  if (busy || !view || view.over || view.agent_to_move) return;
  const cell = cellOf(event.target);
  if (!cell) return;
  $("message").textContent = "";
  if (clicks.length && clicks[clicks.length - 1] === cell) {
    clicks.pop(); // a second click on a chosen cell takes it back
  } else if (nextTargets().has(cell)) {
    clicks.push(cell);
  } else if (pathsFrom([cell]).length) {
    clicks = [cell]; // start again from this cell
  } else {
    $("message").textContent = `no legal move ${clicks.length ? "continues with" : "starts at"} ${cell}`;
    return;
  }
  $("picker").hidden = true;
  renderTargets();
  const done = view.paths.filter((p) => p.clicks.length === clicks.length && pathsFrom(clicks).includes(p));
  if (clicks.length && done.length && nextTargets().size === 0) {
    const path = done[0];
    if (path.move) play(path.move);
    else showPicker(clicks.slice());
  }
}

function showPicker(cells) {
  return request(async () => {
    const { choices } = await api(sessionUrl("choices"), { cells });
    const box = $("picker");
    box.innerHTML = `<div>${cells.join(" ")}: choose</div>`;
    for (const c of choices) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.move = c.move;
      button.title = c.move;
      button.innerHTML = c.svg || "";
      button.append(c.label);
      if (c.detail) {
        const detail = document.createElement("span");
        detail.className = "detail";
        detail.textContent = c.detail;
        button.append(detail);
      }
      button.addEventListener("click", () => play(c.move));
      box.append(button);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "cancel";
    cancel.textContent = "cancel";
    cancel.addEventListener("click", () => { clicks = []; box.hidden = true; renderTargets(); });
    box.append(cancel);
    box.hidden = false;
  });
}

// Agents up to this many iterations answer in the same request as your move.
const QUICK_AGENT = 1000;

function play(move) {
  const reply = view.mode === "agent" && view.strength <= QUICK_AGENT;
  return request(async () => { await show(await api(sessionUrl("move"), { move, reply })); });
}

// --- analysis ----------------------------------------------------------------------------

function valueText(v) {
  return (v >= 0 ? "+" : "") + v.toFixed(2);
}

function analyse() {
  return request(async () => {
    const a = await api(sessionUrl("analyse"), { iterations: Number($("iterations").value) });
    $("analysis-board").innerHTML = a.svg;
    let html = "<tr><th>move</th><th>visits</th><th>share</th><th>value</th></tr>";
    for (const m of a.moves) {
      html += `<tr><td>${m.move}</td><td>${m.visits}</td><td>${(100 * m.share).toFixed(1)}%</td><td>${valueText(m.value)}</td></tr>`;
    }
    $("analysis-moves").innerHTML = `<caption>value ${valueText(a.value)} for seat ${a.to_move}; best ${a.best}</caption>` + html;
    renderGraph(a.evaluations);
  });
}

function solve() {
  return request(async () => {
    const s = await api(sessionUrl("solve"), {});
    const words = { 1: "a win", 0: "a draw", "-1": "a loss" };
    $("solver").textContent = s.solved
      ? `Exact: ${words[s.value]} for seat ${s.to_move} with perfect play; best: ${s.best_moves.join(" ")} (${s.nodes} positions).`
      : `Solver: ${s.why}.`;
  });
}

function evaluateGame() {
  return request(async () => {
    const e = await api(sessionUrl("evaluate"), { iterations: 300 });
    view.evaluations = e.evaluations;
    renderGraph(e.evaluations);
  });
}

// --- records and positions ---------------------------------------------------------------

function loadRecord() {
  return request(async () => { await show(await api("/api/sessions", { record: $("record-text").value, ...players() })); });
}

async function saveRecord() {
  if (!view) return;
  const text = await (await fetch(sessionUrl("record"))).text();
  $("record-text").value = text;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = `${view.game}-${view.history.length}.txt`;
  a.click();
}

function loadPosition() {
  return start({ position: $("position").value.trim() });
}

// --- start-up ----------------------------------------------------------------------------

function fromUrl() {
  // A link made by permalink(): the game, its parameters, the position and the players.
  const q = new URLSearchParams(location.search);
  const game = q.get("game");
  if (!game || !games[game]) return false;
  $("game").value = game;
  showParams();
  for (const p of games[game]) {
    if (!q.has(p.name)) continue;
    const input = $(`param-${p.name}`);
    if (p.kind === "bool") input.checked = q.get(p.name) === "true";
    else input.value = q.get(p.name);
  }
  if (q.has("mode")) $("mode").value = q.get("mode");
  if (q.has("strength")) $("strength").value = q.get("strength");
  start(q.has("position") ? { position: q.get("position") } : {});
  return true;
}

async function init() {
  const info = await api("/api/games");
  games = info.games;
  for (const name of Object.keys(games)) $("game").add(new Option(name, name));
  for (const [level, iterations] of Object.entries(info.strengths)) {
    $("strength").add(new Option(`${level}: ${iterations} iterations per move`, iterations, false, level === "2"));
  }
  $("game").addEventListener("change", showParams);
  $("new-game").addEventListener("submit", (e) => { e.preventDefault(); start({}); });
  $("undo").addEventListener("click", () => view && request(async () => show(await api(sessionUrl("undo"), {}))));
  $("analyse").addEventListener("click", () => view && analyse());
  $("solve").addEventListener("click", () => view && solve());
  $("evaluate").addEventListener("click", () => view && evaluateGame());
  $("load-record").addEventListener("click", loadRecord);
  $("save-record").addEventListener("click", saveRecord);
  $("load-position").addEventListener("click", loadPosition);
  showParams();
  if (!fromUrl()) document.body.dataset.ready = "1";
}

init().then(() => { document.body.dataset.ready = "1"; }, (e) => { $("message").textContent = e.message; });
