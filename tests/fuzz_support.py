"""What the random-game tests share with their worker processes.

A worker plays hundreds of games of one ruleset: compiling the ruleset again for each
game (about 25 ms) cost High Rise's test more than its games did, so each process
compiles a ruleset once (`game_for`). Games keep many small containers alive (a long log,
the compiled rules), so with the collector's default thresholds a state's JSON check
spent a fifth of its time collecting; `start_worker` makes a worker collect less often.
Neither changes what a game does or what is checked.
"""

from __future__ import annotations

import gc
from typing import Any

from interpreter.run.game import Game
from interpreter.run.playout import worker_game

GC_THRESHOLDS = (50_000, 20, 100)
"""Allocations before a young collection, and young (then middle) collections before an
older one; Python's defaults are (700, 10, 10)."""


def game_for(name: str, options: dict[str, Any] | None = None) -> Game:
    """The ruleset `name` with `options`, compiled once in this process (as a simulation's
    workers do)."""
    return worker_game((name, options or {}))


def start_worker() -> None:
    """A worker process's initializer: collect garbage less often."""
    gc.set_threshold(*GC_THRESHOLDS)
