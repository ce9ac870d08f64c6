"""Hex boards (`kind: hex`): a rhombus of rows × cols hexes or a hexagon of `side`, named
like a grid's squares, six neighbours and directions, sides for connection goals, moves
by a vector (`offset(place, dx, dy)`, on hexes and squares), and drawn as hexes in the
terminal, the pictures and the rulebook."""

from __future__ import annotations

import json
import re
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from interpreter.api import load
from interpreter.assemble.game import compile_game
from interpreter.docs.diagrams import position_svg
from interpreter.errors import RulesetError
from interpreter.load.loader import load_ruleset_text
from interpreter.play.game import Game
from interpreter.run.machine import Env
from interpreter.run.view import view
from interpreter.simulate.playout import make_agents, play_game
from interpreter.view.render import render_view

HEX = Path(__file__).parent / "rulesets" / "hex.yaml"
TEXT = HEX.read_text(encoding="utf-8")
HEXAGON = TEXT.replace("{id: board, kind: hex, rows: size, cols: size}",
                       "{id: board, kind: hex, side: 3}").replace(
    "['w', 'e']", "['nw', 'se']")


def game_of(text: str, options: dict[str, Any] | None = None, generate: bool = True) -> Game:
    return compile_game(load_ruleset_text(text, "hex.yaml"), options, generate=generate)


def value(game: Game, text: str) -> Any:
    env = Env(game, game.new_state(2, 1))
    return game.compile_expression(text)(env)


def names(game: Game, places: list[int]) -> list[str]:
    return sorted(game.site_name[p] for p in places)


def test_a_rhombus_is_named_like_a_grid_and_each_hex_has_six_neighbours() -> None:
    game = game_of(TEXT, {"size": 11})
    assert [game.site_name[s] for s in game.zones["board"].sites_in_play(2)][:3] == [
        "a1", "b1", "c1"]
    assert "k11" in game.site_by_name and "l1" not in game.site_by_name
    assert value(game, "count(cells(board))") == 121
    assert names(game, value(game, "neighbours('f6')")) == ["e6", "e7", "f5", "f7", "g5",
                                                           "g6"]
    assert names(game, value(game, "neighbours('a1')")) == ["a2", "b1"]
    # the same hexes touch as on OpenSpiel's hex board, cell for cell
    assert names(game, value(game, "neighbours('k1')")) == ["j1", "j2", "k2"]
    for d, there in {"ne": "f7", "e": "g6", "se": "g5", "sw": "f5", "w": "e6",
                     "nw": "e7"}.items():
        assert value(game, f"place_name(offset('f6', '{d}'))") == there
    assert value(game, "place_name(offset('f6', 'ne', 3))") == "f9"
    assert value(game, "offset('f6', 'ne', 6)") is None
    assert value(game, "hex_directions") == ["ne", "e", "se", "sw", "w", "nw"]
    assert value(game, "[place_name(offset('c3', d)) for d in hex_directions]") == [
        "c4", "d3", "d2", "c2", "b3", "b4"]


def test_a_hex_board_has_no_north_and_says_which_directions_it_has() -> None:
    game = game_of(TEXT)
    for text in ("offset('c3', 'n')", "neighbours('c3', orthogonal)"):
        with pytest.raises(Exception) as info:
            value(game, text)
        assert "a hex board has no direction 'n' (use one of ne, e, se, sw, w, nw)" in str(
            info.value)


def test_a_hexagon_has_its_corners_cut_and_six_sides() -> None:
    game = game_of(HEXAGON)
    board = game.zones["board"]
    assert (board.rows, board.cols, board.per_owner) == (5, 5, 19)
    assert value(game, "[place_name(p) for p in cells(board)]")[:3] == ["c1", "d1", "e1"]
    assert "a1" not in game.site_by_name and "e5" not in game.site_by_name
    assert names(game, value(game, "neighbours('c3')")) == ["b3", "b4", "c2", "c4", "d2",
                                                           "d3"]
    assert names(game, value(game, "neighbours('c1')")) == ["b2", "c2", "d1"]
    assert value(game, "offset('c1', 'sw')") is None
    sides = {side: names(game, value(game, f"border(board, '{side}')"))
             for side in ("n", "ne", "se", "s", "sw", "nw")}
    assert sides == {"n": ["a5", "b5", "c5"], "ne": ["c5", "d4", "e3"],
                     "se": ["e1", "e2", "e3"], "s": ["c1", "d1", "e1"],
                     "sw": ["a3", "b2", "c1"], "nw": ["a3", "a4", "a5"]}
    with pytest.raises(Exception, match=r"Board has no side 'e' \(its sides are n, ne, se, "
                       r"s, sw, nw\)"):
        value(game, "border(board, 'e')")


