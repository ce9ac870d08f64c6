"""The rulebook's pictures of tile-laying and stacking games: pieces with panels drawn as
they lie (each region in its value's colour), what stands on a region, open grids over
the part in use, houses of several stories from above and from the side (to scale, by
the rule of altitude()), and worked examples built from scenario cases
(tests/rulesets/houses.yaml and its tests file; tests/rulesets/tiles.yaml)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from interpreter.api import load
from interpreter.assemble.game import compile_game
from interpreter.docs import sideview
from interpreter.docs.build import environment, load_all, render_game
from interpreter.docs.diagrams import (
    COLOURS,
    PieceStyle,
    _Canvas,
    legend_svg,
    position_svg,
    style_colour,
)
from interpreter.docs.rulebook import Rulebook, build_rulebook
from interpreter.errors import RulesetError
from interpreter.play.game import Game
from interpreter.run.panels import altitude
from interpreter.run.state import State
from interpreter.run.view import SPECTATOR, view
from interpreter.scenarios.runner import _run, load_scenario_file
from interpreter.simulate.playout import make_agents, play_game

HERE = Path(__file__).parent
RULESETS = HERE / "rulesets"
TILES = RULESETS / "tiles.yaml"
HOUSES = RULESETS / "houses.yaml"

RED, BLUE, GREEN = COLOURS["red"], COLOURS["blue"], COLOURS["green"]


@pytest.fixture(scope="module")
def tiles() -> Game:
    return compile_game(load(TILES))


@pytest.fixture(scope="module")
def houses() -> Game:
    return compile_game(load(HOUSES))


@pytest.fixture(scope="module")
def book() -> Rulebook:
    return build_rulebook(load(HOUSES))


def case_state(name: str) -> tuple[Game, State]:
    """The position of a case of houses.tests.yaml, after its moves."""
    suite = load_scenario_file(RULESETS / "houses.tests.yaml")
    prepared = next(p for p in suite.cases if p.case.name == name)
    _, state = _run(prepared)
    return prepared.game, state


def piece(game: Game, code: str, **values: Any) -> dict[str, Any]:
    """A piece as a view describes it, by its code, with per-piece values."""
    p = game.piece_codes.index(code)
    out = {a: game.attributes[a][p] for a in game.attribute_order
           if game.attributes[a][p] is not None}
    return {**out, **values}


def fills(svg: str) -> list[str]:
    """The fills of the regions drawn (panels are polygons with a white outline)."""
    return re.findall(r'<polygon points="[^"]*" fill="(#[0-9a-f]{6})" stroke="#ffffff"', svg)


# -- colours ------------------------------------------------------------------------------

@pytest.mark.parametrize("style, colour", [
    ("bold red", COLOURS["red"]),
    ("bold white on grey30", "#4c4c4c"),
    ("italic cyan", COLOURS["cyan"]),
    ("bright_green", COLOURS["green"]),
    ("bold #123456", "#123456"),
    ("bold", None),
    ("bold octarine", None),
    (None, None),
])
def test_a_terminal_style_gives_the_pictures_colour(style: str | None,
                                                     colour: str | None) -> None:
    assert style_colour(style) == colour


def test_panels_are_filled_with_their_values_style_colours(houses: Game) -> None:
    c = _Canvas()
    style = PieceStyle(houses)
    c.panel_card(style, piece(houses, "FWEF"), 0, 0, 100, 100)
    svg = "".join(c.parts)
    assert fills(svg) == [RED, BLUE, GREEN, RED]  # tl, tr, bl, br
    assert [t for t in re.findall(r">([A-Z])</text>", svg)] == ["F", "W", "E", "F"]


def test_values_without_a_colour_take_the_palette_by_their_place(tiles: Game) -> None:
    style = PieceStyle(tiles)
    colours = {v: style.value_colour("n", v) for v in ("road", "field", "city")}
    assert len(set(colours.values())) == 3


# -- a piece as it lies -----------------------------------------------------------------

def test_a_turned_card_shows_its_regions_turned(houses: Game) -> None:
    style = PieceStyle(houses)
    c = _Canvas()
    c.panel_card(style, piece(houses, "FWEF", facing=180), 0, 0, 100, 100)
    svg = "".join(c.parts)
    # upright F W / E F; turned round, what was bottom right shows top left
    assert fills(svg) == [RED, GREEN, BLUE, RED]
    assert "turned 180°" in svg
    # the dot that marks the upright top-left corner is now bottom right
    dot = re.search(r'<circle cx="([\d.]+)" cy="([\d.]+)"', svg)
    assert dot and float(dot.group(1)) > 90 and float(dot.group(2)) > 90


def test_a_square_tile_turns_its_edges_clockwise(tiles: Game) -> None:
    style = PieceStyle(tiles)
    start = piece(tiles, "CRFR")  # n city, e road, s field, w road
    colour = {v: style.value_colour("n", v) for v in ("road", "field", "city")}
    for facing, edges in [(0, "city road field road"), (90, "road city road field")]:
        c = _Canvas()
        c.panel_card(style, {**start, "facing": facing}, 0, 0, 90, 90)
        # an edge tile's regions are triangles, drawn n, w, e, s (the layout's order)
        n, e, s, w = edges.split()
        assert fills("".join(c.parts)) == [colour[n], colour[w], colour[e], colour[s]]


def house_svg(style: PieceStyle, pieces: list[dict[str, Any]], size: float = 100) -> str:
    c = _Canvas()
    assert c.house(style, pieces, 0, 0, size)
    return "".join(c.parts)


def marker_centres(svg: str, name: str) -> list[tuple[float, float]]:
    """Centres of the markers (pieces seen from above) titled `name`."""
    out = []
    for m in re.finditer(r'<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" '
                         r'height="([\d.]+)"[^>]*><title>' + re.escape(name), svg):
        x, y, w, h = map(float, m.groups())
        out.append((x + w / 2, y + h / 2))
    for m in re.finditer(r'<circle cx="([\d.-]+)" cy="([\d.-]+)" r="[\d.]+"[^>]*><title>'
                         + re.escape(name), svg):
        out.append((float(m.group(1)), float(m.group(2))))
    return out


def test_pyramids_stand_on_their_quarters_bigger_as_they_are(houses: Game) -> None:
    style = PieceStyle(houses)
    svg = house_svg(style, [piece(houses, "FFWW"), piece(houses, "r1", quarter="tl"),
                            piece(houses, "b3", quarter="br")])
    [(x1, y1)] = marker_centres(svg, "red small pyramid")
    [(x3, y3)] = marker_centres(svg, "blue large pyramid")
    assert x1 < 50 and y1 < 50 and x3 > 50 and y3 > 50
    sides = [float(w) for w in re.findall(r'<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" '
                                          r'height="[\d.]+" fill="#[0-9a-f]{6}" stroke="#1',
                                          svg)]
    assert len(sides) == 2 and sides[0] < sides[1]
    assert "stories" not in svg  # one story: no badge


def test_a_follower_stands_on_its_edge(tiles: Game) -> None:
    svg = house_svg(PieceStyle(tiles), [piece(tiles, "CRFR", facing=90),
                                        piece(tiles, "follower", region="e")])
    [(x, y)] = marker_centres(svg, "follower")
    assert x > 55 and abs(y - 50) < 5


def test_a_house_of_several_stories_shows_its_top_story_and_a_badge(houses: Game) -> None:
    game, state = case_state("a house of three stories")
    pieces = view(game, state, SPECTATOR)["zones"]["table"]["places"]["0,0"]["pieces"]
    svg = house_svg(PieceStyle(game), pieces)
    assert ">3 stories<" in svg
    # the top story (the Earth card) with the large green pyramid; the pyramids below
    # it are covered
    assert set(fills(svg)) == {GREEN}
    assert len(marker_centres(svg, "green large pyramid")) == 1
    assert not marker_centres(svg, "red small pyramid")


# -- open grids --------------------------------------------------------------------------

def labels(svg: str) -> set[str]:
    return set(re.findall(r">([^<>]+)</text>", svg))


def test_an_open_grid_is_drawn_over_its_used_squares_and_one_more(tiles: Game) -> None:
    state = tiles.new_state(2, seed=1)
    svg = position_svg(tiles, view(tiles, state, SPECTATOR), "start")
    assert {"-1", "0", "1"} <= labels(svg) and "-2" not in labels(svg)
    assert "-7" not in labels(svg)
    assert svg.count('stroke-dasharray="3,3"') == 8  # the table around the one tile
    assert "x → east, y ↑ north" in svg


def test_an_open_grid_grows_with_the_game(tiles: Game) -> None:
    state = play_game(tiles, 2, 5, make_agents(2, 5)).final_state
    table = view(tiles, state, SPECTATOR)["zones"]["table"]["places"]
    xs = [int(n.split(",")[0]) for n in table]
    ys = [int(n.split(",")[1]) for n in table]
    svg = position_svg(tiles, view(tiles, state, SPECTATOR), "end")
    cols = max(xs) - min(xs) + 3
    rows = max(ys) - min(ys) + 3
    assert svg.count('stroke-dasharray="3,3"') == cols * rows - len(table)
    assert {str(min(xs) - 1), str(max(xs) + 1), str(min(ys) - 1)} <= labels(svg)
    assert svg.count("<title>") - 1 >= len(table)  # every tile (and follower) is drawn


def test_an_empty_open_grid_says_so(houses: Game) -> None:
    state = houses.blank_state(2, 0)
    svg = position_svg(houses, view(houses, state, SPECTATOR), "nothing", zones=["table"])
    assert "The table · empty" in svg and ">empty<" in svg


def test_pictures_of_a_game_without_panels_are_unchanged() -> None:
    """Caldera's set-up is drawn as before (the committed rulebook checks it byte for
    byte); here only that no panel picture appears."""
    from interpreter.api import load_game
    game = load_game("caldera")
    svg = position_svg(game, view(game, game.new_state(2, 1), SPECTATOR), "c")
    assert 'stroke="#ffffff" stroke-width="0.8"' not in svg
    assert "stories" not in svg


# -- side views ---------------------------------------------------------------------------

def test_side_views_stack_pieces_by_the_rule_of_altitude(houses: Game, tiles: Game) -> None:
    """Every stack of the scenario positions and of random games, laid out by the side
    view from the spectator's view, has the altitudes the engine's altitude() gives."""
    states = [case_state(c) for c in ("a house of three stories", "a pyramid goes up")]
    for game in (houses, tiles):
        for seed in range(6):
            states.append((game, play_game(game, 2, seed, make_agents(2, seed)).final_state))
    checked = 0
    for game, state in states:
        env = game.env(state)
        seen = view(game, state, SPECTATOR)
        for name, place in seen["zones"]["table"]["places"].items():
            stack = state.sites[game.site_by_name[name]]
            found = sideview.layers(game, place["pieces"])
            assert found is not None
            assert [x.top for x in found] == [altitude(env, p) for p in stack], name
            checked += len(stack)
    assert checked > 60


def test_a_side_view_is_to_scale_with_each_storys_altitude(houses: Game) -> None:
    game, state = case_state("a house of three stories")
    seen = view(game, state, SPECTATOR)
    stacks = sideview.houses(game, seen)
    assert [name for name, _ in stacks] == ["0,0", "1,0"]  # 0,1 holds only its card
    svg = sideview.side_view_svg(game, stacks, "side")
    said = labels(svg)
    assert {"ground card: 0.3 mm", "story 2: 26 mm", "story 3: 61.2 mm",
            "top: 105.65 mm", "top: 44.75 mm", "mm", "the house on 0,0"} <= said
    assert {"0", "20", "100", "120"} <= said  # the scale, in millimetres
    # to scale: the large pyramid's tip on 0,0 is 105.65 / 120 of the way up
    ticks = {t: float(y) for y, t in re.findall(
        r'<text x="[\d.]+" y="([\d.]+)" font-size="9.5" text-anchor="end"[^>]*>(\d+)<', svg)}
    ground, top = ticks["0"] - 3.5, ticks["120"] - 3.5
    tip = min(float(y) for y in re.findall(r"<polygon points=\"[^\"]*?,([\d.]+)\"", svg))
    assert tip == pytest.approx(ground - (ground - top) * 105.65 / 120, abs=0.2)


def test_a_hidden_piece_leaves_its_house_out_of_the_side_view(houses: Game) -> None:
    assert sideview.layers(houses, [piece(houses, "FFWW"), {"hidden": True}]) is None


def test_heights_without_a_unit_are_shown_as_they_are(tiles: Game) -> None:
    assert sideview.unit_of(tiles) == (1, "")
    assert sideview.show_height(tiles, 17000) == "17000"


def test_the_height_unit_is_declared_and_checked(houses: Game, tmp_path: Path) -> None:
    assert sideview.unit_of(houses) == (1000, "mm")
    assert sideview.show_height(houses, 25700) == "25.7 mm"
    assert sideview.show_height(houses, 26000) == "26 mm"
    bad = tmp_path / "houses.yaml"
    bad.write_text(HOUSES.read_text(encoding="utf-8").replace("height_unit: µm",
                                                             "height_unit: micrometres"),
                   encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load(bad)
    assert re.search(rf"{re.escape(str(bad))}:\d+:\d+: error: (.|\n)*µm", str(caught.value))


# -- the rulebook ----------------------------------------------------------------------

def test_the_components_show_the_paneled_cards(book: Rulebook, houses: Game) -> None:
    assert book.panels is not None and book.panels_note is not None
    assert "tl (top left), tr (top right), bl (bottom left) and br (bottom right)" in (
        book.panels_note)
    assert "either way up" in book.panels_note
    svg = book.panels.svg
    assert {"upright", "turned 180°", "red small pyramid on tl"} <= labels(svg)
    legend = legend_svg(houses, [piece(houses, "FFWW"), piece(houses, "r1")], "legend")
    assert fills(legend) == [RED, RED, BLUE, BLUE]  # the card, by its panels
    # the pyramid, in profile, by its set's shape (the game's pieces are not all cards)
    assert re.search(r'<polygon points="[^"]*" fill="' + RED + '" stroke="#111"', legend)


def test_a_tile_games_rulebook_explains_its_turns() -> None:
    book = build_rulebook(load(TILES))
    assert book.panels is not None
    assert {"turned 90°", "turned 270°", "follower on n"} <= labels(book.panels.svg)
    assert "n (top), w (left), e (right) and s (bottom)" in (book.panels_note or "")
    assert "quarter turns" in (book.panels_note or "")


def test_worked_examples_come_from_scenario_cases(book: Rulebook) -> None:
    first, second = book.case_examples
    assert first.title == "Altitudes in a house of three stories"
    assert first.values == [
        {"label": "Altitude of Earth (mm)", "value": "105.65"},
        {"label": "Altitude of Fire (mm)", "value": "60.9"},
        {"label": "Altitude of Water (mm)", "value": "60.9"},
        {"label": "Cards in the house on 0,0", "value": "3"}]
    assert first.houses is not None and "story 3: 61.2 mm" in first.houses.svg
    assert ">3 stories<" in first.before.svg
    assert second.values == [{"label": "What shows top left on 1,0", "value": "Fire"}]
    assert [m.notation for m in second.moves] == ["r1 1,0 tl"]
    files = {d.file for d in book.diagrams}
    assert {"example-1.svg", "example-1-side.svg", "example-2.svg", "example-2-1.svg",
            "panels.svg"} <= files
    page = render_game(environment(), book, None)
    assert "## Examples" in page and "### Altitudes in a house of three stories" in page
    assert "| Altitude of Earth (mm) | 105.65 |" in page
    assert "![Altitudes in a house of three stories: the position](example-1.svg)" in page
    assert "The second story's card lies on the tips" in page
    assert build_rulebook(load(HOUSES)).case_examples[0].before.svg == first.before.svg


def copy_houses(tmp_path: Path, old: str = "", new: str = "") -> tuple[Path, Path]:
    """The houses ruleset and its tests file in `tmp_path`, `old` replaced by `new` in
    the tests file."""
    ruleset = tmp_path / "houses.yaml"
    shutil.copy(HOUSES, ruleset)
    tests = tmp_path / "houses.tests.yaml"
    text = (RULESETS / "houses.tests.yaml").read_text(encoding="utf-8")
    tests.write_text(text.replace(old, new), encoding="utf-8")
    return ruleset, tests


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if text in line)


@pytest.mark.parametrize("old, new, where, message", [
    ("value: highest(fire) / 1000", "value: highest(fyre) / 1000",
     "highest(fyre)", r"unknown name 'fyre'(.|\n)*did you mean 'fire'"),
    ("value: highest(water) / 1000", "value: highest(water) // 0", "- name: a house of three",
     r"the case 'a house of three stories' is an example of the rulebook, but it fails"),
    ('moves: ["r1 1,0 tl"]', 'moves: ["b1 1,0 tl"]', "- name: a pyramid goes up",
     r"the case 'a pyramid goes up' is an example of the rulebook, but it fails: "
     r"move 1 'b1 1,0 tl'"),
    ("caption: A pyramid on a turned card", "captoin: A pyramid on a turned card",
     "captoin:", r"unknown key 'captoin'(.|\n)*did you mean 'caption'"),
])
def test_mistakes_in_the_examples_are_located(tmp_path: Path, old: str, new: str,
                                              where: str, message: str) -> None:
    ruleset, tests = copy_houses(tmp_path, old, new)
    with pytest.raises(RulesetError) as caught:
        build_rulebook(load(ruleset))
    text = str(caught.value)
    assert re.search(message, text), text
    assert text.startswith(f"{tests}:{line_of(tests, where)}:")


def test_a_skipped_rulebook_says_the_did_you_mean(tmp_path: Path) -> None:
    folder = tmp_path / "rulesets"
    folder.mkdir()
    copy_houses(folder, "caption: A pyramid on a turned card",
                "captoin: A pyramid on a turned card")
    shutil.copy(TILES, folder / "tiles.yaml")
    books, _, skipped = load_all(folder)
    assert [b.name for b in books] == ["tiles"]
    assert "houses.tests.yaml:" in skipped["houses.yaml"]
    assert "key 'caption'" in skipped["houses.yaml"]
