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

  function seatRows(report) {
    const seats = report.seats || [];
    return seats.map((s) => {
      const rate = typeof s.rate === "number" ? s.rate : null;
      const label = s.label || s.title || (s.seat !== undefined ? `Player ${s.seat}` : "");
      if (rate === null) {
        return el("tr", {}, el("th", { text: label }),
          el("td", { colspan: "2", text: Object.entries(s).map(([k, v]) => `${k}: ${v}`).join(", ") }));
      }
      const low = typeof s.low === "number" ? s.low : rate;
      const high = typeof s.high === "number" ? s.high : rate;
      const bar = el("div", { class: "rate-bar", title: `95% interval ${percent(low)}–${percent(high)}` },
        el("span", { class: "rate-interval", style: `left:${100 * low}%;width:${100 * (high - low)}%` }),
        el("span", { class: "rate-point", style: `left:${100 * rate}%` }));
      if (typeof s.fair === "number" || typeof s.fair_share === "number") {
        const fair = typeof s.fair === "number" ? s.fair : s.fair_share;
        bar.append(el("span", { class: "rate-fair", style: `left:${100 * fair}%`, title: "an even share" }));
      }
      const counted = typeof s.count === "number" && typeof s.total === "number"
        ? ` — ${s.count} of ${s.total}` : "";
      return el("tr", {}, el("th", { text: label }), el("td", { class: "rate-cell" }, bar),
        el("td", { class: "rate-text", text: `${percent(rate)} (${percent(low)}–${percent(high)})${counted}` }));
    });
  }

  function reportBlock(report, title) {
    const block = el("section", { class: "balance-report" });
    if (title) block.append(el("h3", { text: title }));
    const heads = report.headlines || [];
    if (heads.length) block.append(el("ul", { class: "balance-headlines" }, ...heads.map((h) => el("li", { text: h }))));
    const rows = seatRows(report);
    if (rows.length) {
      block.append(el("table", { class: "balance-seats" },
        el("caption", { text: "Win rate per seat (95% interval)" }), el("tbody", {}, ...rows)));
    }
    return block;
  }

  function chartFigure(chart, caption) {
    const picture = safeSvg(chart.svg);
    return el("figure", { class: "balance-chart" },
      picture || el("p", { class: "muted", text: "This chart could not be drawn." }),
      el("figcaption", { text: caption || chart.title }));
  }

  function showReport(report) {
    const base = report.base;
    results.classList.toggle("compared", Boolean(base));
    results.replaceChildren(reportBlock(report, base ? "This variant" : null),
      ...(base ? [reportBlock(base, "The base game")] : []));
    const mine = report.charts || [];
    if (!base) {
      charts.replaceChildren(...mine.map((c) => chartFigure(c)));
      charts.classList.remove("compared");
      return;
    }
    charts.classList.add("compared");
    const theirs = new Map((base.charts || []).map((c) => [c.title, c]));
    charts.replaceChildren(...mine.map((c) => el("div", { class: "chart-pair" },
      el("h4", { text: c.title }),
      chartFigure(c, "this variant"),
      ...(theirs.has(c.title) ? [chartFigure(theirs.get(c.title), "the base game")] : []))));
  }
}
