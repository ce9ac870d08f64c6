"""Nothing a ruleset writes runs in a page (issue 38 §3).

Two rulesets carry markup in every text a ruleset can write (tests/rulesets/hostile_*.yaml:
titles, labels, names, prompts, says, end texts, rulings, ids, values, glyphs ...):
`<script>`, `<img onerror>`, a Markdown link to `javascript:`, quotes, `{{7*7}}`. Each
output that shows them is checked: the rulebook's Markdown (rendered as mkdocs renders
it, and the built site), its SVG pictures, the print HTML (which `tabletop serve` shows
at /rules/GAME), the browser table's picture, the balance report and the terminal. No
script, event handler or `javascript:` link may come out of them, and the text must
still be there to read.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from rich.console import Console

from interpreter.assemble.game import compile_game
from interpreter.docs.build import environment, print_html, write_docs
from interpreter.docs.diagrams import position_svg
from interpreter.docs.rulebook import build_rulebook
from interpreter.docs.text import Md, md, md_code, md_escape
from interpreter.load.loader import load_ruleset
from interpreter.run.view import SPECTATOR, view

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ROOT / "tests" / "rulesets" / "hostile_texts.yaml"
IDS = ROOT / "tests" / "rulesets" / "hostile_ids.yaml"
EXTENSIONS = ["tables", "attr_list", "sane_lists", "toc"]
"""The Markdown extensions of mkdocs.yml."""
SHOWN = ["<script>alert(1)</script> Title", "<img src=x onerror=alert(1)> Pile",
         "[x](javascript:alert(1)) Taken", "\"dq\" 'sq' {{7*7}}",
         "<script>alert(1)</script> End text"]
"""Texts of hostile_texts.yaml each page of its rulebook must show as they are."""


class _Scan(HTMLParser):
    """Everything in a page that would run: scripts it did not bring itself, event
    handlers, `javascript:` URLs, images and frames other than its own pictures."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=…>")
            if re.sub(r"[\s\x00-\x1f]", "", value or "").lower().startswith(
                    ("javascript:", "data:text/html")):
                self.problems.append(f"<{tag} {name}={value!r}>")
        src = dict(attrs).get("src") or ""
        if tag in ("iframe", "object", "embed") or (
                tag == "img" and not re.fullmatch(r"[\w./-]+\.(svg|png)", src)):
            self.problems.append(f"<{tag} src={src!r}>")
        self._script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._script = False

    def handle_data(self, data: str) -> None:
        if self._script and "alert" in data:
            self.problems.append(f"<script>{data[:40]}")


def runs(page: str) -> list[str]:
    """What in an HTML page would run (empty: nothing)."""
    scan = _Scan()
    scan.feed(page)
    scan.close()
    return scan.problems


def read(page: str) -> str:
    """A page's text as a reader sees it (tags dropped, entities read)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rulebooks of both hostile rulesets, written as `tabletop docs` writes them."""
    out = tmp_path_factory.mktemp("hostile") / "docs"
    write_docs(out, paths=[TEXTS, IDS])
    return out


# -- the escaping itself ----------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))",
    "![i](javascript:alert(1))", "<javascript:alert(1)>", "`a` | b *c* _d_ {: onclick=x }",
    "# heading", "- item", "1. item", "===", "&lt; &amp;", "line\nbreak\n# heading",
    "back\\slash", "{{7*7}} {% raw %}"])
def test_escaped_text_renders_as_exactly_that_text(text: str) -> None:
    rendered = markdown.markdown(md_escape(text), extensions=EXTENSIONS)
    assert runs(rendered) == []
    assert rendered.startswith("<p>") and rendered.count("<p>") == 1  # one paragraph
    assert read(rendered) == " ".join(text.split())


def test_markdown_keeps_its_own_markup_and_escapes_what_is_put_in_it() -> None:
    made = Md("**{}** and {}").format("[x](javascript:1)", Md("*mine*"))
    assert made == "**\\[x\\](javascript:1)** and *mine*"
    assert Md("a ") + "<b>" == "a &lt;b&gt;"
    assert md(Md("*kept*")) == "*kept*" and md("*not*") == "\\*not\\*"
    assert md_code("a``b") == "```a``b```" and md_code("`") == "`` ` ``"


# -- the rulebook ---------------------------------------------------------------------------

