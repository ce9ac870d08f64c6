"""Deterministic SVG pictures of a game position, for the rulebooks.

A diagram is drawn from a *view* (``interpreter.run.view.view``), never from the state
itself, so it shows exactly what the viewing seat may know: the rulebook draws the
spectator's view (seat 0), and hidden pieces appear as grey "?" pieces. Grids are
boards with labelled squares (a1 at the bottom left, like a chessboard); each stack is
drawn in profile, bottom piece lowest, every pyramid as wide as its size and in its
colour; slots are drawn as numbered stacks; a pile lies as its zone is arranged (a row
of its kinds of piece with ×n, a fanned hand, a stack with its count). The position is
laid out as a table (``interpreter.docs.table_layout``): the opponents' areas, the
centre, the viewer's own; the browser gets each zone's picture apart as well
(`table_pictures`).

Pieces with panels (``pieces.panels``: a card's quarters, a tile's edges) are drawn from
above as they lie, each region filled with its value's colour and labelled; what stands
on a region (a pyramid on a quarter) is drawn on it, and a square holding a house of
several stories shows its top story over the edges of the ones below, with a badge. An
open grid (``reach``) is drawn over the bounding box of its used squares, with x and y
along its sides. ``interpreter.docs.sideview`` draws houses from the side, to scale.

The output depends on nothing but the view: no random ids, no timestamps.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from interpreter.docs.table_layout import Area, Spot, plan_table
from interpreter.load.data_values import data_text
from interpreter.load.schema import NAMED_COLOURS
from interpreter.play.game import CardShown
from interpreter.run.view import (
    COUNT_ABOVE,
    ROW_OF_SLOTS,
    alike,
    board_cell,
    is_empty,
    one_kind,
)

if TYPE_CHECKING:
    from interpreter.play.game import Game

COLOURS: dict[str, str] = NAMED_COLOURS
"""The colour names a ruleset may use (``colours:``, or a value named after a colour)."""
CLEAR_NAMES = frozenset({"clear", "transparent"})
"""Colours drawn see-through (a tinted, translucent fill with a dashed outline), so that a
clear piece never passes for a white one."""
CLEAR_TINT = "#9fd3e8"
CLEAR_OPACITY = 0.5
"""A clear piece's fill: this tint at half strength (over white it shows as
COLOURS["clear"])."""
PALETTE = ["#e3c77a", "#6fb35a", "#c4845a", "#6f9fd8", "#d68fc0", "#4fb3a4", "#e8893c",
           "#9a7fd0", "#a9a9a9", "#c9c24a"]
"""Fills for values that neither ``colours:``, their own name nor a style colours (road,
field, city; a tic-tac-toe mark), by the value's place among the attribute's values: the
colours are far enough apart to tell the first several values apart."""
UNKNOWN = "#9a9a9a"
BACK = "#3d4a66"
BACK_LINE = "#8d9bbd"
"""A card face down: a dark slate back with a paler lattice (never a face's colour)."""
ICON_INK = "#8a6d00"
"""Icons repeated on a card (stars): dark gold, readable on the card's ivory."""
HIDDEN = "#b5b5b5"
PLAIN = "#efe7d6"
"""A piece that lacks the colouring attribute and has no coloured value (a die): plain
ivory, like unpainted stock."""
DARK_INK = "#000000"
LIGHT_INK = "#ffffff"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH = 720


def colour_hex(name: Any) -> str:
    """A colour name → hex (unknown names → grey)."""
    return COLOURS.get(str(name).lower(), UNKNOWN) if name is not None else UNKNOWN


_STYLE_WORDS = {"bold", "dim", "italic", "underline", "blink", "blink2", "reverse", "conceal",
                "strike", "not", "overline", "frame", "encircle", "default", "none"}


def style_colour(style: str | None) -> str | None:
    """The colour a terminal style shows a value in, as hex: its background when it has
    one (`bold white on grey30` → grey30), else its colour (`bold red` → red); None when
    the style names no colour the pictures know."""
    if not style:
        return None
    words = style.lower().split()
    if "on" in words and words.index("on") + 1 < len(words):
        words = [words[words.index("on") + 1]]
    for word in words:
        if word in _STYLE_WORDS:
            continue
        found = _named_colour(word)
        if found is not None:
            return found
    return None


def _named_colour(word: str) -> str | None:
    if len(word) == 7 and word.startswith("#"):
        try:
            int(word[1:], 16)
        except ValueError:
            return None
        return word
    for grey in ("grey", "gray"):
        level = word.removeprefix(grey)
        if level != word and level.isdigit() and int(level) <= 100:
            v = round(255 * int(level) / 100)
            return f"#{v:02x}{v:02x}{v:02x}"
    for prefix in ("bright_", "dark_", "light_", "pale_", "deep_"):
        word = word.removeprefix(prefix)
    return COLOURS.get(word)


def ink_for(fill: str) -> str:
    """Text colour that reads on `fill`: dark or white, whichever contrasts more (by the
    WCAG contrast ratio, so mid greens and oranges get dark ink, not a faint white)."""
    return DARK_INK if contrast(DARK_INK, fill) >= contrast(LIGHT_INK, fill) else LIGHT_INK


def _luminance(hex_colour: str) -> float:
    r, g, b = _rgb(hex_colour)
    return 0.299 * r + 0.587 * g + 0.114 * b


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(ch * 2 for ch in h)
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(hex_colour: str) -> float:
    """The WCAG relative luminance of a colour (0 black .. 1 white)."""
    r, g, b = (_linear(c) for c in _rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 .. 21); text wants 4.5 or more."""
    la, lb = relative_luminance(a), relative_luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def colour_distance(a: str, b: str) -> float:
    """How far apart two colours look: CIE76 ΔE in Lab (about 2.3 is the least a reader
    notices; pieces of different colours want 20 or more)."""
    def lab(hex_colour: str) -> tuple[float, float, float]:
        r, g, b = (_linear(c) for c in _rgb(hex_colour))
        x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
        return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])
    la, lb = lab(a), lab(b)
    return math.dist(la, lb)


_NARROW = set("iljI.,:;'|!`")
_SLIM = set("frt -()[]{}\"/ ")
_WIDE = set("mwMW@%")
_CAPS = {"J": 0.3, "I": 0.3, "L": 0.56, "F": 0.58, "E": 0.63, "P": 0.6, "T": 0.61,
         "Y": 0.61, "S": 0.64}


def _char_em(ch: str) -> float:
    """About how wide one character is in DejaVu Sans (the widest of the fonts the
    pictures name), in ems."""
    if ch in _NARROW:
        return 0.3
    if ch in _SLIM:
        return 0.4
    if ch in _WIDE:
        return 0.96
    if ch in _CAPS:
        return _CAPS[ch]
    if ch.isupper():
        return 0.74
    if ch.isdigit() or ch.islower() or ch in "$#&*?_~^=<>+":
        return 0.62
    if ord(ch) >= 0x2E80:  # CJK and other full-width writing
        return 1.0
    return 0.84  # symbols: ★ × ½ − ◯ ✕ arrows


def text_width(text: str, size: float, bold: bool = False) -> float:
    """About how wide `text` is drawn at `size` (bold is about a tenth wider); a little
    generous, so that what is measured to fit does fit."""
    return sum(_char_em(ch) for ch in text) * size * (1.1 if bold else 1.0)


def _ems(text: str) -> float:
    """About how wide `text` is, in ems (at least one)."""
    return max(1.0, text_width(text, 1.0))


def fit_text(text: str, width: float, size: float, least: float = 6.0,
             bold: bool = True) -> tuple[str, float]:
    """A label that fits `width`: `text` at `size`, or smaller down to `least`; when even
    that is too wide, its initial (a tile too small for `cross` shows `c`), as large as
    fits. Empty when not even one character fits."""
    if not text or width <= 0:
        return "", size
    wide = text_width(text, 1.0, bold)
    if wide * least <= width:
        return text, min(size, width / wide)
    initial = text[0]
    wide = text_width(initial, 1.0, bold)
    fitted = min(size, width / wide)
    return (initial, fitted) if fitted >= min(least, 4.5) else ("", size)


def wrap_words(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """`text` broken into lines at most `width` wide, only between words (a word wider
    than a line gets a line of its own)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size, bold) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


@dataclass(frozen=True)
class Paint:
    """How a piece (or a value) is filled: its colour as it shows over white, and whether
    it is see-through."""

    colour: str
    clear: bool = False

    @property
    def stroke(self) -> str:
        """The outline: dark, grey on a pale fill, a blue dash around a clear one."""
        if self.clear:
            return "#2b7a99"
        return "#555" if _luminance(self.colour) > 200 else "#111"

    @property
    def ink(self) -> str:
        return ink_for(self.colour)

    def attrs(self, width: float = 1.0) -> str:
        """The fill and outline attributes of a shape painted so."""
        if self.clear:
            return (f'fill="{CLEAR_TINT}" fill-opacity="{CLEAR_OPACITY}" '
                    f'stroke="{self.stroke}" stroke-width="{_num(width * 1.2)}" '
                    'stroke-dasharray="3,1.6"')
        return f'fill="{self.colour}" stroke="{self.stroke}" stroke-width="{_num(width)}"'


def tint(colour: str, amount: float) -> str:
    """`colour` mixed with white (`amount` of white): a pale band for a card's kind,
    unlike any card's own colour."""
    r, g, b = (round(c + (255 - c) * amount) for c in _rgb(colour))
    return f"#{r:02x}{g:02x}{b:02x}"


def paint_of(spec: str) -> Paint:
    """A checked colour spec (a name or #rrggbb, as ``colours:`` holds it) → its paint."""
    word = spec.lower()
    if word in CLEAR_NAMES:
        return Paint(COLOURS[word], clear=True)
    return Paint(word if word.startswith("#") else COLOURS.get(word, UNKNOWN))


def _q(text: str) -> str:
    """An attribute value in double quotes."""
    return f'"{text}"'


def _band_path(x: float, y: float, w: float, h: float, r: float) -> str:
    """A card's band: a rectangle whose top corners are rounded like the card's."""
    r = max(0.0, min(r, w / 2, h))
    return (f"M{_num(x)},{_num(y + h)} L{_num(x)},{_num(y + r)} "
            f"Q{_num(x)},{_num(y)} {_num(x + r)},{_num(y)} L{_num(x + w - r)},{_num(y)} "
            f"Q{_num(x + w)},{_num(y)} {_num(x + w)},{_num(y + r)} "
            f"L{_num(x + w)},{_num(y + h)} Z")


