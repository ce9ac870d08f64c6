"""Settings for the whole test run."""

from __future__ import annotations

import gc

from fuzz_support import GC_THRESHOLDS


def pytest_configure() -> None:
    """Collect garbage less often, as the random-game workers do (`fuzz_support`): the
    tests build and drop many games, and the default thresholds make the collector walk
    every compiled game again and again. Nothing a test checks depends on when it runs."""
    gc.set_threshold(*GC_THRESHOLDS)


LONGEST_FIRST = (
    "test_browser_play.py::test_a_whole_game_played_by_dragging_and_clicking[aquarius-rising",
    "test_browser_play.py::test_a_whole_game_played_by_dragging_and_clicking[caldera",
    "test_browser_play.py::test_a_whole_game_played_by_dragging_and_clicking[aquarium",
    "test_browser_play.py::test_a_whole_game_played_by_dragging_and_clicking[",
    "test_browser.py::test_a_whole_game_played_by_clicking",
    "test_browser_hotseat.py::test_the_cover_screen_leaves_nothing_of_the_last_seat",
)
"""Tests of a minute or more, by how long they took last (prefixes of their ids)."""


def pytest_collection_modifyitems(items: list) -> None:
    """Start the longest tests first: with several workers (`-n auto`) a worker that draws
    a three-minute whole game at the end of the run keeps the others waiting for it."""
    def rank(item: object) -> int:
        nodeid = item.nodeid.split("/")[-1]  # type: ignore[attr-defined]
        for i, prefix in enumerate(LONGEST_FIRST):
            if nodeid.startswith(prefix):
                return i
        return len(LONGEST_FIRST)
    items.sort(key=rank)  # stable: the rest keep their order
