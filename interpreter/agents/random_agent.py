"""The random player: a baseline opponent and the fuzzer of every ruleset."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from interpreter.agents.base import OptionChoice


class RandomAgent:
    """Picks a kind of option at random, then one option of that kind.

    Choosing the kind first keeps a kind with many options (e.g. every square a piece
    could go to) from crowding out the others, so random games look more like play.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Callable[[], dict[str, Any]], options: Sequence[OptionChoice]) -> int:
        kinds = sorted({o.kind for o in options})
        kind = kinds[self.rng.randrange(len(kinds))] if len(kinds) > 1 else kinds[0]
        indices = [i for i, o in enumerate(options) if o.kind == kind]
        return indices[self.rng.randrange(len(indices))]

    def choose_sampled(self, kinds: Sequence[str], count: Callable[[str], int]
                       ) -> tuple[str, int]:
        """The same choice without the list: `kinds` are the distinct kinds that have
        options, `count` gives how many one has; returns the kind and the option's index
        among that kind's options (the same draws as choose_raw on the full list)."""
        distinct = sorted(kinds)
        kind = distinct[self.rng.randrange(len(distinct))] if len(distinct) > 1 else distinct[0]
        return kind, self.rng.randrange(count(kind))

    def choose_raw(self, kinds: Sequence[str]) -> int:
        """Fast path for playouts: the same choice from the options' kinds alone."""
        distinct = sorted(set(kinds))
        kind = distinct[self.rng.randrange(len(distinct))] if len(distinct) > 1 else distinct[0]
        indices = [i for i, k in enumerate(kinds) if k == kind]
        return indices[self.rng.randrange(len(indices))]
