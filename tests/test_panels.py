"""Open grids, per-piece variables, panels (regions on a face, turning) and altitude:
the tools a tile-laying or stacking game is written with (tests/rulesets/tiles.yaml is a
small Carcassonne-like game made of them)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from interpreter.api import load
from interpreter.assemble.game import compile_game
from interpreter.errors import RuleError, RulesetError
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import view
from interpreter.simulate.playout import make_agents, play_game

HERE = Path(__file__).parent
TILES = HERE / "rulesets" / "tiles.yaml"


@pytest.fixture(scope="module")
def tiles() -> Game:
    return compile_game(load(TILES))


def value(game: Game, state: State, text: str) -> Any:
    """An expression of the game's language, evaluated on a state."""
    return game.compile_expression(" ".join(text.split()))(game.env(state))


def test_open_grid_squares_are_named_by_signed_coordinates(tiles: Game) -> None:
    zone = tiles.zones["table"]
    assert zone.reach == 7 and zone.rows == zone.cols == 15
    assert "0,0" in tiles.site_by_name and "-7,7" in tiles.site_by_name
    assert "8,0" not in tiles.site_by_name
    st = tiles.new_state(2, seed=1)
    assert value(tiles, st, "[row(place('2,-3')), col(place('2,-3'))]") == [-3, 2]
    assert value(tiles, st, "place_name(offset(place('0,0'), 'n'))") == "0,1"
    assert value(tiles, st, "place_name(offset(place('0,0'), 'sw', 2))") == "-2,-2"
    assert value(tiles, st, "offset(place('7,0'), 'e')") is None


def test_an_open_grid_view_lists_only_the_squares_in_use(tiles: Game) -> None:
    st = tiles.new_state(2, seed=1)
    table = view(tiles, st, 1)["zones"]["table"]
    assert list(table["places"]) == ["0,0"] and table["reach"] == 7
    assert table["places"]["0,0"]["pieces"][0]["facing"] == 0


def test_per_piece_variables_are_set_saved_and_restored(tiles: Game) -> None:
    st = tiles.new_state(2, seed=3)
    first = tiles.legal_options(st, 1)[0]
    after = tiles.apply(st, 1, first)
    laid = value(tiles, after, f"top(place('{first.notation.split()[0]}'))")
    assert value(tiles, after, f"facing[{laid}]") == int(first.notation.split()[1])
    assert value(tiles, st, f"facing[{laid}]") == 0  # the state it came from is untouched
    again = State.from_json(json.loads(json.dumps(after.to_json())), tiles.n_pieces)
    assert again.piece_vars == after.piece_vars
    assert again.to_json() == after.to_json()


def test_a_hidden_piece_shows_no_per_piece_values(tiles: Game) -> None:
    st = tiles.new_state(2, seed=3)
    tile = value(tiles, st, "top(bag)")
    st.piece_vars["facing"][tile] = 270  # a secret the bag must keep
    seen = json.dumps(view(tiles, st, 1))
    assert "270" not in seen


@pytest.mark.parametrize("facing, shown", [
    (0, {"n": "city", "e": "road", "s": "field", "w": "road"}),
    (90, {"n": "road", "e": "city", "s": "road", "w": "field"}),
    (180, {"n": "field", "e": "road", "s": "city", "w": "road"}),
    (270, {"n": "road", "e": "field", "s": "road", "w": "city"}),
])
def test_turning_a_square_tile_moves_its_edges_clockwise(tiles: Game, facing: int,
                                                         shown: dict[str, str]) -> None:
    st = tiles.new_state(2, seed=1)
    start = "bottom(place('0,0'))"
    st.piece_vars["facing"][value(tiles, st, start)] = facing
    for side, terrain in shown.items():
        assert value(tiles, st, f"panel({start}, '{side}')") == terrain
        assert value(tiles, st, f"edge({start}, '{side}')")[1] == terrain
    # the same, asked of the upright tile as if it were turned
    st.piece_vars["facing"][value(tiles, st, start)] = 0
    assert value(tiles, st, f"panel({start}, 'n', {facing})") == shown["n"]
    assert value(tiles, st, f"panels({start}, {facing})") == [
        shown["n"], shown["w"], shown["e"], shown["s"]]


def test_a_facing_that_is_not_a_turn_is_a_clear_error(tiles: Game) -> None:
    st = tiles.new_state(2, seed=1)
    with pytest.raises(RuleError, match="turns by 90"):
        value(tiles, st, "panel(bottom(place('0,0')), 'n', 45)")
    with pytest.raises(RuleError, match="not a region"):
        value(tiles, st, "panel(bottom(place('0,0')), 'up')")
    with pytest.raises(RuleError, match="not a side"):
        value(tiles, st, "edge(bottom(place('0,0')), 'ne')")
    follower = value(tiles, st, "top(reserve)")
    assert value(tiles, st, f"panel({follower}, 'n')") is None
    assert value(tiles, st, f"edge({follower}, 'n')") == []


