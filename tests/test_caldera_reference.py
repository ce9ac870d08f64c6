"""The hand-written Caldera of the benchmarks (benchmarks/caldera_reference.py) plays
exactly the engine's Caldera, and the benchmarks' example rulesets (tic-tac-toe, Connect
Four) load, pass their scenario cases and play to a plausible end.

The engine and the reference are stepped in lockstep: at every decision both must show the
same position (through the engine's public view) and the same set of legal notations, and
the same notation is then applied to both; at the end both must agree on winners, scores,
reason and the number of turns. A benchmark against a reference that plays another game
would measure nothing.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from interpreter.agents.base import OptionChoice
from interpreter.api import load_game
from interpreter.assemble.game import Game
from interpreter.run.view import view
from interpreter.scenarios.runner import run_scenario_files
from interpreter.simulate.playout import make_agents, play_game

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _load_benchmark(name: str) -> ModuleType:
    """A module of benchmarks/ (not a package), by its file name."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


ref = _load_benchmark("caldera_reference")


# -- Caldera in lockstep --------------------------------------------------------------------

def engine_position(game: Game, state: Any) -> dict:
    """The position as the reference's `position()` gives it, read from a public view."""
    v = view(game, state, 1)
    zones = v["zones"]

    def pieces(place: dict) -> list[tuple[str, int]]:
        return [(p["colour"], p["size"]) for p in place["pieces"]]

    return {
        "current": v["current"],
        "turn": v["turn"],
        "board": {name: pieces(place) for name, place in zones["board"]["places"].items()},
        "captured": {int(seat): pieces(place) for seat, place in zones["captured"].items()},
        "variables": dict(v["variables"]),
    }


def greedy_choice(reference: Any, notations: list[str], rng: random.Random) -> str:
    """A player that captures whenever it can (looking one move ahead with the reference)
    and never makes a Power Play: its games end in three trios or a bare board, endings
    random players seldom reach."""
    best, best_gain = [], -1
    before = sum(len(pile) for pile in reference.captured)
    for notation in notations:
        if notation.startswith("pp-"):
            continue
        after = reference.copy()
        after.apply(ref.OPTION_OF[notation.lower()])
        gain = sum(len(pile) for pile in after.captured) - before
        if gain > best_gain:
            best, best_gain = [notation], gain
        elif gain == best_gain:
            best.append(notation)
    return rng.choice(best or notations)


def play_lockstep(seed: int, players: int = 2, power_play: bool = True,
                  policy: str = "random", check_every: int = 1) -> tuple[str, int]:
    """Play one game on both sides; returns (the end's reason, decisions made)."""
    game = load_game("caldera", {"power_play": power_play})
    state = game.new_state(players, seed)
    reference = ref.Caldera(seed, players, power_play)
    agents = make_agents(players, seed)
    rng = random.Random(seed)
    decisions = 0
    while not state.over:
        where = f"seed {seed}, {players} players, decision {decisions + 1}"
        assert not reference.over, f"{where}: the reference ended ({reference.reason})"
        seats = game.deciding_seats(state)
        assert seats == [reference.current], where
        seat = seats[0]
        options = game.legal_options(state, seat)
        engine_notations = [o.notation for o in options]
        reference_notations = reference.legal_notations()
        assert sorted(engine_notations) == sorted(reference_notations), where
        assert len(set(reference_notations)) == len(reference_notations), where
        if decisions % check_every == 0:
            assert engine_position(game, state) == reference.position(), where
        if policy == "random":
            index = agents[seat].choose(lambda s=seat: view(game, state, s), [
                OptionChoice(o.notation, o.label, o.kind) for o in options])
            notation = options[index].notation
        else:
            notation = greedy_choice(reference, reference_notations, rng)
        game.apply_in_place(state, seat, notation)
        reference.apply_notation(notation)
        decisions += 1
    where = f"seed {seed}, {players} players, at the end"
    assert reference.over, f"{where}: the engine ended ({state.reason}), the reference did not"
    assert engine_position(game, state) == reference.position(), where
    assert sorted(state.winners) == sorted(reference.winners), where
    assert game.scores(state) == reference.scores(), where
    assert state.reason == reference.reason, where
    return state.reason, decisions


def test_setup_deals_the_engines_volcano() -> None:
    game = load_game("caldera")
    for seed in [0, 1, 2, -5, 10**30]:
        state = game.new_state(2, seed)
        assert engine_position(game, state) == ref.Caldera(seed).position(), seed


@pytest.mark.parametrize(("players", "seeds"), [(2, range(0, 15)), (2, range(15, 30)),
                                                (3, range(100, 110))])
def test_random_games_agree_move_for_move(players: int, seeds: range) -> None:
    reasons = {play_lockstep(seed, players)[0] for seed in seeds}
    assert ref.NO_PROGRESS in reasons  # random games end by the quiet-turns ruling


def test_games_without_power_play_agree() -> None:
    for seed in range(200, 206):
        play_lockstep(seed, 2, power_play=False)


