"""Pictures of the table for the PettingZoo environments: what a spectator sees, as the
text of `tabletop play` (`ansi`, `human`) or as the browser table's SVG drawing
rasterised to an RGB array (`rgb_array`, what video recorders take).

Frames of one environment all have the same shape (a video needs it): the width and
height are fixed when the environment is made, from the drawing of the set-up position,
and a later position drawn taller or wider is scaled down to fit, centred on white.
"""

from __future__ import annotations

import io
import math
import re

import numpy as np

from interpreter.adapters.encoding import seat_view
from interpreter.docs.diagrams import position_svg
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import SPECTATOR

_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)"[^>]*?\bheight="([\d.]+)"')


def table_text(game: Game, state: State) -> str:
    """The table as a spectator sees it: the `tabletop play` screen without colour."""
    from rich.console import Console

    from interpreter.view.render import render_view

    console = Console(width=100, record=True, file=io.StringIO())
    console.print(render_view(game, seat_view(game, state, SPECTATOR), colour=False))
    return console.export_text().replace(f" (you are {game.seat_name(SPECTATOR)})", "", 1)


def table_svg(game: Game, state: State) -> str:
    """The table as a spectator sees it, drawn as the rulebook's and the browser's
    pictures are (`interpreter.docs.diagrams.position_svg`)."""
    return position_svg(game, seat_view(game, state, SPECTATOR), game.title)


def svg_size(svg: str) -> tuple[float, float]:
    """(width, height) of an SVG document drawn by `position_svg`."""
    found = _SIZE.search(svg)
    if found is None:
        raise ValueError("the table drawing has no width and height")
    return float(found.group(1)), float(found.group(2))


def rasterise(svg: str, width: int, height: int) -> np.ndarray:
    """`svg` drawn on white into a (height, width, 3) uint8 array: scaled to fit, keeping
    its proportions, centred."""
    try:
        import resvg_py
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("rgb_array rendering needs resvg-py, in the 'pettingzoo' extra: "
                          "pip install 'tabletop[pettingzoo]'") from exc

    w, h = svg_size(svg)
    drawn_w = max(1, min(width, math.floor(w * min(width / w, height / h))))
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=drawn_w, background="#ffffff"))
    picture = _decode_png(png)[:height, :width]  # (rounding may add a row)
    frame = np.full((height, width, 3), 255, np.uint8)
    top, left = (height - picture.shape[0]) // 2, (width - picture.shape[1]) // 2
    frame[top:top + picture.shape[0], left:left + picture.shape[1]] = picture
    return frame


def _decode_png(png: bytes) -> np.ndarray:
    """A PNG (drawn on an opaque background) as an RGB array."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), np.uint8)


class Frames:
    """`rgb_array` frames of one game at one seat count, all of one shape."""

    def __init__(self, game: Game, players: int, width: int) -> None:
        self.game = game
        w, h = svg_size(table_svg(game, game.new_state(players, 0)))
        self.width = width
        self.height = math.ceil(h * width / w)

    @property
    def shape(self) -> tuple[int, int, int]:
        return (self.height, self.width, 3)

    def frame(self, state: State) -> np.ndarray:
        return rasterise(table_svg(self.game, state), self.width, self.height)
