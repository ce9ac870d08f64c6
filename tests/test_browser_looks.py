"""How the browser table looks and moves, in a real browser (the system's Chromium):
every bundled game's table on a phone (390 × 844) fits the width, keeps its bar on one
line and has controls big enough for a finger; a move slides the piece that moved; and
screenshots of every game at 1280 × 800 and 390 × 844 go to the temporary folder
(tabletop-looks-GAME-WIDTH.png) for people to look at.

Skipped, saying why, when Playwright or a Chromium executable is missing.
"""

from __future__ import annotations

import random
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

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             "/usr/bin/chromium") if p and Path(p).exists()), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium executable (install "
                                "the 'chromium' package); browsers are not downloaded")
SHOTS = Path(tempfile.gettempdir())
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 800}
FINGER = 44
"""The smallest height, in CSS pixels, of anything a finger taps."""
BAR = 56
"""The tallest the bar at the top may be on a phone: one line."""
GAMES = {"caldera": 2, "high-rise": 2, "bottoms-up": 4, "aquarium": 2, "aquarius-rising": 2}
MOVES_BEFORE_LOOKING = 3
"""Moves the person makes (from the list) before the table is measured and pictured, so
the table shows a game under way rather than the set-up."""


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


def open_page(browser: Any, server: Running, link: str, viewport: dict[str, int],
              **context: Any) -> Any:
    """The page at `link`, with every script error and console error it shows kept in
    `page.problems`."""
    page = browser.new_context(viewport=viewport, **context).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.problems = problems
    page.goto(server.url + link)
    return page


def wait_turn(page: Any) -> str:
    page.wait_for_function("() => ['mine', 'over'].includes(document.body?.dataset.turn)",
                           timeout=60000)
    return page.evaluate("document.body.dataset.turn")


def version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def choose_from_list(page: Any, rng: random.Random) -> None:
    """A random option from the list (opening its group first), then wait for the
    position after it."""
    before = version(page)
    buttons = page.locator("#options button.option")
    buttons.first.wait_for(state="attached")
    button = buttons.nth(rng.randrange(buttons.count()))
    if not button.is_visible():
        button.locator("xpath=ancestor::details[1]/summary").click()
    button.click()
    page.wait_for_function(f"() => Number(document.body?.dataset.version) > {before}",
                           timeout=60000)


def click_first_option(page: Any) -> None:
    """The first option in the list, opening its group first when the options are
    grouped."""
    button = page.locator("#options button.option").first
    button.wait_for(state="attached")
    if not button.is_visible():
        button.locator("xpath=ancestor::details[1]/summary").click()
    button.click()


def play_a_little(page: Any, moves: int) -> None:
    rng = random.Random(3)
    for _ in range(moves):
        if wait_turn(page) == "over":
            return
        choose_from_list(page, rng)
    wait_turn(page)


def open_groups(page: Any) -> None:
    """Open every group of options, so their buttons are measured too."""
    page.evaluate("() => document.querySelectorAll('#options details')"
                  ".forEach((d) => { d.open = true; })")


SMALL_TARGETS = """(least) => [...document.querySelectorAll('button, summary')]
  .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .filter((e) => e.getBoundingClientRect().height < least)
  .map((e) => `${e.tagName.toLowerCase()} "${e.textContent.trim().slice(0, 40)}": `
              + `${e.getBoundingClientRect().height.toFixed(1)} px`)"""


