"""Non-interference through play over many games (issue 38): for N random games at every
seat count of one game, every kind of pair (another secret pick, another random draw,
another seed, hidden pieces dealt anew) for every seat, each followed to the end or to
what the seat legitimately learns (`tests/through_play.py`). The suite runs a few pairs
of each bundled game; this runs as many as you ask:

    python -m tests.soak_secrecy bottoms-up --games 50
    python -m tests.soak_secrecy high-rise:covered_hidden=true --games 200

It prints, per seat count, the games and the decisions compared, and exits 1 at any
leak (the message names the game, the pair and what differed).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tests.fuzz_support import game_for
from tests.soak import soak
from tests.through_play import sweep


def parse_game(spec: str) -> tuple[str, dict[str, str]]:
    """`high-rise:covered_hidden=true,rows=4` → ("high-rise", {"covered_hidden": "true", …})."""
    name, _, rest = spec.partition(":")
    return name, dict(pair.split("=", 1) for pair in rest.split(",") if pair)


def play(players: int, seed: int, spec: str) -> tuple[list[Any], Any]:
    """Every pair of the random game of `seed`: (one entry per decision compared, the
    tally). Raises `through_play.Leak` at a leak."""
    name, options = parse_game(spec)
    tally = sweep(game_for(name, options), players, range(seed, seed + 1))
    return [None] * tally.compared, tally


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("game", help="a bundled game, with options: NAME[:K=V,...]")
    known, rest = parser.parse_known_args()
    name, options = parse_game(known.game)
    game = game_for(name, options)
    sys.exit(soak(f"Secrecy through play: {known.game}", str(__doc__).split("\n\n")[0], play,
                  tuple(range(game.min_seats, game.max_seats + 1)), (known.game,), "game",
                  rest))
