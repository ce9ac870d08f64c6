// The create-a-game form: pick a game, its options and who sits where, then get the
// links to play (one per person, and one to watch).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const PLAYERS = [
    ["human", "a person"],
    ["random", "computer: random"],
    ["uniform", "computer: uniform"],
    ["mcts:playouts=200", "computer: MCTS (200 playouts)"],
    ["ismcts:playouts=200", "computer: ISMCTS (200 playouts)"],
  ];
  let rulesets = [];
  let agents = null; // names the server offers (null: not known)
  let cheats = {}; // those that read the true state, secrets included: what to say

  function showError(message) {
    $("error").textContent = message;
    $("error").hidden = !message;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) node.append(c instanceof Node ? c : String(c));
    return node;
  }

  async function getJSON(url) {
    const response = await fetch(url);
    const data = await response.json().catch(() => null);
    if (!response.ok) throw new Error((data && data.error) || `${url}: ${response.status}`);
    return data;
  }

  function current() {
    return rulesets.find((r) => r.name === $("ruleset").value);
  }

  function showGame() {
    const game = current();
    if (!game) return;
    $("summary").textContent = game.summary || "";
    $("rules").href = `/rules/${encodeURIComponent(game.name)}`;
    const players = $("players");
    players.min = game.seats.min;
    players.max = game.seats.max;
    const n = Number(players.value);
    if (!(n >= game.seats.min && n <= game.seats.max)) players.value = game.seats.min;
    const box = $("options");
    box.replaceChildren();
    for (const o of game.options || []) {
      let input;
      if (o.type === "bool") {
        input = el("input", { type: "checkbox", "data-option": o.id });
        input.checked = !!o.default;
      } else if (o.type === "choice") {
        input = el("select", { "data-option": o.id },
          ...(o.choices || []).map((c) => el("option", { value: c }, c)));
        input.value = String(o.default);
      } else {
        input = el("input", { type: "number", "data-option": o.id, value: String(o.default) });
        if (o.min != null) input.min = o.min;
        if (o.max != null) input.max = o.max;
      }
      box.append(el("label", { title: o.description || "" }, input, " ", o.label,
        o.description ? el("span", { class: "hint" }, ` — ${o.description}`) : ""));
    }
    $("options-box").hidden = !(game.options || []).length;
    showSeats();
  }

  function showSeats() {
    const n = Number($("players").value) || 0;
    const box = $("seats");
    const before = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren();
    const offered = PLAYERS.filter(([value]) => value === "human" || !agents
      || agents.includes(value.split(":")[0]));
    for (let s = 1; s <= n; s++) {
      const select = el("select", { "data-seat": String(s) },
        ...offered.map(([value, text]) => el("option", { value }, text)));
      select.value = before[s - 1] || (s === 1 ? "human" : "random");
      select.addEventListener("change", showFairness);
      box.append(el("label", {}, `Player ${s}`, select));
    }
    showFairness();
  }

  // A computer player that reads the true state sees all a game hides: say so before
  // the game starts, as the terminal does.
  function showFairness() {
    const game = current();
    const chosen = [...$("seats").querySelectorAll("select")].map((s) => s.value.split(":")[0]);
    const cheat = game && game.hidden && chosen.find((name) => name in cheats);
    $("fairness").textContent = cheat ? `Note: ${cheats[cheat]}` : "";
    $("fairness").hidden = !cheat;
    // the ruleset's own settings for a chosen computer player (its computer_players)
    const given = (game && game.computer_players) || {};
    const set = [...new Set(chosen)].filter((name) => name in given);
    $("settings").textContent = set.length ? "This game's ruleset sets how its computer "
      + `players play: ${set.map((name) => `${name}:${given[name]}`).join(", ")} `
      + "(a setting given to a seat wins)." : "";
    $("settings").hidden = !set.length;
  }

  async function submit(event) {
    event.preventDefault();
    showError("");
    const game = current();
    if (!game) return;
    const options = {};
    for (const input of $("options").querySelectorAll("[data-option]")) {
      const o = game.options.find((x) => x.id === input.dataset.option);
      options[o.id] = o.type === "bool" ? input.checked : o.type === "int" ? Number(input.value) : input.value;
    }
    const seats = {};
    for (const select of $("seats").querySelectorAll("select")) seats[select.dataset.seat] = select.value;
    const body = { ruleset: game.name, options, players: Number($("players").value), seats,
      hotseat: $("hotseat").checked };
    const seed = $("seed-box").hidden ? "" : $("seed").value.trim();
    if (seed) {
      if (!/^\d+$/.test(seed)) { showError("The seed is a whole number (or leave it empty)."); return; }
      body.seed = Number(seed);
    }
    let data;
    try {
      const response = await fetch("/api/games", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      data = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
      if (!response.ok || data.error) throw new Error(data.error || `the server answered ${response.status}`);
    } catch (e) {
      showError(`The game could not be started: ${e.message}`);
      return;
    }
    const list = $("links");
    list.replaceChildren();
    for (const [who, link] of Object.entries(data.links || {})) {
      const text = who === "table" ? "The table: one screen, passed between players" : `Player ${who}`;
      list.append(el("li", {}, el("a", { href: link, "data-seat": who }, text)));
    }
    if (data.spectator) list.append(el("li", {}, el("a", { href: data.spectator, "data-seat": "spectator" }, "Watch (spectator)")));
    $("result-each").hidden = !!data.hotseat;
    $("result-hotseat").hidden = !data.hotseat;
    $("notes").replaceChildren(...(data.notes || []).map((n) => el("p", { class: "note" }, n)));
    $("result").hidden = false;
  }

  async function start() {
    try {
      rulesets = await getJSON("/api/rulesets");
    } catch (e) {
      showError(`The games on offer could not be read: ${e.message}`);
      return;
    }
    try {
      // a seed may be chosen only on a server started for testing
      $("seed-box").hidden = !(await getJSON("/api/server")).chosen_seeds;
    } catch (e) {
      $("seed-box").hidden = true;
    }
    try {
      const offered = await getJSON("/api/agents");
      agents = offered.map((a) => a.name);
      cheats = Object.fromEntries(offered.filter((a) => a.sees_hidden).map((a) => [a.name, a.note]));
    } catch (e) {
      agents = null;
    }
    $("ruleset").replaceChildren(...rulesets.map((r) => el("option", { value: r.name }, r.title)));
    showGame();
  }

  $("ruleset").addEventListener("change", showGame);
  $("players").addEventListener("change", showSeats);
  $("create").addEventListener("submit", submit);
  start();
})();
