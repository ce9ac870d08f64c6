"""The random player: a baseline opponent and the fuzzer of every ruleset."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from interpreter.agents.base import OptionChoice, seeded
from interpreter.run.rng import below


class RandomAgent:
    """Picks a kind of option at random, then one option of that kind.

    Choosing the kind first keeps a kind with many options (e.g. every square a piece
    could go to) from crowding out the others, so random games look more like play.

    Its generator is the game's own SplitMix64 (`interpreter.run.rng`), seeded with the
    agent's seed folded to 64 bits: a playout makes two players per game, and a
    Mersenne Twister costs more to seed (3.5 µs) than a small board game's decision takes.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = seeded(seed)
        """The generator's whole state: one 64-bit integer."""

    def choose(self, view: Callable[[], dict[str, Any]], options: Sequence[OptionChoice]) -> int:
        kinds = sorted({o.kind for o in options})
        kind = kinds[self.pick(len(kinds))] if len(kinds) > 1 else kinds[0]
        indices = [i for i, o in enumerate(options) if o.kind == kind]
        return indices[self.pick(len(indices))]

    def pick(self, n: int) -> int:
        """A uniform draw from range(n) (`rng.below`). One draw of `choose`, for
        choosing without the list (Game.sample_option): first among the kinds that have
        options (sorted, when there are several), then among the options of the kind
        picked; the same draws, so the same games."""
        self.rng, index = below(self.rng, n)
        return index

    def choose_raw(self, kinds: Sequence[str]) -> int:
        """Fast path for playouts: the same choice from the options' kinds alone."""
        distinct = sorted(set(kinds))
        kind = distinct[self.pick(len(distinct))] if len(distinct) > 1 else distinct[0]
        indices = [i for i, k in enumerate(kinds) if k == kind]
        return indices[self.pick(len(indices))]
