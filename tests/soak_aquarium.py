"""Aquarium's long random-play run (issue 12): N games for every seat count (2–6) and
every mode, each checked at every decision by the suite's invariants (no card created or
lost, every bead change accounted for by a public event of the log, no bead debt, nine
action cards per seat, at most five cards in the pet shop, one breeding pair, the JSON
round trip every 25 decisions). The suite plays a few of these;
this runs the thousands the issue asks for:

    python -m tests.soak_aquarium --games 1000

It prints games, decisions, errors and the wall time per combination, and exits 1 if any
game broke an invariant.
"""

from __future__ import annotations

import sys

from tests.soak import soak
from tests.test_aquarium import play

if __name__ == "__main__":
    sys.exit(soak("Aquarium", str(__doc__).split("\n\n")[0], play, (2, 3, 4, 5, 6),
                  ("intro", "normal", "advanced"), "mode"))
