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
      if (state && sent()) render(state); // the choice was refused: the same choices again
    } else if (msg.type === "pass") {
      endDrag(); // nothing of the last seat's picks stays in the script's memory either
      focusKey = null;
      openGroups = new Set();
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
    if (!sameVersion) { picked = []; openGroups = new Set(); }
    endDrag();
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
    const motion = window.TabletopMotion;
    const snapshot = motion && motion.before ? motion.before($("board")) : null;
    $("board").replaceChildren(...boardAreas(msg));
    $("board").classList.toggle("choosing", (msg.options || []).length > 0);
    markLastMove(msg);
    if (motion && motion.after) motion.after($("board"), snapshot, (msg.view && msg.view.last_move) || null);
    involved = (msg.options || []).map(involvementOf);
    renderNotes(msg.notes || []);
    renderStatus(msg);
    renderLog(msg.log || []);
    renderTree(msg.view || {}, msg.table || []);
    renderChoices();
    if (lastInput === "keyboard" && (!document.activeElement || document.activeElement === document.body)) {
      const first = $("options").querySelector("button.option, summary");
      if (first) first.focus(); // the board had nothing to pick: the list takes the keys
    }
  }

  // The table as a game table: each area (opponents', the centre, mine) a section of
  // figures, one per zone, each its caption and its own picture. A message without
  // `areas` is drawn as one centre zone holding the whole table's picture.
  function boardAreas(msg) {
    const areas = Array.isArray(msg.areas) ? msg.areas
      : [{ role: "centre", seat: null, title: "", zones: [{ svg: msg.svg }] }];
    return areas.map(areaSection);
  }

  function areaSection(area) {
    const role = ["opponent", "centre", "mine"].includes(area.role) ? area.role : "centre";
    const section = el("section", { class: `area ${role}` });
    if (area.seat != null) section.dataset.seat = String(area.seat);
    if (area.title) section.append(el("h3", {}, area.title));
    section.append(el("div", { class: "zones" }, ...(area.zones || []).map(zoneFigure)));
    return section;
  }

  function zoneFigure(zone) {
    const figure = el("figure", { class: "zone" });
    if (zone.place != null) figure.dataset.place = String(zone.place);
    if (zone.arrange) figure.dataset.arrange = String(zone.arrange);
    if (zone.title || zone.count) {
      const caption = el("figcaption", {}, zone.title || "");
      if (zone.count) caption.append(" ", el("span", { class: "count" }, zone.count));
      figure.append(caption);
    }
    const picture = safeSvg(zone.svg);
    if (picture) figure.append(picture);
    return figure;
  }

  // The last move outlined on the board (where pieces went, where they came from) and
  // said in words under it; the server marks only what this seat may see.
  function markLastMove(msg) {
    const move = msg.view && msg.view.last_move;
    const marks = (move && move.marks) || {};
    for (const [name, part] of Object.entries(marks)) {
      for (const placeEl of $("board").querySelectorAll(`.tt-place[data-place="${CSS.escape(name)}"]`)) {
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
  const PLACE = ".tt-place[data-place]";
  const PIECE = ".tt-piece[data-piece]";

  // From the server (`involves`: [{place, piece?}], or `places`: [names]); lacking
  // both, the board's places named in the notation.
  function involvementOf(option) {
    if (Array.isArray(option.involves)) return option.involves.filter((i) => i && i.place != null);
    if (Array.isArray(option.places)) return option.places.map((p) => ({ place: String(p) }));
    const names = new Set([...$("board").querySelectorAll(PLACE)].map((e) => e.dataset.place));
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

  // The options that go on from these picks (the player's so far, or one more tried).
  function candidatesFor(picks) {
    const out = [];
    (state && state.options || []).forEach((option, i) => {
      const items = involved[i];
      if (picks.every((click, k) => fits(items[k], click))) out.push(i);
    });
    return out;
  }
  const candidates = () => candidatesFor(picked);

  // The place (and piece) a board element stands for, in any zone's picture.
  function clickOf(target) {
    if (!target || !target.closest) return null;
    const placeEl = target.closest(PLACE);
    if (!placeEl || !$("board").contains(placeEl)) return null;
    const pieceEl = target.closest(PIECE);
    return { place: placeEl.dataset.place, piece: pieceEl && placeEl.contains(pieceEl) ? pieceEl.dataset.piece : null };
  }

  // The elements that show an item: its pieces when it names one drawn there, else its place.
  function targetsOf(item) {
    const out = [];
    for (const placeEl of $("board").querySelectorAll(`.tt-place[data-place="${CSS.escape(item.place)}"]`)) {
      if (item.piece) {
        const pieces = [...placeEl.querySelectorAll(`.tt-piece[data-piece="${CSS.escape(item.piece)}"]`)];
        if (pieces.length) { out.push(...pieces); continue; }
      }
      out.push(placeEl);
    }
    return out;
  }

  // What a pick at this step records: the piece only when the options tell pieces apart.
  function named(click, fitting, step) {
    return fitting.some((i) => involved[i][step].piece) ? click : { place: click.place, piece: null };
  }

  function highlight(left) {
    const board = $("board");
    board.querySelectorAll(".tt-hot, .tt-picked, .draggable").forEach(
      (e) => e.classList.remove("tt-hot", "tt-picked", "draggable"));
    const step = picked.length;
    const hot = new Set();
    for (const i of left) {
      const item = involved[i][step];
      if (item) targetsOf(item).forEach((e) => hot.add(e));
    }
    hot.forEach((e) => e.classList.add("tt-hot"));
    picked.forEach((click) => targetsOf(click).forEach((e) => e.classList.add("tt-picked")));
    for (const pieceEl of board.querySelectorAll(PIECE)) {
      const plan = (state.options || []).length ? dragPlan(pieceEl) : null;
      pieceEl.classList.toggle("draggable", !!plan);
    }
    focusable([...hot]);
  }

  // -- keyboard: the lit targets are buttons; arrows move among them ------------------
  let lastInput = "pointer"; // how the player last acted: the page follows the keyboard
  let focusKey = null; // the target last focused (its place and piece), kept across picks
  const keyOf = (e) => `${e.closest(PLACE) ? e.closest(PLACE).dataset.place : ""}|${e.dataset.piece || ""}`;

  // Words for a place: its zone's title when the place is a whole zone, else its name.
  function placeWords(placeEl) {
    const place = placeEl.dataset.place;
    const figure = placeEl.closest("figure.zone");
    const caption = figure && figure.dataset.place === place && figure.querySelector("figcaption");
    const title = caption && caption.firstChild && caption.firstChild.nodeType === Node.TEXT_NODE
      ? caption.firstChild.textContent.trim() : "";
    return title || place;
  }

  // A target's own role and label (a piece's name), kept while it acts as a button.
  const OWN = { role: "ttRole", "aria-label": "ttLabel" };
  function remember(e, attr) {
    if (!(OWN[attr] in e.dataset)) e.dataset[OWN[attr]] = e.getAttribute(attr) || "";
  }
  function restore(e, attr) {
    const value = e.dataset[OWN[attr]];
    if (value === undefined) return;
    if (value) e.setAttribute(attr, value);
    else e.removeAttribute(attr);
  }

  function focusable(hot) {
    const board = $("board");
    for (const e of board.querySelectorAll("[tabindex]")) {
      if (hot.includes(e)) continue;
      e.removeAttribute("tabindex");
      e.classList.remove("focus-target");
      restore(e, "role");
      restore(e, "aria-label");
    }
    const roving = hot.find((e) => keyOf(e) === focusKey) || hot[0];
    for (const e of hot) {
      remember(e, "role");
      remember(e, "aria-label");
      const placeEl = e.closest(PLACE);
      const words = e.matches(PIECE)
        ? `Pick ${e.dataset.ttLabel || e.dataset.piece} on ${placeWords(placeEl)}`
        : placeWords(placeEl);
      e.setAttribute("role", "button");
      e.setAttribute("aria-label", words);
      e.setAttribute("tabindex", e === roving ? "0" : "-1");
    }
    const active = document.activeElement;
    if (lastInput === "keyboard" && roving && (active === document.body || !active
      || (board.contains(active) && !hot.includes(active)))) {
      roving.focus();
    }
  }

  // The lit target next to `from` in the arrow's direction (else the next in order).
  function neighbour(from, key) {
    const hot = [...$("board").querySelectorAll(".tt-hot[tabindex]")];
    if (!hot.length) return null;
    const a = from.getBoundingClientRect();
    const [dx, dy] = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
    let best = null;
    let bestScore = Infinity;
    for (const e of hot) {
      if (e === from) continue;
      const b = e.getBoundingClientRect();
      const x = (b.left + b.width / 2) - (a.left + a.width / 2);
      const y = (b.top + b.height / 2) - (a.top + a.height / 2);
      const along = x * dx + y * dy;
      if (along <= 1) continue;
      const score = along + 2 * Math.abs(x * dy + y * dx);
      if (score < bestScore) { bestScore = score; best = e; }
    }
    if (best) return best;
    const i = hot.indexOf(from);
    return hot[(i + (dx + dy > 0 ? 1 : hot.length - 1)) % hot.length];
  }

  const ARROWS = ["ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp"];

  function onBoardKey(event) {
    const target = event.target.closest && event.target.closest(".tt-hot[tabindex]");
    if (!target) return;
    if (ARROWS.includes(event.key)) {
      const next = neighbour(target, event.key);
      if (next) {
        target.setAttribute("tabindex", "-1");
        next.setAttribute("tabindex", "0");
        next.focus();
      }
      event.preventDefault();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const click = clickOf(target);
      if (click) pick(click);
    }
  }

  // -- the options: a list, in the terminal's groups when there are many ----------------
  let openGroups = new Set(); // groups the player opened, kept while the position stands

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
    if (confirm && lastInput === "keyboard") $("confirm-list").querySelector("button").focus();
    const box = $("options");
    if (!options.length) { box.replaceChildren(); return; }
    const shown = picked.length ? left : options.map((_, i) => i);
    const title = el("p", { class: "count" }, picked.length
      ? `${shown.length} option${shown.length === 1 ? "" : "s"} left:`
      : `${options.length} option${options.length === 1 ? "" : "s"}${involved.some((x) => x.length) ? " (or click or drag a highlighted piece or place on the board)" : ""}:`);
    const groups = groupsOf(shown);
    if (shown.length <= MANY || groups.length < 2 || groups.length === shown.length) {
      box.replaceChildren(title, el("div", { class: "option-list" }, ...shown.map(optionButton)));
      return;
    }
    const parts = [title];
    for (const group of groups) {
      if (group.members.length === 1) {
        parts.push(el("div", { class: "option-list" }, optionButton(group.members[0])));
        continue;
      }
      const details = el("details", { class: "group option-group" });
      details.open = openGroups.has(group.title);
      details.addEventListener("toggle", () => {
        if (details.open) openGroups.add(group.title); else openGroups.delete(group.title);
      });
      details.append(el("summary", {}, `${group.title} (${group.members.length})`),
        el("div", { class: "option-list" }, ...group.members.map(optionButton)));
      parts.push(details);
    }
    box.replaceChildren(...parts);
  }

  // The options in the server's groups (the terminal's: by kind, then by the first part
  // of the notation that differs), else by kind; each with its words.
  function groupsOf(indices) {
    const groups = new Map();
    for (const i of indices) {
      const option = state.options[i];
      const g = option.group && typeof option.group === "object" ? option.group : null;
      const key = g ? `group ${g.n}` : `kind ${option.kind || ""}`;
      if (!groups.has(key)) {
        groups.set(key, { title: g ? String(g.title) : String(option.kind || "options").replace(/_/g, " "), members: [] });
      }
      groups.get(key).members.push(i);
    }
    return [...groups.values()];
  }

  function optionButton(i) {
    const option = state.options[i];
    const label = option.label || option.notation;
    return el("button", {
      type: "button", class: "option", "data-index": String(i), "data-notation": option.notation,
      title: option.notation, onclick: () => choose(option),
      "aria-label": label === option.notation ? label : `${label} (${option.notation})`,
    }, el("span", { class: "label" }, label),
    el("code", { class: "notation" }, option.notation));
  }

  // Sends the choice; until the next position comes, the board offers nothing more to
  // pick (a second click would choose again from a position already left).
  function choose(option) {
    if (!state) return;
    if (send({ type: "choose", version: state.version, notation: option.notation })) {
      picked = [];
      document.body.dataset.turn = "sent";
      $("board").classList.remove("choosing");
      $("board").querySelectorAll(".tt-hot, .tt-picked, .draggable").forEach(
        (e) => e.classList.remove("tt-hot", "tt-picked", "draggable"));
      focusable([]);
      $("options").querySelectorAll("button").forEach((b) => { b.disabled = true; });
    }
  }
  const sent = () => document.body.dataset.turn === "sent";

  // -- picking on the board: a click, a key, or the two ends of a drag -----------------
  // Picks a place (or piece): true when it fitted (then the options narrow, or the one
  // left is chosen).
  function pick(click, again) {
    if (!state || !(state.options || []).length || sent()) return false;
    const step = picked.length;
    const fitting = candidates().filter((i) => fits(involved[i][step], click));
    if (!fitting.length) {
      const last = picked[picked.length - 1];
      if (last && last.place === click.place && !again) { picked.pop(); renderChoices(); return false; }
      const fresh = state.options.map((_, i) => i).filter((i) => fits(involved[i][0], click));
      if (fresh.length && !again) { picked = []; return pick(click, true); }
      showError(`Nothing to do on ${click.piece ? click.piece + " on " : ""}${click.place} now.`);
      return false;
    }
    showError("");
    focusKey = null;
    picked.push(named(click, fitting, step));
    const left = candidates();
    if (left.length === 1 && involved[left[0]].length <= picked.length) {
      choose(state.options[left[0]]);
      return true;
    }
    renderChoices();
    return true;
  }

  let suppressClick = false; // the click a browser sends after a drag is not a pick

  function onBoardClick(event) {
    if (suppressClick) { suppressClick = false; return; }
    if (!state || !(state.options || []).length) return;
    const click = clickOf(event.target);
    if (click) pick(click);
  }

  // -- dragging a piece to where it goes --------------------------------------------------
  let drag = null; // {pointerId, x, y, source, click, targets, moved, ghost}

  // What dragging this piece would do: its pick, and the places the options go on to
  // after it (null when no option moves it on from here).
  function dragPlan(pieceEl) {
    const click = clickOf(pieceEl);
    if (!click || !click.piece) return null;
    const step = picked.length;
    const fitting = candidates().filter((i) => fits(involved[i][step], click)
      && involved[i].length > step + 1);
    if (!fitting.length) return null;
    const first = named(click, fitting, step);
    const next = candidatesFor([...picked, first]).map((i) => involved[i][step + 1]).filter(Boolean)
      .filter((item) => !(item.place === click.place && (!item.piece || item.piece === click.piece)));
    return next.length ? { click, next } : null;
  }

  function onPointerDown(event) {
    if (drag || !event.isPrimary || (event.pointerType === "mouse" && event.button !== 0)) return;
    if (!state || !(state.options || []).length || sent()) return;
    const source = event.target.closest && event.target.closest(PIECE);
    if (!source || !$("board").contains(source)) return;
    const plan = dragPlan(source);
    if (!plan) return;
    if (event.pointerType === "mouse") event.preventDefault(); // no text selection
    drag = { pointerId: event.pointerId, x: event.clientX, y: event.clientY, source, moved: false, ...plan };
  }

  function onPointerMove(event) {
    if (!drag || event.pointerId !== drag.pointerId || drag.cancelled) return;
    if (!drag.moved) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
      startDrag();
    }
    event.preventDefault();
    drag.ghost.style.left = `${event.clientX}px`;
    drag.ghost.style.top = `${event.clientY}px`;
    const hit = dropAt(event.clientX, event.clientY);
    $("board").querySelectorAll(".drop-hover").forEach((e) => e.classList.remove("drop-hover"));
    if (hit) targetsOf(hit).forEach((e) => e.classList.add("drop-hover"));
    const edge = 40; // near the window's edge the page scrolls, so far places are reachable
    if (event.clientY < edge) window.scrollBy(0, -16);
    else if (event.clientY > innerHeight - edge) window.scrollBy(0, 16);
  }

  function startDrag() {
    drag.moved = true;
    $("board").classList.add("dragging");
    drag.source.classList.add("dragging");
    for (const item of drag.next) targetsOf(item).forEach((e) => e.classList.add("drop-target"));
    drag.ghost = ghostOf(drag.source);
    document.body.append(drag.ghost);
    fitGhost(drag.ghost);
  }

  // A copy of the piece's drawing that follows the pointer (it takes no pointer events,
  // so what lies under it is where it drops).
  function ghostOf(source) {
    const box = source.getBoundingClientRect();
    const ghost = el("div", { class: "ghost", "aria-hidden": "true" });
    Object.assign(ghost.style, { position: "fixed", pointerEvents: "none", zIndex: "1000",
      transform: "translate(-50%, -50%)", width: `${box.width}px`, height: `${box.height}px` });
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("width", String(box.width));
    svg.setAttribute("height", String(box.height));
    const copy = source.cloneNode(true);
    for (const e of [copy, ...copy.querySelectorAll("*")]) {
      e.removeAttribute("id");
      e.removeAttribute("tabindex");
      e.classList.remove("tt-hot", "tt-picked", "draggable", "dragging", "focus-target");
    }
    svg.append(copy);
    ghost.append(svg);
    return ghost;
  }

  function fitGhost(ghost) {
    const svg = ghost.firstChild;
    const b = svg.firstChild.getBBox ? svg.firstChild.getBBox() : null;
    if (b && b.width && b.height) svg.setAttribute("viewBox", `${b.x} ${b.y} ${b.width} ${b.height}`);
  }

  // The legal place (or piece) under the pointer, or null.
  function dropAt(x, y) {
    const click = clickOf(document.elementFromPoint(x, y));
    if (!click) return null;
    return drag.next.find((item) => fits(item, click)) ? click : null;
  }

  // The drag's ghost and lights taken away; `held`: the pointer is still down (Escape
  // dropped the drag), so its release must not count as a click.
  function endDrag(held) {
    if (!drag) return;
    if (drag.ghost) drag.ghost.remove();
    $("board").classList.remove("dragging");
    $("board").querySelectorAll(".dragging, .drop-target, .drop-hover").forEach(
      (e) => e.classList.remove("dragging", "drop-target", "drop-hover"));
    if (held === true && drag.moved) drag = { pointerId: drag.pointerId, cancelled: true };
    else drag = null;
  }

  function onPointerUp(event) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const d = drag;
    const drop = d.moved ? dropAt(event.clientX, event.clientY) : null;
    endDrag();
    if (!d.moved && !d.cancelled) return; // a press and release: the click that follows picks
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    if (drop && pick(d.click) && state && picked.length) pick(drop);
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

  const board = $("board");
  board.addEventListener("click", onBoardClick);
  board.addEventListener("keydown", onBoardKey);
  board.addEventListener("pointerdown", onPointerDown);
  // a finger dragging a piece moves the piece, not the page (SVG shapes take no
  // touch-action, so the scroll is refused here)
  board.addEventListener("touchmove", (e) => { if (drag && e.cancelable) e.preventDefault(); }, { passive: false });
  board.addEventListener("focusin", (e) => {
    if (e.target.matches && e.target.matches("[tabindex]")) {
      e.target.classList.add("focus-target");
      focusKey = keyOf(e.target);
    }
  });
  board.addEventListener("focusout", (e) => e.target.classList && e.target.classList.remove("focus-target"));
  window.addEventListener("pointermove", onPointerMove, { passive: false });
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", () => endDrag());
  document.addEventListener("pointerdown", () => { lastInput = "pointer"; }, true);
  document.addEventListener("keydown", (e) => {
    const typing = e.target.matches && e.target.matches("input, textarea, select");
    if (!typing && ["Tab", "Enter", " ", "Escape"].concat(ARROWS).includes(e.key)) lastInput = "keyboard";
    if (e.key === "Escape" && (picked.length || drag)) { endDrag(true); picked = []; renderChoices(); }
  }, true);
  $("typed").addEventListener("submit", onTyped);
  $("picked-clear").addEventListener("click", () => { picked = []; renderChoices(); });
  connect();
})();
