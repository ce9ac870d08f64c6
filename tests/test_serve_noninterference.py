"""Non-interference at the protocol: what the server sends a seat (or a spectator) is the
same, byte for byte, for every position that seat cannot tell from the true one.

Positions are drawn from the seat's information set (hidden cards dealt anew among the
places it cannot see, secret values redrawn, as ismcts draws them) along random games of
every bundled game with secrets. The draw knows the view's rules, not the game's, so it
also makes positions the seat *could* tell apart (a large pyramid dealt under a small
one is no longer covered) or that the rules never reach (a die dealt into a stack):
those whose view for the seat differs from the true one are left out, and the rest are
the positions the seat cannot tell apart. For each, the message the server would send
is built: the board's SVG with its click targets, the view, the log, the options and
what each involves. Any difference means the server sent something beyond the seat's
view: something it may not know reached its browser.
"""

from __future__ import annotations

import random

import pytest

from interpreter.agents.information import InformationSet
from interpreter.api import load_game
from interpreter.errors import RuleError
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import SPECTATOR, view
from interpreter.serve import protocol
from interpreter.serve.app import Server
from interpreter.serve.tables import Store, Table
from interpreter.simulate.record import SavedGame

GAMES = [("bottoms-up", {}, 4), ("high-rise", {}, 2), ("high-rise", {"covered_hidden": True}, 2),
         ("aquarium", {}, 3), ("aquarius-rising", {}, 2), ("aquarius-rising", {"chicken": True}, 3)]


def sent(server: Server, game: Game, state: State, decisions: int, seat: int | None) -> str:
    """The text the server sends `seat` (None: a spectator) in `state`."""
    record = SavedGame.start(game, state.players, 0, {})
    record.decisions = [(1, "x")] * decisions
    table = Table("0" * 16, game, game.name, state, record, {}, "s" * 16, False)
    return protocol.dumps(server.state_message(table, seat, True))


def alike(game: Game, state: State, seat: int, rng: random.Random, tries: int = 8
          ) -> State | None:
    """A position drawn from `seat`'s information set whose view, for that seat and for
    spectators, is the true one's (None: none of `tries` draws was such a position)."""
    positions = InformationSet(game, state, seat)
    for _ in range(tries):
        try:
            other = positions.sample(rng.randrange(1 << 62))
            other.log, other._log_json = state.log, state._log_json  # the draw has no log
            if all(view(game, other, s) == view(game, state, s) for s in (seat, SPECTATOR)):
                return other
        except RuleError:  # a position the rules never reach (no option, a failing view)
            continue
    return None


@pytest.mark.parametrize(("name", "options", "players"), GAMES,
                         ids=[f"{n}-{'-'.join(o) or 'default'}" for n, o, _ in GAMES])
def test_what_is_sent_depends_only_on_what_the_seat_may_see(
        name: str, options: dict, players: int) -> None:
    game = load_game(name, options)
    server = Server(Store(None))
    rng = random.Random(11)
    compared = drawn = 0
    for g in range(2):
        state = game.new_state(players, 900 + g)
        for step in range(400):
            seats = game.deciding_seats(state)
            if state.over or not seats:
                break
            if step % 7 == 0:
                for seat in range(1, players + 1):
                    drawn += 1
                    other = alike(game, state, seat, rng)
                    if other is None:
                        continue
                    assert (sent(server, game, state, step, seat)
                            == sent(server, game, other, step, seat)), (name, step, seat)
                    assert (sent(server, game, state, step, None)
                            == sent(server, game, other, step, None)), (name, step)
                    compared += 1
            seat = seats[0]
            state = game.apply(state, seat, rng.choice(game.legal_options(state, seat)))
    assert compared >= 20 and compared >= drawn // 2, (compared, drawn)
