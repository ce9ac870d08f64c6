"""Houses seen from the side, to scale: the stories of the stacks on a board whose pieces
have panels and heights (``pieces.panels``, ``pieces.height``).

Like every picture, a side view is drawn from a view, never from the state: each piece's
height comes from ``game.piece_heights`` (heights depend only on a piece's attributes),
and the pieces are stacked up by the same rule as ``altitude()``
(``interpreter.run.panels.altitude``): a piece standing on a region stands on the top of
the nearest paneled piece below it; anything else lies on the highest top beneath it (a
card on the tips of the pyramids under it). Each standing piece is drawn over its
region's column, as seen from the south (the front row last). An altitude scale runs up
the left, in millimetres when the ruleset says its heights are in µm, mm or cm
(``pieces.height_unit``), and each story is labelled with its altitude.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from interpreter.docs.diagrams import (
    PieceStyle,
    _Canvas,
    _num,
    square_xy,
    text_width,
)

if TYPE_CHECKING:
    from interpreter.play.game import Game

UNITS: dict[str, tuple[float, str]] = {
    "µm": (1000, "mm"), "um": (1000, "mm"), "mm": (1, "mm"), "cm": (0.1, "mm"),
    "in": (1, "in"),
}
"""A height unit → what to divide a height by to show it, and the unit shown."""

PLOT = 300.0
"""The height in pixels of the tallest altitude on the scale."""
HOUSE = 140.0
"""The width in pixels of a house (a card's edge)."""
LABELS = 136.0
"""Room for the stories' labels, right of each house (`ground card: 25.75 mm` at 10
px, after its leader)."""


@dataclass
class Layer:
    """One piece of a house, placed: its altitudes (in the ruleset's units) and where it
    stands."""

    piece: dict[str, Any]
    base: Any
    top: Any
    paneled: bool
    region: str | None
    story: int
    """The story it belongs to: 1 for the ground card and what stands on it."""


def unit_of(game: Game) -> tuple[float, str]:
    """How heights are shown: the divisor and the unit's name ("" for no unit)."""
    unit = getattr(game.ruleset.pieces, "height_unit", None)
    return UNITS.get(unit, (1, "")) if unit else (1, "")


def show_height(game: Game, value: Any) -> str:
    """A height in the ruleset's units, as the pictures and the rulebook write it:
    25700 µm → `25.7 mm`."""
    divisor, unit = unit_of(game)
    shown = value / divisor if divisor != 1 else value
    text = f"{shown:.3f}".rstrip("0").rstrip(".") if isinstance(shown, float) else str(shown)
    return f"{text} {unit}" if unit else text


def layers(game: Game, pieces: list[dict[str, Any]]) -> list[Layer] | None:
    """A stack's pieces (bottom first, as a view lists them) with their altitudes, by
    the rule of ``altitude()``; None when a piece is hidden or has no known height."""
    heights = game.piece_heights
    if heights is None:
        return None
    style = PieceStyle(game)
    out: list[Layer] = []
    support: Any = 0
    card_top: Any = None
    tips: Any = None
    story = 0
    for p in pieces:
        same = None if p.get("hidden") else game.piece_like(p)
        if same is None:
            return None
        h = heights[same]
        region = style.standing_on(p)
        if region is not None and card_top is not None:
            base, top = card_top, card_top + h
            tips = top if tips is None or top > tips else tips
            support = tips
            out.append(Layer(p, base, top, False, region, story))
            continue
        base, top = support, support + h
        support = top
        paneled = style.paneled(p)
        if paneled:
            card_top, tips = top, None
            story += 1
        out.append(Layer(p, base, top, paneled, None, max(story, 1)))
    return out


def houses(game: Game, view_data: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The houses a view shows on its grids: each square whose stack has a piece with
    panels and something on it, by name (open grids' squares west to east, then south to
    north), with its pieces."""
    if game.panels is None or game.piece_heights is None:
        return []
    style = PieceStyle(game)
    found = []
    for zone_id, info in game.zones.items():
        zv = view_data["zones"].get(zone_id)
        if info.kind != "grid" or zv is None or not info.on_table or info.per_seat:
            continue
        for name, place in zv.get("places", {}).items():
            pieces = place.get("pieces") or []
            first = next((i for i, p in enumerate(pieces) if style.paneled(p)), None)
            if first is not None and len(pieces) > first + 1:
                found.append((name, pieces))
    def order(item: tuple[str, list]) -> tuple:
        xy = square_xy(item[0])
        return (0, xy[1], xy[0], "") if xy is not None else (1, 0, 0, item[0])
    return sorted(found, key=order)


def _step(top: float) -> float:
    """A round step for the scale: 1, 2 or 5 times a power of ten, 4 to 10 steps."""
    if top <= 0:
        return 1.0
    raw = top / 6
    power = 10 ** math.floor(math.log10(raw))
    for k in (1, 2, 5, 10):
        if raw <= k * power:
            return k * power
    return 10 * power  # pragma: no cover


PER_ROW = 3
"""Houses side by side in a row of the picture (each row has the same scale)."""


def side_view_svg(game: Game, stacks: list[tuple[str, list[dict[str, Any]]]],
                  title: str) -> str:
    """The houses side by side, seen from the south, on one altitude scale (a row of at
    most PER_ROW houses under another, each row with its own copy of the scale)."""
    style = PieceStyle(game)
    divisor, unit = unit_of(game)
    placed = [(name, found) for name, pieces in stacks
              if (found := layers(game, pieces)) is not None]
    highest = max([layer.top for _, found in placed for layer in found] + [0]) / divisor
    step = _step(highest)
    scale_top = max(step, math.ceil(highest / step - 1e-9) * step)
    px = PLOT / scale_top
    c = _Canvas()
    left = 64.0
    slot = HOUSE + LABELS + 24
    per_row = min(PER_ROW, max(1, len(placed)))
    width = max(300.0, left + 16 + per_row * slot)
    heading = min(14.0, (width - 20) / text_width(title, 1.0, bold=True))
    c.text(10, 18, title, size=heading, weight="bold")  # shrunk to the picture's width
    rows = [placed[i:i + PER_ROW] for i in range(0, len(placed), PER_ROW)] or [[]]
    top = 48.0
    for row in rows:
        ground = top + PLOT
        _scale(c, left, top, ground, width, step, scale_top, px, unit)
        for i, (name, found) in enumerate(row):
            x0 = left + 24 + i * slot
            _house(c, game, style, found, x0, ground, px / divisor)
            label = name.split(":")[-1].split("[")[0]
            c.text(x0 + HOUSE / 2, ground + 16, f"the house on {label}", size=11,
                   anchor="middle", weight="bold")
        if not row:
            c.text(left + 20, ground - 20, "no house to show", size=11)
        top = ground + 28 + 40
    return c.svg(width, top - 40, title)


def _scale(c: _Canvas, left: float, top: float, ground: float, width: float, step: float,
           scale_top: float, px: float, unit: str) -> None:
    """The altitude scale up the left, its lines across, and the table."""
    c.add(f'<line x1="{_num(left)}" y1="{_num(top - 6)}" x2="{_num(left)}" '
          f'y2="{_num(ground)}" stroke="#555" stroke-width="1"/>')
    c.text(left - 8, top - 10, unit or "height", size=10, anchor="end", fill="#555")
    k = 0
    while k * step <= scale_top + 1e-9:
        v = k * step
        y = ground - v * px
        c.add(f'<line x1="{_num(left - 4)}" y1="{_num(y)}" x2="{_num(left)}" y2="{_num(y)}" '
              'stroke="#555" stroke-width="1"/>')
        if k:
            c.add(f'<line x1="{_num(left)}" y1="{_num(y)}" x2="{_num(width - 10)}" '
                  f'y2="{_num(y)}" stroke="#e4e0d8" stroke-width="0.8"/>')
        c.text(left - 7, y + 3.5, f"{v:g}", size=9.5, anchor="end", fill="#555")
        k += 1
    c.add(f'<line x1="{_num(left)}" y1="{_num(ground)}" x2="{_num(width - 10)}" '
          f'y2="{_num(ground)}" stroke="#4a4437" stroke-width="2"/>')


def _house(c: _Canvas, game: Game, style: PieceStyle, found: list[Layer], x0: float,
           ground: float, px: float) -> None:
    """One house from the side; `px` pixels per unit of height."""
    panels = style.panels
    assert panels is not None
    cols = len(panels.layout[0])
    labels: list[tuple[float, str]] = []
    i = 0
    while i < len(found):
        layer = found[i]
        if layer.region is not None:  # the pieces standing on one card: back rows first
            j = i
            while j < len(found) and found[j].region is not None:
                j += 1
            group = sorted(found[i:j], key=lambda g: panels.positions[g.region][0])
            for g in group:
                r, col = panels.positions[g.region]
                # behind another piece in the same column: paler, a little to the right
                behind = any(panels.positions[o.region][1] == col
                             and panels.positions[o.region][0] > r for o in group)
                cx = x0 + (col + 0.5) * HOUSE / cols + (5 if behind else 0)
                _standing(c, style, g, cx, ground, px, HOUSE / cols, behind)
            i = j
            continue
        y0, y1 = ground - layer.base * px, ground - layer.top * px
        if layer.paneled:
            _card_edge(c, style, layer.piece, x0, y0, y1)
            name = "ground card" if layer.story == 1 else f"story {layer.story}"
            labels.append((y1 - 0.6, f"{name}: {show_height(game, layer.top)}"))
        else:  # a piece lying flat on what is beneath it
            w = HOUSE * 0.4
            paint = style.paint(layer.piece)
            c.add(f'<rect x="{_num(x0 + HOUSE / 2 - w / 2)}" y="{_num(min(y0, y1))}" '
                  f'width="{_num(w)}" height="{_num(max(1.5, abs(y0 - y1)))}" '
                  f'{paint.attrs(0.8)}/>')
        i += 1
    last = found[-1]
    if not last.paneled:
        labels.append((ground - last.top * px, f"top: {show_height(game, last.top)}"))
    _labels(c, labels, x0 + HOUSE, ground - 7)


def _card_edge(c: _Canvas, style: PieceStyle, piece: dict[str, Any], x0: float,
               y0: float, y1: float) -> None:
    """A card (a piece with panels) seen edge-on: its front row's colours along it, at
    least 2.5 pixels thick however thin it is."""
    thick = max(2.5, y0 - y1)
    y = y0 - thick
    shown = style.shown(piece)
    front = shown[-1]
    cols = len(front)
    c.add(f'<rect x="{_num(x0)}" y="{_num(y)}" width="{_num(HOUSE)}" height="{_num(thick)}" '
          f'fill="#fbf9f4" stroke="#4a4437" stroke-width="0.8"><title>'
          f'{escape(style.name(piece))}</title></rect>')
    for col, attr in enumerate(front):
        if attr is None or attr not in piece:
            continue
        fill = style.value_colour(attr, piece[attr])
        c.add(f'<rect x="{_num(x0 + col * HOUSE / cols + 0.6)}" y="{_num(y + 0.6)}" '
              f'width="{_num(HOUSE / cols - 1.2)}" height="{_num(max(1.0, thick - 1.2))}" '
              f'fill="{fill}"/>')


def _standing(c: _Canvas, style: PieceStyle, layer: Layer, cx: float, ground: float,
              px: float, room: float, behind: bool) -> None:
    """A piece standing on a region: a pyramid in profile (as wide as its size), anything
    else as a block; one in a back row paler, a little to the right."""
    y0, y1 = ground - layer.base * px, ground - layer.top * px
    paint = style.paint(layer.piece)
    opacity = ' opacity="0.55"' if behind else ""
    title = f"<title>{escape(style.name(layer.piece))}</title>"
    if style.is_pyramid(layer.piece):
        half = room * (0.26 + 0.16 * style.size_rank(layer.piece))
        c.add(f'<polygon points="{_num(cx - half)},{_num(y0)} {_num(cx + half)},{_num(y0)} '
              f'{_num(cx)},{_num(y1)}" {paint.attrs()}{opacity}>{title}</polygon>')
    else:
        half = room * 0.22
        c.add(f'<rect x="{_num(cx - half)}" y="{_num(y1)}" width="{_num(2 * half)}" '
              f'height="{_num(max(1.5, y0 - y1))}" rx="3" {paint.attrs()}{opacity}>'
              f"{title}</rect>")


def _labels(c: _Canvas, labels: list[tuple[float, str]], x: float, lowest: float) -> None:
    """Altitude labels right of a house, each level with what it labels, nudged up so
    that no two overlap (and none sits on the table's line)."""
    placed: list[float] = []
    for y, text in sorted(labels, key=lambda t: -t[0]):  # from the bottom up
        at = min(y, lowest)
        if placed and at > placed[-1] - 12:
            at = placed[-1] - 12
        placed.append(at)
        c.add(f'<path d="M{_num(x + 2)},{_num(y)} L{_num(x + 10)},{_num(at)} '
              f'L{_num(x + 14)},{_num(at)}" fill="none" stroke="#888" stroke-width="0.8"/>')
        c.text(x + 16, at + 3.5, text, size=10, fill="#333")