def _num(x: float) -> str:
    """Coordinates with at most one decimal, always written the same way."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


class PieceStyle:
    """How a game's pieces look: which attribute colours them, which sizes them."""

    def __init__(self, game: Game) -> None:
        decl = game.ruleset.pieces
        attrs = decl.attributes
        self.size_attr = "size" if "size" in attrs else None
        if self.size_attr is None and decl.glyph in attrs and all(
                isinstance(v, int) for v in attrs[decl.glyph].values):
            self.size_attr = decl.glyph
        self.colour_attr = self._colouring(game)
        """The attribute whose value fills a piece: pieces.style, else one named colour,
        else the first with colours or coloured styles, else the first that is not a
        size (a tic-tac-toe mark: its values take the palette, never one grey)."""
        sizes = attrs[self.size_attr].values if self.size_attr else [1]
        self.sizes = [v for v in sizes if isinstance(v, int)] or [1]
        self.glyph_attr = decl.glyph if decl.glyph in attrs else None
        self.cards = decl.shape == "card" or "card" in game.piece_shapes
        """Whether any piece is drawn as a card (piles and legends make room for cards)."""
        self.default_shape = decl.shape
        self.panels = game.panels
        self.game = game
        self.attrs = attrs
        self.value_names = game.value_names
        self.order = game.attribute_order
        self.namer = game.piece_namer

    def _colouring(self, game: Game) -> str | None:
        decl = game.ruleset.pieces
        attrs = decl.attributes
        if decl.style in attrs:
            return decl.style
        for name in ("colour", "color"):
            if name in attrs:
                return name
        for attr, a in attrs.items():
            if a.colours or any(style_colour(s) for s in a.styles.values()):
                return attr
        others = [a for a in attrs if a != self.size_attr]
        return next((a for a in others if a != decl.glyph), others[0] if others else None)

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
        """The piece's colour as it shows (a clear piece: as it shows over white)."""
        return self.paint(piece).colour

    def paint(self, piece: dict[str, Any]) -> Paint:
        """How the piece is filled: by its colouring attribute's value; lacking that, by
        the first of its values with a colour of its own (a goal card's element), else
        plain (a die)."""
        if piece.get("hidden"):
            return Paint(HIDDEN)
        if self.colour_attr is not None and self.colour_attr in piece:
            return self.value_paint(self.colour_attr, piece[self.colour_attr])
        return self.own_paint(piece) or Paint(PLAIN)

    def own_paint(self, piece: dict[str, Any]) -> Paint | None:
        """The paint of the first of the piece's values that names its colour (by
        ``colours:``, its own name or a coloured style), if any."""
        for attr in self.order:
            if attr in piece and attr != self.colour_attr:
                found = self._named_paint(attr, piece[attr])
                if found is not None:
                    return found
        return None

    def glyph(self, piece: dict[str, Any]) -> str:
        """What is printed on the piece: its glyph attribute's value, else its first
        value besides its colour (the colour itself when that is all it has), each by
        its glyph, else short form, else the value."""
        if piece.get("hidden"):
            return "?"
        if self.glyph_attr and self.glyph_attr in piece:
            return self.value_glyph(self.glyph_attr, piece[self.glyph_attr])
        for attr in self.order:
            if attr in piece and attr != self.colour_attr:
                return self.value_glyph(attr, piece[attr])
        if self.colour_attr is not None and self.colour_attr in piece:
            return self.value_glyph(self.colour_attr, piece[self.colour_attr])
        return ""

    def value_glyph(self, attr: str, value: Any) -> str:
        """A value as a piece shows it: its glyph, else its short form, else itself."""
        a = self.attrs.get(attr)
        if a is None or isinstance(value, list):
            return data_text(value)
        if value in a.glyphs:
            return a.glyphs[value]
        return str(a.short.get(value, value))

    def is_pyramid(self, piece: dict[str, Any]) -> bool:
        if piece.get("hidden"):
            return False
        shape = self.shape_of(piece)
        return shape == "pyramid" or (shape is None and self.size_attr is not None
                                      and self.size_attr in piece)

    def shape_of(self, piece: dict[str, Any]) -> str | None:
        """How the piece is drawn: its set's shape, else pieces.shape ("card", "pyramid"
        or None); a hidden piece, as pieces.shape says."""
        if piece.get("hidden"):
            return self.default_shape
        same = self.game.piece_like(piece)
        return self.default_shape if same is None else self.game.piece_shapes[same]

    def styled_colour(self, piece: dict[str, Any]) -> str | None:
        """The colour of the first of the piece's values that names its colour (a goal
        card's element), for a card whose colouring attribute it lacks."""
        found = self.own_paint(piece)
        return found.colour if found is not None else None

    def band(self, piece: dict[str, Any]) -> Paint:
        """The band across the top of a card: its colour; lacking one, the colour of its
        first value, by the palette (so cards of different kinds differ)."""
        if self.colour_attr is not None and self.colour_attr in piece:
            return self.value_paint(self.colour_attr, piece[self.colour_attr])
        found = self.own_paint(piece)
        if found is not None:
            return found
        first = next((a for a in self.order if a in piece), None)
        if first is None:
            return Paint(PLAIN)
        return Paint(tint(self.value_paint(first, piece[first]).colour, 0.5))

    def card_face(self, piece: dict[str, Any]) -> CardShown:
        """What the card shows (pieces.card, worked out when the game compiled); a card
        the game does not know (a made-up view) shows its name."""
        found = self.game.piece_card(piece)
        return found if found is not None else CardShown(self.name(piece))

    def card_band(self, piece: dict[str, Any], face: CardShown) -> tuple[Paint, str]:
        """A card's band and the mark of the value that colours it (so colour is never
        the only sign): the face's `band` attribute, else the band as before."""
        attr = face.band if face.band in piece else None
        if attr is None:
            if self.colour_attr is not None and self.colour_attr in piece:
                attr = self.colour_attr
            else:
                attr = next((a for a in self.order if a in piece and a != self.colour_attr
                             and self._named_paint(a, piece[a]) is not None), None)
        if attr is None:
            return self.band(piece), ""
        return self.value_paint(attr, piece[attr]), self.mark(attr, piece[attr])

    def colour_mark(self, piece: dict[str, Any], shown: str) -> str:
        """The mark of the piece's colour, to print beside `shown` (what it already
        says); empty when that already names the colour, or the piece has none."""
        attr = self.colour_attr
        if piece.get("hidden") or attr is None or attr not in piece:
            return ""
        mark = self.mark(attr, piece[attr])
        return "" if mark == shown or self.glyph(piece) == self.value_glyph(
            attr, piece[attr]) else mark

    def die_attr(self, piece: dict[str, Any]) -> str | None:
        """The attribute whose number a die shows: its glyph attribute, else its first
        with a whole number."""
        for attr in ([self.glyph_attr] if self.glyph_attr else []) + self.order:
            v = piece.get(attr)
            if isinstance(v, int) and not isinstance(v, bool):
                return attr
        return None

    def die_number(self, piece: dict[str, Any]) -> int | None:
        """The number a die shows (see die_attr)."""
        attr = self.die_attr(piece)
        return None if attr is None else piece[attr]

    def mark(self, attr: str, value: Any) -> str:
        """A coloured value's mark, for readers who cannot tell its colour: its glyph,
        else its short form, else its name's initial (capital)."""
        a = self.attrs.get(attr)
        if a is None or isinstance(value, list):
            return ""
        if value in a.glyphs:
            return str(a.glyphs[value])
        short = a.short.get(value)
        if short:
            return str(short)
        return str(a.names.get(value, value))[:1].upper()

    # -- panels ---------------------------------------------------------------------------

    def paneled(self, piece: dict[str, Any]) -> bool:
        """Whether the piece shows panels (a card's quarters, a tile's edges)."""
        return (self.panels is not None and not piece.get("hidden")
                and any(a in piece for a in self.panels.attributes))

    def facing(self, piece: dict[str, Any]) -> int:
        """How the piece lies: its turn in degrees clockwise (0 when unknown)."""
        panels = self.panels
        if panels is None or panels.facing is None:
            return 0
        value = piece.get(panels.facing, 0)
        return value if type(value) is int and value in panels.shown else 0

    def shown(self, piece: dict[str, Any]) -> list[list[str | None]]:
        """The attribute showing at each position of the piece as it lies."""
        assert self.panels is not None
        return self.panels.shown[self.facing(piece)]

    def standing_on(self, piece: dict[str, Any]) -> str | None:
        """The region of the paneled piece below that this piece stands on, if any."""
        panels = self.panels
        if panels is None or panels.standing_on is None or piece.get("hidden"):
            return None
        region = piece.get(panels.standing_on)
        return region if isinstance(region, str) and region in panels.positions else None

    def value_colour(self, attr: str, value: Any) -> str:
        """A value's colour (a panel's fill), as it shows over white."""
        return self.value_paint(attr, value).colour

    def value_paint(self, attr: str, value: Any) -> Paint:
        """How a value is drawn: the colour ``colours:`` gives it, else the colour it is
        named after, else its terminal style's colour, else a colour of the palette by
        the value's place (so no two of the first values look alike)."""
        found = self._named_paint(attr, value)
        if found is not None:
            return found
        a = self.attrs.get(attr)
        index = (a.values.index(value) if a is not None and not isinstance(value, list)
                 and value in a.values else 0)
        return Paint(PALETTE[index % len(PALETTE)])

    def _named_paint(self, attr: str, value: Any) -> Paint | None:
        a = self.attrs.get(attr)
        if isinstance(value, list):  # a card's data list names no colour
            return None
        if a is not None and value in a.colours:
            return paint_of(a.colours[value])
        if str(value).lower() in COLOURS:
            return paint_of(str(value).lower())
        found = style_colour(self.game.value_styles.get(attr, {}).get(value))
        return Paint(found) if found is not None else None

    def value_label(self, attr: str, value: Any) -> str:
        """A panel's label: the value's short form, else its name."""
        a = self.attrs.get(attr)
        if a is not None and not isinstance(value, list):
            short = a.short.get(value)
            if short:
                return str(short)
            if value in a.names:
                return str(a.names[value])
        return data_text(value)

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
        if a is not None and not isinstance(v, list) and v in a.names:
            return str(a.names[v])
        return data_text(v)


