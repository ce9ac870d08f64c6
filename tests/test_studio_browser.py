"""The studio in a real browser, driven as a designer would use it (issue 44's "done
when"): `tabletop studio DIR --no-open` runs in a subprocess on a temporary folder, and
Chromium (Playwright, the system's executable) makes a variant of Caldera with the
"Variant of…" button, types a change with a misspelt address, sees the inline error and
its did-you-mean fix, applies it, sees the set-up table change, plays three moves, saves
the position as a scenario case, sees the tests pass, runs a 50-game balance check and
sees its charts, and reads the variant's difference in the rulebook.

With STUDIO_SHOTS set, a screenshot of each panel goes to /tmp/studio-shots/ (or to the
folder STUDIO_SHOTS names). Skipped, saying why, when Playwright or Chromium is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
pytest.importorskip("uvicorn", reason="the serve extra is not installed")

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             shutil.which("google-chrome"), "/usr/bin/chromium")
                 if p and Path(p).exists()), None)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium executable (install the 'chromium' package); "
    "browsers are not downloaded")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from studio import studio as launch_studio  # noqa: E402

VARIANT = "yellow-caps.yaml"
TYPO = "setpu.3"
"""A misspelt address of Caldera's third set-up step (where the caps go): the loader
answers with "did you mean 'setup.3'"."""
CHANGE = f"""
change:
  {TYPO}:
    in: "[c for c in cells(board) if top(c).colour == yellow]"
    text: Put a cap (a black small) on top of every yellow nest.
"""
"""The designer's change: the caps start on the yellow nests instead of the red."""
WAIT = 30_000
"""Milliseconds to wait for one step's answer (the machine is shared and may be busy)."""


@pytest.fixture()
def studio_url(tmp_path: Path) -> Iterator[str]:
    """`tabletop studio` over an empty folder, in a subprocess; its address with the
    token, read from what it prints (the keystroke benchmark's own launcher)."""
    with launch_studio(tmp_path) as url:
        yield url


@pytest.fixture()
def page(studio_url: str) -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"])
        try:
            tab = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
            tab.set_default_timeout(WAIT)
            errors: list[str] = []
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.js_errors = errors
            tab.goto(studio_url)
            yield tab
        finally:
            browser.close()


class Shots:
    """Screenshots of the page, one per panel, when STUDIO_SHOTS is set."""

    def __init__(self, page: Any) -> None:
        wanted = os.environ.get("STUDIO_SHOTS")
        self.folder = (Path(wanted) if wanted and wanted not in ("1", "true", "yes")
                       else Path("/tmp/studio-shots")) if wanted else None
        self.page = page
        if self.folder:
            self.folder.mkdir(parents=True, exist_ok=True)

    def take(self, name: str) -> None:
        if self.folder:
            self.page.screenshot(path=str(self.folder / f"{name}.png"))


def table_svg(page: Any) -> str:
    return page.inner_html("#table-svg")


def until(test: Any, what: str, seconds: float = WAIT / 1000) -> None:
    """Poll `test` (a Python check of the page) until it holds."""
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, f"timed out: {what}"
        time.sleep(0.1)


