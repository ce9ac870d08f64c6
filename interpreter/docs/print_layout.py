"""The print layout of a rulebook: its Markdown made into HTML that pages well.

The site's Markdown is the one text of a rulebook; for paper it needs more than the
site does. Each picture becomes a ``<figure>`` holding its caption, so a page break
never parts them; pictures are cropped to what they draw and scaled alike, so a piece is
the same size in every picture and small pictures can stand side by side; lists say
whether they are short (kept whole), long and flat (set in two columns) or nested (free
to break between items); and the part before the first section heading becomes the
cover, with a table of contents of the sections.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import PurePosixPath

import markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

UNIT_PX = 0.62
"""CSS pixels per SVG user unit on paper: the diagrams' 10-unit labels print at 4.6 pt
(a map's small print), a 720-unit picture at 118 mm, and a 5 × 5 board of 96-unit squares
narrow enough to stand beside the text."""
COVER_UNIT_PX = 2.6
"""The cover's picture is drawn larger (as large as the room the cover leaves it)."""
COVER_ART = (1.0, 0.5)
"""The most of the text area's width and height the cover's picture takes."""
FIGURE_MAX = (1.0, 0.66)
"""The most of the text area's width and height a picture in the text takes (a taller
one is drawn smaller, so it leaves no more than a third of a page blank before it)."""
PX_PER_MM = 96 / 25.4
CROP_MARGIN = 6.0
"""User units kept around what a picture draws when it is cropped."""
ASIDE_WIDTH = 0.48
"""A picture alone and at most this share of the text width stands to the right of the
text that follows it, not in a band of its own with blank paper beside it."""
KEEP_ITEMS = 6
"""A flat list of at most this many items is kept on one page."""
COLUMN_ITEMS, COLUMN_CHARS = 4, 420
"""A flat list with at least this many items and characters is set in two columns."""
PAGE_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a5": (148.0, 210.0),
           "legal": (215.9, 355.6)}
"""Paper sizes (width, height in mm) the cover can be sized for; others get a cover as
tall as its content."""
MARGIN_MM = (14.0, 15.0, 17.0, 15.0)
"""The page margins: top, right, bottom (the footer's room), left."""


@dataclass
class PrintParts:
    """A rulebook's print HTML in its parts (the print template's context)."""

    cover: str
    """The title block: everything before the first section heading."""
    body: str
    contents: list[tuple[str, str]] = field(default_factory=list)
    """(anchor, heading) of each section, for the table of contents."""
    picture: str | None = None
    """The cover's picture (an inline SVG), if there is one."""


def page_box(paper: str) -> dict[str, float] | None:
    """The page's text area in mm, when the paper is a known size (the cover fills it)."""
    size = PAGE_MM.get(paper.lower())
    if size is None:
        return None
    top, right, bottom, left = MARGIN_MM
    return {"width": size[0] - left - right, "height": size[1] - top - bottom}


def print_parts(text: str, svgs: dict[str, str], picture: str | None = None,
                box: dict[str, float] | None = None) -> PrintParts:
    """Rulebook Markdown (front matter removed) → the cover, the body and its contents;
    `svgs` are the pictures by file name, inlined where the Markdown shows them, and
    `picture` the file of the one shown on the cover, sized to fit the page's text area
    `box` (mm) beside the title block and the contents."""
    match = re.search(r"^## ", text, flags=re.M)
    head, rest = (text[:match.start()], text[match.start():]) if match else (text, "")
    fit = _px(box, FIGURE_MAX) if box else None
    used: set[str] = set()
    cover, _ = _convert(head, svgs, anchors=False, fit=fit, used=used)
    body, contents = _convert(rest, svgs, anchors=True, fit=fit, used=used)
    art = None
    if picture and picture in svgs:
        art = fit_svg(svgs[picture], COVER_UNIT_PX, fit=_px(box, COVER_ART) if box else None)[0]
    return PrintParts(cover=cover, body=body, contents=contents, picture=art)


