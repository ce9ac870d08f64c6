"""The hot seat in a real browser (the system's Chromium): one screen passed between
people, with a cover screen between seats. At each cover screen, and again once the
next person says they are ready, neither the page (its whole markup) nor the memory of
its scripts (a heap snapshot taken over the Chrome DevTools Protocol) holds anything
only the previous person could know: the codes of the pieces they saw, the lines of
their log, their options, the last move as they were told it.

The games are those that hide things: Aquarius Rising (hands), Bottoms Up (secret
colours) and Aquarium (the action cards each chooses face down).

Skipped, saying why, when Playwright or a Chromium executable is missing.
"""

from __future__ import annotations

import html
import json
import random
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
uvicorn = pytest.importorskip("uvicorn", reason="the serve extra is not installed")

from serve_support import Running  # noqa: E402

from interpreter.serve.app import STATIC  # noqa: E402

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             "/usr/bin/chromium") if p and Path(p).exists()), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium executable (install "
                                "the 'chromium' package); browsers are not downloaded")
SHOTS = Path(tempfile.gettempdir())
PIECE = "a piece"
HIDING = [("aquarius-rising", 2, 11, 3, PIECE),
          ("bottoms-up", 4, 4, 3, "Your secret colour is"),
          ("aquarium", 2, 4, 4, "Action card chosen (face down) (Player 1)")]
"""Per game: players, seed, the cover screens looked at (one after each person's turn),
and words in a secret the test must meet there, or PIECE: a piece's code (so that it
checks the secret the game is known for: a hand's cards, a secret colour, an action
card chosen face down)."""
PAGE_TEXT = "\n".join(p.read_text() for p in STATIC.iterdir()
                      if p.suffix in {".js", ".html", ".css"})
"""The page's own files: a word they hold (a code such as `pass`) says nothing secret."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with Running(tmp_path_factory.mktemp("games")) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield b
        b.close()


# -- what a seat knows ----------------------------------------------------------------

def message(running: Running, table: Any, seat: int | None) -> dict[str, Any]:
    """The state message the server sends `seat` now (None: a spectator)."""
    server = running.server.config.app.state.server
    return server.state_message(table, seat, seat is not None)


def strings_of(x: Any) -> Iterator[str]:
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from strings_of(v)
    elif isinstance(x, list):
        for v in x:
            yield from strings_of(v)


def pictures(msg: dict[str, Any]) -> list[str]:
    """The message's pictures: the whole table's and each zone's."""
    return [msg.get("svg") or ""] + [z.get("svg") or "" for a in msg.get("areas") or []
                                     for z in a.get("zones", [])]


def codes_drawn(msg: dict[str, Any]) -> set[str]:
    """The codes of the pieces the message's pictures draw."""
    return {html.unescape(c) for svg in pictures(msg)
            for c in re.findall(r'data-piece="([^"]*)"', svg)}


def names_drawn(msg: dict[str, Any]) -> set[str]:
    """The names the pictures give their pieces (aria-label on each piece's group)."""
    groups = (g for svg in pictures(msg) for g in re.findall(r'<g [^>]*class="tt-piece[^>]*>', svg))
    return {html.unescape(n) for g in groups for n in re.findall(r'aria-label="([^"]*)"', g)}


def texts_shown(msg: dict[str, Any]) -> set[str]:
    """The lines the page shows in words: the log, the options, the last move, the
    prompt, the table of variables, the pieces' names."""
    out = set(msg.get("log") or []) | {msg.get("last_move") or "", msg.get("prompt") or ""}
    out |= names_drawn(msg)
    for option in msg.get("options") or []:
        out |= {option.get("label") or "", option["notation"]}
    out |= {line["text"] for line in msg.get("table") or [] if isinstance(line.get("text"), str)}
    return {t for t in out if t}


def word_in(code: str, texts: list[str]) -> bool:
    pattern = re.compile(rf"(?<![\w$]){re.escape(code)}(?![\w$])")
    return any(pattern.search(t) for t in texts)


def secrets(before: list[dict[str, Any]],
            now: list[dict[str, Any]]) -> tuple[set[str], set[str]]:
    """What the previous seat was shown (`before`: its messages since it took the
    device) that none of `now` (the next seat's message, the spectator's) says: (piece
    codes, lines of words). Words the page's own files hold, and lines too short to tell
    apart from any other text, are left out."""
    known = [s for m in now for s in strings_of(m)]
    known_codes = set().union(*(codes_drawn(m) for m in now))
    shown_codes = set().union(*(codes_drawn(m) for m in before))
    codes = {c for c in shown_codes - known_codes
             if not word_in(c, known) and not word_in(c, [PAGE_TEXT])}
    shown_texts = set().union(*(texts_shown(m) for m in before))
    lines = {t for t in shown_texts if len(t) >= 8 and t not in PAGE_TEXT
             and not any(t in s for s in known)}
    return codes, lines


# -- what the page holds ------------------------------------------------------------------

def heap_strings(page: Any) -> list[str]:
    """Every string in the memory of the page's scripts, after a full collection."""
    cdp = page.context.new_cdp_session(page)
    chunks: list[str] = []
    cdp.on("HeapProfiler.addHeapSnapshotChunk", lambda event: chunks.append(event["chunk"]))
    cdp.send("HeapProfiler.enable")
    cdp.send("HeapProfiler.collectGarbage")
    cdp.send("HeapProfiler.takeHeapSnapshot", {"reportProgress": False})
    cdp.send("HeapProfiler.disable")
    cdp.detach()
    return json.loads("".join(chunks))["strings"]


