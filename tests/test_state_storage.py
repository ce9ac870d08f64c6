"""The state's storage: a copy shares the places' piece lists (copy-on-write), costs a
pointer per place rather than a list per place, and still plays the very same games."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import pytest

from interpreter.api import load_game
from interpreter.assemble.game import compile_game
from interpreter.load.loader import load_ruleset_text
from interpreter.play.game import Game
from interpreter.run.machine import Machine
from interpreter.run.state import State
from tests.seeded_games import FIXTURE, GAMES, key, play

OPEN_TABLE = """
tabletop: 1
game: {name: open-table, title: Open table, seats: {min: 2, max: 2}, summary: Put counters down.}
pieces:
  attributes: {colour: {values: [red, blue, green]}}
  sets:
    - {id: counters, each: {colour: [red, blue, green]}, start: supply}
zones:
  - {id: table, kind: grid, reach: REACH}
  - {id: supply, kind: pile}
turn:
  - choose: Put a counter down
    options:
      - id: put
        for: {sq: "[place('0,0'), place('1,0'), place('0,1')]"}
        where: empty(sq)
        notation: "{place_name(sq)}"
        do:
          - move: top(supply)
            to: sq
budgets: {places: 50000}
end:
  - id: all-down
    when: count(pieces(supply)) == 0
    winners: "[]"
    text: Every counter is down.
"""


def open_table(reach: int) -> Game:
    text = OPEN_TABLE.replace("REACH", str(reach))
    return compile_game(load_ruleset_text(text, f"open-table-{reach}.yaml"))


@pytest.fixture(scope="module")
def recorded() -> dict:
    return json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: key(*g))
def test_seeded_games_play_as_recorded(recorded: dict, game: tuple) -> None:
    """Games recorded before the copy-on-write storage (tests/seeded_games.py): the
    same decisions and, saved at the end, the very same state."""
    assert play(*game) == recorded[key(*game)]


@pytest.fixture(scope="module")
def played() -> tuple[Game, State]:
    """A game of the open table once its three counters are down (the supply empty)."""
    game = open_table(3)
    state = game.new_state(2, 1)
    for notation in ("0,0", "1,0", "0,1"):
        game.apply_in_place(state, game.deciding_seats(state)[0], notation)
    return game, state


def places(state: State) -> list[list[int]]:
    return [stack[:] for stack in state.sites]


def test_a_change_to_a_copy_does_not_reach_the_original(played: tuple[Game, State]) -> None:
    game, state = played
    before, saved = places(state), json.dumps(state.to_json())
    copy = state.copy()
    machine = Machine(game, copy, limited=False)
    square, supply = game.site_by_name["0,0"], game.site_by_name["supply"]
    machine.move(copy.sites[square][-1], supply)
    machine.move(copy.sites[supply][-1], game.site_by_name["-1,-1"], bottom=True)
    assert places(state) == before
    assert json.dumps(state.to_json()) == saved
    assert copy.sites[square] == []


def test_a_change_to_the_original_does_not_reach_a_copy(played: tuple[Game, State]) -> None:
    game, original = played
    state = original.copy()  # (the module's state stays as it was for the other tests)
    copy = state.copy()
    before = places(copy)
    machine = Machine(game, state, limited=False)
    a, b = state.sites[game.site_by_name["0,0"]][0], state.sites[game.site_by_name["1,0"]][0]
    machine.swap(a, b)
    machine.move(a, game.site_by_name["supply"])
    machine.shuffle(game.site_by_name["supply"])
    assert places(copy) == before
    assert places(state) != before


def test_copies_of_copies_stay_apart(played: tuple[Game, State]) -> None:
    game, original = played
    first = original.copy()
    second = first.copy()
    third = second.copy()
    supply, square = game.site_by_name["supply"], game.site_by_name["0,0"]
    for n, state in enumerate((first, second, third)):
        Machine(game, state, limited=False).move(state.sites[square][0], supply + 0)
        assert len(state.sites[supply]) == 1, n
    assert original.sites[supply] == []
    assert all(s.sites[square] == [] for s in (first, second, third))


def test_a_changed_copy_round_trips_exactly(played: tuple[Game, State]) -> None:
    game, original = played
    state = original.copy()
    Machine(game, state, limited=False).move(state.sites[game.site_by_name["0,1"]][0],
                                             game.site_by_name["2,2"])
    data = state.to_json()
    back = State.from_json(json.loads(json.dumps(data)), game.n_pieces)
    assert back.to_json() == data
    assert back.loc == state.loc


def test_a_new_game_leaves_the_game_s_start_untouched() -> None:
    game = load_game("tic-tac-toe", {})
    start = [stack[:] for stack in game.start_sites]
    state = game.new_state(2, 1)
    game.apply_in_place(state, 1, game.legal_options(state, 1)[0].notation)
    assert game.start_sites == start


def test_a_copy_costs_a_pointer_per_square_not_a_list() -> None:
    """A 199×199 open table (39,601 squares, 3 counters): copying the state costs less
    than a quarter of copying a list per square (storage that copies every square's
    list costs all of it, and more)."""
    game = open_table(99)
    state = game.new_state(2, 1)
    for notation in ("0,0", "1,0", "0,1"):
        game.apply_in_place(state, game.deciding_seats(state)[0], notation)
    copy = timed(state.copy)
    every_list = timed(lambda: list(map(list.copy, state.sites)))
    assert copy < every_list / 4, f"a copy costs {copy / every_list:.2f} of every list's"


def timed(work: Callable[[], object], n: int = 20, repeats: int = 5) -> float:
    """Seconds `work` takes, the best of `repeats` (the least disturbed by the machine)."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        for _ in range(n):
            work()
        best = min(best, (time.perf_counter() - started) / n)
    return best
