// The studio's editor: CodeMirror 6 over the designer's files. Every edit is checked by
// the server (the same loader and compiler as the CLI) after a short pause; its
// diagnostics are drawn inline and listed under the editor, its quick fixes are one click.
// A ruleset and its tests file are two tabs; saving guards against overwriting a file
// changed on disk, and a clean buffer follows the disk by itself.
import {
  EditorState, Transaction, Prec, EditorView, keymap, lineNumbers,
  highlightActiveLine, highlightActiveLineGutter, drawSelection, dropCursor,
  rectangularSelection, crosshairCursor, highlightSpecialChars, hoverTooltip, defaultKeymap,
  history, historyKeymap, indentWithTab, syntaxHighlighting, defaultHighlightStyle,
  indentOnInput, bracketMatching, foldGutter, foldKeymap, indentUnit, autocompletion,
  completionKeymap, closeBrackets, closeBracketsKeymap, setDiagnostics, lintGutter,
  lintKeymap, search, searchKeymap, highlightSelectionMatches, yaml,
} from "./vendor/codemirror.js";

/** How long the editor waits after a keystroke before asking for a check (at most 40 ms). */
export const CHECK_DELAY_MS = 30;
/** How often open files are compared with the disk. */
export const POLL_MS = 1500;
export const TESTS_SUFFIX = ".tests.yaml";

/** "ruleset" | "tests" | "other", from a workspace name. */
export function kindOf(path) {
  if (path.endsWith(TESTS_SUFFIX)) return "tests";
  if (/\.ya?ml$/.test(path)) return "ruleset";
  return "other";
}

/** The tests file beside a ruleset (as the CLI's catalog.tests_file_for names it). */
export function testsPathFor(rulesetPath) {
  return rulesetPath.replace(/\.[^./]*$/, "") + TESTS_SUFFIX;
}

/** The text a tests file starts with before it is first saved. */
function testsStarter(rulesetPath) {
  const name = rulesetPath ? rulesetPath.split("/").pop() : "my-game.yaml";
  return `# Scenario tests for ${name}: run them here (the Tests panel) or with\n` +
    `# \`tabletop test ${name}\`. Play a position on the Table and save it as a case.\n` +
    `ruleset: ${name}\n\ncases: []\n`;
}

/** A document offset from the server's 1-based line and column, kept inside the text. */
export function offsetOf(doc, line, col) {
  const number = Math.min(Math.max(line || 1, 1), doc.lines);
  const at = doc.line(number);
  return Math.min(at.from + Math.max((col || 1) - 1, 0), at.to);
}

/** The 1-based line and column of a document offset. */
export function lineColOf(doc, pos) {
  const line = doc.lineAt(pos);
  return { line: line.number, col: pos - line.from + 1 };
}

/** From → to of a diagnostic; an empty span grows to the word it starts (or one char). */
function spanOf(doc, d) {
  const from = offsetOf(doc, d.line, d.col);
  let to = d.end_line ? offsetOf(doc, d.end_line, d.end_col) : from;
  if (to <= from) {
    const line = doc.lineAt(from);
    const rest = doc.sliceString(from, line.to);
    const word = rest.match(/^[\w.-]+/);
    to = word ? from + word[0].length : Math.min(from + 1, line.to);
  }
  return { from, to: Math.max(to, from) };
}

/** The fixes of a diagnostic as CodeMirror lint actions (applied where the diagnostic is now). */
function actionsOf(doc, d, from) {
  return (d.fixes || []).map((fix) => {
    const start = offsetOf(doc, fix.line, fix.col) - from;
    const end = offsetOf(doc, fix.end_line || fix.line, fix.end_col || fix.col) - from;
    return {
      name: fix.label,
      apply(view, nowFrom) {
        const a = Math.max(0, nowFrom + start);
        const b = Math.min(view.state.doc.length, Math.max(a, nowFrom + end));
        view.dispatch({ changes: { from: a, to: b, insert: fix.insert }, userEvent: "input.fix" });
      },
    };
  });
}

