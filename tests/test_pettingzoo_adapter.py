"""The PettingZoo adapter: every bundled game, wrapped as `env()` returns it, passes
PettingZoo's api_test, seed_test and render_test, plays to the end with its action masks,
is repeatable by seed, and observes only the seat's view."""

from __future__ import annotations

import contextlib
import io
import pickle
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from adapter_support import HIDDEN, bundled_configs, config_id, hidden_pairs  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from interpreter.adapters.encoding import ActionEncoder, returns  # noqa: E402
from interpreter.adapters.pettingzoo import TabletopEnv, env, raw_env  # noqa: E402
from interpreter.api import load_game  # noqa: E402
from interpreter.load.catalog import bundled_names  # noqa: E402

CONFIGS = bundled_configs()
"""Every bundled game at its fewest and most seats, and every yes/no option turned."""


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_test_passes(config: tuple[str, int, dict[str, Any]]) -> None:
    """Whole games at the fewest and most seats (api_test stops when every agent is
    done); with an option turned, the first turns (the spaces and observations)."""
    name, players, options = config
    with warnings.catch_warnings():
        # api_test advises plain arrays and Box spaces; action masks need a dict
        # (as in PettingZoo's own board games)
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        api_test(env(name, options, players, render_mode="ansi"),
                 num_cycles=25 if options else 1000)


@pytest.mark.parametrize("name", bundled_names())
def test_env_is_wrapped_as_pettingzoos_board_games(name: str) -> None:
    """env() as PettingZoo's classics build theirs; raw_env() bare; each game named."""
    wrapped = outer = env(name)
    layers = []
    while isinstance(wrapped, wrappers.BaseWrapper):
        layers.append(type(wrapped))
        wrapped = wrapped.env
    assert layers == [wrappers.OrderEnforcingWrapper, wrappers.AssertOutOfBoundsWrapper,
                      wrappers.TerminateIllegalWrapper]
    assert type(wrapped) is TabletopEnv
    expected = f"tabletop_{name.replace('-', '_')}_v0"
    assert wrapped.metadata["name"] == expected == str(outer)
    assert TabletopEnv.metadata["name"] == "tabletop_v0"  # the class's own is not changed


@pytest.mark.parametrize("name", bundled_names())
def test_seed_and_render_tests_pass(name: str) -> None:
    """PettingZoo's seed_test and render_test (every render mode, rgb_array too) on the
    wrapped env, a few cycles each (small frames: the drawing is the same)."""
    game = load_game(name)
    seed_test(lambda: env(game, players=game.min_seats), num_cycles=5)
    with contextlib.redirect_stdout(io.StringIO()):  # the `human` mode prints
        render_test(lambda render_mode=None: env(game, players=game.min_seats,
                                                 render_mode=render_mode, frame_width=160))


def test_the_wrapped_env_ends_the_game_on_an_illegal_action() -> None:
    """As PettingZoo's board games: -1 for the agent that played it, 0 for the others,
    everyone done; the bare env refuses it; before reset nothing may be called."""
    wrapped = env("caldera", players=3)
    with pytest.raises(AttributeError, match="before reset"):
        _ = wrapped.agent_selection
    wrapped.reset(seed=3)
    observation, *_ = wrapped.last()
    culprit = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns of the illegal move
        wrapped.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert all(wrapped.terminations.values()) and all(wrapped.truncations.values())
    assert wrapped.rewards == {a: -1.0 if a == culprit else 0.0 for a in wrapped.agents}
    with pytest.raises(AssertionError, match="action space"):
        fresh = env("caldera", players=3)
        fresh.reset(seed=3)
        fresh.step(10**9)
    bare = raw_env("caldera", players=3)
    bare.reset(seed=3)
    with pytest.raises(ValueError, match="cannot play"):
        bare.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))


def test_envs_pickle_as_their_arguments() -> None:
    """EzPickle, as PettingZoo's own environments: a pickled env makes the same game."""
    original = env("high-rise", {"covered_hidden": False}, render_mode="ansi")
    copy = pickle.loads(pickle.dumps(original))
    assert copy.metadata["name"] == "tabletop_high_rise_v0"
    assert copy.unwrapped.game.options == original.unwrapped.game.options
    for environment in (original, copy):
        environment.reset(seed=5)
    assert (original.observe("player_0")["observation"]
            == copy.observe("player_0")["observation"]).all()


