"""The uniform computer player: every legal option equally likely, seeded and
reproducible, available wherever agents are named."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

from interpreter.agents import AGENTS, make_agent
from interpreter.agents.base import OptionChoice
from interpreter.api import load_game
from interpreter.simulate.playout import make_agents, play_game


def _options(kinds: list[str]) -> list[OptionChoice]:
    return [OptionChoice(f"o{i}", f"option {i}", k) for i, k in enumerate(kinds)]


def test_uniform_weighs_every_option_alike_where_random_weighs_kinds() -> None:
    options = _options(["place"] * 9 + ["pass"])
    uniform, rand = make_agent("uniform", 7), make_agent("random", 7)
    n = 20_000
    by_uniform = Counter(options[uniform.choose(dict, options)].kind for _ in range(n))
    by_random = Counter(options[rand.choose(dict, options)].kind for _ in range(n))
    assert abs(by_uniform["pass"] / n - 0.1) < 0.01  # 1 option in 10
    assert abs(by_random["pass"] / n - 0.5) < 0.02  # 1 kind in 2
    every = Counter(uniform.choose(dict, options) for _ in range(n))
    assert set(every) == set(range(10)) and min(every.values()) > n / 10 * 0.85


def test_the_same_seed_gives_the_same_game() -> None:
    assert "uniform" in AGENTS
    game = load_game("caldera")
    a = play_game(game, 2, 5, make_agents(2, 5, "uniform"))
    b = play_game(game, 2, 5, make_agents(2, 5, "uniform"))
    c = play_game(game, 2, 5, make_agents(2, 5, "random"))
    assert a.decisions == b.decisions and a.decisions != c.decisions


def test_simulate_takes_uniform() -> None:
    out = subprocess.run([sys.executable, "-m", "interpreter.cli", "simulate", "high-rise",
                          "-n", "5", "--seed", "1", "--agent", "uniform", "--json"],
                         capture_output=True, text=True, timeout=120, check=True)
    report = json.loads(out.stdout)
    assert report["games"] == 5 and report["errors"] == 0
