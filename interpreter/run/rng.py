"""A small seeded random generator whose whole state is one integer.

The state lives inside the game State (so copying and JSON are trivial and the same
seed gives the same game in any process). SplitMix64 is fast in pure Python and good
enough for games.
"""

from __future__ import annotations

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """Turn any integer seed into a generator state."""
    return (seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) & MASK


def next_u64(state: int) -> tuple[int, int]:
    """(new state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a uniform integer in [0, n))."""
    if n <= 0:
        raise ValueError("below() needs n > 0")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, x = next_u64(state)
        if x < limit:
            return state, x % n
