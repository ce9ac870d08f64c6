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
import json
from collections.abc import Callable
from typing import Any

from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.simulate.playout import decide, make_agents, worker_game

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


def play_checked(game: Game, state: State, seed: int, check: Callable[[Game, State], None],
                 round_trip_every: int = 25) -> tuple[list[tuple[int, str]], dict]:
    """Play `state` to the end with the random players of game `seed`, running `check`
    before every decision and at the end, and the exact JSON round trip every
    `round_trip_every` decisions; the decisions and the final state as JSON."""
    agents = make_agents(state.players, seed)
    log: list[tuple[int, str]] = []
    while not state.over:
        check(game, state)
        if len(log) % round_trip_every == 0:
            text = json.dumps(state.to_json(), sort_keys=True)
            back = game.state_from_json(json.loads(text))
            assert json.dumps(back.to_json(), sort_keys=True) == text
        seat = game.deciding_seats(state)[0]
        log.append((seat, decide(game, state, seat, agents[seat])))
    check(game, state)
    assert state.winners
    return log, state.to_json()
