"""The browser table in a real browser (Playwright driving the system's Chromium): whole
games of every bundled game played by clicking (the board for the first moves of each
game, then the list of options and the notation box), two people at one game each
seeing only their own secrets, a spectator, the hot seat's pass screen, and the create
form; and `analyze`'s report in a narrow window. Screenshots go to the temporary folder
(tabletop-browser-*.png).

Skipped, saying why, when Playwright or a Chromium executable is missing (CI installs
Chromium from apt). Browsers are never downloaded: the system's Chromium is launched by
its path.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from console import invoke

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
uvicorn = pytest.importorskip("uvicorn", reason="the serve extra is not installed")

from serve_support import HOSTILE, Running, hostile_ruleset  # noqa: E402

from interpreter.run.view import view  # noqa: E402
from interpreter.serve.app import STALE  # noqa: E402

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             shutil.which("google-chrome"), "/usr/bin/chromium")
                 if p and Path(p).exists()), None)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium executable (install the 'chromium' package); "
    "browsers are not downloaded")
SHOTS = Path(tempfile.gettempdir())
BOARD_MOVES = 6
"""Moves of each game made by clicking the board (then the options list and the box)."""


# -- a server on a free port, and the browser ------------------------------------------

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


def open_page(browser: Any, server: Running, link: str) -> Any:
    page = browser.new_context(viewport={"width": 1300, "height": 950}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    page.goto(server.url + link)
    page.wait_for_function("() => document.body?.dataset.version !== undefined || "
                           "document.body?.dataset.pass !== undefined", timeout=30000)
    return page


def version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def wait_turn(page: Any, timeout: float = 60000) -> str:
    """Wait until this seat must choose or the game is over; which."""
    page.wait_for_function("() => ['mine', 'over'].includes(document.body?.dataset.turn)",
                           timeout=timeout)
    return page.evaluate("document.body.dataset.turn")


def shown_error(page: Any) -> str | None:
    """The error the page shows, if any; None also for the server's "the position
    changed" (another seat moved between drawing the options and the click, which the
    page must say and the player answers by choosing again)."""
    error = page.locator("#error")
    if not error.is_visible():
        return None
    text = error.inner_text()
    return None if text == STALE else text


def wait_moved(page: Any, before: int) -> None:
    """Wait until the position is past version `before`, failing on an error shown."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if version(page) > before:
            return
        error = shown_error(page)
        if error is not None:
            raise AssertionError(f"the page shows an error: {error}")
        page.wait_for_timeout(20)
    raise AssertionError("the move was not made")


# -- choosing, as a person does ---------------------------------------------------------

def click_svg(page: Any, target: Any) -> bool:
    """A mouse click on a board element; a piece covered by another (a stack) is
    clicked where the browser can reach it, else by an event sent to it. False when
    the element went away before it could be clicked (the board was drawn again
    between counting the highlights and clicking one): the caller counts again."""
    try:
        target.click(timeout=5000)
        return True
    except playwright_api.TimeoutError:
        pass
    try:
        target.dispatch_event("click", timeout=5000)
        return True
    except playwright_api.TimeoutError:
        return False


def settle(page: Any) -> None:
    """Wait until the page has drawn what the last click changed (two animation frames),
    so the next highlight counted is not one the click just took away; under a loaded
    CI machine a fixed 30 ms was not always enough."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame("
                  "() => requestAnimationFrame(() => done(null))))")


def board_move(page: Any, rng: random.Random) -> bool:
    """Choose by clicking highlighted places and pieces (and, when several options fit
    the clicks, the one wanted in the confirm list). False when nothing on the board is
    highlighted (the options involve nothing drawn)."""
    before = version(page)
    for _ in range(8):
        if version(page) > before or page.evaluate("document.body.dataset.turn") == "sent":
            wait_moved(page, before)  # chosen: the board offers nothing until the reply
            return True
        if page.locator("#confirm").is_visible():
            buttons = page.locator("#confirm-list button")
            buttons.nth(rng.randrange(buttons.count())).click()
            wait_moved(page, before)
            return True
        hot = page.locator("#board .tt-hot")
        n = hot.count()
        if n == 0:
            return False
        if not click_svg(page, hot.nth(rng.randrange(n))):
            settle(page)
            continue
        settle(page)
        error = shown_error(page)
        assert error is None, error
    wait_moved(page, before)
    return True


def list_move(page: Any, rng: random.Random) -> None:
    """Choose a random option from the list (opening its group when they are grouped)."""
    before = version(page)
    buttons = page.locator("#options button.option")
    buttons.first.wait_for(state="attached")  # the list may be drawn again just now
    button = buttons.nth(rng.randrange(buttons.count()))
    if not button.is_visible():
        button.locator("xpath=ancestor::details[1]/summary").click()
    button.click()
    wait_moved(page, before)


def typed_move(page: Any, rng: random.Random) -> None:
    """Type an option's notation, in capitals and with extra spaces (both ignored)."""
    before = version(page)
    buttons = page.locator("#options button.option")
    buttons.first.wait_for(state="attached")
    notation = buttons.nth(rng.randrange(buttons.count())).get_attribute("data-notation")
    page.fill("#notation", "  " + notation.upper().replace(" ", "   ") + " ")
    page.press("#notation", "Enter")
    wait_moved(page, before)


