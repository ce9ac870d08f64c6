"""The random player samples an option without listing them all, and chooses exactly
what it would have chosen from the full list.

Its policy: a kind uniformly among the distinct kinds that have options (sorted by id),
then an option of that kind uniformly. `Game.sample_option` checks which kinds have an
option (each stopping at its first), picks the kind with the same draw, then lists only
that kind (or finds a combination of plain sources directly). Same draws, same choice:
games stay the same for the same seed. Checked position by position over random games
of every bundled ruleset, then by a chi-square test of the sampled distribution.
"""

from __future__ import annotations

import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from interpreter.agents.base import OptionChoice
from interpreter.agents.random_agent import RandomAgent
from interpreter.api import load
from interpreter.assemble.game import compile_game
from interpreter.load.catalog import bundled_names
from interpreter.play.game import Game
from interpreter.run import rng as rngmod
from interpreter.run.state import State
from interpreter.simulate.playout import make_agents, play_game

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.test_arrange_uniform import chi2_sf  # noqa: E402

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    *((name, {}) for name in bundled_names()),
    ("caldera", {"power_play": "false"}),
    ("high-rise", {"rows": "8", "cols": "8"}),  # 800+ options a decision
]
POSITIONS = 400
"""Positions checked per configuration at least: random games (each of some 20 to 300
decisions, every decision a position), with every number of seats in turn."""


@cache
def game_of(name: str, options: tuple[tuple[str, Any], ...], generate: bool = True) -> Game:
    return compile_game(load(name), dict(options), generate=generate)


def check_position(game: Game, state: State, seat: int, seed: int) -> tuple[int, tuple]:
    """Sampling and choosing from the full list (both ways the list path is taken) make
    the same choice with the same draws; returns it."""
    sampler, lister, raw_lister = RandomAgent(seed), RandomAgent(seed), RandomAgent(seed)
    sampled = game.sample_option(state, seat, sampler)
    options = game.legal_options(state, seat)
    assert options, "the machine paused where the seat has no option"
    index = lister.choose(dict, [OptionChoice(o.notation, o.label, o.kind) for o in options])
    assert raw_lister.choose_raw([o.kind for o in options]) == index
    assert sampled == options[index].raw, (
        f"sampled {sampled}, the full list gives {options[index].raw} "
        f"(option {index} of {len(options)})")
    assert sampler.rng == lister.rng == raw_lister.rng
    # once the options are listed (and kept with the state), sampling chooses from that
    # list: the same choice with the same draws
    again = RandomAgent(seed)
    assert game.sample_option(state, seat, again) == sampled
    assert again.rng == sampler.rng
    return sampled


def positions_checked(game: Game, players: int, seed: int) -> int:
    """Play one random game, checking every position on the way (every deciding seat
    of a simultaneous decision); the game goes on by the checked public apply."""
    state = game.new_state(players, seed)
    checked = 0
    while not state.over:
        seats = game.deciding_seats(state)
        assert seats, "stuck: nobody decides and the game is not over"
        picks = []
        for seat in seats:
            picks.append(check_position(game, state, seat,
                                        rngmod.derive_seed(seed, "position", checked)))
            checked += 1
        game.apply_in_place(state, seats[0], picks[0])
    return checked


@pytest.mark.parametrize("name, options", CONFIGS,
                         ids=[f"{n}{'-' + '-'.join(map(str, o.values())) if o else ''}"
                              for n, o in CONFIGS])
def test_sampling_chooses_what_the_full_list_gives(name: str, options: dict[str, Any]
                                                   ) -> None:
    game = game_of(name, tuple(sorted(options.items())))
    seats = range(game.min_seats, game.max_seats + 1)
    checked, seed = 0, 0
    while checked < POSITIONS or seed < len(seats):
        checked += positions_checked(game, seats[seed % len(seats)], seed)
        seed += 1


@pytest.mark.parametrize("name", ["caldera", "bottoms-up", "high-rise"])
def test_sampling_agrees_on_the_careful_path_too(name: str) -> None:
    """Without code generation (no generated listings, no direct n-th combination)."""
    game = game_of(name, (), generate=False)
    assert positions_checked(game, game.min_seats, 7) >= 10