def edge_layout(layout: list[list[str | None]]) -> bool:
    """Whether a layout names a tile's edges: 3 × 3, with regions only in the middles of
    the sides (and perhaps the centre). Such regions are drawn as triangles."""
    if len(layout) != 3 or any(len(row) != 3 for row in layout):
        return False
    return all(layout[r][c] is None for r, c in ((0, 0), (0, 2), (2, 0), (2, 2)))


def region_shape(layout: list[list[str | None]], r: int, c: int, x: float, y: float,
                 w: float, h: float) -> tuple[str, tuple[float, float], float]:
    """A region of a face drawn in (x, y, w, h): its polygon's points, where its label
    (or what stands on it) goes, and how much room it has there."""
    rows, cols = len(layout), len(layout[0])
    if edge_layout(layout) and (r, c) != (1, 1):
        cx, cy = x + w / 2, y + h / 2
        corners = {(0, 1): ((x, y), (x + w, y)), (1, 2): ((x + w, y), (x + w, y + h)),
                   (2, 1): ((x + w, y + h), (x, y + h)), (1, 0): ((x, y + h), (x, y))}
        a, b = corners[(r, c)]
        points = " ".join(f"{_num(px)},{_num(py)}" for px, py in (a, b, (cx, cy)))
        lx = (a[0] + b[0] + cx * 1.4) / 3.4
        ly = (a[1] + b[1] + cy * 1.4) / 3.4
        return points, (lx, ly), min(w, h) * 0.3
    if edge_layout(layout):  # the centre of an edge tile: a small square
        s = min(w, h) / 3
        x0, y0 = x + w / 2 - s / 2, y + h / 2 - s / 2
    else:
        s = 0.0
        x0, y0 = x + c * w / cols, y + r * h / rows
    cw, ch = (s, s) if s else (w / cols, h / rows)
    points = " ".join(f"{_num(px)},{_num(py)}" for px, py in (
        (x0, y0), (x0 + cw, y0), (x0 + cw, y0 + ch), (x0, y0 + ch)))
    return points, (x0 + cw / 2, y0 + ch / 2), min(cw, ch)


def _title_lines(text: str, width: float, room: float,
                 least: float = 5.0) -> tuple[list[str], float] | None:
    """`text` in at most three lines (broken between words) as large as fit `width` ×
    `room`, at least `least` large; None when it does not fit so."""
    size = min(14.0, room * 0.45)
    while size >= least:
        lines = wrap_words(text, width, size, bold=True)
        if (len(lines) <= 3 and len(lines) * size * 1.15 <= room
                and all(text_width(line, size, True) <= width for line in lines)):
            return lines, size
        size -= 0.5
    return None


def _pyramid_label(label: str, half: float, h: float) -> tuple[str, float]:
    """The label of a pyramid `2 * half` wide and `h` high, at its foot, fitted to the
    triangle's width where the top of the letters reaches (shrunk, or its initial)."""
    size = min(10.0, h * 0.55)
    for text in dict.fromkeys((label, label[:1])):
        wide = text_width(text, 1.0, bold=True)
        while size >= 4.5:
            top = 2.5 + size * 0.74  # the letters' height above the pyramid's foot
            room = 2 * half * max(0.0, 1 - top / h) - 1.5
            if wide * size <= room and (size >= 6 or text == label[:1]):
                return text, size
            size -= 0.5
        size = min(10.0, h * 0.55)
    return "", size


_FLAT = ("card", "disc", "square", "die")
"""Shapes that a hidden piece keeps (a hidden die is a blank tile, not a pyramid)."""
_PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}
"""Where a die's pips lie on its face (fractions of its side)."""


