"""The races' timing (benchmarks/timing.py): the clock a script chooses is the one every
batch reads, the batches it borrows from benchmarks/peers.py included, and the repeats
run every competitor in turn, the order rotating."""

from __future__ import annotations

import io
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import natural  # noqa: E402
import peers  # noqa: E402
import timing  # noqa: E402

NAP = 0.2
"""Seconds each move of the sleepy game sleeps: wall time, no CPU time."""


class SleepyGame:
    """An OpenSpiel-style game of one move that sleeps."""

    def new_initial_state(self) -> SleepyGame.State:
        return SleepyGame.State()

    class State:
        def __init__(self) -> None:
            self.over = False

        def is_terminal(self) -> bool:
            return self.over

        def legal_actions(self) -> list[int]:
            return [0]

        def apply_action(self, action: int) -> None:
            time.sleep(NAP)
            self.over = True


@pytest.fixture(autouse=True)
def wall_again(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Whatever a test chooses (or patches), the next one starts on wall time."""
    monkeypatch.setattr(time, "perf_counter", time.perf_counter)
    yield
    timing.use_clock("wall")


def test_natural_s_cpu_clock_times_the_batches_it_borrows_from_peers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`natural.py --clock cpu` (here as its baseline process starts, with nothing to
    play): a peers.py batch then counts CPU time, not the sleep."""
    monkeypatch.setattr(sys, "argv", ["natural.py", "--serve", "--clock", "cpu"])
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    natural.main()
    games, decisions, seconds, _ = peers.openspiel_style_batch(SleepyGame(), 2)(1)
    assert (games, decisions) == (2, 2)
    assert seconds < NAP / 2, f"{seconds:.2f} s: the batch was timed by the wall clock"


def test_wall_time_counts_the_sleep() -> None:
    _, _, seconds, _ = peers.openspiel_style_batch(SleepyGame(), 1)(1)
    assert seconds >= NAP


class Counted:
    def __init__(self, name: str, runs: list[tuple[str, int, float]]) -> None:
        self.name, self.runs = name, runs

    def run(self, first_seed: int, min_seconds: float) -> None:
        self.runs.append((self.name, first_seed, min_seconds))


def test_each_repeat_runs_everyone_on_the_same_seeds_the_order_rotating(
        capsys: pytest.CaptureFixture[str]) -> None:
    runs: list[tuple[str, int, float]] = []
    timing.interleave([Counted(n, runs) for n in "abc"], 4, 0.5)
    assert [name for name, _, _ in runs] == list("abc" "bca" "cab" "abc")
    assert [seed for _, seed, _ in runs] == [s * 1_000_000 for s in (1, 2, 3, 4)
                                             for _ in range(3)]
    assert {m for _, _, m in runs} == {0.5}
    assert capsys.readouterr().err.splitlines() == [f"repeat {r}/4 ..." for r in (1, 2, 3, 4)]