def _play(environment: TabletopEnv, seed: int) -> tuple[list[str], dict[str, float]]:
    """A whole game with random legal actions; its notations and the rewards."""
    environment.reset(seed=seed)
    rnd = np.random.default_rng(seed)
    played: list[str] = []
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, info = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        assert sorted(info["notations"]) == legal.tolist()
        action = int(rnd.choice(legal))
        played.append(info["notations"][action])
        assert environment.notation(action) == played[-1]
        environment.step(action)
    return played, totals


@pytest.mark.parametrize(("name", "players"), [("high-rise", 2), ("bottoms-up", 4),
                                               ("caldera", 3)])
def test_whole_games_end_with_the_results_as_rewards(name: str, players: int) -> None:
    environment = TabletopEnv(name, players=players)
    played, totals = _play(environment, seed=11)
    assert environment.agents == []
    assert abs(sum(totals.values())) < 1e-9 and all(-1 <= r <= 1 for r in totals.values())
    again, _ = _play(TabletopEnv(name, players=players), seed=11)
    assert again == played  # the same seed deals the same game
    # the same moves make the engine's own game with that seed, and its result
    game = load_game(name)
    state = game.new_state(players, 11)
    for notation in played:
        game.apply_in_place(state, game.deciding_seats(state)[0], notation)
    assert state.over
    assert list(totals.values()) == returns(game, state)


def test_spaces_and_ids_match_the_shared_encoding() -> None:
    environment = TabletopEnv("caldera", {"power_play": True}, players=2)
    encoder = ActionEncoder(load_game("caldera", {"power_play": True}))
    assert environment.action_space("player_0").n == encoder.num_actions
    environment.reset(seed=3)
    observation, *_ = environment.last()
    assert observation["observation"].dtype == np.float32
    assert observation["action_mask"].shape == (encoder.num_actions,)
    for action in np.flatnonzero(observation["action_mask"]):
        assert environment.action_of(environment.notation(action)) == action
    other = next(a for a in environment.agents if a != environment.agent_selection)
    assert not environment.observe(other)["action_mask"].any()  # not its turn
    with pytest.raises(ValueError, match="cannot play"):
        environment.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    info_env = TabletopEnv("caldera", players=2, information_state=True)
    info_env.reset(seed=3)
    assert info_env.observe("player_0")["observation"].shape[0] > (
        observation["observation"].shape[0])


@pytest.mark.parametrize(("name", "players", "options"), HIDDEN)
def test_observations_read_only_what_the_seat_may_see(
        name: str, players: int, options: dict[str, Any]) -> None:
    environments = [TabletopEnv(name, options, players, information_state=recall)
                    for recall in (False, True)]
    for _, state, changed, seat in hidden_pairs(name, players, options):
        agent = f"player_{seat - 1}"
        for environment in environments:
            seen = []
            for position in (state, changed):
                environment.reset_to(position)
                seen.append(environment.observe(agent))
            assert (seen[0]["observation"] == seen[1]["observation"]).all()
            assert (seen[0]["action_mask"] == seen[1]["action_mask"]).all()


def test_the_guides_table_says_what_each_game_supports() -> None:
    """guides/pettingzoo.md's table: one row per bundled game, with its name, seats,
    and whether it is offered as a parallel environment."""
    from interpreter.adapters.pettingzoo_base import has_simultaneous_decisions

    guide = (Path(__file__).resolve().parent.parent / "guides" / "pettingzoo.md").read_text(
        encoding="utf-8")
    rows = {}
    for line in guide.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 6 and cells[1].startswith("`tabletop_"):
            rows[cells[0]] = cells
    assert len(rows) == len(bundled_names())
    for name in bundled_names():
        game = load_game(name)
        title, metadata_name, seats, aec, parallel, modes = rows[game.title]
        assert metadata_name == f"`{raw_env(game).metadata['name']}`"
        assert seats == (str(game.min_seats) if game.min_seats == game.max_seats
                         else f"{game.min_seats}–{game.max_seats}")
        assert aec == "yes" and modes == ", ".join(TabletopEnv.metadata["render_modes"])
        assert parallel.startswith("yes") == has_simultaneous_decisions(game), title
