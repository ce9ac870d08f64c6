"""The uniform player: every legal option equally likely (OpenSpiel's random player)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from interpreter.agents.base import OptionChoice, seeded
from interpreter.run.rng import below


class UniformAgent:
    """Picks one of all the legal options, each with the same chance.

    Unlike `random`, which first picks a kind of option, a kind with many options (every
    square a piece could go to) is chosen that much more often: the baseline other
    frameworks report, so figures can be compared with theirs. Its generator is the
    game's SplitMix64, seeded like `random`'s.
    """

    name = "uniform"

    def __init__(self, seed: int = 0) -> None:
        self.rng = seeded(seed)

    def choose(self, view: Callable[[], dict[str, Any]], options: Sequence[OptionChoice]) -> int:
        self.rng, index = below(self.rng, len(options))
        return index
