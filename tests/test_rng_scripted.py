"""Outcomes given from outside (`rng.Scripted`, OpenSpiel's chance nodes): drawn in
order, a `ChanceNeeded` past them, and the rules draw the same way as with the seeded
generator: a game replayed with the outcomes its seeded draws gave is the same game."""

from __future__ import annotations

import random

import pytest

from interpreter.api import load_game
from interpreter.run import rng as rngmod
from interpreter.run.machine import Machine
from interpreter.run.rng import ChanceNeeded, Scripted


def test_outcomes_are_drawn_in_order_then_asked_for() -> None:
    script = Scripted((4, 0, 2), 0, 256)
    script, a = rngmod.below(script, 6)
    script, b = rngmod.below(script, 1)  # one outcome: nothing to ask
    script, c = rngmod.below(script, 3)
    assert (a, b, c) == (4, 0, 0) and script.used == 2 and not script.exhausted
    script, d = rngmod.below(script, 5)
    assert d == 2 and script.exhausted
    with pytest.raises(ChanceNeeded) as need:
        rngmod.below(script, 52)
    assert need.value.n == 52
    with pytest.raises(ValueError, match="outcome 7 given for a draw of 6"):
        rngmod.below(Scripted((7,)), 6)


def test_the_seeded_generator_is_unchanged() -> None:
    """The same numbers as SplitMix64 with rejection always gave (the check on the
    state's kind costs the integer generator nothing: it is never made)."""
    r, out = 12345, []
    for n in (6, 52, 2, 1000, 1 << 64):
        r, x = rngmod.below(r, n)
        out.append(x)
    state, expected = 12345, []
    for n in (6, 52, 2, 1000, 1 << 64):
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            state, x = rngmod.next_u64(state)
            if x < limit:
                expected.append(x % n)
                break
    assert out == expected


@pytest.mark.parametrize(("name", "players"), [("aquarium", 3), ("high-rise", 2),
                                               ("bottoms-up", 4), ("kuhn-poker", 2),
                                               ("goofspiel", 2)])
def test_a_game_replayed_with_its_draws_as_outcomes_is_the_same_game(
        name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Shuffles (`shuffle`, `shuffled`) and dice (`roll`) draw through `rng.below`:
    the outcomes a seeded game drew, given back as `Scripted` outcomes, replay it."""
    game = load_game(name)
    drawn: list[int] = []
    seeded_below = rngmod.below

    def recording(state: object, n: int) -> tuple[object, int]:
        state, x = seeded_below(state, n)
        if n > 1:
            drawn.append(x)
        return state, x

    monkeypatch.setattr(rngmod, "below", recording)
    pick = random.Random(7)
    state = game.new_state(players, 3)
    moves = []
    for _ in range(60):
        if state.over:
            break
        seat = game.deciding_seats(state)[0]
        raw = pick.choice(game.raw_options(state, seat))
        moves.append((seat, raw))
        game.apply_trusted(state, seat, raw)
    monkeypatch.setattr(rngmod, "below", seeded_below)
    assert drawn, "the game drew nothing"
    again = game.blank_state(players, 0)
    again.rng = Scripted(tuple(drawn), 0, 1 << 64)
    again.frames = [[0, {}]]
    Machine(game, again).run()
    for seat, raw in moves:
        game.apply_trusted(again, seat, raw)
    assert again.rng.exhausted
    ours, theirs = again.to_json(), state.to_json()
    del ours["rng"], theirs["rng"]
    assert ours == theirs
