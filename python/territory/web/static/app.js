// The page of `territory serve`. It holds no rules: the server sends the picture, the
// legal moves as click sequences on the board ("paths"), scores, groups, the result and
// the game tree's line; the page maps clicks to the move strings the server listed and
// sends them back.
"use strict";

const $ = (id) => document.getElementById(id);
let games = {};       // game -> parameter descriptions (from the engine)
let info = {};        // /api/games: strengths, max_iterations
let view = null;      // the server's view of the current game
let clicks = [];      // cells clicked so far for the move being entered
let busy = false;     // a request is under way
let analysis = null;  // the analysis shown or running: {node, ply, result, running, controller, ...}
let solved = null;    // the solver's answer for {node}
let preview = null;   // the candidate move previewed on the board (hovered in the table)

// --- talking to the server ------------------------------------------------------------

class ApiError extends Error {}

async function api(path, body, signal) {
  const options = body === undefined ? { signal } : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal,
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new ApiError(data.error || `error ${response.status}`);
  return data;
}

async function request(work, errorBox = "message") {
  // One request at a time; its error is shown beside what it is about.
  if (busy) return;
  setBusy(true);
  clearErrors();
  try {
    await work();
  } catch (error) {
    showError(errorBox, error.message);
  } finally {
    setBusy(false);
  }
}

function showError(box, text) {
  const element = typeof box === "string" ? $(box) : box;
  element.textContent = text ? text[0].toUpperCase() + text.slice(1) : "";
}

function clearErrors() {
  for (const element of document.querySelectorAll(".field-error, #message")) element.textContent = "";
}

function setBusy(on) {
  busy = on;
  $("board").classList.toggle("busy", on);
  document.body.dataset.busy = on ? "1" : "0";
}

const sessionUrl = (what) => `/api/sessions/${view.id}${what ? "/" + what : ""}`;

async function show(next, { agent = false } = {}) {
  // ``agent``: after a move or a new game, the agent answers if it is its turn (not when
  // stepping through the game: there it waits to be asked).
  const moved = !view || view.id !== next.id || view.node !== next.node;
  if (!view || view.id !== next.id) syncForm(next);
  view = next;
  clicks = [];
  preview = null;
  render();
  if (moved) positionChanged();
  follow();
  renderSaved().catch(() => {});
  if (agent && view.agent_to_move && !view.over) agentMove();  // not awaited: the page stays usable
  renderThinking();
}

let thinking = null;  // the agent's search under way: {since, node, id, report (the server's)}

async function agentMove() {
  // The agent searches on the server; meanwhile the player can step through the game
  // (its move goes below the position it searched, shown if that is still the one shown)
  // and the page shows what the search has reported: simulations done, best move so far.
  if (thinking) return;
  thinking = { since: Date.now(), node: view.node, id: view.id, report: null };
  const mine = thinking;
  const timer = setInterval(async () => {
    renderThinking();
    if (mine.asking) return;
    mine.asking = true;
    try {
      const { thinking: report } = await api(`/api/sessions/${mine.id}/thinking`);
      if (thinking === mine && report) { mine.report = report; renderThinking(); }
    } catch (error) { /* the next tick asks again */ } finally { mine.asking = false; }
  }, 250);
  renderThinking();
  renderActions();
  try {
    const next = await api(`/api/sessions/${thinking.id}/agent`, {});
    if (view.id === thinking.id) {
      thinking = null;
      await show(next, { agent: true });
    }
  } catch (error) {
    showError("message", error.message);
  } finally {
    clearInterval(timer);
    thinking = null;
    renderThinking();
    if (view) renderActions();
  }
}

function renderThinking() {
  document.body.dataset.thinking = thinking ? "1" : "0";
  const box = $("thinking");
  if (!thinking || !view) { box.textContent = ""; return; }
  const r = thinking.report;
  const seconds = ((Date.now() - thinking.since) / 1000).toFixed(1);
  const where = thinking.node === view.node ? "" : " (on the position you left)";
  if (!box.querySelector("span")) {
    box.innerHTML = "<span></span> ";
    box.append(button("Move now", moveNow, { id: "move-now", title: "the agent stops thinking and plays the best move it has found" }));
  }
  let text = `The agent is thinking${where}… ${seconds} s`;
  if (r) {
    text += `: ${r.done.toLocaleString("en")} of ${r.of.toLocaleString("en")} ${r.unit}`;
    if (r.best) text += `, best so far ${r.best} (${valueText(r.value)} for it)`;
    if (r.finishing) text += ", moving now";
  } else {
    text += `, ${view.agent_label || ""}`;
  }
  box.querySelector("span").textContent = text;
  box.dataset.done = r ? String(r.done) : "0";
}

