"""Playing the browser table by direct manipulation, in a real browser (Playwright driving
the system's Chromium): every bundled game played to its end by dragging pieces and
clicking only (never the notation box) against random players, on a desk-sized window
and on a phone-sized one; moves made with the keyboard alone; the table drawn from the
server's `areas` (a section per area, a figure per zone) with the board's targets found
across every zone's picture; and the options in the terminal's groups.

Drags are real pointer events: Playwright's mouse (down, moves, up) at both sizes, and
touch points sent through the browser's DevTools protocol (`Input.dispatchTouchEvent`)
for a finger's drag on the phone. Screenshots go to the temporary folder
(tabletop-play-*.png).
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
uvicorn = pytest.importorskip("uvicorn", reason="the serve extra is not installed")

from serve_support import Running, create, serving, socket_url, until  # noqa: E402
from test_browser import (  # noqa: E402
    CHROMIUM,
    SHOTS,
    click_svg,
    list_move,
    settle,
    shown_error,
    version,
    wait_moved,
    wait_turn,
)

from interpreter.api import load_game  # noqa: E402
from interpreter.serve.app import option_groups  # noqa: E402
from interpreter.view.choosing import group_options  # noqa: E402

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium executable (install the 'chromium' package); "
    "browsers are not downloaded")

DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
DRAGS = 3
"""Moves made by dragging, at least, in every game whose options move a piece somewhere."""
FAVICON = "/favicon.ico"
"""The one request the browser makes of its own accord; the server has no icon, and its
404 is not the page's error."""

FIVE = [("caldera", 2), ("high-rise", 2), ("bottoms-up", 4), ("aquarium", 2),
        ("aquarius-rising", 2)]
GALLERY = [("tic-tac-toe", 2), ("connect-four", 2), ("kuhn-poker", 2), ("liars-dice", 2),
           ("goofspiel", 2), ("oware", 2), ("breakthrough", 2), ("pig", 2), ("nim", 2),
           ("dots-and-boxes", 2), ("hex", 2), ("perudo", 2), ("move-cards", 2)]


# -- the browser and a server -----------------------------------------------------------

@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with Running(tmp_path_factory.mktemp("games")) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("no Chromium executable")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield b
        b.close()


def open_table(browser: Any, url: str, size: dict[str, int], touch: bool = False,
               motion: str = "no-preference") -> Any:
    """A page at `size` that records every console error and uncaught exception; `motion`
    is the reduced-motion preference the browser reports."""
    context = browser.new_context(viewport=size, has_touch=touch, reduced_motion=motion)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.text} ({m.location.get('url')})")
            if m.type == "error" and not m.location.get("url", "").endswith(FAVICON) else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    return page


MOTION_RATE = 10
"""How many times as fast as a person sees them the whole games' slides and flips play on
the desk (the page's animations and their ends are the same; only the wait shrinks)."""


def quicker_motion(page: Any) -> None:
    """Play the page's animations MOTION_RATE times as fast (the DevTools protocol's
    document timeline rate)."""
    page.context.new_cdp_session(page).send("Animation.setPlaybackRate",
                                            {"playbackRate": MOTION_RATE})


def go(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function("() => document.body?.dataset.version !== undefined", timeout=30000)


def no_sideways_scroll(page: Any) -> None:
    wide = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], f"the page scrolls sideways: {wide[0]} px wide in {wide[1]}"


# -- dragging, as a person does -----------------------------------------------------------

def centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


HIT = """([x, y, selector]) => {
    const e = document.elementFromPoint(x, y);
    return !!(e && e.closest(selector));
}"""


def still(page: Any) -> None:
    """Wait until the last move has finished sliding: a piece pressed where it was drawn
    mid-slide is no longer under the pointer when the press comes."""
    page.wait_for_function("() => document.getAnimations().every("
                           "(a) => a.playState !== 'running')", timeout=10000)


def grab(page: Any, rng: random.Random) -> tuple[float, float] | None:
    """A draggable piece's centre, scrolled into view, where a press reaches it (not a
    piece stacked over it); None when the board has none."""
    pieces = page.locator("#board .tt-piece.draggable")
    order = list(range(pieces.count()))
    rng.shuffle(order)
    for i in order[:6]:
        piece = pieces.nth(i)
        try:  # the board may be drawn again meanwhile: then the next piece
            piece.scroll_into_view_if_needed(timeout=3000)
            box = piece.bounding_box()
        except playwright_api.Error:
            continue
        if box is None:
            continue
        x, y = centre(box)
        if page.evaluate(HIT, [x, y, ".tt-piece.draggable"]):
            return x, y
    return None