class _Canvas:
    def __init__(self, targets: bool = False) -> None:
        self.parts: list[str] = []
        self.targets = targets
        """Mark places and pieces as click targets (see `position_svg`)."""
        self.width = WIDTH
        """The picture's width: WIDTH, or more for a board that needs it."""
        self.height = 0.0
        """A zone's picture's height, once drawn (`zone_canvas`)."""
        self.anchors: dict[str, tuple[float, float, float, float]] = {}
        """Where each place drawn is (x, y, width, height), by the game's name for it:
        what arrows and highlights point at."""
        self.ports: dict[str, tuple[float, float]] = {}
        """Where an arrow meets a place, when not at its middle (a pile: after its
        title)."""
        self.outlines: dict[str, str] = {}
        """A place's outline when it is not its box (a hex: its polygon's points)."""

    def add(self, text: str) -> None:
        self.parts.append(text)

    def wrap_place(self, start: int, name: str) -> None:
        """With targets: group what was drawn since part `start` as the place `name`,
        with a frame around it for highlighting."""
        if not self.targets:
            return
        self.parts.insert(start, f'<g class="tt-place" data-place="{escape(name)}">')
        box = self.anchors.get(name)
        if name in self.outlines:
            self.add(f'<polygon class="tt-frame" points="{self.outlines[name]}" fill="none" '
                     'stroke="none" pointer-events="none"/>')
        elif box is not None:
            x, y, w, h = box
            self.add(f'<rect class="tt-frame" x="{_num(x + 1)}" y="{_num(y + 1)}" '
                     f'width="{_num(w - 2)}" height="{_num(h - 2)}" rx="4" fill="none" '
                     'stroke="none" pointer-events="none"/>')
        self.add("</g>")

    def wrap_piece(self, start: int, style: PieceStyle, piece: dict[str, Any]) -> None:
        """With targets: group what was drawn since part `start` as a piece, by its code
        (a hidden piece is not a target: nothing names it)."""
        if not self.targets or piece.get("hidden"):
            return
        code = style.code(piece)
        if code == "?":
            return
        self.parts.insert(start, f'<g class="tt-piece" data-piece="{escape(code)}" '
                                 f'role="img" aria-label="{escape(style.name(piece))}">')
        self.add("</g>")

    def text(self, x: float, y: float, content: str, size: float = 12, anchor: str = "start",
             weight: str = "normal", fill: str = "#222") -> None:
        self.add(f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" '
                 f'text-anchor="{anchor}" font-weight="{weight}" fill="{fill}">'
                 f"{escape(content)}</text>")

    def piece(self, style: PieceStyle, piece: dict[str, Any], cx: float, base: float,
              unit: float, height: float) -> None:
        """One piece standing on `base`, centred on `cx`: a pyramid in profile (its width
        grows with its size), or a small tile for pieces without a size (dice). Its
        label is fitted inside it (smaller, or its initial, when the shape is small)."""
        start = len(self.parts)
        self._piece(style, piece, cx, base, unit, height)
        self.wrap_piece(start, style, piece)

    def _piece(self, style: PieceStyle, piece: dict[str, Any], cx: float, base: float,
               unit: float, height: float) -> None:
        paint = style.paint(piece)
        fill = paint.colour
        label = style.glyph(piece)
        title = f"<title>{escape(style.name(piece))}</title>"
        shape = style.shape_of(piece)
        if style.paneled(piece):  # seen from above, as it lies
            h = height * 1.1 if shape == "card" else min(height, unit * 2.2)
            w = h * 0.72 if shape == "card" else h
            self.panel_card(style, piece, cx - w / 2, base - h, w, h)
        elif shape == "card":
            self.card(style, piece, cx, base, height, fill, title)
        elif style.is_pyramid(piece) or (piece.get("hidden") and shape not in _FLAT):
            rank = style.size_rank(piece) if not piece.get("hidden") else 0.5
            half = unit * (0.45 + 0.55 * rank)
            h = height
            pts = (f"{_num(cx - half)},{_num(base)} {_num(cx + half)},{_num(base)} "
                   f"{_num(cx)},{_num(base - h)}")
            self.add(f'<polygon points="{pts}" {paint.attrs()}>{title}</polygon>')
            if label and h >= 11:
                text, size = _pyramid_label(label, half, h)
                if text:
                    self.text(cx, base - 2.5, text, size=size, anchor="middle",
                              weight="bold", fill=paint.ink)
                    self._pyramid_mark(style.colour_mark(piece, text), cx, base, half,
                                       h, size, paint)
        elif shape == "die" and not piece.get("hidden"):
            self.die(style, piece, cx, base, min(height, unit * 1.6), paint, title)
        else:
            side = min(height, unit * 1.1)
            if shape == "disc":
                self.add(f'<circle cx="{_num(cx)}" cy="{_num(base - side / 2)}" '
                         f'r="{_num(side / 2)}" {paint.attrs()}>{title}</circle>')
                room = side * 0.72
            else:
                self.add(f'<rect x="{_num(cx - side / 2)}" y="{_num(base - side)}" '
                         f'width="{_num(side)}" height="{_num(side)}" rx="3" '
                         f'{paint.attrs()}>{title}</rect>')
                room = side - 4
            mark = style.colour_mark(piece, label)
            if mark and side >= 20:  # the colour's mark beside the glyph
                label = f"{mark}{label}" if label else mark
            text, size = fit_text(label, room, min(11, side * 0.6))
            if text:
                self.text(cx, base - side / 2 + size * 0.36, text, size=size,
                          anchor="middle", weight="bold", fill=paint.ink)

    def _pyramid_mark(self, mark: str, cx: float, base: float, half: float, h: float,
                      below: float, paint: Paint) -> None:
        """A pyramid's colour mark, above its size letter (of size `below`) where the
        triangle is wide enough: colour is never the only sign of a pyramid's colour."""
        if not mark:
            return
        baseline = base - 2.5 - below * 0.74 - 1.5
        size = min(below * 0.9, 8.5)
        while size >= 5:
            rise = base - (baseline - size * 0.74)  # the mark's top, above the foot
            room = 2 * half * max(0.0, 1 - rise / h) - 1.5
            if text_width(mark, size, True) <= room:
                self.text(cx, baseline, mark, size=size, anchor="middle", weight="bold",
                          fill=paint.ink)
                return
            size -= 0.5

    def die(self, style: PieceStyle, piece: dict[str, Any], cx: float, base: float,
            side: float, paint: Paint, title: str) -> None:
        """A die showing its number as pips (1 to 6; another number as digits)."""
        x, y = cx - side / 2, base - side
        if style.colour_attr is not None and style.die_attr(piece) == style.colour_attr and (
                style._named_paint(style.colour_attr, piece[style.colour_attr]) is None):
            paint = Paint(PLAIN)  # its number is told by its pips, not a palette colour
        self.add(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(side)}" '
                 f'height="{_num(side)}" rx="{_num(side * 0.18)}" {paint.attrs()}>'
                 f'{title}</rect>')
        number = style.die_number(piece)
        spots = _PIPS.get(number) if number is not None else None
        if spots is None or side < 12:
            text, size = fit_text(style.glyph(piece), side - 4, min(11, side * 0.6))
            if text:
                self.text(cx, base - side / 2 + size * 0.36, text, size=size,
                          anchor="middle", weight="bold", fill=paint.ink)
            return
        r = side * 0.09
        for px, py in spots:
            self.add(f'<circle cx="{_num(x + side * px)}" cy="{_num(y + side * py)}" '
                     f'r="{_num(r)}" fill="{paint.ink}"/>')

    def card(self, style: PieceStyle, piece: dict[str, Any], cx: float, base: float,
             height: float, fill: str, title: str) -> None:
        """A card standing on `base` (drawn 1.1 × `height` tall, 0.7 as wide), drawn from
        its face (pieces.card): a rounded card with a band of its colour across the top
        holding its corner number and its colour's mark, its title in the middle and its
        icons under it; a large card repeats its corner bottom right. Detail drops as the
        card shrinks (small: band, mark, corner and title; tiny: band and one word). Face
        down, a patterned back with its `back` words."""
        h = height * 1.1
        w = h * 0.7
        x, y = cx - w / 2, base - h
        r = max(2.0, w * 0.09)
        if piece.get("hidden"):
            self._card_back(piece, x, y, w, h, r, title)
            return
        face = style.card_face(piece)
        band, mark = style.card_band(piece, face)
        self.add(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
                 f'rx="{_num(r)}" fill="#fffdf8" stroke="#4a4437" stroke-width="1">'
                 f'{title}</rect>')
        bh = h * (0.3 if h < 36 else 0.27 if h < 60 else 0.22)
        self.add(f'<path d="{_band_path(x + 1, y + 1, w - 2, bh, r - 0.8)}" '
                 f'{band.attrs(0.6) if band.clear else f"fill={_q(band.colour)}"}/>')
        ink = band.ink
        corner = face.corner
        if mark:  # the colour's mark, on a white disc at the band's right
            mr = min(bh * 0.38, w * 0.17)
            mx, my = x + w - 2 - mr, y + 1 + bh / 2
            self.add(f'<circle cx="{_num(mx)}" cy="{_num(my)}" r="{_num(mr)}" '
                     'fill="#ffffff" stroke="#4a4437" stroke-width="0.6"/>')
            text, size = fit_text(mark, mr * 1.6, mr * 1.3, least=3.5)
            if text:
                self.text(mx, my + size * 0.36, text, size=size, anchor="middle",
                          weight="bold", fill=DARK_INK)
            room = w - 2 * mr - 6
        else:
            room = w - 4
        if corner and h >= 36:  # the corner number, left in the band
            text, size = fit_text(corner, room, min(bh * 0.72, 13.0), least=4.5)
            if text:
                self.text(x + 3, y + 1 + bh / 2 + size * 0.36, text, size=size,
                          weight="bold", fill=ink)
        body_top, body = y + bh + 1, h - bh - 2
        if h < 36:  # tiny: the one thing that tells it apart
            word = corner or face.title
            text, size = fit_text(word, w - 3, min(body * 0.55, 11.0), least=4.0)
            if text:
                self.text(cx, body_top + body / 2 + size * 0.36, text, size=size,
                          anchor="middle", weight="bold")
            return
        icons = face.icons
        icon_room = body * (0.26 if icons else 0.0)
        foot = body * (0.16 if h >= 70 and corner else 0.04)
        self._card_title(face.title, cx, body_top, w - 5, body - icon_room - foot,
                         style.code(piece))
        if icons:
            self._card_icons(icons, cx, body_top + body - icon_room - foot, w - 4, icon_room)
        if corner and h >= 70:  # repeated bottom right, as on a real card
            size = min(9.0, foot * 0.75)
            text, size = fit_text(corner, w * 0.5, size, least=4.5)
            if text:
                self.text(x + w - 3, y + h - 3, text, size=size, anchor="end",
                          weight="bold", fill="#4a4437")

    def _card_title(self, title: str, cx: float, top: float, width: float,
                    room: float, short: str = "") -> None:
        """A card's words, as large as fit in `width` × `room`, in up to three lines
        broken between words; on a card too small for them, its `short` form (its code:
        `replace` for Replacement fish), else its initial."""
        if not title or room <= 4:
            return
        found = _title_lines(title, width, room)
        if found is None and short and short != title:
            found = _title_lines(short, width, room)
        if found is None:
            text, size = fit_text(title, width, min(room * 0.6, 9.0), least=5.0)
            found = ([text], size) if text else ([], size)
        lines, size = found
        first = top + room / 2 - (len(lines) - 1) * size * 0.575 + size * 0.36
        for k, line in enumerate(lines):
            self.text(cx, first + k * size * 1.15, line, size=size, anchor="middle",
                      weight="bold")

    def _card_icons(self, icons: str, cx: float, top: float, width: float,
                    room: float) -> None:
        """A card's icon repeated (★★★) in one row, or two when one is too narrow; when
        even that would be too small to read, the count and one icon (`5★`)."""
        one = icons[:1]
        for rows in (1, 2):
            per_row = -(-len(icons) // rows)
            size = min(room / rows * 0.9, width / (per_row * _char_em(one)), 12.0)
            if size >= 5.5:
                break
        else:
            text, size = fit_text(f"{len(icons)}{one}", width, min(room * 0.8, 10.0),
                                  least=4.0)
            self.text(cx, top + room / 2 + size * 0.36, text, size=size, anchor="middle",
                      fill=ICON_INK)
            return
        chunks = [icons[i:i + per_row] for i in range(0, len(icons), per_row)]
        line = room / len(chunks)
        for k, chunk in enumerate(chunks):
            self.text(cx, top + line * k + line / 2 + size * 0.36, chunk, size=size,
                      anchor="middle", fill=ICON_INK)

    def _card_back(self, piece: dict[str, Any], x: float, y: float, w: float, h: float,
                   r: float, title: str) -> None:
        """A card face down: a dark back with a lattice inside a frame, and its `back`
        words (what every seat sees) when there is room."""
        self.add(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
                 f'rx="{_num(r)}" fill="{BACK}" stroke="#2c3446" stroke-width="1">'
                 f'{title}</rect>')
        inset = max(2.0, w * 0.1)
        ix, iy, iw, ih = x + inset, y + inset, w - 2 * inset, h - 2 * inset
        if iw > 4 and ih > 4:
            step = max(4.0, iw / 3)
            lines = []
            k = -ih
            while k < iw:
                lines.append(f"M{_num(ix + max(k, 0))},{_num(iy + max(-k, 0))} "
                             f"L{_num(ix + min(k + ih, iw))},{_num(iy + min(iw - k, ih))}")
                lines.append(f"M{_num(ix + iw - max(k, 0))},{_num(iy + max(-k, 0))} "
                             f"L{_num(ix + iw - min(k + ih, iw))},"
                             f"{_num(iy + min(iw - k, ih))}")
                k += step
            self.add(f'<path d="{" ".join(lines)}" stroke="{BACK_LINE}" stroke-width="0.8" '
                     'fill="none"/>')
            self.add(f'<rect x="{_num(ix)}" y="{_num(iy)}" width="{_num(iw)}" '
                     f'height="{_num(ih)}" rx="{_num(r * 0.6)}" fill="none" '
                     f'stroke="{BACK_LINE}" stroke-width="1"/>')
        back = piece.get("back")
        if isinstance(back, str) and back and h >= 40:
            lines = wrap_words(back, iw - 2, 7.0, bold=True)[:3]
            size = min(8.0, min((iw - 2) / max(text_width(t, 1.0, True) for t in lines),
                                ih / (len(lines) * 1.3)))
            if size >= 4.5:
                bh = len(lines) * size * 1.2 + 3
                self.add(f'<rect x="{_num(ix + 1)}" y="{_num(y + h / 2 - bh / 2)}" '
                         f'width="{_num(iw - 2)}" height="{_num(bh)}" rx="2" fill="{BACK}"/>')
                first = y + h / 2 - (len(lines) - 1) * size * 0.6 + size * 0.36
                for k, line in enumerate(lines):
                    self.text(x + w / 2, first + k * size * 1.2, line, size=size,
                              anchor="middle", weight="bold", fill="#ffffff")

    # -- pieces with panels, seen from above ----------------------------------------------

    def panel_card(self, style: PieceStyle, piece: dict[str, Any], x: float, y: float,
                   w: float, h: float, names: bool = False,
                   occupied: frozenset[str] = frozenset()) -> None:
        """A piece with panels as it lies, from above: each region filled with its value's
        colour and labelled; a dot marks the corner that is top-left when upright, so a
        turned piece shows its turn. With `names`, each region also shows its name. The
        label of an `occupied` region (something stands on it) moves out of the way."""
        assert style.panels is not None
        card = style.shape_of(piece) == "card"
        rx = 4 if card else 1.5
        turn = style.facing(piece)
        title = escape(style.name(piece) + (f", turned {turn}°" if turn else ""))
        self.add(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
                 f'rx="{_num(rx)}" fill="#fbf9f4" stroke="#4a4437" stroke-width="1.2">'
                 f"<title>{title}</title></rect>")
        shown = style.shown(piece)
        layout = style.panels.layout
        for r, row in enumerate(shown):
            for c, attr in enumerate(row):
                if attr is None or attr not in piece:
                    continue
                fill = style.value_colour(attr, piece[attr])
                points, (lx, ly), room = region_shape(style.panels.layout, r, c, x, y, w, h)
                self.add(f'<polygon points="{points}" fill="{fill}" stroke="#ffffff" '
                         f'stroke-width="0.8"/>')
                label = style.value_label(attr, piece[attr])
                label, size = fit_text(label, room * 0.9, max(6.0, min(13.0, room * 0.5)))
                name = layout[r][c]  # regions are named by where they lie
                if name in occupied and not edge_layout(layout):  # above what stands
                    label, size = fit_text(style.value_label(attr, piece[attr]), room * 0.9,
                                           max(5.5, min(8.5, room * 0.2)), least=5.0)
                    ly = ly - room * 0.5 + size * 0.62
                self.text(lx, ly + size * 0.36, label, size=size, anchor="middle",
                          weight="bold", fill=ink_for(fill))
                if names and name is not None:
                    self.text(lx, ly + size * 0.36 + max(6.0, size * 0.75), name,
                              size=max(5.5, size * 0.62), anchor="middle",
                              fill=ink_for(fill))
        self.add(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
                 f'rx="{_num(rx)}" fill="none" stroke="#4a4437" stroke-width="1.2"/>')
        if style.panels.turn != 360:
            corner = {0: (0, 0), 90: (1, 0), 180: (1, 1), 270: (0, 1)}[turn]
            dx = x + 3.2 + corner[0] * (w - 6.4)
            dy = y + 3.2 + corner[1] * (h - 6.4)
            self.add(f'<circle cx="{_num(dx)}" cy="{_num(dy)}" r="1.6" fill="#222" '
                     'stroke="#fff" stroke-width="0.6"/>')

    def marker(self, style: PieceStyle, piece: dict[str, Any], cx: float, cy: float,
               room: float) -> None:
        """A piece standing on a region, seen from above: a pyramid as a square with its
        four faces (bigger as its size is), anything else as a disc; with a white rim,
        so it shows on any panel."""
        paint = style.paint(piece)
        fill = paint.colour
        stroke = paint.stroke
        title = f"<title>{escape(style.name(piece))}</title>"
        if style.is_pyramid(piece):
            half = room * (0.15 + 0.12 * style.size_rank(piece))
            x0, y0, x1, y1 = cx - half, cy - half, cx + half, cy + half
            square = (f'<rect x="{_num(x0)}" y="{_num(y0)}" width="{_num(2 * half)}" '
                      f'height="{_num(2 * half)}" ')
            self.add(square + 'fill="#ffffff" stroke="#ffffff" stroke-width="2.6"/>')
            self.add(square + f'{paint.attrs(0.9)}>{title}</rect>')
            self.add(f'<path d="M{_num(x0)},{_num(y0)} L{_num(x1)},{_num(y1)} '
                     f'M{_num(x1)},{_num(y0)} L{_num(x0)},{_num(y1)}" stroke="{stroke}" '
                     'stroke-width="0.7" opacity="0.7"/>')
            mark = style.colour_mark(piece, "")
            if mark and half >= 4:  # its colour's letter on a white spot at its tip
                size = min(half * 1.1, 8.0)
                self.add(f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(size * 0.62)}" '
                         'fill="#ffffff" stroke="none"/>')
                self.text(cx, cy + size * 0.36, mark, size=size, anchor="middle",
                          weight="bold", fill=DARK_INK)
        else:
            radius = room * 0.22
            disc = f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(radius)}" '
            self.add(disc + 'fill="#ffffff" stroke="#ffffff" stroke-width="2.6"/>')
            self.add(disc + f'{paint.attrs(0.9)}>{title}</circle>')
            label, size = fit_text(style.glyph(piece), radius * 1.5, radius * 1.1)
            if label and radius >= 6:
                self.text(cx, cy + size * 0.36, label, size=size, anchor="middle",
                          weight="bold", fill=ink_for(fill))

    def house(self, style: PieceStyle, pieces: list[dict[str, Any]], x: float, y: float,
              size: float) -> bool:
        """A square's stack from above, when it holds a piece with panels: its top story
        (the highest such piece, with what stands on its regions), the edges of the
        stories below peeking out, and a badge with the number of stories. False (and
        nothing drawn) for a stack without panels."""
        cards = [i for i, p in enumerate(pieces) if style.paneled(p)]
        if not cards or style.panels is None:
            return False
        top = cards[-1]
        stories = len(cards)
        if stories > 1:  # room above the house for its badge
            text = f"{stories} stories"
            bw = 8 + _ems(text) * 8
            self.add(f'<rect x="{_num(x + size / 2 - bw / 2)}" y="{_num(y - 2)}" '
                     f'width="{_num(bw)}" height="12" rx="6" fill="#2b2b2b"/>')
            self.text(x + size / 2, y + 7, text, size=8, anchor="middle", weight="bold",
                      fill="#fff")
            x, y, size = x + 6, y + 12, size - 12
        layers = min(stories - 1, 3)
        step = 3.0
        inner = size - layers * step
        for k in range(layers, 0, -1):
            self.add(f'<rect x="{_num(x + k * step)}" y="{_num(y + k * step)}" '
                     f'width="{_num(inner)}" height="{_num(inner)}" rx="3" fill="#ffffff" '
                     'stroke="#6b6250" stroke-width="1"/>')
        above = pieces[top + 1:]
        occupied = frozenset(r for p in above if (r := style.standing_on(p)) is not None)
        start = len(self.parts)
        self.panel_card(style, pieces[top], x, y, inner, inner, occupied=occupied)
        self.wrap_piece(start, style, pieces[top])
        loose = []
        layout = style.panels.layout
        for p in above:
            region = style.standing_on(p)
            if region is None:
                loose.append(p)
                continue
            r, c = style.panels.positions[region]
            _, (lx, ly), room = region_shape(layout, r, c, x, y, inner, inner)
            if edge_layout(layout):  # between the edge's label and the centre
                lx = x + inner / 2 + (lx - x - inner / 2) * 0.42
                ly = y + inner / 2 + (ly - y - inner / 2) * 0.42
            start = len(self.parts)
            self.marker(style, p, lx, ly, room)
            self.wrap_piece(start, style, p)
        for k, p in enumerate(loose):  # on the piece, but on no region
            start = len(self.parts)
            self.marker(style, p, x + inner * (k + 1) / (len(loose) + 1), y + inner / 2,
                        inner * 0.3)
            self.wrap_piece(start, style, p)
        return True

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