@pytest.mark.parametrize("name", bundled_names())
def test_a_sampled_game_is_the_game_played_from_full_lists(name: str) -> None:
    """Whole games: the random players of a playout, then the same players choosing
    from the full list of options at every decision, give the same decisions and the
    same final state (steps included: neither listing is charged to the state)."""
    game = game_of(name, ())
    players = game.max_seats
    for seed in range(3):
        sampled = play_game(game, players, seed, make_agents(players, seed))
        agents = make_agents(players, seed)
        state = game.new_state(players, seed)
        decisions = []
        while not state.over:
            seat = game.deciding_seats(state)[0]
            options = game.legal_options(state, seat)
            pick = options[agents[seat].choose(
                dict, [OptionChoice(o.notation, o.label, o.kind) for o in options])]
            game.apply_in_place(state, seat, pick)
            decisions.append((seat, pick.notation))
        assert decisions == sampled.decisions
        assert sampled.final_state is not None
        assert state.to_json() == sampled.final_state.to_json()


def test_the_games_checked_declare_kinds_out_of_order() -> None:
    """Kinds are drawn in order of id, not in the order a ruleset declares them: the
    games above have decisions where the two orders differ, so that is checked too."""
    game = game_of("bottoms-up", ())
    assert any([k.id for k in spec.kinds] != sorted(k.id for k in spec.kinds)
               for spec in game.choices.values())


# -- the distribution -----------------------------------------------------------------

SAMPLES = 24_000
P_FAIL = 1e-6
"""A correct sampler fails once in a million seed ranges: the test cannot flake (and the
seeds are fixed, so it gives the same answer every run)."""


def position_with_kinds(game: Game, players: int, seed: int, kinds: int) -> tuple[State, int]:
    """The first position of a random game where the deciding seat has options of at
    least `kinds` kinds, of different sizes when there are several."""
    state = game.new_state(players, seed)
    agents = {s: RandomAgent(s) for s in range(1, players + 1)}
    while not state.over:
        seat = game.deciding_seats(state)[0]
        counts = Counter(o.kind for o in game.legal_options(state, seat))
        if len(counts) >= kinds and (kinds == 1 or len(set(counts.values())) > 1):
            return state, seat
        game.apply_trusted(state, seat, game.sample_option(state, seat, agents[seat]))
    raise AssertionError(f"no position with {kinds} kinds of option in game {seed}")


@pytest.mark.parametrize("name, options, kinds", [
    ("caldera", (), 2),  # two kinds of very different sizes (cap moves, Power Play)
    ("high-rise", (("cols", "4"), ("rows", "4")), 1),  # a kind found by n-th combination
])
def test_sampled_options_follow_the_listing_policy(name: str, options: tuple,
                                                   kinds: int) -> None:
    game = game_of(name, options)
    state, seat = position_with_kinds(game, game.min_seats, 0, kinds)
    listed = game.legal_options(state, seat)
    sizes = Counter(o.kind for o in listed)
    expected = {o.raw: SAMPLES / len(sizes) / sizes[o.kind] for o in listed}
    agent = RandomAgent(2024)
    counts = Counter(game.sample_option(state, seat, agent) for _ in range(SAMPLES))
    assert set(counts) <= set(expected), "sampled an option the listing does not have"
    stat = sum((counts[raw] - e) ** 2 / e for raw, e in expected.items())
    p = chi2_sf(stat, len(expected) - 1)
    assert p > P_FAIL, f"chi-square {stat:.1f} over {len(expected)} options (p = {p:.2g})"
    if len(sizes) > 1:  # each kind as often as the others, however many options it has
        per_kind = Counter(next(o.kind for o in listed if o.raw == raw)
                           for raw in counts.elements())
        stat = sum((c - SAMPLES / len(sizes)) ** 2 / (SAMPLES / len(sizes))
                   for c in per_kind.values())
        assert chi2_sf(stat, len(sizes) - 1) > P_FAIL, dict(per_kind)


def test_the_chi_square_test_tells_a_uniform_pick_over_all_options_apart() -> None:
    """The policy it checks is not the plain uniform pick: drawing among all options
    alike fails the same test (so the test has the power to see a wrong sampler)."""
    game = game_of("caldera", ())
    state, seat = position_with_kinds(game, 2, 0, 2)
    listed = game.legal_options(state, seat)
    sizes = Counter(o.kind for o in listed)
    expected = {o.raw: SAMPLES / len(sizes) / sizes[o.kind] for o in listed}
    agent = RandomAgent(2024)
    counts = Counter(listed[agent.pick(len(listed))].raw for _ in range(SAMPLES))
    stat = sum((counts[raw] - e) ** 2 / e for raw, e in expected.items())
    assert chi2_sf(stat, len(expected) - 1) < P_FAIL
