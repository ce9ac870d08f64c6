"""The agent interface: a view and the options in, one option's index out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from interpreter.run.rng import MASK


@dataclass(frozen=True, slots=True)
class OptionChoice:
    """An option as an agent sees it: what a player would see, nothing internal."""

    notation: str
    label: str
    kind: str


class Agent(Protocol):
    """Picks an option. `view` is a callable so agents that ignore it cost nothing."""

    name: str

    def choose(self, view: Callable[[], dict[str, Any]], options: Sequence[OptionChoice]) -> int:
        ...


def seeded(seed: int) -> int:
    """An agent's SplitMix64 state from its seed (a whole number of any size, folded to
    64 bits): agents draw from the game's own generator, which costs nothing to seed."""
    if type(seed) is not int:
        raise TypeError(f"a seed is a whole number, not {seed!r}")
    return (seed ^ (seed >> 64)) & MASK