EDGE = 40
"""Pixels from the window's top or bottom within which a drag's pointer scrolls the page
(play.js), 16 px for each move it makes there."""
STRETCH = EDGE - 10
"""How far along the edge (from 4 or 5 px off the window's end) the pointer moves there."""


def reach(target: Any, x: float, height: int, move: Any) -> tuple[float, float]:
    """Move the pointer along the window's edge until `target` is in view (the page
    scrolls while a drag nears an edge: as many moves as the distance wants, a pixel
    apart, in one call), then off the edge at once (a glide out would scroll on, taking
    the target from under the pointer); where its centre is then."""
    at: float | None = None  # the pointer's height while on the edge
    for _ in range(100):
        box = target.bounding_box()
        if box is None:
            break
        tx, ty = centre(box)
        if 50 <= ty <= height - 50:
            if at is None:
                return tx, ty
            move(x, ty)
            at = None
            continue
        moves = min(STRETCH, math.ceil((50 - min(ty, height - ty)) / 16))
        end, inward = (4, 1) if ty < 50 else (height - 5, -1)
        if at is None or not 0 <= (at - end) * inward <= STRETCH:
            at = end
            move(x, at)
        to = at + inward * moves  # along the stretch, and back when it would leave it
        if (to - end) * inward > STRETCH:
            to = at - inward * moves
        move(x, to, steps=moves)
        at = to
    raise AssertionError("the drop target never came into view")


def finish(page: Any, rng: random.Random, before: int) -> None:
    """Complete a move begun on the board: more clicks on it, the confirm list or the
    options left."""
    if not click_move(page, rng, before):
        list_move(page, rng)
    wait_moved(page, before)


def chosen(page: Any, before: int) -> bool:
    """Whether the page has sent a choice (or the position moved on) since `before`."""
    return version(page) > before or page.evaluate("document.body.dataset.turn") == "sent"


def click_move(page: Any, rng: random.Random, before: int | None = None) -> bool:
    """Choose by clicking lit places and pieces (and, when several options fit the
    clicks, one in the confirm list). False when nothing on the board is lit."""
    before = version(page) if before is None else before
    clicked = False
    for _ in range(10):
        if chosen(page, before):
            break
        if page.locator("#confirm").is_visible():
            buttons = page.locator("#confirm-list button")
            buttons.nth(rng.randrange(buttons.count())).click()
            break
        hot = page.locator("#board .tt-hot")
        n = hot.count()
        if n == 0:
            if clicked:  # the last click chose: the page took the lights away
                break
            return False
        click_svg(page, hot.nth(rng.randrange(n)))
        clicked = True
        settle(page)
        error = shown_error(page)
        assert error is None, error
    wait_moved(page, before)
    return True