def test_greedy_games_reach_the_other_endings() -> None:
    reasons = set()
    for seed in range(300, 308):
        reasons.add(play_lockstep(seed, 2, power_play=False, policy="greedy")[0])
    for seed in range(308, 312):
        reasons.add(play_lockstep(seed, 3, power_play=True, policy="greedy")[0])
    assert ref.THREE_TRIOS in reasons


def test_the_reference_replays_the_engines_random_games() -> None:
    """Same options in the same order and the random player's policy: with the engine's
    seeds for the players, the reference plays the very games `play_game` plays (so the
    benchmark races both over the same games)."""
    game = load_game("caldera")
    from interpreter.simulate.playout import agent_seed

    for seed in range(3):
        result = play_game(game, 2, seed, make_agents(2, seed), keep_state=False)
        reference, log = ref.random_playout(seed, 2, [agent_seed(seed, 1), agent_seed(seed, 2)])
        assert [n for _, n in result.decisions] == log
        assert sorted(result.winners) == sorted(reference.winners)
        assert result.reason == reference.reason
        assert result.turns == reference.turn


# The rulesets' own scenario cases pin these endings (rulesets/caldera.tests.yaml); the
# reference must reach the same results from the same positions.

def test_no_legal_move_ends_the_game_ranked() -> None:
    game = ref.Caldera.from_position({"a1": ["rS"]}, {1: ["rS", "rM", "rL"],
                                                       2: ["bS", "bS", "gL", "yM"]},
                                     power_play=False)
    assert game.over and game.winners == [1] and game.reason == "Player 1 has no legal move"
    assert game.options() == []


def test_power_play_then_no_legal_move() -> None:
    game = ref.Caldera.from_position({"a1": ["rS"]}, {1: ["bS"]})
    assert {"pp-bS-a1", "pp-bS-c3"} <= set(game.legal_notations())
    game.apply_notation("pp-bS-c3")
    assert game.over and game.winners == [1, 2]
    assert game.reason == "Player 1 has no legal move"


def test_a_bare_board_ends_the_game_as_a_turn_begins() -> None:
    game = ref.Caldera.from_position({"a1": ["kS"]}, {1: ["rS", "rM", "rL", "bS"],
                                                      2: ["gS", "gM", "gL"]})
    assert game.over and game.winners == [1] and game.reason == ref.NOTHING_LEFT


def test_sixty_quiet_turns_end_the_game() -> None:
    game = ref.Caldera.from_position({"a1": ["rS", "rM", "rL", "kS"]}, {2: ["gS"]},
                                     fewest_left=3, quiet_turns=59)
    game.apply_notation("a1-n")
    assert game.quiet == 60 and game.over and game.winners == [2]
    assert game.reason == ref.NO_PROGRESS


# -- the example rulesets --------------------------------------------------------------------

@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four"])
def test_example_ruleset_passes_its_scenarios(name: str) -> None:
    results = run_scenario_files([BENCHMARKS / "rulesets" / f"{name}.tests.yaml"])
    assert results
    failed = [f"{r.name}: {r.message}" for r in results if not r.passed]
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize(("name", "lengths"), [("tic-tac-toe", (5, 9)),
                                               ("connect-four", (7, 42))])
def test_example_ruleset_plays_random_games(name: str, lengths: tuple[int, int]) -> None:
    game = load_game(BENCHMARKS / "rulesets" / f"{name}.yaml")
    for seed in range(20):
        result = play_game(game, 2, seed, make_agents(2, seed))
        assert lengths[0] <= len(result.decisions) <= lengths[1]
        assert result.winners in ([1], [2], [])
        if result.winners == [1]:
            assert len(result.decisions) % 2 == 1  # a win ends on the winner's own move
        elif result.winners == [2]:
            assert len(result.decisions) % 2 == 0
        else:
            assert len(result.decisions) == lengths[1]  # a draw only on a full board


def test_tic_tac_toe_known_games() -> None:
    game = load_game(BENCHMARKS / "rulesets" / "tic-tac-toe.yaml")
    x_wins = play_game(game, 2, 0, make_agents(2, 0),
                       moves=["a1", "b2", "c3", "a3", "c1", "c2", "b1"])
    assert x_wins.winners == [1]
    assert x_wins.reason is not None and "three" in x_wins.reason
    draw = play_game(game, 2, 0, make_agents(2, 0), moves=["a3", "b2", "c3", "b3", "b1",
                                                           "a1", "a2", "c2", "c1"])
    assert draw.winners == []


def test_connect_four_agrees_with_the_python_port() -> None:
    """The ruleset and benchmarks/connect_four_python.py (the benchmark's yardstick) give
    the same result for the same random games."""
    port = _load_benchmark("connect_four_python")
    game = load_game(BENCHMARKS / "rulesets" / "connect-four.yaml")
    rng = random.Random(4)
    for seed in range(15):
        state = port.ConnectFourState()
        moves = []
        while not state.is_terminal():
            column = rng.choice(state.legal_actions())
            moves.append(f"{'abcdefg'[column]}{state.heights[column] + 1}")
            state.apply_action(column)
        result = play_game(game, 2, seed, make_agents(2, seed), moves=moves)
        expected = {1.0: [1], -1.0: [2], 0.0: []}[state.returns()[0]]
        assert result.winners == expected, moves
