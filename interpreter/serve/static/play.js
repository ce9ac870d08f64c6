// The play page: one seat's (or a spectator's, or a hot-seat table's) view of a game.
// The server sends the position as this seat may see it; the page highlights what the
// seat's options involve, lets the player choose by clicking the board, the list of
// options or by typing a notation, and reconnects when the socket drops.
//
// Every text that comes from a ruleset (title, prompt, labels, log lines, the state) is
// put in the page as text (textContent, text nodes), never as markup. The board is the
// one piece of markup the server sends: it is parsed as SVG (XML, not HTML) and drawn
// only after anything that could act (scripts, foreign HTML, event handlers, links
// elsewhere) is taken out; the page's Content-Security-Policy would refuse to run it
// anyway.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const MANY = 12; // more options than this: grouped by kind

  let socket = null;
  let retry = 0; // reconnect attempts since the last good connection
  let closedForGood = false;
  let state = null; // the last "state" message
  let picked = []; // what the player clicked so far: [{place, piece}]
  let involved = []; // per option: [{place, piece?}] in order

  // -- small helpers -------------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of children) node.append(c instanceof Node ? c : String(c));
    return node;
  }
  const norm = (text) => String(text).toLowerCase().replace(/\s+/g, "");

  // The board's SVG, parsed as XML, with only drawing left in it: no script, no
  // foreignObject (HTML inside SVG), no event handler, no link that leaves the picture.
  const SVG_NS = "http://www.w3.org/2000/svg";
  const DROP = new Set(["script", "foreignobject", "iframe", "object", "embed", "use",
    "animate", "set", "animatemotion", "animatetransform", "handler", "listener"]);
  function safeSvg(text) {
    if (!text) return null;
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const root = doc.documentElement;
    if (!root || root.namespaceURI !== SVG_NS || root.localName !== "svg"
      || doc.getElementsByTagName("parsererror").length) return null;
    for (const node of [root, ...root.querySelectorAll("*")]) {
      if (node !== root && (DROP.has(node.localName.toLowerCase()) || node.namespaceURI !== SVG_NS)) {
        node.remove();
        continue;
      }
      for (const attr of [...node.attributes]) {
        const name = attr.localName.toLowerCase();
        const link = name === "href" || name === "src" || name === "action";
        if (name.startsWith("on") || name === "style" || (link && !attr.value.startsWith("#"))) {
          node.removeAttributeNode(attr);
        }
      }
    }
    return document.importNode(root, true);
  }
  const seatName = (s) => `Player ${s}`;

  function showError(message) {
    const box = $("error");
    box.textContent = message;
    box.hidden = !message;
  }

  function setConnection(text, ok) {
    const c = $("connection");
    c.textContent = text;
    c.classList.toggle("ok", !!ok);
  }

  // -- the socket -------------------------------------------------------------------------
  function connect() {
    if (!gameId || !token) {
      showError("This link is incomplete: it needs the game and its token. Ask for the link again.");
      setConnection("no link", false);
      return;
    }
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${scheme}//${location.host}/ws/${encodeURIComponent(gameId)}?token=${encodeURIComponent(token)}`;
    setConnection(retry ? "reconnecting…" : "connecting…", false);
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      setConnection("connected", true);
      if (retry) ws.send(JSON.stringify({ type: "resync" }));
      retry = 0;
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (e) {
        showError("The server sent something this page cannot read.");
        return;
      }
      receive(msg);
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      if (event.code === 4403 || event.code === 4404) {
        closedForGood = true;
        setConnection("closed", false);
        showError(event.reason || (event.code === 4404 ? "There is no such game on this server."
          : "This link's token does not open this game."));
        return;
      }
      if (closedForGood) return;
      const delay = Math.min(15000, 500 * 2 ** retry);
      retry += 1;
      setConnection(`connection lost; retrying in ${Math.round(delay / 1000) || 1} s`, false);
      setTimeout(connect, delay);
    };
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError("Not connected to the server; your move was not sent. Reconnecting…");
      return false;
    }
    socket.send(JSON.stringify(message));
    return true;
  }

  function receive(msg) {
    if (msg.type === "state") {
      showError("");
      $("pass").hidden = true;
      $("table").hidden = false;
      render(msg);
    } else if (msg.type === "error") {
      showError(msg.message || "The server refused that.");
    } else if (msg.type === "pass") {
      passScreen(msg);
    }
  }

  // -- hot seat: hand the device over, showing nothing of the last seat's view ---------
  // Everything the last seat saw leaves the page before the cover shows: the board, the
  // options and what was picked, the log, the state, the last move in words, any error
  // naming a piece, a half-typed notation, and the script's own copies (the last state
  // message, the picks, what each option involves, running animations), so that neither
  // the page nor the scripts' memory holds anything of it for the next person.
  function forgetSeat() {
    if (window.TabletopMotion) TabletopMotion.stop($("board"));
    state = null;
    picked = [];
    involved = [];
    for (const id of ["board", "options", "confirm-list", "log", "state", "notes"]) $(id).replaceChildren();
    $("board").classList.remove("choosing");
    for (const id of ["prompt", "status", "picked-text", "who"]) $(id).textContent = "";
    if ($("last-move")) $("last-move").remove();
    showError("");
    $("notation").value = "";
    $("picked").hidden = $("confirm").hidden = $("notes").hidden = true;
    $("state-panel").open = false;
  }

  function passScreen(msg) {
    forgetSeat();
    $("table").hidden = true;
    $("pass").hidden = false;
    document.body.dataset.pass = String(msg.seat);
    document.body.dataset.turn = "pass";
    if (msg.title) $("title").textContent = msg.title;
    $("pass-title").textContent = `Pass the device to ${seatName(msg.seat)}`;
    const button = $("pass-ready");
    button.textContent = `I am ${seatName(msg.seat)}`;
    button.onclick = () => send({ type: "ready", seat: msg.seat });
    button.focus();
  }

  // -- rendering a state ------------------------------------------------------------------
  function render(msg) {
    const sameVersion = state && state.version === msg.version && state.seat === msg.seat;
    state = msg;
    if (!sameVersion) picked = [];
    const body = document.body.dataset; // for tests and styling: where the page stands
    body.version = String(msg.version);
    body.turn = (msg.options || []).length ? "mine" : msg.over ? "over" : "waiting";
    delete body.pass;
    document.title = `${msg.title} — Tabletop`;
    $("title").textContent = msg.title;
    const out = (msg.view && msg.view.eliminated) || [];
    $("who").textContent = (msg.seat == null ? "Watching" : `You are ${seatName(msg.seat)}`)
      + (out.includes(msg.seat) ? " (out of the game)" : "")
      + (out.length ? ` — out: ${out.map(seatName).join(", ")}` : "");
    const ruleset = msg.ruleset || (msg.view && msg.view.game);
    if (ruleset) $("rules").href = `/rules/${encodeURIComponent(ruleset)}`;
    const snap = window.TabletopMotion ? TabletopMotion.before($("board")) : null;
    const board = safeSvg(msg.svg);
    if (board) $("board").replaceChildren(board);
    else $("board").replaceChildren();
    $("board").classList.toggle("choosing", (msg.options || []).length > 0);
    markLastMove(msg);
    if (window.TabletopMotion) TabletopMotion.after($("board"), snap, msg.view && msg.view.last_move);
    involved = (msg.options || []).map(involvementOf);
    renderNotes(msg.notes || []);
    renderStatus(msg);
    renderLog(msg.log || []);
    renderTree(msg.view || {}, msg.table || []);
    renderChoices();
  }

  // The last move outlined on the board (where pieces went, where they came from) and
  // said in words under it; the server marks only what this seat may see.
  function markLastMove(msg) {
    const move = msg.view && msg.view.last_move;
    const marks = (move && move.marks) || {};
    for (const [name, part] of Object.entries(marks)) {
      for (const placeEl of $("board").querySelectorAll(`[data-place="${CSS.escape(name)}"]`)) {
        placeEl.classList.add(part === "from" ? "tt-last-from" : "tt-last-to");
      }
    }
    let said = $("last-move");
    if (!said) {
      said = el("p", { id: "last-move", class: "last-move" });
      $("board").after(said);
    }
    said.textContent = msg.last_move || "";
    said.hidden = !msg.last_move;
  }

  function renderStatus(msg) {
    const status = $("status");
    const options = msg.options || [];
    if (msg.over) {
      const w = msg.winners || [];
      status.textContent = "Game over: " + (w.length === 0 ? "nobody wins."
        : w.length === 1 ? `${seatName(w[0])} wins.` : `${w.map(seatName).join(" and ")} share the win.`)
        + (msg.view && msg.view.reason ? ` (${msg.view.reason})` : "");
      status.className = "status over";
    } else if (msg.stopped) {
      status.textContent = `The game stopped: ${msg.stopped}`;
      status.className = "status over";
    } else if (options.length) {
      status.textContent = "Your turn.";
      status.className = "status yours";
    } else {
      const d = msg.deciding || [];
      status.textContent = d.length ? `Waiting for ${d.map(seatName).join(", ")}…` : "Waiting…";
      status.className = "status";
    }
    const scores = msg.view && msg.view.scores;
    if (msg.over && scores && Object.keys(scores).length) {
      status.textContent += " Scores: " + Object.entries(scores)
        .map(([s, v]) => `${seatName(s)} ${v}`).join(", ") + ".";
    }
    $("prompt").textContent = options.length ? (msg.prompt || "Choose an option.")
      : msg.over ? "The game is over." : msg.seat == null ? "You are watching; the players choose."
        : "Not your turn: the board and the log show what the others do.";
    $("typed").hidden = !options.length;
  }

  // What every player is told about the game (a seed its creator chose, a computer
  // player that sees what the game hides).
  function renderNotes(notes) {
    const box = $("notes");
    box.replaceChildren(...notes.map((note) => el("p", { class: "note" }, note)));
    box.hidden = !notes.length;
  }

  function renderLog(lines) {
    const log = $("log");
    log.replaceChildren(...lines.map((line) => el("li", {}, line)));
    log.scrollTop = log.scrollHeight;
  }

  // The view as a readable tree: the variables players see, each under its label (the
  // server's `table`: the same lines as the terminal's), then zones and scores. The
  // view's raw variables (the rules' bookkeeping too) are left to tools; the log has
  // its own panel.
  function renderTree(view, table) {
    const open = new Set([...$("state").querySelectorAll("details[open]")].map((d) => d.dataset.path));
    const root = el("ul", { class: "tree-root" });
    for (const line of table) {
      root.append(el("li", { class: "shown" }, el("span", { class: "k" }, `${line.label}: `), String(line.text)));
    }
    for (const [key, value] of Object.entries(view)) {
      if (key === "log" || key === "prompt" || key === "variables") continue;
      root.append(treeNode(key, value, key, open));
    }
    $("state").replaceChildren(root);
  }

  function treeNode(key, value, path, open) {
    if (value !== null && typeof value === "object") {
      const entries = Array.isArray(value) ? value.map((v, i) => [String(i + 1), v]) : Object.entries(value);
      if (!entries.length) return el("li", {}, el("span", { class: "k" }, key + ": "), Array.isArray(value) ? "none" : "—");
      const pieceLike = Array.isArray(value) && value.every((v) => v && typeof v === "object" && !Array.isArray(v)
        && Object.values(v).every((x) => x === null || typeof x !== "object"));
      if (pieceLike) {
        return el("li", {}, el("span", { class: "k" }, `${key} (${value.length}): `),
          value.map(describe).join("; "));
      }
      const details = el("details", { "data-path": path });
      if (open.has(path) || path.split(".").length < 2) details.open = true;
      const list = el("ul");
      for (const [k, v] of entries) list.append(treeNode(k, v, `${path}.${k}`, open));
      details.append(el("summary", {}, el("span", { class: "k" }, key)), list);
      return el("li", {}, details);
    }
    return el("li", {}, el("span", { class: "k" }, key + ": "), value === null ? "—" : String(value));
  }

  function describe(piece) {
    if (piece.hidden) return piece.back ? `hidden (${piece.back})` : "hidden";
    return Object.values(piece).map(String).join(" ");
  }

  // -- what each option involves ------------------------------------------------------
  // From the server (`involves`: [{place, piece?}], or `places`: [names]); lacking
  // both, the board's places named in the notation.
  function involvementOf(option) {
    if (Array.isArray(option.involves)) return option.involves.filter((i) => i && i.place != null);
    if (Array.isArray(option.places)) return option.places.map((p) => ({ place: String(p) }));
    const names = new Set([...$("board").querySelectorAll("[data-place]")].map((e) => e.dataset.place));
    const out = [];
    for (const token of String(option.notation).split(/\s+/)) {
      if (names.has(token)) { out.push({ place: token }); continue; }
      for (const part of token.split("-")) if (names.has(part)) out.push({ place: part });
    }
    return out;
  }

  // Does a click (place, piece or null) fit an option's item?
  function fits(item, click) {
    if (!item || item.place !== click.place) return false;
    return !item.piece || !click.piece || item.piece === click.piece;
  }

  function candidates() {
    const out = [];
    (state && state.options || []).forEach((option, i) => {
      const items = involved[i];
      if (picked.every((click, k) => fits(items[k], click))) out.push(i);
    });
    return out;
  }

  function clickOf(target) {
    const placeEl = target.closest("[data-place]");
    if (!placeEl) return null;
    const pieceEl = target.closest("[data-piece]");
    return { place: placeEl.dataset.place, piece: pieceEl && placeEl.contains(pieceEl) ? pieceEl.dataset.piece : null };
  }

  function highlight(left) {
    const board = $("board");
    board.querySelectorAll(".tt-hot, .tt-picked").forEach((e) => e.classList.remove("tt-hot", "tt-picked"));
    const step = picked.length;
    const mark = (item, cls) => {
      for (const placeEl of board.querySelectorAll(`[data-place="${CSS.escape(item.place)}"]`)) {
        if (item.piece) {
          const pieces = [...placeEl.querySelectorAll(`[data-piece="${CSS.escape(item.piece)}"]`)];
          if (pieces.length) { pieces.forEach((p) => p.classList.add(cls)); continue; }
        }
        placeEl.classList.add(cls);
      }
    };
    for (const i of left) {
      const item = involved[i][step];
      if (item) mark(item, "tt-hot");
    }
    picked.forEach((click) => mark(click, "tt-picked"));
  }

  function renderChoices() {
    const options = (state && state.options) || [];
    const left = candidates();
    highlight(left);
    $("picked").hidden = !picked.length;
    $("picked-text").textContent = picked.length
      ? "Picked: " + picked.map((c) => (c.piece ? `${c.piece} on ${c.place}` : c.place)).join(" → ")
      : "";
    const done = left.filter((i) => involved[i].length <= picked.length);
    const confirm = picked.length > 0 && done.length > 1 && done.length === left.length;
    $("confirm").hidden = !confirm;
    $("confirm-list").replaceChildren(...(confirm ? done.map(optionButton) : []));
    const box = $("options");
    if (!options.length) { box.replaceChildren(); return; }
    const shown = picked.length ? left : options.map((_, i) => i);
    const title = el("p", { class: "count" }, picked.length
      ? `${shown.length} option${shown.length === 1 ? "" : "s"} left:`
      : `${options.length} option${options.length === 1 ? "" : "s"}${involved.some((x) => x.length) ? " (or click a highlighted place on the board)" : ""}:`);
    if (shown.length <= MANY) {
      box.replaceChildren(title, el("div", { class: "option-list" }, ...shown.map(optionButton)));
      return;
    }
    const groups = new Map();
    for (const i of shown) {
      const kind = options[i].kind || "options";
      if (!groups.has(kind)) groups.set(kind, []);
      groups.get(kind).push(i);
    }
    const parts = [title];
    for (const [kind, members] of groups) {
      const details = el("details", { class: "group" });
      if (groups.size === 1) details.open = true;
      details.append(el("summary", {}, `${kind.replace(/_/g, " ")} (${members.length})`),
        el("div", { class: "option-list" }, ...members.map(optionButton)));
      parts.push(details);
    }
    box.replaceChildren(...parts);
  }

  function optionButton(i) {
    const option = state.options[i];
    return el("button", {
      type: "button", class: "option", "data-index": String(i), "data-notation": option.notation,
      title: option.notation, onclick: () => choose(option),
    }, el("span", { class: "label" }, option.label || option.notation),
    el("code", { class: "notation" }, option.notation));
  }

  function choose(option) {
    if (!state) return;
    if (send({ type: "choose", version: state.version, notation: option.notation })) {
      picked = [];
      $("board").classList.remove("choosing");
      $("options").querySelectorAll("button").forEach((b) => { b.disabled = true; });
    }
  }

  function onBoardClick(event) {
    if (!state || !(state.options || []).length) return;
    const click = clickOf(event.target);
    if (!click) return;
    const step = picked.length;
    const fitting = candidates().filter((i) => fits(involved[i][step], click));
    if (!fitting.length) {
      const last = picked[picked.length - 1];
      if (last && last.place === click.place) { picked.pop(); renderChoices(); return; }
      const fresh = state.options.map((_, i) => i).filter((i) => fits(involved[i][0], click));
      if (fresh.length) { picked = []; } else {
        showError(`Nothing to do on ${click.piece ? click.piece + " on " : ""}${click.place} now.`);
        return;
      }
      return onBoardClick(event);
    }
    showError("");
    // a click names the piece only when the options tell pieces apart there
    const named = fitting.some((i) => involved[i][step].piece) ? click : { place: click.place, piece: null };
    picked.push(named);
    const left = candidates();
    if (left.length === 1 && involved[left[0]].length <= picked.length) {
      choose(state.options[left[0]]);
      return;
    }
    renderChoices();
  }

  function onTyped(event) {
    event.preventDefault();
    const input = $("notation");
    const text = input.value.trim();
    if (!text || !state) return;
    const options = state.options || [];
    if (!options.length) { showError("It is not your turn to choose."); return; }
    const match = options.find((o) => norm(o.notation) === norm(text));
    if (send({ type: "choose", version: state.version, notation: match ? match.notation : text })) input.value = "";
  }

  $("board").addEventListener("click", onBoardClick);
  $("typed").addEventListener("submit", onTyped);
  $("picked-clear").addEventListener("click", () => { picked = []; renderChoices(); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && picked.length) { picked = []; renderChoices(); }
  });
  connect();
})();