async function moveNow() {
  if (!thinking) return;
  try { await api(`/api/sessions/${thinking.id}/agent/now`, {}); } catch (error) { /* it had just moved */ }
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
  const error = document.createElement("div");
  error.className = "field-error";
  error.id = `${id}-error`;
  error.setAttribute("role", "alert");
  label.append(error);
  return label;
}

function showParams() {
  const box = $("params");
  box.innerHTML = "";
  for (const p of games[$("game").value]) box.append(paramInput(p));
}

function valueOf(kind, text) {
  // Form text to JSON by the parameter's kind; the engine checks the value itself (text
  // that is not a number is sent as typed, so that the message quotes it).
  if (kind === "bool") return text === true || text === "true";
  if (text === "none" || text === "") return kind.includes("None") ? null : text;
  if (kind.startsWith("int") || kind.startsWith("half")) {
    const n = Number(text);
    return text.trim() !== "" && Number.isFinite(n) ? n : text;
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
    agent: $("agent").value,
    strength: Number($("strength").value),
  };
}

function showStrengths() {
  // The agent's strengths: UCT iterations or the learned model's simulations per move.
  const model = $("agent").value === "puct", chosen = $("strength").selectedIndex;
  const levels = model ? info.model_strengths : info.strengths, unit = model ? "simulations" : "iterations";
  $("strength").innerHTML = "";
  for (const [level, n] of Object.entries(levels)) {
    $("strength").add(new Option(`${level}: ${n.toLocaleString("en")} ${unit} per move`, n, false, level === "2"));
  }
  if (chosen >= 0 && chosen < $("strength").options.length && showStrengths.done) $("strength").selectedIndex = chosen;
  showStrengths.done = true;
  $("agent-note").textContent = model ? `The learned models play ${info.models}.` : "";
}

function paramError(text) {
  // The engine's message names the parameter: shown under that field.
  for (const p of games[$("game").value] || []) {
    if (new RegExp(`\\b${p.name}\\b`).test(text)) return $(`param-${p.name}-error`);
  }
  return $("message");
}

function syncForm(next) {
  // The form shows the game opened (a record, a link), to start another like it.
  if ($("game").value !== next.game) { $("game").value = next.game; showParams(); }
  for (const p of games[next.game]) {
    const input = $(`param-${p.name}`), value = next.params[p.name];
    if (input && value !== undefined) {
      if (p.kind === "bool") input.checked = value;
      else input.value = value === null ? "none" : String(value);
    }
  }
}