def cover_picture(svgs: dict[str, str], *files: str) -> str | None:
    """Of the pictures `files` (the set-up first), the one that draws the most shapes:
    a cover wants pieces and boards, not a list of piles."""
    shapes = re.compile(r"<(?:polygon|rect|circle|ellipse|path|line)\b")
    drawn = [(len(shapes.findall(svgs[f])), -i, f) for i, f in enumerate(files) if f in svgs]
    return max(drawn)[2] if drawn else None


def _convert(text: str, svgs: dict[str, str], anchors: bool, fit: tuple[float, float] | None,
             used: set[str]) -> tuple[str, list[tuple[str, str]]]:
    layout = _LayoutExtension(svgs, anchors, fit, used)
    html = markdown.markdown(text, extensions=["tables", "attr_list", "sane_lists", layout],
                             output_format="html")
    return html, layout.contents


class _LayoutExtension(Extension):
    def __init__(self, svgs: dict[str, str], anchors: bool,
                 fit: tuple[float, float] | None, anchors_used: set[str]) -> None:
        super().__init__()
        self.anchors_used = anchors_used
        self.svgs = svgs
        self.anchors = anchors
        self.fit = fit
        self.contents: list[tuple[str, str]] = []

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        # after "inline" (20), which makes the <img> elements; before "prettify" (10)
        md.treeprocessors.register(_Layout(md, self), "print_layout", 15)


class _Layout(Treeprocessor):
    """Figures with their captions, lists marked by kind, sections numbered."""

    def __init__(self, md: markdown.Markdown, ext: _LayoutExtension) -> None:
        super().__init__(md)
        self.ext = ext

    def run(self, root: ET.Element) -> None:
        for parent in list(root.iter()):
            self._figures(parent)
        for element in root.iter():
            if element.tag in ("ul", "ol"):
                _mark_list(element)
            _mark_leads(element)
        if self.ext.anchors:
            for n, h2 in enumerate(root.iter("h2"), start=1):
                anchor = h2.get("id") or f"part-{n}"
                h2.set("id", anchor)
                self.ext.contents.append((anchor, "".join(h2.itertext()).strip()))

    def _anchor(self, paragraph: ET.Element) -> str:
        """A figure's id, from its first picture's file: a link target, and what finds the
        figure's page in a PDF (each id is a named destination there)."""
        stem = PurePosixPath(paragraph[0].get("src", "picture")).stem
        anchor = "figure-" + (re.sub(r"[^A-Za-z0-9-]+", "-", stem).strip("-") or "picture")
        n = 1
        while anchor + (f"-{n}" if n > 1 else "") in self.ext.anchors_used:
            n += 1
        anchor += f"-{n}" if n > 1 else ""
        self.ext.anchors_used.add(anchor)
        return anchor

    def _figures(self, parent: ET.Element) -> None:
        """A paragraph of pictures becomes a figure, with the paragraph after it as its
        caption when that is all emphasis (the rulebooks' way of writing a caption); a
        run of figures becomes a row, so small ones stand side by side."""
        children = list(parent)
        out: list[ET.Element] = []
        i = 0
        while i < len(children):
            child = children[i]
            if not _is_picture(child):
                out.append(child)
                i += 1
                continue
            figure = ET.Element("figure", {"id": self._anchor(child)})
            width = 0.0
            for img in child:
                svg = self.ext.svgs.get(img.get("src", ""))
                if svg is None:
                    figure.append(img)
                    img.tail = None
                    continue
                html, w = fit_svg(svg, UNIT_PX, label=img.get("alt", ""), fit=self.ext.fit)
                width = max(width, w)
                holder = ET.SubElement(figure, "div", {"class": "picture"})
                holder.text = self.md.htmlStash.store(html)
            if width:
                figure.set("style", f"width: {width:.0f}px")
            figure.tail = child.tail
            i += 1
            if i < len(children) and _is_caption(children[i]):
                caption = ET.SubElement(figure, "figcaption",
                                        {"id": f"{figure.get('id')}-caption"})
                em = children[i][0]
                caption.text = em.text
                caption.extend(list(em))
                i += 1
            out.append(figure)
        if len(out) == len(children) and all(a is b for a, b in zip(out, children,
                                                                   strict=True)):
            return
        for child in children:
            parent.remove(child)
        for group in _runs(out):
            if len(group) > 1:
                row = ET.SubElement(parent, "div", {"class": "figures"})
                row.extend(group)
                continue
            element = group[0]
            parent.append(element)
            if element.tag == "figure" and self.ext.fit and parent.tag != "li":
                width = re.search(r"width: (\d+)px", element.get("style", ""))
                if width and int(width.group(1)) <= ASIDE_WIDTH * self.ext.fit[0]:
                    element.set("class", "aside")


