// The studio's balance panel: a quick `tabletop analyze` on demand (progress, stop), its
// headlines, each seat's win rate with its interval, and its charts (a variant's beside
// its base's).

import { el, safeSvg } from "./table.js";

const POLL_MS = 300;
const percent = (x) => `${(100 * x).toFixed(1)}%`;

/** Whether the ruleset's text extends another (a variant: it can be compared with its base). */
const isVariant = (text) => /^extends\s*:/m.test(text || "");

export function mount(element, studio) {
  element.classList.add("panel-body", "balance-panel");
  const games = el("input", { id: "balance-games", type: "number", min: "1", max: "100000",
    step: "1", value: "50", class: "number" });
  const players = el("select", { id: "balance-players" });
  const compare = el("input", { id: "balance-compare", type: "checkbox" });
  const compareLabel = el("label", { class: "balance-compare", hidden: true,
    title: "Play the base game as well and show the two side by side" },
  compare, " compare with the base game");
  const run = el("button", { id: "balance-run", class: "primary", type: "button", text: "Run" });
  const stop = el("button", { id: "balance-stop", type: "button", text: "Stop", disabled: true });
  const form = el("div", { class: "balance-form" },
    el("label", {}, "Games ", games), el("label", {}, "Players ", players),
    compareLabel, el("span", { class: "balance-buttons" }, run, stop));
  const progress = el("progress", { id: "balance-progress", max: 1, value: 0 });
  const count = el("span", { class: "balance-count", id: "balance-count" });
  const progressBox = el("div", { class: "balance-progress", hidden: true }, progress, count);
  const message = el("p", { class: "balance-message", hidden: true });
  const results = el("div", { class: "balance-results", id: "balance-results" });
  const charts = el("div", { id: "balance-charts", class: "balance-charts" });
  element.append(form, progressBox, message, results, charts);

  let job = null;
  let timer = null;
  let playersKey = "";

  function sayNote(text, bad = false) {
    message.textContent = text;
    message.classList.toggle("bad", bad);
    message.hidden = !text;
  }

  function fillPlayers(game, chosen) {
    const key = JSON.stringify([game.players, chosen]);
    if (key === playersKey) return;
    playersKey = key;
    const keep = players.value;
    players.replaceChildren(el("option", { value: "", text: `as set up (${chosen || game.players.default})` }));
    for (let n = game.players.min; n <= game.players.max; n++) {
      players.append(el("option", { value: String(n), text: String(n) }));
    }
    players.value = [...players.options].some((o) => o.value === keep) ? keep : "";
  }

  studio.on("checked", (check) => {
    if (check && check.game) fillPlayers(check.game, check.table ? check.table.players : null);
    const now = studio.current() || {};
    if (now.kind === "ruleset") compareLabel.hidden = !isVariant(now.text);
  });
  studio.on("opened", () => { playersKey = ""; });

  function setRunning(on) {
    run.disabled = on;
    stop.disabled = !on;
    element.classList.toggle("busy", on);
  }

  run.addEventListener("click", async () => {
    const now = studio.current();
    if (!now || !now.rulesetPath) return;
    const body = { path: now.rulesetPath, games: Math.max(1, Number(games.value) || 50) };
    const seats = players.value ? Number(players.value) : now.players;
    if (seats) body.players = seats;
    if (now.options && Object.keys(now.options).length) body.options = now.options;
    if (!compareLabel.hidden && compare.checked) body.compare_base = true;
    setRunning(true);
    sayNote("");
    results.replaceChildren();
    charts.replaceChildren();
    progress.max = body.games * (body.compare_base ? 2 : 1);
    progress.value = 0;
    count.textContent = "starting…";
    progressBox.hidden = false;
    try {
      job = (await studio.api("POST", "/api/balance", body)).job;
      poll(job);
    } catch (error) {
      setRunning(false);
      progressBox.hidden = true;
      sayNote(error.message, true);
    }
  });

  stop.addEventListener("click", () => {
    if (!job) return;
    stop.disabled = true;
    studio.api("POST", `/api/balance/${encodeURIComponent(job)}/stop`, {}).catch(() => {});
  });

  async function poll(id) {
    clearTimeout(timer);
    if (id !== job) return;
    let reply;
    try {
      reply = await studio.api("GET", `/api/balance/${encodeURIComponent(id)}`);
    } catch (error) {
      setRunning(false);
      sayNote(error.message, true);
      return;
    }
    if (id !== job) return;
    progress.max = Math.max(reply.total || 1, 1);
    progress.value = reply.played || 0;
    count.textContent = `${reply.played} of ${reply.total} games`;
    if (reply.status === "running") {
      timer = setTimeout(() => poll(id), POLL_MS);
      return;
    }
    setRunning(false);
    job = null;
    if (reply.status === "failed") sayNote(reply.error || "The balance check failed.", true);
    else if (reply.status === "stopped") sayNote(`Stopped after ${reply.played} of ${reply.total} games.`);
    if (reply.report) showReport(reply.report);
  }

  /** A rate's bar (its 95% interval shaded, the rate marked, an even share dashed) and text. */
  function rateCells(r, side) {
    const low = typeof r.low === "number" ? r.low : r.rate;
    const high = typeof r.high === "number" ? r.high : r.rate;
    const bar = el("div", { class: `rate-bar ${side}`, title: `95% interval ${percent(low)}–${percent(high)}` },
      el("span", { class: "rate-interval", style: `left:${100 * low}%;width:${100 * (high - low)}%` }),
      el("span", { class: "rate-point", style: `left:${100 * r.rate}%` }));
    if (typeof r.fair_share === "number") {
      bar.append(el("span", { class: "rate-fair", style: `left:${100 * r.fair_share}%`, title: "an even share" }));
    }
    const counted = typeof r.count === "number" && typeof r.total === "number"
      ? ` · ${r.count} of ${r.total}` : "";
    return [el("td", { class: "rate-cell" }, bar),
      el("td", { class: "rate-text", text: `${percent(r.rate)} (${percent(low)}–${percent(high)})${counted}` })];
  }

  /** Each seat's rows (and the draws'): one per side compared, the variant's first. */
  function rateTable(sides) {
    const rows = [];
    const keyOf = (s) => `${s.players}:${s.seat}`;
    const bySide = sides.map((side) => new Map((side.report.seats || []).map((s) => [keyOf(s), s])));
    const draws = sides.map((side) => (side.report.groups || []).map((g) => ({ ...g.draws,
      total: g.games - (g.errors || 0), label: (side.report.groups.length > 1 ? `${g.label}: ` : "") + "Draws" })));
    const add = (label, each) => {
      each.forEach((r, i) => {
        if (!r || typeof r.rate !== "number") return;
        const head = i === 0 ? el("th", { rowspan: String(each.filter(Boolean).length), text: label }) : null;
        const who = sides.length > 1 ? el("td", { class: `rate-side ${sides[i].cls}`, text: sides[i].name }) : null;
        rows.push(el("tr", { class: sides[i].cls }, head, who, ...rateCells(r, sides[i].cls)));
      });
    };
    for (const seat of sides[0].report.seats || []) {
      add(seat.label || `Player ${seat.seat}`, bySide.map((m) => m.get(keyOf(seat))));
    }
    draws[0].forEach((d, n) => {
      if (draws.some((list) => list[n] && list[n].count)) add(d.label, draws.map((list) => list[n]));
    });
    return el("table", { class: "balance-seats" },
      el("caption", { text: "Who won, with 95% intervals" }), el("tbody", {}, ...rows));
  }

  function chartFigure(chart) {
    const picture = safeSvg(chart.svg);
    return el("figure", { class: "balance-chart" },
      el("figcaption", { text: chart.title }),
      picture || el("p", { class: "muted", text: "This chart could not be drawn." }));
  }

  function showReport(report) {
    const base = report.base;
    const sides = [{ report, cls: base ? "variant" : "single", name: base ? report.title || "this variant" : "" }];
    if (base) sides.push({ report: base, cls: "base", name: base.title || "the base game" });
    const heads = report.headlines || [];
    results.replaceChildren(
      ...(heads.length ? [el("ul", { class: "balance-headlines" }, ...heads.map((h) => el("li", { text: h })))] : []),
      rateTable(sides));
    // analyze draws a variant and its base side by side in each chart; the base's own
    // charts, if a report ever carries them, go beside the variant's
    const theirs = new Map(((base && base.charts) || []).map((c) => [c.title, c]));
    charts.classList.toggle("compared", theirs.size > 0);
    charts.replaceChildren(...(report.charts || []).map((c) => (theirs.has(c.title)
      ? el("div", { class: "chart-pair" }, chartFigure(c), chartFigure({ ...theirs.get(c.title), title: `${c.title}: the base game` }))
      : chartFigure(c))));
  }

}
