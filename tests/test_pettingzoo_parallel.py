"""The PettingZoo parallel environment: offered for every game with simultaneous
decisions, it passes PettingZoo's parallel_api_test and parallel_seed_test, takes a
simultaneous decision as one step of every seat deciding, plays the same games as the
AEC environment, and no seat's observation shows another seat's secret pick."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from adapter_support import hidden_pairs  # noqa: E402
from pettingzoo.test import parallel_api_test, parallel_seed_test  # noqa: E402
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # noqa: E402

from interpreter.adapters.encoding import returns  # noqa: E402
from interpreter.adapters.pettingzoo import (  # noqa: E402
    TabletopParallelEnv,
    env,
    parallel_env,
)
from interpreter.adapters.pettingzoo_base import has_simultaneous_decisions  # noqa: E402
from interpreter.api import load_game  # noqa: E402
from interpreter.load.catalog import bundled_names  # noqa: E402

PARALLEL = [name for name in bundled_names() if has_simultaneous_decisions(load_game(name))]
"""The bundled games offered as a parallel environment."""


def test_the_games_with_simultaneous_decisions_are_offered() -> None:
    assert PARALLEL == ["aquarium", "bottoms-up", "goofspiel"]
    for name in set(bundled_names()) - set(PARALLEL):
        with pytest.raises(ValueError, match="no simultaneous decision"):
            parallel_env(name)


def _configs() -> list[tuple[str, int]]:
    out = []
    for name in PARALLEL:
        game = load_game(name)
        out.extend((name, seats) for seats in sorted({game.min_seats, game.max_seats}))
    return out


@pytest.mark.parametrize(("name", "players"), _configs())
def test_parallel_api_test_passes(name: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # its warnings (a live agent given no reward...) fail
        parallel_api_test(parallel_env(name, players=players), num_cycles=60)
    parallel_seed_test(lambda: parallel_env(name, players=players), num_cycles=10)


def test_a_turn_based_game_is_parallel_through_pettingzoos_own_wrapper() -> None:
    """What the error for a game without simultaneous decisions advises works."""
    parallel_api_test(turn_based_aec_to_parallel(env("tic-tac-toe")), num_cycles=20)


def _random_actions(environment: TabletopParallelEnv, observations: dict[str, Any],
                    rnd: np.random.Generator) -> dict[str, int | None]:
    """A random legal action for each agent deciding, None for the others."""
    out: dict[str, int | None] = {}
    for agent in environment.agents:
        legal = np.flatnonzero(observations[agent]["action_mask"])
        out[agent] = int(rnd.choice(legal)) if len(legal) else None
    return out


@pytest.mark.parametrize(("name", "players"), [("bottoms-up", 4), ("goofspiel", 2),
                                               ("aquarium", 3)])
def test_a_simultaneous_decision_is_one_step_and_games_match_the_engine(
        name: str, players: int) -> None:
    """Every seat of a simultaneous decision acts in one step (the others' masks are
    zeros); the moves played make the engine's own game with that seed, and its result."""
    environment = parallel_env(name, players=players)
    observations, infos = environment.reset(seed=4)
    rnd = np.random.default_rng(4)
    game = load_game(name)
    state = game.new_state(players, 4)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    together = 0
    while environment.agents:
        deciding = game.deciding_seats(state)
        acting = [a for a in environment.agents if observations[a]["action_mask"].any()]
        assert acting == [f"player_{s - 1}" for s in deciding]
        for seat in deciding:  # each seat's own options, listed before anyone picked
            assert set(infos[f"player_{seat - 1}"]["notations"].values()) == {
                o.notation for o in game.legal_options(state, seat)}
        together += len(acting) > 1
        actions = _random_actions(environment, observations, rnd)
        for agent in acting:
            game.apply_in_place(state, int(agent[7:]) + 1, infos[agent]["notations"][
                actions[agent]])
        observations, rewards, _, _, infos = environment.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
    assert together > 0 and state.over
    assert list(totals.values()) == returns(game, state)


def test_seats_deciding_at_once_see_none_of_the_others_picks() -> None:
    """Bottoms Up's starting colours: in the middle of the decision (a position reached
    in the engine, seat 1 having picked), seat 2's observation and mask are the same
    whatever seat 1 picked; and every deciding seat of a step observes the position
    before anyone picked."""
    game = load_game("bottoms-up")
    start = game.new_state(4, 7)
    assert game.deciding_seats(start) == [1, 2, 3, 4]
    environment = parallel_env("bottoms-up", players=4, information_state=True)
    seen = []
    for option in game.legal_options(start, 1):
        state = start.copy()
        game.apply_in_place(state, 1, option)
        observations, infos = environment.reset_to(state)
        assert not observations["player_0"]["action_mask"].any()
        seen.append(observations["player_1"])
        assert infos["player_0"] == {}
    assert len(seen) > 1
    for other in seen[1:]:
        assert (other["observation"] == seen[0]["observation"]).all()
        assert (other["action_mask"] == seen[0]["action_mask"]).all()
    # in the parallel step, all four pick from the position before any pick
    observations, _ = environment.reset(seed=7)
    assert all(observations[a]["action_mask"].any() for a in environment.agents)


@pytest.mark.parametrize(("name", "players"), [("bottoms-up", 4), ("aquarium", 3)])
def test_parallel_observations_read_only_what_the_seat_may_see(name: str, players: int
                                                               ) -> None:
    environment = parallel_env(name, players=players)
    for _, state, changed, seat in hidden_pairs(name, players, {}):
        agent = f"player_{seat - 1}"
        first, _ = environment.reset_to(state)
        second, _ = environment.reset_to(changed)
        assert (first[agent]["observation"] == second[agent]["observation"]).all()
        assert (first[agent]["action_mask"] == second[agent]["action_mask"]).all()


def test_an_illegal_action_ends_the_game_or_raises() -> None:
    environment = parallel_env("goofspiel")
    observations, _ = environment.reset(seed=1)
    played = {agent: int(np.flatnonzero(observations[agent]["action_mask"])[0])
              for agent in environment.agents}
    observations, *_ = environment.step(played)  # the cards bid are no longer in hand
    illegal = played["player_1"]
    assert not observations["player_1"]["action_mask"][illegal]
    legal = int(np.flatnonzero(observations["player_0"]["action_mask"])[0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, rewards, terminations, truncations, _ = environment.step(
            {"player_0": legal, "player_1": illegal})
    assert rewards == {"player_0": 0.0, "player_1": -1.0}
    assert all(terminations.values()) and all(truncations.values())
    assert environment.agents == []
    strict = parallel_env("goofspiel", illegal_reward=None)
    strict.reset(seed=1)
    strict.step(played)
    with pytest.raises(ValueError, match="player_1 cannot play"):
        strict.step({"player_0": legal, "player_1": illegal})
    with pytest.raises(ValueError, match="player_0 cannot play None"):
        strict.step({"player_1": legal})


def test_the_parallel_env_is_named_and_renders() -> None:
    environment = parallel_env("bottoms-up", players=4, render_mode="rgb_array")
    assert environment.metadata["name"] == "tabletop_bottoms_up_v0"
    environment.reset(seed=2)
    frame = environment.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
