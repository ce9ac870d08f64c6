"""The random player: a baseline opponent and the fuzzer of every ruleset."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from interpreter.agents.base import OptionChoice
from interpreter.run.rng import GOLDEN, MASK

_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


class RandomAgent:
    """Picks a kind of option at random, then one option of that kind.

    Choosing the kind first keeps a kind with many options (e.g. every square a piece
    could go to) from crowding out the others, so random games look more like play.

    Its generator is the game's own SplitMix64 (`interpreter.run.rng`), seeded with the
    agent's seed folded to 64 bits: a playout makes two players per game, and a
    Mersenne Twister costs more to seed (3.5 µs) than a tic-tac-toe decision takes.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        if type(seed) is not int:
            raise TypeError(f"a seed is a whole number, not {seed!r}")
        self.rng = (seed ^ (seed >> 64)) & MASK
        """The generator's whole state: one 64-bit integer."""

    def choose(self, view: Callable[[], dict[str, Any]], options: Sequence[OptionChoice]) -> int:
        kinds = sorted({o.kind for o in options})
        kind = kinds[self.pick(len(kinds))] if len(kinds) > 1 else kinds[0]
        indices = [i for i, o in enumerate(options) if o.kind == kind]
        return indices[self.pick(len(indices))]

    def pick(self, n: int) -> int:
        """A uniform draw from range(n), as `rng.below` draws (SplitMix64, rejecting the
        top of the range that n does not divide evenly). One draw of `choose`, for
        choosing without the list (Game.sample_option): first among the kinds that have
        options (sorted, when there are several), then among the options of the kind
        picked; the same draws, so the same games."""
        if not 0 < n <= 1 << 64:
            raise ValueError(f"pick() needs 1 <= n <= 2**64, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        state = self.rng
        while True:
            state = (state + GOLDEN) & MASK
            z = ((state ^ (state >> 30)) * _MIX1) & MASK
            z = ((z ^ (z >> 27)) * _MIX2) & MASK
            z ^= z >> 31
            if z < limit:
                self.rng = state
                return z % n

    def choose_raw(self, kinds: Sequence[str]) -> int:
        """Fast path for playouts: the same choice from the options' kinds alone."""
        distinct = sorted(set(kinds))
        kind = distinct[self.pick(len(distinct))] if len(distinct) > 1 else distinct[0]
        indices = [i for i, k in enumerate(kinds) if k == kind]
        return indices[self.pick(len(indices))]
