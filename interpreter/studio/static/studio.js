// The studio page: the file list, the editor (editor.js) and the four panels (table,
// tests, balance, rulebook: each a module exporting mount(element, studio)), tied
// together by one `studio` object and its events, as STUDIO-CONTRACT.md describes.
import { makeApi, pageToken } from "./api.js";
import { StudioEditor, TESTS_SUFFIX } from "./editor.js";

const PANELS = ["table", "tests", "balance", "rulebook"];
const $ = (id) => document.getElementById(id);

const token = pageToken();
const api = makeApi(token);
const listeners = new Map();
const preview = { players: null, options: {}, seed: null };
let workspace = { roots: [], files: [], bundled: [], templates: [] };
const dirtyPaths = new Set();
let statusTimer = null;

function on(event, fn) {
  if (!listeners.has(event)) listeners.set(event, []);
  listeners.get(event).push(fn);
}

function emit(event, data) {
  for (const fn of listeners.get(event) || []) {
    try {
      fn(data);
    } catch (error) {
      console.error(error);
      status(`Something went wrong showing ${event}: ${error.message}`, true);
    }
  }
}

/** Says something in the status line (an error stays until the next message). */
function status(text, isError = false) {
  const line = $("status");
  line.textContent = text;
  line.classList.toggle("error", isError);
  window.clearTimeout(statusTimer);
  if (!isError && text) statusTimer = window.setTimeout(() => { line.textContent = ""; }, 6000);
}

/** The ruleset a tests file belongs to: the workspace's `name.yaml` or `name.yml`. */
function rulesetOfTests(testsPath) {
  const stem = testsPath.slice(0, -TESTS_SUFFIX.length);
  const known = new Set(workspace.files.map((f) => f.path));
  return known.has(`${stem}.yml`) && !known.has(`${stem}.yaml`) ? `${stem}.yml` : `${stem}.yaml`;
}

const editor = new StudioEditor($("editor"), api, {
  status,
  preview: () => preview,
  checked: (reply) => { showCheckState(reply); emit("checked", reply); },
  opened: (info) => { showOpened(info); emit("opened", info); },
  saved: (info) => { emit("saved", info); loadWorkspace(); },
  written: (info) => emit("file-written", info),
  dirty: (path, isDirty) => showDirty(path, isDirty),
  problems: (doc, reply) => renderProblems(reply),
});

const studio = {
  token,
  api,
  on,
  emit,
  current() {
    const info = editor.info();
    const doc = editor.active;
    const check = doc ? doc.check : null;
    const game = check && check.game;
    return {
      ...info,
      text: editor.text(),
      check,
      players: preview.players ?? (game ? game.players.default : null),
      options: { ...preview.options },
      seed: preview.seed,
    };
  },
  setPreview({ players, options, seed } = {}) {
    if (players !== undefined) preview.players = players;
    if (options !== undefined) preview.options = { ...(options || {}) };
    if (seed !== undefined) preview.seed = seed;
    return editor.checkNow();
  },
  async openFile(path, at) {
    try {
      return await editor.open(path, at, rulesetOfTests);
    } catch (error) {
      status(error.message, true);
      throw error;
    }
  },
  async reloadFile(path) {
    const told = await editor.fileWritten(path);
    if (!told) emit("file-written", { path });
    await loadWorkspace();
  },
  showPanel,
};
window.studio = studio;

// -- the file list ------------------------------------------------------------------------

async function loadWorkspace() {
  try {
    workspace = await api("GET", "/api/workspace");
  } catch (error) {
    status(error.message, true);
    return workspace;
  }
  renderFiles();
  const roots = workspace.roots || [];
  const root = roots.length ? String(roots[0]) : "";
  $("root-name").textContent = root ? `Folder: ${root.split(/[\\/]/).filter(Boolean).pop() || root}` : "";
  $("root-name").title = root;
  return workspace;
}

function renderFiles() {
  const list = $("files");
  const files = [...(workspace.files || [])];
  const rulesets = files.filter((f) => f.kind === "ruleset");
  const tests = new Map(files.filter((f) => f.kind === "tests").map((f) => [f.path, f]));
  const items = [];
  for (const ruleset of rulesets) {
    items.push(fileItem(ruleset, ruleset.title || ruleset.path, "ruleset"));
    const stem = ruleset.path.replace(/\.[^./]*$/, "");
    const own = tests.get(stem + TESTS_SUFFIX);
    if (own) {
      items.push(fileItem(own, "tests", "tests"));
      tests.delete(own.path);
    }
  }
  for (const file of tests.values()) items.push(fileItem(file, file.path, "tests"));
  for (const file of files.filter((f) => f.kind === "other")) items.push(fileItem(file, file.path, "other"));
  if (!items.length) {
    const empty = document.createElement("li");
    empty.className = "muted small empty";
    empty.textContent = "No rulesets here yet: start a new game or a variant.";
    items.push(empty);
  }
  list.replaceChildren(...items);
  highlightOpenFiles();
}

