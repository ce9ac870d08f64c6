"""What the races of benchmarks/peers.py and benchmarks/natural.py time by: the clock
every batch reads (--clock) and the interleaved repeats of every competitor's batch.

One module for both, so that a script choosing CPU time gets it in the batches it
borrows from the other (a clock bound when a module is imported would not follow).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import Protocol

CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter,
                                          "cpu": time.process_time}
_chosen: Callable[[], float] = time.perf_counter


def use_clock(name: str) -> None:
    """Time every batch from now on by `name` (a key of CLOCKS): wall time, or this
    process's CPU time (less disturbed by other work on a shared machine; a baseline
    process times its own CPU)."""
    global _chosen
    _chosen = CLOCKS[name]


def clock() -> float:
    """Seconds by the chosen clock (`use_clock`; wall time until one is chosen)."""
    return _chosen()


class Runs(Protocol):
    def run(self, first_seed: int, min_seconds: float) -> None: ...


def interleave(competitors: Sequence[Runs], repeats: int, min_seconds: float) -> None:
    """Run every competitor's batch in turn within each repeat, the order rotating from
    one repeat to the next, so that all of them see the same machine load. Every
    competitor of a repeat plays the same seeds; repeats play new ones."""
    for repeat in range(repeats):
        print(f"repeat {repeat + 1}/{repeats} ...", file=sys.stderr, flush=True)
        shift = repeat % len(competitors)
        for c in [*competitors[shift:], *competitors[:shift]]:
            c.run(1_000_000 * (repeat + 1), min_seconds)
