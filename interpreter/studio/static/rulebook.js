// The studio's rulebook panel: the generated rulebook of the editor's draft (a variant's
// differences from its base), reloaded after each good check and each save, at the
// place the designer was reading.

import { el, errorsOf } from "./table.js";

const DEBOUNCE_MS = 600;

export function mount(element, studio) {
  element.classList.add("panel-body", "rulebook-panel");
  const status = el("p", { class: "rulebook-status", id: "rulebook-status", hidden: true });
  // No scripts run in the page; same origin only so that the scroll position can be kept.
  const frame = el("iframe", { id: "rulebook-frame", class: "rulebook-frame",
    title: "The rulebook", sandbox: "allow-same-origin", referrerpolicy: "no-referrer" });
  element.append(status, frame);

  let version = 0;
  let timer = null;
  let stale = false;
  let path = null;
  let scroll = null;   // where the reader was, restored once the new page has loaded

  const visible = () => element.offsetParent !== null && !element.hidden;

  function load() {
    clearTimeout(timer);
    const now = studio.current();
    path = now && now.rulesetPath;
    if (!path) return;
    if (!visible()) { stale = true; return; }
    stale = false;
    try {
      const win = frame.contentWindow;
      if (win && win.location.href !== "about:blank" && frame.dataset.path === path) {
        scroll = { x: win.scrollX, y: win.scrollY };
      } else {
        scroll = null;
      }
    } catch (_) {
      scroll = null;
    }
    version += 1;
    const query = new URLSearchParams({ path, token: studio.token, v: String(version) });
    frame.dataset.path = path;
    frame.dataset.version = String(version);
    frame.src = `/rulebook?${query}`;
  }

  frame.addEventListener("load", () => {
    frame.dataset.loaded = frame.dataset.version || "";
    if (!scroll) return;
    try { frame.contentWindow.scrollTo(scroll.x, scroll.y); } catch (_) { /* another origin */ }
  });

  function schedule(delay = DEBOUNCE_MS) {
    clearTimeout(timer);
    timer = setTimeout(load, delay);
  }

  studio.on("checked", (check) => {
    if (!check) return;
    const errors = errorsOf(check);
    status.hidden = !errors.length;
    status.textContent = errors.length ? "The rules have errors: this is the rulebook of the last good text." : "";
    if (!errors.length && check.kind !== "tests") schedule();
  });
  studio.on("saved", () => schedule());
  studio.on("file-written", () => schedule());
  studio.on("opened", (opened) => {
    if (opened && opened.rulesetPath !== path) schedule(0);
  });
  // A reload asked for while the panel was hidden happens when it is shown.
  new IntersectionObserver((entries) => {
    if (stale && entries.some((e) => e.isIntersecting)) load();
  }).observe(element);
}