def test_the_sides_of_a_rhombus_and_of_a_square_grid() -> None:
    game = game_of(TEXT, {"size": 3})
    assert names(game, value(game, "border(board, 'n')")) == ["a3", "b3", "c3"]
    assert names(game, value(game, "border(board, 'w')")) == ["a1", "a2", "a3"]
    square = game_of(TEXT.replace("kind: hex", "kind: grid"), {"size": 3})
    assert names(square, value(square, "border(board, 'e')")) == ["c1", "c2", "c3"]
    with pytest.raises(Exception, match="border\\(\\) needs a board with edges"):
        value(game, "border(supply, 'n')")


def _linked(game: Game, state: Any, colour: str, ends: tuple[str, str]) -> bool:
    """The test's own search: a chain of the colour's stones from one side to the other."""
    board = game.zones["board"]
    mine = {s for s in board.sites_in_play(2) if state.sites[s]
            and game.attributes["colour"][state.sites[s][-1]] == colour}
    env = Env(game, state)
    first, last = (set(game.compile_expression(f"border(board, '{e}')")(env)) for e in ends)
    todo = deque(mine & first)
    seen = set(todo)
    while todo:
        s = todo.popleft()
        if s in last:
            return True
        for t in game.compile_expression("neighbours(x)", temps=["x"])(_with(env, s)):
            if t in mine and t not in seen:
                seen.add(t)
                todo.append(t)
    return False


def _with(env: Env, x: int) -> Env:
    env.temps["x"] = x
    return env


@pytest.mark.parametrize("text", [TEXT, HEXAGON], ids=["rhombus", "hexagon"])
def test_the_connection_game_ends_when_a_chain_links_two_sides(text: str) -> None:
    game = game_of(text)
    ends = {"red": ("n", "s"), "blue": ("w", "e") if text == TEXT else ("nw", "se")}
    won = 0
    for seed in range(8):
        result = play_game(game, 2, seed, make_agents(2, seed))
        state = result.final_state
        if not result.winners:  # a full board (a hexagon may have no chain)
            assert all(state.sites[s] for s in game.zones["board"].sites_in_play(2))
            assert not any(_linked(game, state, c, ends[c]) for c in ends)
            continue
        won += 1
        winner = result.winners[0]
        colour = "red" if winner == 1 else "blue"
        assert _linked(game, state, colour, ends[colour])
        loser = "blue" if winner == 1 else "red"
        assert not _linked(game, state, loser, ends[loser])
    assert won >= 4


@pytest.mark.parametrize("text", [TEXT, HEXAGON], ids=["rhombus", "hexagon"])
def test_generated_code_plays_hex_games_as_the_closures_do(text: str) -> None:
    fast, careful = game_of(text), game_of(text, generate=False)
    for seed in range(4):
        a = play_game(fast, 2, seed, make_agents(2, seed))
        b = play_game(careful, 2, seed, make_agents(2, seed))
        assert a.decisions == b.decisions and a.winners == b.winners
        x, y = a.final_state.to_json(), b.final_state.to_json()
        x.pop("steps"), y.pop("steps")
        assert json.dumps(x, sort_keys=True) == json.dumps(y, sort_keys=True)


@pytest.mark.parametrize(("change", "message"), [
    ("{id: board, kind: hex}", "hex zone 'board' needs rows and cols (a rhombus, as Hex's "
     "board) or side (a hexagon)"),
    ("{id: board, kind: hex, side: 3, rows: 5}", "hex zone 'board' has a side, so no rows "
     "or cols"),
    ("{id: board, kind: grid, side: 3}", "a grid zone has no side"),
    ("{id: board, kind: hex, side: 14}", "has a side of 14: at most 13"),
    ("{id: board, kind: hex, rows: 3, cols: 27}", "hex zone 'board' has more than 26 "
     "columns"),
])
def test_a_badly_declared_hex_board_is_a_located_error(change: str, message: str) -> None:
    text = TEXT.replace("{id: board, kind: hex, rows: size, cols: size}", change)
    with pytest.raises(RulesetError) as info:
        game_of(text)
    found = [d for d in info.value.diagnostics if message in d.message]
    assert found, [d.message for d in info.value.diagnostics]
    assert found[0].location is not None
    assert "id: board" in text.splitlines()[found[0].location.line - 1]


