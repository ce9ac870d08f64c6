"""Aquarius Rising's long random-play run (issue 13): N games for every seat count (2–5)
and every variant (2.0 and 1.0 decks, Dragon start, To the Clouds, Sky High, both, and
Aqua-Chicken), each checked at every decision by the suite's invariants (no card or
pyramid created or lost, every house a valid stack, pyramids where the rules allow, the
ground in one piece, one goal a seat, the JSON round trip every 25 decisions). The suite
plays a few of these; this runs the thousands the issue asks for:

    python -m tests.soak_aquarius_rising --games 1000

It prints games, decisions, errors and the wall time per combination, and exits 1 if any
game broke an invariant.
"""

from __future__ import annotations

import sys

from tests.soak import soak
from tests.test_aquarius_rising import SEAT_COUNTS, VARIANTS, play

if __name__ == "__main__":
    sys.exit(soak("Aquarius Rising", str(__doc__).split("\n\n")[0], play, SEAT_COUNTS,
                  tuple(VARIANTS), "variant"))
