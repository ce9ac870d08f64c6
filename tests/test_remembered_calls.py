"""Work the rules do once per state instead of again and again, charged as if done again.

A definition with parameters that loops is remembered, call by call, for the state as
it is (compile.codegen.remembered): the same arguments give the remembered value and
charge the remembered steps, exactly what the careful path charges computing it again.
A playout's random player lists the options from what the machine computed on its way
to the decision (Game.play_sampled). Neither changes a game, a step or an error.
"""

from __future__ import annotations

from typing import Any

from interpreter.api import load_game
from interpreter.assemble.game import Game
from interpreter.run.machine import Env, Machine
from interpreter.simulate.playout import make_agents
from tests.compiled_text import game_of, outcome

_TEXT = """\
tabletop: 1
game: {name: remembered, title: Remembered, designer: Test, seats: {min: 2, max: 2}, summary: s}
pieces:
  attributes:
    colour: {values: [red, blue]}
  sets: [{id: a, count: 3, each: {colour: [red, blue]}, start: pile}]
zones: [{id: pile, kind: pile}, {id: heap, kind: pile}]
define:
  reds(z): "[p for p in pieces(pile) if p.colour == z]"
turn:
  - choose: go
    options: [{id: go, notation: go}]
end: [{id: e, when: "turn >= 3"}]
"""
_TWICE = "count(reds('red')) + count(reds('red'))"


def _games() -> tuple[Game, Game]:
    return (game_of(_TEXT, file="remembered.yaml"),
            game_of(_TEXT, generate=False, file="remembered.yaml"))


def _counted(game: Game, text: str, name: str) -> tuple[Any, list[tuple]]:
    """`text` compiled, and the calls its generated code makes of definition `name`."""
    compiled = game.compile_expression(text)
    namespace = compiled.__globals__
    key = next(k for code in game.generated_code if code.what == text
               for k, v in code.legend.items() if v == f"definition {name}")
    function, calls = namespace[key], []

    def counting(env: Any, *args: Any) -> Any:
        calls.append(args)
        return function(env, *args)
    namespace[key] = counting
    return compiled, calls


def _outcome(game: Game, env: Env, text: str) -> tuple[str, str, int]:
    return outcome(game, text, env)


def test_a_definition_that_loops_is_computed_once_per_state_and_charged_each_time() -> None:
    fast, careful = _games()
    compiled, calls = _counted(fast, _TWICE, "reds")
    env = Env(fast, fast.new_state(2, 1))
    value = compiled(env)
    assert calls == [("red",)]
    again = Env(careful, careful.new_state(2, 1))
    assert (value, env.steps) == (careful.compile_expression(_TWICE)(again), again.steps)
    # another expression on the same state: remembered, charged as computed again
    assert fast.compile_expression("reds('red')")(env) == \
        careful.compile_expression("reds('red')")(again)
    assert env.steps == again.steps
    compiled(env)
    assert calls == [("red",)]


def test_a_change_to_the_state_forgets_the_remembered_calls() -> None:
    """A move forgets them (the machine forgets what the cache holds, here nothing but
    the remembered calls)."""
    fast, careful = _games()
    compiled, calls = _counted(fast, _TWICE, "reds")
    machine = Machine(fast, fast.new_state(2, 1), limited=False)
    before = compiled(machine.env)
    red = fast.compile_expression("first(reds('red'))")(machine.env)
    machine.move(red, fast.site_by_name["heap"])
    after = compiled(machine.env)
    assert calls == [("red",), ("red",)] and after == before - 2
    other = Machine(careful, careful.new_state(2, 1), limited=False)
    careful.compile_expression(_TWICE)(other.env)
    careful.compile_expression("first(reds('red'))")(other.env)
    other.move(red, careful.site_by_name["heap"])
    assert careful.compile_expression(_TWICE)(other.env) == after
    assert machine.env.steps == other.env.steps


def test_remembered_calls_stop_at_the_same_step_as_the_careful_path() -> None:
    """Wherever the budget runs out, in the first computation or in a remembered one."""
    fast, careful = _games()
    text = f"{_TWICE} + count(reds('blue'))"
    total = _outcome(careful, Env(careful, careful.new_state(2, 1)), text)[2]
    assert total > 20
    for limit in range(2 * total + 2):
        outcomes = []
        for game in (fast, careful):
            env = Env(game, game.new_state(2, 1))
            env.step_limit = limit
            first = _outcome(game, env, text)
            outcomes.append((first, _outcome(game, env, text)))
        assert outcomes[0] == outcomes[1], limit


def test_a_playouts_random_player_lists_from_what_the_machine_computed() -> None:
    """Sampling with the machine that advanced the state starts from the definitions it
    computed on its way to the decision: less listing work, the very same game."""
    game = load_game("aquarius-rising", {})
    players = game.max_seats
    states, searched = [], []
    for reuse in (True, False):
        state = game.new_state(players, 3)
        agents = make_agents(players, 3)
        machine = Machine(game, state, limited=False)
        counted = [0]
        for _ in range(30):
            seat = game.deciding_seats(state)[0]
            game.play_sampled(state, seat, agents[seat], counted,
                              machine if reuse else None, words=False)
        states.append(state.to_json())
        searched.append(counted[0])
    assert states[0] == states[1]
    assert searched[0] < searched[1]


def test_a_machine_that_did_not_advance_the_state_last_lists_afresh() -> None:
    """Between two random decisions on one machine, another player's decision carried
    out elsewhere (a searching player's, in a game of mixed players) changes the state:
    what the machine computed before is not the state's any more."""
    game = load_game("aquarius-rising", {})
    players = game.max_seats
    states = []
    for reuse in (True, False):
        state = game.new_state(players, 5)
        agents = make_agents(players, 5)
        machine = Machine(game, state, limited=False)
        for number in range(40):
            seat = game.deciding_seats(state)[0]
            if number % 3:  # someone else's decisions (a whole turn), not on this machine
                game.apply_trusted(state, seat, game.raw_options(state, seat)[-1],
                                   words=False)
            else:
                game.play_sampled(state, seat, agents[seat], None,
                                  machine if reuse else None, words=False)
        states.append(state.to_json())
    assert states[0] == states[1]