def _played(game: Game, moves: list[str]) -> Any:
    state = game.new_state(2, 1)
    for notation in moves:
        seat = game.deciding_seats(state)[0]
        option = next(o for o in game.legal_options(state, seat) if o.notation == notation)
        game.apply_in_place(state, seat, option)
    return state


def test_the_terminal_draws_each_row_half_a_hex_right_of_the_row_below() -> None:
    game = game_of(TEXT, {"size": 4})
    state = _played(game, ["a1", "d4", "b2"])
    console = Console(width=100, color_system=None, record=True)
    console.print(render_view(game, view(game, state, 1), []))
    lines = console.export_text().splitlines()
    board = lines[lines.index("Board") + 1:lines.index("Board") + 7]
    assert board == [
        "     a b c d",
        "   4 · · · B",
        "  3 · · · ·",
        " 2 · R · ·",
        "1 R · · ·",
        "  a b c d",
    ]


def test_the_terminal_leaves_a_hexagons_cut_corners_blank() -> None:
    game = game_of(HEXAGON)
    console = Console(width=100, color_system=None, record=True)
    console.print(render_view(game, view(game, _played(game, ["c1", "a5"]), 1), []))
    text = console.export_text()
    assert "\n    5 B · ·\n   4 · · · ·\n  3 · · · · ·\n 2   · · · ·\n1     R · ·\n" in text


def test_the_pictures_draw_hexes_and_the_browser_can_click_them() -> None:
    game = game_of(HEXAGON)
    seen = view(game, _played(game, ["c1"]), 1)
    picture = position_svg(game, seen, "position")
    assert picture.count("<polygon points=") == 19
    assert ">a5<" in picture and ">c1<" not in picture  # an empty hex shows its name
    targets = position_svg(game, seen, "position", targets=True)
    assert targets.count('class="tt-place"') == 19
    frame = re.search(r'data-place="c3">(.*?)</g>', targets, re.S)
    assert frame is not None and '<polygon class="tt-frame"' in frame.group(1)


def test_the_rulebook_describes_the_hex_board() -> None:
    from interpreter.docs.build import environment, render_game
    from interpreter.docs.rulebook import build_rulebook

    page = render_game(environment(), build_rulebook(load(HEX)), print_link=None)
    assert ("a board of 5 × 5 hexes in a rhombus, a1 to e5 (a1 is bottom left; each row "
            "lies half a hex to the right of the row below); each hex touches six others")\
        in page
    assert "the places along the *side* side of the board" in page
    assert "Board: 6 × 6 hexes (instead of 5 × 5 hexes)" in page


def test_a_vector_on_hexes_counts_columns_east_and_rows_north_east() -> None:
    game = game_of(TEXT)
    moves = {(1, 0): "d3", (0, 1): "c4", (-1, 1): "b4", (1, -1): "d2", (2, 2): "e5",
             (-2, 0): "a3"}
    for (dx, dy), there in moves.items():
        assert value(game, f"place_name(offset('c3', {dx}, {dy}))") == there
    for d, (dr, dc) in {"ne": (1, 0), "e": (0, 1), "se": (-1, 1), "sw": (-1, 0),
                        "w": (0, -1), "nw": (1, -1)}.items():  # each direction is a vector
        assert value(game, f"offset('c3', '{d}') == offset('c3', {dc}, {dr})")
    assert value(game, "offset('c3', 3, 0)") is None
    hexagon = game_of(HEXAGON)
    assert value(hexagon, "offset('c1', -1, 0)") is None  # a cut corner is off the board
    assert value(hexagon, "place_name(offset('c1', -1, 1))") == "b2"


def test_the_rulebook_says_a_vector_in_words() -> None:
    from interpreter.docs.rulebook import build_rulebook

    text = TEXT.replace("define:\n", "define:\n  jump(p): offset(p, 2, -1)\n"
                        "  step(p, dy): offset(p, 1 - 2, dy)\n  along(p, d): offset(p, d)\n", 1)
    book = json.dumps(build_rulebook(load_ruleset_text(text, "hex.yaml")), default=str)
    assert "the place 2 columns east and 1 row south of *p* (if there is one)" in book
    assert "the place (1 minus 2) columns east and *dy* rows north of *p* (if there is one)" in book
    assert "the square next to *p* towards *d*" in book


def test_the_hex_games_scenarios_pass() -> None:
    from interpreter.scenarios.runner import run_scenario_files

    results = run_scenario_files([HEX.with_name("hex.tests.yaml"),
                                  HEX.with_name("sowing.tests.yaml")])
    assert len(results) == 4
    assert all(r.passed for r in results), [r for r in results if not r.passed]
