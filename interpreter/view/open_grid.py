"""Open grids in the terminal: the used part of an unbounded table (tiles, houses of cards).

A seat's view of an open grid lists only the squares that hold something, named "x,y".
The board drawn here is their bounding box plus a one-square margin (where pieces can go
next), x along the bottom and y up the side, so it grows with the game instead of
showing an 83×83 field. Pieces with panels (`pieces.panels`) show their regions as they
lie, each a letter in its value's style, so a player can check matches across edges;
pieces standing on a region (`standing_on`) show on it; each paneled piece in a stack
starts a story, and a house of several stories shows its top one on the board with the
number of stories, and every story in a list under the board.

The board is drawn line by line to fit the console's width: in full (a piece standing on
a region is written after its letter), else compact (one character per region, an
occupied region highlighted; colour terminals only), else in full folded into bands of
columns that overlap by one column, so every edge is seen whole somewhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.measure import Measurement
from rich.text import Text

from interpreter.play.game import Game
from interpreter.run.panels import PanelsInfo
from interpreter.view.render import legend, marked, piece_text, stack_text, stacked

STORIES = "≡"
"""Marks a house's number of stories in its square (≡3: three stories)."""

BORDER = "dim"
MAX_LOOSE_WIDTH = 6
"""The widest a square grows for pieces that are not drawn as panels (a plain stack)."""


