"""The rulebook's pictures for any ruleset: pieces in the ruleset's own colours and glyphs
(``colours:`` and ``glyphs:`` beside ``styles:``, checked where they are written), labels
that fit their tiles, legends whose labels never run into a piece or each other, colours
far enough apart to tell the values apart (a clear piece is not a white one), and ink
that reads on every fill."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from interpreter.api import load_game
from interpreter.assemble.game import compile_game
from interpreter.docs.diagrams import (
    COLOURS,
    HIDDEN,
    PALETTE,
    UNKNOWN,
    PieceStyle,
    _Canvas,
    colour_distance,
    contrast,
    fit_text,
    ink_for,
    legend_svg,
    text_width,
    wrap_words,
)
from interpreter.errors import RulesetError
from interpreter.load.loader import load_ruleset_text
from interpreter.play.game import Game

ROOT = Path(__file__).parent.parent
GAMES = [*(ROOT / "rulesets" / f"{name}.yaml" for name in (
    "caldera", "bottoms-up", "high-rise", "aquarium", "aquarius-rising")),
    ROOT / "benchmarks" / "rulesets" / "tic-tac-toe.yaml"]

WORDS = """
tabletop: 1
game:
  name: words
  title: Words
  designer: Tabletop tests
  seats: {min: 2, max: 2}
  summary: Marks that are whole words.
pieces:
  attributes:
    mark:
      values: [cross, nought, triangle]
      COLOURS
  sets:
    - {id: marks, each: {mark: [cross, nought, triangle]}, count: 2, start: supply}
zones:
  - {id: board, label: The grid, kind: grid, rows: 3, cols: 3}
  - {id: supply, label: Marks left, kind: pile}
turn:
  - choose: "mark a square"
    options:
      - id: mark
        for:
          square: cells(board)
        where: empty(square)
        notation: "{place_name(square)}"
        do:
          - move: first(pieces(supply))
            to: square
end:
  - {id: full, when: "len(pieces(supply)) == 0", winners: "[]"}
"""


def words(extra: str = "") -> Game:
    """A game whose marks are words, with no colour, style or short form of their own
    (unless `extra` gives some)."""
    return compile_game(load_ruleset_text(WORDS.replace("COLOURS", extra), "words.yaml"))


def game_at(path: Path) -> Game:
    return load_game(path)


def kinds(game: Game) -> list[dict]:
    """One of each kind of piece, as the rulebook's legend shows them."""
    seen: dict[tuple, dict] = {}
    for p in range(game.n_pieces):
        piece = {a: game.attributes[a][p] for a in game.attribute_order
                 if game.attributes[a][p] is not None}
        seen.setdefault(tuple(sorted((k, str(v)) for k, v in piece.items())), piece)
    return list(seen.values())


# -- colours and glyphs of the ruleset's own ---------------------------------------------

def test_a_value_is_drawn_in_the_colour_and_glyph_the_ruleset_gives() -> None:
    game = words("colours: {cross: '#123456', nought: '#F0A'}\n"
                 "      glyphs: {cross: ✕, triangle: △}")
    style = PieceStyle(game)
    assert style.colour_attr == "mark"
    assert style.fill({"mark": "cross"}) == "#123456"
    assert style.fill({"mark": "nought"}) == "#ff00aa"  # #RGB, written out
    assert style.glyph({"mark": "cross"}) == "✕"
    assert style.glyph({"mark": "nought"}) == "nought"  # no glyph, no short form
    svg = legend_svg(game, kinds(game), "legend")
    assert 'fill="#123456"' in svg and ">✕</text>" in svg and ">△</text>" in svg


def test_a_colour_given_beats_the_values_name_and_style() -> None:
    game = words("colours: {cross: navy}\n      styles: {cross: bold red}")
    assert PieceStyle(game).fill({"mark": "cross"}) == COLOURS["navy"]


@pytest.mark.parametrize("extra, message, line", [
    ("colours: {cross: octarine}", r"'octarine' is not a colour: write #RRGGBB", 13),
    ("colours: {cross: '#12345'}", r"'#12345' is not a colour", 13),
    ("colours: {circle: red}", r"colours gives 'circle', which is not one of this "
                               r"attribute's values \(cross, nought, triangle\)", 12),
    ("glyphs: {cross: ''}", r"at least 1 character", 13),
    ("glyphs: {cross: crosses}", r"at most 4 characters", 13),
])
def test_a_wrong_colour_or_glyph_is_a_located_error(extra: str, message: str,
                                                     line: int) -> None:
    with pytest.raises(RulesetError) as caught:
        words(extra)
    text = str(caught.value)
    assert re.search(message, text), text
    assert f"words.yaml:{line}:" in text


