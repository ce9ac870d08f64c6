"""Random playouts per second and decisions per second for each bundled game.

A benchmark, not a test: run it by hand, before and after a change to the hot path.

    python benchmarks/playouts.py                 # every bundled game, and High Rise 8×8
    python benchmarks/playouts.py caldera -n 200 --players 3
    python benchmarks/playouts.py high-rise:rows=8,cols=8

A game is a bundled name or a ruleset path, optionally followed by `:key=value,...`
options. To compare two trees side by side, run it with PYTHONPATH set to each.
"""

from __future__ import annotations

import argparse
import statistics
import time

from interpreter.api import load, load_game
from interpreter.load.catalog import bundled_names
from interpreter.simulate.playout import make_agents, play_game


def parse(spec: str) -> tuple[str, dict[str, str]]:
    """`high-rise:rows=8,cols=8` → the game and its options."""
    name, _, rest = spec.partition(":")
    options = dict(pair.split("=", 1) for pair in rest.split(",") if pair)
    return name, options


def bench(spec: str, games: int, players: int | None, repeats: int) -> dict[str, float]:
    name, options = parse(spec)
    game = load_game(name, options)
    players = game.check_players(players)
    rates, decision_rates = [], []
    for r in range(repeats):
        decisions = 0
        started = time.perf_counter()
        for i in range(games):
            seed = r * games + i
            result = play_game(game, players, seed, make_agents(players, seed), keep_state=False)
            decisions += len(result.decisions)
        elapsed = time.perf_counter() - started
        rates.append(games / elapsed)
        decision_rates.append(decisions / elapsed)
    return {"players": players, "playouts_per_s": statistics.median(rates),
            "decisions_per_s": statistics.median(decision_rates),
            "decisions_per_game": decisions / games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="bundled game names (default: all)")
    parser.add_argument("-n", type=int, default=100, help="playouts per repeat")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=3, help="the median is reported")
    args = parser.parse_args()
    names = args.games or [*bundled_names(), "high-rise:rows=8,cols=8"]
    width = max(len(n) for n in names) + 2
    print(f"{'game':<{width}}{'seats':>6}{'playouts/s':>12}{'decisions/s':>13}"
          f"{'dec/game':>10}")
    for name in names:
        load(parse(name)[0])
        r = bench(name, args.n, args.players, args.repeats)
        print(f"{name:<{width}}{r['players']:>6}{r['playouts_per_s']:>12.1f}"
              f"{r['decisions_per_s']:>13.0f}{r['decisions_per_game']:>10.1f}", flush=True)


if __name__ == "__main__":
    main()
