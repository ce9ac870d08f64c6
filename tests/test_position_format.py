"""Issue 40 §1: positions have one readable format, the scenario tests' own. `run --json`
prints the last position in it (`final_state`; the engine's state stays as
`engine_state`), and a position pasted into a case starts the case from that position:
the same legal options and the same view for every seat."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from console import invoke
from ruamel.yaml import YAML

from interpreter.api import load_game
from interpreter.errors import RulesetError
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import SPECTATOR, view
from interpreter.scenarios.position import position_of
from interpreter.scenarios.runner import case_start, load_scenario_file
from interpreter.simulate.record import read_save


def pasted(tmp_path: Path, ruleset: str, position: dict[str, Any],
           extra: dict[str, Any] | None = None) -> State:
    """The state a case starts from, its keys pasted from a printed position."""
    case = {"name": "pasted", **position, **(extra or {})}
    tests = tmp_path / "pasted.tests.yaml"
    tests.write_text(json.dumps({"ruleset": ruleset, "cases": [case]}, indent=1))
    return case_start(load_scenario_file(tests).cases[0])


def seen(game: Game, state: State, seat: int) -> dict[str, Any]:
    """A seat's view, less what a position does not carry: the log of how the game got
    there and how many turns it took."""
    out = view(game, state, seat)
    del out["log"], out["turn"]
    return out


def assert_same(game: Game, a: State, b: State) -> None:
    assert game.deciding_seats(a) == game.deciding_seats(b)
    for seat in game.deciding_seats(a):
        assert ([o.notation for o in game.legal_options(a, seat)]
                == [o.notation for o in game.legal_options(b, seat)])
    for seat in (SPECTATOR, *range(1, a.players + 1)):
        assert seen(game, a, seat) == seen(game, b, seat), seat


# -- run --json ----------------------------------------------------------------------------

@pytest.mark.parametrize("name, players", [("caldera", 2), ("aquarium", 3), ("perudo", 3),
                                           ("bottoms-up", 4), ("goofspiel", 2)])
def test_the_position_run_prints_pasted_into_a_case_is_the_same_position(
        tmp_path: Path, name: str, players: int) -> None:
    result = invoke("run", name, "--players", str(players), "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    printed = data["final_state"]
    assert set(printed) <= {"players", "options", "position", "turn", "variables", "out",
                            "ended"}
    assert printed["ended"]["winners"] == data["winners"]
    game = load_game(name, data["options"])
    final = State.from_json(data["engine_state"], game.n_pieces)  # the engine's own, for tools
    case = pasted(tmp_path, name, printed)
    assert case.over and case.winners == data["winners"] and case.reason == data["reason"]
    assert_same(game, final, case)


def test_run_json_keeps_the_engines_state_under_its_own_name() -> None:
    data = json.loads(invoke("run", "tic-tac-toe", "--seed", "1", "--json").stdout)
    assert {"sites", "frames", "rng"} <= set(data["engine_state"])
    assert not {"sites", "frames", "rng"} & set(data["final_state"])
    board = data["final_state"]["position"]["board"]
    assert all(isinstance(k, str) and isinstance(v, list) for k, v in board.items())


def test_run_help_says_what_the_position_is() -> None:
    shown = " ".join(invoke("run", "--help").stdout.split())
    assert "scenario tests' format" in shown and "engine_state" in shown


# -- any position in play, at the start of a turn ------------------------------------------

@pytest.mark.parametrize("name, players", [("caldera", 2), ("high-rise", 2),
                                           ("bottoms-up", 4), ("aquarium", 3),
                                           ("perudo", 4), ("oware", 2)])
def test_a_position_at_the_start_of_a_turn_pastes_into_the_same_position(
        tmp_path: Path, name: str, players: int) -> None:
    """Along a random game, each position where a turn has just begun, written out and
    pasted into a case, gives the same options and views."""
    game = load_game(name, {})
    state = game.new_state(players, 2)
    rng = random.Random(2)
    checked = 0
    for _ in range(300):
        if state.over or checked == 4:
            break
        seat = game.deciding_seats(state)[0]
        turn = state.turn
        game.apply_in_place(state, seat, rng.choice(game.legal_options(state, seat)).notation)
        if state.turn != turn and not state.over:
            assert_same(game, state, pasted(tmp_path, name, position_of(game, state)))
            checked += 1
    assert checked


def test_seats_knocked_out_are_part_of_the_position(tmp_path: Path) -> None:
    game = load_game("perudo", {})
    state = game.new_state(4, 5)
    rng = random.Random(5)
    while not state.out or game.deciding_seats(state) == []:
        seat = game.deciding_seats(state)[0]
        game.apply_in_place(state, seat, rng.choice(game.legal_options(state, seat)).notation)
    turn = state.turn
    while state.turn == turn:  # on to the start of a turn
        seat = game.deciding_seats(state)[0]
        game.apply_in_place(state, seat, rng.choice(game.legal_options(state, seat)).notation)
    written = position_of(game, state)
    assert written["out"] == list(state.out)
    assert_same(game, state, pasted(tmp_path, "perudo", written))


def test_pieces_named_alike_are_told_apart_by_their_attributes(tmp_path: Path) -> None:
    """Aquarium's cards of one name differ in value: the written position says which."""
    game = load_game("aquarium", {})
    state = game.new_state(2, 1)
    written = position_of(game, state)
    cards = written["position"]["shop"]  # a pile: its cards, bottom first
    assert cards and any(isinstance(c, dict) and "value" in c for c in cards)
    case = pasted(tmp_path, "aquarium", written)
    assert seen(game, case, SPECTATOR)["zones"] == seen(game, state, SPECTATOR)["zones"]


