"""The balance report's statistics against known values, and its histograms' promise:
bounded memory, and the same result whatever order batches are merged in."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.analyze import histogram as histogram_module
from interpreter.analyze.histogram import Histogram
from interpreter.analyze.stats import (
    Z,
    chi2_sf,
    even_spread,
    holm,
    mann_whitney,
    two_proportions,
    wilson,
)


@pytest.mark.parametrize("count, total, low, high", [
    (0, 10, 0.0, 0.2775),
    (5, 10, 0.2366, 0.7634),
    (10, 10, 0.7225, 1.0),
    (100, 100, 0.9630, 1.0),
    (3, 17, 0.0619, 0.4103),
])
def test_wilson_intervals_match_the_published_values(count: int, total: int, low: float,
                                                      high: float) -> None:
    rate = wilson(count, total)
    assert rate.low == pytest.approx(low, abs=5e-5)
    assert rate.high == pytest.approx(high, abs=5e-5)
    assert rate.low <= rate.rate <= rate.high


def test_wilson_edges() -> None:
    assert abs(Z - 1.959964) < 1e-6
    assert (wilson(0, 0).low, wilson(0, 0).high) == (0.0, 1.0)
    assert wilson(0, 7).low == 0.0 and wilson(7, 7).high == 1.0
    assert wilson(1, 1000).high < 0.01
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_two_proportions() -> None:
    # z = (0.3 − 0.5) / √(0.4·0.6·(1/100 + 1/100)) = −2.887
    assert two_proportions(30, 100, 50, 100) == pytest.approx(0.0038924171, rel=1e-6)
    assert two_proportions(95, 100, 5, 100) < 1e-30
    assert two_proportions(50, 100, 50, 100) == pytest.approx(1.0)
    assert two_proportions(51, 100, 49, 100) > 0.7
    assert two_proportions(0, 100, 0, 100) == 1.0  # nothing to tell apart
    assert two_proportions(100, 100, 100, 100) == 1.0
    assert two_proportions(3, 0, 5, 10) == 1.0


def test_mann_whitney_matches_the_textbook_normal_approximation() -> None:
    """scipy.stats.mannwhitneyu(a, b, method='asymptotic') gives 0.0008917922."""
    a = [3, 4, 4, 5, 6, 7, 7, 7, 9, 12]
    b = [8, 9, 9, 10, 11, 12, 13, 13, 14, 15, 15]
    counts = lambda xs: {x: xs.count(x) for x in set(xs)}  # noqa: E731
    assert mann_whitney(counts(a), counts(b)) == pytest.approx(0.0008917922, rel=1e-6)
    assert mann_whitney(counts(b), counts(a)) == pytest.approx(0.0008917922, rel=1e-6)
    assert mann_whitney({5: 100}, {5: 80}) == 1.0  # every value the same
    assert mann_whitney({}, {1: 3}) == 1.0
    assert mann_whitney({1: 50, 2: 50}, {1: 50, 2: 50}) > 0.9


@pytest.mark.parametrize("x, df, p", [
    (3.0, 1, 0.08326451666), (3.0, 2, 0.22313016015), (10.0, 5, 0.07523524614),
    (3.841458820694124, 1, 0.05), (5.991464547107979, 2, 0.05),
    (7.814727903251178, 3, 0.05), (9.487729036781154, 4, 0.05), (0.0, 3, 1.0),
])
def test_chi_square_tail(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-8)


def test_even_spread() -> None:
    assert even_spread([30, 20, 10]) == pytest.approx(0.006737947, rel=1e-6)
    assert even_spread([50, 50]) == 1.0
    assert even_spread([0, 0, 0]) == 1.0
    assert even_spread([80, 20]) < 1e-8


def test_holm() -> None:
    # sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 → kept at 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_a_histogram_counts_exactly_while_it_can() -> None:
    h = Histogram()
    for v in [5, 3, 3, 9, 4]:
        h.add(v)
    assert h.items() == [(3, 2), (4, 1), (5, 1), (9, 1)]
    assert (h.n, h.mean, h.low, h.high, h.width) == (5, 4.8, 3, 9, 0)
    assert (h.quantile(0.5), h.quantile(0.1), h.quantile(0.9)) == (4, 3, 9)
    assert h.to_json()["histogram"] == [[3, 2], [4, 1], [5, 1], [9, 1]]
    assert Histogram().to_json() is None


def test_a_histogram_stays_small_whatever_it_is_given() -> None:
    h = Histogram()
    for v in range(100_000):
        h.add(v * 1.5)
    assert len(h.counts) <= histogram_module.MAX_BINS
    assert h.n == 100_000 and h.low == 0 and h.high == 99_999 * 1.5
    assert h.mean == pytest.approx(99_999 * 1.5 / 2)
    assert sum(count for _, count in h.items()) == 100_000
    assert h.quantile(0.5) == pytest.approx(75_000, rel=0.01)


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.integers(-2000, 2000), max_size=300),
       cut=st.integers(0, 300), seed=st.integers(0, 10))
def test_merging_histograms_in_any_order_gives_the_same_result(values: list[int], cut: int,
                                                                seed: int) -> None:
    """As `--jobs` merges batches in whatever order they finish."""
    old = histogram_module.MAX_BINS
    histogram_module.MAX_BINS = 20  # coarsening happens with few values
    try:
        whole = Histogram()
        for v in values:
            whole.add(v)
        parts = [values[:cut], values[cut:]]
        random.Random(seed).shuffle(parts)
        merged = Histogram()
        for part in parts:
            h = Histogram()
            for v in part:
                h.add(v)
            merged.merge(h)
        assert merged.items() == whole.items()
        assert (merged.width, merged.n, merged.low, merged.high) == (
            whole.width, whole.n, whole.low, whole.high)
        assert len(merged.counts) <= 20
    finally:
        histogram_module.MAX_BINS = old
