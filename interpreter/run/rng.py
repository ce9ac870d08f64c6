"""A small seeded random generator whose whole state is one integer.

The state lives inside the game State (so copying and JSON are trivial and the same
seed gives the same game in any process). SplitMix64 is fast in pure Python and good
enough for games.

A seed is turned into a generator state through a cryptographic hash, not a linear
map: with ``state = seed * G + C`` game S+1's draws were game S's shifted by one, so
a simulation of seeds S, S+1, ... played strongly correlated games. Hashing makes
consecutive seeds unrelated, and keeps the seed itself out of reach of anyone who
watches the draws (the game's or a computer player's).
"""

from __future__ import annotations

import hashlib

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


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a uniform integer in [0, n)); n must be from 1 to 2**64."""
    if not 0 < n <= 1 << 64:
        raise ValueError(f"below() needs 1 <= n <= 2**64, got {n}")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, x = next_u64(state)
        if x < limit:
            return state, x % n
