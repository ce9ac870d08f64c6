"""The agent interface: a view and the options in, one option's index out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


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
