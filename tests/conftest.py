"""Settings for the whole test run."""

from __future__ import annotations

import gc

from fuzz_support import GC_THRESHOLDS


def pytest_configure() -> None:
    """Collect garbage less often, as the random-game workers do (`fuzz_support`): the
    tests build and drop many games, and the default thresholds make the collector walk
    every compiled game again and again. Nothing a test checks depends on when it runs."""
    gc.set_threshold(*GC_THRESHOLDS)