function start(extra, errorBox) {
  return request(async () => {
    try {
      await show(await api("/api/sessions", { game: $("game").value, params: formParams(), ...players(), ...extra }), { agent: true });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      showError(errorBox || paramError(error.message), error.message);
    }
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
  renderGraph();
  renderDeciding();
  renderAnalysis();
  $("picker").hidden = true;
  $("position").value = view.position;
  $("permalink").href = permalink();
  const link = gameLink();
  $("game-link").href = link;
  if (document.activeElement !== $("game-name")) $("game-name").value = view.name;
  history.replaceState(null, "", link);
}

const capital = (text) => text[0].toUpperCase() + text.slice(1);

function renderStatus() {
  let text;
  const mover = view.names[view.to_move];
  if (view.over) text = view.headline ? `${view.headline}: ${view.reason}.` : `${capital(view.reason)}.`;
  else if (view.forced_pass) text = `${mover} has no move and must pass.`;
  else text = `${mover} to move.`;
  if (view.note) text = `${capital(view.note)}. ${text}`;
  $("status").textContent = text;
  $("result").textContent = view.over ? (view.headline ? `${view.headline}. ` : "") + capital(view.reason) + "." : "";
  $("result").classList.toggle("lost", view.headline === "You lose");
  $("result").dataset.winner = view.over ? String(view.winner) : "";
  $("ply-label").textContent = `move ${view.ply} of ${view.line.length}`;
  document.body.dataset.over = view.over ? "1" : "0";
  document.body.dataset.ply = String(view.ply);
  document.body.dataset.node = String(view.node);
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

function button(text, onClick, attrs = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
  b.addEventListener("click", onClick);
  return b;
}

function renderActions() {
  // Moves that touch no cell (the pie swap, a forced pass, Nume's komi choices).
  const box = $("actions");
  box.innerHTML = "";
  if (view.over) return;
  if (view.agent_to_move) {
    // Stepped back to a position where the agent is to move: it waits to be asked.
    // (Not while it thinks, asked here or from another page following the game.)
    if (!thinking && !view.thinking) box.append(button("Let the agent move", agentMove, { id: "agent-move" }));
    return;
  }
  if (view.forced_pass) {
    const note = document.createElement("div");
    note.className = "forced";
    note.textContent = "No legal move: you must pass.";
    box.append(note);
  }
  if (view.buttons.length > 8) {
    // Many such moves (Nume's komi choices): a list and one button.
    const list = document.createElement("select");
    list.id = "move-list";
    for (const move of view.buttons) list.add(new Option(move, move));
    box.append(list, button("Play", () => play(list.value)));
    return;
  }
  for (const move of view.buttons) {
    const text = move === "swap" ? "Swap sides (pie rule)" : move === "pass" ? "Pass" : move;
    box.append(button(text, () => play(move), { "data-move": move }));
  }
}

function renderScores() {
  const box = $("scores");
  box.innerHTML = "";
  for (const seat of [0, 1]) {
    const row = document.createElement("div");
    row.className = "seat" + (view.to_move === seat && !view.over ? " to-move" : "");
    row.innerHTML = `<span></span><span id="score-${seat}"></span>`;
    row.firstChild.textContent = view.names[seat];
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
  // The line shown: moves up to the current one, then the ones ahead (greyed); each
  // coloured by the seat that played it; the other moves tried at the same point
  // (variations) beside it.
  const list = $("history");
  list.innerHTML = "";
  view.line.forEach((entry, i) => {
    const item = document.createElement("li");
    item.className = `seat-${entry.seat}` + (entry.node === view.node ? " current" : "") + (i >= view.ply ? " ahead" : "");
    if (entry.move === "pass") item.classList.add("pass");
    item.dataset.move = entry.move;
    item.dataset.node = String(entry.node);
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = `${i + 1}.`;
    const move = button(entry.move, () => goto(entry.node), { class: "move", title: `${view.names[entry.seat]}: ${entry.move}` });
    item.append(number, move);
    if (entry.others.length) {
      const others = document.createElement("span");
      others.className = "others";
      others.append("or ");
      for (const o of entry.others) others.append(button(o.move, () => goto(o.node), { "data-node": String(o.node), class: "variation" }));
      item.append(others);
    }
    list.append(item);
  });
  const current = list.querySelector("li.current");
  if (current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  else list.scrollTop = 0;
}

function viewer() {
  // The side the graph and values are shown for: yours against the agent, else seat 0.
  return view.mode === "agent" ? 1 - view.agent_seat : 0;
}

function renderGraph() {
  // The evaluation by ply for the viewer (+1 a sure win), with a ply axis, the current
  // move marked, a hover readout, a click to jump, and the biggest swings flagged.
  const seat = viewer(), sign = seat === 0 ? 1 : -1;
  const points = view.evaluations.map(([ply, v]) => [ply, sign * v]);
  $("graph-title").textContent = `Evaluation for ${view.names[seat]}`;
  const w = 400, h = 140, left = 26, right = 8, top = 8, bottom = 22, n = Math.max(1, view.line.length);
  const x = (ply) => left + (ply / n) * (w - left - right);
  const y = (v) => top + (1 - v) / 2 * (h - top - bottom);
  const line = points.map(([ply, v]) => `${x(ply).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const step = n <= 10 ? 1 : n <= 50 ? 5 : n <= 100 ? 10 : n <= 250 ? 25 : 50;
  let ticks = "";
  for (let ply = 0; ply <= n; ply += step) {
    ticks += `<line x1="${x(ply)}" x2="${x(ply)}" y1="${h - bottom}" y2="${h - bottom + 3}" stroke="#666"/>` +
      `<text x="${x(ply)}" y="${h - 6}" font-size="9" text-anchor="middle" fill="#444">${ply}</text>`;
  }
  // Swings: the largest drops for the player who moved, over 0.3.
  const swings = [];
  for (let i = 1; i < points.length; i++) {
    const [ply, v] = points[i], [prev, pv] = points[i - 1];
    if (ply !== prev + 1) continue;
    const mover = view.line[ply - 1].seat;
    const drop = (mover === seat ? 1 : -1) * (pv - v);
    if (drop > 0.3) swings.push({ ply, drop, mover });
  }
  swings.sort((a, b) => b.drop - a.drop);
  const flagged = swings.slice(0, 3);
  let bars = "";
  for (let ply = 0; ply <= view.line.length; ply++) {
    const found = points.find(([p]) => p === ply);
    const value = found ? ` ${valueText(found[1])}` : " (not evaluated)";
    const label = ply === 0 ? "start" : `${ply}. ${view.line[ply - 1].move}`;
    bars += `<rect class="bar" data-ply="${ply}" x="${x(ply) - (w - left - right) / n / 2}" y="${top}" width="${(w - left - right) / n}" height="${h - top - bottom}"><title>${label}:${value}</title></rect>`;
  }
  $("graph").innerHTML = `<svg viewBox="0 0 ${w} ${h}" class="evaluation" role="img" aria-label="evaluation graph">
    <rect x="${left}" y="${top}" width="${w - left - right}" height="${h - top - bottom}" fill="#fff" stroke="#ccc"/>
    <line x1="${left}" x2="${w - right}" y1="${y(0)}" y2="${y(0)}" stroke="#999" stroke-dasharray="4 3"/>
    <text x="${left - 3}" y="${y(1) + 8}" font-size="9" text-anchor="end" fill="#444">+1</text>
    <text x="${left - 3}" y="${y(0) + 3}" font-size="9" text-anchor="end" fill="#444">0</text>
    <text x="${left - 3}" y="${y(-1)}" font-size="9" text-anchor="end" fill="#444">-1</text>
    ${ticks}
    <line class="current-ply" x1="${x(view.ply)}" x2="${x(view.ply)}" y1="${top}" y2="${h - bottom}" stroke="#2b6cb0" stroke-width="2"/>
    <polyline points="${line}" fill="none" stroke="#2d3748" stroke-width="2"/>
    ${points.map(([ply, v]) => `<circle class="point" data-ply="${ply}" cx="${x(ply).toFixed(1)}" cy="${y(v).toFixed(1)}" r="2.5" fill="#2d3748"/>`).join("")}
    ${flagged.map((s) => `<circle class="swing" data-ply="${s.ply}" cx="${x(s.ply).toFixed(1)}" cy="${y(points.find(([p]) => p === s.ply)[1]).toFixed(1)}" r="5" fill="none" stroke="#c53030" stroke-width="2"/>`).join("")}
    ${bars}
  </svg><div id="graph-hover"></div><div id="swings"></div>`;
  const svg = $("graph").querySelector("svg");
  for (const bar of svg.querySelectorAll(".bar")) {
    const ply = Number(bar.dataset.ply);
    bar.addEventListener("click", () => goto(ply === 0 ? 0 : view.line[ply - 1].node));
    bar.addEventListener("mouseenter", () => { $("graph-hover").textContent = bar.querySelector("title").textContent; });
  }
  $("swings").textContent = flagged.length
    ? "Biggest swings: " + flagged.map((s) => `${s.ply}. ${view.line[s.ply - 1].move} (${view.names[s.mover]}, -${s.drop.toFixed(2)})`).join("; ")
    : "";
}

function renderDeciding() {
  // At the end, the groups the result turned on, outlined on the board.
  for (const g of view.deciding) for (const cell of g.cells) outline(cell, "decisive");
}

function cellCentre(cell) {
  const element = $("board").querySelector(`.cell[data-cell="${cell}"]`);
  if (!element) return null;
  const box = element.getBBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, r: Math.min(box.width, box.height) / 2 };
}

function layer(name) {
  const svg = $("board").querySelector("svg");
  let g = svg.querySelector(`g.${name}`);
  if (!g) {
    g = document.createElementNS(svg.namespaceURI, "g");
    g.setAttribute("class", name);
    svg.append(g);
  }
  return g;
}

function shape(parent, tag, attrs, text) {
  const element = document.createElementNS(parent.namespaceURI, tag);
  for (const [k, v] of Object.entries(attrs)) element.setAttribute(k, v);
  if (text !== undefined) element.textContent = text;
  parent.append(element);
  return element;
}

function outline(cell, cls) {
  const c = cellCentre(cell);
  if (c) shape(layer("candidates"), "circle", { class: cls, "data-cell": cell, cx: c.x, cy: c.y, r: c.r * 0.8 });
}

function permalink() {
  const q = new URLSearchParams({ game: view.game });
  for (const [k, v] of Object.entries(view.params)) q.set(k, v === null ? "none" : String(v));
  q.set("position", view.position);
  q.set("mode", view.mode === "humans" ? "humans" : `agent${view.agent_seat}`);
  q.set("agent", view.agent);
  q.set("strength", String(view.strength));
  return `/?${q}`;
}

function gameLink() {
  // The whole game (its tree, kept by the server) at the move shown.
  return `/?${new URLSearchParams({ game_id: view.id, node: String(view.node) })}`;
}

// --- games kept --------------------------------------------------------------------------

async function renderSaved() {
  const { games: kept, kept: keeping } = await api("/api/saved");
  $("saved-where").textContent = keeping ? "" : "(this server keeps no games)";
  const list = $("saved");
  list.innerHTML = "";
  for (const g of kept) {
    const item = document.createElement("li");
    item.dataset.id = g.id;
    if (view && g.id === view.id) item.className = "current";
    const when = document.createElement("span");
    when.className = "when";
    when.textContent = `${g.game}, ${g.moves} moves, ${new Date(g.updated * 1000).toLocaleString("en-GB")}`;
    item.append(
      button(g.name, () => openGame(g.id), { class: "open", title: "open this game" }), when,
      button("delete", () => deleteGame(g), { class: "delete" }),
    );
    list.append(item);
  }
}

function openGame(id, node) {
  return request(async () => {
    let next = await api(`/api/sessions/${id}`);
    if (node !== undefined && node !== next.node) {
      next = await api(`/api/sessions/${id}/goto`, { node });
    }
    await show(next);
  });
}

function deleteGame(g) {
  if (!confirm(`Delete "${g.name}"? It cannot be brought back.`)) return;
  return request(async () => {
    await api(`/api/sessions/${g.id}/delete`, {});
    await renderSaved();
  });
}

function renameGame() {
  if (!view) return;
  return request(async () => {
    try {
      await show(await api(sessionUrl("rename"), { name: $("game-name").value }));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      showError("game-name-error", error.message);
    }
  });
}

// --- following a game live (server-sent events) --------------------------------------------

let events = null;

function follow() {
  // Every change of this game, made here or in another browser, is announced; the page
  // then fetches the view (unless it made the change itself).
  if (events && events.gameId === view.id) return;
  if (events) events.close();
  events = new EventSource(sessionUrl("events"));
  events.gameId = view.id;
  events.onopen = () => { $("live").textContent = "live"; };
  events.onerror = () => { $("live").textContent = ""; };
  events.onmessage = async (message) => {
    const version = Number(message.data);
    if (!view || version === view.version || busy || events.gameId !== view.id) return;
    try {
      const next = await api(sessionUrl());
      if (next.version !== view.version) await show(next);
    } catch (error) { /* the next announcement tries again */ }
  };
}

// --- stepping through the game ------------------------------------------------------------

function goto(node) {
  if (!view || node === undefined || node === view.node) return;
  return request(async () => { await show(await api(sessionUrl("goto"), { node })); });
}

const NAV = {
  first: () => 0,
  back: () => (view.ply <= 1 ? 0 : view.line[view.ply - 2].node),
  forward: () => view.line[view.ply] && view.line[view.ply].node,
  last: () => (view.line.length ? view.line[view.line.length - 1].node : 0),
};
const KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };

function onKey(event) {
  if (!view || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, textarea, select")) return;
  if (KEYS[event.key]) {
    event.preventDefault();
    goto(NAV[KEYS[event.key]]());
  } else if (event.key === "a") {
    event.preventDefault();
    analysis && analysis.running ? stopAnalysis() : startAnalysis();
  }
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
    $("message").textContent = `No legal move ${clicks.length ? "continues with" : "starts at"} ${cell}`;
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
      const b = button("", () => play(c.move), { "data-move": c.move, title: c.move });
      b.innerHTML = c.svg || "";
      b.append(c.label);
      if (c.detail) {
        const detail = document.createElement("span");
        detail.className = "detail";
        detail.textContent = c.detail;
        b.append(detail);
      }
      box.append(b);
    }
    box.append(button("cancel", () => { clicks = []; box.hidden = true; renderTargets(); }, { class: "cancel" }));
    box.hidden = false;
  });
}

// Agents up to this many iterations answer in the same request as your move.
const QUICK_AGENT = 1000;

function play(move) {
  const reply = view.mode === "agent" && view.strength <= QUICK_AGENT;
  return request(async () => { await show(await api(sessionUrl("move"), { move, reply }), { agent: true }); });
}

// --- analysis ----------------------------------------------------------------------------

function valueText(v) {
  // A value the agent does not give (the learned model's per-move values): a dash.
  if (v === null || v === undefined) return "–";
  return (v >= 0 ? "+" : "") + v.toFixed(2);
}

function iterationsLimit() {
  // The typed text as a whole number, or the text itself (the server's message quotes it).
  const text = $("iterations").value.trim();
  return /^\d+$/.test(text) ? Number(text) : text;
}

function positionChanged() {
  // A running analysis follows the position; a finished one is cleared (it was for
  // another position); so is the solver's answer.
  solved = null;
  $("solver").textContent = "";
  if (analysis && analysis.running) startAnalysis();
  else if (analysis && analysis.node !== view.node) { analysis = null; renderAnalysis(); }
}

function stopAnalysis() {
  if (!analysis || !analysis.running) return;
  analysis.running = false;
  analysis.stopped = true;
  if (analysis.controller) analysis.controller.abort();
  renderAnalysis();
}

async function startAnalysis() {
  // Searches of 500, 1,000, 2,000, ... iterations up to the limit, each shown as it comes:
  // the count grows until the limit or Stop (which also stops the server's search).
  if (!view) return;
  stopAnalysis();
  $("iterations-error").textContent = "";
  let limit = iterationsLimit();
  const mine = { node: view.node, ply: view.ply, result: null, running: true, iterations: 0 };
  analysis = mine;
  renderAnalysis();
  if (view.over) { mine.running = false; renderAnalysis(); return; }
  solveQuietly(mine);
  // The learned model's searches are bounded lower (the server says how far).
  const agent = view.model ? $("analysis-agent").value : "uct";
  mine.agent = agent;
  if (agent === "puct" && typeof limit === "number") limit = Math.min(limit, info.max_simulations);
  let n = typeof limit === "number" ? Math.min(500, limit) : limit;
  while (mine.running) {
    mine.controller = new AbortController();
    try {
      mine.result = await api(sessionUrl("analyse"), { iterations: n, agent }, mine.controller.signal);
    } catch (error) {
      if (analysis === mine && mine.running) {
        mine.running = false;
        if (error instanceof ApiError && /iterations/.test(error.message)) {
          showError("iterations-error", error.message);
          analysis = null;
        }
        else showError("message", error.message);
      }
      break;
    }
    if (analysis !== mine) return;
    mine.iterations = mine.result.iterations;
    view.evaluations = mine.result.evaluations;
    renderGraph();
    if (n >= limit) mine.running = false;
    n = Math.min(limit, n * 2);
    renderAnalysis();
  }
  if (analysis === mine) renderAnalysis();
}

async function solveQuietly(mine) {
  // The exact solver beside the analysis, where the board is small enough.
  try {
    const s = await api(sessionUrl("solve"), {});
    if (analysis === mine && s.solved) { solved = { node: mine.node, ...s }; renderSolver(); }
  } catch (error) { /* too slow or gone: the analysis says enough */ }
}

function renderSolver() {
  if (!solved || solved.node !== view.node) return;
  const s = solved;
  if (!s.solved) { $("solver").textContent = `Solver: ${s.why}.`; return; }
  const words = { 1: "a win", 0: "a draw", "-1": "a loss" };
  $("solver").textContent = `Exact: ${words[s.value]} for ${view.names[s.to_move]} with perfect play; ` +
    `best: ${s.best_moves.join(", ")}; line: ${s.line.join(", ")} (${s.nodes.toLocaleString("en")} positions).`;
}

function solve() {
  return request(async () => {
    solved = { node: view.node, ...(await api(sessionUrl("solve"), {})) };
    renderSolver();
  });
}

function renderAnalysis() {
  const a = analysis;
  $("analyse").hidden = !!(a && a.running);
  $("stop").hidden = !(a && a.running);
  document.body.dataset.analysing = a && a.running ? "1" : "0";
  const layerOld = $("board").querySelector("g.candidates");
  if (layerOld) for (const m of layerOld.querySelectorAll(".candidate, .candidate-link, .candidate-text")) m.remove();
  $("analysis-agent-box").hidden = !view.model;
  if (!a || a.node !== view.node) {
    $("analysis-ply").textContent = "";
    $("analysis-count").textContent = "";
    $("analysis-moves").innerHTML = "";
    renderOwnership();
    return;
  }
  $("analysis-ply").textContent = `(move ${a.ply})`;
  const unit = a.agent === "puct" ? "simulations of the learned model" : "iterations";
  $("analysis-count").textContent = a.iterations
    ? `${a.iterations.toLocaleString("en")} ${unit}${a.running ? ", searching…" : a.stopped ? ", stopped" : ""}`
    : a.running ? "searching…" : "";
  document.body.dataset.analysisIterations = String(a.iterations);
  if (!a.result) { $("analysis-moves").innerHTML = ""; renderOwnership(); return; }
  const r = a.result;
  let html = `<caption>After move ${a.ply}: ${valueText(r.value)} for ${view.names[r.to_move]}</caption>` +
    "<tr><th>move</th><th>visits</th><th>share</th><th>value</th></tr>";
  for (const m of r.moves) {
    html += `<tr class="row-move" data-move="${m.move}"><td>${m.move}</td><td>${m.visits.toLocaleString("en")}</td>` +
      `<td>${(100 * m.share).toFixed(1)}%</td><td>${valueText(m.value)}</td></tr>`;
  }
  $("analysis-moves").innerHTML = html;
  for (const row of $("analysis-moves").querySelectorAll("tr.row-move")) {
    row.addEventListener("mouseenter", () => { preview = row.dataset.move; drawCandidates(); });
    row.addEventListener("mouseleave", () => { preview = null; drawCandidates(); });
  }
  renderOwnership();
  drawCandidates();
}

function renderOwnership() {
  // Where the agent predicts them: who holds each cell at the end (a square of the
  // holder's colour, the surer the more opaque) and the final score margin. Absent:
  // nothing drawn.
  const old = $("board").querySelector("g.ownership");
  if (old) old.remove();
  const a = analysis, r = a && a.node === view.node ? a.result : null;
  const owned = r && r.ownership && Object.keys(r.ownership).length ? r.ownership : null;
  const margin = r && typeof r.margin === "number" ? r.margin : null;
  $("ownership-box").hidden = !owned && margin === null;
  $("show-ownership").parentElement.hidden = !owned;
  $("margin").textContent = margin === null ? "" :
    `Predicted margin: ${margin >= 0 ? "+" : ""}${margin.toFixed(1)} points for ${view.names[r.to_move]}`;
  document.body.dataset.ownership = owned ? String(Object.keys(owned).length) : "0";
  if (!owned || !$("show-ownership").checked) return;
  const svg = $("board").querySelector("svg");
  const g = document.createElementNS(svg.namespaceURI, "g");
  g.setAttribute("class", "ownership");
  const candidates = svg.querySelector("g.candidates");
  if (candidates) svg.insertBefore(g, candidates); else svg.append(g);
  for (const [cell, v] of Object.entries(owned)) {
    const c = cellCentre(cell);
    if (!c || Math.abs(v) < 0.05) continue;
    // +1: the player to move holds it; -1: the other seat.
    const seat = v > 0 ? r.to_move : 1 - r.to_move, side = c.r * 0.55;
    shape(g, "rect", {
      class: "owner", "data-cell": cell, "data-value": v.toFixed(3), "data-seat": String(seat),
      x: c.x - side / 2, y: c.y - side / 2, width: side, height: side,
      fill: view.colors[seat], "fill-opacity": (0.25 + 0.65 * Math.abs(v)).toFixed(3),
    });
  }
}

// Candidates marked on the board; the best LABELLED carry their visits and value.
const MARKED = 6, LABELLED = 3;

function drawCandidates() {
  const g = layer("candidates");
  for (const m of g.querySelectorAll(".candidate, .candidate-link, .candidate-text")) m.remove();
  const a = analysis;
  if (!a || !a.result || a.node !== view.node) return;
  const moves = a.result.moves.filter((m) => m.visits > 0 && m.cells.length);
  const shown = moves.slice(0, MARKED);
  const hovered = preview && moves.find((m) => m.move === preview);
  if (hovered && !shown.includes(hovered)) shown.push(hovered);
  const taken = new Set();
  // Drawn worst first, so that the best are on top.
  for (const [rank, m] of [...shown.entries()].reverse()) {
    const centres = m.cells.map(cellCentre).filter(Boolean);
    const cls = "candidate" + (rank === 0 ? " best" : "") + (m.move === preview ? " preview" : "");
    if (centres.length === 2) {
      shape(g, "line", { class: "candidate-link", "data-move": m.move, x1: centres[0].x, y1: centres[0].y, x2: centres[1].x, y2: centres[1].y });
    }
    for (const c of centres) shape(g, "circle", { class: cls, "data-move": m.move, cx: c.x, cy: c.y, r: c.r * 0.62 });
  }
  for (const [rank, m] of shown.entries()) {
    const c = cellCentre(m.cells[0]);
    if (!c || (taken.has(m.cells[0]) && m.move !== preview)) continue;
    taken.add(m.cells[0]);
    const size = c.r * (m.label && m.label.length > 2 ? 0.26 : 0.3);
    const lines = [m.label || `${rank + 1}`];
    if (rank < LABELLED || m.move === preview) lines.push(`${Math.round(100 * m.share)}%`, valueText(m.value));
    lines.forEach((text, i) => {
      shape(g, "text", {
        class: "candidate-text", "data-move": m.move, x: c.x, "text-anchor": "middle", "font-size": size,
        y: c.y + (i - (lines.length - 1) / 2) * size * 1.05 + size * 0.35,
      }, text);
    });
  }
}

function evaluateGame() {
  return request(async () => {
    const e = await api(sessionUrl("evaluate"), { iterations: 300 });
    view.evaluations = e.evaluations;
    renderGraph();
  });
}

// --- records and positions ---------------------------------------------------------------

async function loadRecordFile() {
  const file = $("record-file").files[0];
  if (!file) return;
  if (file.size > 200000) { showError("record-error", `${file.name} is too large for a record (${file.size} bytes, at most 200,000)`); return; }
  $("record-text").value = await file.text();
  $("record-file").value = "";
  return loadRecord();
}

function loadRecord() {
  return request(async () => {
    try {
      await show(await api("/api/sessions", { record: $("record-text").value, ...players() }), { agent: true });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      showError("record-error", error.message);
    }
  });
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
  return start({ position: $("position").value.trim() }, $("position-error"));
}

// --- start-up ----------------------------------------------------------------------------

function fromUrl() {
  // A link made by permalink(): the game, its parameters, the position and the players.
  const q = new URLSearchParams(location.search);
  if (q.has("game_id")) {
    // A link to a whole game at a move (gameLink).
    const node = q.has("node") && /^\d+$/.test(q.get("node")) ? Number(q.get("node")) : undefined;
    openGame(q.get("game_id"), node);
    return true;
  }
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
  if (q.has("agent") && ["uct", "puct"].includes(q.get("agent"))) { $("agent").value = q.get("agent"); showStrengths(); }
  if (q.has("strength")) $("strength").value = q.get("strength");
  start(q.has("position") ? { position: q.get("position") } : {});
  return true;
}

async function init() {
  info = await api("/api/games");
  games = info.games;
  for (const name of Object.keys(games)) $("game").add(new Option(name, name));
  showStrengths();
  $("agent").addEventListener("change", showStrengths);
  $("iterations").value = String(info.max_iterations);
  $("game").addEventListener("change", showParams);
  $("new-game").addEventListener("submit", (e) => { e.preventDefault(); start({}); });
  $("undo").addEventListener("click", () => view && request(async () => show(await api(sessionUrl("undo"), {}))));
  for (const name of Object.keys(NAV)) $(name).addEventListener("click", () => view && goto(NAV[name]()));
  document.addEventListener("keydown", onKey);
  // A page left keeps no stream open (the browser allows only a few connections per server).
  window.addEventListener("pagehide", () => { if (events) { events.close(); events = null; } });
  $("analyse").addEventListener("click", () => view && startAnalysis());
  $("stop").addEventListener("click", stopAnalysis);
  $("show-ownership").addEventListener("change", renderOwnership);
  $("solve").addEventListener("click", () => view && solve());
  $("evaluate").addEventListener("click", () => view && evaluateGame());
  $("load-record").addEventListener("click", loadRecord);
  $("save-record").addEventListener("click", saveRecord);
  $("load-position").addEventListener("click", loadPosition);
  $("record-file").addEventListener("change", loadRecordFile);
  $("rename").addEventListener("click", renameGame);
  renderSaved().catch(() => {});
  showParams();
  if (!fromUrl()) document.body.dataset.ready = "1";
}

init().then(() => { document.body.dataset.ready = "1"; }, (e) => { $("message").textContent = e.message; });