def test_the_markdown_shows_every_text_as_text(site: Path) -> None:
    for page in sorted(site.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        body = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
        assert "<script" not in body and "<img" not in body, page
        assert not re.search(r"(?<!\\)\]\(javascript:", body), page
        rendered = markdown.markdown(body, extensions=EXTENSIONS)
        assert runs(rendered) == [], page
    book = read(markdown.markdown((site / "hostile-texts" / "index.md").read_text(),
                                  extensions=EXTENSIONS))
    for shown in SHOWN:
        assert shown in book
    ids = read(markdown.markdown((site / "hostile-ids" / "index.md").read_text(),
                                 extensions=EXTENSIONS))
    assert "Whenever: <script>alert(1)</script>trigger [x](javascript:alert(1))" in ids
    assert "one of each mark (<i>v</i>, [x](javascript:alert(1)))" in ids


def test_front_matter_titles_are_quoted_and_escaped(site: Path) -> None:
    head = (site / "hostile-texts" / "index.md").read_text().split("\n")[1]
    assert head.startswith('title: "&lt;script&gt;alert(1)&lt;/script&gt; Title')


def test_the_pictures_show_texts_as_text(site: Path) -> None:
    pictures = sorted(site.rglob("*.svg"))
    assert len(pictures) >= 5
    for picture in pictures:
        root = ET.fromstring(picture.read_text(encoding="utf-8"))  # well-formed XML
        for element in root.iter():
            assert element.tag.rsplit("}", 1)[-1] not in ("script", "foreignObject")
            for name, value in element.attrib.items():
                assert not name.startswith("on"), picture
                assert not value.strip().lower().startswith("javascript:"), picture
    legend = ET.fromstring((site / "hostile-ids" / "pieces.svg").read_text())
    texts = ["".join(t.itertext()) for t in legend.iter("{http://www.w3.org/2000/svg}text")]
    assert "<b>" in texts and "\"&'" in texts  # the glyphs, drawn as they are


def test_the_print_page_and_the_rules_page_of_the_browser(site: Path) -> None:
    """`tabletop serve` shows a rulebook at /rules/GAME with `print_html` (the same page
    as generated_docs/print/GAME.html)."""
    for page in sorted((site / "print").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        assert runs(text) == [], page
        assert "<script" not in text and "<img" not in text
    served = print_html(environment(), build_rulebook(load_ruleset(str(TEXTS))))
    assert runs(served) == []
    said = read(served)
    for shown in SHOWN:
        assert shown in said
    title = re.search(r"@bottom-left \{ content: \"([^\"]*)\"", served)
    assert title and "<" not in title.group(1) and "\\3c script\\3e " in title.group(1)
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt; Title" in served


def test_the_rules_page_the_server_sends(tmp_path: Path) -> None:
    """`tabletop serve --ruleset hostile_texts.yaml`, then GET /rules/hostile-texts."""
    pytest.importorskip("starlette")
    from serve_support import serving

    with serving(tmp_path, extra={"hostile-texts": TEXTS}) as client:
        page = client.get("/rules/hostile-texts")
    assert page.status_code == 200
    assert runs(page.text) == [] and "<script" not in page.text
    for shown in SHOWN:
        assert shown in read(page.text)


def test_the_browser_tables_picture() -> None:
    """The browser table draws each position with the rulebook's `position_svg`."""
    for path in (TEXTS, IDS):
        game = compile_game(load_ruleset(str(path)), {})
        state = game.new_state(2, 1)
        svg = position_svg(game, view(game, state, SPECTATOR), game.title, targets=True)
        assert runs(svg) == [] and "<script" not in svg
        ET.fromstring(svg)


def test_a_colour_that_is_not_a_colour_is_refused(tmp_path: Path) -> None:
    minimal = (ROOT / "tests" / "rulesets" / "minimal.yaml").read_text()
    text = minimal.replace("      values: [red, blue]\n", "      values: [red, blue]\n"
                           "      colours: {red: 'red\" onload=\"alert(1)'}\n", 1)
    bad = tmp_path / "colour.yaml"
    bad.write_text(text)
    run = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate", str(bad)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "colour.yaml:" in run.stderr
    assert "is not a colour" in run.stderr


def test_the_rules_site_built_by_mkdocs(site: Path, tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"site_name: Hostile\ndocs_dir: {site}\nsite_dir: {tmp_path / 'site'}\n"
                      "theme: {name: material}\nmarkdown_extensions: [tables, attr_list, "
                      "sane_lists, {toc: {permalink: true}}]\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "-f",
                          str(config)], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert run.returncode == 0, run.stdout + run.stderr
    pages = sorted((tmp_path / "site").rglob("*.html"))
    assert pages
    for page in pages:
        assert runs(page.read_text(encoding="utf-8")) == [], page
    book = (tmp_path / "site" / "hostile-texts" / "index.html").read_text(encoding="utf-8")
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt; Title" in book
    for shown in SHOWN:
        assert shown in read(book)


# -- the balance report and the terminal ------------------------------------------------------

def test_the_balance_report(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    run = subprocess.run([sys.executable, "-m", "interpreter.cli", "analyze", str(TEXTS),
                          "-n", "2", "-o", "mode=calm", "-o", "mode=wild", "--html",
                          str(report)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    page = report.read_text(encoding="utf-8")
    assert runs(page) == [] and "<script" not in page
    said = read(page)
    assert "<script>alert(1)</script> Title" in said
    assert "<script>alert(1)</script> End text <img src=x onerror=alert(1)>" in said


def test_the_terminal_shows_rich_markup_as_text() -> None:
    """A ruleset's `[bold]…[/bold]` or `[link=…]` is text on the terminal, not a style."""
    from interpreter.cli.screen import option_table
    from interpreter.view.render import render_view, result_renderable, rulings_renderable

    game = compile_game(load_ruleset(str(TEXTS)), {})
    state = game.new_state(2, 1)
    console = Console(record=True, width=400, color_system=None)
    console.print(option_table(game.legal_options(state, 1)))
    while not state.over:
        seat = game.deciding_seats(state)[0]
        state = game.apply(state, seat, game.legal_options(state, seat)[0])
    seen = view(game, state, 1)
    console.print(render_view(game, seen, seen["log"]))
    console.print(result_renderable(game, seen))
    console.print(rulings_renderable(game))
    out = " ".join(console.export_text().split())
    assert "[bold]small[/bold]" in out
    assert "[x](javascript:alert(1))" in out and "<script>alert(1)</script> Take" in out
    assert "<script>alert(1)</script> Ruling" in out
