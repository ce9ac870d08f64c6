"""How long the server takes to build one seat's state message late in a big game.

The message is built per seat per push (interpreter/serve/app.py `state_message`), so
its cost grows with the seats: measured for every seat and a spectator, at four fifths
of a random game, for the biggest tables (Aquarius Rising with 5 seats, Aquarium with 6).

    python benchmarks/state_message.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

from interpreter.api import load_game
from interpreter.serve import protocol
from interpreter.serve.app import Server
from interpreter.serve.tables import Store, Table
from interpreter.simulate.playout import make_agents, play_game
from interpreter.simulate.record import SavedGame

TABLES = [("aquarius-rising", 5), ("aquarium", 6)]


def late_table(name: str, players: int, seed: int = 7) -> Table:
    """A table four fifths of the way through a random game."""
    game = load_game(name)
    played = play_game(game, players, seed, make_agents(players, seed))
    state = game.new_state(players, seed)
    for seat, notation in played.decisions[: len(played.decisions) * 4 // 5]:
        game.apply_in_place(state, seat, notation)
    record = SavedGame.start(game, players, seed, {})
    return Table("0" * 16, game, name, state, record, {}, "s" * 16, False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    server = Server(Store(None))
    for name, players in TABLES:
        table = late_table(name, players)
        seats: list[int | None] = [*range(1, players + 1), None]
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            for seat in seats:
                server.state_message(table, seat, True)
            times.append((time.perf_counter() - start) / len(seats))
        size = len(protocol.dumps(server.state_message(table, 1, True)))
        print(f"{name} ({players} seats): {1000 * statistics.median(times):.1f} ms per "
              f"seat's message (median of {args.repeats}), seat 1's is {size // 1024} KiB")


if __name__ == "__main__":
    main()