def play_out(page: Any, rng: random.Random, shots: str, limit: int = 2000) -> dict[str, int]:
    """Play this seat until the game ends; how many moves were made each way."""
    made = {"board": 0, "list": 0, "typed": 0}
    for n in range(limit):
        if wait_turn(page) == "over":
            page.screenshot(path=str(SHOTS / f"{shots}-over.png"), full_page=True)
            return made
        if n == 1:
            page.screenshot(path=str(SHOTS / f"{shots}-turn.png"), full_page=True)
        if made["board"] < BOARD_MOVES and board_move(page, rng):
            made["board"] += 1
        elif n % 7 == 3:
            typed_move(page, rng)
            made["typed"] += 1
        else:
            list_move(page, rng)
            made["list"] += 1
    raise AssertionError(f"{shots}: the game did not end in {limit} moves")


GAMES = [
    ("high-rise", 2, True),
    ("aquarium", 2, False),
]
"""Whole games played by board clicks, the options list and typed notation; every bundled
game is played to its end by dragging and clicking in test_browser_play.py, at two sizes."""


@pytest.mark.parametrize("name, players, board", GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_played_by_clicking(server: Running, browser: Any, name: str,
                                         players: int, board: bool) -> None:
    seats = {"1": "human", **{str(s): "random" for s in range(2, players + 1)}}
    made_game = server.create(ruleset=name, players=players, seats=seats, seed=7)
    page = open_page(browser, server, made_game["links"]["1"])
    assert page.title().endswith("Tabletop")
    assert page.locator("#rules").get_attribute("href") == f"/rules/{name}"
    made = play_out(page, random.Random(7), f"tabletop-browser-{name}")
    status = page.locator("#status").inner_text()
    assert status.startswith("Game over"), status
    assert sum(made.values()) > 0
    if board:
        assert made["board"] >= min(BOARD_MOVES, sum(made.values())), made
    table = server.store.live[made_game["game"]]
    assert table.state.over
    assert page.locator("#log li").count() > 0
    assert not page.js_errors, page.js_errors


def test_board_clicks_narrow_the_options_then_choose(server: Running, browser: Any) -> None:
    made = server.create(ruleset="high-rise", players=2, seats={"1": "human", "2": "random"},
                         seed=3)
    page = open_page(browser, server, made["links"]["1"])
    assert wait_turn(page) == "mine"
    total = page.locator("#options button.option").count()
    hot = page.locator("#board .tt-piece.tt-hot")
    assert hot.count() > 0  # the pieces in the supply
    code = hot.first.get_attribute("data-piece")
    assert click_svg(page, hot.first)
    left = page.locator("#options button.option")
    assert 0 < left.count() < total
    assert all(n.startswith(f"{code}-") for n in
               (left.nth(i).get_attribute("data-notation") for i in range(left.count())))
    assert page.locator("#picked").is_visible()
    squares = page.locator("#board .tt-place.tt-hot")
    assert squares.count() == left.count()
    page.screenshot(path=str(SHOTS / "tabletop-browser-picked.png"), full_page=True)
    page.locator("#picked-clear").click()
    assert page.locator("#options button.option").count() == total
    assert click_svg(page, hot.first)
    before = version(page)
    target = squares.first.get_attribute("data-place")
    assert click_svg(page, squares.first)
    wait_moved(page, before)
    log = page.locator("#log").inner_text()
    assert f"{code}-{target}" in log


def test_a_hex_board_is_drawn_as_hexes_and_played_by_clicking_one(tmp_path: Path,
                                                                  browser: Any) -> None:
    hexes = Path(__file__).parent / "rulesets" / "hex.yaml"
    with Running(tmp_path / "games", extra={"little-hex": hexes}) as running:
        made = running.create(ruleset="little-hex", players=2,
                              seats={"1": "human", "2": "random"}, seed=2)
        page = open_page(browser, running, made["links"]["1"])
        assert wait_turn(page) == "mine"
        frames = page.locator("#board .tt-place polygon.tt-frame")
        assert frames.count() == 25  # one hexagon outline per hex of the 5 × 5 rhombus
        hot = page.locator("#board .tt-place.tt-hot")
        assert hot.count() == page.locator("#options button.option").count() == 25
        target = page.locator('#board .tt-place[data-place="c3"]')
        before = version(page)
        assert click_svg(page, target)
        wait_moved(page, before)
        assert "c3" in page.locator("#log").inner_text()
        assert wait_turn(page) == "mine"
        assert page.locator("#board .tt-place.tt-hot").count() == 23
        page.screenshot(path=str(SHOTS / "tabletop-browser-hex.png"), full_page=True)
        assert not page.js_errors, page.js_errors


def _hidden_codes(table: Any, seat: int, other: int) -> set[str]:
    """Codes of the pieces in `seat`'s hand-like places that `other` may not see and
    that show nowhere in `other`'s view (so they must not reach `other` at all)."""
    game, state = table.game, table.state
    seen = view(game, state, other)
    shown: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if "hidden" not in x and x and all(not isinstance(v, dict | list) for v in x.values()):
                p = game.piece_like(x)
                if p is not None:
                    shown.add(game.piece_codes[p])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(seen["zones"])
    mine = view(game, state, seat)
    secret: set[str] = set()
    for zone_id, per in mine["zones"].items():
        place = per.get(str(seat)) if isinstance(per, dict) else None
        if not isinstance(place, dict) or "pieces" not in place:
            continue
        theirs = seen["zones"][zone_id][str(seat)]
        if "pieces" in theirs:
            continue
        secret |= {game.piece_codes[p] for p in state.sites[game.site_by_name[
            f"{zone_id}[{seat}]"]]}
    return secret - shown


def test_two_people_see_only_their_own_secrets_and_a_spectator_sees_neither(
        server: Running, browser: Any) -> None:
    made = server.create(ruleset="aquarius-rising", players=2,
                         seats={"1": "human", "2": "human"}, seed=11)
    table = server.store.live[made["game"]]
    one = open_page(browser, server, made["links"]["1"])
    two = open_page(browser, server, made["links"]["2"])
    frames: list[str] = []
    two.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    watcher = open_page(browser, server, made["spectator"])
    assert watcher.locator("#who").inner_text() == "Watching"
    rng = random.Random(5)
    checked = 0
    for _ in range(12):
        if table.state.over:
            break
        deciding = table.game.deciding_seats(table.state)
        secret_1 = _hidden_codes(table, 1, 2)
        secret_2 = _hidden_codes(table, 2, 1)
        for page, secret in ((two, secret_1), (one, secret_2), (watcher, secret_1 | secret_2)):
            html = page.content()
            for code in secret:
                assert f'data-piece="{code}"' not in html
                assert not re.search(rf">\s*{re.escape(code)}\s*<", html), code
            checked += bool(secret)
        assert watcher.locator("#options button").count() == 0
        page = one if deciding[0] == 1 else two
        wait_turn(page)
        before = version(page)
        list_move(page, rng)
        for p in (one, two, watcher):
            p.wait_for_function(f"() => Number(document.body?.dataset.version) > {before}")
    assert checked, "no secret was there to keep"
    for frame in frames:
        data = json.loads(frame) if frame.startswith("{") else {}
        if data.get("type") == "state":
            assert "pieces" not in data["view"]["zones"]["hand"]["1"]
    one.screenshot(path=str(SHOTS / "tabletop-browser-seat1.png"), full_page=True)
    two.screenshot(path=str(SHOTS / "tabletop-browser-seat2.png"), full_page=True)
    watcher.screenshot(path=str(SHOTS / "tabletop-browser-spectator.png"), full_page=True)


def test_the_hot_seat_hides_the_board_until_the_next_player_is_ready(
        server: Running, browser: Any) -> None:
    made = server.create(ruleset="aquarium", players=2, seats={"1": "human", "2": "human"},
                         seed=4, hotseat=True)
    page = open_page(browser, server, made["links"]["table"])
    rng = random.Random(2)
    for _ in range(3):
        page.wait_for_function("() => document.body?.dataset.pass !== undefined")
        seat = page.evaluate("document.body.dataset.pass")
        assert page.locator("#pass").is_visible()
        assert f"Player {seat}" in page.locator("#pass-title").inner_text()
        assert "data-piece" not in page.locator("#board").inner_html()
        assert page.locator("#options button").count() == 0
        page.screenshot(path=str(SHOTS / "tabletop-browser-pass.png"))
        page.locator("#pass-ready").click()
        assert wait_turn(page) == "mine"
        assert page.locator("#who").inner_text() == f"You are Player {seat}"
        list_move_or_pass(page, rng)


def list_move_or_pass(page: Any, rng: random.Random) -> None:
    """Choose from the list; the pass screen may come before the new position does."""
    buttons = page.locator("#options button.option")
    button = buttons.nth(rng.randrange(buttons.count()))
    if not button.is_visible():
        button.locator("xpath=ancestor::details[1]/summary").click()
    button.click()


def test_the_create_form_starts_a_game_whose_links_open_it(server: Running,
                                                          browser: Any) -> None:
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(server.url + "/")
    page.wait_for_function("() => document.querySelectorAll('#ruleset option').length > 0")
    page.select_option("#ruleset", "high-rise")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    page.select_option("select[data-seat='2']", "random")
    page.fill("#seed", "5")
    assert page.locator("#fairness").is_hidden()
    page.select_option("#ruleset", "caldera")
    page.select_option("select[data-seat='2']", "mcts:playouts=200")
    assert page.locator("#fairness").is_hidden()  # Caldera hides nothing
    page.select_option("#ruleset", "bottoms-up")
    page.select_option("select[data-seat='3']", "mcts:playouts=200")
    fairness = page.locator("#fairness")
    assert fairness.is_visible() and "ismcts" in fairness.inner_text()
    page.screenshot(path=str(SHOTS / "tabletop-browser-create-note.png"), full_page=True)
    page.select_option("select[data-seat='3']", "ismcts:playouts=200")
    assert fairness.is_visible()  # seat 2 is still mcts
    page.select_option("select[data-seat='2']", "random")
    assert fairness.is_hidden()
    page.select_option("#ruleset", "high-rise")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    page.select_option("select[data-seat='2']", "random")
    page.screenshot(path=str(SHOTS / "tabletop-browser-create.png"), full_page=True)
    page.click("button[type=submit]")
    page.wait_for_selector("#result:not([hidden])")
    link = page.locator("#links a[data-seat='1']").get_attribute("href")
    assert page.locator("#links a[data-seat='spectator']").count() == 1
    assert page.locator("#links a[data-seat='2']").count() == 0  # a computer's seat
    play = open_page(browser, server, link)
    assert wait_turn(play) == "mine"
    assert play.locator("#board figure.zone svg").count() >= 1  # a picture per zone
    # a bad request says why, in words
    page.fill("#seed", "x")
    page.click("button[type=submit]")
    assert "seed" in page.locator("#error").inner_text()


def test_the_create_form_says_how_the_ruleset_sets_a_chosen_computer_player(
        tmp_path: Path, browser: Any) -> None:
    minimal = (Path(__file__).parent / "rulesets" / "minimal.yaml").read_text(encoding="utf-8")
    path = tmp_path / "minimal.yaml"
    path.write_text(minimal + "computer_players:\n  mcts: judge=score,playouts=5\n",
                    encoding="utf-8")
    with Running(tmp_path / "games", extra={"minimal": path}) as running:
        page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        page.goto(running.url + "/")
        page.wait_for_function("() => document.querySelectorAll('#ruleset option').length > 0")
        page.select_option("#ruleset", "minimal")
        settings = page.locator("#settings")
        assert settings.is_hidden()  # seat 2 is random
        page.select_option("select[data-seat='2']", "mcts:playouts=200")
        assert settings.is_visible()
        assert ("ruleset sets how its computer players play: mcts:judge=score,playouts=5"
                in settings.inner_text())
        page.select_option("select[data-seat='2']", "ismcts:playouts=200")
        assert settings.is_hidden()  # the ruleset leaves ismcts as it is
        page.select_option("select[data-seat='2']", "mcts:playouts=200")
        page.click("button[type=submit]")
        page.wait_for_selector("#result:not([hidden])")
        assert "mcts:judge=score,playouts=5" in page.locator("#notes").inner_text()
        page.screenshot(path=str(SHOTS / "tabletop-browser-create-settings.png"),
                        full_page=True)


def test_a_wrong_notation_is_refused_with_a_readable_error(server: Running,
                                                           browser: Any) -> None:
    made = server.create(ruleset="caldera", players=2, seats={"1": "human", "2": "random"},
                         seed=1)
    page = open_page(browser, server, made["links"]["1"])
    assert wait_turn(page) == "mine"
    page.fill("#notation", "zz9-north")
    page.press("#notation", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    assert "not a legal option" in page.locator("#error").inner_text()
    assert page.locator("#options button.option").count() > 0


def test_the_page_reconnects_when_the_server_comes_back(tmp_path: Path, browser: Any) -> None:
    first = Running(tmp_path)
    with first:
        made = first.create(ruleset="high-rise", players=2,
                            seats={"1": "human", "2": "human"}, seed=2)
        page = open_page(browser, first, made["links"]["1"])
        assert page.locator("#connection").inner_text() == "connected"
        seen = version(page)
    page.wait_for_function("() => document.getElementById('connection').textContent"
                           ".includes('retrying')", timeout=30000)
    page.screenshot(path=str(SHOTS / "tabletop-browser-dropped.png"))
    with Running(tmp_path, port=first.port) as second:  # the saved game is read back
        page.wait_for_function("() => document.getElementById('connection').textContent"
                               " === 'connected'", timeout=30000)
        assert version(page) == seen
        other = open_page(browser, second, made["links"]["2"])
        mover = page if wait_turn(page, 5000) == "mine" else other
        list_move(mover, random.Random(1))
        page.wait_for_function(f"() => Number(document.body?.dataset.version) > {seen}")


SCRIPT_CHECK = """() => ({
    scripts: [...document.scripts].map((s) => s.getAttribute('src')),
    images: document.querySelectorAll('img').length,
    links: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href'))
        .filter((h) => h.trim().toLowerCase().startsWith('javascript')),
    bold: document.querySelectorAll('main b, header b, #notes b, #board b').length,
    handlers: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes])
        .filter((a) => a.name.startsWith('on')).length,
})"""


PLAY_SCRIPTS = ("/static/motion.js", "/static/play.js")
"""The play page's own scripts, in the order it loads them."""


def no_markup_ran(page: Any, *scripts: str) -> None:
    """The page holds no element the ruleset's texts could have made, and only its own
    scripts."""
    found = page.evaluate(SCRIPT_CHECK)
    assert found == {"scripts": list(scripts), "images": 0, "links": [], "bold": 0,
                     "handlers": 0}, found


def test_a_hostile_rulesets_texts_show_literally_and_run_nothing(tmp_path: Path,
                                                                 browser: Any) -> None:
    """`serve --ruleset x.yaml` whose texts are scripts, images with onerror, javascript:
    links and quotes: the start page and the table show them as the words they are, no
    dialog ever opens, and the page has no element or handler they could have made. The
    rulebook page runs no script either (its policy allows none)."""
    path = hostile_ruleset(tmp_path)
    with Running(tmp_path / "games", extra={"minimal": path}) as running:
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        dialogs: list[str] = []
        context.on("page", lambda p: p.on("dialog", lambda d: (dialogs.append(d.message),
                                                                d.dismiss())))
        start = context.new_page()
        start.goto(running.url + "/")
        start.wait_for_function("() => document.querySelectorAll('#ruleset option').length > 0")
        start.select_option("#ruleset", "minimal")
        title = "Minimal " + HOSTILE[0]
        assert start.locator("#ruleset option[value='minimal']").inner_text() == title
        assert start.locator("#summary").inner_text() == " ".join(HOSTILE)
        assert HOSTILE[2] in start.locator("#options label").inner_text()
        no_markup_ran(start, "/static/index.js")
        start.select_option("select[data-seat='2']", "human")
        start.click("button[type=submit]")
        start.wait_for_selector("#result:not([hidden])")
        link = start.locator("#links a[data-seat='1']").get_attribute("href")
        page = context.new_page()
        page.goto(running.url + link)
        assert wait_turn(page) == "mine"
        assert page.locator("#title").inner_text() == title
        assert page.title() == f"{title} — Tabletop"
        assert page.locator("#prompt").inner_text() == "Take one " + " ".join(HOSTILE)
        assert any(" ".join(HOSTILE) in line for line in page.locator("#log li").all_inner_texts())
        labels = page.locator("#options button.option .label").all_inner_texts()
        assert "take it " + " ".join(HOSTILE) in labels
        board = page.locator("#board").inner_text()
        assert f"the pile {HOSTILE[0]}" in board and "4 pieces" in board
        no_markup_ran(page, *PLAY_SCRIPTS)
        page.screenshot(path=str(SHOTS / "tabletop-browser-hostile.png"), full_page=True)
        before = version(page)
        page.locator("#options button.option[data-notation='stop']").click()
        page.wait_for_function(f"() => Number(document.body?.dataset.version) > {before}")
        assert "stopped " + " ".join(HOSTILE) in page.locator("#status").inner_text()
        no_markup_ran(page, *PLAY_SCRIPTS)
        rules = context.new_page()
        rules.goto(running.url + "/rules/minimal")
        rules.wait_for_load_state("load")
        page.wait_for_timeout(300)  # an image's onerror would have fired by now
        assert not [s for s in rules.evaluate("() => [...document.scripts].map(s => s.src)")
                    if s], "the rulebook loads a script"
        assert dialogs == []


def test_the_analyze_report_fits_a_narrow_window(tmp_path: Path, browser: Any) -> None:
    """Its links to each seat count and matchup wrap: no sideways scrolling at 800 px."""
    report = tmp_path / "report.html"
    result = invoke("analyze", "caldera", "-p", "3", "--agents", "random,uniform", "-n", "1",
                    "--html", str(report))
    assert result.exit_code == 0, result.stderr
    page = browser.new_context(viewport={"width": 800, "height": 900}).new_page()
    page.goto(report.as_uri())
    assert page.locator("nav.toc a").count() == 4
    page.screenshot(path=str(SHOTS / "tabletop-browser-analyze-narrow.png"))
    assert page.evaluate("document.documentElement.scrollWidth"
                         " <= document.documentElement.clientWidth")


def test_the_last_move_is_outlined_and_said_in_words(server: Running, browser: Any) -> None:
    """After the computer's reply, the places it changed are outlined on the board, the
    move is said in words under it, and the log says it as the options list did."""
    made = server.create(ruleset="high-rise", players=2, seats={"1": "human", "2": "random"},
                         seed=3)
    page = open_page(browser, server, made["links"]["1"])
    assert wait_turn(page) == "mine"
    before = version(page)
    first = page.locator("#options button.option").first
    if not first.is_visible():  # in its group, closed
        first.locator("xpath=ancestor::details[1]/summary").click()
    first.click()
    wait_moved(page, before)
    assert wait_turn(page) == "mine"
    page.wait_for_function("() => document.querySelector('#board .tt-last-to') !== null",
                           timeout=30000)
    outlined = page.locator("#board .tt-place.tt-last-to")
    assert outlined.count() == 1
    square = outlined.first.get_attribute("data-place")
    said = page.locator("#last-move")
    assert said.is_visible()
    assert re.match(r"Last move \(Player 2\): .+ → " + re.escape(square), said.inner_text())
    assert page.locator("#board .tt-place.tt-last-from").count() >= 1  # its supply
    log = page.locator("#log").inner_text()
    assert re.search(r"Player 2 placed an? .+ on " + re.escape(square), log)
    page.screenshot(path=str(SHOTS / "tabletop-browser-last-move.png"), full_page=True)
    assert not page.js_errors
