"""What an option involves (highlighted on the board, listed at the terminal) must not
depend on what its seat cannot see: for positions the seat cannot tell apart (drawn
from its information set, as ismcts draws them) with the same options, the involved
places and pieces are the same."""

from __future__ import annotations

import random

import pytest

from interpreter.agents.information import InformationSet
from interpreter.api import load_game
from interpreter.view.involvement import involvement


@pytest.mark.parametrize("name, players", [("bottoms-up", 4), ("high-rise", 2),
                                           ("aquarium", 3), ("aquarius-rising", 2)])
def test_involvement_reveals_nothing_hidden(name: str, players: int) -> None:
    game = load_game(name, {})
    rng = random.Random(7)
    checked = 0
    for g in range(2):
        state = game.new_state(players, 500 + g)
        for step in range(300):
            seats = game.deciding_seats(state)
            if state.over or not seats:
                break
            seat = seats[0]
            options = game.legal_options(state, seat)
            if not options:
                break
            if step % 5 == 0:
                other = InformationSet(game, state, seat).sample(rng.randrange(1 << 30))
                theirs = game.legal_options(other, seat)
                if [o.notation for o in theirs] == [o.notation for o in options]:
                    checked += 1
                    assert (involvement(game, state, seat, options)
                            == involvement(game, other, seat, theirs)), (step, seat)
            state = game.apply(state, seat, rng.choice(options))
    assert checked >= 5
