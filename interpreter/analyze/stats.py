"""The statistics of a balance report: confidence intervals and significance tests.

Written with the standard library (`math.erf`, `math.lgamma`): each is a few lines of
well-known formulae, while SciPy would be a large dependency for them alone. Every test
takes counts or histograms, never lists of games, so a report of a million games costs
no more memory than one of ten.

- Rates get Wilson score intervals: unlike the textbook p ± z·√(p(1-p)/n), they stay
  inside [0, 1] and are not empty at 0 of n or n of n (a quiet-turns rule that ends
  every game still has an upper bound below 100% for the other reasons).
- Two rates are compared with the two-proportion z test (pooled), two distributions
  (game lengths, score margins) with the Mann-Whitney U test, which needs no normality
  and works on the counts of each value (ties get mid-ranks and the variance its tie
  correction). Whether wins are spread evenly over the seats is Pearson's χ² test.
- Many tests at once are corrected with Holm's step-down method, so "significant" keeps
  its 5% meaning for the whole comparison without Bonferroni's loss of power.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

LEVEL = 0.95
"""The confidence level of every interval."""
ALPHA = 0.05
"""A (Holm-adjusted) p-value below this is significant."""
Z = NormalDist().inv_cdf(1 - (1 - LEVEL) / 2)
"""1.959963984540054: the normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True, slots=True)
class Rate:
    """`count` of `total`, with its Wilson score interval."""

    count: int
    total: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.count / self.total if self.total else 0.0

    def to_json(self, digits: int = 4) -> dict[str, float | int]:
        return {"count": self.count, "rate": round(self.rate, digits),
                "low": round(self.low, digits), "high": round(self.high, digits)}


def wilson(count: int, total: int, z: float = Z) -> Rate:
    """The Wilson score interval of a rate: where the true rate lies with 95% confidence
    (0 to 1 when nothing was counted)."""
    if total <= 0:
        return Rate(count, 0, 0.0, 1.0)
    if not 0 <= count <= total:
        raise ValueError(f"a count of {count} out of {total}")
    p = count / total
    z2 = z * z
    centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    half = z * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total)) / (1 + z2 / total)
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    # exact at the edges (rounding would otherwise leave 1e-17 above 0 of n)
    return Rate(count, total, 0.0 if count == 0 else low, 1.0 if count == total else high)


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> float:
    """p-value of the two-proportion z test (pooled) that k1/n1 and k2/n2 are the same
    rate; 1 when there is nothing to compare (no games, or the same rate 0 or 1)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (k1 + k2) / (n1 + n2)
    variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if variance <= 0:
        return 1.0
    return normal_p((k1 / n1 - k2 / n2) / math.sqrt(variance))


def mann_whitney(a: Mapping[float, int], b: Mapping[float, int]) -> float:
    """p-value of the Mann-Whitney U test (normal approximation with tie and continuity
    corrections) that two samples, given as counts of each value, come from the same
    distribution; 1 when either is empty or every value is the same."""
    n1, n2 = sum(a.values()), sum(b.values())
    if n1 <= 0 or n2 <= 0:
        return 1.0
    n = n1 + n2
    rank_sum = 0.0
    ties = 0.0
    below = 0
    for value in sorted(set(a) | set(b)):
        in_a, in_b = a.get(value, 0), b.get(value, 0)
        t = in_a + in_b
        if not t:
            continue
        mid_rank = below + (t + 1) / 2
        rank_sum += in_a * mid_rank
        ties += t ** 3 - t
        below += t
    u = rank_sum - n1 * (n1 + 1) / 2
    mean = n1 * n2 / 2
    variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if variance <= 0:
        return 1.0
    shift = abs(u - mean) - 0.5
    return normal_p(max(shift, 0.0) / math.sqrt(variance))


def chi2_sf(x: float, df: int) -> float:
    """P(χ² with `df` degrees of freedom ≥ x), for whole `df` ≥ 1 (closed forms: a
    Poisson sum for even df, erfc and a half-integer series for odd)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if x <= 0:
        return 1.0
    h = x / 2
    if df % 2 == 0:
        term = total = 1.0
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return min(1.0, math.exp(-h) * total)
    total = math.erfc(math.sqrt(h))
    for i in range(1, (df + 1) // 2):
        # h^(i-1/2) e^-h / Γ(i+1/2), in logs so large x cannot overflow
        total += math.exp((i - 0.5) * math.log(h) - h - math.lgamma(i + 0.5))
    return min(1.0, total)


def even_spread(counts: Sequence[int]) -> float:
    """p-value of Pearson's χ² test that the counts (wins per seat) come from equal
    chances; 1 when there are fewer than two seats or no wins."""
    total = sum(counts)
    if len(counts) < 2 or total <= 0:
        return 1.0
    expected = total / len(counts)
    x = sum((c - expected) ** 2 for c in counts) / expected
    return chi2_sf(x, len(counts) - 1)


def holm(p_values: Iterable[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given: the i-th smallest of m is multiplied
    by m - i + 1, and no adjusted value is below the one before it."""
    ps = list(p_values)
    m = len(ps)
    adjusted = [1.0] * m
    running = 0.0
    for rank, index in enumerate(sorted(range(m), key=ps.__getitem__)):
        running = max(running, min(1.0, (m - rank) * ps[index]))
        adjusted[index] = running
    return adjusted