def square_xy(name: str) -> tuple[int, int] | None:
    """An open grid's square name (`x,y`, perhaps `zone:x,y[owner]`) → (x, y)."""
    text = name.split(":")[-1].split("[")[0]
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None


def _grid_cells(zone_view: dict[str, Any]
                ) -> tuple[list[str], list[str], dict[tuple[int, int], str]] | None:
    """A grid's columns' and rows' labels (rows top first) and which place each cell
    (column, row from the top) shows. An open grid: the bounding box of its used squares
    and one square more each way (within its reach); None when no square is used."""
    places = _places(zone_view)
    reach = zone_view.get("reach")
    if reach is None:
        rows, cols = zone_view["rows"], zone_view["cols"]
        cells = {}
        for i, name in enumerate(places):
            r, col = divmod(i, cols)
            cells[(col, rows - 1 - r)] = name
        return ([chr(97 + col) for col in range(cols)],
                [str(r + 1) for r in range(rows - 1, -1, -1)], cells)
    where = {name: xy for name in places if (xy := square_xy(name)) is not None}
    if not where:
        return None
    xs = [x for x, _ in where.values()]
    ys = [y for _, y in where.values()]
    x0, x1 = max(-reach, min(xs) - 1), min(reach, max(xs) + 1)
    y0, y1 = max(-reach, min(ys) - 1), min(reach, max(ys) + 1)
    cells = {(x - x0, y1 - y): name for name, (x, y) in where.items()}
    return ([str(x) for x in range(x0, x1 + 1)], [str(y) for y in range(y1, y0 - 1, -1)],
            cells)


def _grid(c: _Canvas, style: PieceStyle, title: str, zone_view: dict[str, Any], y: float,
          x0: float = 10) -> float:
    places = _places(zone_view)
    layout = _grid_cells(zone_view)
    if layout is None:
        c.text(x0, y + 14, f"{title}: empty" if title else "empty", size=14,
               weight="bold" if title else "normal", fill="#222" if title else "#8a806b")
        c.width = max(c.width, x0 + 80)
        return y + 26
    col_labels, row_labels, cells = layout
    rows, cols = len(row_labels), len(col_labels)
    open_grid = zone_view.get("reach") is not None
    houses = style.panels is not None and any(
        style.paneled(p) for place in places.values() for p in place.get("pieces", []))
    tallest = max([len(p.get("pieces", [])) for p in places.values()] + [1])
    cell = max(44.0, min(96.0, (WIDTH - 60) / max(cols, 1)))
    if houses:
        cell = max(cell, 78.0)
    elif tallest > 4:
        cell = max(cell, min(120.0, 40 + tallest * 9))
    if title:
        c.text(x0, y + 14, title, size=14, weight="bold")
    top = y + (24 if title else 4)
    left = x0 + 18 + (8 if open_grid else 0)
    c.width = max(c.width, left + cols * cell + 12)
    if open_grid:  # the table around the used squares first, then the squares
        order = [(col, row) for row in range(rows) for col in range(cols)
                 if (col, row) not in cells] + sorted(cells, key=lambda cr: (cr[1], cr[0]))
    else:  # in the order the view lists the squares (a1 first)
        order = list(cells)
    for col, row in order:
        name = cells.get((col, row))
        gx, gy = left + col * cell, top + row * cell
        start = len(c.parts)
        if name is None:
            c.add(f'<rect x="{_num(gx)}" y="{_num(gy)}" width="{_num(cell)}" '
                  f'height="{_num(cell)}" fill="#faf8f3" stroke="#ddd5c4" '
                  'stroke-width="1" stroke-dasharray="3,3"/>')
            if c.targets and open_grid and cells:  # an unused square of an open grid
                unused = _open_square(next(iter(cells.values())), col_labels[col],
                                      row_labels[row])
                c.anchors[unused] = (gx, gy, cell, cell)
                c.wrap_place(start, unused)
            continue
        c.anchors[name] = (gx, gy, cell, cell)
        _square(c, style, places[name], name, gx, gy, cell, houses,
                "#f3efe6" if open_grid or (row + col) % 2 == (rows - 1) % 2 else "#e6dfcf")
        c.wrap_place(start, name)
    for col, text in enumerate(col_labels):
        c.text(left + col * cell + cell / 2, top + rows * cell + 12, text, size=10,
               anchor="middle", fill="#6b6250")
    for row in range(rows - 1, -1, -1):  # bottom row first
        text = row_labels[row]
        c.text(left - 6, top + row * cell + cell / 2 + 4, text, size=10,
               anchor="end", fill="#6b6250")
    if open_grid:
        c.text(left + cols * cell, top + rows * cell + 24, "x → east, y ↑ north", size=9,
               anchor="end", fill="#6b6250")
        return top + rows * cell + 32
    return top + rows * cell + 22