def test_values_without_colours_take_the_palette_never_one_grey() -> None:
    style = PieceStyle(words())
    fills = [style.fill({"mark": v}) for v in ("cross", "nought", "triangle")]
    assert len(set(fills)) == 3
    assert fills == PALETTE[:3]
    assert UNKNOWN not in fills and HIDDEN not in fills


# -- labels that fit ---------------------------------------------------------------------

@pytest.mark.parametrize("text", ["S", "L", "gr", "X", "cross", "nought", "triangle",
                                  "rainbow1$0", "WWW"])
@pytest.mark.parametrize("width", [6.0, 9.0, 14.0, 20.0, 40.0])
def test_a_fitted_label_fits(text: str, width: float) -> None:
    fitted, size = fit_text(text, width, 12.0)
    if fitted:
        assert text_width(fitted, size, bold=True) <= width + 1e-9
        assert size <= 12.0
        assert fitted == text or fitted == text[0]
    if fitted == text[0] and text != text[0]:  # shortened only when too small to read
        assert text_width(text, 6.0, bold=True) > width


def test_word_marks_fit_their_tiles() -> None:
    """`cross` and `nought` on a small tile: shrunk or shortened, never spilling out."""
    game = words()
    style = PieceStyle(game)
    for unit in (8.0, 12.0, 16.0, 30.0):
        for mark in ("cross", "nought", "triangle"):
            c = _Canvas()
            c.piece(style, {"mark": mark}, 50, 50, unit, 40)
            svg = "".join(c.parts)
            side = float(re.search(r'<rect [^>]*? width="([\d.]+)"', svg).group(1))
            label = re.search(r'font-size="([\d.]+)"[^>]*>([^<]+)</text>', svg)
            assert label, svg
            assert text_width(label.group(2), float(label.group(1)), bold=True) <= side - 3


def test_pyramid_letters_stay_inside_the_pyramid() -> None:
    game = game_at(GAMES[2])  # high-rise: small, medium and large pyramids
    style = PieceStyle(game)
    for size in (1, 2, 3):
        c = _Canvas()
        c.piece(style, {"colour": "red", "size": size}, 100, 100, 12, 26)
        svg = "".join(c.parts)
        xs = [float(v) for v in re.findall(r"([\d.]+),100\b", svg)]
        half = (max(xs) - min(xs)) / 2
        label = re.search(r'y="([\d.]+)" font-size="([\d.]+)"[^>]*>([^<]+)</text>', svg)
        assert label, svg
        base, font, text = 100 - float(label.group(1)), float(label.group(2)), label.group(3)
        top = base + font * 0.74  # how high the letters reach above the foot
        room = 2 * half * (1 - top / 26)
        assert text_width(text, font, bold=True) <= room


def test_words_wrap_between_words_only() -> None:
    lines = wrap_words("Water-Space over Air-Earth card", 80, 10)
    assert " ".join(lines) == "Water-Space over Air-Earth card"
    assert all(" " not in line or text_width(line, 10) <= 80 for line in lines)
    assert wrap_words("Supercalifragilistic", 20, 10) == ["Supercalifragilistic"]


# -- legends that never overlap ----------------------------------------------------------

def boxes(svg: str) -> tuple[list[tuple[float, float, float, float]],
                             list[tuple[float, float, float, float, str]]]:
    """The pieces' shapes (x0, y0, x1, y1) and the labels beside them (and their text) in
    a legend."""
    shapes = []
    for attrs in re.findall(r"<(?:rect|polygon)\b([^>]*)>", svg):
        if 'width="720"' in attrs:
            continue  # the background
        if "points=" in attrs:
            pts = [tuple(map(float, p.split(","))) for p in
                   re.search(r'points="([^"]*)"', attrs).group(1).split()]
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            shapes.append((min(xs), min(ys), max(xs), max(ys)))
        else:
            v = {k: float(n) for k, n in re.findall(r'\b(x|y|width|height)="([\d.-]+)"', attrs)}
            shapes.append((v["x"], v["y"], v["x"] + v["width"], v["y"] + v["height"]))
    labels = []
    for x, y, size, text in re.findall(
            r'<text x="([\d.]+)" y="([\d.]+)" font-size="([\d.]+)" text-anchor="start"'
            r'[^>]*>([^<]*)</text>', svg):
        x0, base, s = float(x), float(y), float(size)
        labels.append((x0, base - s * 0.76, x0 + text_width(text, s), base + s * 0.24, text))
    return shapes, labels


def overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_legend_labels_touch_no_piece_and_no_other_label(path: Path) -> None:
    game = game_at(path)
    svg = legend_svg(game, kinds(game), "legend")
    shapes, labels = boxes(svg)
    assert labels and shapes
    for label in labels:
        assert label[2] <= 720, label
        for shape in shapes:
            assert not overlap(label, shape), (label, shape)
    for a, b in itertools.combinations(labels, 2):
        assert not overlap(a, b), (a, b)
    # each name is whole: its words, in order, on one item's lines
    names = {PieceStyle(game).name(p) for p in kinds(game)}
    text = " ".join(label[4] for label in labels)
    assert all(name in text for name in names)


def test_a_legend_of_long_names_wraps_them_and_keeps_them_apart() -> None:
    game = words()
    names = [{"mark": v} for v in ("cross", "nought", "triangle")]
    svg = legend_svg(game, names, "legend")
    shapes, labels = boxes(svg)
    for label in labels:
        assert not any(overlap(label, shape) for shape in shapes)


# -- colours apart, ink that reads -------------------------------------------------------

@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_games_colours_are_told_apart(path: Path) -> None:
    """Any two values of the colouring attribute differ by ΔE ≥ 20, or one of them is
    see-through (drawn translucent, with a dashed outline) and the other is not."""
    game = game_at(path)
    style = PieceStyle(game)
    assert style.colour_attr is not None
    paints = {v: style.value_paint(style.colour_attr, v)
              for v in style.attrs[style.colour_attr].values}
    for (u, p), (v, q) in itertools.combinations(paints.items(), 2):
        assert colour_distance(p.colour, q.colour) >= 20 or p.clear != q.clear, (u, v)


def test_clear_is_not_white() -> None:
    game = game_at(GAMES[2])  # high-rise has both
    style = PieceStyle(game)
    clear, white = style.value_paint("colour", "clear"), style.value_paint("colour", "white")
    assert clear.clear and not white.clear
    assert "stroke-dasharray" in clear.attrs() and "fill-opacity" in clear.attrs()
    assert "stroke-dasharray" not in white.attrs()
    c = _Canvas()
    c.piece(style, {"colour": "clear", "size": 3}, 50, 50, 16, 34)
    assert "stroke-dasharray" in "".join(c.parts)


@pytest.mark.parametrize("fill", sorted({*COLOURS.values(), *PALETTE, HIDDEN, UNKNOWN}))
def test_ink_reads_on_every_fill(fill: str) -> None:
    assert contrast(ink_for(fill), fill) >= 4.5  # WCAG AA for text


def test_palette_colours_are_apart() -> None:
    for a, b in itertools.combinations(PALETTE, 2):
        assert colour_distance(a, b) >= 20, (a, b)


def test_the_same_legend_twice_is_the_same_document() -> None:
    game = game_at(GAMES[-1])
    assert legend_svg(game, kinds(game), "x") == legend_svg(game, kinds(game), "x")


@pytest.mark.parametrize("code", ["", "a", "rainbow1$0", "y2$3"])
def test_a_card_is_drawn_whatever_its_code(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card whose code is empty (its attributes have no short codes) is drawn by its
    band and face: it was divided by the code's width, zero, and the rulebook stopped.
    Its face is drawn from its data (pieces.card), so its code does not matter."""
    game = load_game("aquarium")
    style = PieceStyle(game)
    monkeypatch.setattr(PieceStyle, "code", lambda self, piece: code)
    c = _Canvas()
    c.card(style, {"kind": "fish", "colour": "red"}, 50.0, 100.0, 40.0, "#ffffff", "")
    svg = "".join(c.parts)
    assert svg.count("<rect") == 1 and svg.count("<path") == 1  # the card and its band
    drawn = " ".join(re.findall(r">([^<>]*)</text>", svg))
    assert "red" in drawn and "fish" in drawn  # its face (its name), never its code
    assert code not in drawn.split()