def test_an_attribute_no_piece_of_that_name_has_is_a_located_error(tmp_path: Path) -> None:
    tests = tmp_path / "bad.tests.yaml"
    tests.write_text("ruleset: aquarium\ncases:\n  - name: x\n    position:\n"
                     "      shop: [{piece: red fish size 1, value: 99}]\n")
    with pytest.raises(RulesetError) as caught:
        load_scenario_file(tests)
    assert "bad.tests.yaml:5:" in str(caught.value)
    assert "no 'red fish size 1' has value 99" in str(caught.value)


def test_ended_goes_with_a_position(tmp_path: Path) -> None:
    tests = tmp_path / "bad.tests.yaml"
    tests.write_text("ruleset: caldera\ncases:\n  - name: x\n    seed: 1\n"
                     "    ended: {winners: [1]}\n")
    with pytest.raises(RulesetError) as caught:
        load_scenario_file(tests)
    assert "'ended' goes with a position" in str(caught.value)


def test_a_variable_holding_places_is_written_as_an_expression(tmp_path: Path) -> None:
    """Bottoms Up's queue of stacks holds places: written `place('field:2')`, never the
    engine's number for the place."""
    game = load_game("bottoms-up", {})
    state = game.new_state(4, 1)
    state.vars["queue"] = [game.site_by_name["field:2"]]
    written = position_of(game, state)
    assert written["variables"]["queue"] == "[place('field:2')]"
    case = pasted(tmp_path, "bottoms-up", {**written, "turn": state.current})
    assert case.vars["queue"] == state.vars["queue"] or case.vars["queue"] == []


# -- the terminal's `position` command ------------------------------------------------------

def test_the_terminal_prints_the_position_to_paste_into_a_test(tmp_path: Path) -> None:
    """`position` in `tabletop play` prints YAML that, pasted into a case, is the position
    on the screen (the game is rebuilt from its save to compare)."""
    save = tmp_path / "game.json"
    result = invoke("play", "connect-four", "--seed", "1", "--save", str(save),
                    input="d1\nposition\nquit\n")
    assert result.exit_code == 0, result.output
    printed = result.stdout.split("The position, to paste into a test case")[1]
    text = printed.split("\n", 1)[1].split("\nPlayer 1>", 1)[0]
    written = YAML(typ="safe").load(text)
    assert "d1" in written["position"]["board"]
    game = load_game("connect-four", {})
    state = game.new_state(2, 1)
    for seat, notation in read_save(save).decisions:
        game.apply_in_place(state, seat, notation)
    assert_same(game, state, pasted(tmp_path, "connect-four", written))


def test_the_terminal_shows_no_position_of_a_game_with_secrets() -> None:
    result = invoke("play", "bottoms-up", "--seed", "1", input="position\nquit\n")
    assert "hides things from its players" in " ".join(result.stdout.split())
    assert "The position, to paste" not in result.stdout