def _hex_board(c: _Canvas, style: PieceStyle, title: str, zone_view: dict[str, Any],
               y: float, x0: float = 10) -> float:
    """A hex board as pointy-topped hexagons: rows count upward, each half a hex to the
    right of the row below; column letters under the bottom row's hexes and over the top
    row's, row numbers left of each row."""
    places = _places(zone_view)
    cells = {rc: name for name in places if (rc := board_cell(name)) is not None}
    rows = zone_view["rows"]
    if not cells:
        c.text(x0, y + 14, f"{title}: empty" if title else "empty", size=14,
               weight="bold" if title else "normal")
        c.width = max(c.width, x0 + 80)
        return y + 26
    tallest = max([len(p.get("pieces", [])) for p in places.values()] + [1])
    span = max(c + r / 2 for r, c in cells) - min(c + r / 2 for r, c in cells) + 1
    wide = max(40.0, min(72.0, (WIDTH - 60) / span), min(110.0, 30 + tallest * 9))
    radius = wide / math.sqrt(3)  # centre to corner
    least = min(c + r / 2 for r, c in cells)
    left, top = x0 + 26, y + (24 if title else 4) + 16
    if title:
        c.text(x0, y + 14, title, size=14, weight="bold")

    def centre(r: int, col: int) -> tuple[float, float]:
        return (left + (col + r / 2 - least) * wide + wide / 2,
                top + (rows - 1 - r) * radius * 1.5 + radius)

    for (r, col), name in sorted(cells.items()):
        cx, cy = centre(r, col)
        start = len(c.parts)
        points = " ".join(f"{_num(cx + radius * math.cos(math.radians(a)))},"
                          f"{_num(cy + radius * math.sin(math.radians(a)))}"
                          for a in range(-90, 270, 60))
        shade = ("#f3efe6", "#e6dfcf", "#ece6d9")[(col - r) % 3]
        c.add(f'<polygon points="{points}" fill="{shade}" stroke="#7a6f5a" '
              'stroke-width="1"/>')
        c.anchors[name] = (cx - wide / 2, cy - radius, wide, 2 * radius)
        c.outlines[name] = points
        place = places[name]
        pieces = place.get("pieces")
        if pieces:
            c.stack(style, pieces, cx, cy + radius * 0.5, wide * 0.4, radius * 1.2)
        elif pieces is None and "count" in place:
            c.text(cx, cy + 3, f"{place['count']} hidden", size=8, anchor="middle")
        else:
            c.text(cx, cy + 3, name.split(":")[-1].split("[")[0], size=9,
                   anchor="middle", fill="#8a806b")
        c.wrap_place(start, name)
    for r in range(rows):
        here = [col for rr, col in cells if rr == r]
        if here:
            cx, cy = centre(r, min(here))
            c.text(cx - wide / 2 - 4, cy + 4, str(r + 1), size=10, anchor="end",
                   fill="#6b6250")
    for r, dy in ((0, radius + 12), (rows - 1, -radius - 5)):
        for col in sorted(col for rr, col in cells if rr == r):
            cx, cy = centre(r, col)
            c.text(cx, cy + dy, chr(97 + col), size=10, anchor="middle", fill="#6b6250")
    right = max(centre(r, col)[0] for r, col in cells) + wide / 2
    c.width = max(c.width, right + 12)
    return top + ((rows - 1) * 1.5 + 2) * radius + 20


def _square(c: _Canvas, style: PieceStyle, place: dict[str, Any], name: str, gx: float,
            gy: float, cell: float, houses: bool, shade: str) -> None:
    """One square of a grid and what it holds."""
    c.add(f'<rect x="{_num(gx)}" y="{_num(gy)}" width="{_num(cell)}" '
          f'height="{_num(cell)}" fill="{shade}" stroke="#7a6f5a" stroke-width="1"/>')
    pieces = place.get("pieces")
    if pieces is not None and houses and c.house(style, pieces, gx + 5, gy + 5, cell - 10):
        return
    label = name.split(":")[-1].split("[")[0]
    c.text(gx + 3, gy + 11, label, size=9, fill="#6b6250")
    if pieces is None:
        if "count" in place:
            c.text(gx + cell / 2, gy + cell / 2, f"{place['count']} hidden",
                   size=9, anchor="middle")
        return
    c.stack(style, pieces, gx + cell / 2, gy + cell - 5, cell * 0.36, cell - 18)


def _open_square(used: str, x: str, y: str) -> str:
    """The name of the open grid's square at (x, y), written as its used square `used`
    is (`x,y`, perhaps `zone:x,y[owner]`)."""
    head, _, rest = used.rpartition(":")
    owner = rest[rest.index("["):] if "[" in rest else ""
    return f"{head}:{x},{y}{owner}" if head else f"{x},{y}{owner}"


def _slots(c: _Canvas, style: PieceStyle, title: str, zone_view: dict[str, Any],
           y: float) -> float:
    """Numbered places: a row (ROW_OF_SLOTS or fewer) every one in order, empty ones
    included; a field only those in use. A place of more than COUNT_ABOVE alike pieces
    shows one of them and a badge with the count; in a game of one kind of piece (seeds)
    every place of a row shows its count."""
    places = _places(zone_view)
    row = len(places) <= ROW_OF_SLOTS
    used = [(n, p) for n, p in places.items() if p.get("pieces") or p.get("count")]
    shown = list(places.items()) if row else used
    if not title:
        y += 4
    elif row:
        c.text(10, y + 14, title, size=14, weight="bold")
        y += 24
    else:
        c.text(10, y + 14, f"{title}: {len(used)} of {len(places)} places in use"
               if used else f"{title}: empty", size=14, weight="bold")
        y += 24
    if not shown:
        return y + 4
    counts = row and one_kind(style.game)
    per_row = 8
    slot = (WIDTH - 20) / per_row
    c.width = max(c.width, 20 + min(len(shown), per_row) * slot)
    tallest = max(_drawn_height(p.get("pieces")) for _, p in shown)
    room = max(60.0, min(140.0, 30 + tallest * 12))
    for i, (name, p) in enumerate(shown):
        r, col = divmod(i, per_row)
        gx, gy = 10 + col * slot, y + r * (room + 22)
        c.anchors[name] = (gx + 2, gy, slot - 4, room)
        start = len(c.parts)
        c.add(f'<rect x="{_num(gx + 2)}" y="{_num(gy)}" width="{_num(slot - 4)}" '
              f'height="{_num(room)}" rx="4" fill="#f3efe6" stroke="#b9ae98"/>')
        c.text(gx + slot / 2, gy + room + 13, name.split(":")[-1], size=10, anchor="middle",
               fill="#6b6250")
        pieces = p.get("pieces")
        if pieces is None:
            c.text(gx + slot / 2, gy + room / 2, f"{p.get('count', '?')} hidden", size=9,
                   anchor="middle")
        elif len(pieces) > COUNT_ABOVE and alike(pieces):
            c.stack(style, pieces[:1], gx + slot / 2, gy + room - 5, slot * 0.3, room - 10)
            _badge(c, gx + slot - 14, gy + 14, len(pieces))
        else:
            c.stack(style, pieces, gx + slot / 2, gy + room - 5, slot * 0.3, room - 10)
            if counts:
                _badge(c, gx + slot - 14, gy + 14, len(pieces))
        c.wrap_place(start, name)
    rows = (len(shown) + per_row - 1) // per_row
    return y + rows * (room + 22) + 4


def _drawn_height(pieces: list[dict[str, Any]] | None) -> int:
    """How many pieces a place draws one above the other (alike ones above COUNT_ABOVE
    are one piece and a count)."""
    if not pieces:
        return 0
    return 1 if len(pieces) > COUNT_ABOVE and alike(pieces) else len(pieces)


def _badge(c: _Canvas, cx: float, cy: float, count: int) -> None:
    """A place's count of pieces on a round badge at its top right."""
    c.add(f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="10" fill="#4a4338" '
          'stroke="#ffffff" stroke-width="1.5"/>')
    c.text(cx, cy + 4, str(count), size=11, anchor="middle", weight="bold", fill="#fff")


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


# -- a zone on the table: its pieces in a row, a fan or a stack --------------------------

CARD = 64.0
"""The height a card is drawn at on the table (``_Canvas.piece``'s `height`: the card is
1.1 × this tall and 0.7 × that wide)."""
HAND_CARD = 84.0
"""A card in the viewer's own hand: larger, so that each one is easy to tap."""
TAP = 44.0
"""The least width of a card's visible part in the viewer's own fan, in px (a finger)."""
PIECE = 34.0
"""The height a piece that is not a card (a pyramid, a tile) is drawn at on the table."""
PAD = 6.0
"""The room around a zone's picture (a fanned card's corner leans into it)."""


def _card_size(height: float) -> tuple[float, float]:
    """A card's drawn width and height for `_Canvas.piece`'s `height`."""
    return height * 1.1 * 0.7, height * 1.1


def _piece_box(style: PieceStyle, piece: dict[str, Any], mine: bool = False
               ) -> tuple[float, float, float, float]:
    """How a piece is drawn on the table: `unit` and `height` for `_Canvas.piece`, and
    the drawn width and height."""
    card = style.shape_of(piece) == "card"
    if card:
        height = HAND_CARD if mine else CARD
        w, h = _card_size(height)
        return height * 0.6, height, w, h
    if style.paneled(piece):
        return PIECE * 0.6, PIECE * 1.6, PIECE * 1.6, PIECE * 1.6
    unit = PIECE * 0.5
    return unit, PIECE, max(2 * unit, unit * 1.1), PIECE


def _draw(c: _Canvas, style: PieceStyle, piece: dict[str, Any], x: float, top: float,
          mine: bool = False) -> float:
    """One piece with its top left at (x, top); returns its drawn width."""
    unit, height, w, h = _piece_box(style, piece, mine)
    c.piece(style, piece, x + w / 2, top + h, unit, height)
    return w


BACK: dict[str, Any] = {"hidden": True}
"""A piece seen from behind (a card's back), as a view shows one."""


def _placeholder(c: _Canvas, style: PieceStyle, x: float, y: float) -> tuple[float, float]:
    """An empty zone: a dashed outline as large as one of its pieces, saying `empty`."""
    w, h = (_card_size(CARD)[0], 40.0) if style.cards else (PIECE * 1.6, PIECE)
    c.add(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" rx="4" '
          'fill="none" stroke="#b9ae98" stroke-width="1.2" stroke-dasharray="4,3"/>')
    c.text(x + w / 2, y + h / 2 + 3.5, "empty", size=10, anchor="middle", fill="#8a806b")
    return w, h


