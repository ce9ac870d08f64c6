"""Games per second of `simulate` on each backend, side by side on the same seeds: the
local backend with 1 and with 2 worker processes, and Ray (a local instance).

A benchmark, not a test: run it by hand on a quiet machine.

    python benchmarks/backends.py                          # high-rise and caldera
    python benchmarks/backends.py high-rise -n 4000 --repeats 3
    python benchmarks/backends.py high-rise --ray-batches 1,4,16,32,64,128

Each figure is the median of the repeats and counts everything a run costs: the local
pool is started anew for every run (as `simulate` does), while Ray is started once,
before the runs (its start is shown apart). Besides games/s, the CPU time per game of
this process and all it started (pool workers; Ray's raylet, GCS and workers) shows
the overhead even when other work shares the machine (needs psutil; the idle Ray
instance, about 4% of a core, counts in every row). Every backend
must give the same wins, draws and end reasons; the benchmark stops if one does not.
--ray-batches also plays the Ray runs with other largest batch sizes
(backends.RAY_BATCH), to show what the per-task overhead costs.
"""

from __future__ import annotations

import argparse
import logging
import os
import resource
import statistics
import time
from collections.abc import Callable
from typing import Any

from interpreter.api import load_game
from interpreter.load.catalog import find_ruleset
from interpreter.simulate import backends, playout

DEFAULT_GAMES = {"high-rise": 2000, "caldera": 200}
SAME = ("games", "errors", "wins_by_seat", "draws", "end_reasons")
DEFAULT_RAY_BATCH = backends.RAY_BATCH


def cpu_seconds() -> float | None:
    """CPU time of this process and every process it started, finished or running (the
    pool's workers; Ray's raylet, GCS and workers), or None without psutil."""
    try:
        import psutil
    except ImportError:
        return None
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    for process in psutil.Process().children(recursive=True):
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue  # gone meanwhile
        total += times.user + times.system
    return total


def ray_run(ref: tuple[str, dict[str, Any]], n: int, players: int, batch: int
            ) -> Callable[[], dict[str, Any]]:
    """A Ray run whose batches grow to `batch` games at most."""
    def run() -> dict[str, Any]:
        backends.RAY_BATCH = batch
        try:
            return playout.simulate(ref, n, players, 0, backend="ray")
        finally:
            backends.RAY_BATCH = DEFAULT_RAY_BATCH
    return run


def bench(name: str, n: int, repeats: int, ray_batches: list[int]
          ) -> list[tuple[str, float, float | None]]:
    """Median games/s and CPU milliseconds per game of each backend; the runs take
    turns, so that a change in the machine's load falls on every backend alike."""
    ref = (str(find_ruleset(name).resolve()), {})
    players = load_game(name).check_players(None)
    runs: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("local, 1 process", lambda: playout.simulate(ref, n, players, 0, jobs=1)),
        ("local, 2 processes", lambda: playout.simulate(ref, n, players, 0, jobs=2)),
        (f"ray (batches ≤ {DEFAULT_RAY_BATCH})", ray_run(ref, n, players, DEFAULT_RAY_BATCH)),
        *((f"ray (batches ≤ {size})", ray_run(ref, n, players, size))
          for size in ray_batches if size != DEFAULT_RAY_BATCH),
    ]
    playout.simulate(ref, min(n, 50), players, 0, backend="ray")  # Ray's workers warm
    rates: dict[str, list[float]] = {label: [] for label, _ in runs}
    cpu: dict[str, list[float]] = {label: [] for label, _ in runs}
    first = None
    for _ in range(repeats):
        for label, run in runs:
            cpu_before, started = cpu_seconds(), time.perf_counter()
            report = run()
            rates[label].append(report["games"] / (time.perf_counter() - started))
            cpu_after = cpu_seconds()
            if cpu_before is not None and cpu_after is not None:
                cpu[label].append((cpu_after - cpu_before) / report["games"] * 1000)
            same = {k: report[k] for k in SAME}
            first = first or same
            if same != first:
                raise SystemExit(f"{name}: {label} gave other results than the local backend")
    return [(label, statistics.median(rates[label]),
             statistics.median(cpu[label]) if cpu[label] else None) for label, _ in runs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="bundled games (default: high-rise, caldera)")
    parser.add_argument("-n", type=int, default=None,
                        help="games per run (default: 2000 of high-rise, 200 of caldera)")
    parser.add_argument("--repeats", type=int, default=3, help="the median is reported")
    parser.add_argument("--ray-batches", default="",
                        help="also run Ray with these largest batch sizes, e.g. 1,8,64")
    args = parser.parse_args()
    ray_batches = [int(s) for s in args.ray_batches.split(",") if s.strip()]
    import ray

    started = time.perf_counter()
    ray.init(address="local", num_cpus=os.cpu_count(), include_dashboard=False,
             log_to_driver=False, logging_level=logging.ERROR)
    ray_start = time.perf_counter() - started
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores (load average before: {load}); Ray {ray.__version__}, "
          f"local instance started in {ray_start:.1f} s (not counted below); median of "
          f"{args.repeats} runs taking turns, seeds 0…n-1\n")
    print(f"{'game':<12}{'games':>7}  {'backend':<26}{'games/s':>9}{'vs 1 process':>14}"
          f"{'CPU ms/game':>13}")
    try:
        for name in args.games or list(DEFAULT_GAMES):
            n = args.n or DEFAULT_GAMES.get(name, 200)
            rows = bench(name, n, args.repeats, ray_batches)
            base = rows[0][1]
            for label, rate, cpu in rows:
                shown = "–" if cpu is None else f"{cpu:.2f}"
                print(f"{name:<12}{n:>7}  {label:<26}{rate:>9.1f}{rate / base:>13.2f}×"
                      f"{shown:>13}", flush=True)
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
