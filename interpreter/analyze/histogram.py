"""A distribution kept as counts of values, in bounded memory and mergeable in any order.

Game lengths, branching factors and score margins are reported as distributions
(median, spread, a chart) and compared between variants, but a report of a million
games must not keep a million numbers. A histogram counts each distinct value; should a
ruleset produce more than MAX_BINS of them, values are grouped into bins of width 1,
then 2, 4, … (each the last bins merged two by two). Merging in any order gives the same
result, the narrowest width that fits all values, so `--jobs` does not change a report.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

MAX_BINS = 400


@dataclass
class Histogram:
    """Counts of values (or, past MAX_BINS distinct ones, of bins of `width`)."""

    counts: Counter[float] = field(default_factory=Counter)
    width: int = 0
    """0 while every distinct value is counted on its own."""
    n: int = 0
    total: float = 0
    """Sum of the values, exact whatever the bins: for the mean."""
    low: float | None = None
    high: float | None = None

    def add(self, value: float, count: int = 1) -> None:
        if count <= 0:
            return
        self.counts[self._key(value)] += count
        self.n += count
        self.total += value * count
        self.low = value if self.low is None else min(self.low, value)
        self.high = value if self.high is None else max(self.high, value)
        if len(self.counts) > MAX_BINS:
            self._fit(self.width)

    def merge(self, other: Histogram) -> None:
        if not other.n:
            return
        if other.width > self.width:
            self._fit(other.width)
        for key, count in other.counts.items():
            self.counts[self._key(key)] += count
        self.n += other.n
        self.total += other.total
        self.low = other.low if self.low is None else min(self.low, other.low)  # type: ignore[type-var]
        self.high = other.high if self.high is None else max(self.high, other.high)  # type: ignore[type-var]
        self._fit(self.width)

    def _key(self, value: float) -> float:
        if not self.width:
            return value
        return math.floor(value / self.width) * self.width

    def _fit(self, width: int) -> None:
        """Re-bin at `width` or wider, until at most MAX_BINS bins are left."""
        while True:
            if width != self.width:
                old, self.width = self.counts, width
                self.counts = Counter()
                for key, count in old.items():
                    self.counts[self._key(key)] += count
            if len(self.counts) <= MAX_BINS:
                return
            width = 1 if width == 0 else 2 * width

    # -- reading -----------------------------------------------------------------------
    @property
    def mean(self) -> float | None:
        return self.total / self.n if self.n else None

    def quantile(self, q: float) -> float | None:
        """The smallest value (bin) with at least a fraction `q` of the counts at or
        below it."""
        if not self.n:
            return None
        wanted = max(1, math.ceil(q * self.n))
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if seen >= wanted:
                return value
        return max(self.counts)

    def items(self) -> list[tuple[float, int]]:
        """(value or bin start, count), in order of value."""
        return sorted(self.counts.items())

    def to_json(self) -> dict[str, Any] | None:
        if not self.n:
            return None
        return {
            "count": self.n,
            "mean": round(self.mean or 0, 3),
            "median": self.quantile(0.5),
            "p10": self.quantile(0.1),
            "p90": self.quantile(0.9),
            "min": self.low,
            "max": self.high,
            "bin_width": self.width or None,
            "histogram": [[value, count] for value, count in self.items()],
        }
