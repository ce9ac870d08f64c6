"""Decisions per second of a search on one core and on several (`mcts:workers=N`).

A benchmark, not a test: run it by hand on a machine with at least as many free cores.

    python benchmarks/workers.py                          # a few bundled games
    python benchmarks/workers.py caldera aquarium --agent ismcts:playouts=400 --rounds 5
    python benchmarks/workers.py high-rise:rows=8,cols=8 --workers 2

For each game it takes the positions at decisions 5, 15, 25 and 35 of a random game
(seat count: the game's largest), and times the same searcher settings with workers=1
and with workers=N on each position, interleaved (one of each in turn, which goes first
alternating), so load from others falls on both alike. The workers=N player's processes
are started and the game compiled in them before timing (once per player, as in play).
Columns: decisions per second with workers=1 and workers=N (wall clock, all
positions and rounds), their ratio, the median of the per-search ratios, and `cpu`: the
ratio of CPU seconds of the workers=1 search to those of the busiest process of the
workers=N search (Linux /proc), i.e. the ratio on cores of its own, which the load of
others does not change much. It prints the load average (1 minute) before and after
each game: on a shared machine, read the wall ratio beside it. Linux with
`kernel.sched_autogroup_enabled` shares the cores out between sessions, not processes:
while other sessions keep the cores busy, a search's processes share one session's part
and the wall ratio stays near 1 whatever the CPU ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from interpreter.agents import make_agent
from interpreter.api import load_game
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.simulate.playout import make_agents

DEFAULT_GAMES = ["tic-tac-toe", "connect-four", "high-rise", "caldera", "bottoms-up"]
AT = (5, 15, 25, 35)


def parse(spec: str) -> tuple[str, dict[str, str]]:
    """`high-rise:rows=8,cols=8` → the game and its options."""
    name, _, rest = spec.partition(":")
    return name, dict(pair.split("=", 1) for pair in rest.split(",") if pair)


def positions(game: Game, players: int, seed: int) -> list[tuple[State, int]]:
    """(state, seat to decide) at decisions AT of a random game (fewer if it ends)."""
    from interpreter.simulate.playout import decide

    state = game.new_state(players, seed)
    agents = make_agents(players, seed, "random", game)
    out = []
    for number in range(max(AT) + 1):
        if state.over:
            break
        seat = game.deciding_seats(state)[0]
        if number in AT and len(game.raw_options(state, seat)) > 1:
            out.append((state.copy(), seat))
        decide(game, state, seat, agents[seat])
    return out


def with_workers(agent: str, workers: int) -> str:
    return f"{agent}{',' if ':' in agent else ':'}workers={workers}"


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), from /proc (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(agent: object, game: Game, state: State, seat: int) -> tuple[float, float]:
    """Wall seconds of one search, and the CPU seconds of its busiest process (this one
    or a worker): what the search would take on cores of its own."""
    pids = agent.worker_pids()  # type: ignore[attr-defined]
    workers_before = [cpu_seconds(p) for p in pids]
    cpu_before = time.process_time()
    started = time.perf_counter()
    agent.search(game, state.copy(), seat)  # type: ignore[attr-defined]
    wall = time.perf_counter() - started
    busiest = time.process_time() - cpu_before
    for pid, before in zip(pids, workers_before, strict=True):
        busiest = max(busiest, cpu_seconds(pid) - before)
    return wall, busiest


def bench(spec: str, agent: str, workers: int, rounds: int, seed: int) -> dict[str, float]:
    name, options = parse(spec)
    game = load_game(name, options)
    players = game.max_seats
    places = positions(game, players, seed)
    one = make_agent(with_workers(agent, 1), seed, game)
    many = make_agent(with_workers(agent, workers), seed, game)
    state, seat = places[0]
    timed(many, game, state, seat)  # start the processes, compile the game in them
    load_before = os.getloadavg()[0]
    t_one: list[tuple[float, float]] = []
    t_many: list[tuple[float, float]] = []
    for r in range(rounds):
        for i, (state, seat) in enumerate(places):
            pair = [(one, t_one), (many, t_many)]
            if (r + i) % 2:
                pair.reverse()
            for who, into in pair:
                into.append(timed(who, game, state, seat))
    load_after = os.getloadavg()[0]
    many.close()  # type: ignore[attr-defined]
    rate_one = len(t_one) / sum(wall for wall, _ in t_one)
    rate_many = len(t_many) / sum(wall for wall, _ in t_many)
    return {"players": players, "positions": len(places), "one": rate_one,
            "many": rate_many, "ratio": rate_many / rate_one,
            "median_ratio": statistics.median(a[0] / b[0]
                                              for a, b in zip(t_one, t_many, strict=True)),
            "cpu_ratio": sum(cpu for _, cpu in t_one) / sum(cpu for _, cpu in t_many),
            "load_before": load_before, "load_after": load_after}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help=f"games (default: {' '.join(DEFAULT_GAMES)})")
    parser.add_argument("--agent", default="mcts:playouts=400")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3, help="searches of each position")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.agent}: workers=1 against workers={args.workers}, {os.cpu_count()} cores")
    print(f"{'game':<26}{'players':>8}{'w=1 dec/s':>11}{'w=N dec/s':>11}{'ratio':>7}"
          f"{'median':>8}{'cpu':>6}{'load':>12}")
    for spec in args.games or DEFAULT_GAMES:
        r = bench(spec, args.agent, args.workers, args.rounds, args.seed)
        print(f"{spec:<26}{r['players']:>8}{r['one']:>11.2f}{r['many']:>11.2f}"
              f"{r['ratio']:>7.2f}{r['median_ratio']:>8.2f}{r['cpu_ratio']:>6.2f}"
              f"{r['load_before']:>6.2f}→{r['load_after']:<5.2f}", flush=True)


if __name__ == "__main__":
    main()
