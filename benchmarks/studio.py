"""How fast the studio answers a keystroke: from the key pressed in the editor to the page
showing the new problems list and table, for every bundled game.

    python benchmarks/studio.py                      # every bundled game, 5 keystrokes each
    python benchmarks/studio.py --games caldera --games nim -n 9 --json

It copies the bundled rulesets, each with its tests file beside it as a designer's folder
holds them, into a temporary folder,
starts the real command (`tabletop studio DIR --no-open`) on a free loopback port, and
drives the page in Chromium with Playwright as a designer would: it opens each ruleset,
puts the cursor in a value and presses keys (page.keyboard.press). Three kinds of
keystroke are timed:

- value: a character typed into the game's summary, then taken out again (Backspace),
  by turns: the rules stay valid and the table is redrawn;
- error: a character typed into a key (`title` becomes `txitle`): an error to list;
- fix: that character taken out again (Delete): the error list empties, the table comes
  back.

A keystroke's time runs from its keydown event in the page to the moment the page has
taken the check's reply in: `document.body.dataset.checked` holds a version sent after
the key, and the table is in place (`#table-svg` drawn for that version, or marked stale
when the rules have an error). Both are read in the page (a MutationObserver notes the
time), so Playwright's own round trips are not counted. Before each keystroke the page is
left to settle (the tests panel's run after the previous change finished), as when a
designer pauses; the figures are per keystroke after such a pause. The server's own split
(`timing_ms` of the reply: load, compile, setup, draw, and its total) is reported beside
them, with the count of replies the server kept from an earlier check of the same text
(none, as the keystrokes are made). A game
whose slowest keystroke is over 300 ms is flagged.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ROOT / "rulesets"
LIMIT_MS = 300.0
KINDS = ("value", "error", "fix")
SPLIT = ("load", "compile", "setup", "draw", "total")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]

WATCH = """() => {
  // Notes when the page has taken each check's reply in: the version, and the table in
  // place for it (drawn for that version, or marked stale for rules with an error).
  if (window.__bench) return;
  const bench = window.__bench = {key: 0, seen: {}, done: []};
  window.addEventListener("keydown", () => { bench.key = performance.now(); }, true);
  const look = () => {
    const version = Number(document.body.dataset.checked || 0);
    if (!version || bench.seen[version]) return;
    const table = document.getElementById("table-svg");
    const drawn = table && table.querySelector("svg") &&
      (table.dataset.version === String(version) || table.classList.contains("stale"));
    if (!drawn) return;
    bench.seen[version] = true;
    bench.done.push({version, at: performance.now(),
                     problems: document.querySelectorAll("#problems .problem").length});
  };
  new MutationObserver(look).observe(document.body, {
    attributes: true, subtree: true, childList: true,
    attributeFilter: ["data-checked", "data-version", "class"]});
  look();
}"""

CURSOR = """async ([where]) => {
  // Puts the editor's cursor at a place in the text (found by a pattern) and focuses it:
  // the keystrokes themselves are real key presses.
  const cm = await import("/static/vendor/codemirror.js");
  const view = cm.EditorView.findFromDOM(document.querySelector("#editor .cm-editor"));
  const text = view.state.doc.toString();
  let at = -1;
  if (where === "key") {
    const m = /^[ \\t]*tx?itle:|[{,]\\s*tx?itle:/m.exec(text);
    if (m) at = m.index + m[0].search(/tx?itle:/) + 1;
  } else {
    const m = /summary:[ \\t]*(?:[>|][-+]?[ \\t]*\\n[ \\t]*|")?/.exec(text);
    if (m) at = m.index + m[0].length;
  }
  if (at < 0) return false;
  view.dispatch({selection: {anchor: at}, scrollIntoView: true});
  view.focus();
  return true;
}"""

SETTLED = """() => {
  const tests = document.getElementById("panel-tests");
  return !!document.body.dataset.checked && !(tests && tests.classList.contains("busy"));
}"""


STATE = """() => ({checked: document.body.dataset.checked,
  table: (document.getElementById("table-svg") || {}).outerHTML?.slice(0, 200),
  problems: [...document.querySelectorAll("#problems li")].map(li => li.textContent),
  status: (document.getElementById("status") || {}).textContent})"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bundled(names: list[str] | None) -> list[str]:
    """The bundled rulesets to time (all of them, or those named, in that order)."""
    every = sorted(p.name[: -len(".yaml")] for p in RULESETS.glob("*.yaml")
                   if not p.name.endswith(".tests.yaml"))
    if not names:
        return every
    unknown = [n for n in names if n not in every]
    if unknown:
        raise SystemExit(f"unknown game {', '.join(unknown)} (bundled: {', '.join(every)})")
    return names


def copy_games(names: list[str], folder: Path) -> None:
    """Each ruleset with its tests file, as a designer's folder holds them (a variant's
    base is read by name, as `extends:` says)."""
    for name in names:
        shutil.copy(RULESETS / f"{name}.yaml", folder / f"{name}.yaml")
        tests = RULESETS / f"{name}.tests.yaml"
        if tests.is_file():
            text = tests.read_text(encoding="utf-8")
            # a tests file naming its game by the bundled name tests the copy instead
            text = re.sub(rf"^ruleset:\s*{re.escape(name)}\s*$", f"ruleset: {name}.yaml",
                          text, flags=re.M)
            (folder / f"{name}.tests.yaml").write_text(text, encoding="utf-8")


@contextmanager
def studio(folder: Path) -> Iterator[str]:
    """`tabletop studio FOLDER --no-open` on a free port; yields the address it printed."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "interpreter.cli", "studio", str(folder), "--no-open",
         "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        cwd=folder, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    found = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if "?token=" in line:
                found.set()
    threading.Thread(target=read, daemon=True).start()
    try:
        if not found.wait(60):
            raise SystemExit("the studio did not start:\n" + "".join(lines))
        url = re.search(r"http://\S+\?token=\S+", "".join(lines))
        assert url is not None
        address = url.group(0)
        deadline = time.monotonic() + 30
        while True:  # it prints the address before it listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit("the studio did not listen:\n" + "".join(lines)) from None
                time.sleep(0.05)
        yield address
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def press(page: Any, key: str, timeout_s: float) -> tuple[float, dict[str, Any], int]:
    """Press `key` in the editor; the milliseconds from its keydown to the page having
    the check's reply in, the reply's timing_ms and the problems listed then."""
    page.wait_for_function(SETTLED, timeout=timeout_s * 1000)
    before = int(page.evaluate("() => Number(document.body.dataset.checked || 0)"))
    with page.expect_response(lambda r: r.url.endswith("/api/check")
                              and r.request.method == "POST",
                              timeout=timeout_s * 1000) as reply:
        page.keyboard.press(key)
    try:
        page.wait_for_function(
            "v => window.__bench.done.some(d => d.version > v)", arg=before,
            timeout=timeout_s * 1000)
    except PlaywrightError:
        raise SystemExit(f"no updated table {timeout_s:.0f} s after pressing {key}: "
                         + json.dumps(page.evaluate(STATE))) from None
    done = page.evaluate(
        "v => { const d = window.__bench.done.find(d => d.version > v);"
        " return {ms: d.at - window.__bench.key, problems: d.problems}; }", before)
    body = reply.value.json()
    return float(done["ms"]), dict(body.get("timing_ms") or {}), int(done["problems"])


def time_game(page: Any, address: str, name: str, n: int, timeout_s: float
              ) -> dict[str, Any]:
    """Open the game's copy in the studio and time its keystrokes of each kind."""
    page.goto(f"{address}&path={name}.yaml")
    page.wait_for_selector("#editor .cm-editor", timeout=timeout_s * 1000)
    page.evaluate(WATCH)
    page.wait_for_function(SETTLED, timeout=timeout_s * 1000)
    times: dict[str, list[float]] = {k: [] for k in KINDS}
    splits: dict[str, list[dict[str, Any]]] = {k: [] for k in KINDS}
    problems: dict[str, list[int]] = {k: [] for k in KINDS}

    def note(kind: str, key: str) -> None:
        ms, split, listed = press(page, key, timeout_s)
        times[kind].append(ms)
        splits[kind].append(split)
        problems[kind].append(listed)

    # Each round types one more letter at the summary's start, so that no text is sent
    # twice: the server keeps the replies of texts it has checked (an undo answers at
    # once), and the figures are of texts it has not seen.
    # The summary is changed again while the key is wrong (that keystroke is not
    # counted), so the fix too gives a text not seen before.
    letters = "abcdefghijklmnopqrstuvwxyz"
    for i in range(n):
        for kind, where, key in (("value", "value", letters[(2 * i) % 26]),
                                 ("error", "key", "x"),
                                 (None, "value", letters[(2 * i + 1) % 26]),
                                 ("fix", "key", "Delete")):
            if not page.evaluate(CURSOR, [where]):
                raise SystemExit(f"{name}: no {'summary' if where == 'value' else 'title'} "
                                 "found to type into")
            if kind is None:
                press(page, key, timeout_s)
            else:
                note(kind, key)
    if any(p == 0 for p in problems["error"]):
        raise SystemExit(f"{name}: a key typed wrong listed no problem")
    return {"game": name, **{k: summary(times[k], splits[k]) for k in KINDS},
            "slowest_ms": round(max(max(v) for v in times.values()), 1),
            "over": max(max(v) for v in times.values()) > LIMIT_MS}


def summary(times: list[float], splits: list[dict[str, Any]]) -> dict[str, Any]:
    """min/median/max of the keystrokes' times, and the median of each server split."""
    server = {k: round(statistics.median(float(s.get(k, 0.0)) for s in splits), 1)
              for k in SPLIT}
    return {"n": len(times), "min_ms": round(min(times), 1),
            "median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1),
            "server_ms": server, "kept": sum(1 for s in splits if s.get("kept")),
            "slowest_server_ms": float(splits[times.index(max(times))].get("total", 0.0))}


def table(results: list[dict[str, Any]]) -> str:
    head = (f"{'game':<30} {'kind':<6} {'min':>6} {'median':>7} {'max':>6}   "
            f"server median: {' '.join(f'{k:>7}' for k in SPLIT)}")
    lines = [head, "-" * len(head)]
    for r in results:
        for kind in KINDS:
            s = r[kind]
            flag = "  OVER 300 ms" if kind == "fix" and r["over"] else ""
            lines.append(
                f"{r['game'] if kind == 'value' else '':<30} {kind:<6} {s['min_ms']:>6.0f} "
                f"{s['median_ms']:>7.0f} {s['max_ms']:>6.0f}   {'':>14} "
                + " ".join(f"{s['server_ms'][k]:>7.1f}" for k in SPLIT) + flag)
    over = [r["game"] for r in results if r["over"]]
    lines.append(f"over {LIMIT_MS:.0f} ms (slowest keystroke): "
                 + (", ".join(over) if over else "none"))
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time the studio from a keystroke to the updated problems list and "
                    "table, for every bundled game.")
    parser.add_argument("--games", action="append", metavar="NAME",
                        help="a bundled game to time (repeat for more; default: all)")
    parser.add_argument("-n", type=int, default=5, metavar="N",
                        help="keystrokes of each kind per game (default 5)")
    parser.add_argument("--timeout", type=float, default=120.0, metavar="S",
                        help="seconds to wait for the page at any step (default 120)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.n < 1:
        parser.error("-n must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    names = bundled(args.games)

    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="studio-bench-") as tmp:
        folder = Path(tmp)
        copy_games(names, folder)
        with studio(folder) as address, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            for name in names:
                result = time_game(page, address, name, args.n, args.timeout)
                results.append(result)
                print(f"{name}: value {result['value']['median_ms']:.0f} ms, error "
                      f"{result['error']['median_ms']:.0f} ms, fix "
                      f"{result['fix']['median_ms']:.0f} ms (medians)", file=sys.stderr)
            browser.close()
    if args.json:
        print(json.dumps({"limit_ms": LIMIT_MS, "keystrokes": args.n, "games": results},
                         indent=1))
    else:
        print(table(results))
    return 1 if any(r["over"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
