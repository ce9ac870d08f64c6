"""The long random-play runs the issues ask for (thousands of games per combination of
seat count and mode or variant), shared by each game's soak script: games are played in
worker processes in batches, every one checked by the game's `play` (its invariants at
every decision), and a table of games, decisions and errors is printed at the end."""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

# the test modules import their helpers as pytest runs them (tests/ on the path)
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz_support import start_worker

Play = Callable[[int, int, str], tuple[list[Any], Any]]
"""play(players, seed, mode) → (the decisions, the final state), raising when an
invariant breaks (module-level, so worker processes can run it)."""

CHUNK = 25


def _batch(job: tuple[Play, int, str, int, int]) -> tuple[int, str, int, int, list[str]]:
    play, players, mode, first, count = job
    decisions, errors = 0, []
    for seed in range(first, first + count):
        try:
            log, _ = play(players, seed, mode)
            decisions += len(log)
        except Exception as exc:  # an invariant broken: report it, go on
            errors.append(f"{players} players, {mode}, seed {seed}: {exc!r}\n"
                          + traceback.format_exc(limit=3))
    return players, mode, count, decisions, errors


def soak(title: str, description: str, play: Play, seat_counts: Sequence[int],
         modes: Sequence[str], mode_label: str, argv: list[str] | None = None) -> int:
    """Parse the command line (--games, --workers), play, print; 1 if any game broke."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=1000, help="games per combination")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: cores)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    jobs = [(play, p, m, first, min(CHUNK, args.games - first))
            for p in seat_counts for m in modes for first in range(0, args.games, CHUNK)]
    totals: dict[tuple[int, str], list[int]] = {}
    errors: list[str] = []
    started = time.perf_counter()
    with Progress() as progress, ProcessPoolExecutor(args.workers,
                                                     initializer=start_worker) as pool:
        task = progress.add_task(f"{title} random games",
                                 total=args.games * len(seat_counts) * len(modes))
        for players, mode, count, decisions, errs in pool.map(_batch, jobs):
            games, moves = totals.setdefault((players, mode), [0, 0])
            totals[(players, mode)] = [games + count, moves + decisions]
            errors.extend(errs)
            progress.advance(task, count)
    table = Table(title=f"{title}: {args.games} random games per combination")
    for column in ("players", mode_label, "games", "decisions", "errors"):
        table.add_column(column, justify="right")
    for (players, mode), (games, moves) in sorted(totals.items()):
        broken = sum(1 for e in errors if e.startswith(f"{players} players, {mode},"))
        table.add_row(str(players), mode, f"{games:,}", f"{moves:,}", str(broken))
    console = Console()
    console.print(table)
    all_games = sum(g for g, _ in totals.values())
    all_moves = sum(m for _, m in totals.values())
    console.print(f"{all_games:,} games, {all_moves:,} decisions, {len(errors)} errors, "
                  f"{time.perf_counter() - started:.0f} s")
    for e in errors[:5]:
        console.print(e, markup=False)
    return 1 if errors else 0