function fileItem(file, label, kind) {
  const li = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.className = `file ${kind}`;
  button.dataset.path = file.path;
  const name = document.createElement("span");
  name.className = "file-name";
  name.textContent = label;
  button.append(name);
  if (kind === "ruleset" && label !== file.path) {
    const path = document.createElement("span");
    path.className = "file-path";
    path.textContent = file.path;
    button.append(path);
  }
  const mark = document.createElement("span");
  mark.className = "file-dirty";
  mark.textContent = "●";
  mark.title = "Unsaved changes";
  button.append(mark);
  button.addEventListener("click", () => studio.openFile(file.path).catch(() => {}));
  li.append(button);
  return li;
}

function highlightOpenFiles() {
  const info = editor.info();
  for (const button of document.querySelectorAll("#files .file")) {
    const path = button.dataset.path;
    button.classList.toggle("open", path === info.path);
    button.classList.toggle("paired", path !== info.path &&
      (path === info.rulesetPath || path === info.testsPath));
    button.classList.toggle("is-dirty", dirtyPaths.has(path));
  }
}

// -- the editor's frame: title, tabs, dirty marker, problems --------------------------------

function showOpened(info) {
  $("doc-name").textContent = info.path || "No file open";
  document.title = info.path ? `${info.path} · Tabletop Studio` : "Tabletop Studio";
  $("save").disabled = !info.path;
  for (const tab of document.querySelectorAll(".editor-tab")) {
    const path = tab.dataset.doc === "ruleset" ? info.rulesetPath : info.testsPath;
    tab.disabled = !path;
    tab.title = path || "";
    tab.classList.toggle("active", !!path && path === info.path);
    tab.setAttribute("aria-selected", String(!!path && path === info.path));
  }
  highlightOpenFiles();
}

function showDirty(path, isDirty) {
  if (isDirty) dirtyPaths.add(path);
  else dirtyPaths.delete(path);
  const info = editor.info();
  if (path === info.path) $("dirty").hidden = !isDirty;
  for (const tab of document.querySelectorAll(".editor-tab")) {
    const tabPath = tab.dataset.doc === "ruleset" ? info.rulesetPath : info.testsPath;
    tab.classList.toggle("is-dirty", !!tabPath && dirtyPaths.has(tabPath));
  }
  highlightOpenFiles();
}

function showCheckState(reply) {
  const state = $("check-state");
  const errors = (reply.diagnostics || []).filter((d) => d.severity !== "warning").length;
  const warnings = (reply.diagnostics || []).length - errors;
  state.className = "check-state " + (errors ? "bad" : warnings ? "warn" : "good");
  state.textContent = errors ? plural(errors, "error") + (warnings ? `, ${plural(warnings, "warning")}` : "")
    : warnings ? plural(warnings, "warning") : "No problems";
  const ms = reply.timing_ms ? Object.values(reply.timing_ms).reduce((a, b) => a + (b || 0), 0) : null;
  state.title = ms != null ? `Checked in ${Math.round(ms)} ms` : "";
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function renderProblems(reply) {
  const list = $("problems");
  const diagnostics = (reply && reply.diagnostics) || [];
  $("problem-count").textContent = diagnostics.length ? String(diagnostics.length) : "";
  if (!reply) {
    list.replaceChildren();
    return;
  }
  if (!diagnostics.length) {
    const none = document.createElement("li");
    none.className = "no-problems";
    none.textContent = "No problems: the rules load and set up.";
    list.replaceChildren(none);
    return;
  }
  list.replaceChildren(...diagnostics.map((d) => {
    const li = document.createElement("li");
    li.className = `problem ${d.severity === "warning" ? "warning" : "error"}`;
    li.tabIndex = 0;
    li.title = d.rendered || "";
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = `Line ${d.line}`;
    const message = document.createElement("span");
    message.className = "message";
    message.textContent = d.message;
    li.append(where, message);
    if (d.hint) {
      const hint = document.createElement("div");
      hint.className = "hint";
      hint.textContent = d.hint;
      li.append(hint);
    }
    if (d.fixes && d.fixes.length) {
      const fixes = document.createElement("div");
      fixes.className = "fixes";
      for (const fix of d.fixes) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "fix";
        button.textContent = fix.label;
        button.addEventListener("click", (event) => {
          event.stopPropagation();
          editor.applyFix(d, fix);
        });
        fixes.append(button);
      }
      li.append(fixes);
    }
    const go = () => editor.goto(d.line, d.col);
    li.addEventListener("click", go);
    li.addEventListener("keydown", (event) => { if (event.key === "Enter") go(); });
    return li;
  }));
}