class Mouse:
    """Pointer events from Playwright's mouse."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def down(self, x: float, y: float) -> None:
        self.page.mouse.move(x, y)
        self.page.mouse.down()

    def move(self, x: float, y: float, steps: int = 1) -> None:
        self.page.mouse.move(x, y, steps=steps)

    def up(self, x: float, y: float) -> None:
        self.page.mouse.move(x, y)
        self.page.mouse.up()


class Finger:
    """A finger on a touch screen: touch points through the DevTools protocol, which
    the browser turns into pointer events of type "touch" (and scrolls for, unless the
    page says a piece takes the touch)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.at = (0.0, 0.0)

    def _send(self, kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
        self.at = (x, y)

    def down(self, x: float, y: float) -> None:
        self._send("touchStart", x, y)

    def move(self, x: float, y: float, steps: int = 1) -> None:
        x0, y0 = self.at
        for k in range(1, steps + 1):
            self._send("touchMove", x0 + (x - x0) * k / steps, y0 + (y - y0) * k / steps)

    def up(self, x: float, y: float) -> None:
        self.move(x, y)
        self._send("touchEnd", x, y)


def drag_move(page: Any, rng: random.Random, pointer: Any) -> bool:
    """Press on a piece an option moves, drag it (a ghost follows, its legal targets
    light up) and drop it on one of them; then finish the move if it has more steps.
    False when no piece can be dragged or the drop did not land on a target."""
    before = version(page)
    still(page)
    start = grab(page, rng)
    if start is None:
        return False
    x, y = start
    pointer.down(x, y)
    pointer.move(x + 9, y + 9, steps=3)
    targets = page.locator("#board .drop-target")
    try:  # the moves reach the page at its next frame
        targets.first.wait_for(state="attached", timeout=3000)
    except playwright_api.TimeoutError:
        raise AssertionError("a draggable piece lit no target") from None
    assert page.locator(".ghost").count() == 1
    assert page.evaluate("document.getElementById('board').classList.contains('dragging')")
    target = targets.nth(rng.randrange(targets.count()))
    tx, ty = reach(target, x + 9, page.viewport_size["height"], pointer.move)
    pointer.move(tx, ty, steps=4)
    try:  # moves reach the page at its next frame: wait for the last one's light
        page.wait_for_selector("#board .drop-hover", timeout=1000)
        landed = True
    except playwright_api.TimeoutError:
        landed = False
    pointer.up(tx, ty)
    outcome = after_drop(page, before, 5000 if landed else 1500)
    assert page.locator(".ghost").count() == 0
    if outcome == "chosen":
        wait_moved(page, before)
        return True
    if outcome == "picked":
        assert landed
        finish(page, rng, before)
        return True
    assert not landed, "a drop on a lit target picked nothing: " + outcome
    return False


AFTER_DROP = """([before]) => {
    if (Number(document.body.dataset.version) > before
        || document.body.dataset.turn === 'sent') return 'chosen';
    if (!document.getElementById('picked').hidden) return 'picked';
    return null;
}"""


def after_drop(page: Any, before: int, wait: int) -> str:
    """What a drop did, once the page has handled it (the release may be handled after
    Playwright returns): "chosen" (the move was sent), "picked" (the options narrowed), or
    else what the page says ("" when nothing)."""
    try:
        return page.wait_for_function(AFTER_DROP, arg=[before], timeout=wait).json_value()
    except playwright_api.TimeoutError:
        return page.locator("#error").inner_text()


def play_whole_game(page: Any, rng: random.Random, shots: str, pointer: Any,
                    limit: int = 3000) -> dict[str, int]:
    """Play this seat to the end: dragging when a piece can be dragged (mostly), else
    clicking the board, else clicking an option in the list; checked for sideways
    scrolling after every move. How many moves were made each way."""
    made = {"drag": 0, "board": 0, "list": 0}
    for n in range(limit):
        if wait_turn(page) == "over":
            page.screenshot(path=str(SHOTS / f"{shots}-over.png"), full_page=True)
            return made
        if n == 2:
            page.screenshot(path=str(SHOTS / f"{shots}-turn.png"), full_page=True)
        if rng.random() < 0.75 and drag_move(page, rng, pointer):
            made["drag"] += 1
        elif click_move(page, rng):
            made["board"] += 1
        else:
            list_move(page, rng)
            made["list"] += 1
        no_sideways_scroll(page)
    raise AssertionError(f"{shots}: the game did not end in {limit} moves")


def draggable_game(name: str) -> bool:
    """Whether the game has options that take a piece from one place to another."""
    text = (Path(__file__).parent.parent / "rulesets" / f"{name}.yaml").read_text("utf-8")
    return "move:" in text and name not in NO_DRAG


NO_DRAG = {"aquarium", "kuhn-poker", "liars-dice", "goofspiel", "pig", "nim", "perudo",
           "dots-and-boxes", "oware", "connect-four", "tic-tac-toe", "hex"}
"""Games whose options name no piece to take to a place: a card played from a hand to
where it always goes, a bid, a sowing begun by choosing a house, a stone put on an empty
point. They are played by clicking."""

SIZES = [("desk", DESK), ("phone", PHONE)]
CASES = [(g, p, s) for g, p in FIVE + GALLERY for s, _ in SIZES]


@needs_chromium
@pytest.mark.parametrize("name, players, size", CASES,
                         ids=[f"{g}-{s}" for g, _, s in CASES])
def test_a_whole_game_played_by_dragging_and_clicking(
        server: Running, browser: Any, name: str, players: int, size: str) -> None:
    seats = {"1": "human", **{str(s): "random" for s in range(2, players + 1)}}
    made_game = server.create(ruleset=name, players=players, seats=seats, seed=7)
    # The phone asks for reduced motion (a setting many phone users choose): the page's
    # still path is played whole, and the desk's games play every slide and flip.
    page = open_table(browser, server.url, dict(SIZES)[size],
                      motion="reduce" if size == "phone" else "no-preference")
    if size == "desk":  # every slide and flip plays, in a tenth of its time: a drag waits
        quicker_motion(page)  # for the last one to end (a piece pressed mid-slide moves)
    go(page, server.url + made_game["links"]["1"])
    no_sideways_scroll(page)
    if size == "phone":
        assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    made = play_whole_game(page, random.Random(7), f"tabletop-play-{name}-{size}",
                           Mouse(page))
    assert page.locator("#status").inner_text().startswith("Game over")
    assert server.store.live[made_game["game"]].state.over
    assert sum(made.values()) > 0
    if draggable_game(name):
        assert made["drag"] >= min(DRAGS, sum(made.values())), made
    assert page.locator("#log li").count() > 0
    no_sideways_scroll(page)
    assert not page.js_errors, page.js_errors
    page.context.close()


# -- a finger on a phone ----------------------------------------------------------------

@needs_chromium
def test_a_finger_drags_a_piece_to_a_square_on_a_phone(server: Running, browser: Any) -> None:
    """A touch drag picks the piece and drops it where it goes: the piece takes the
    touch (the page does not scroll away under the finger)."""
    made = server.create(ruleset="high-rise", players=2, seats={"1": "human", "2": "random"},
                         seed=5)
    page = open_table(browser, server.url, PHONE, touch=True)
    go(page, server.url + made["links"]["1"])
    rng = random.Random(3)
    dragged = 0
    for _ in range(3):
        assert wait_turn(page) == "mine"
        before = version(page)
        assert drag_move(page, rng, Finger(page))
        assert version(page) > before
        dragged += 1
        no_sideways_scroll(page)
    assert dragged == 3
    log = page.locator("#log").inner_text()
    assert log.count("Player 1 placed") == 3
    page.screenshot(path=str(SHOTS / "tabletop-play-finger.png"), full_page=True)
    assert not page.js_errors, page.js_errors


@needs_chromium
def test_a_drop_away_from_any_target_cancels_and_a_click_still_picks(
        server: Running, browser: Any) -> None:
    made = server.create(ruleset="high-rise", players=2, seats={"1": "human", "2": "random"},
                         seed=8)
    page = open_table(browser, server.url, DESK)
    go(page, server.url + made["links"]["1"])
    assert wait_turn(page) == "mine"
    before = version(page)
    total = page.locator("#options button.option").count()
    x, y = grab(page, random.Random(1))
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 20, y + 5, steps=3)
    lit = page.locator("#board .drop-target")
    lit.first.wait_for(state="attached")
    assert lit.count() == 9  # the board's nine squares, as the options say
    assert all(lit.nth(i).get_attribute("data-place") for i in range(lit.count()))
    page.screenshot(path=str(SHOTS / "tabletop-play-dragging.png"))
    status = page.locator("#status").bounding_box()
    page.mouse.move(*centre(status), steps=3)  # off the board
    page.mouse.up()
    settle(page)
    assert version(page) == before
    assert page.locator("#picked").is_hidden()
    assert page.locator(".ghost").count() == 0
    assert page.locator("#options button.option").count() == total
    # click, click: the same move as a drag
    piece = page.locator("#board .tt-piece.draggable").first
    code = piece.get_attribute("data-piece")
    piece.click()
    assert page.locator("#picked").is_visible()
    square = page.locator("#board .tt-place.tt-hot").first
    place = square.get_attribute("data-place")
    square.click()
    wait_moved(page, before)
    assert f"{code}-{place}" in page.locator("#log").inner_text()
    assert not page.js_errors, page.js_errors


