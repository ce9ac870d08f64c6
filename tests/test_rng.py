"""Consecutive seeds give unrelated games.

A simulation plays seeds S, S+1, S+2, ...; if seed S+1's stream were seed S's shifted
by one draw (as with the old linear ``state = seed * G + C``, G being the generator's
own increment), those games would share almost every random event. Each check below is
also run on the old seeding, to show it would catch it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from interpreter.assemble.game import compile_game
from interpreter.load.loader import load_ruleset
from interpreter.run import rng as rngmod

SEEDS = 2_000
DRAWS = 8
LAGS = (-2, -1, 0, 1, 2)
Z_LIMIT = 5.0
"""|correlation| * sqrt(pairs) above 5 happens by chance less than once in a million."""


def old_seed_state(seed: int) -> int:
    """The seeding before blake2b: seed S+1 starts where seed S is after one draw."""
    return (seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) & rngmod.MASK


def first_draws(seed_state: Callable[[int], int], seed: int) -> list[int]:
    r = seed_state(seed)
    out = []
    for _ in range(DRAWS):
        r, x = rngmod.next_u64(r)
        out.append(x)
    return out


def correlation(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy)


def worst_lag_z(seed_state: Callable[[int], int]) -> float:
    """The largest |correlation| * sqrt(pairs) between game s's draw k and game s+1's
    draw k + lag, over s < SEEDS and every lag in LAGS (lag 0: the same draw; lag -1:
    game s+1 one draw behind game s)."""
    draws = [[x / 2 ** 64 for x in first_draws(seed_state, s)] for s in range(SEEDS + 1)]
    worst = 0.0
    for lag in LAGS:
        ks = [k for k in range(DRAWS) if 0 <= k + lag < DRAWS]
        xs = [draws[s][k] for s in range(SEEDS) for k in ks]
        ys = [draws[s + 1][k + lag] for s in range(SEEDS) for k in ks]
        worst = max(worst, abs(correlation(xs, ys)) * math.sqrt(len(xs)))
    return worst


def shared_draws(seed_state: Callable[[int], int]) -> int:
    """How many of the SEEDS * DRAWS first draws also occur elsewhere among them (a
    seed's draws shifted into another's). 16,000 random 64-bit numbers repeat one in a
    hundred billion times."""
    seen: set[int] = set()
    shared = 0
    for s in range(SEEDS):
        for x in first_draws(seed_state, s):
            shared += x in seen
            seen.add(x)
    return shared


def test_games_start_from_seed_state() -> None:
    game = compile_game(load_ruleset(Path(__file__).parent / "rulesets" / "minimal.yaml"), {})
    for seed in (0, 1, 2, 12345, -7):
        assert game.blank_state(2, seed).rng == rngmod.seed_state(seed)


def test_consecutive_seeds_draw_uncorrelated_numbers() -> None:
    z = worst_lag_z(rngmod.seed_state)
    assert z < Z_LIMIT, f"consecutive seeds' first draws are correlated (z = {z:.1f})"


def test_no_seed_replays_another_seeds_draws() -> None:
    shared = shared_draws(rngmod.seed_state)
    assert shared == 0, f"{shared} of the first draws of seeds 0-{SEEDS - 1} repeat"


def test_both_checks_catch_the_old_linear_seeding() -> None:
    assert worst_lag_z(old_seed_state) > 100          # correlation 1 at lag -1
    assert shared_draws(old_seed_state) > SEEDS * (DRAWS - 2)


def test_derived_seeds_differ_by_label_and_seed() -> None:
    seeds = {rngmod.derive_seed(s, "agent", seat) for s in range(500) for seat in (1, 2, 3)}
    assert len(seeds) == 1500
    assert all(0 <= x < 1 << 128 for x in seeds)