// -- panels -------------------------------------------------------------------------------

function showPanel(name) {
  if (!PANELS.includes(name)) return;
  for (const panel of PANELS) {
    $(`panel-${panel}`).hidden = panel !== name;
    const tab = document.querySelector(`[data-panel="${panel}"]`);
    tab.classList.toggle("active", panel === name);
    tab.setAttribute("aria-selected", String(panel === name));
  }
  emit("panel-shown", { name });
}

async function mountPanels() {
  await Promise.all(PANELS.map(async (name) => {
    const element = $(`panel-${name}`);
    try {
      const module = await import(`./${name}.js`);
      module.mount(element, studio);
    } catch (error) {
      console.error(error);
      const note = document.createElement("p");
      note.className = "muted panel-missing";
      note.textContent = `The ${name} panel could not be shown here.`;
      element.replaceChildren(note);
    }
  }));
}

// -- new game, variant --------------------------------------------------------------------

function withYaml(name) {
  const trimmed = name.trim();
  return /\.ya?ml$/.test(trimmed) ? trimmed : `${trimmed}.yaml`;
}

function setupDialog(dialog, fill, create) {
  const form = dialog.querySelector("form");
  const error = dialog.querySelector("[data-role=error]");
  dialog.querySelector("[data-role=cancel]").addEventListener("click", () => dialog.close());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const reply = await create(new FormData(form));
      dialog.close();
      await loadWorkspace();
      await studio.openFile(reply.path);
      status(`Created ${reply.path}.`);
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return async () => {
    error.textContent = "";
    await loadWorkspace();
    fill(form);
    dialog.showModal();
    form.querySelector("input[name=name]").select();
  };
}

const openNewGame = setupDialog($("new-game-dialog"), (form) => {
  const select = form.elements.template;
  const summary = form.querySelector("[data-role=summary]");
  select.replaceChildren(...(workspace.templates || []).map((t) => new Option(t.title, t.id)));
  const describe = () => {
    const chosen = (workspace.templates || []).find((t) => t.id === select.value);
    summary.textContent = chosen ? chosen.summary || "" : "No templates are available.";
  };
  select.onchange = describe;
  describe();
  if (!form.elements.name.value) form.elements.name.value = "my-game.yaml";
}, (data) => api("POST", "/api/new", { template: data.get("template"), name: withYaml(data.get("name")) }));

const openVariant = setupDialog($("variant-dialog"), (form) => {
  const select = form.elements.base;
  select.replaceChildren(...(workspace.bundled || []).map((b) =>
    new Option(b.variant_of ? `${b.title} (a variant of ${b.variant_of})` : b.title, b.name)));
  const suggest = () => { form.elements.name.value = `my-${select.value}.yaml`; };
  select.onchange = suggest;
  if (!form.elements.name.value) suggest();
}, (data) => api("POST", "/api/variant", { base: data.get("base"), name: withYaml(data.get("name")) }));

// -- wiring -------------------------------------------------------------------------------

function wire() {
  $("save").addEventListener("click", () => editor.save());
  $("disk-reload").addEventListener("click", () => editor.reload().then(() => editor.focus()));
  $("disk-keep").addEventListener("click", () => editor.keepMine());
  $("conflict-reload").addEventListener("click", () => editor.reload().then(() => editor.focus()));
  $("conflict-overwrite").addEventListener("click",
    () => editor.save({ overwrite: true }).then(() => editor.focus()));
  $("new-game").addEventListener("click", () => openNewGame());
  $("new-variant").addEventListener("click", () => openVariant());
  for (const tab of document.querySelectorAll(".editor-tab")) {
    tab.addEventListener("click", () => {
      const info = editor.info();
      const path = tab.dataset.doc === "ruleset" ? info.rulesetPath : info.testsPath;
      if (path && path !== info.path) studio.openFile(path).catch(() => {});
    });
  }
  for (const tab of document.querySelectorAll("[data-panel]")) {
    tab.addEventListener("click", () => showPanel(tab.dataset.panel));
  }
  window.addEventListener("keydown", (event) => {
    // the editor's own Mod-s handles (and prevents) it when the editor has the focus
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s" && !event.defaultPrevented) {
      event.preventDefault();
      editor.save();
    }
  });
  window.addEventListener("beforeunload", (event) => {
    if (dirtyPaths.size) event.preventDefault();
  });
}

async function start() {
  wire();
  showPanel("table");
  const panels = mountPanels();
  await loadWorkspace();
  const asked = new URLSearchParams(window.location.search).get("path");
  const first = asked || workspace.start || ((workspace.files || []).find((f) => f.kind === "ruleset") || {}).path;
  if (first) await studio.openFile(first).catch(() => {});
  else status("Start a new game or a variant of a bundled game.");
  await panels;
}

start();