def leaks(page: Any, codes: set[str], lines: set[str]) -> list[str]:
    """The secrets the page's markup or its scripts' memory still hold."""
    markup = page.evaluate("document.documentElement.outerHTML")
    heap = heap_strings(page)
    exact = set(heap)
    found = []
    for code in sorted(codes):
        drawn = f'data-piece="{html.escape(code)}"'
        if drawn in markup or re.search(rf">\s*{re.escape(html.escape(code, False))}\s*<", markup):
            found.append(f"the page shows piece {code!r}")
        if code in exact or any(drawn in s or drawn.replace('"', '\\"') in s for s in heap):
            found.append(f"the scripts hold piece {code!r}")
    for line in sorted(lines):
        if line in markup or html.escape(line, False) in markup:
            found.append(f"the page shows {line!r}")
        if any(line in s for s in heap):
            found.append(f"the scripts hold {line!r}")
    return found


def wait_cover(page: Any) -> int:
    page.wait_for_function("() => document.body?.dataset.pass !== undefined", timeout=60000)
    return int(page.evaluate("document.body.dataset.pass"))


def wait_shown(page: Any, running: Running, table: Any) -> None:
    """Wait until the page shows the table's position now, options and all."""
    page.wait_for_function("() => ['mine', 'over'].includes(document.body?.dataset.turn)",
                           timeout=60000)
    page.wait_for_function(f"() => document.body?.dataset.version === '{table.version}'",
                           timeout=60000)


def choose(page: Any, rng: random.Random) -> None:
    """A random option from the list (opening its group first), by clicking its button."""
    buttons = page.locator("#options button.option")
    buttons.first.wait_for(state="attached")
    button = buttons.nth(rng.randrange(buttons.count()))
    if not button.is_visible():
        button.locator("xpath=ancestor::details[1]/summary").click()
    button.click()


@pytest.mark.parametrize("name, players, seed, covers, kept", HIDING,
                         ids=[g[0] for g in HIDING])
def test_the_cover_screen_leaves_nothing_of_the_last_seat(
        server: Running, browser: Any, name: str, players: int, seed: int, covers: int,
        kept: str) -> None:
    """At every cover screen and once the next person is ready: nothing of the last
    person's secrets in the page or the scripts' memory; the cover's button has the
    focus and the table is hidden."""
    seats = {str(s): "human" for s in range(1, players + 1)}
    made = server.create(ruleset=name, players=players, seats=seats, seed=seed, hotseat=True)
    table = server.store.live[made["game"]]
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(server.url + made["links"]["table"])
    rng = random.Random(seed)
    seen: list[dict[str, Any]] = []  # the previous seat's messages, as the page got them
    checked: set[str] = set()  # the secrets looked for
    pieces: set[str] = set()
    for n in range(covers + 1):
        nxt = wait_cover(page)
        assert page.locator("#pass").is_visible()
        assert page.evaluate("document.activeElement.id") == "pass-ready"  # focus on it
        assert page.locator("#table").is_hidden()
        codes: set[str] = set()
        lines: set[str] = set()
        if seen:
            now = [message(server, table, nxt), message(server, table, None)]
            codes, lines = secrets(seen, now)
            checked |= lines
            pieces |= codes
            assert not leaks(page, codes, lines), f"at cover {n}, to Player {nxt}"
        if n == 0:
            page.screenshot(path=str(SHOTS / f"tabletop-hotseat-{name}-cover.png"))
        page.locator("#pass-ready").click()
        wait_shown(page, server, table)
        assert not leaks(page, codes, lines), f"Player {nxt}'s table, after cover {n}"
        if n == 0:
            page.screenshot(path=str(SHOTS / f"tabletop-hotseat-{name}-seat.png"))
        seen = [message(server, table, nxt)]
        while not table.state.over:  # the seat plays on until the device must pass
            choose(page, rng)
            page.wait_for_function(
                "() => document.body?.dataset.pass !== undefined || "
                f"Number(document.body?.dataset.version) > {seen[-1]['version']}", timeout=60000)
            if page.evaluate("document.body.dataset.pass !== undefined"):
                break
            wait_shown(page, server, table)
            seen.append(message(server, table, nxt))
        if table.state.over:
            break
    if kept == PIECE:
        assert pieces, sorted(checked)
    else:
        assert any(kept in secret for secret in checked), sorted(checked)
    assert not problems, problems


def test_the_create_form_offers_one_screen_passed_between_players(
        server: Running, browser: Any) -> None:
    """The form says the choice in players' words; choosing it gives one link, the
    table's, which opens on the cover screen for Player 1."""
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(server.url + "/")
    page.wait_for_function("() => document.querySelectorAll('#ruleset option').length > 0")
    page.select_option("#ruleset", "aquarium")
    page.select_option("select[data-seat='2']", "human")
    choice = page.get_by_label("One screen, passed between players")
    assert choice.get_attribute("type") == "radio" and not choice.is_checked()
    choice.check()
    page.click("button[type=submit]")
    page.wait_for_selector("#result:not([hidden])")
    assert page.locator("#result-hotseat").is_visible()
    assert not page.locator("#result-each").is_visible()
    assert page.locator("#links a[data-seat='1'], #links a[data-seat='2']").count() == 0
    table = page.locator("#links a[data-seat='table']")
    assert table.inner_text() == "The table: one screen, passed between players"
    table.click()
    assert wait_cover(page) == 1
    assert page.locator("#pass-title").inner_text() == "Pass the device to Player 1"
    assert page.evaluate("document.activeElement.id") == "pass-ready"
