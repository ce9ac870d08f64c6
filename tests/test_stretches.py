"""Stretches: runs of instructions generated as one function (compile/stretches.py).

A stretch must do exactly what the machine does one instruction at a time: the same
effects in the same order, the same steps, triggers fired between two effects, a pause
at the decision that paused, and an error located at the effect it came from.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from interpreter.api import load_game
from interpreter.assemble.game import compile_game
from interpreter.errors import RuleError
from interpreter.load.loader import load_ruleset_text
from interpreter.simulate.playout import make_agents, play_game
from tests.test_budgets import ruleset

RULESETS = ["caldera", "bottoms-up", "high-rise", "caldera-two-trios"]


def _pair(text: str) -> tuple:
    """The game with stretches, and instruction by instruction (both generated code)."""
    loaded = load_ruleset_text(text, "probe.yaml")
    return compile_game(loaded), compile_game(loaded, stretches=False)


@pytest.mark.parametrize("name", RULESETS)
def test_every_bundled_ruleset_has_stretches_and_plays_the_same_games(name: str) -> None:
    fast = load_game(name)
    careful = compile_game(fast.loaded, fast.options, stretches=False)
    stretches = [c for c in fast.generated_code if c.name.startswith("stretch")]
    assert stretches, "the turn is generated as stretches"
    assert any(f is not c for f, c in zip(fast.program, careful.program, strict=True))
    for seed in range(3):
        players = fast.check_players(None)
        a = play_game(fast, players, seed, make_agents(players, seed))
        b = play_game(careful, players, seed, make_agents(players, seed))
        assert a.decisions == b.decisions
        assert a.final_state is not None and b.final_state is not None
        # the very same state, frames and steps included
        assert (json.dumps(a.final_state.to_json(), sort_keys=True)
                == json.dumps(b.final_state.to_json(), sort_keys=True))


def test_a_stretch_pauses_where_the_decision_is() -> None:
    """After a decision the state's frame names the `choose` that waits, as it does when
    the instructions run one by one."""
    turn = """\
  - let: {a: "1"}
  - let: {b: "a + 1"}
  - choose: "again"
    options:
      - {id: again, notation: again}
"""
    fast, careful = _pair(ruleset(turn=turn))
    for game in (fast, careful):
        state = game.new_state(2, 1)
        game.apply_in_place(state, 1, "go")
        assert game.decision(state).prompt == "again"
    a, b = fast.new_state(2, 1), careful.new_state(2, 1)
    fast.apply_in_place(a, 1, "go")
    careful.apply_in_place(b, 1, "go")
    assert a.to_json() == b.to_json()


def test_an_error_inside_a_stretch_names_its_own_effect() -> None:
    turn = """\
  - let: {a: "1"}
  - let: {b: "a + 1"}
  - move: first(pieces('a1'))
    to: pile
"""
    text = ruleset(turn=turn)
    fast, careful = _pair(text)
    messages = []
    for game in (fast, careful):
        state = game.new_state(2, 1)
        with pytest.raises(RuleError) as info:
            game.apply_in_place(state, 1, "go")
        messages.append(str(info.value))
        assert info.value.location is not None and info.value.location.line == 19
        assert "gave no piece" in str(info.value)
    assert messages[0] == messages[1]
    assert any(c.name.startswith("stretch") for c in fast.generated_code)


def test_a_trigger_fires_between_two_effects_of_a_stretch() -> None:
    """The trigger's effect runs before the next effect of the stretch: `v` is 2 when
    the second `let` reads it."""
    text = ruleset(turn="""\
  - move: first(pieces(pile))
    to: place('a1')
  - let: {seen: v}
  - set: v
    value: seen * 10
""").replace("end:", """\
triggers:
  - id: landed
    enters: grid
    do:
      - set: v
        value: 2
end:""")
    fast, careful = _pair(text)
    for game in (fast, careful):
        state = game.new_state(2, 1)
        game.apply_in_place(state, 1, "go")
        assert state.vars["v"] == 20


def _outcome(game: Any, moves: int = 6) -> str:
    """What playing `moves` decisions gives: the state as JSON, or the error's text."""
    state = game.new_state(2, 1)
    try:
        for _ in range(moves):
            if state.over:
                break
            seat = game.deciding_seats(state)[0]
            game.apply_in_place(state, seat, 0)
    except RuleError as exc:
        return f"{type(exc).__name__}: {exc}"
    return json.dumps(state.to_json(), sort_keys=True)


INLINED = {
    # compile.inlines: an end rule that fails, names it (and its line)
    "end rule": ("", "  - {id: broken, when: \"count(pile) > 'x'\"}\n"),
    # the first decision of a turn whose options fail to list
    "options": ("""\
  - choose: "then"
    options:
      - id: bad
        for: {n: "[1, 2]"}
        where: "n > 'x'"
        notation: "{n}"
""", ""),
    # a decision for a seat that is none
    "seat": ("""\
  - choose: "then"
    seat: "3"
    options:
      - {id: then, notation: then}
""", ""),
    # moves: from the middle of a stack, to the bottom, a list, nothing
    "middle": ("""\
  - move: first(pieces(pile))
    to: place('a1')
""", ""),
    "bottom": ("""\
  - move: last(pieces(pile))
    to: place('a1')
    at: bottom
""", ""),
    "list": ("""\
  - move: pieces(pile)
    to: place('b1')
""", ""),
    "nothing": ("""\
  - move: first(pieces(place('b2')))
    to: pile
""", ""),
    # a text naming a place, given as it is (found when the ruleset loads) or computed
    # (found when the move runs: the careful path), and a computed one naming none
    "named place": ("""\
  - move: first(pieces(pile))
    to: "'b1'"
""", ""),
    "computed name": ("""\
  - move: first(pieces(pile))
    to: "'b' + str(1)"
""", ""),
    "not a place": ("""\
  - move: first(pieces(pile))
    to: "'b' + str(9)"
""", ""),
}


@pytest.mark.parametrize("case", sorted(INLINED))
def test_instructions_written_into_stretches_do_what_the_machine_does(case: str) -> None:
    """Beginning and ending a turn, asking for a decision and moving a piece are written
    into the stretches (compile.inlines, Move's inline): the same states, steps and
    errors as the machine's own methods, one instruction at a time."""
    turn, end = INLINED[case]
    text = ruleset(turn=turn, count="3")
    if end:
        text = text.replace("end:\n", "end:\n" + end)
    fast, careful = _pair(text)
    assert any("st.turn += 1" in c.source for c in fast.generated_code)
    got, expected = _outcome(fast), _outcome(careful)
    assert got == expected
    if case in ("end rule", "options", "seat", "nothing", "not a place"):
        assert got.startswith("RuleError: probe.yaml:"), got
    else:
        assert not got.startswith("RuleError"), got