# -- the keyboard alone ----------------------------------------------------------------

FOCUSED = """() => {
    const e = document.activeElement;
    if (!e || e === document.body) return "none";
    if (e.closest('#board') && e.classList.contains('tt-hot')) {
        // a lit target is a button, with its words and the focus ring's class
        return e.getAttribute('role') === 'button' && e.getAttribute('aria-label')
            && e.classList.contains('focus-target') ? "board" : "bare target";
    }
    if (e.matches('#confirm-list button')) return "confirm";
    if (e.matches('button.option')) return "option";
    if (e.matches('#options summary')) return e.parentElement.open ? "open" : "summary";
    return "other";
}"""


def key_move(page: Any, rng: random.Random) -> str:
    """One move with key presses only: Tab to the board's lit targets or the options,
    arrows among the targets, Enter to pick or choose. What the move was chosen on."""
    before = version(page)
    way = "board"
    chose = False
    for _ in range(80):
        if version(page) > before:
            return way
        where = page.evaluate(FOCUSED)
        assert where != "bare target"
        if where == "board":
            for _ in range(rng.randrange(4)):
                page.keyboard.press(rng.choice(["ArrowRight", "ArrowLeft", "ArrowDown",
                                                "ArrowUp"]))
            page.keyboard.press(rng.choice(["Enter", " "]))
            chose = True
        elif where in ("option", "confirm"):
            way = where
            for _ in range(rng.randrange(3)):
                page.keyboard.press("Tab")
                if page.evaluate(FOCUSED) not in ("option", "confirm"):
                    page.keyboard.press("Shift+Tab")
                    break
            page.keyboard.press("Enter")
            chose = True
        elif where == "summary":
            page.keyboard.press("Enter")  # open the group
        elif where == "none" and chose:
            # the choice is sent and its target drawn away: the server's answer is on
            # its way, and a Tab now would take the keys off the board (to the page's
            # header) before it comes, where no person waiting for it would press one
            page.wait_for_timeout(50)
        else:
            page.keyboard.press("Tab")
        settle(page)
    wait_moved(page, before)
    return way


