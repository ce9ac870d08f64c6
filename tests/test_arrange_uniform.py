"""`arrange` deals every valid layout equally often.

"At random, redraw until the condition holds" means a uniform choice among the valid
layouts. On a board small enough to list them all (tests/rulesets/arrange_uniform.yaml:
six valid layouts), many seeded deals are counted and compared with the uniform
distribution by a chi-square test. The old deal (each place drawn from the values it
still allowed) is kept below to show that the test tells it apart: it deals the two
layouts with red at both ends 8% too rarely (0.153 instead of 1/6).
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import permutations
from pathlib import Path

from interpreter.assemble.game import compile_game
from interpreter.load.loader import load_ruleset
from interpreter.run import rng as rngmod

RULESET = Path(__file__).resolve().parent / "rulesets" / "arrange_uniform.yaml"
VALUES = ("red", "red", "blue", "green")
SAMPLES = 40_000
"""Enough for the old deal's bias to stand out far beyond the threshold (its statistic is
expected near 138 and is 109 on these seeds, against a threshold of 36; the new deal's
is 1.0), and fast: a deal costs about 50 µs."""
P_FAIL = 1e-6
"""A uniform deal fails the test once in a million seed ranges: it cannot flake."""


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for a chi-square variable with `df` degrees of freedom: the regularized
    upper incomplete gamma function Q(df/2, x/2) (series below a+1, continued fraction
    above), so the test needs no scipy."""
    a, z = df / 2, x / 2
    if z <= 0:
        return 1.0
    front = math.exp(-z + a * math.log(z) - math.lgamma(a))
    if z < a + 1:
        term = total = 1 / a
        n = a
        while term > total * 1e-16:
            n += 1
            term *= z / n
            total += term
        return max(0.0, 1 - front * total)
    tiny = 1e-300
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return front * h


def valid_layouts() -> list[tuple[str, ...]]:
    """Every layout of VALUES on the row with no two neighbours alike, listed here
    independently of the engine."""
    return sorted({p for p in permutations(VALUES)
                   if all(p[i] != p[i + 1] for i in range(len(p) - 1))})


def chi_square(counts: Counter[tuple[str, ...]]) -> tuple[float, float]:
    """(statistic, p-value) of the counts against one in K for each valid layout."""
    layouts = valid_layouts()
    expected = sum(counts.values()) / len(layouts)
    stat = sum((counts[layout] - expected) ** 2 / expected for layout in layouts)
    return stat, chi2_sf(stat, len(layouts) - 1)


def old_deal(seed: int) -> tuple[str, ...]:
    """The dealing logic `arrange` had before (kept to show the test can tell): places in
    a random order, each drawn from the values left that it allows, everything dealt
    again when some place allows none. Same generator and seeds as a game."""
    n = len(VALUES)
    r = rngmod.seed_state(seed)
    while True:
        assigned: list[str | None] = [None] * n
        left = list(VALUES)
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            r, j = rngmod.below(r, i + 1)
            order[i], order[j] = order[j], order[i]
        for place in order:
            near = [q for q in (place - 1, place + 1) if 0 <= q < n]
            allowed = [k for k, v in enumerate(left) if all(assigned[q] != v for q in near)]
            if not allowed:
                break
            r, pick = rngmod.below(r, len(allowed))
            assigned[place] = left.pop(allowed[pick])
        else:
            return tuple(v for v in assigned if v is not None)


def test_chi2_sf_matches_closed_forms() -> None:
    """One degree of freedom: erfc(sqrt(x/2)); an even number 2k: a Poisson tail."""
    for x in (0.1, 1.0, 3.841459, 10.0, 40.0):
        assert math.isclose(chi2_sf(x, 1), math.erfc(math.sqrt(x / 2)), rel_tol=1e-9)
    for k in (1, 2, 3, 5, 50):
        for x in (0.5, 2.0, 2.0 * k, 4.0 * k + 10, 200.0):
            poisson = math.exp(-x / 2) * sum((x / 2) ** i / math.factorial(i) for i in range(k))
            assert math.isclose(chi2_sf(x, 2 * k), poisson, rel_tol=1e-9, abs_tol=1e-300)
    assert math.isclose(chi2_sf(11.070498, 5), 0.05, rel_tol=1e-6)


def test_the_board_has_six_valid_layouts() -> None:
    assert len(valid_layouts()) == 6


def test_every_valid_layout_is_equally_likely() -> None:
    game = compile_game(load_ruleset(RULESET), {})
    counts = Counter(tuple(game.new_state(1, seed).vars["layout"]) for seed in range(SAMPLES))
    assert set(counts) == set(valid_layouts())            # only valid layouts, and all of them
    stat, p = chi_square(counts)
    assert p > P_FAIL, f"chi-square {stat:.1f} (p = {p:.2g}): {dict(counts)}"


def test_the_chi_square_test_catches_the_old_deal() -> None:
    counts = Counter(old_deal(seed) for seed in range(SAMPLES))
    assert set(counts) == set(valid_layouts())
    stat, p = chi_square(counts)
    assert p < P_FAIL, f"chi-square {stat:.1f} (p = {p:.2g}): {dict(counts)}"