/** The check reply's diagnostics as CodeMirror diagnostics over `doc`. */
export function toDiagnostics(doc, diagnostics) {
  return (diagnostics || []).map((d) => {
    const { from, to } = spanOf(doc, d);
    return {
      from, to,
      severity: d.severity === "warning" ? "warning" : "error",
      message: d.rendered || d.message,
      actions: actionsOf(doc, d, from),
    };
  });
}

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "13.5px" },
  ".cm-scroller": {
    fontFamily: "ui-monospace, 'SFMono-Regular', 'DejaVu Sans Mono', Menlo, Consolas, monospace",
    lineHeight: "1.5",
  },
  ".cm-gutters": { backgroundColor: "#f6f5f1", borderRight: "1px solid #e4e1d8", color: "#9a968b" },
  ".cm-activeLineGutter": { backgroundColor: "#ebe8df" },
  ".cm-activeLine": { backgroundColor: "#faf8f2" },
  ".cm-tooltip.cm-tooltip-hover": { maxWidth: "440px" },
  ".cm-diagnostic": { whiteSpace: "pre-wrap", fontFamily: "inherit" },
  // the default keyword icon is an emoji, which many systems draw as an empty box
  ".cm-completionIcon-keyword:after": { content: "'k'", fontWeight: "bold", color: "#2f6b5a" },
  ".cm-completionIcon": { width: "1.1em", opacity: "0.75" },
});

/** One open file: its editor state (text, history, diagnostics) and what the disk holds. */
class Doc {
  constructor(path, kind, state, mtime, exists) {
    this.path = path;
    this.kind = kind;
    this.state = state;
    this.saved = state.doc;   // the text as last read from or written to disk
    this.mtime = mtime;       // the disk's mtime of `saved` (null: not on disk yet)
    this.exists = exists;
    this.sent = 0;            // the version of the last check asked for
    this.check = null;        // the last check reply that was not stale
    this.diskChanged = null;  // a newer mtime seen on disk while the buffer was dirty
    this.conflict = false;    // a save was refused: the disk changed since it was read
    this.timer = null;
  }
}

export class StudioEditor {
  /**
   * host: the #editor element; api: studio.api; hooks: {status(text, isError),
   * preview() -> {players, options, seed}, checked(reply), opened(info), saved(info),
   * written(info), dirty(path, isDirty), problems(doc, reply)}.
   */
  constructor(host, api, hooks) {
    this.host = host;
    this.api = api;
    this.hooks = hooks;
    this.docs = new Map();
    this.active = null;
    this.pair = { rulesetPath: null, testsPath: null };
    this.version = 0;
    this.view = null;
    this.extensions = this.buildExtensions();
    this.polling = false;
    this.checkFailed = false;
    window.setInterval(() => this.poll(), POLL_MS);
  }