def measure(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => ({
        scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
        bar: document.querySelector('header.bar').getBoundingClientRect().height,
        board: document.getElementById('board').getBoundingClientRect().width,
        widest: Math.max(0, ...[...document.querySelectorAll('#board svg')]
                         .map((s) => s.getBoundingClientRect().right)),
    })""")


@pytest.mark.parametrize("name", list(GAMES))
def test_the_table_fits_a_phone(server: Running, browser: Any, name: str) -> None:
    """At 390 × 844: no sideways scrolling, the bar on one line (≤ 56 px), every button
    and group heading at least 44 px tall, every picture of the board within the width;
    and the same table at 1280 × 800, both pictured."""
    players = GAMES[name]
    seats = {"1": "human", **{str(s): "random" for s in range(2, players + 1)}}
    made = server.create(ruleset=name, players=players, seats=seats, seed=5)
    page = open_page(browser, server, made["links"]["1"], PHONE, is_mobile=True,
                     has_touch=True, device_scale_factor=2)
    assert wait_turn(page) == "mine"
    play_a_little(page, MOVES_BEFORE_LOOKING)
    open_groups(page)
    page.screenshot(path=str(SHOTS / f"tabletop-looks-{name}-390.png"))
    page.screenshot(path=str(SHOTS / f"tabletop-looks-{name}-390-full.png"), full_page=True)
    sizes = measure(page)
    assert sizes["scroll"] <= PHONE["width"], sizes
    assert sizes["bar"] <= BAR, sizes
    assert sizes["widest"] <= PHONE["width"], sizes
    small = page.evaluate(SMALL_TARGETS, FINGER)
    assert not small, small
    assert not page.problems, page.problems

    wide = open_page(browser, server, made["links"]["1"], WIDE)
    wide.wait_for_function("() => document.body?.dataset.version !== undefined")
    wide.screenshot(path=str(SHOTS / f"tabletop-looks-{name}-1280.png"))
    wide.screenshot(path=str(SHOTS / f"tabletop-looks-{name}-1280-full.png"), full_page=True)
    assert measure(wide)["scroll"] <= WIDE["width"]
    assert not wide.problems, wide.problems


def test_a_move_slides_the_piece_that_moved(server: Running, browser: Any) -> None:
    """After a move the piece that moved is animated (a transform on its group, running
    while the page shows the new position), and the page says nothing went wrong."""
    made = server.create(ruleset="high-rise", players=2, seats={"1": "human", "2": "random"},
                         seed=3)
    page = open_page(browser, server, made["links"]["1"], WIDE)
    assert wait_turn(page) == "mine"
    # every animation started on a piece, kept as it starts (it lasts 300 ms)
    page.evaluate("""() => {
        window.__slides = [];
        const animate = Element.prototype.animate;
        Element.prototype.animate = function (frames, options) {
            const run = animate.call(this, frames, options);
            if (this.matches('g.tt-piece') && JSON.stringify(frames).includes('translate'))
                window.__slides.push(document.getAnimations().includes(run));
            return run;
        };
    }""")
    before = version(page)
    click_first_option(page)
    page.wait_for_function(f"() => Number(document.body?.dataset.version) > {before}")
    page.wait_for_function("() => window.__slides.length > 0", timeout=10000)
    assert all(page.evaluate("window.__slides"))  # each was running when it started
    assert page.evaluate("TabletopMotion.played.slid") >= 1
    # the last move is still outlined, and the animation leaves the piece where it lands
    wait_turn(page)
    page.wait_for_function("() => document.querySelector('#board .tt-last-to') !== null")
    page.wait_for_function("() => document.getAnimations().length === 0", timeout=10000)
    assert not page.problems, page.problems


def test_no_motion_for_people_who_ask_for_none(server: Running, browser: Any) -> None:
    """prefers-reduced-motion: the new position is drawn at once, nothing slides."""
    made = server.create(ruleset="high-rise", players=2, seats={"1": "human", "2": "random"},
                         seed=3)
    page = open_page(browser, server, made["links"]["1"], WIDE, reduced_motion="reduce")
    assert wait_turn(page) == "mine"
    before = version(page)
    click_first_option(page)
    page.wait_for_function(f"() => Number(document.body?.dataset.version) > {before}")
    wait_turn(page)
    assert page.evaluate("TabletopMotion.played.runs") == 0
    assert not page.problems, page.problems
