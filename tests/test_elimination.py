"""Players knocked out (`eliminate`): out of the turn order and of every decision, shown
as out, still ranked (below the seats still in, the later out the higher), and the game
ends by itself when one player is left unless an end rule ends it first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from interpreter.api import load_game
from interpreter.assemble.describer import describer_for
from interpreter.play.game import Game
from interpreter.run.view import view
from interpreter.view.render import render_view

RULESETS = Path(__file__).resolve().parent / "rulesets"
KNOCKOUT = RULESETS / "knockout.yaml"

# Player 1 strikes 2, 2 strikes 3, 3 strikes 2 (2 is out), 4 strikes 3 (3 is out),
# 1 strikes 4, 4 strikes 1, 1 strikes 4 (4 is out: 1 is the last player left).
MOVES = [(1, "strike2"), (2, "strike3"), (3, "strike2"), (4, "strike3"), (1, "strike4"),
         (4, "strike1"), (1, "strike4")]


def play(game: Game, moves: list[tuple[int, str]], players: int = 4):
    state = game.new_state(players, seed=0)
    for seat, notation in moves:
        assert game.deciding_seats(state) == [seat], (seat, notation)
        game.apply_in_place(state, seat, notation)
    return state


def game_from(tmp_path: Path, text: str) -> Game:
    path = tmp_path / "game.yaml"
    path.write_text(text)
    return load_game(str(path))


def test_knocked_out_players_take_no_more_turns() -> None:
    game = load_game(str(KNOCKOUT))
    state = play(game, MOVES[:3])
    assert state.out == (2,)
    assert game.deciding_seats(state) == [4]  # 3 struck, then 4: player 2 is passed over
    state = play(game, MOVES)
    assert state.over and state.winners == [1]
    assert state.reason == "only one player is left in the game"
    assert state.out == (2, 3, 4)
    # turns taken: 3, 1, 1, 2 (with empty turns for those out it would be 3, 3, 2, 2)
    assert state.seat_vars["turns_taken"] == [3, 1, 1, 2]
    assert state.turn == 7


def test_random_games_of_four_never_give_a_knocked_out_seat_a_turn() -> None:
    game = load_game(str(KNOCKOUT))
    for seed in range(20):
        state = game.new_state(4, seed)
        while not state.over:
            seat = game.deciding_seats(state)[0]
            assert seat not in state.out
            options = game.legal_options(state, seat)
            game.apply_in_place(state, seat, options[seed % len(options)].notation)
        # one strike a turn, every turn a seat still in
        assert sum(state.seat_vars["turns_taken"]) == state.turn == state.decisions
        assert len(state.out) == 3 and state.winners == [
            s for s in (1, 2, 3, 4) if s not in state.out]


def test_the_ranking_puts_those_out_below_the_rest_latest_out_highest() -> None:
    game = load_game(str(KNOCKOUT))
    state = play(game, MOVES)
    keys = game.rank_keys_of(game.env(state))
    assert sorted(keys, key=keys.__getitem__, reverse=True) == [1, 4, 3, 2]
    from interpreter.adapters.encoding import returns
    assert returns(game, state) == [1.0, -1.0, -1 / 3, 1 / 3]


def test_state_copies_and_json_keep_who_is_out() -> None:
    game = load_game(str(KNOCKOUT))
    state = play(game, MOVES[:4])
    copy = state.copy()
    assert copy.out == (2, 3)
    data = json.loads(json.dumps(state.to_json()))
    assert data["out"] == [2, 3]
    again = game.state_from_json(data)
    assert again.out == (2, 3) and again.to_json() == state.to_json()
    game.apply_in_place(again, 1, "strike4")
    assert game.deciding_seats(again) == [4]
    # a game without anyone out saves as before
    assert "out" not in game.new_state(4, 0).to_json()


def test_views_the_terminal_and_the_log_show_who_is_out() -> None:
    game = load_game(str(KNOCKOUT))
    state = play(game, MOVES[:3])
    seen = view(game, state, 1)
    assert seen["eliminated"] == [2]
    assert {"say": "Player 2 is out of the game"} in seen["log"]
    console = Console(width=120, record=True)
    console.print(render_view(game, seen, colour=False))
    text = console.export_text()
    assert "out: Player 2" in text


def test_the_rulebook_says_it() -> None:
    game = load_game(str(KNOCKOUT))
    text = "\n".join(describer_for(game).sentences(game.ruleset.turn))
    assert "Knock out of the game: target (no more turns, no more decisions)." in text


def test_next_seat_passes_over_those_out(tmp_path: Path) -> None:
    game = load_game(str(KNOCKOUT))
    state = play(game, MOVES[:3])
    env = game.env(state)
    from interpreter.compile.functions import f_next_seat
    assert f_next_seat(env, 1) == 3 and f_next_seat(env, 4) == 1


SIMULTANEOUS = """
tabletop: 1
game:
  name: all-at-once
  title: All at once
  designer: Test Suite
  seats: {min: 3, max: 3}
  summary: Everyone picks at once; player 2 is out from the start.