@dataclass
class Story:
    """One paneled piece in a stack and what lies on it: the unit a house is built of."""

    piece: dict[str, Any] | None
    """The paneled piece (None: pieces below the first paneled one)."""
    on: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Region (position name, as the piece lies) → the pieces standing on it."""
    loose: list[dict[str, Any]] = field(default_factory=list)
    """Pieces on it that stand on no region (or that the seat may not see)."""


def has_panels(panels: PanelsInfo, piece: dict[str, Any]) -> bool:
    return not piece.get("hidden") and any(a in piece for a in panels.attributes)


def stories(panels: PanelsInfo | None, pieces: list[dict[str, Any]]) -> list[Story]:
    """A stack bottom to top, cut into stories: each paneled piece starts one; a piece
    whose `standing_on` names a region stands on the nearest paneled piece below it."""
    out: list[Story] = []
    regions = panels.positions if panels is not None else {}
    standing_on = panels.standing_on if panels is not None else None
    for p in pieces:
        if panels is not None and has_panels(panels, p):
            out.append(Story(p))
            continue
        if not out:
            out.append(Story(None))
        story = out[-1]
        region = p.get(standing_on) if standing_on else None
        if story.piece is not None and isinstance(region, str) and region in regions:
            story.on.setdefault(region, []).append(p)
        else:
            story.loose.append(p)
    return out


def coords(name: str) -> tuple[int, int] | None:
    """An open grid's square name "x,y" as numbers (None for anything else); a seat's
    own grid names its squares "x,y[seat]"."""
    x, _, y = name.partition("[")[0].partition(",")
    try:
        return int(x), int(y)
    except ValueError:
        return None


# -- drawing pieces ------------------------------------------------------------------------

class Drawer:
    """Draws paneled pieces, the pieces on them and whole squares, for one game."""

    def __init__(self, game: Game, colour: bool) -> None:
        self.game, self.colour = game, colour
        self.panels = game.panels

    def style(self, attr: str, value: Any) -> str:
        return (self.game.value_styles.get(attr, {}).get(value) or "") if self.colour else ""

    def letter(self, attr: str, value: Any) -> str:
        """A region's value as one character: its short form, else its name's first."""
        decl = self.game.ruleset.pieces.attributes.get(attr)
        short = decl.short.get(value) if decl is not None else None
        if short:
            return str(short)[0]
        name = decl.names.get(value, value) if decl is not None else value
        return (str(name)[:1] or "?").upper()

    def code(self, piece: dict[str, Any]) -> Text:
        """A piece standing on a region: its letter (at most two characters)."""
        text = piece_text(self.game, piece, self.colour)
        return text if len(text.plain) <= 2 else text[:1]

    def codes(self, pieces: list[dict[str, Any]]) -> Text:
        return Text("").join(self.code(p) for p in pieces)

    def region_width(self, squares: list[list[Story]]) -> int:
        """Full mode: a region's letter, then what stands on it (two characters at least,
        so a piece reads as a block)."""
        widest = max((len(self.codes(on).plain) for house in squares for s in house
                      for on in s.on.values()), default=0)
        return max(2, 1 + widest)

    def card(self, story: Story, width: int) -> list[Text]:
        """A paneled piece as it lies, a line per row of its layout. `width` 1: a letter
        per region, highlighted when something stands on it; wider: the letter, then
        what stands there, then the letter again to fill the width."""
        panels, piece = self.panels, story.piece
        assert panels is not None and piece is not None
        facing = piece.get(panels.facing, 0) if panels.facing else 0
        shown = panels.shown.get(facing, panels.layout) if type(facing) is int \
            else panels.layout
        gap = " " if width > 2 else ""  # wide regions (two-letter pieces): kept apart
        lines = []
        for r, row in enumerate(panels.layout):
            line = Text()
            for c, position in enumerate(row):
                if c:
                    line.append(gap)
                attr = shown[r][c]
                if position is None or attr is None or piece.get(attr) is None:
                    line.append(" " * width)
                    continue
                letter, style = self.letter(attr, piece[attr]), self.style(attr, piece[attr])
                on = story.on.get(position, [])
                if width == 1:
                    line.append(letter, style=f"{style} reverse" if on and self.colour
                                else style)
                    continue
                cell = Text.assemble((letter, style))
                cell.append_text(self.codes(on))
                cell.append(letter * (width - len(cell.plain)), style=style)
                line.append_text(cell)
            lines.append(line)
        return lines

    def inline(self, story: Story, width: int) -> Text:
        """A story on one line: its rows joined by '/', then any loose pieces."""
        if story.piece is None:
            return self.loose(story.loose)
        out = Text("/").join(line for line in self.card(story, width))
        if story.loose:
            out.append(" ")
            out.append_text(self.loose(story.loose))
        return out

    def loose(self, pieces: list[dict[str, Any]]) -> Text:
        return stack_text(self.game, {"pieces": pieces}, self.colour)

    def square(self, place: dict[str, Any], width: int) -> list[Text]:
        """What a square shows: its top story (or its stack), with the number of stories
        and any loose pieces on a line under it."""
        pieces = place.get("pieces")
        if pieces is None:
            return [stack_text(self.game, place, self.colour)]
        return [marked(line, place) for line in self._square(pieces, width)]

    def _square(self, pieces: list[dict[str, Any]], width: int) -> list[Text]:
        house = stories(self.panels, pieces)
        top = house[-1] if house else Story(None)
        if top.piece is None:
            return fold(self.loose(top.loose), MAX_LOOSE_WIDTH)
        lines = self.card(top, width)
        extra = Text()
        n = sum(1 for s in house if s.piece is not None)
        if n > 1:
            extra.append(f"{STORIES}{n}", style="bold" if self.colour else "")
        if top.loose:
            extra.append_text(self.loose(top.loose))
        if extra:
            lines.extend(fold(extra, max(len(lines[0].plain), MAX_LOOSE_WIDTH)))
        return lines


def fold(text: Text, width: int) -> list[Text]:
    """A text cut into lines of at most `width` characters."""
    plain = text.plain
    if len(plain) <= width:
        return [text]
    return list(text.divide(range(width, len(plain), width)))


# -- the board -------------------------------------------------------------------------------

@dataclass
class Layout:
    """How a board is drawn at one width: each square's lines, the width of a region
    (1: compact), of a column, and the bands of x coordinates drawn one under another."""

    cells: dict[tuple[int, int], list[Text]]
    region: int
    column: int
    bands: list[list[int]]


class OpenGridBoard:
    """The used part of an open grid as a board, with the houses' stories and the
    legends; drawn in full, compact or folded, whichever fits the console."""

    def __init__(self, game: Game, data: dict[str, Any], colour: bool,
                 legends: bool = True) -> None:
        self.drawer = Drawer(game, colour)
        self.colour = colour
        self.legends = legends
        """Whether the legends are drawn under the board (else: OpenGridLegend)."""
        self.places: dict[tuple[int, int], dict[str, Any]] = {}
        for name, place in data.get("places", {}).items():
            at = coords(name)
            if at is not None:
                self.places[at] = place
        reach = data.get("reach")
        xs = [x for x, _ in self.places] or [0]
        ys = [y for _, y in self.places] or [0]
        lo, hi = (-reach, reach) if isinstance(reach, int) else (-10**9, 10**9)
        self.xs = list(range(max(min(xs) - 1, lo), min(max(xs) + 1, hi) + 1))
        self.ys = list(range(min(max(ys) + 1, hi), max(min(ys) - 1, lo) - 1, -1))
        self.houses = {at: stories(game.panels, p["pieces"]) for at, p in self.places.items()
                       if "pieces" in p}
        self.full = self.drawer.region_width(list(self.houses.values()))
        self.tall = {at: house for at, house in self.houses.items()
                     if sum(1 for s in house if s.piece is not None) > 1}
        """The houses of several stories."""

    def layout(self, max_width: int) -> Layout:
        """Full if it fits, else compact (colour only: its marks are highlights), else
        full in bands of equal size, each band's last column the next one's first, so
        that every edge between two squares is seen whole in some band."""
        tries = [self.full] + ([1] if self.colour and self.full > 1 else [])
        for region in tries:
            cells = {at: self.drawer.square(place, region) for at, place in self.places.items()}
            column = self.column_width(cells)
            if self.board_width(len(self.xs), column) <= max_width:
                return Layout(cells, region, column, [self.xs])
        cells = {at: self.drawer.square(place, self.full) for at, place in self.places.items()}
        column = self.column_width(cells)
        fits = max(2, (max_width - self.axis_width() - 1) // (column + 1))
        if len(self.xs) <= fits:
            return Layout(cells, self.full, column, [self.xs])
        count = -(-(len(self.xs) - 1) // (fits - 1))
        step = -(-(len(self.xs) - 1) // count)
        bands = [self.xs[i:i + step + 1] for i in range(0, len(self.xs) - 1, step)]
        return Layout(cells, self.full, column, bands)

    def axis_width(self) -> int:
        return max(len(str(y)) for y in self.ys) + 1

    def column_width(self, cells: dict[tuple[int, int], list[Text]]) -> int:
        drawn = max((len(line.plain) for lines in cells.values() for line in lines),
                    default=1)
        return max(drawn, max(len(str(x)) for x in self.xs))

    def board_width(self, columns: int, column: int) -> int:
        return self.axis_width() + 1 + columns * (column + 1)

    def __rich_console__(self, console: Console, options: ConsoleOptions
                         ) -> Iterator[RenderableType]:
        shape = self.layout(options.max_width)
        for i, xs in enumerate(shape.bands):
            if i:
                yield Text("")
            yield from self.band(shape.cells, shape.column, xs)
        yield from self.houses_text()
        if self.legends:
            yield from OpenGridLegend(self).__rich_console__(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        shape = self.layout(options.max_width)
        widest = max(self.board_width(len(xs), shape.column) for xs in shape.bands)
        return Measurement(min(widest, options.max_width), options.max_width)

    def band(self, cells: dict[tuple[int, int], list[Text]], column: int,
             xs: list[int]) -> Iterator[Text]:
        """Board lines for the columns `xs`: top row = highest y, x labels under it. A
        row as tall as its tallest square (a paneled piece's layout at least); a row of
        empty squares (the margin) one line."""
        axis = self.axis_width()
        pad = " " * axis
        panels = self.drawer.panels
        least = len(panels.layout) if panels is not None else 1

        def rule(left: str, mid: str, right: str) -> Text:
            return Text(pad + left + mid.join("─" * column for _ in xs) + right, style=BORDER)
        yield rule("┌", "┬", "┐")
        for n, y in enumerate(self.ys):
            if n:
                yield rule("├", "┼", "┤")
            drawn = [cells.get((x, y), []) for x in xs]
            tallest = max(len(lines) for lines in drawn)
            height = max(least, tallest) if tallest else 1
            for i in range(height):
                label = str(y) if i == (height - 1) // 2 else ""
                line = Text.assemble((label.rjust(axis - 1) + " ", "dim"), ("│", BORDER))
                for lines in drawn:
                    line.append_text(centred(lines, i, column))
                    line.append("│", style=BORDER)
                yield line
        yield rule("└", "┴", "┘")
        yield Text(pad + " " + " ".join(str(x).center(column) for x in xs), style="dim")

    def houses_text(self) -> list[Text]:
        """Every story of each house of several stories, bottom first (the board shows
        only the top one): "0,0  1 W2W2/E2E2  2 FFSS/AAWW"."""
        names = max((len(f"{x},{y}") for x, y in self.tall), default=0)
        out = []
        for (x, y), house in sorted(self.tall.items(), key=lambda kv: (-kv[0][1], kv[0][0])):
            line = Text.assemble((f"  {f'{x},{y}':>{names}}", "bold"))
            n = 0
            for story in house:
                if story.piece is not None:
                    n += 1
                    line.append(f"  {n} ", style="dim")
                else:
                    line.append("  under ", style="dim")
                line.append_text(self.drawer.inline(story, self.full))
            out.append(line)
        if out:
            out.insert(0, Text("Houses of several stories, bottom story first:", style="bold"))
        return out

    def legend(self, compact: bool) -> Text:
        """How to read the board: the axes, and for pieces with panels the region
        letters, what stands on them, and the stories."""
        game, panels = self.drawer.game, self.drawer.panels
        text = Text("x runs east, y north", style="dim")
        if panels is not None:
            keys: dict[str, str] = {}
            decls = game.ruleset.pieces.attributes
            for attr in panels.attributes:
                decl = decls.get(attr)
                names = decl.names if decl is not None else {}
                for value in decl.values if decl is not None else []:
                    keys.setdefault(self.drawer.letter(attr, value), str(names.get(value, value)))
            text.append("; regions as they lie", style="dim")
            if keys:
                text.append(" (" + ", ".join(f"{k} {v}" for k, v in keys.items()) + ")",
                            style="dim")
            if panels.standing_on:
                text.append("; a highlighted region has a piece standing on it (a wider "
                            "screen shows which)" if compact else
                            "; a piece standing on a region follows its letter", style="dim")
            if self.tall:
                text.append(f"; {STORIES}2: two stories, the top one shown", style="dim")
        text.append(".", style="dim")
        return text


class OpenGridLegend:
    """A board's legends on their own, to go with the piles when the screen is short of
    lines (they are what is left out first)."""

    def __init__(self, board: OpenGridBoard) -> None:
        self.board = board

    def __rich_console__(self, console: Console, options: ConsoleOptions
                         ) -> Iterator[RenderableType]:
        board = self.board
        key = legend(board.drawer.game, stacked(board.places.values()), board.colour)
        if key.plain:
            yield key
        yield board.legend(compact=board.layout(options.max_width).region == 1
                           and board.full > 1)


def centred(lines: list[Text], i: int, width: int) -> Text:
    """Line `i` of a square's drawing, the drawing centred as a block in `width`."""
    block = max((len(line.plain) for line in lines), default=0)
    left = (width - block) // 2
    text = Text(" " * left)
    if i < len(lines):
        text.append_text(lines[i])
    text.append(" " * (width - len(text.plain)))
    return text


def open_grid_renderable(game: Game, title: str, data: dict[str, Any],
                         colour: bool = True, legends: bool = True
                         ) -> tuple[RenderableType, OpenGridLegend | None]:
    """An open grid zone: its title, then the board with its stories, and its legends
    (under the board, or apart when not `legends`: then they are returned too)."""
    heading = Text(title, style="bold")
    if not data.get("places"):
        heading.append("  (nothing on it yet)", style="dim")
        return heading, None
    board = OpenGridBoard(game, data, colour, legends)
    return Group(heading, board), None if legends else OpenGridLegend(board)
