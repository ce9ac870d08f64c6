"""Seeded games whose every decision and final state are kept in a fixture, so that a
change to how the state is stored or copied is checked to play the very same games.

    python -m tests.seeded_games     # write tests/fixtures/seeded_games.json

Run it only with code known to play correctly (it records what the test then demands).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from interpreter.api import load_game
from interpreter.simulate.playout import make_agents, play_game

FIXTURE = Path(__file__).parent / "fixtures" / "seeded_games.json"

GAMES: list[tuple[str, int, str, int]] = [
    # (bundled game, seats, agent, seed): random play in the big games, and searching
    # players (which copy states, and in hidden games draw positions) in a few
    ("aquarius-rising", 5, "random", 3),
    ("aquarius-rising", 2, "mcts:playouts=6", 4),
    ("aquarius-rising", 3, "ismcts:playouts=6", 5),
    ("aquarium", 6, "random", 6),
    ("aquarium", 2, "ismcts:playouts=6", 7),
    ("caldera", 3, "random", 8),
    ("high-rise", 2, "mcts:playouts=10", 9),
    ("bottoms-up", 6, "random", 10),
    ("oware", 2, "mcts:playouts=10", 11),
    ("liars-dice", 2, "ismcts:playouts=10", 12),
]


def play(name: str, seats: int, agent: str, seed: int) -> dict[str, Any]:
    """One seeded game: its decisions and a digest of its final state as saved."""
    game = load_game(name, {})
    result = play_game(game, seats, seed, make_agents(seats, seed, agent, game))
    saved = json.dumps(result.final_state.to_json(), sort_keys=True)
    return {"decisions": [f"{seat} {notation}" for seat, notation in result.decisions],
            "state": hashlib.sha256(saved.encode()).hexdigest()}


def key(name: str, seats: int, agent: str, seed: int) -> str:
    return f"{name} {seats} {agent} {seed}"


def record() -> None:
    games = {key(*g): play(*g) for g in GAMES}
    FIXTURE.write_text(json.dumps(games, indent=1) + "\n")


if __name__ == "__main__":
    record()
