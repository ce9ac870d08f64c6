"""Rows of places (a sowing game's pits, a market): a slots zone of at most ROW_OF_SLOTS
places shows every place in order, empty ones included, each with its count when the
game's pieces are all alike; a place holding more than COUNT_ABOVE alike pieces shows one
and the count, in the terminal, the pictures and the browser's board."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rich.console import Console

from interpreter.api import load
from interpreter.assemble.game import compile_game
from interpreter.docs.diagrams import position_svg
from interpreter.load.loader import load_ruleset_text
from interpreter.play.game import Game
from interpreter.run.view import view
from interpreter.view.render import render_view

SOWING = (Path(__file__).parent / "rulesets" / "sowing.yaml").read_text(encoding="utf-8")
WITH_A_MARKER = SOWING.replace(
    "      values: [seed]\n      short: {seed: o}\n",
    "      values: [seed, marker]\n      short: {seed: o, marker: M}\n").replace(
    "      start: bag\n",
    "      start: bag\n    - id: marker\n      each: {kind: [marker]}\n      start: box\n", 1
).replace("  - {id: bag, kind: pile, on_table: false}\n",
          "  - {id: bag, kind: pile, on_table: false}\n"
          "  - {id: box, kind: pile, on_table: false}\n")


def game_of(text: str) -> Game:
    return compile_game(load_ruleset_text(text, "sowing.yaml"))


def played(game: Game, moves: list[str]) -> Any:
    state = game.new_state(2, 1)
    for notation in moves:
        seat = game.deciding_seats(state)[0]
        option = next(o for o in game.legal_options(state, seat) if o.notation == notation)
        game.apply_in_place(state, seat, option)
    return state


def screen(game: Game, state: Any) -> str:
    console = Console(width=100, color_system=None, record=True)
    console.print(render_view(game, view(game, state, 1), []))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


def test_every_pit_shows_in_order_with_its_count_empty_ones_too() -> None:
    game = game_of(SOWING)
    text = screen(game, played(game, []))
    assert "Pits — Player 1\n 1   2   3\n[4] [4] [4]\n" in text
    # Player 1 sows pit 1's four seeds: pits 2 and 3, the store, the opponent's pit 1
    text = screen(game, played(game, ["1"]))
    assert "Pits — Player 1\n 1   2   3\n[0] [5] [5]\n" in text
    assert "Pits — Player 2\n 1   2   3\n[5] [4] [4]\n" in text
    assert "Store: seed" in text


def test_without_one_kind_of_piece_a_pit_counts_more_than_three_alike() -> None:
    game = game_of(WITH_A_MARKER)
    text = screen(game, played(game, ["1", "3"]))
    # Player 2's pit 3 sowed four: its pit 1 was 5 seeds, Player 1's pits 1 to 3 +1 each
    assert "Pits — Player 1\n 1    2     3\n[o] [6×o] [6×o]\n" in text
    assert "Pits — Player 2\n  1     2    3\n[5×o] [4×o] [·]\n" in text


def test_the_pictures_draw_every_pit_with_a_count_badge() -> None:
    game = game_of(SOWING)
    seen = view(game, played(game, ["1"]), 1)
    picture = position_svg(game, seen, "position", targets=True)
    pits = re.findall(r'data-place="(pits:\d\[\d\])"', picture)
    # the opponent's row above, Player 1's at the bottom of the table
    assert pits == ["pits:1[2]", "pits:2[2]", "pits:3[2]", "pits:1[1]", "pits:2[1]",
                    "pits:3[1]"]  # the empty pit too: it can be clicked in the browser
    badges = re.findall(r'fill="#fff">(\d+)</text>', picture)
    assert badges == ["5", "4", "4", "0", "5", "5"]
    marked = game_of(WITH_A_MARKER)
    picture = position_svg(marked, view(marked, played(marked, ["1"]), 1), "position")
    assert re.findall(r'fill="#fff">(\d+)</text>', picture) == ["5", "4", "4", "5", "5"]


def test_a_field_of_many_places_still_lists_only_those_in_use() -> None:
    game = compile_game(load("bottoms-up"))
    state = game.new_state(4, 1)
    text = screen(game, state)
    assert "of 90 places empty" in text
    picture = position_svg(game, view(game, state, 1), "position")
    assert ">The playing field · empty<" in picture