def _row(c: _Canvas, style: PieceStyle, part: dict[str, Any], limit: float) -> tuple[float, float]:
    """Face-up pieces side by side, alike ones as one with ×n, wrapping at `limit`."""
    groups = _kinds(style, part.get("pieces") or [])
    x, y, right, line = PAD, PAD, PAD, 0.0
    for p, n in groups:
        _, _, w, h = _piece_box(style, p)
        wide = w + (26 if n > 1 else 0)
        if x > PAD and x + wide > limit - PAD:
            x, y, line = PAD, y + line + 8, 0.0
        _draw(c, style, p, x, y)
        if n > 1:
            c.text(x + w + 3, y + h - 2, f"×{n}", size=12, weight="bold", fill="#4a4338")
        x += wide + 8
        right, line = max(right, x - 8), max(line, h)
    return right + PAD, y + line + PAD


def _fan(c: _Canvas, style: PieceStyle, part: dict[str, Any], mine: bool,
         limit: float) -> tuple[float, float]:
    """A hand: its cards overlapping in a gentle arc, each one's visible part at least TAP
    wide in the viewer's own hand; a hand one may not look at, as that many backs."""
    pieces = part.get("pieces")
    if pieces is None:  # a hand one may not look at: backs, never large
        pieces, mine = [BACK] * min(int(part.get("count") or 0), 12), False
    _, _, w, h = _piece_box(style, pieces[0], mine)
    n = len(pieces)
    turn = min(4.0, 24.0 / n)
    lean = h * math.sin(math.radians(turn * (n - 1) / 2)) if n > 1 else 0.0
    room = (limit - 2 * PAD - 2 * lean - w) / (n - 1) if n > 1 else w
    # one's own: most of each card shows while there is room, never less than a finger;
    # someone else's hand folds tighter (a face-up one, so that each card can be told)
    shown = w * (0.45 if part.get("pieces") is not None else 0.3)
    step = (max(TAP, min(w * 0.82, room)) if mine
            else min(max(12.0, shown), max(8.0, room)))
    left, top = PAD + lean, PAD + lean * 0.6
    for i, p in enumerate(pieces):
        angle = (i - (n - 1) / 2) * turn
        drop = abs(i - (n - 1) / 2) ** 2 * 0.6
        cx, base = left + i * step + w / 2, top + drop + h
        c.add(f'<g transform="rotate({_num(angle)} {_num(cx)} {_num(base)})">')
        unit, height, _, _ = _piece_box(style, p, mine)
        c.piece(style, p, cx, base, unit, height)
        c.add("</g>")
    drop = ((n - 1) / 2) ** 2 * 0.6
    return left + (n - 1) * step + w + lean + PAD, top + drop + h + PAD


def _stack_pile(c: _Canvas, style: PieceStyle, part: dict[str, Any]) -> tuple[float, float]:
    """A pile as one stack: a few edges under its top piece (face up when it may be seen,
    else its back) and a badge with how many it holds."""
    pieces = part.get("pieces")
    count = len(pieces) if pieces is not None else part.get("count")
    top_piece = pieces[-1] if pieces else BACK
    _, _, w, h = _piece_box(style, top_piece)
    under = min(max((count or 1) - 1, 0), 3)
    for k in range(under, 0, -1):
        c.add(f'<rect x="{_num(PAD + k * 2.5)}" y="{_num(PAD + 8 + k * 2.5)}" '
              f'width="{_num(w)}" height="{_num(h)}" rx="3" fill="{HIDDEN}" stroke="#555" '
              'stroke-width="1"/>')
    _draw(c, style, top_piece, PAD, PAD + 8)
    if count is not None and count > 1:
        _badge(c, PAD + w, PAD + 10, count)
    return PAD + w + under * 2.5 + 12, PAD + 8 + h + under * 2.5 + PAD


def zone_canvas(style: PieceStyle, spot: Spot, targets: bool, mine: bool = False,
                limit: float = WIDTH) -> _Canvas:
    """One zone drawn alone from its top left, at its natural size (`c.width`,
    `c.height`): a board by its squares, slots as their numbered places, a pile in its
    arrangement, as one place named `spot.place`."""
    c = _Canvas(targets)
    c.width = 0
    part = spot.part
    if "places" in part:
        if spot.kind == "hex":
            c.height = _hex_board(c, style, "", part, 0, x0=4)
        elif spot.kind == "grid":
            c.height = _grid(c, style, "", part, 0, x0=4)
        else:
            c.height = _slots(c, style, "", part, 0)
            if not any(p.get("pieces") or p.get("count") for p in _places(part).values()):
                c.width, c.height = _placeholder(c, style, PAD, PAD)
                c.width, c.height = c.width + 2 * PAD, c.height + 2 * PAD
        c.width += 4
        return c
    if is_empty(part):
        w, h = _placeholder(c, style, PAD, PAD)
        size = (w + 2 * PAD, h + 2 * PAD)
    elif spot.arrange == "fan":
        size = _fan(c, style, part, mine, limit)
    elif spot.arrange == "stack" or part.get("pieces") is None:
        size = _stack_pile(c, style, part)
    else:
        size = _row(c, style, part, limit)
    c.width, c.height = size
    c.anchors[spot.place] = (0.0, 0.0, c.width, c.height)
    c.wrap_place(0, spot.place)
    return c


def zone_svg(c: _Canvas, title: str, scale: float = 1.0) -> str:
    """A zone's picture as its own SVG document, `scale` × its natural size on the page."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(c.width * scale)}" '
            f'height="{_num(c.height * scale)}" viewBox="0 0 {_num(c.width)} '
            f'{_num(c.height)}" font-family="{FONT}" role="img" '
            f'aria-label="{escape(title)}">')
    return "\n".join([head, f"<title>{escape(title)}</title>", *c.parts, "</svg>"]) + "\n"


def _moved(box: tuple[float, float, float, float], dx: float, dy: float, scale: float
           ) -> tuple[float, float, float, float]:
    x, y, w, h = box
    return dx + x * scale, dy + y * scale, w * scale, h * scale


def _moved_points(points: str, dx: float, dy: float, scale: float) -> str:
    pairs = (pair.split(",") for pair in points.split())
    return " ".join(f"{_num(dx + float(x) * scale)},{_num(dy + float(y) * scale)}"
                    for x, y in pairs)


def _paste(c: _Canvas, part: _Canvas, dx: float, dy: float, scale: float) -> None:
    """Put a zone's own picture into the table's at (dx, dy), `scale` × its size, with
    its places where arrows and highlights find them."""
    c.add(f'<g transform="translate({_num(dx)} {_num(dy)})'
          + (f' scale({scale:g})"' if scale != 1 else '"') + ">")
    c.parts.extend(part.parts)
    c.add("</g>")
    for name, box in part.anchors.items():
        c.anchors[name] = _moved(box, dx, dy, scale)
    for name, (x, y) in part.ports.items():
        c.ports[name] = (dx + x * scale, dy + y * scale)
    for name, points in part.outlines.items():
        c.outlines[name] = _moved_points(points, dx, dy, scale)


OPPONENT_SCALE = 0.7
"""How large an opponent's zones are drawn, against the viewer's and the centre's."""
AREA_FILL = {"opponent": "#f4f1ea", "centre": "#eef3ea", "mine": "#f1eef7"}


@dataclass
class ZonePicture:
    """A zone laid out and drawn: its plan and its picture."""

    spot: Spot
    canvas: _Canvas
    scale: float


def _pictures(style: PieceStyle, areas: list[Area], targets: bool
              ) -> list[tuple[Area, list[ZonePicture]]]:
    out = []
    for area in areas:
        mine = area.role == "mine"
        scale = OPPONENT_SCALE if area.role == "opponent" else 1.0
        out.append((area, [ZonePicture(s, zone_canvas(style, s, targets, mine,
                                                       (WIDTH - 28) / scale), scale)
                           for s in area.spots]))
    return out


def _table(c: _Canvas, laid: list[tuple[Area, list[ZonePicture]]]) -> float:
    """The areas one below the other (opponents, centre, the viewer's), each a panel with
    its title and its zones side by side, captioned with their titles and counts."""
    y = 6.0
    headed = len(laid) > 1
    panels: list[tuple[int, float, float, str]] = []
    for area, pictures in laid:
        start, top = len(c.parts), y
        if headed:
            c.text(14, y + 17, area.title, size=13, weight="bold", fill="#4a4338")
            y += 24
        else:
            y += 4
        x, line = 14.0, 0.0
        for zp in pictures:
            caption = f"{zp.spot.title} · {zp.spot.count}"
            w = max(zp.canvas.width * zp.scale, text_width(caption, 11, True))
            h = 16 + zp.canvas.height * zp.scale
            if x > 14 and x + w > c.width - 14:
                x, y, line = 14.0, y + line + 10, 0.0
            c.text(x, y + 11, caption, size=11, weight="bold", fill="#3b352c")
            _paste(c, zp.canvas, x, y + 16, zp.scale)
            c.width = max(c.width, x + w + 14)
            x, line = x + w + 22, max(line, h)
        y += line + 8
        if headed:  # its width once every area is drawn (a wide board widens them all)
            panels.append((start, top, y - top, area.role))
        y += 6
    for start, top, height, role in reversed(panels):
        c.parts.insert(start, f'<rect x="4" y="{_num(top)}" width="{_num(c.width - 8)}" '
                       f'height="{_num(height)}" rx="8" fill="{AREA_FILL[role]}" '
                       'stroke="#ddd5c4" stroke-width="1"/>')
    return y


def table_pictures(game: Game, view_data: dict[str, Any], seat: int | None, title: str,
                   ) -> tuple[str, list[dict[str, Any]]]:
    """The browser's table for `seat` (None: a spectator): the whole table as one SVG,
    and its `areas` (opponents, centre, mine), each zone with its own SVG drawn with
    click targets. Both come from one drawing of each zone."""
    style = PieceStyle(game)
    laid = _pictures(style, plan_table(game, view_data, seat), True)
    c = _Canvas(True)
    bottom = _table(c, laid)
    areas = [{"role": area.role, "seat": area.seat, "title": area.title,
              "zones": [{"place": zp.spot.place, "zone": zp.spot.zone,
                         "title": zp.spot.title, "count": zp.spot.count,
                         "arrange": zp.spot.arrange,
                         "svg": zone_svg(zp.canvas, zp.spot.title, zp.scale)}
                        for zp in pictures]}
             for area, pictures in laid]
    return c.svg(c.width, bottom, title), areas


# -- what a move changed: arrows and highlights ------------------------------------------

MARK = "#7b1fa2"
"""The colour of arrows and highlights (no piece colour is this purple)."""