@needs_chromium
@pytest.mark.parametrize("name", ["high-rise", "aquarium"])
def test_moves_made_with_the_keyboard_alone(server: Running, browser: Any, name: str) -> None:
    made = server.create(ruleset=name, players=2, seats={"1": "human", "2": "random"},
                         seed=4)
    page = open_table(browser, server.url, DESK)
    go(page, server.url + made["links"]["1"])
    rng = random.Random(4)
    ways = []
    for n in range(5):
        if wait_turn(page) == "over":
            break
        if n == 1:
            page.screenshot(path=str(SHOTS / f"tabletop-play-keys-{name}.png"), full_page=True)
        ways.append(key_move(page, rng))
    assert len(ways) == 5, ways
    if name == "high-rise":
        assert ways.count("board") >= 3, ways  # the page puts the keys back on the board
        # Escape clears the picks (after a move made on the board, whose keys the page
        # puts back on the board; a move made in the list leaves them in the list)
        for _ in range(10):
            if ways[-1] == "board" or wait_turn(page) == "over":
                break
            ways.append(key_move(page, rng))
        assert ways[-1] == "board", ways
        wait_turn(page)
        total = page.locator("#options button.option").count()
        # the opponent's reply may still be drawing the table when the turn comes (up to
        # seconds on a loaded machine)
        with contextlib.suppress(playwright_api.TimeoutError):
            page.wait_for_function("() => (" + FOCUSED + ")() === 'board'", timeout=10000)
        assert page.evaluate(FOCUSED) == "board"
        label = page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert re.fullmatch(r"Pick .+ on .+", label), label
        page.keyboard.press("Enter")
        assert page.locator("#picked").is_visible()
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") in (
            page.locator("#board .tt-place.tt-hot").first.get_attribute("data-place"),
            *page.locator("#board .tt-place.tt-hot").evaluate_all(
                "(es) => es.map((e) => e.getAttribute('aria-label'))"))
        page.keyboard.press("Escape")
        assert page.locator("#picked").is_hidden()
        assert page.locator("#options button.option").count() == total
    assert not page.js_errors, page.js_errors


# -- the table from `areas`: a figure per zone, targets across them ------------------------

SVG = "{http://www.w3.org/2000/svg}"


