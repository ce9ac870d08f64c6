"""High Rise's bundled variants: what the players see of the slips and covers.

The rules themselves are pinned by the variants' scenario tests
(rulesets/high-rise-*.tests.yaml); views are not reachable from there.
"""

from __future__ import annotations

import json
import random

import pytest

from interpreter.api import load_game
from interpreter.run.state import State
from interpreter.run.view import view


def _dump(v: dict) -> str:
    return json.dumps(v, sort_keys=True)


def _slips_swapped(game, state: State, rnd: random.Random) -> State:
    """A copy of `state` with two slips of different numbers exchanged between squares."""
    other = state.copy()
    pips = game.attributes["pips"]
    squares = game.zones["board"].sites_in_play(other.players)
    a, b = rnd.sample([(x, y) for x in squares for y in squares
                       if pips[other.sites[x][0]] != pips[other.sites[y][0]]], 1)[0]
    sa, sb = other.sites[a][0], other.sites[b][0]
    other.stack(a)[0], other.stack(b)[0] = sb, sa
    other.loc[sa], other.loc[sb] = b, a
    return other


@pytest.mark.parametrize("options", [{}, {"rows": 2, "cols": 2}])
def test_slips_never_show_before_the_end(options: dict) -> None:
    game = load_game("high-rise-numbered-slips", options)
    rnd = random.Random(3)
    compared = 0
    for seed in range(6):
        a = game.new_state(2, seed)
        b = _slips_swapped(game, a, rnd)
        assert a.to_json() != b.to_json()
        while not a.over:
            for seat in (1, 2):
                assert _dump(view(game, a, seat)) == _dump(view(game, b, seat))
                compared += 1
            seat = game.deciding_seats(a)[0]
            pick = rnd.choice([o.notation for o in game.legal_options(a, seat)])
            game.apply_in_place(a, seat, pick)
            game.apply_in_place(b, seat, pick)
        assert _dump(view(game, a, 1)) != _dump(view(game, b, 1))
    assert compared > 100


def test_slips_are_shown_at_the_end() -> None:
    game = load_game("high-rise-numbered-slips")
    state = game.new_state(2, 1)
    for place in view(game, state, 2)["zones"]["board"]["places"].values():
        assert place["pieces"][0] == {"hidden": True, "back": "Slip"}
    while not state.over:
        seat = game.deciding_seats(state)[0]
        game.apply_in_place(state, seat, game.legal_options(state, seat)[0].notation)
    shown = [place["pieces"][0]["pips"]
             for place in view(game, state, 1)["zones"]["board"]["places"].values()]
    assert sorted(shown) == [1, 1, 2, 2, 3, 3, 4, 5, 6]


def test_black_and_white_covers_are_shown_as_nobodys() -> None:
    game = load_game("high-rise-black-white-covers")
    state = game.new_state(2, 5)
    covers = []
    for place in view(game, state, 1)["zones"]["board"]["places"].values():
        assert place["pieces"][0] == {"hidden": True, "back": "Die"}
        covers.append(place["pieces"][1])
    assert all(c["size"] == 3 and c["palette"] == "neutral" for c in covers)
    assert sorted(c["colour"] for c in covers) == ["black"] * 2 + ["grey"] * 5 + ["white"] * 2
