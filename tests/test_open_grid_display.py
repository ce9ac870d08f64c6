"""How the terminal shows an open grid (squares "x,y", only the used ones in a view) and
pieces with panels: the bounding box of the used squares plus a margin, coordinates on
the axes, regions as they lie after a turn, pieces standing on regions, the stories of a
house, and a board that still fits when it grows wider than the screen."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from rich.console import Console

from interpreter.api import load
from interpreter.assemble.game import compile_game
from interpreter.load.loader import load_ruleset_text
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import view
from interpreter.simulate.playout import make_agents, play_game
from interpreter.view.open_grid import Drawer, Story, stories
from interpreter.view.render import render_view, summarise_pieces

TILES = Path(__file__).resolve().parent / "rulesets" / "tiles.yaml"

# Cards with four quarters (two elements), turned by 180°, pyramids standing on quarters,
# cards built on the pyramids: the houses of Aquarius Rising, small.
HOUSES = """
tabletop: 1
game: {name: houses, title: Houses, designer: t, seats: {min: 1, max: 1}, summary: s}
pieces:
  attributes:
    kind: {values: [card, pyramid]}
    colour:
      values: [red, blue]
      short: {red: r, blue: b}
      styles: {red: bold red, blue: bold blue}
    size: {values: [1, 2, 3], names: {1: small, 2: medium, 3: large}}
    tl: &e
      values: [fire, water]
      short: {fire: F, water: W}
      styles: {fire: bold red, water: bold blue}
    tr: *e
    bl: *e
    br: *e
  style: colour
  glyph: size
  panels: {layout: [[tl, tr], [bl, br]], turn: 180, facing: facing, standing_on: quarter}
  sets:
    - {id: cards, each: {kind: [card]}, count: 30, table: [{tl: fire, tr: fire, bl: water,
       br: water}], start: box}
    - {id: pyramids, each: {kind: [pyramid], colour: [red, blue], size: [1, 2, 3]},
       count: 4, start: box}
zones:
  - {id: table, kind: grid, reach: 20}
  - {id: box, kind: pile, on_table: false}
  - {id: hand, kind: pile}
variables:
  - {id: facing, per_piece: true, initial: 0}
  - {id: quarter, per_piece: true, initial: "null"}
turn:
  - choose: nothing
    options: [{id: pass, notation: pass}]
