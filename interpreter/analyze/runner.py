"""Running an analysis: the plan's games, spread over worker processes or a Ray cluster,
into totals."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from interpreter.analyze.collect import Totals, lost_batch, run_batch
from interpreter.analyze.plan import Plan
from interpreter.analyze.summary import build_report
from interpreter.simulate.playout import run_batches


def analyze(plan: Plan, jobs: int = 1, progress: Callable[[int], None] | None = None,
            backend: str = "local", address: str | None = None) -> dict[str, Any]:
    """Play every configuration's games and report them (see `summary`), on `backend`
    (see `playout.run_batches`): the same seeds give the same report on any backend.
    Ctrl-C stops early: the games played so far are reported, with `interrupted` true."""
    started = time.perf_counter()
    totals = [Totals() for _ in plan.configs]

    def take(result: tuple[int, Totals]) -> None:
        index, part = result
        totals[index].merge(part)
        if progress:
            progress(part.tally.games)

    rulesets = {v.ref[0]: v.game.loaded for v in plan.variants}
    interrupted = run_batches(plan.total_games, plan.work, run_batch, take, lost_batch, jobs,
                              backend, address, rulesets)
    return build_report(plan, totals, time.perf_counter() - started, interrupted)
