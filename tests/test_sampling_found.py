"""A playout's random player does not check again what the machine found on its way.

Pausing at a decision, the machine checks the kinds of option in order until one has
an option (Machine.found): those before it have none, that one has some. The random
player, choosing a kind among those with options (Game.play_sampled), checks only the
kinds after it, on the same state: the same game, decision for decision, at the cost of
one check where it made two.
"""

from __future__ import annotations

from typing import Any

import pytest

from interpreter.api import load, load_game
from interpreter.assemble.game import compile_game
from interpreter.play.game import Game
from interpreter.run.machine import Machine
from interpreter.simulate.playout import make_agents


def _counting_checks(game: Game) -> list[int]:
    """Count, for each kind of every decision, the checks made by the sampler, and by
    the machine's pause when it is not written into generated code (no stretches)."""
    counts = [0] * max(len(spec.kinds) for spec in game.choices.values())
    for spec in game.choices.values():
        for k, kind in enumerate(spec.kinds):
            def counted(env: Any, exists: Any = kind.exists, k: int = k) -> bool:
                counts[k] += 1
                return exists(env)
            kind.exists = counted
    return counts


def _play(reuse: bool, stretches: bool, decisions: int = 40
          ) -> tuple[dict[str, Any], list[int]]:
    game = compile_game(load("caldera"), {}, stretches=stretches)
    counts = _counting_checks(game)
    state = game.new_state(2, 4)
    agents = make_agents(2, 4)
    machine = Machine(game, state, limited=False)
    searched = [0]
    for _ in range(decisions):
        seat = game.deciding_seats(state)[0]
        game.play_sampled(state, seat, agents[seat], searched, machine if reuse else None,
                          words=False)
    return state.to_json(), counts


@pytest.mark.parametrize("stretches", [True, False], ids=["stretches", "instructions"])
def test_the_sampler_checks_only_the_kinds_after_the_one_the_machine_found(
        stretches: bool) -> None:
    reused, counts = _play(True, stretches)
    afresh, counts_afresh = _play(False, stretches)
    assert reused == afresh  # the same game, steps included
    # a machine of its own knows nothing: it checks them all (the first decision's
    # machine did not pause there itself either)
    assert counts_afresh[0] - counts[0] == 39
    if stretches:
        assert counts[0] == 1
    assert counts[1] == counts_afresh[1] > 0  # the later kinds are checked as before


def test_a_state_advanced_elsewhere_is_checked_in_full() -> None:
    """Another player's decision carried out elsewhere changes the state: what the
    machine found at its last pause is not the state's any more."""
    game = load_game("caldera")
    counts = _counting_checks(game)
    state = game.new_state(2, 6)
    agents = make_agents(2, 6)
    machine = Machine(game, state, limited=False)
    other = 0
    for number in range(30):
        seat = game.deciding_seats(state)[0]
        if number % 2:
            game.apply_trusted(state, seat, game.raw_options(state, seat)[0], words=False)
        else:
            before = counts[0]
            game.play_sampled(state, seat, agents[seat], None, machine, words=False)
            other += counts[0] - before
    assert other == 15
