"""A small seeded random generator whose whole state is one integer.

The state lives inside the game State (so copying and JSON are trivial and the same
seed gives the same game in any process). SplitMix64 is fast in pure Python and good
enough for games.

A seed is turned into a generator state through a cryptographic hash, not a linear
map: with ``state = seed * G + C`` game S+1's draws were game S's shifted by one, so
a simulation of seeds S, S+1, ... played strongly correlated games. Hashing makes
consecutive seeds unrelated, and keeps the seed itself out of reach of anyone who
watches the draws (the game's or a computer player's).

A state's generator may instead be a `Scripted` value, the outcomes of its draws given
one by one from outside (OpenSpiel's chance nodes, `interpreter.adapters.openspiel`): a
draw past the last outcome given raises `ChanceNeeded` with how many outcomes it needs,
and whoever runs the rules supplies one and runs them again from where they started.
Every draw goes through `below`, so the rules draw the same way in either case.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _seed_bytes(seed: int, labels: tuple[object, ...]) -> bytes:
    if type(seed) is not int:
        raise TypeError(f"a seed is a whole number, not {seed!r}")
    raw = seed.to_bytes(seed.bit_length() // 8 + 1, "little", signed=True)
    parts = [len(raw).to_bytes(4, "little"), raw]
    for label in labels:
        text = str(label).encode("utf-8")
        parts += [len(text).to_bytes(4, "little"), text]
    return b"".join(parts)


def seed_state(seed: int) -> int:
    """Turn any whole-number seed into a generator state (a 64-bit hash of it)."""
    digest = hashlib.blake2b(_seed_bytes(seed, ()), digest_size=8,
                             person=b"tabletop-game").digest()
    return int.from_bytes(digest, "little")


def derive_seed(seed: int, *labels: object) -> int:
    """A 128-bit seed for a generator of its own, e.g. a computer player's
    (``derive_seed(game_seed, "agent", seat)``): unrelated to the game's draws and to
    every other label's, and the game seed cannot be worked out from it."""
    digest = hashlib.blake2b(_seed_bytes(seed, labels), digest_size=16,
                             person=b"tabletop-derive").digest()
    return int.from_bytes(digest, "little")


def next_u64(state: int) -> tuple[int, int]:
    """(new state, 64 random bits)."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int | Scripted, n: int) -> tuple[int | Scripted, int]:
    """(new state, a uniform integer in [0, n)); n must be from 1 to 2**64."""
    if not 0 < n <= 1 << 64:
        raise ValueError(f"below() needs 1 <= n <= 2**64, got {n}")
    limit = (1 << 64) - ((1 << 64) % n)
    try:  # (free when nothing is raised: the integer generator pays no check)
        while True:
            state, x = next_u64(state)
            if x < limit:
                return state, x % n
    except TypeError:
        if type(state) is int:
            raise
        return state.below(n)  # outcomes given from outside (Scripted)


class ChanceNeeded(Exception):
    """A draw from `Scripted` outcomes found none left: it needs one of `n` outcomes,
    each as likely. Not a rule error: nothing may catch it on the way out of the rules."""

    def __init__(self, n: int) -> None:
        super().__init__(f"a draw needs one of {n} outcomes")
        self.n = n


@dataclass(frozen=True, slots=True)
class Scripted:
    """A generator whose draws are outcomes given from outside, in order: `used` of
    `outcomes` are drawn so far. Immutable, as the integer generator is: a state copy
    shares it, and restoring the reference undoes draws.

    A draw of more than `most` outcomes (a die of 1,000 sides, a 64-bit number) is
    made of several draws of at most `most` each: base-`most` digits, drawn again in
    the rare case the number is too large to map evenly onto `n` (exact, like
    `below`). A draw of one outcome needs none."""

    outcomes: tuple[int, ...] = ()
    used: int = 0
    most: int = 1 << 64

    def below(self, n: int) -> tuple[Scripted, int]:
        if not 0 < n <= 1 << 64:
            raise ValueError(f"below() needs 1 <= n <= 2**64, got {n}")
        if n == 1:
            return self, 0
        if n <= self.most:
            return self._next(n)
        base = self.most
        digits, span = 1, base
        while span < n:
            digits, span = digits + 1, span * base
        limit = span - span % n
        state = self
        while True:
            x = 0
            for _ in range(digits):
                state, digit = state._next(base)
                x = x * base + digit
            if x < limit:
                return state, x % n

    def _next(self, n: int) -> tuple[Scripted, int]:
        if self.used == len(self.outcomes):
            raise ChanceNeeded(n)
        outcome = self.outcomes[self.used]
        if not 0 <= outcome < n:
            raise ValueError(f"outcome {outcome} given for a draw of {n} outcomes")
        return Scripted(self.outcomes, self.used + 1, self.most), outcome

    @property
    def exhausted(self) -> bool:
        """Whether every outcome given has been drawn."""
        return self.used == len(self.outcomes)