def test_every_laid_tile_matches_every_neighbour(tiles: Game) -> None:
    """Random games: whatever was laid fits every touching edge (the rule the options
    enforce with edge(tile, side, facing)), and the followers stand on tiles."""
    for seed in range(40):
        st = play_game(tiles, 2, seed, make_agents(2, seed)).final_state
        assert value(tiles, st, """all([edge(bottom(s), d) == edge(bottom(offset(s, d)),
            opposite(d)) for s in cells(table) if not empty(s)
            for d in orthogonal if offset(s, d) != null and not empty(offset(s, d))])""")
        assert value(tiles, st, "all([region[p] in ['n', 'e', 's', 'w'] for s in cells(table)"
                                " for p in stack(s) if p != bottom(s)])")


CARD_HOUSE = """
tabletop: 1
game: {name: house, title: House, designer: t, seats: {min: 1, max: 1}, summary: s}
pieces:
  attributes:
    kind: {values: [card, pyramid]}
    size: {values: [1, 2, 3]}
    tl: &e {values: [x, y]}
    tr: *e
    bl: *e
    br: *e
  panels: {layout: [[tl, tr], [bl, br]], turn: 180, facing: facing, standing_on: quarter}
  height: "300 if piece.kind == 'card' else [0, 25400, 34900, 44450][piece.size]"
  sets:
    - {id: cards, each: {kind: [card]}, count: 3, table: [{tl: x, tr: x, bl: y, br: y}],
       start: box, shape: card}
    - {id: pyramids, each: {kind: [pyramid], size: [1, 2, 3]}, count: 4, start: box,
       shape: pyramid}
zones:
  - {id: table, kind: grid, reach: 2}
  - {id: box, kind: pile}
variables:
  - {id: facing, per_piece: true, initial: 0}
  - {id: quarter, per_piece: true, initial: "null"}
turn:
  - choose: nothing
    options: [{id: pass, notation: pass}]
"""


