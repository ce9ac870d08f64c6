"""Deterministic SVG pictures of a game position, for the rulebooks.

A diagram is drawn from a *view* (``interpreter.run.view.view``), never from the state
itself, so it shows exactly what the viewing seat may know: the rulebook draws the
spectator's view (seat 0), and hidden pieces appear as grey "?" pieces. Grids are
boards with labelled squares (a1 at the bottom left, like a chessboard); each stack is
drawn in profile, bottom piece lowest, every pyramid as wide as its size and in its
colour; slots are drawn as numbered stacks; piles list their pieces by kind.

The output depends on nothing but the view: no random ids, no timestamps.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING, Any

from interpreter.run.view import is_empty

if TYPE_CHECKING:
    from interpreter.run.game import Game

COLOURS: dict[str, str] = {
    "red": "#d7263d", "yellow": "#f4c20d", "green": "#2e9e44", "blue": "#1f6fd1",
    "black": "#262626", "white": "#f7f7f7", "grey": "#9a9a9a", "gray": "#9a9a9a",
    "purple": "#8e44ad", "orange": "#f07f13", "clear": "#e6f2f7", "cyan": "#1fb8cf",
    "pink": "#f06ba8", "brown": "#8b5a2b", "silver": "#c0c0c0", "gold": "#d4a017",
    "violet": "#7f3fbf", "magenta": "#d633a8", "teal": "#138d90", "lime": "#8cc63f",
    "navy": "#1f2f6b", "maroon": "#7a1f2b", "olive": "#7b7d2a", "beige": "#e9dcc0",
}
UNKNOWN = "#9a9a9a"
HIDDEN = "#b5b5b5"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH = 720


def colour_hex(name: Any) -> str:
    """A colour name → hex (unknown names → grey)."""
    return COLOURS.get(str(name).lower(), UNKNOWN) if name is not None else UNKNOWN


def _luminance(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def _num(x: float) -> str:
    """Coordinates with at most one decimal, always written the same way."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


class PieceStyle:
    """How a game's pieces look: which attribute colours them, which sizes them."""

    def __init__(self, game: Game) -> None:
        decl = game.ruleset.pieces
        attrs = decl.attributes
        self.colour_attr = decl.style if decl.style in attrs else (
            "colour" if "colour" in attrs else "color" if "color" in attrs else None)
        self.size_attr = "size" if "size" in attrs else None
        if self.size_attr is None and decl.glyph in attrs and all(
                isinstance(v, int) for v in attrs[decl.glyph].values):
            self.size_attr = decl.glyph
        sizes = attrs[self.size_attr].values if self.size_attr else [1]
        self.sizes = [v for v in sizes if isinstance(v, int)] or [1]
        self.glyph_attr = decl.glyph if decl.glyph in attrs else None
        self.cards = decl.shape == "card"
        self.game = game
        self.attrs = attrs
        self.value_names = game.value_names
        self.order = game.attribute_order
        self.namer = game.piece_namer

    def face(self, piece: dict[str, Any]) -> str:
        return "" if piece.get("hidden") else self.game.piece_face(piece)

    def size_rank(self, piece: dict[str, Any]) -> float:
        """0..1: how big the piece is among the declared sizes."""
        v = piece.get(self.size_attr) if self.size_attr else None
        if not isinstance(v, int) or len(self.sizes) < 2:
            return 1.0
        lo, hi = min(self.sizes), max(self.sizes)
        return (v - lo) / (hi - lo) if hi > lo else 1.0

    def fill(self, piece: dict[str, Any]) -> str:
        if piece.get("hidden"):
            return HIDDEN
        return colour_hex(piece.get(self.colour_attr)) if self.colour_attr else UNKNOWN

    def glyph(self, piece: dict[str, Any]) -> str:
        if piece.get("hidden"):
            return "?"
        if self.glyph_attr and self.glyph_attr in piece:
            v = piece[self.glyph_attr]
            a = self.attrs[self.glyph_attr]
            return str(a.short.get(v, v))
        for attr in self.order:
            if attr in piece and attr != self.colour_attr:
                return str(piece[attr])
        return ""

    def is_pyramid(self, piece: dict[str, Any]) -> bool:
        return not self.cards and not piece.get("hidden") and self.size_attr is not None and (
            self.size_attr in piece)

    def code(self, piece: dict[str, Any]) -> str:
        """A card's code, as the game writes it (`y2$3`)."""
        same = None if piece.get("hidden") else self.game.piece_like(piece)
        return "?" if same is None else self.game.piece_codes[same]

    def name(self, piece: dict[str, Any]) -> str:
        if piece.get("hidden"):
            return "a hidden piece"
        names = {a: self._value_name(a, v) for a, v in piece.items()}
        return self.namer(names)

    def value_index(self, attr: str, v: Any) -> int:
        """Where a value comes in its attribute's declared values (for sorting)."""
        values = self.attrs[attr].values
        return values.index(v) if v in values else -1

    def _value_name(self, attr: str, v: Any) -> str:
        a = self.attrs.get(attr)
        if a is not None and v in a.names:
            return str(a.names[v])
        return str(v)