def frame_box(root: ET.Element, place: ET.Element) -> list[float] | None:
    """The place's frame (x, y, width, height) in the picture's coordinates, through the
    translate and scale transforms of the groups it sits in."""
    frame = place.find(f"{SVG}rect[@class='tt-frame']")
    if frame is None:
        return None
    x, y, w, h = (float(frame.get(k)) for k in ("x", "y", "width", "height"))
    parents = {child: parent for parent in root.iter() for child in parent}
    node: ET.Element | None = place
    while node is not None:
        steps = re.findall(r"(translate|scale)\(([^)]*)\)", node.get("transform", ""))
        for kind, args in reversed(steps):
            a = [float(v) for v in re.split(r"[\s,]+", args.strip())]
            if kind == "scale":
                k = a[0]
                x, y, w, h = x * k, y * k, w * k, h * k
            else:
                x, y = x + a[0], y + (a[1] if len(a) > 1 else 0)
        node = parents.get(node)
    return [x, y, w, h]


def split_areas(message: dict[str, Any]) -> dict[str, Any]:
    """A state message given `areas` (in place of the server's) built from its one
    picture, so that what the page draws is known here: each place a zone of
    its own (its picture the whole one's frame with only that place in it), the first
    two in an opponent's area, the rest shared between the centre and mine; one zone's
    picture carries a script and a handler, which the page must take out."""
    if message.get("type") != "state":
        return message
    ET.register_namespace("", SVG[1:-1])
    root = ET.fromstring(message["svg"])
    places = [g for g in root.iter(f"{SVG}g") if g.get("class") == "tt-place"]
    zones = []
    for g in places:
        picture = copy.deepcopy(root)
        parents = {child: parent for parent in picture.iter() for child in parent}
        for other in [e for e in picture.iter(f"{SVG}g") if e.get("class") == "tt-place"
                      and e.get("data-place") != g.get("data-place")]:
            parents[other].remove(other)
        box = frame_box(root, g)
        if box is not None:  # the picture cut to its place, at its natural size
            picture.set("viewBox", " ".join(str(v) for v in box))
            picture.set("width", str(box[2]))
            picture.set("height", str(box[3]))
        zones.append({"place": g.get("data-place"), "zone": g.get("data-place"),
                      "title": f"Zone {g.get('data-place')} <b>bold</b>",
                      "count": f"{len(g.findall(f'.//{SVG}g'))} things", "arrange": "grid",
                      "svg": ET.tostring(picture, encoding="unicode")})
    zones[0]["svg"] = zones[0]["svg"].replace(
        "</svg>", "<script>window.ran = 1</script><rect onclick='window.ran = 2'/></svg>")
    third = max(2, len(zones) // 2)
    message["areas"] = [
        {"role": "opponent", "seat": 2, "title": "Player 2", "zones": zones[:2]},
        {"role": "centre", "seat": None, "title": "The table", "zones": zones[2:third]},
        {"role": "mine", "seat": 1, "title": "You (Player 1)", "zones": zones[third:]},
    ]
    return message


def with_areas(page: Any) -> None:
    """Give every state message the server sends this page an `areas` (split_areas)."""
    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda m: ws.send(json.dumps(split_areas(json.loads(m)))))
        ws.on_message(lambda m: server.send(m))
    page.route_web_socket(re.compile(r"/ws/"), route)