def test_altitude_stacks_cards_on_the_tips_of_the_pyramids_beneath(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(CARD_HOUSE)
    game = compile_game(load(path))
    st = game.new_state(1, seed=1)
    cards = [p for p in range(game.n_pieces) if game.attributes["kind"][p] == "card"]
    small = [p for p in range(game.n_pieces) if game.attributes["size"][p] == 1]
    large = [p for p in range(game.n_pieces) if game.attributes["size"][p] == 3]
    house = game.site_by_name["0,0"]
    box = game.zones["box"].first
    # story 0: a card with four small pyramids; story 1: a card with one large one
    layers = [cards[0], *small[:4], cards[1], large[0]]
    st.sites[box] = [p for p in st.sites[box] if p not in layers]
    st.sites[house] = layers
    for p in layers:
        st.loc[p] = house
    for p, q in zip(small[:4], ["tl", "tr", "bl", "br"], strict=True):
        st.piece_vars["quarter"][p] = q
    st.piece_vars["quarter"][large[0]] = "br"
    st.piece_vars["facing"][cards[1]] = 180
    assert value(game, st, f"altitude({cards[0]})") == 300
    assert value(game, st, f"[altitude(p) for p in {small[:4]}]") == [25700] * 4
    assert value(game, st, f"altitude({cards[1]})") == 25700 + 300
    assert value(game, st, f"altitude({large[0]})") == 26000 + 44450
    # the upper card lies turned: its top-left shows what its bottom-right holds
    assert value(game, st, f"panel({cards[1]}, 'tl')") == "y"
    assert value(game, st, f"edge({cards[1]}, 'n')") == ["y", "y"]
    assert game.piece_shapes[cards[0]] == "card" and game.piece_shapes[small[0]] == "pyramid"


@pytest.mark.parametrize("change, message", [
    ("  - {id: table, kind: grid, reach: 2}",
     "  - {id: table, kind: grid, reach: 2, rows: 3}"),
    ("  - {id: table, kind: grid, reach: 2}",
     "  - {id: table, kind: grid, reach: 2, count: owner}"),
    ("standing_on: quarter}", "standing_on: quartre}"),
    ("[[tl, tr], [bl, br]], turn: 180", "[[tl, tr, bl, br]], turn: 90"),
    ("turn: 180, facing: facing,", "turn: 180,"),
    ("[[tl, tr], [bl, br]]", "[[tl, tr], [bl, bx]]"),
    ("  - {id: quarter, per_piece: true, initial: \"null\"}",
     "  - {id: quarter, per_piece: true, per_seat: true, initial: \"null\"}"),
    ("height: \"300 if", "height: \"-300 if"),
])
def test_mistakes_in_the_new_declarations_are_located(tmp_path: Path, change: str,
                                                      message: str) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(CARD_HOUSE.replace(change, message))
    with pytest.raises(RulesetError) as caught:
        compile_game(load(path))
    assert f"{path}:" in str(caught.value)


def test_setting_a_per_piece_variable_needs_the_piece(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(CARD_HOUSE.replace("""    options: [{id: pass, notation: pass}]""",
                                       """    options: [{id: pass, notation: pass}]
  - set: facing
    value: 180"""))
    with pytest.raises(RulesetError, match="per piece: give 'piece'"):
        compile_game(load(path))


def test_a_definition_outside_the_language_is_a_located_error_not_a_crash(
        tmp_path: Path) -> None:
    """An inlined definition the closures refuse (a {...} dictionary) used to reach the
    code writer, which had no code for it."""
    path = tmp_path / "house.yaml"
    path.write_text(CARD_HOUSE + textwrap.dedent("""\
        define:
          other(d): "{'n': 's'}[d]"
          uses(d): other(d) == 's'
        end:
          - {id: e, when: "uses('n')", text: over}
        """))
    with pytest.raises(RulesetError, match=r"dictionaries.* is not part of the expression"):
        compile_game(load(path))


def test_a_local_name_spelt_like_an_attribute_value_is_refused(tmp_path: Path) -> None:
    """`let: {card: ...}` would hide the value `card` for the rest of the turn, so that
    `p.kind == card` compared with the local: refused where it is bound."""
    path = tmp_path / "house.yaml"
    path.write_text(CARD_HOUSE.replace("""  - choose: nothing""", """  - let: {card: 1}
  - choose: nothing"""))
    with pytest.raises(RulesetError, match="'card' is a value of the attribute 'kind'"):
        compile_game(load(path))


def test_panels_are_read_from_tables_made_at_compile_time(tiles: Game,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """A piece's attributes never change, so what each piece shows each way it may face
    is made once by compile: panel, panels and edge look it up (they do not turn the
    layout on every call), and give what turning it gives, charging the same steps."""
    from interpreter.compile.functions import f_edge, f_panel, f_panels
    from interpreter.run.panels import PanelsInfo

    st = tiles.new_state(2, seed=1)
    panels = tiles.panels
    assert panels is not None
    turned: dict[tuple, Any] = {}
    for piece in range(tiles.n_pieces):
        for facing in panels.shown:
            env = tiles.env(st)
            turned[piece, facing] = (
                panels.values(env, piece, facing),
                [panels.edge(env, piece, side, facing) for side in "nesw"],
                [panels.value(env, piece, region, facing) for region in panels.positions])

    def no_turning(*args: Any) -> Any:
        raise AssertionError("the layout is turned on a call")

    monkeypatch.setattr(PanelsInfo, "facing_of", no_turning)
    for (piece, facing), (values, edges, cells) in turned.items():
        env = tiles.env(st)
        assert f_panels(env, piece, facing) == values and env.steps == len(values)
        assert [f_edge(env, piece, side, facing) for side in "nesw"] == edges
        assert [f_panel(env, piece, region, facing) for region in panels.positions] == cells
        assert env.steps == len(values) + sum(map(len, edges))
    start = value(tiles, st, "bottom(place('0,0'))")
    st.piece_vars["facing"][start] = 90  # as it lies: its own facing
    assert f_panels(tiles.env(st), start) == turned[start, 90][0]
    assert f_panels(tiles.env(st), start) is not f_panels(tiles.env(st), start)



def test_panels_longer_than_the_list_budget_stop_at_budgets_list_length(
        tiles: Game, tmp_path: Path) -> None:
    """The built-ins skip checking the lists they hand out against budgets.list_length
    only when no piece's panels or edge could be longer (PanelsInfo.lengthy): with a
    budget shorter than a tile's four panels, panels() still stops there, as a list any
    other built-in makes does."""
    from interpreter.compile.functions import f_edge, f_panels
    from interpreter.errors import BudgetError
    from interpreter.run.machine import Env

    assert tiles.panels is not None and not tiles.panels.lengthy  # the usual budget
    text = TILES.read_text()
    assert "\nbudgets:" not in text
    path = tmp_path / "short.yaml"
    path.write_text(text + "\nbudgets: {list_length: 3}\n")
    short = compile_game(load(path))
    assert short.panels is not None and short.panels.lengthy
    st = tiles.new_state(2, seed=1)  # (the same pieces: the short game cannot start)
    tile = value(tiles, st, "bottom(place('0,0'))")
    assert len(f_panels(Env(tiles, st), tile, 0)) == 4
    assert len(f_edge(Env(short, st), tile, "n", 0)) == 3
    with pytest.raises(BudgetError, match=r"budgets\.list_length"):
        f_panels(Env(short, st), tile, 0)
