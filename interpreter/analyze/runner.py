"""Running an analysis: the plan's games, spread over worker processes, into totals."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from interpreter.analyze.collect import Totals, run_batch
from interpreter.analyze.plan import Plan
from interpreter.analyze.summary import build_report
from interpreter.run.playout import largest_batch, stream, worker_count


def analyze(plan: Plan, jobs: int = 1, progress: Callable[[int], None] | None = None
            ) -> dict[str, Any]:
    """Play every configuration's games and report them (see `summary`). Ctrl-C stops
    early: the games played so far are reported, with `interrupted` true."""
    started = time.perf_counter()
    totals = [Totals() for _ in plan.configs]
    jobs = worker_count(jobs, plan.total_games)

    def take(result: tuple[int, Totals]) -> None:
        index, part = result
        totals[index].merge(part)
        if progress:
            progress(part.tally.games)

    interrupted = stream(plan.work(largest_batch(plan.total_games, jobs)), run_batch, jobs,
                         take)
    return build_report(plan, totals, time.perf_counter() - started, interrupted)