def _runs(elements: list[ET.Element]) -> list[list[ET.Element]]:
    """Consecutive figures together, everything else alone."""
    groups: list[list[ET.Element]] = []
    for element in elements:
        if (element.tag == "figure" and groups and groups[-1][-1].tag == "figure"
                and not (groups[-1][-1].tail or "").strip()):
            groups[-1].append(element)
        else:
            groups.append([element])
    return groups


def _is_picture(element: ET.Element) -> bool:
    return (element.tag == "p" and not (element.text or "").strip() and len(element) > 0
            and all(c.tag == "img" and not (c.tail or "").strip() for c in element))


def _is_caption(element: ET.Element) -> bool:
    return (element.tag == "p" and not (element.text or "").strip() and len(element) == 1
            and element[0].tag == "em" and not (element[0].tail or "").strip())


def _mark_list(element: ET.Element) -> None:
    """Short flat lists are kept whole; long flat lists go in two columns; an item that
    holds a list may break between its sub-items (only leaf items are kept whole)."""
    items = [li for li in element if li.tag == "li"]
    nested = False
    for li in items:
        if any(c.tag in ("ul", "ol") for c in li.iter() if c is not li):
            li.set("class", _classes(li, "branch"))
            nested = True
    if nested:
        return
    chars = sum(len("".join(li.itertext())) for li in items)
    if len(items) >= COLUMN_ITEMS and chars >= COLUMN_CHARS:
        element.set("class", _classes(element, "columns"))
    elif len(items) <= KEEP_ITEMS:
        element.set("class", _classes(element, "keep"))


def _mark_leads(parent: ET.Element) -> None:
    """A paragraph that ends with a colon introduces what follows it: they stay together."""
    children = list(parent)
    for before, after in pairwise(children):
        if (before.tag == "p" and after.tag in ("ul", "ol", "table", "blockquote")
                and "".join(before.itertext()).rstrip().endswith(":")):
            before.set("class", _classes(before, "lead"))


def _classes(element: ET.Element, name: str) -> str:
    return " ".join(filter(None, [element.get("class"), name]))


_NUMBER = re.compile(r"-?\d*\.?\d+(?:[eE][-+]?\d+)?")
_SVG_TAG = re.compile(r"<svg\b[^>]*>")


def _px(box: dict[str, float], share: tuple[float, float]) -> tuple[float, float]:
    return box["width"] * share[0] * PX_PER_MM, box["height"] * share[1] * PX_PER_MM


