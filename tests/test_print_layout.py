"""The printed rulebooks as a reader gets them: each bundled game's PDF, read back with a
PDF reader (pypdfium2), on A4 and on US Letter. No near-empty pages, no heading left at
the foot of a page, every caption on the page of its picture, a cover with the contents,
footers with the title and page numbers, and no more pages than the game needs."""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass
from functools import cache

import pytest

from interpreter.docs.build import environment, load_all, print_html, print_variant_html
from interpreter.docs.print_layout import MARGIN_MM, fit_svg, print_parts

weasyprint = pytest.importorskip("weasyprint", reason="the pdf extra is not installed")
pdfium = pytest.importorskip("pypdfium2", reason="the test extra is not installed")
import pypdfium2.raw as pdfium_raw  # noqa: E402 - only once pypdfium2 is known to be there

PT_PER_MM = 72 / 25.4
PAPER_PT = {"A4": (595.3, 841.9), "letter": (612.0, 792.0)}
MIN_WORDS = 60
"""Every page but the last holds at least this many words (no page of a line or two)."""
MIN_LAST_WORDS = 15
MAX_PAGES = {"aquarium": 23, "aquarius-rising": 28, "bottoms-up": 12, "caldera": 13,
             "high-rise": 11}
"""At most the pages these rulebooks took with a part per page (23, 32, 15, 13, 13), with
room for the rules and examples to grow a little (Aquarium's and Caldera's pictures,
laid out as the table since issue 41, took 21 → 23 and 12 → 13 pages)."""
LETTER = ["bottoms-up", "caldera"]
"""Letter is checked on a representative pair (a PDF takes seconds to lay out)."""


@dataclass
class Printed:
    name: str
    html: str
    pdf: pdfium.PdfDocument
    paged: bool

    def body_lines(self, index: int) -> list[str]:
        """The text lines of a page above its footer, as a reader's tool extracts them."""
        page = self.pdf[index]
        width, height = page.get_size()
        text = page.get_textpage().get_text_bounded(0, MARGIN_MM[2] * PT_PER_MM, width,
                                                    height)
        return [line.strip() for line in text.splitlines() if line.strip()]

    def words(self, index: int) -> int:
        return sum(len(line.split()) for line in self.body_lines(index))

    def page_of(self, anchor: str) -> int:
        dest = pdfium_raw.FPDF_GetNamedDestByName(self.pdf.raw, anchor.encode())
        assert dest, f"{self.name}: no #{anchor} in the PDF"
        return pdfium_raw.FPDFDest_GetDestPageIndex(self.pdf.raw, dest)


@cache
def _documents() -> tuple[dict[str, object], dict[str, object]]:
    books, variants, skipped = load_all()
    assert not skipped
    return {b.name: b for b in books}, {v.name: v for v in variants}


@cache
def printed(name: str, paper: str) -> Printed:
    books, variants = _documents()
    env = environment()
    if name in books:
        text, paged = print_html(env, books[name], paper=paper), True
    else:
        text, paged = print_variant_html(env, variants[name], paper=paper), False
    return Printed(name, text, pdfium.PdfDocument(weasyprint.HTML(string=text).write_pdf()),
                   paged)


def _text(fragment: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _squash(text: str) -> str:
    return re.sub(r"\W+", "", text)


CASES = ([(name, "A4") for name in MAX_PAGES] + [(name, "letter") for name in LETTER])


@pytest.mark.parametrize(("name", "paper"), CASES)
def test_a_rulebook_pages_well(name: str, paper: str) -> None:
    book = printed(name, paper)
    pages = len(book.pdf)
    assert 2 <= pages <= MAX_PAGES[name], f"{name} on {paper}: {pages} pages"
    for i in range(pages):
        width, height = book.pdf[i].get_size()
        assert (abs(width - PAPER_PT[paper][0]) < 1 and abs(height - PAPER_PT[paper][1]) < 1)
    # no near-empty page: each but the last holds text, the last more than a line or two
    words = [book.words(i) for i in range(pages)]
    thin = [i + 1 for i, n in enumerate(words[:-1]) if n < MIN_WORDS]
    assert not thin, f"{name} on {paper}: pages {thin} hold fewer than {MIN_WORDS} words"
    assert words[-1] >= MIN_LAST_WORDS, f"{name} on {paper}: the last page is near empty"
    # no page ends with a heading
    headings = {_text(h) for h in re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", book.html,
                                             flags=re.S)}
    for i in range(pages - 1):
        last = book.body_lines(i)[-1]
        ends = [h for h in headings if h == last or (h.endswith(" " + last)
                                                      and len(last.split()) > 1)]
        assert not ends, f"{name} on {paper}: page {i + 1} ends with the heading {ends[0]!r}"


