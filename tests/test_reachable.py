"""`reachable(start, through, directions)`: the places reachable from a place through
neighbouring places in a list, so a connection ("are the two edges linked?") can be a
definition used in `where` and in end rules. Both ways of running expressions agree on
it, value, error and steps, and it is charged to the step budget."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from interpreter.api import load
from interpreter.assemble.describer import describer_for
from interpreter.assemble.game import PURE_FUNCTIONS, Game, compile_game
from interpreter.errors import TabletopError
from interpreter.run.machine import Env
from interpreter.run.state import State
from interpreter.scenarios.runner import run_scenario_files
from interpreter.simulate.playout import make_agents, play_game

RULESETS = Path(__file__).resolve().parent / "rulesets"
CROSSING = RULESETS / "crossing.yaml"


@cache
def pair() -> tuple[Game, Game]:
    loaded = load(str(CROSSING))
    return compile_game(loaded, {}), compile_game(loaded, {}, generate=False)


def position(game: Game, black: list[str], white: list[str] = ()) -> State:
    state = game.blank_state(2, 0)
    for names, supply in ((black, "black_stones"), (white, "white_stones")):
        pile = state.stack(game.zones[supply].first)
        for name in names:
            piece = pile.pop()
            site = game.site_by_name[name]
            state.stack(site).append(piece)
            state.loc[piece] = site
    return state


def full_board(game: Game) -> State:
    """Every square of the 11×11 board holding a stone (61 black, then 60 white)."""
    squares = [game.site_name[s] for s in game.zones["board"].sites_in_play(2)]
    return position(game, squares[:61], squares[61:])


def outcome(game: Game, state: State, text: str, limit: int = 100_000) -> tuple[str, Any, int]:
    compiled = game.compile_expression(text)
    env = Env(game, state.copy())
    env.step_limit = limit
    try:
        value = compiled(env)
    except TabletopError as exc:
        return ("error", str(exc), env.steps)
    names = game.site_name
    shown = [names[v] for v in value] if isinstance(value, list) else value
    return ("value", shown, env.steps)


CHAIN = ["a1", "b1", "c1", "d1", "e1", "f2", "g1"]


@pytest.mark.parametrize(("text", "expected"), [
    ("reachable('a1', stones(1), orthogonal)", ["a1", "b1", "c1", "d1", "e1"]),
    ("reachable('a1', stones(1))", ["a1", "b1", "c1", "d1", "e1", "f2", "g1"]),
    ("reachable('g1', stones(1), orthogonal)", ["g1"]),
    # a start outside `through` is left out, but its neighbours in it are reached
    ("reachable('a2', stones(1), orthogonal)", ["a1", "b1", "c1", "d1", "e1"]),
    ("reachable('a2', [], orthogonal)", []),
    ("reachable(['g1', 'a1', 'g1'], stones(1), orthogonal)",
     ["g1", "a1", "b1", "c1", "d1", "e1"]),
    ("reachable(null, stones(1))", []),
    # the empty squares a stone on e1 could slide to, west of f
    ("count(reachable('e1', [sq for sq in cells(board) if empty(sq) and col(sq) < 6], "
     "orthogonal))", 5 * 10 - 1),
    ("west_east", False),
])
def test_reachable_follows_neighbours_through_the_places_given(text: str, expected: Any) -> None:
    fast, careful = pair()
    state = position(fast, CHAIN, ["a2"])
    found = outcome(fast, state, text)
    assert found == outcome(careful, state, text)  # value and steps on either path
    assert found[0] == "value" and found[1] == expected, found


@pytest.mark.parametrize("text", [
    "reachable(3.5, stones(1))", "reachable('a1', 7)", "reachable('a1', ['zz'])",
    "reachable('a1', stones(1), ['up'])", "reachable([null], stones(1))",
])
def test_wrong_values_give_the_same_error_on_either_path(text: str) -> None:
    fast, careful = pair()
    state = position(fast, CHAIN)
    found = outcome(fast, state, text)
    assert found == outcome(careful, state, text)
    assert found[0] == "error", found


def test_every_place_reached_is_charged_to_the_step_budget() -> None:
    fast, careful = pair()
    full = full_board(fast)
    text = "reachable('a1', cells(board), orthogonal)"
    small = outcome(fast, position(fast, ["a1"]), "reachable('a1', ['a1'], orthogonal)")
    big = outcome(fast, full, text)
    assert len(big[1]) == 121 and big[2] > small[2] + 121 * 4
    stopped = outcome(fast, full, text, limit=big[2] - 1)
    assert stopped[0] == "error" and "steps" in stopped[1]
    assert stopped == outcome(careful, full, text, limit=big[2] - 1)


def test_random_games_of_a_connection_game_agree_on_both_paths() -> None:
    fast, careful = pair()
    for seed in range(4):
        a = play_game(fast, 2, seed, make_agents(2, seed))
        b = play_game(careful, 2, seed, make_agents(2, seed))
        assert a.decisions == b.decisions and a.winners == b.winners
        fa, fb = a.final_state.to_json(), b.final_state.to_json()
        assert fa.pop("steps") <= fb.pop("steps")
        assert json.dumps(fa, sort_keys=True) == json.dumps(fb, sort_keys=True)


def test_scenarios_of_the_connection_game_pass() -> None:
    results = run_scenario_files([RULESETS / "crossing.tests.yaml"])
    assert [r.passed for r in results] == [True, True], [r.message for r in results]


def test_it_is_pure_and_the_rulebook_says_it() -> None:
    assert "reachable" in PURE_FUNCTIONS
    fast, _ = pair()
    english = describer_for(fast).english.text("reachable(a1, stones(1), orthogonal)")
    assert english.startswith("the places reachable from a1 through"), english