class _Canvas:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, content: str, size: float = 12, anchor: str = "start",
             weight: str = "normal", fill: str = "#222") -> None:
        self.add(f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" '
                 f'text-anchor="{anchor}" font-weight="{weight}" fill="{fill}">'
                 f"{escape(content)}</text>")

    def piece(self, style: PieceStyle, piece: dict[str, Any], cx: float, base: float,
              unit: float, height: float) -> None:
        """One piece standing on `base`, centred on `cx`: a pyramid in profile (its width
        grows with its size), or a small tile for pieces without a size (dice)."""
        fill = style.fill(piece)
        stroke = "#555" if _luminance(fill) > 200 else "#111"
        label = style.glyph(piece)
        ink = "#111" if _luminance(fill) > 140 else "#fff"
        title = f"<title>{escape(style.name(piece))}</title>"
        if style.cards:
            self.card(style, piece, cx, base, height, fill, title)
        elif style.is_pyramid(piece) or piece.get("hidden"):
            rank = style.size_rank(piece) if not piece.get("hidden") else 0.5
            half = unit * (0.45 + 0.55 * rank)
            h = height
            pts = (f"{_num(cx - half)},{_num(base)} {_num(cx + half)},{_num(base)} "
                   f"{_num(cx)},{_num(base - h)}")
            self.add(f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" '
                     f'stroke-width="1">{title}</polygon>')
            if label and h >= 11:
                self.text(cx, base - 3, label, size=min(10, h * 0.55), anchor="middle",
                          weight="bold", fill=ink)
        else:
            side = min(height, unit * 1.1)
            self.add(f'<rect x="{_num(cx - side / 2)}" y="{_num(base - side)}" '
                     f'width="{_num(side)}" height="{_num(side)}" rx="3" fill="{fill}" '
                     f'stroke="{stroke}" stroke-width="1">{title}</rect>')
            if label:
                self.text(cx, base - side / 2 + 4, label, size=min(11, side * 0.6),
                          anchor="middle", weight="bold", fill=ink)

    def card(self, style: PieceStyle, piece: dict[str, Any], cx: float, base: float,
             height: float, fill: str, title: str) -> None:
        """A card standing on `base`: a white card with a band of its colour at the top
        and its code; face down (hidden), a grey back."""
        h = height * 1.1
        w = h * 0.7
        x, y = cx - w / 2, base - h
        if piece.get("hidden"):
            self.add(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
                     f'rx="3" fill="{HIDDEN}" stroke="#555" stroke-width="1">{title}</rect>')
            return
        band = fill if fill != UNKNOWN else "#dddddd"
        self.add(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
                 f'rx="3" fill="#ffffff" stroke="#555" stroke-width="1">{title}</rect>')
        self.add(f'<rect x="{_num(x + 1)}" y="{_num(y + 1)}" width="{_num(w - 2)}" '
                 f'height="{_num(h * 0.3)}" rx="2" fill="{band}"/>')
        code = style.code(piece)
        face = style.face(piece)
        self.text(cx, y + h * (0.6 if face else 0.72), code,
                  size=max(6.0, min(9.0, w * 1.5 / max(3, len(code)))), anchor="middle",
                  weight="bold")
        if face:
            self.text(cx, y + h * 0.88, face,
                      size=max(5.0, min(8.0, w * 1.4 / max(3, len(face)))), anchor="middle")

    def stack(self, style: PieceStyle, pieces: list[dict[str, Any]], cx: float, base: float,
              unit: float, room: float) -> None:
        """A stack in profile: bottom piece lowest, each higher piece drawn over it."""
        if not pieces:
            return
        full = unit * 0.9
        step = min(full * 0.62, (room - full) / max(1, len(pieces) - 1)) if len(
            pieces) > 1 else full
        step = max(step, 3.0)
        for i, p in enumerate(pieces):
            self.piece(style, p, cx, base - i * step, unit, full)

    def svg(self, width: float, height: float, title: str) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" '
                f'height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}" '
                f'font-family="{FONT}" role="img" aria-label="{escape(title)}">')
        return "\n".join([head, f"<title>{escape(title)}</title>",
                          f'<rect width="{_num(width)}" height="{_num(height)}" '
                          'fill="#ffffff"/>', *self.parts, "</svg>"]) + "\n"