def fit_svg(svg: str, unit_px: float, label: str | None = None,
            fit: tuple[float, float] | None = None) -> tuple[str, float]:
    """An SVG cropped to what it draws and sized at `unit_px` CSS pixels per user unit
    (the diagrams draw on a fixed-width canvas, often with room to spare), or smaller to
    fit in `fit` (width, height in CSS pixels); returns the inline SVG and its width in
    CSS pixels. A picture it cannot measure keeps its box."""
    body = svg.split("\n", 1)[1] if svg.startswith("<?xml") else svg
    body = body.strip()
    tag = _SVG_TAG.search(body)
    if tag is None:
        return body, 0.0
    box = _view_box(tag.group(0))
    drawn = _drawn_box(body, box) if box else None
    x, y, w, h = drawn or box or (0.0, 0.0, 0.0, 0.0)
    if not w or not h:
        return body, 0.0
    if fit:
        unit_px = min(unit_px, fit[0] / w, fit[1] / h)
    opening = tag.group(0)
    for name in ("width", "height", "viewBox", "preserveAspectRatio"):
        opening = re.sub(rf'\s{name}="[^"]*"', "", opening)
    size = (f' width="{w * unit_px:.1f}" height="{h * unit_px:.1f}"'
            f' viewBox="{_n(x)} {_n(y)} {_n(w)} {_n(h)}"')
    if label is not None and "aria-label=" not in opening:
        size += f' aria-label="{html.escape(label, quote=True)}"'
    opening = opening[:-1].rstrip("/").rstrip() + size + ">"
    return body[:tag.start()] + opening + body[tag.end():], w * unit_px


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _view_box(opening: str) -> tuple[float, float, float, float] | None:
    found = re.search(r'viewBox="([^"]+)"', opening)
    if found:
        numbers = [float(v) for v in _NUMBER.findall(found.group(1))]
        if len(numbers) == 4:
            return numbers[0], numbers[1], numbers[2], numbers[3]
    width = re.search(r'\swidth="([\d.]+)"', opening)
    height = re.search(r'\sheight="([\d.]+)"', opening)
    if width and height:
        return 0.0, 0.0, float(width.group(1)), float(height.group(1))
    return None


def _drawn_box(svg: str, box: tuple[float, float, float, float]
               ) -> tuple[float, float, float, float] | None:
    """The box around every shape and text of a flat SVG (no transforms), with a margin;
    None when the SVG does not parse or uses what this cannot measure."""
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return None
    xs: list[float] = []
    ys: list[float] = []
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1]
        if element.get("transform") or tag in ("use", "image", "foreignObject"):
            return None
        a = element.attrib
        try:
            if tag == "rect":
                x, y = float(a.get("x", 0)), float(a.get("y", 0))
                w, h = float(a["width"]), float(a["height"])
                if (x, y) == box[:2] and (w, h) == box[2:]:
                    continue  # the canvas's background
                xs += [x, x + w]
                ys += [y, y + h]
            elif tag in ("polygon", "polyline", "path"):
                numbers = [float(v) for v in _NUMBER.findall(a.get("points") or a.get("d", ""))]
                if tag == "path" and re.search(r"[a-z]", a.get("d", "").replace("e", "")):
                    return None  # relative path commands: not measured here
                xs += numbers[0::2]
                ys += numbers[1::2]
            elif tag == "line":
                xs += [float(a.get("x1", 0)), float(a.get("x2", 0))]
                ys += [float(a.get("y1", 0)), float(a.get("y2", 0))]
            elif tag in ("circle", "ellipse"):
                cx, cy = float(a.get("cx", 0)), float(a.get("cy", 0))
                rx = float(a.get("r") or a.get("rx", 0))
                ry = float(a.get("r") or a.get("ry", 0))
                xs += [cx - rx, cx + rx]
                ys += [cy - ry, cy + ry]
            elif tag == "text":
                x, y = float(a.get("x", 0)), float(a.get("y", 0))
                size = float(a.get("font-size", 16))
                width = 0.62 * size * len("".join(element.itertext()))
                anchor = a.get("text-anchor", "start")
                left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" \
                    else x
                xs += [left, left + width]
                ys += [y - size, y + 0.3 * size]
        except (KeyError, ValueError):
            return None
    if not xs or not ys:
        return None
    left = max(box[0], min(xs) - CROP_MARGIN)
    top = max(box[1], min(ys) - CROP_MARGIN)
    right = min(box[0] + box[2], max(xs) + CROP_MARGIN)
    bottom = min(box[1] + box[3], max(ys) + CROP_MARGIN)
    if right <= left or bottom <= top:
        return None
    return left, top, right - left, bottom - top
