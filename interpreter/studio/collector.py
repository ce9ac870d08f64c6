"""Full garbage collections at pauses in typing, not in the middle of a keystroke's check.

A compiled ruleset is a large web of objects with cycles, and the studio compiles one at
every keystroke. Python's automatic collector then runs a full (oldest-generation)
collection about every second compile of a large ruleset, and in the studio's heap that
alone takes about 100 ms: a third of the keystroke's budget, landing on whichever check
happens to allocate past the threshold. The studio's process instead leaves the oldest
generation to this collector, which runs it when no check has started for `quiet`
seconds (the designer paused), or after `longest` seconds of unbroken typing so the
garbage stays bounded. The young generations are still collected as usual: they are
cheap and free most short-lived cycles.
"""

from __future__ import annotations

import gc
import threading
import time

NEVER = 1 << 30
"""An oldest-generation threshold that the automatic collector never reaches."""


class IdleCollector:
    """Runs `gc.collect()` in a background thread once checks pause."""

    def __init__(self, quiet: float = 0.8, longest: float = 5.0, tick: float = 0.1) -> None:
        self.quiet = quiet
        self.longest = longest
        self.tick = tick
        self.collections = 0
        self._last_busy = 0.0
        self._last_collected = time.monotonic()
        self._dirty = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._thresholds: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Take the oldest generation over from the automatic collector."""
        if self._thread is not None:
            return
        self._thresholds = gc.get_threshold()
        young, middle, _ = self._thresholds
        gc.set_threshold(young, middle, NEVER)
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="studio-gc", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Give the oldest generation back to the automatic collector."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    def busy(self) -> None:
        """A check (or other work that makes garbage) has started."""
        with self._lock:
            self._last_busy = time.monotonic()
            self._dirty = True

    def due(self, now: float) -> bool:
        with self._lock:
            if not self._dirty:
                return False
            return (now - self._last_busy >= self.quiet
                    or now - self._last_collected >= self.longest)

    def _run(self) -> None:
        while not self._stop.wait(self.tick):
            now = time.monotonic()
            if not self.due(now):
                continue
            with self._lock:
                self._dirty = False
            gc.collect()
            self.collections += 1
            self._last_collected = time.monotonic()
