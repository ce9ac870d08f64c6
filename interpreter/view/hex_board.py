"""Hex boards in the terminal: rows of hexes, each row half a hex to the right of the
row below it, as the board lies on the table.

A hex board's rows are horizontal and count upward (row 1 at the bottom); its columns
lean to the right going up, so the column letters are written under the bottom row and
over the top row, each at its hex, and every row has its number on its left.
"""

from __future__ import annotations

import string
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from interpreter.play.game import Game
from interpreter.run.view import board_cell
from interpreter.view.render import legend, stack_text, stacked


def hex_board(game: Game, title: str, data: dict[str, Any], colour: bool = True,
              compact: bool = False) -> RenderableType:
    """A hex board's places as offset rows of text; `compact` leaves the legend out (it
    goes with the piles, as a grid's does)."""
    places = data["places"]
    rows, cols = data["rows"], data["cols"]
    cells: dict[tuple[int, int], Text] = {}
    for name, place in places.items():
        rc = board_cell(name)
        if rc is not None:
            cells[rc] = stack_text(game, place, colour)
    widest = max([len(t.plain) for t in cells.values()] + [1])
    pitch = widest + 1 + (widest + 1) % 2  # even, so that half a hex is whole characters
    half = pitch // 2
    label = len(str(rows))
    lines = [Text(title, style="bold")]
    lines.append(_letters(cells, rows - 1, cols, half, pitch, label))
    for r in reversed(range(rows)):
        line = Text(" " * (r * half) + f"{r + 1:>{label}} ", style="dim")
        for c in range(cols):
            text = cells.get((r, c))
            if text is None:
                line.append(" " * pitch)
                continue
            room = pitch - 1 - len(text.plain)
            line.append(" " * (room // 2))
            line.append_text(text)
            line.append(" " * (room - room // 2 + 1))
        lines.append(line.rstrip() or line)
    lines.append(_letters(cells, 0, cols, half, pitch, label))
    if not compact:
        key = legend(game, stacked(places.values()), colour)
        lines += [key] if key.plain else []
    return Group(*lines)


def _letters(cells: dict[tuple[int, int], Text], r: int, cols: int, half: int, pitch: int,
             label: int) -> Text:
    """The column letters over (or under) row `r`'s hexes."""
    line = " " * (r * half + label + 1)
    for c in range(cols):
        letter = string.ascii_lowercase[c] if (r, c) in cells else " "
        room = pitch - 1
        line += " " * ((room - 1) // 2) + letter + " " * (room - (room - 1) // 2)
    return Text(line.rstrip(), style="dim")
