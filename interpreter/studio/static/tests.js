// The studio's tests panel: every scenario case of the ruleset's tests file, pass or
// fail, run again (as `tabletop test` runs them) after each good check and each save.

import { el, errorsOf, safeSvg } from "./table.js";

const DEBOUNCE_MS = 300;

export function mount(element, studio) {
  element.classList.add("panel-body", "tests-panel");
  const head = el("div", { class: "tests-head" });
  const counts = el("span", { id: "tests-counts", class: "tests-counts", text: "No run yet." });
  const rerun = el("button", { type: "button", class: "small", text: "Run again",
    onclick: () => schedule(0) });
  const fileLink = el("a", { href: "#", class: "tests-file", hidden: true });
  head.append(counts, fileLink, rerun);
  const problems = el("div", { class: "tests-problems", hidden: true });
  const list = el("ul", { id: "tests-list", class: "tests-list" });
  element.append(head, problems, list);

  let timer = null;
  let running = false;
  let pending = false;

  /** Run the tests after `delay` ms; one run at a time, the latest request wins. */
  function schedule(delay = DEBOUNCE_MS) {
    clearTimeout(timer);
    timer = setTimeout(run, delay);
  }

  async function run() {
    if (running) { pending = true; return; }
    const now = studio.current();
    const path = now && (now.rulesetPath || now.path);
    if (!path) return;
    running = true;
    pending = false;
    element.classList.add("busy");
    try {
      const reply = await studio.api("POST", "/api/tests", { path });
      if (!pending) show(reply);
    } catch (error) {
      if (pending) {
        // a newer run is on its way
      } else if (error.status === 404 && !(error.message || "").startsWith("This studio cannot")) {
        showNone();   // no tests file yet
      } else {
        counts.textContent = `The tests could not run: ${error.message}`;
        counts.className = "tests-counts bad";
      }
    } finally {
      running = false;
      element.classList.remove("busy");
      if (pending) schedule(0);
    }
  }

  function openCase(tests, index) {
    studio.api("POST", "/api/tests/open", { tests_path: tests, index })
      .then((view) => { studio.emit("play-view", view); studio.showPanel("table"); })
      .catch((error) => { counts.textContent = error.message; counts.className = "tests-counts bad"; });
  }

  function lineLink(tests, line, text) {
    return el("a", { href: "#", class: "case-line", text,
      title: `Open ${tests} at line ${line}`,
      onclick: (e) => { e.preventDefault(); e.stopPropagation(); studio.openFile(tests, { line, col: 1 }); } });
  }

  function showNone() {
    element.dataset.passed = "0";
    element.dataset.failed = "0";
    counts.textContent = "No tests file yet.";
    counts.className = "tests-counts";
    fileLink.hidden = true;
    problems.hidden = true;
    list.replaceChildren(el("li", { class: "empty",
      text: "Play a position in the table and press “Save as case…”: the studio writes the "
        + "tests file with that case in it." }));
  }

  function show(reply) {
    const tests = reply.tests_path;
    element.dataset.passed = String(reply.passed);
    element.dataset.failed = String(reply.failed);
    fileLink.hidden = !tests;
    if (tests) {
      fileLink.textContent = tests;
      fileLink.onclick = (e) => { e.preventDefault(); studio.openFile(tests); };
    }
    const total = reply.cases.length;
    if (reply.error) {
      counts.textContent = "The tests file has errors.";
      counts.className = "tests-counts bad";
    } else if (!total) {
      counts.textContent = "No cases yet.";
      counts.className = "tests-counts";
    } else {
      counts.textContent = reply.failed
        ? `${reply.failed} of ${total} failing, ${reply.passed} passing`
        : total === 1 ? "The case passes" : `All ${total} cases pass`;
      counts.className = `tests-counts ${reply.failed ? "bad" : "good"}`;
    }
    const diagnostics = reply.error ? reply.error.diagnostics || [] : [];
    problems.hidden = !diagnostics.length;
    problems.replaceChildren(...diagnostics.map((d) =>
      el("div", { class: `tests-problem ${d.severity}` },
        lineLink(tests, d.line, `line ${d.line}`), ` ${d.message}`,
        d.hint ? el("div", { class: "hint", text: d.hint }) : null)));
    if (!total && !reply.error) {
      list.replaceChildren(el("li", { class: "empty",
        text: "Play a position in the table and press “Save as case…” to add the first one." }));
      return;
    }
    list.replaceChildren(...reply.cases.map((c) => caseRow(tests, c)));
  }

  function caseRow(tests, c) {
    const row = el("li", { class: `case ${c.passed ? "pass" : "fail"}`, "data-index": String(c.index),
      title: "Open this case's position in the table" });
    const mark = el("span", { class: "case-mark", text: c.passed ? "✓" : "✗",
      "aria-label": c.passed ? "passes" : "fails" });
    const name = el("button", { type: "button", class: "case-name", text: c.name || `case ${c.index + 1}`,
      onclick: () => openCase(tests, c.index) });
    row.append(el("div", { class: "case-head" }, mark, name, lineLink(tests, c.line, `line ${c.line}`)));
    if (!c.passed) {
      const body = el("div", { class: "case-failure" });
      if (c.report) body.append(el("pre", { class: "case-report", text: c.report }));
      const picture = safeSvg(c.svg);
      if (picture) body.append(el("div", { class: "case-svg" }, picture));
      if (c.legal && c.legal.length) {
        const who = c.deciding && c.deciding.length
          ? `Player ${c.deciding.join(" and Player ")} may choose:` : "Legal options:";
        body.append(el("div", { class: "case-legal" }, el("span", { text: who }),
          el("ul", {}, ...c.legal.map((option) => el("li", { text: option })))));
      }
      row.append(body);
    }
    return row;
  }

  studio.on("checked", (check) => { if (check && !errorsOf(check).length) schedule(); });
  studio.on("saved", () => schedule());
  studio.on("file-written", () => schedule());
  studio.on("opened", () => schedule(0));
}