@dataclass(frozen=True)
class Arrow:
    """Pieces that went from one place to another (places named as the game names
    them: `b2`, `captured[1]`, `stash`)."""

    start: str
    end: str
    count: int = 1


@dataclass(frozen=True)
class Highlight:
    """A place marked with a word: where pieces were captured, created or destroyed."""

    place: str
    word: str


def _zone_word(game: Game, place: str, towards: bool) -> str:
    """`→ Captured` / `← The stash`: where pieces went to or came from that the picture
    does not show."""
    site = game.site_by_name.get(place)
    label = game.site_zone[site].label if site is not None else place
    return f"{'→' if towards else '←'} {label}"


def _marks(c: _Canvas, game: Game, arrows: Iterable[Arrow],
           highlights: Iterable[Highlight]) -> None:
    """Highlights, then arrows over them. An arrow with one end not drawn becomes a
    highlight of the other end saying where the pieces went or came from."""
    marks: dict[str, list[str]] = {}
    for h in highlights:
        marks.setdefault(h.place, []).append(h.word)
    drawn = []
    for a in arrows:
        start, end = c.anchors.get(a.start), c.anchors.get(a.end)
        if start is not None and end is not None and a.start != a.end:
            drawn.append(a)
        elif start is not None:
            marks.setdefault(a.start, []).append(_zone_word(game, a.end, True))
        elif end is not None:
            marks.setdefault(a.end, []).append(_zone_word(game, a.start, False))
    for place, words in marks.items():
        box = c.anchors.get(place)
        word = ", ".join(dict.fromkeys(words))
        if place in c.ports:  # a pile: its tag after its title, in the line
            x, y = c.ports[place]
            _tag(c, x - 4, y - 8, word)
        elif box is not None:
            _highlight(c, box, word, c.outlines.get(place))
    for a in drawn:
        _arrow(c, _port(c, a.start), _port(c, a.end), a.count)


def _port(c: _Canvas, place: str) -> tuple[float, float, float, float]:
    """Where an arrow meets a place, as a box around that point."""
    point = c.ports.get(place)
    if point is None:
        return c.anchors[place]
    return (point[0] - 12, point[1] - 12, 24.0, 24.0)


def _highlight(c: _Canvas, box: tuple[float, float, float, float], word: str,
               outline: str | None = None) -> None:
    """A dashed outline round a place (its own shape where it has one: a hex) and a tag."""
    x, y, w, h = box
    if outline is not None:
        c.add(f'<polygon points="{outline}" fill="none" stroke="{MARK}" stroke-width="3" '
              'stroke-dasharray="7,4"/>')
    else:
        c.add(f'<rect x="{_num(x + 1.5)}" y="{_num(y + 1.5)}" width="{_num(w - 3)}" '
              f'height="{_num(h - 3)}" rx="4" fill="none" stroke="{MARK}" stroke-width="3" '
              'stroke-dasharray="7,4"/>')
    tag = 12 + _ems(word) * 10.5
    _tag(c, x + w - tag - 4, max(y - 6, 1.0), word)  # on the top edge, at the right


def _tag(c: _Canvas, x: float, y: float, word: str) -> None:
    """A word on a purple label whose top left is near (x, y), kept in the picture."""
    tag = 12 + _ems(word) * 10.5
    tx = min(max(x, 2.0), c.width - tag - 2)
    c.add(f'<rect x="{_num(tx)}" y="{_num(y)}" width="{_num(tag)}" height="15" '
          f'rx="7" fill="{MARK}" stroke="#ffffff" stroke-width="1"/>')
    c.text(tx + tag / 2, y + 11, word, size=10, anchor="middle", weight="bold",
           fill="#fff")


def _arrow(c: _Canvas, start: tuple[float, float, float, float],
           end: tuple[float, float, float, float], count: int) -> None:
    """A curved arrow from the middle of one place to the edge of the middle of another
    (arrows from one place bend by their length, so they never lie on each other)."""
    x0, y0 = start[0] + start[2] / 2, start[1] + start[3] / 2
    x1, y1 = end[0] + end[2] / 2, end[1] + end[3] / 2
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    back = min(end[2], end[3]) * 0.4  # stop at the place's edge, clear of its pieces
    x1, y1 = x1 - ux * back, y1 - uy * back
    bend = 0.2 * length
    mx, my = (x0 + x1) / 2 - uy * bend, (y0 + y1) / 2 + ux * bend
    tx, ty = x1 - mx, y1 - my  # the direction the arrow arrives in
    t = math.hypot(tx, ty) or 1.0
    tx, ty = tx / t, ty / t
    head, half = 13.0, 6.5
    bx, by = x1 - tx * head, y1 - ty * head
    path = f'M{_num(x0)},{_num(y0)} Q{_num(mx)},{_num(my)} {_num(bx)},{_num(by)}'
    c.add(f'<path d="{path}" fill="none" stroke="#ffffff" stroke-width="6.5" '
          'stroke-linecap="round" opacity="0.85"/>')
    c.add(f'<path d="{path}" fill="none" stroke="{MARK}" stroke-width="3" '
          'stroke-linecap="round"/>')
    points = " ".join(f"{_num(px)},{_num(py)}" for px, py in (
        (x1, y1), (bx - ty * half, by + tx * half), (bx + ty * half, by - tx * half)))
    c.add(f'<polygon points="{points}" fill="{MARK}" stroke="#ffffff" stroke-width="1"/>')
    c.add(f'<circle cx="{_num(x0)}" cy="{_num(y0)}" r="4" fill="{MARK}" '
          'stroke="#ffffff" stroke-width="1"/>')
    if count > 1:
        lx, ly = (x0 + 2 * mx + x1) / 4, (y0 + 2 * my + y1) / 4  # the curve's middle
        c.add(f'<circle cx="{_num(lx)}" cy="{_num(ly)}" r="10" fill="{MARK}" '
              'stroke="#ffffff" stroke-width="1.5"/>')
        c.text(lx, ly + 4, f"×{count}", size=10, anchor="middle", weight="bold",
               fill="#fff")


def position_svg(game: Game, view_data: dict[str, Any], title: str,
                 zones: Iterable[str] | None = None, arrows: Iterable[Arrow] = (),
                 highlights: Iterable[Highlight] = (), targets: bool = False,
                 seat: int | None = None) -> str:
    """The position a view shows, as one SVG document laid out as the table
    (``interpreter.docs.table_layout``): the opponents' areas, the centre, and the
    viewer's own (`seat`; for the rulebook's spectator, seat 1) at the bottom, each zone
    in its arrangement; `arrows` and `highlights` mark what a move changed (an example's
    picture after the move).

    With `targets` (a picture to play on), each place drawn is a group ``<g
    class="tt-place" data-place="NAME">`` (NAME as the game names it: `c3`, `stash`,
    `supply[1]`; an open grid's unused squares around the used ones too) ending in an
    empty ``rect.tt-frame`` to highlight, and each visible piece a group ``<g
    class="tt-piece" data-piece="CODE">`` inside its place's; hidden pieces are not
    marked."""
    style = PieceStyle(game)
    wanted = list(zones) if zones is not None else None
    laid = _pictures(style, plan_table(game, view_data, seat, wanted, picture=True), targets)
    c = _Canvas(targets)
    bottom = _table(c, laid)
    _marks(c, game, arrows, highlights)
    return c.svg(c.width, bottom, title)


LEGEND_TEXT = 10.0
"""The legend's type size; its lines are LEGEND_LINE apart."""
LEGEND_LINE = 12.5
LEGEND_LABEL = 150.0
"""The widest a legend label may be before it wraps (between words only)."""


def _legend_columns(names: list[str], icon: float, gap: float) -> tuple[int, float]:
    """How many columns the legend has, and how wide a label may be: as many columns as
    leave every name room in at most three lines, no word of it wider than a line (at
    most six columns; one when even that fails)."""
    widest_word = max([text_width(w, LEGEND_TEXT) for n in names for w in n.split()] + [1.0])
    widest = max([text_width(n, LEGEND_TEXT) for n in names] + [1.0])
    for per_row in range(6, 0, -1):
        label = (WIDTH - 20 + gap) / per_row - icon - gap
        if per_row == 1 or (label >= widest_word and label >= min(widest, 90.0) and all(
                len(wrap_words(n, label, LEGEND_TEXT)) <= 3 for n in names)):
            return per_row, min(label, max(widest, widest_word))
    return 1, WIDTH - 20 - icon  # pragma: no cover


def legend_svg(game: Game, pieces: list[dict[str, Any]], title: str) -> str:
    """One of each kind of piece, with its name (for the components section). The items
    stand in columns as wide as the widest label needs (labels wrap between words, never
    inside one), so no label runs into the next piece."""
    style = PieceStyle(game)
    c = _Canvas()
    icon, gap = (60.0 if style.cards else 44.0), 16.0
    names = [(p, style.name(p), style.face(p)) for p in pieces]
    per_row, label = _legend_columns([n for _, n, _ in names], icon, gap)
    items: list[tuple[dict[str, Any], list[tuple[str, float]]]] = []
    for p, name, face in names:
        lines = wrap_words(name, label, LEGEND_TEXT)
        if face:
            lines.append(face)
        # a word wider than a line is shrunk to fit, never broken
        items.append((p, [(line, min(LEGEND_TEXT, label / max(
            text_width(line, 1.0), 0.1))) for line in lines]))
    column = (WIDTH - 20 + gap) / per_row
    tall = 82.0 if style.cards else 44.0
    y = 8.0
    for start in range(0, len(items), per_row):
        row = items[start:start + per_row]
        height = max([tall] + [len(lines) * LEGEND_LINE + 8 for _, lines in row])
        for col, (p, lines) in enumerate(row):
            gx = 10 + col * column
            middle = y + height / 2
            if style.shape_of(p) == "card":  # read by what is printed on it: large
                c.piece(style, p, gx + 26, middle + 38, 16, 69)
            elif style.is_pyramid(p) or style.paneled(p):
                c.piece(style, p, gx + 20, middle + 17, 16, 34)
            else:  # a tile (a die): as tall as a pyramid's middle
                c.piece(style, p, gx + 20, middle + 12, 22, 24)
            first = middle - (len(lines) - 1) * LEGEND_LINE / 2 + 3.5
            for k, (line, size) in enumerate(lines):
                c.text(gx + icon, first + k * LEGEND_LINE, line, size=size)
        y += height + 10
    return c.svg(WIDTH, y + 2, title)
