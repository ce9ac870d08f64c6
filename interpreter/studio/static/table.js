// The studio's table panel: the set-up preview of the last good check, and play mode
// (moves for every seat or against computer players, undo, save the position as a case).

const SVG_NS = "http://www.w3.org/2000/svg";
const DROP = new Set(["script", "foreignobject", "iframe", "object", "embed", "style",
  "animate", "set", "animatemotion", "animatetransform", "handler", "listener", "a"]);
let svgCount = 0;

/** An element of `tag` with attributes `attrs` (`class`, `text`, properties) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/**
 * The server's SVG text, parsed as XML, with only drawing left in it (no script, no HTML
 * inside, no handler, no link leaving the picture), its ids made unique on the page (two
 * charts of the same name side by side must not share one), and sized to its container.
 */
export function safeSvg(text) {
  if (!text) return null;
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  if (!root || root.namespaceURI !== SVG_NS || root.localName !== "svg"
    || doc.getElementsByTagName("parsererror").length) return null;
  const salt = `s${++svgCount}-`;
  const local = (value) => value.replace(/url\(#/g, `url(#${salt}`);
  for (const node of [root, ...root.querySelectorAll("*")]) {
    if (!node.isConnected && node !== root) continue;
    if (node !== root && (DROP.has(node.localName.toLowerCase()) || node.namespaceURI !== SVG_NS)) {
      node.remove();
      continue;
    }
    for (const attr of [...node.attributes]) {
      const name = attr.localName.toLowerCase();
      if (name.startsWith("on")) node.removeAttributeNode(attr);
      else if (name === "href" || name === "src" || name === "action") {
        if (attr.value.startsWith("#")) attr.value = `#${salt}${attr.value.slice(1)}`;
        else node.removeAttributeNode(attr);
      } else if (name === "id") attr.value = salt + attr.value;
      else if (attr.value.includes("url(#")) attr.value = local(attr.value);
    }
  }
  const width = parseFloat(root.getAttribute("width"));
  const height = parseFloat(root.getAttribute("height"));
  if (!root.getAttribute("viewBox") && width && height) {
    root.setAttribute("viewBox", `0 0 ${width} ${height}`);
  }
  if (width) root.style.maxWidth = `${Math.max(width, 1)}${/pt$/.test(root.getAttribute("width")) ? "pt" : "px"}`;
  root.removeAttribute("width");
  root.removeAttribute("height");
  root.setAttribute("preserveAspectRatio", "xMidYMid meet");
  root.classList.add("scaled");
  return document.importNode(root, true);
}

/** The errors of a check reply (warnings left out). */
export const errorsOf = (check) =>
  (check && check.diagnostics ? check.diagnostics : []).filter((d) => d.severity === "error");

const seatName = (seat) => `Player ${seat}`;
const listOf = (seats) => seats.map(seatName).join(" and ");

export function mount(element, studio) {
  element.classList.add("panel-body", "table-panel");
  const state = {
    check: null,     // the last check with a table
    game: null,      // its game (players, options)
    gameKey: "",
    view: null,      // the play view when playing
    agents: [{ name: "random", title: "random" }],   // the computer players a seat may be given
    seats: {},       // seat number -> "you" or an agent's name
    busy: false,
  };

  const setup = el("div", { class: "table-setup", hidden: true });
  const players = el("select", { id: "preview-players", title: "How many players" });
  const seed = el("input", { id: "preview-seed", type: "number", min: "0", step: "1",
    class: "seed", title: "The seed of the shuffles and dice" });
  const options = el("div", { class: "table-options", id: "preview-options" });
  const seats = el("div", { class: "table-seats", id: "preview-seats" });
  const play = el("button", { id: "play", class: "primary", type: "button", text: "Play",
    title: "Make moves from this set-up" });
  setup.append(
    el("label", {}, "Players ", players),
    options,
    el("label", {}, "Seed ", seed,
      el("button", { type: "button", class: "small", text: "New", title: "A new seed",
        onclick: () => { seed.value = String(Math.floor(Math.random() * 1e6)); preview(); } })),
    seats, play);

  const status = el("p", { class: "table-status", id: "table-status", "aria-live": "polite",
    text: "Open a ruleset to see its table." });
  const picture = el("div", { id: "table-svg", class: "table-svg", hidden: true });
  // the game's variables as the players see them (scores, counters), in its own words
  const variables = el("dl", { id: "table-variables", class: "table-variables", hidden: true });

  const undo = el("button", { id: "undo", type: "button", text: "Undo", title: "Take back your last decision" });
  const saveCase = el("button", { id: "save-case", type: "button", text: "Save as case…",
    title: "Turn this position into a scenario case in the tests file" });
  const back = el("button", { id: "play-back", type: "button", text: "Back to set-up" });
  const caseName = el("input", { id: "case-name", type: "text", size: 32,
    "aria-label": "The case's name" });
  const caseForm = el("form", { id: "case-form", class: "case-form", hidden: true },
    el("label", {}, "Case name ", caseName),
    el("button", { id: "case-confirm", class: "primary", type: "submit", text: "Save case" }),
    el("button", { type: "button", text: "Cancel",
      onclick: () => { caseForm.hidden = true; } }));
  const note = el("p", { class: "table-note", id: "table-note", hidden: true });
  const choices = el("div", { id: "play-options", class: "play-options" });
  const log = el("ol", { id: "play-log", class: "play-log" });
  // playing: the buttons and the options above the table, the log below it
  const playBar = el("div", { class: "table-play", hidden: true },
    el("div", { class: "table-play-buttons" }, undo, saveCase, back), caseForm, note, choices);
  const logBox = el("details", { class: "play-log-box", open: true, hidden: true },
    el("summary", { text: "Log" }), log);
  element.append(setup, status, playBar, variables, picture, logBox);

  // -- set-up ------------------------------------------------------------------------
  function setupChoices() {
    const chosen = {};
    for (const input of options.querySelectorAll("[data-option]")) {
      const name = input.dataset.option;
      if (input.type === "checkbox") chosen[name] = input.checked;
      else if (input.type === "number") chosen[name] = Number(input.value);
      else chosen[name] = input.dataset.values ? JSON.parse(input.value) : input.value;
    }
    const number = seed.value === "" ? null : Number(seed.value);
    return { players: Number(players.value) || null, options: chosen, seed: number };
  }

  function preview() {
    renderSeats();
    studio.setPreview(setupChoices());
  }
  players.addEventListener("change", preview);
  seed.addEventListener("change", preview);

  function optionInput(option, current) {
    const value = current === undefined ? option.default : current;
    const attrs = { "data-option": option.name, onchange: preview };
    if (option.kind === "bool" || typeof option.default === "boolean") {
      return el("input", { ...attrs, type: "checkbox", checked: Boolean(value) });
    }
    if (Array.isArray(option.values) && option.values.length) {
      const select = el("select", { ...attrs, "data-values": "1" });
      for (const v of option.values) {
        select.append(el("option", { value: JSON.stringify(v), text: String(v) }));
      }
      select.value = JSON.stringify(value);
      return select;
    }
    if (option.kind === "int" || typeof option.default === "number") {
      return el("input", { ...attrs, type: "number", value: String(value), class: "number",
        step: "1", min: option.min === undefined ? null : String(option.min),
        max: option.max === undefined ? null : String(option.max) });
    }
    return el("input", { ...attrs, type: "text", value: value === undefined ? "" : String(value) });
  }

  function renderSetup(game, table) {
    const key = JSON.stringify([game.name, game.players, game.options]);
    // the seed the preview was drawn with (chosen by the server when none was given)
    if (table && table.seed !== null && table.seed !== undefined && document.activeElement !== seed) {
      seed.value = String(table.seed);
    }
    if (key === state.gameKey) return;
    state.gameKey = key;
    const wanted = table ? table.players : game.players.default;
    players.replaceChildren();
    for (let n = game.players.min; n <= game.players.max; n++) {
      players.append(el("option", { value: String(n), text: String(n) }));
    }
    players.value = String(wanted);
    players.disabled = game.players.min === game.players.max;
    const now = studio.current() || {};
    const chosen = now.options || {};
    options.replaceChildren(...game.options.map((option) =>
      el("label", { class: "option-choice", title: option.name },
        `${option.title || option.name} `, optionInput(option, chosen[option.name]))));
    renderSeats();
  }

  function renderSeats() {
    const count = Number(players.value) || 0;
    seats.replaceChildren();
    if (!count) return;
    for (let seat = 1; seat <= count; seat++) {
      const select = el("select", { "data-seat": String(seat), "aria-label": seatName(seat),
        onchange: (e) => { state.seats[seat] = e.target.value; } });
      select.append(el("option", { value: "you", text: "you" }));
      for (const agent of state.agents) {
        const hint = agent.sees_hidden ? " (sees hidden facts)" : "";
        select.append(el("option", { value: agent.name,
          title: [agent.help, agent.sees_hidden ? "It reads what the game hides from its seat." : ""]
            .filter(Boolean).join(" "),
          text: `computer: ${agent.title || agent.name}${hint}` }));
      }
      select.value = state.seats[seat] || "you";
      if (select.value === "") select.value = "you";
      seats.append(el("label", { class: "seat-choice" }, `${seatName(seat)} `, select));
    }
  }

  function showVariables(lines) {
    const shown = Array.isArray(lines) ? lines : [];
    variables.replaceChildren(...shown.flatMap((line) => [
      el("dt", { text: line.label }), el("dd", { text: line.text })]));
    variables.hidden = shown.length === 0;
  }

  function showPicture(svgText) {
    picture.hidden = false;
    const node = safeSvg(svgText);
    if (node) picture.replaceChildren(node);
    else if (svgText) picture.replaceChildren(el("p", { class: "muted", text: "The table could not be drawn." }));
  }

  function onChecked(check) {
    if (!check || check.kind === "tests" && !check.table) return;
    const errors = errorsOf(check);
    if (errors.length || !check.table) {
      picture.classList.add("stale");
      if (!state.view) {
        status.textContent = errors.length
          ? `The rules have ${errors.length === 1 ? "an error" : `${errors.length} errors`}: showing the last good table.`
          : status.textContent;
      }
      play.disabled = true;
      return;
    }
    picture.classList.remove("stale");
    play.disabled = false;
    state.check = check;
    state.game = check.game;
    state.rulesetPath = (studio.current() || {}).rulesetPath || check.path;
    if (check.game) renderSetup(check.game, check.table);
    if (state.view) {   // playing: the preview waits for "Back to set-up"
      if (check.kind !== "tests" && state.playedText !== undefined
        && (studio.current() || {}).text !== state.playedText) {
        say("The rules have changed since this game started: “Back to set-up” plays them.");
      }
      return;
    }
    setup.hidden = false;
    showPicture(check.table.svg);
    showVariables(check.table.variables);
    const t = check.table;
    const who = t.deciding && t.deciding.length ? `${listOf(t.deciding)} to decide` : "";
    status.textContent = [t.prompt, who].filter(Boolean).join(" — ") || "The set-up.";
    picture.dataset.version = String(check.version);
  }

  // -- play --------------------------------------------------------------------------
  function showView(view) {
    state.view = view;
    element.classList.add("playing");
    setup.hidden = true;
    playBar.hidden = false;
    logBox.hidden = false;
    picture.classList.remove("stale");
    showPicture(view.svg);
    showVariables(view.variables);
    if (view.over) {
      status.textContent = view.winners && view.winners.length
        ? `The game is over: ${listOf(view.winners)} won.` : "The game is over: no winner.";
    } else {
      const who = view.deciding && view.deciding.length ? listOf(view.deciding) : "";
      const prompt = view.prompt || "choose";
      status.textContent = !who || prompt.includes(who) ? prompt : `${who}: ${prompt}`;
    }
    choices.replaceChildren(...(view.over ? [] : view.options.map((option) =>
      el("button", { type: "button", class: "option", "data-index": String(option.index),
        title: option.label && option.notation && option.label !== option.notation ? option.notation : null,
        text: option.label || option.notation,
        onclick: () => choose(option.index) }))));
    log.replaceChildren(...(view.log || []).map((line) => el("li", { text: line })));
    log.scrollTop = log.scrollHeight;
    undo.disabled = !view.can_undo;
    picture.dataset.moves = String((view.moves || []).length);
  }

  async function act(work) {
    if (state.busy) return;
    state.busy = true;
    element.classList.add("busy");
    try {
      showView(await work());
      note.hidden = true;
    } catch (error) {
      say(error.message, true);
    } finally {
      state.busy = false;
      element.classList.remove("busy");
    }
  }

  function say(text, bad = false) {
    note.replaceChildren(text);
    note.classList.toggle("bad", bad);
    note.hidden = false;
    if (!state.view) status.textContent = text;
  }

  function choose(index) {
    const view = state.view;
    act(() => studio.api("POST", `/api/play/${encodeURIComponent(view.session)}/choose`,
      { index, version: view.version }));
  }

  play.addEventListener("click", () => {
    const now = studio.current();
    if (!now || !now.rulesetPath) return;
    const chosen = setupChoices();
    const bySeat = {};
    for (const select of seats.querySelectorAll("select[data-seat]")) {
      if (select.value !== "you") bySeat[select.dataset.seat] = select.value;
    }
    state.playedText = now.kind === "ruleset" ? now.text : undefined;
    act(() => studio.api("POST", "/api/play", {
      path: now.rulesetPath, players: chosen.players, options: chosen.options,
      seed: chosen.seed, seats: bySeat }));
  });

  undo.addEventListener("click", () => {
    const view = state.view;
    if (view) act(() => studio.api("POST", `/api/play/${encodeURIComponent(view.session)}/undo`, {}));
  });

  back.addEventListener("click", () => {
    state.view = null;
    element.classList.remove("playing");
    setup.hidden = false;
    playBar.hidden = true;
    logBox.hidden = true;
    caseForm.hidden = true;
    note.hidden = true;
    if (state.check) onChecked(state.check);
  });

  saveCase.addEventListener("click", () => {
    const moves = (state.view && state.view.moves) || [];
    const recent = moves.slice(-4).join(", ");
    caseName.value = moves.length
      ? `after ${moves.length > 4 ? "… " : ""}${recent}`.slice(0, 70) : "the set-up";
    caseForm.hidden = false;
    caseName.focus();
    caseName.select();
  });

  caseForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const view = state.view;
    const name = caseName.value.trim();
    if (!view || !name) return;
    try {
      const saved = await studio.api("POST",
        `/api/play/${encodeURIComponent(view.session)}/save-case`, { name });
      caseForm.hidden = true;
      const link = el("a", { href: "#", text: `${saved.tests_path}, line ${saved.line}`,
        onclick: (e) => { e.preventDefault(); studio.openFile(saved.tests_path, { line: saved.line, col: 1 }); } });
      note.replaceChildren(`Saved the case “${saved.name}” to `, link, ".");
      note.classList.remove("bad");
      note.hidden = false;
      try { await studio.reloadFile(saved.tests_path); } catch (_) { /* not open: nothing to reload */ }
      studio.emit("file-written", { path: saved.tests_path });
    } catch (error) {
      say(error.message, true);
    }
  });

  studio.on("checked", onChecked);
  studio.on("play-view", (view) => {
    if (!view || !view.session) return;
    state.playedText = undefined;
    showView(view);
    note.hidden = true;
  });
  studio.on("opened", (opened) => {
    if (state.view && opened && opened.rulesetPath !== state.rulesetPath) back.click();
  });
  // the computer players on offer (`tabletop play`'s): random until the server answers
  studio.api("GET", "/api/agents").then((reply) => {
    if (reply && Array.isArray(reply.agents) && reply.agents.length) {
      state.agents = reply.agents;
      renderSeats();
    }
  }).catch(() => { /* keep random */ });
  const now = studio.current && studio.current();
  if (now && now.check) onChecked(now.check);
}