@needs_chromium
def test_the_areas_are_drawn_as_a_table_and_played_across_their_zones(
        server: Running, browser: Any) -> None:
    made = server.create(ruleset="high-rise", players=2, seats={"1": "human", "2": "random"},
                         seed=6)
    page = open_table(browser, server.url, DESK)
    with_areas(page)
    go(page, server.url + made["links"]["1"])
    assert wait_turn(page) == "mine"
    areas = page.locator("#board > section.area")
    assert areas.evaluate_all("(es) => es.map((e) => [e.className, e.dataset.seat || null,"
                              " e.querySelector('h3').textContent])") == [
        ["area opponent", "2", "Player 2"], ["area centre", None, "The table"],
        ["area mine", "1", "You (Player 1)"]]
    figures = page.locator("#board section.area > div.zones > figure.zone")
    count = figures.count()
    assert count > 9
    first = figures.first
    place = first.get_attribute("data-place")
    assert first.get_attribute("data-arrange") == "grid"
    assert first.locator("figcaption").inner_text().startswith(f"Zone {place} <b>bold</b>")
    assert first.locator("figcaption span.count").count() == 1
    assert page.locator("#board figure.zone > svg").count() == count  # one picture each
    assert page.locator("#board b, #board script").count() == 0
    assert page.evaluate("window.ran === undefined")
    assert page.evaluate("[...document.querySelectorAll('#board *')].flatMap((e) =>"
                         " [...e.attributes]).filter((a) => a.name.startsWith('on')).length") == 0
    # the supply's pieces and the board's squares are in different zones' pictures
    x, y = grab(page, random.Random(1))
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 10, y + 10, steps=2)
    page.locator("#board .drop-target").first.wait_for(state="attached")
    pictures = page.evaluate("""() => {
        const source = document.querySelector('#board .tt-piece.dragging').ownerSVGElement;
        const lit = [...document.querySelectorAll('#board .drop-target')];
        return [lit.length, new Set(lit.map((e) => e.ownerSVGElement)).size,
                lit.filter((e) => e.ownerSVGElement === source).length];
    }""")
    assert pictures == [9, 9, 0]  # each square a zone of its own here
    page.screenshot(path=str(SHOTS / "tabletop-play-areas.png"), full_page=True)
    page.keyboard.press("Escape")  # Escape drops the drag too
    assert page.locator(".ghost, #board .drop-target").count() == 0
    page.mouse.up()
    settle(page)
    assert page.locator("#picked").is_hidden()  # its release is no click on the piece
    rng = random.Random(2)
    for _ in range(3):
        assert wait_turn(page) == "mine"
        assert drag_move(page, rng, Mouse(page))
    assert page.locator("#log").inner_text().count("Player 1 placed") == 3
    assert page.evaluate("window.ran === undefined")
    # parsing the hostile picture (in a document of its own, before the handler is taken
    # out) makes the browser say its policy refused the handler; nothing else is said
    refused = "Executing inline event handler violates the following Content Security Policy"
    assert page.js_errors and all(e.startswith(refused) for e in page.js_errors), page.js_errors


# -- the options in the terminal's groups ----------------------------------------------------

def test_each_option_is_sent_with_the_terminals_group(tmp_path: Path) -> None:
    with serving(tmp_path, chosen_seeds=True) as client:
        made = create(client, ruleset="high-rise", players=2,
                      seats={"1": "human", "2": "random"}, seed=3)
        with client.websocket_connect(socket_url(made, "1")) as ws:
            message = until(ws, lambda m: m.get("type") == "state" and m["options"])
    options = message["options"]
    groups: dict[int, list[dict[str, Any]]] = {}
    for option in options:
        groups.setdefault(option["group"]["n"], []).append(option)
    assert len(options) == 135 and len(groups) == 15
    for members in groups.values():
        first = members[0]["group"]
        assert all(m["group"] == first for m in members)
        assert first["size"] == len(members) == 9
        assert first["title"].startswith("Put your ") and first["title"].endswith(" …")
        assert all(m["notation"].startswith(first["key"]) for m in members)


def test_the_groups_sent_are_the_terminals() -> None:
    """The server's groups are group_options's, option for option (the terminal's)."""
    game = load_game("high-rise")
    state = game.new_state(2, 1)
    seat = game.deciding_seats(state)[0]
    options = game.legal_options(state, seat)
    sent = option_groups(options)
    for n, group in enumerate(group_options(options)):
        for option in group.options:
            assert sent[options.index(option)] == {"n": n, "title": group.title,
                                                   "size": len(group.options),
                                                   "key": group.key}


@needs_chromium
def test_many_options_are_listed_in_groups_with_their_words(server: Running,
                                                           browser: Any) -> None:
    made = server.create(ruleset="high-rise", players=2, seats={"1": "human", "2": "random"},
                         seed=3)
    page = open_table(browser, server.url, PHONE)
    go(page, server.url + made["links"]["1"])
    assert wait_turn(page) == "mine"
    groups = page.locator("#options details.option-group")
    assert groups.count() == 15
    summary = groups.first.locator("summary").inner_text()
    assert re.fullmatch(r"Put your .+ on … \(9\)", summary), summary
    assert groups.first.locator("button.option").count() == 9
    assert not groups.first.locator("button.option").first.is_visible()
    groups.first.locator("summary").click()
    button = groups.first.locator("button.option").first
    assert button.is_visible()
    notation = button.get_attribute("data-notation")
    label = button.locator(".label").inner_text()
    assert button.get_attribute("aria-label") == f"{label} ({notation})"
    page.screenshot(path=str(SHOTS / "tabletop-play-groups-phone.png"), full_page=True)
    before = version(page)
    button.click()
    wait_moved(page, before)
    assert not page.js_errors, page.js_errors
