"""The agent figures' bookkeeping: what is left to play and what it costs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _agents_script():
    spec = importlib.util.spec_from_file_location("agents_benchmark",
                                                  ROOT / "benchmarks" / "agents.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _record(game: str, players: int, agent: str, seconds: float, **extra) -> dict:
    return {"game": game, "options": {}, "players": players, "agent": agent,
            "mirror": False, "seconds": seconds, **extra}


def test_missing_counts_games_left_and_their_cost_from_the_newest_records() -> None:
    agents = _agents_script()
    records = [_record("high-rise", 2, "mcts:playouts=400", 100.0)] * 5
    records += [_record("high-rise", 2, "mcts:playouts=400", 10.0)] * 20
    records += [_record("high-rise", 2, "mcts:playouts=400", 1.0, versus="mcts")] * 50
    table = agents.missing(records, games=30)
    row = next(line for line in table.splitlines()
               if line.startswith("| high-rise | – | 2 | mcts:playouts=400 |"))
    # 25 games against random recorded, 5 left at the newest 20 games' 10 s each
    assert row == "| high-rise | – | 2 | mcts:playouts=400 | 25 | 5 | 10.0 | 0.0 |"
    assert "ismcts" not in "".join(line for line in table.splitlines()
                                   if line.startswith("| high-rise"))
    aquarium = [line for line in table.splitlines() if line.startswith("| aquarium | – | 2 |")]
    assert [line.split(" | ")[3] for line in aquarium] == ["mcts:playouts=400", "ismcts"]
    assert all(line.endswith("| 0 | 30 | – | unknown |") for line in aquarium)
    assert "games of configurations never timed" in table.splitlines()[-1]


def test_missing_counts_cpu_seconds_where_recorded() -> None:
    agents = _agents_script()
    records = [_record("high-rise", 2, "mcts:playouts=400", 900.0, cpu_seconds=36.0)] * 10
    table = agents.missing(records, games=110)
    assert "| high-rise | – | 2 | mcts:playouts=400 | 10 | 100 | 36.0 | 1.0 |" in table
