"""Seconds per decision of a searching player in each bundled game, at its most seats.

A benchmark, not a test: run it by hand, before and after a change to the hot path.
Each bundled game is played at random with fixed seeds at its largest seat count; on
decisions 5, 15, 25 and 35 the searching player (`mcts:playouts=400` by default) is
timed choosing for the seat to decide, and the game goes on at random. The table gives
the median seconds per decision.

    python benchmarks/search.py                          # every bundled game
    python benchmarks/search.py --only aquarius-rising --games 3
    python benchmarks/search.py --tree /tmp/base --tree .  # two checkouts side by side
    python benchmarks/search.py --clock cpu      # processor seconds (a busy machine)

Each `--tree` is a checkout of the project: its games are timed in a process of their
own that imports that checkout's interpreter, one game at a time, the trees taking
turns, so a busy moment of the machine falls on every tree alike. The last column is
each tree's median over the first tree's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

DECISIONS = (5, 15, 25, 35)


def time_game(name: str, seed: int, agent_text: str, clock: str = "wall") -> list[float]:
    """Seconds the searching player took on decisions `DECISIONS` of the random game
    `seed` of bundled game `name` at its most seats (fewer when the game ends first), by
    the wall clock or by the processor time of this process (`clock`: wall or cpu)."""
    from interpreter.agents import make_agent
    from interpreter.api import load_game
    try:
        from interpreter.simulate.playout import choose_option, decide, make_agents
    except ImportError:  # a checkout from before the layers (--tree)
        from interpreter.run.playout import (  # type: ignore[no-redef]
            choose_option,
            decide,
            make_agents,
        )

    now = time.perf_counter if clock == "wall" else time.process_time
    game = load_game(name, {})
    players = game.max_seats
    randoms = make_agents(players, seed)
    searcher = make_agent(agent_text, seed, game)
    state = game.new_state(players, seed)
    times: list[float] = []
    number = 0
    while not state.over and number < DECISIONS[-1]:
        number += 1
        seat = game.deciding_seats(state)[0]
        if number in DECISIONS:
            started = now()
            choose_option(game, state.copy(), seat, searcher)
            times.append(now() - started)
        decide(game, state, seat, randoms[seat], words=False)
    return times


def worker(args: argparse.Namespace) -> None:
    """One game of one tree: print its timings as JSON (the parent reads them)."""
    import interpreter
    times = time_game(args.only[0], args.seed, f"mcts:playouts={args.playouts}", args.clock)
    print(json.dumps({"times": times, "interpreter": interpreter.__file__}))


def run_worker(tree: Path, name: str, seed: int, playouts: int, clock: str) -> list[float]:
    """Time one game in a fresh process that imports `tree`'s interpreter."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", "--only", name,
               "--seed", str(seed), "--playouts", str(playouts), "--clock", clock]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {name} seed {seed} failed:\n{done.stderr}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    where = Path(result["interpreter"]).resolve()
    if tree.resolve() not in where.parents:
        raise SystemExit(f"{tree}: imported the interpreter from {where}, not the tree")
    return result["times"]


def bundled_games() -> list[str]:
    from interpreter.load.catalog import bundled_names
    return list(bundled_names())


def seats_of(name: str) -> int:
    from interpreter.api import load_game
    return load_game(name, {}).max_seats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", action="append", type=Path, default=[],
                        help="a checkout to time (repeatable; default: this one)")
    parser.add_argument("--only", action="append", default=[],
                        help="a bundled game to time (repeatable; default: all)")
    parser.add_argument("--playouts", type=int, default=400)
    parser.add_argument("--games", type=int, default=3, help="random games per game")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall-clock seconds, or the search's processor seconds (steadier "
                             "on a busy machine; a search on several processes is wall only)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    trees = args.tree or [Path(__file__).resolve().parent.parent]
    names = args.only or bundled_games()
    times: dict[tuple[str, int], list[float]] = {}
    total = len(names) * args.games * len(trees)
    done = 0
    started = time.perf_counter()
    for name in names:
        for g in range(args.games):
            for t, tree in enumerate(trees):
                times.setdefault((name, t), []).extend(
                    run_worker(tree, name, args.seed + g, args.playouts, args.clock))
                done += 1
                print(f"\r{done}/{total} timed ({time.perf_counter() - started:.0f} s) "
                      f"{name} game {g + 1} tree {t + 1}   ", end="", file=sys.stderr,
                      flush=True)
    print(file=sys.stderr)
    print_table(names, trees, times, args.playouts, args.clock)


def print_table(names: list[str], trees: list[Path], times: dict[tuple[str, int], list[float]],
                playouts: int, clock: str) -> None:
    width = max(len(n) for n in names) + 2
    print(f"mcts:playouts={playouts}, median {clock} seconds per decision "
          f"(decisions {', '.join(map(str, DECISIONS))})")
    for t, tree in enumerate(trees):
        print(f"  tree {t + 1}: {tree}")
    head = "".join(f"{'tree ' + str(t + 1):>10}" for t in range(len(trees)))
    ratios = "".join(f"{str(t + 1) + '/1':>8}" for t in range(1, len(trees)))
    print(f"{'game':<{width}}{'seats':>6}{'n':>4}{head}{ratios}")
    for name in names:
        if not all(times[name, t] for t in range(len(trees))):
            print(f"{name:<{width}}{seats_of(name):>6}   0  (its games end before decision "
                  f"{DECISIONS[0]})")
            continue
        medians = [statistics.median(times[name, t]) for t in range(len(trees))]
        cells = "".join(f"{m:>10.3f}" for m in medians)
        rel = "".join(f"{m / medians[0]:>8.2f}" for m in medians[1:])
        print(f"{name:<{width}}{seats_of(name):>6}{len(times[name, 0]):>4}{cells}{rel}")


if __name__ == "__main__":
    main()