"""


@pytest.fixture(scope="module")
def tiles() -> Game:
    return compile_game(load(TILES))


@pytest.fixture(scope="module")
def houses() -> Game:
    return compile_game(load_ruleset_text(HOUSES, "houses.yaml"))


def screen(game: Game, state: State, width: int = 120, colour: bool = False) -> str:
    console = Console(width=width, color_system="truecolor" if colour else None,
                      force_terminal=colour, record=True)
    console.print(render_view(game, view(game, state, 1), [], colour=colour))
    return console.export_text()


Board = dict[tuple[int, int], list[str]]


def boards(text: str) -> list[Board]:
    """Each band of the board drawn in `text`: its squares' lines by coordinates (read
    back from the labels on the axes), trailing blanks removed."""
    lines = text.splitlines()
    out = []
    for top, line in enumerate(lines):
        if "┌" not in line:
            continue
        axis = line.index("┌")
        bottom = next(i for i in range(top, len(lines)) if "└" in lines[i])
        xs = [int(x) for x in lines[bottom + 1].split()]
        band: Board = {}
        row: list[str] = []
        for inner in [*lines[top + 1:bottom], "├"]:
            if inner[axis:].startswith("├") or inner == "├":
                label = next(r[:axis].strip() for r in row if r[:axis].strip())
                cells = [r[axis:].split("│")[1:-1] for r in row]
                for i, x in enumerate(xs):
                    band[(x, int(label))] = [c[i].rstrip() for c in cells]
                row = []
            else:
                row.append(inner)
        out.append(band)
    return out


def only_board(text: str) -> Board:
    found = boards(text)
    assert len(found) == 1, text
    return found[0]


def put(game: Game, state: State, piece: int, square: str) -> None:
    """Move a piece onto the top of a square, as the rules would."""
    site = game.site_by_name[square]
    state.stack(state.loc[piece]).remove(piece)
    state.stack(site).append(piece)
    state.loc[piece] = site


def of_kind(game: Game, kind: str) -> list[int]:
    return [p for p in range(game.n_pieces) if game.attributes["kind"][p] == kind]


# -- tiles ----------------------------------------------------------------------------------

def test_the_board_is_the_used_squares_and_a_margin_with_signed_coordinates(
        tiles: Game) -> None:
    st = tiles.new_state(2, seed=1)
    put(tiles, st, st.sites[tiles.zones["bag"].first][-1], "2,-1")
    board = only_board(screen(tiles, st))
    assert sorted({x for x, _ in board}) == [-1, 0, 1, 2, 3]
    assert sorted({y for _, y in board}) == [-2, -1, 0, 1]
    assert "".join(board[(0, 0)]).strip() and "".join(board[(2, -1)]).strip()
    for empty in [(1, 0), (0, -1), (-1, 1), (3, -2)]:  # between the tiles, and the margin
        assert not "".join(board[empty]).strip()


def test_a_lone_start_tile_shows_its_edges_and_the_squares_around_it(tiles: Game) -> None:
    st = tiles.new_state(2, seed=1)
    text = screen(tiles, st)
    board = only_board(text)
    assert sorted(board) == [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)]
    # the start tile upright: city to the north, road east and west, field south
    assert board[(0, 0)] == ["  CC", "RR  RR", "  FF"]
    assert "R road, F field, C city" in " ".join(text.split())


@pytest.mark.parametrize("facing, drawn", [
    (0, ["  CC", "RR  RR", "  FF"]),
    (90, ["  RR", "FF  CC", "  RR"]),
    (180, ["  FF", "RR  RR", "  CC"]),
    (270, ["  RR", "CC  FF", "  RR"]),
])
def test_a_turned_tile_shows_its_edges_turned(tiles: Game, facing: int,
                                              drawn: list[str]) -> None:
    st = tiles.new_state(2, seed=1)
    start = st.sites[tiles.site_by_name["0,0"]][0]
    st.piece_vars["facing"][start] = facing
    assert only_board(screen(tiles, st))[(0, 0)] == drawn
    # what the rules say lies on each side is what is drawn there
    env = tiles.env(st)
    shown = {side: tiles.ruleset.pieces.attributes["n"].short[
        tiles.panels.value(env, start, side)] for side in "nesw"}  # type: ignore[union-attr]
    assert (drawn[0][2], drawn[1][5], drawn[2][2], drawn[1][0]) == tuple(
        shown[s] for s in "nesw")


def test_a_follower_shows_on_the_edge_it_stands_on(tiles: Game) -> None:
    st = tiles.new_state(2, seed=1)
    follower = st.sites[tiles.zones["reserve"].first][-1]
    st.piece_vars["region"][follower] = "e"
    put(tiles, st, follower, "0,0")
    text = screen(tiles, st)
    assert only_board(text)[(0, 0)] == ["  CC", "RR  Rf", "  FF"]
    assert "a piece standing on a region follows its letter" in " ".join(text.split())


def test_an_empty_open_grid_is_no_crash(tiles: Game) -> None:
    st = tiles.new_state(2, seed=1)
    start = st.sites[tiles.site_by_name["0,0"]][0]
    put(tiles, st, start, "bag")
    text = screen(tiles, st)
    assert "Table  (nothing on it yet)" in text
    assert "┌" not in text and "Bag" in text


def test_a_whole_random_game_of_tiles_is_drawn(tiles: Game) -> None:
    for seed in range(5):
        final = play_game(tiles, 2, seed, make_agents(2, seed)).final_state
        board = only_board(screen(tiles, final))
        for name, site in tiles.site_by_name.items():
            if site in range(tiles.zones["table"].first, tiles.zones["table"].first
                             + tiles.zones["table"].per_owner) and final.sites[site]:
                x, y = map(int, name.split(","))
                assert (x, y) in board and board[(x, y)][1].strip()
                for dx, dy in [(-1, 0), (1, 0), (0, -1), (0, 1)]:
                    assert (x + dx, y + dy) in board  # the margin


# -- houses of cards ------------------------------------------------------------------------

def build_house(game: Game, st: State, square: str = "0,0") -> tuple[int, int]:
    """A card with four small red pyramids, and on them a card turned round carrying a
    large blue pyramid on its bottom-right quarter."""
    cards = [p for p in of_kind(game, "card") if st.loc[p] == game.zones["box"].first]
    small = [p for p in of_kind(game, "pyramid") if game.attributes["size"][p] == 1
             and game.attributes["colour"][p] == "red" and st.loc[p] == game.zones["box"].first]
    large = [p for p in of_kind(game, "pyramid") if game.attributes["size"][p] == 3
             and game.attributes["colour"][p] == "blue"
             and st.loc[p] == game.zones["box"].first]
    put(game, st, cards[0], square)
    for p, q in zip(small[:4], ["tl", "tr", "bl", "br"], strict=True):
        st.piece_vars["quarter"][p] = q
        put(game, st, p, square)
    put(game, st, cards[1], square)
    st.piece_vars["facing"][cards[1]] = 180
    st.piece_vars["quarter"][large[0]] = "br"
    put(game, st, large[0], square)
    return cards[0], cards[1]


def test_a_house_shows_its_top_story_turned_with_its_pyramid_and_its_story_count(
        houses: Game) -> None:
    st = houses.new_state(1, seed=1)
    build_house(houses, st)
    text = screen(houses, st)
    # upright the card is fire over water; turned round, water over fire; the pyramid
    # (b3: blue large) on the bottom-right quarter as it lies
    assert only_board(text)[(0, 0)] == ["WWW WWW", "FFF Fb3", "≡2"]
    assert "0,0  1 Fr1 Fr1/Wr1 Wr1  2 WWW WWW/FFF Fb3" in text
    assert "≡2: two stories, the top one shown" in " ".join(text.split())


def test_in_colour_a_piece_on_a_region_is_one_glyph_after_its_letter(houses: Game) -> None:
    st = houses.new_state(1, seed=1)
    build_house(houses, st)
    text = screen(houses, st, colour=True)
    assert only_board(text)[(0, 0)] == ["WWWW", "FFF3", "≡2"]
    assert "0,0  1 F1F1/W1W1  2 WWWW/FFF3" in text


def test_a_house_without_a_second_story_shows_no_count(houses: Game) -> None:
    st = houses.new_state(1, seed=1)
    card = of_kind(houses, "card")[0]
    put(houses, st, card, "0,0")
    text = screen(houses, st)
    assert only_board(text)[(0, 0)] == ["FFFF", "WWWW"]
    assert "Houses of several stories" not in text and "≡" not in text


def test_compact_marks_an_occupied_region_by_highlighting_it(houses: Game) -> None:
    st = houses.new_state(1, seed=1)
    build_house(houses, st)
    pieces = view(houses, st, 1)["zones"]["table"]["places"]["0,0"]["pieces"]
    top = stories(houses.panels, pieces)[-1]
    assert isinstance(top, Story) and top.on.keys() == {"br"}
    lines = Drawer(houses, colour=True).card(top, 1)
    assert [line.plain for line in lines] == ["WW", "FF"]
    marked = [span.style for span in lines[1].spans if span.start == 1]
    assert marked and "reverse" in str(marked[0])
    assert all("reverse" not in str(span.style) for span in lines[0].spans)


def row_of_cards(game: Game, st: State, n: int) -> None:
    """n cards side by side on the row y = 0, from x = -10 on, every other one turned,
    and a two-story house on 0,1."""
    cards = of_kind(game, "card")
    for i in range(n):
        put(game, st, cards[5 + i], f"{i - 10},0")
        st.piece_vars["facing"][cards[5 + i]] = 180 * (i % 2)
    build_house(game, st, "0,1")


@pytest.mark.parametrize("width, colour, compact", [(160, True, False), (100, True, True)])
def test_a_board_twenty_cards_wide_fits_the_screen_in_one_piece(
        houses: Game, width: int, colour: bool, compact: bool) -> None:
    st = houses.new_state(1, seed=1)
    row_of_cards(houses, st, 22)
    text = screen(houses, st, width=width, colour=colour)
    assert max(len(line) for line in text.splitlines()) <= width
    board = only_board(text)
    assert sorted({x for x, _ in board}) == list(range(-11, 13))
    upright, turned = (["FF", "WW"], ["WW", "FF"]) if compact else (
        ["FFFF", "WWWW"], ["WWWW", "FFFF"])
    assert board[(-10, 0)] == upright and board[(-9, 0)] == turned
    assert board[(11, 0)] == turned and not "".join(board[(12, 0)]).strip()
    assert ("highlighted region" in " ".join(text.split())) == compact


@pytest.mark.parametrize("width", [100, 160])
def test_a_board_too_wide_even_for_compact_is_folded_in_overlapping_bands(
        houses: Game, width: int) -> None:
    """Without colours a piece on a region needs two letters (its colour and size), and
    there is no compact board: it is folded."""
    st = houses.new_state(1, seed=1)
    row_of_cards(houses, st, 22)
    text = screen(houses, st, width=width, colour=False)
    assert max(len(line) for line in text.splitlines()) <= width
    bands = boards(text)
    assert len(bands) >= 2
    columns = [sorted({x for x, _ in band}) for band in bands]
    assert columns[0][0] == -11 and columns[-1][-1] == 12
    for before, after in itertools.pairwise(columns):
        assert after[0] == before[-1]  # the column where they meet is drawn in both
    seen = {at: lines for band in bands for at, lines in band.items()}
    assert seen[(0, 1)] == ["WWW WWW", "FFF Fb3", "≡2"]


def test_the_hand_lists_cards_by_name_beside_the_pyramids(houses: Game) -> None:
    st = houses.new_state(1, seed=1)
    hand = houses.zones["hand"].first
    card, pyramid = of_kind(houses, "card")[0], of_kind(houses, "pyramid")[0]
    put(houses, st, card, "hand")
    put(houses, st, pyramid, "hand")
    assert hand == st.loc[card]
    shown = summarise_pieces(houses, view(houses, st, 1)["zones"]["hand"]["pieces"],
                             colour=False).plain
    assert houses.piece_names[card] in shown and re.search(r"red r?1", shown), shown


def tiles_variant(*changes: tuple[str, str]) -> Game:
    text = TILES.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    return compile_game(load_ruleset_text(text, "variant.yaml"))


def test_each_seat_s_own_open_grid_is_drawn_from_its_squares(tiles: Game) -> None:
    """A per-seat open grid names its squares "x,y[seat]"."""
    game = tiles_variant(("  - {id: table, kind: grid, reach: 7}\n",
                          "  - {id: table, kind: grid, reach: 7, per_seat: true}\n"),
                         ("to: place('0,0')", "to: table[1][112]"))
    st = game.new_state(2, seed=1)  # the start tile on Player 1's 0,0: move it to 2's
    put(game, st, st.sites[game.site_by_name["0,0[1]"]][0], "0,0[2]")
    text = screen(game, st)
    assert "Table — Player 1  (nothing on it yet)" in text
    assert only_board(text)[(0, 0)] == ["  CC", "RR  RR", "  FF"]


def test_squares_the_seat_may_not_look_at_show_how_many_pieces(tiles: Game) -> None:
    game = tiles_variant(("  - {id: table, kind: grid, reach: 7}\n",
                          "  - {id: table, kind: grid, reach: 7, contents: nobody}\n"))
    board = only_board(screen(game, game.new_state(2, seed=1)))
    assert board[(0, 0)][0] == "1?" and sorted({x for x, _ in board}) == [-1, 0, 1]
