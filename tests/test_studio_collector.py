"""The studio's idle collector: full collections wait for a pause in checks, and the
automatic collector gets its oldest generation back when the studio stops."""

from __future__ import annotations

import gc
import time

from interpreter.studio.collector import NEVER, IdleCollector


def _wait_for(condition, seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def test_a_full_collection_waits_for_a_pause_and_thresholds_come_back() -> None:
    before = gc.get_threshold()
    collector = IdleCollector(quiet=1.0, longest=600.0, tick=0.02)
    collector.start()
    try:
        assert gc.get_threshold()[2] == NEVER and gc.get_threshold()[:2] == before[:2]
        assert collector.collections == 0  # nothing happened: nothing to collect
        end = time.monotonic() + 1.5
        while time.monotonic() < end:  # a check every 0.1 s: never a pause of 1 s
            collector.busy()
            time.sleep(0.1)
        assert collector.collections == 0
        # a full collection of a large test process's heap may take seconds: wait for it
        assert _wait_for(lambda: collector.collections == 1, 30)
        time.sleep(0.5)
        assert collector.collections == 1  # one collection per pause, not one per tick
    finally:
        collector.stop()
    assert gc.get_threshold() == before


def test_unbroken_typing_is_still_collected_now_and_then() -> None:
    collector = IdleCollector(quiet=600.0, longest=0.3, tick=0.02)
    collector.start()
    try:
        end = time.monotonic() + 30
        while collector.collections < 2 and time.monotonic() < end:  # never a pause
            collector.busy()
            time.sleep(0.05)
        assert collector.collections >= 2
    finally:
        collector.stop()