@pytest.mark.parametrize(("name", "paper"), CASES)
def test_every_caption_is_on_the_page_of_its_picture(name: str, paper: str) -> None:
    book = printed(name, paper)
    figures = re.findall(r'<figure\b[^>]*\bid="([^"]+)"[^>]*>(.*?)</figure>', book.html,
                         flags=re.S)
    assert figures, f"{name}: no figures"
    captioned = 0
    for anchor, inside in figures:
        assert "<svg" in inside, f"{name}: #{anchor} holds no picture"
        caption = re.search(r'<figcaption id="([^"]+)">(.*?)</figcaption>', inside, re.S)
        if caption is None:
            continue
        captioned += 1
        page = book.page_of(anchor)
        assert book.page_of(caption.group(1)) == page, f"{name} on {paper}: #{anchor}"
        # … and the reader finds the caption's words on that page
        on_page = {_squash(w) for w in " ".join(book.body_lines(page)).split()}
        missing = {_squash(w) for w in _text(caption.group(2)).split()} - on_page
        assert not missing, f"{name} on {paper}: #{anchor} lacks {missing} on its page"
    assert captioned, f"{name}: no captioned figure"


@pytest.mark.parametrize(("name", "paper"), [("caldera", "A4"), ("bottoms-up", "letter")])
def test_the_cover_holds_the_title_a_picture_and_the_contents(name: str, paper: str) -> None:
    book = printed(name, paper)
    books, _ = _documents()
    rulebook = books[name]
    cover = " ".join(book.body_lines(0))
    assert rulebook.title in cover and rulebook.designer in cover
    assert "contents" in cover.lower() and "Setup" in cover
    assert '<div class="art">\n<svg' in book.html
    # each section's page number in the contents is where the section starts
    for anchor, heading in re.findall(r'<li><a href="#([^"]+)">(.*?)</a></li>', book.html):
        page = book.page_of(anchor)
        assert _text(heading) in " ".join(book.body_lines(page)), heading
    # the cover has no footer; the other pages say the title and "Page n of N"
    first = book.pdf[0].get_textpage().get_text_range()
    assert "Page 1 of" not in first
    second = book.pdf[1].get_textpage().get_text_range()
    assert f"Page 2 of {len(book.pdf)}" in second and rulebook.title in second


def test_a_variant_prints_on_a_page_or_two_without_a_cover() -> None:
    _, variants = _documents()
    name = sorted(variants)[0]
    book = printed(name, "A4")
    assert len(book.pdf) <= 2 and 'class="cover"' not in book.html
    assert f"Page 1 of {len(book.pdf)}" in book.pdf[0].get_textpage().get_text_range()


# -- the layout's rules, on small inputs ---------------------------------------------------

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="720" height="400" '
       'viewBox="0 0 720 400"><rect width="720" height="400" fill="#fff"/>'
       '<rect x="100" y="50" width="200" height="100" fill="red"/></svg>')


def test_a_picture_is_cropped_to_what_it_draws_and_scaled_alike() -> None:
    svg, width = fit_svg(SVG, 0.5)
    assert 'viewBox="94 44 212 112"' in svg and 'width="106.0"' in svg
    assert width == 106
    # too large for the room: drawn smaller, keeping its shape
    svg, width = fit_svg(SVG, 1.0, fit=(53.0, 500.0))
    assert width == 53 and 'height="28.0"' in svg
    # what it cannot measure keeps its box
    svg, width = fit_svg(SVG.replace('fill="red"', 'transform="scale(2)"'), 0.5)
    assert 'viewBox="0 0 720 400"' in svg and width == 360


def test_figures_captions_lists_and_the_cover() -> None:
    text = ("# Game\n\n*A summary.*\n\n## Setup\n\nDo this:\n\n- one\n- two\n\n"
            "![Board](board.svg)\n\n*The board after set-up.*\n\n![Side](side.svg)\n\n"
            "## Rules\n\n" + "".join(f"- rule {i} " + "word " * 20 + "\n" for i in range(6))
            + "\nThen:\n\n- a\n    - nested\n- b\n")
    parts = print_parts(text, {"board.svg": SVG, "side.svg": SVG}, picture="board.svg",
                        box={"width": 180.0, "height": 260.0})
    assert "<h1>Game</h1>" in parts.cover and "<h2" not in parts.cover
    assert parts.contents == [("part-1", "Setup"), ("part-2", "Rules")]
    assert parts.picture and parts.picture.startswith("<svg")
    body = parts.body
    assert '<p class="lead">Do this:</p>' in body and '<ul class="keep">' in body
    # the picture and its caption in one figure; two figures in a row stand side by side
    assert re.search(r'<div class="figures">\s*<figure id="figure-board"[^>]*>\s*'
                     r'<div class="picture"><svg.*?</svg></div>\s*'
                     r'<figcaption id="figure-board-caption">The board after set-up\.'
                     r'</figcaption>\s*</figure>\s*<figure id="figure-side"', body, re.S)
    assert "<p><em>The board" not in body
    assert '<ul class="columns">' in body and '<li class="branch">' in body
