"""Legal-action listing with dense and with compact action ids (`actions=compact`), on the
same positions of random games, in one run: the time `ActionEncoder.legal` and
`CompactActionEncoder.legal` take a position, each on its own copy of it (a state keeps
what it worked out), in both orders.

    python benchmarks/compact_actions.py                      # Aquarius Rising, 2 seats
    python benchmarks/compact_actions.py aquarius-rising --players 3 --games 6
"""

from __future__ import annotations

import argparse
import time

from interpreter.adapters.openspiel import load
from interpreter.agents.random_agent import RandomAgent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="aquarius-rising")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    dense = load(args.game, {"actions": "dense"}, players=args.players).compiled.actions
    compact = load(args.game, {"actions": "compact"}, players=args.players).compiled.actions
    game = dense.game
    spent = {"dense": 0.0, "compact": 0.0}
    positions = options = 0
    for seed in range(args.games):
        state = game.new_state(args.players, seed)
        agent = RandomAgent(seed)
        while not state.over:
            seat = game.deciding_seats(state)[0]
            for order in (("dense", "compact"), ("compact", "dense")):
                for name in order:
                    encoder = dense if name == "dense" else compact
                    copy = state.copy()
                    started = time.perf_counter()
                    listed = encoder.legal(copy, seat)
                    spent[name] += time.perf_counter() - started
            positions += 1
            options += len(listed)
            game.play_sampled(state, seat, agent)
    each = {k: 1e3 * v / (2 * positions) for k, v in spent.items()}
    print(f"{args.game}, {args.players} seats: {positions} positions, "
          f"{options / positions:.0f} legal options each on average")
    print(f"ids: dense {dense.num_actions:,}, compact {compact.num_actions:,}")
    print(f"legal actions: dense {each['dense']:.3f} ms, compact {each['compact']:.3f} ms a "
          f"position (compact / dense {each['compact'] / each['dense']:.2f})")


if __name__ == "__main__":
    main()