  buildExtensions() {
    return [
      Prec.highest(keymap.of([{ key: "Mod-s", preventDefault: true, run: () => { this.save(); return true; } }])),
      lineNumbers(), highlightActiveLineGutter(), foldGutter(), lintGutter(),
      highlightSpecialChars(), history(), drawSelection(), dropCursor(),
      EditorState.allowMultipleSelections.of(true), indentOnInput(), indentUnit.of("  "),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }), bracketMatching(),
      closeBrackets(), rectangularSelection(), crosshairCursor(), highlightActiveLine(),
      highlightSelectionMatches(), search({ top: true }), yaml(),
      autocompletion({ override: [(context) => this.complete(context)], activateOnTypingDelay: 60 }),
      hoverTooltip((view, pos) => this.hover(view, pos), { hoverTime: 350 }),
      keymap.of([
        ...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap,
        ...foldKeymap, ...completionKeymap, ...lintKeymap, indentWithTab,
      ]),
      EditorView.updateListener.of((update) => {
        if (update.docChanged && this.active) this.changed(this.active);
      }),
      EditorView.lineWrapping,
      theme,
    ];
  }

  // -- the open documents ---------------------------------------------------------------

  /** The state of `doc` (the view's, when it is the one shown). */
  stateOf(doc) {
    return doc === this.active && this.view ? this.view.state : doc.state;
  }

  isDirty(doc) {
    return !!doc && !this.stateOf(doc).doc.eq(doc.saved);
  }

  text(doc = this.active) {
    return doc ? this.stateOf(doc).doc.toString() : "";
  }

  /** Reads `path` from the server into a Doc (a missing tests file opens with a start). */
  async load(path, rulesetPath) {
    const kind = kindOf(path);
    let reply;
    try {
      reply = await this.api("GET", `/api/file?path=${encodeURIComponent(path)}`);
    } catch (error) {
      if (kind === "tests" && error.status === 404) {
        reply = { path, text: testsStarter(rulesetPath), mtime: null, missing: true };
      } else {
        throw error;
      }
    }
    const state = EditorState.create({ doc: reply.text || "", extensions: this.extensions });
    const doc = new Doc(path, kind, state, reply.mtime ?? null, !reply.missing);
    this.docs.set(path, doc);
    return doc;
  }

  /** Opens `path` (its ruleset/tests pair becomes the two tabs) and moves to `at`. */
  async open(path, at, rulesetOfTests) {
    const kind = kindOf(path);
    let pair = { rulesetPath: null, testsPath: null };
    if (kind === "tests") {
      pair = { rulesetPath: rulesetOfTests ? rulesetOfTests(path) : null, testsPath: path };
    } else if (kind === "ruleset") {
      pair = { rulesetPath: path, testsPath: testsPathFor(path) };
    }
    const doc = this.docs.get(path) || await this.load(path, pair.rulesetPath);
    this.pair = pair;
    this.show(doc);
    if (at && at.line) this.goto(at.line, at.col || 1);
    if (!doc.exists) this.hooks.status(`${path} is new: it is written when you save it.`);
    this.hooks.opened(this.info());
    this.checkNow(doc);  // the panels follow the file now shown
    this.poll();
    return this.info();
  }

  info() {
    const doc = this.active;
    return {
      path: doc ? doc.path : null, kind: doc ? doc.kind : null,
      rulesetPath: this.pair.rulesetPath, testsPath: this.pair.testsPath,
    };
  }

  /** Shows `doc` in the view (keeping the other's state, its undo history included). */
  show(doc) {
    if (this.active && this.view) this.active.state = this.view.state;
    if (!this.view) {
      this.host.replaceChildren();
      this.view = new EditorView({ state: doc.state, parent: this.host });
    } else {
      this.view.setState(doc.state);
    }
    this.active = doc;
    this.hooks.dirty(doc.path, this.isDirty(doc));
    this.hooks.problems(doc, doc.check);
    this.showBars();
  }

  goto(line, col) {
    if (!this.view) return;
    const pos = offsetOf(this.view.state.doc, line, col);
    this.view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: "center" }) });
    this.view.focus();
  }

  /** Applies the `index`-th fix of a diagnostic of the last check, at its place now. */
  applyFix(diagnostic, fix) {
    if (!this.view) return;
    const doc = this.view.state.doc;
    const from = offsetOf(doc, fix.line, fix.col);
    const to = Math.max(from, offsetOf(doc, fix.end_line || fix.line, fix.end_col || fix.col));
    this.view.dispatch({ changes: { from, to, insert: fix.insert }, userEvent: "input.fix" });
    this.view.focus();
  }

  // -- checking ---------------------------------------------------------------------------

  changed(doc) {
    this.hooks.dirty(doc.path, this.isDirty(doc));
    window.clearTimeout(doc.timer);
    doc.timer = window.setTimeout(() => this.checkNow(doc), CHECK_DELAY_MS);
  }

  /** Asks the server to check `doc`'s text now; a reply older than the last ask is dropped. */
  async checkNow(doc = this.active) {
    if (!doc || doc.kind === "other") return null;
    window.clearTimeout(doc.timer);
    const version = ++this.version;
    doc.sent = version;
    const body = { path: doc.path, text: this.text(doc), version };
    const preview = this.hooks.preview();
    if (preview.players != null) body.players = preview.players;
    if (preview.options && Object.keys(preview.options).length) body.options = preview.options;
    if (preview.seed != null) body.seed = preview.seed;
    let reply;
    try {
      reply = await this.api("POST", "/api/check", body);
    } catch (error) {
      if (doc.sent === version) {
        this.checkFailed = true;
        this.hooks.status(error.message, true);
      }
      return null;
    }
    if (reply.version !== doc.sent) return null;  // an edit came after: its check will answer
    doc.check = reply;
    if (this.checkFailed) {
      this.checkFailed = false;
      this.hooks.status("");
    }
    const effect = (state) => setDiagnostics(state, toDiagnostics(state.doc, reply.diagnostics));
    if (doc !== this.active || !this.view) {
      doc.state = doc.state.update(effect(doc.state)).state;
      return reply;  // a file no longer shown: the page and panels follow the shown one
    }
    this.view.dispatch(effect(this.view.state));
    document.body.dataset.checked = String(reply.version);
    this.hooks.problems(doc, reply);
    this.hooks.checked(reply);
    return reply;
  }

  // -- completion and hover docs ----------------------------------------------------------

  async complete(context) {
    const doc = this.active;
    if (!doc || doc.kind === "other") return null;
    const word = context.matchBefore(/[\w.-]*/);
    if (!context.explicit && word && word.from === word.to) {
      const before = context.state.sliceDoc(Math.max(0, context.pos - 2), context.pos);
      if (!/(: |- )$/.test(before)) return null;
    }
    const { line, col } = lineColOf(context.state.doc, context.pos);
    let reply;
    try {
      reply = await this.api("POST", "/api/complete",
        { path: doc.path, text: context.state.doc.toString(), line, col });
    } catch (_) {
      return null;
    }
    if (context.aborted || !reply || !reply.options || !reply.options.length) return null;
    const from = reply.from ? offsetOf(context.state.doc, reply.from.line, reply.from.col)
      : (word ? word.from : context.pos);
    return {
      from: Math.min(from, context.pos),
      options: reply.options.map((o) => ({
        label: o.label, type: o.type || undefined, detail: o.detail || undefined,
        info: o.info || undefined, apply: o.apply || undefined,
      })),
      validFor: /^[\w.-]*$/,
    };
  }

  async hover(view, pos) {
    const doc = this.active;
    if (!doc || doc.kind === "other") return null;
    const { line, col } = lineColOf(view.state.doc, pos);
    let reply;
    try {
      reply = await this.api("POST", "/api/hover",
        { path: doc.path, text: view.state.doc.toString(), line, col });
    } catch (_) {
      return null;
    }
    if (!reply || (!reply.title && !reply.text)) return null;
    const from = reply.from ? offsetOf(view.state.doc, reply.from.line, reply.from.col) : pos;
    const to = reply.to ? offsetOf(view.state.doc, reply.to.line, reply.to.col) : pos;
    return {
      pos: Math.min(from, pos), end: Math.max(to, pos), above: true,
      create() {
        const dom = document.createElement("div");
        dom.className = "hover-doc";
        if (reply.title) {
          const title = document.createElement("strong");
          title.textContent = reply.title;
          dom.append(title);
        }
        if (reply.text) {
          const body = document.createElement("div");
          body.className = "hover-text";
          body.textContent = reply.text;
          dom.append(body);
        }
        return { dom };
      },
    };
  }

  // -- saving and the disk ----------------------------------------------------------------

  /** Writes the shown file; a file changed on disk since it was read asks before overwriting. */
  async save({ overwrite = false } = {}) {
    const doc = this.active;
    if (!doc) return false;
    const text = this.stateOf(doc).doc;
    const body = { path: doc.path, text: text.toString() };
    if (!overwrite && doc.mtime != null) body.mtime = doc.mtime;
    let reply;
    try {
      reply = await this.api("PUT", "/api/file", body);
    } catch (error) {
      if (error.status === 409) {
        doc.conflict = true;
        this.showBars();
        this.hooks.status(`${doc.path} changed on disk since you opened it: reload theirs or overwrite.`, true);
      } else {
        this.hooks.status(error.message, true);
      }
      return false;
    }
    doc.saved = text;
    doc.mtime = reply.mtime;
    doc.exists = true;
    doc.conflict = false;
    doc.diskChanged = null;
    this.showBars();
    this.hooks.dirty(doc.path, this.isDirty(doc));
    this.hooks.status(`Saved ${doc.path}.`);
    this.hooks.saved({ path: doc.path });
    return true;
  }

  /** Re-reads `doc` from disk, keeping the cursor's line and column. */
  async reload(doc = this.active) {
    if (!doc) return;
    let reply;
    try {
      reply = await this.api("GET", `/api/file?path=${encodeURIComponent(doc.path)}`);
    } catch (error) {
      this.hooks.status(error.message, true);
      return;
    }
    const state = this.stateOf(doc);
    const head = lineColOf(state.doc, state.selection.main.head);
    const spec = {
      changes: { from: 0, to: state.doc.length, insert: reply.text },
      annotations: Transaction.addToHistory.of(false),
    };
    doc.conflict = false;
    doc.diskChanged = null;
    doc.exists = true;
    doc.mtime = reply.mtime;
    if (doc === this.active && this.view) {
      this.view.dispatch(spec);
      const pos = offsetOf(this.view.state.doc, head.line, head.col);
      this.view.dispatch({ selection: { anchor: pos } });
      doc.saved = this.view.state.doc;
    } else {
      doc.state = doc.state.update(spec).state;
      doc.saved = doc.state.doc;
      doc.check = null;
    }
    this.hooks.dirty(doc.path, false);
    this.showBars();
    this.hooks.written({ path: doc.path });
  }

  /** Keeps the buffer over a newer file on disk (the next save overwrites it). */
  keepMine(doc = this.active) {
    if (!doc) return;
    if (doc.diskChanged != null) doc.mtime = doc.diskChanged;
    doc.diskChanged = null;
    this.showBars();
    this.focus();
  }

  focus() {
    if (this.view) this.view.focus();
  }

  /** A file the server wrote (e.g. a case saved from the table): follow it if clean.
   * True when the buffer was reloaded (and "file-written" already told). */
  async fileWritten(path) {
    const doc = this.docs.get(path);
    if (!doc) return false;
    if (this.isDirty(doc)) {
      await this.pollDoc(doc);
      return false;
    }
    await this.reload(doc);
    return true;
  }

  showBars() {
    const doc = this.active;
    document.getElementById("disk-bar").hidden = !(doc && doc.diskChanged != null && !doc.conflict);
    document.getElementById("conflict-bar").hidden = !(doc && doc.conflict);
  }

  async pollDoc(doc) {
    const stat = await this.api("GET", `/api/file/stat?path=${encodeURIComponent(doc.path)}`);
    if (!stat.exists || stat.mtime === doc.mtime || stat.mtime === doc.diskChanged) return;
    if (!this.isDirty(doc)) {
      await this.reload(doc);
    } else {
      doc.diskChanged = stat.mtime;
      this.showBars();
    }
  }

  /** Compares the open pair with the disk (every POLL_MS, skipped while one runs). */
  async poll() {
    if (this.polling || document.hidden) return;
    this.polling = true;
    try {
      for (const path of [this.pair.rulesetPath, this.pair.testsPath]) {
        const doc = path && this.docs.get(path);
        if (doc) await this.pollDoc(doc);
      }
      if (this.active && !this.pair.rulesetPath && !this.pair.testsPath) {
        await this.pollDoc(this.active);
      }
    } catch (error) {
      this.hooks.status(error.message, true);
    } finally {
      this.polling = false;
    }
  }
}