def test_a_designer_makes_checks_plays_tests_balances_and_reads_a_variant(page: Any) -> None:
    expect = playwright_api.expect
    shots = Shots(page)
    started = time.monotonic()

    # a variant of a bundled game, in one click (and a name)
    page.click("#new-variant")
    dialog = page.locator("#variant-dialog")
    dialog.locator("select[name=base]").select_option("caldera")
    dialog.locator("input[name=name]").fill(VARIANT)
    dialog.locator("button[type=submit]").click()
    expect(page.locator("#files")).to_contain_text(VARIANT)
    expect(page.locator("#table-svg svg")).to_be_visible()
    expect(page.locator("#problems .problem")).to_have_count(0)
    before = table_svg(page)
    assert "The volcano" in page.inner_text("#table-svg")

    # a change with a misspelt address: the error inline, and its did-you-mean fix
    page.click(".cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.insert_text(CHANGE)
    problem = page.locator("#problems .problem")
    expect(problem).to_have_count(1)
    expect(problem).to_contain_text(f"no part '{TYPO}'")
    expect(problem).to_contain_text("did you mean 'setup.3'")
    expect(page.locator(".cm-lintRange-error, .cm-lintRange")).not_to_have_count(0)
    expect(page.locator("#table-svg")).to_have_class(re.compile(r"\bstale\b"))
    assert table_svg(page) == before, "the last good table is kept while the text has errors"
    shots.take("editor-error")
    problem.locator(".fix", has_text="setup.3").first.click()
    expect(problem).to_have_count(0)
    assert TYPO not in page.inner_text(".cm-content")
    assert "setup.3:" in page.inner_text(".cm-content")

    # the table changes: the caps now start on the yellow nests
    expect(page.locator("#table-svg")).not_to_have_class(re.compile(r"\bstale\b"))
    until(lambda: table_svg(page) != before, "the table shows the change")
    shots.take("table-setup")
    page.click("#save")
    expect(page.locator("#dirty")).to_be_hidden()

    # three moves, then the position as a scenario case
    page.click("#play")
    options = page.locator("#play-options button.option")
    for made in range(3):
        expect(options.first).to_be_visible()
        shown = table_svg(page)
        options.first.click()
        expect(page.locator("#table-svg")).to_have_attribute("data-moves", str(made + 1))
        assert table_svg(page) != shown, "each move redraws the table"
    expect(page.locator("#play-log li")).not_to_have_count(0)
    expect(page.locator("#undo")).to_be_enabled()
    page.click("#save-case")
    name = page.input_value("#case-name")
    assert name, "the case gets a name from its moves"
    page.click("#case-confirm")
    expect(page.locator("#table-note")).to_contain_text(name)
    shots.take("table-play")

    # the tests pass, the saved case among them
    page.click("[data-panel=tests]")
    cases = page.locator("#tests-list .case")
    expect(cases.filter(has_text=name)).to_have_count(1)
    expect(page.locator("#tests-list .case.pass").filter(has_text=name)).to_have_count(1)
    expect(page.locator("#tests-list .case.fail")).to_have_count(0)
    shots.take("tests")

    # a 50-game balance check and its charts
    page.click("[data-panel=balance]")
    page.fill("#balance-games", "50")
    page.click("#balance-run")
    expect(page.locator("#balance-charts svg").first).to_be_visible(timeout=60_000)
    expect(page.locator("#balance-count")).to_contain_text("50 of 50")
    expect(page.locator("#balance-run")).to_be_enabled()
    assert page.locator("#balance-charts svg").count() >= 2
    seats = page.locator(".balance-seats th")
    expect(seats.filter(has_text="Player 1")).to_have_count(1)
    expect(seats.filter(has_text="Player 2")).to_have_count(1)
    expect(page.locator(".balance-seats .rate-text").first).to_contain_text("of 50")
    shots.take("balance")

    # the rulebook says what the variant changes
    page.click("[data-panel=rulebook]")
    book = page.frame_locator("#rulebook-frame").locator("body")
    expect(book).to_contain_text("yellow nest")
    shots.take("rulebook")

    assert page.js_errors == [], page.js_errors
    assert time.monotonic() - started < 90, "the designer's round took too long"


@pytest.fixture()
def broken_case(tmp_path: Path) -> Path:
    """Caldera: Two Trios with its tests, one of which expects the wrong winner."""
    rulesets = Path(__file__).resolve().parent.parent / "rulesets"
    (tmp_path / "two.yaml").write_text(
        (rulesets / "caldera-two-trios.yaml").read_text().replace("../tabletop.schema", "x"))
    tests = (rulesets / "caldera-two-trios.tests.yaml").read_text()
    broken = tests.replace("    winners: [1]\n", "    winners: [2]\n", 1)
    assert broken != tests
    (tmp_path / "two.tests.yaml").write_text(broken)
    return tmp_path


def test_a_failing_case_shows_why_and_opens_at_its_position(broken_case: Path,
                                                            page: Any) -> None:
    expect = playwright_api.expect
    shots = Shots(page)
    page.locator("#files").get_by_text("Two Trios").first.click()
    expect(page.locator("#table-svg svg")).to_be_visible()
    page.click("[data-panel=tests]")
    failing = page.locator("#tests-list .case.fail")
    expect(failing).to_have_count(1)
    expect(page.locator("#tests-list .case.pass")).not_to_have_count(0)
    expect(page.locator("#tests-counts")).to_contain_text("1 of")
    expect(failing.locator(".case-report")).to_contain_text("winners")
    expect(failing.locator(".case-svg svg")).to_be_visible()
    shots.take("tests-failing")

    # clicking the case shows its position (after its moves) in the table
    failing.locator(".case-name").click()
    expect(page.locator("#panel-table")).to_be_visible()
    expect(page.locator("#table-status")).to_contain_text("over")
    expect(page.locator("#play-log")).to_contain_text("two monochrome trios")

    # its line link opens the tests file in the editor
    page.click("[data-panel=tests]")
    failing.locator(".case-line").click()
    expect(page.locator(".cm-content")).to_contain_text("winners: [2]")
    assert page.js_errors == [], page.js_errors