def _places(zone_view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return zone_view.get("places", {})


def _grid(c: _Canvas, style: PieceStyle, title: str, zone_view: dict[str, Any], y: float,
          x0: float = 10) -> float:
    rows, cols = zone_view["rows"], zone_view["cols"]
    places = _places(zone_view)
    names = list(places)
    tallest = max([len(p.get("pieces", [])) for p in places.values()] + [1])
    cell = max(44.0, min(96.0, (WIDTH - 60) / max(cols, 1)))
    if tallest > 4:
        cell = max(cell, min(120.0, 40 + tallest * 9))
    c.text(x0, y + 14, title, size=14, weight="bold")
    top = y + 24
    left = x0 + 18
    for i, name in enumerate(names):
        r, col = divmod(i, cols)
        gx = left + col * cell
        gy = top + (rows - 1 - r) * cell
        shade = "#f3efe6" if (r + col) % 2 == 0 else "#e6dfcf"
        c.add(f'<rect x="{_num(gx)}" y="{_num(gy)}" width="{_num(cell)}" '
              f'height="{_num(cell)}" fill="{shade}" stroke="#7a6f5a" stroke-width="1"/>')
        label = name.split(":")[-1].split("[")[0]
        c.text(gx + 3, gy + 11, label, size=9, fill="#6b6250")
        pieces = places[name].get("pieces")
        if pieces is None:
            if "count" in places[name]:
                c.text(gx + cell / 2, gy + cell / 2, f"{places[name]['count']} hidden",
                       size=9, anchor="middle")
            continue
        c.stack(style, pieces, gx + cell / 2, gy + cell - 5, cell * 0.36, cell - 18)
    for col in range(cols):
        c.text(left + col * cell + cell / 2, top + rows * cell + 12, chr(97 + col), size=10,
               anchor="middle", fill="#6b6250")
    for r in range(rows):
        c.text(left - 6, top + (rows - 1 - r) * cell + cell / 2 + 4, str(r + 1), size=10,
               anchor="end", fill="#6b6250")
    return top + rows * cell + 22


def _slots(c: _Canvas, style: PieceStyle, title: str, zone_view: dict[str, Any],
           y: float) -> float:
    places = _places(zone_view)
    used = [(n, p) for n, p in places.items() if p.get("pieces") or p.get("count")]
    c.text(10, y + 14, f"{title}: {len(used)} of {len(places)} places in use"
           if used else f"{title}: empty", size=14, weight="bold")
    y += 24
    if not used:
        return y + 4
    per_row = 8
    slot = (WIDTH - 20) / per_row
    tallest = max(len(p.get("pieces", [])) for _, p in used)
    room = max(60.0, min(140.0, 30 + tallest * 12))
    for i, (name, p) in enumerate(used):
        r, col = divmod(i, per_row)
        gx, gy = 10 + col * slot, y + r * (room + 22)
        c.add(f'<rect x="{_num(gx + 2)}" y="{_num(gy)}" width="{_num(slot - 4)}" '
              f'height="{_num(room)}" rx="4" fill="#f3efe6" stroke="#b9ae98"/>')
        c.text(gx + slot / 2, gy + room + 13, name.split(":")[-1], size=10, anchor="middle",
               fill="#6b6250")
        pieces = p.get("pieces")
        if pieces is None:
            c.text(gx + slot / 2, gy + room / 2, f"{p.get('count', '?')} hidden", size=9,
                   anchor="middle")
            continue
        c.stack(style, pieces, gx + slot / 2, gy + room - 5, slot * 0.3, room - 10)
    rows = (len(used) + per_row - 1) // per_row
    return y + rows * (room + 22) + 4


def _kinds(style: PieceStyle, pieces: list[dict[str, Any]]) -> list[tuple[dict, int]]:
    """Pieces grouped by kind, in the order the kinds first appear."""
    groups: dict[tuple, list] = {}
    for p in pieces:
        key = tuple(sorted((k, str(v)) for k, v in p.items()))
        if key in groups:
            groups[key][1] += 1
        else:
            groups[key] = [p, 1]
    def order(item: list) -> tuple:
        piece = item[0]
        return tuple(style.value_index(a, piece.get(a)) for a in style.order)
    return [(p, n) for p, n in sorted(groups.values(), key=order)]


def _pile(c: _Canvas, style: PieceStyle, title: str, place: dict[str, Any],
          y: float) -> float:
    pieces = place.get("pieces")
    count = place.get("count")
    if pieces is None:
        said = "hidden" if count is None else (
            f"{count} piece{'s' if count != 1 else ''}, hidden")
        c.text(10, y + 14, f"{title}: {said}", size=12, weight="bold")
        return y + 22
    if not pieces:
        c.text(10, y + 14, f"{title}: empty", size=12, weight="bold")
        return y + 22
    c.text(10, y + 14, f"{title}: {len(pieces)} piece{'s' if len(pieces) != 1 else ''}",
           size=12, weight="bold")
    y += 20
    groups = _kinds(style, pieces)
    box, row, height = (66.0, 54, 40) if style.cards else (58.0, 40, 26)
    per_row = int((WIDTH - 20) // box)
    for i, (p, n) in enumerate(groups):
        r, col = divmod(i, per_row)
        gx, gy = 10 + col * box, y + r * row
        c.piece(style, p, gx + 16, gy + height + 4, 12, height)
        if n > 1:
            c.text(gx + 36, gy + height, f"×{n}", size=11)
    rows = (len(groups) + per_row - 1) // per_row
    return y + rows * row + 4


def _seat_title(label: str, owner: str) -> str:
    return f"{label} (Player {owner})"


def position_svg(game: Game, view_data: dict[str, Any], title: str,
                 zones: Iterable[str] | None = None) -> str:
    """The position a view shows, as one SVG document."""
    style = PieceStyle(game)
    c = _Canvas()
    y = 6.0
    wanted = list(zones) if zones is not None else list(game.zones)
    for zone_id in wanted:
        info = game.zones[zone_id]
        zv = view_data["zones"].get(zone_id)
        if zv is None or not info.on_table:
            continue
        if info.per_seat:
            for owner, part in zv.items():
                if is_empty(part):
                    continue  # a seat's empty pile: nothing to show
                name = _seat_title(info.label, owner)
                if "places" in part:
                    y = (_grid(c, style, name, part, y) if info.kind == "grid"
                         else _slots(c, style, name, part, y))
                else:
                    y = _pile(c, style, name, part, y)
        elif info.kind == "grid":
            y = _grid(c, style, info.label, zv, y)
        elif info.kind == "slots":
            y = _slots(c, style, info.label, zv, y)
        else:
            y = _pile(c, style, info.label, zv, y)
    return c.svg(WIDTH, y + 6, title)


def legend_svg(game: Game, pieces: list[dict[str, Any]], title: str) -> str:
    """One of each kind of piece, with its name (for the components section)."""
    style = PieceStyle(game)
    c = _Canvas()
    box = 118.0
    per_row = int((WIDTH - 20) // box)
    for i, p in enumerate(pieces):
        r, col = divmod(i, per_row)
        gx, gy = 10 + col * box, 8 + r * 64
        if style.cards:  # a card is read by what is printed on it: draw it larger
            c.piece(style, p, gx + 20, gy + 54, 16, 46)
        else:
            c.piece(style, p, gx + 20, gy + 40, 16, 34)
        name = style.name(p)
        face = style.face(p)
        lines = textwrap.wrap(name, 16, break_long_words=True)[:2] or [""]
        if face:
            lines.append(face)
        for k, line in enumerate(lines):  # at spaces, as a reader breaks a name
            c.text(gx + 42, gy + (26 if face else 32) + 12 * k, line, size=10)
    rows = (len(pieces) + per_row - 1) // per_row
    return c.svg(WIDTH, 16 + rows * 64, title)