pieces:
  attributes:
    kind: {values: [token]}
  sets:
    - {id: tokens, count: 1, each: {kind: [token]}, start: box}
zones:
  - {id: box, kind: pile}
variables:
  - {id: picks, per_seat: true, initial: 0}
setup:
  - eliminate: 2
turn:
  - choose: "pick"
    seats: seats
    options:
      - id: pick
        notation: pick
        do:
          - add: picks
            seat: chooser
            amount: 1
  - choose: "{seat_name(2)} would choose here"
    seat: 2
    options:
      - id: wave
        notation: wave
        do: []
end:
  - id: three
    when: turn == 3
"""


def test_simultaneous_and_named_decisions_leave_out_the_seats_out(tmp_path: Path) -> None:
    game = game_from(tmp_path, SIMULTANEOUS)
    state = game.new_state(3, 0)
    assert game.deciding_seats(state) == [1, 3]
    game.apply_in_place(state, 1, "pick")
    game.apply_in_place(state, 3, "pick")
    assert game.deciding_seats(state) == [1, 3]  # player 2's own decision was passed
    assert state.seat_vars["picks"] == [1, 0, 1]
    assert state.current == 3  # the turn went from 1 to 3


def test_a_first_seat_knocked_out_while_setting_up_does_not_start(tmp_path: Path) -> None:
    game = game_from(tmp_path, SIMULTANEOUS.replace("  - eliminate: 2\n",
                                                    "  - eliminate: 1\n"))
    state = game.new_state(3, 0)
    assert state.current == 2 and state.turn == 1
    assert game.deciding_seats(state) == [2, 3]


def test_an_end_rule_decides_before_the_last_player_is_left(tmp_path: Path) -> None:
    text = KNOCKOUT.read_text() + """
end:
  - id: two-out
    when: len(eliminated) == 2
    text: Two players are out
"""
    game = game_from(tmp_path, text)
    state = play(game, MOVES[:4])
    assert state.over and state.reason == "Two players are out"
    # the ranking: those in above those out (no `rank`: standing decides)
    assert state.winners == [1, 4]


def test_pettingzoo_agents_knocked_out_are_done() -> None:
    pytest.importorskip("pettingzoo")
    from interpreter.adapters.pettingzoo import TabletopEnv
    env = TabletopEnv(str(KNOCKOUT), players=4)
    env.reset(seed=0)
    acted: list[str] = []
    for seat, notation in MOVES:
        while env.terminations[env.agent_selection]:  # the dead step of a seat out
            gone = env.agent_selection
            assert env.engine_state.out and gone == f"player_{env.engine_state.out[-1] - 1}"
            env.step(None)
            assert gone not in env.agents
        assert env.agent_selection == f"player_{seat - 1}"
        acted.append(env.agent_selection)
        env.step(env.action_of(notation))
        if seat == 3:  # player 2 is out: done, its standing (last of all) as its reward
            assert env.terminations["player_1"] and env.rewards["player_1"] == -1.0
            assert env.agent_selection == "player_1"
    assert env.engine_state.over and env.engine_state.winners == [1]
    assert acted.count("player_1") == 1 and acted.count("player_2") == 1


def test_openspiel_never_asks_a_seat_that_is_out() -> None:
    pytest.importorskip("pyspiel")
    from interpreter.adapters import openspiel as adapter
    game = adapter.load(str(KNOCKOUT), players=4)
    state = game.new_initial_state()  # (it draws nothing: no chance node)
    for seat, notation in MOVES:
        assert state.current_player() == seat - 1
        action = next(a for a in state.legal_actions()
                      if state.action_to_string(state.current_player(), a) == notation)
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [1.0, -1.0, -1 / 3, 1 / 3]


def test_pettingzoo_api_test_passes_with_agents_knocked_out() -> None:
    pytest.importorskip("pettingzoo")
    import warnings

    from pettingzoo.test import api_test

    from interpreter.adapters.pettingzoo import env
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        api_test(env(str(KNOCKOUT), None, 4, render_mode="ansi"), num_cycles=200)


def test_scenario_tests_read_who_is_out() -> None:
    from interpreter.scenarios.runner import run_scenario_files
    results = run_scenario_files([RULESETS / "knockout.tests.yaml"])
    assert [r.passed for r in results] == [True, True], [r.message for r in results]
