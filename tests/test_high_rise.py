"""High Rise: hidden dice stay hidden, scoring follows the text, random play is sound."""

from __future__ import annotations

import json
import multiprocessing
import random

import pytest
from fuzz_support import game_for, start_worker

from interpreter.api import load_game
from interpreter.run.state import State
from interpreter.run.view import view
from interpreter.simulate.playout import make_agents, play_game


def _dump(v: dict) -> str:
    return json.dumps(v, sort_keys=True)


def _dice_swapped(game, state: State, rnd: random.Random) -> State:
    """A copy of `state` whose dice differ: every die under a square swapped for another value."""
    other = state.copy()
    pips = game.attributes["pips"]
    box = game.zones["box"].first
    for square in game.zones["board"].sites_in_play(other.players):
        die = other.sites[square][0]
        spare = [d for d in other.sites[box] if pips[d] is not None and pips[d] != pips[die]]
        swap_with = rnd.choice(spare)
        other.stack(square)[0] = swap_with
        other.stack(box)[other.sites[box].index(swap_with)] = die
        other.loc[swap_with], other.loc[die] = square, box
    return other


@pytest.mark.parametrize("options", [{}, {"rows": 4, "cols": 5}, {"covered_hidden": True}])
def test_dice_never_show_before_the_end(options: dict) -> None:
    game = load_game("high-rise", options)
    rnd = random.Random(7)
    compared = 0
    for seed in range(12):
        a = game.new_state(2, seed)
        b = _dice_swapped(game, a, rnd)
        assert a.to_json() != b.to_json()
        while not a.over:
            for seat in (1, 2):
                assert _dump(view(game, a, seat)) == _dump(view(game, b, seat))
                compared += 1
            seat = game.deciding_seats(a)[0]
            options_a = [o.notation for o in game.legal_options(a, seat)]
            assert options_a == [o.notation for o in game.legal_options(b, seat)]
            pick = rnd.choice(options_a)
            game.apply_in_place(a, seat, pick)
            game.apply_in_place(b, seat, pick)
        # At the end the dice are revealed, so the views must now differ.
        assert _dump(view(game, a, 1)) != _dump(view(game, b, 1))
    assert compared > 500


def test_view_shows_a_hidden_die_under_each_cover() -> None:
    game = load_game("high-rise")
    state = game.new_state(2, 1)
    board = view(game, state, 1)["zones"]["board"]["places"]
    assert len(board) == 9
    for place in board.values():
        assert place["pieces"][0] == {"hidden": True, "back": "Die"}
        assert place["pieces"][1] == {"colour": "grey", "size": 3, "palette": "neutral"}


def test_memory_mode_hides_pieces_covered_by_larger_ones() -> None:
    game = load_game("high-rise", {"covered_hidden": True})
    state = game.new_state(2, 3)
    seat = game.deciding_seats(state)[0]
    small = next(o for o in game.legal_options(state, seat) if o.notation.endswith("S-a1"))
    state = game.apply(state, seat, small)
    other = game.deciding_seats(state)[0]
    large = next(o for o in game.legal_options(state, other) if o.notation.endswith("L-a1"))
    state = game.apply(state, other, large)
    pieces = view(game, state, 1)["zones"]["board"]["places"]["a1"]["pieces"]
    # die (hidden), grey large (not covered by a larger piece), the small (now hidden),
    # the large on top.
    assert pieces[0] == {"hidden": True, "back": "Die"}
    assert pieces[1]["colour"] == "grey"
    assert pieces[2] == {"hidden": True, "back": "Pyramid"}  # a pyramid, but which?
    assert pieces[3]["size"] == 3
    plain = load_game("high-rise")
    assert view(plain, state, 1)["zones"]["board"]["places"]["a1"]["pieces"][2]["size"] == 1


@pytest.mark.parametrize(("rows", "cols", "stashes"), [(3, 3, 2), (3, 4, 3), (4, 4, 4),
                                                       (5, 5, 5), (8, 8, 13), (1, 1, 1)])
def test_pieces_scale_with_the_board(rows: int, cols: int, stashes: int) -> None:
    game = load_game("high-rise", {"rows": rows, "cols": cols})
    state = game.new_state(2, 0)
    for seat in (1, 2):
        supply = state.sites[game.zones["supply"].site_for(seat)]
        reminders = state.sites[game.zones["reminders"].site_for(seat)]
        assert len(supply) == stashes * 15 - 5
        assert len(reminders) == 5
    assert len(game.zones["board"].sites_in_play(2)) == rows * cols


def _play(args: tuple[dict, int]) -> tuple[int, list, str]:
    options, seed = args
    game = game_for("high-rise", options)
    result = play_game(game, 2, seed, make_agents(2, seed))
    state = result.final_state
    assert state is not None
    n = game.n_pieces
    seen = sorted(p for stack in state.lists() for p in stack)
    assert seen == list(range(n)), "a piece was lost or duplicated"
    for site, stack in enumerate(state.lists()):
        for p in stack:
            assert state.loc[p] == site
    data = json.loads(json.dumps(state.to_json()))
    assert game.state_from_json(data).to_json() == state.to_json()
    assert all(not state.sites[game.zones["supply"].site_for(s)] for s in (1, 2))
    scores = result.scores or {}
    best = max(scores.values())
    assert sorted(result.winners) == sorted(s for s, v in scores.items() if v == best)
    return seed, result.winners, json.dumps(result.decisions)


@pytest.mark.parametrize("options", [{}, {"rows": 5, "cols": 5}])
def test_random_games_keep_every_invariant(options: dict) -> None:
    n = 1000
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2, initializer=start_worker) as pool:
        results = pool.map(_play, [(options, seed) for seed in range(n)], chunksize=50)
    assert len(results) == n
    again = [_play((options, seed)) for seed in range(5)]
    assert again == results[:5], "the same seed must give the same game"


def test_scoring_of_a_finished_game_matches_the_text() -> None:
    game = load_game("high-rise")
    result = play_game(game, 2, 11, make_agents(2, 11))
    state = result.final_state
    assert state is not None
    attrs = game.attributes
    totals = {1: 0, 2: 0}
    for square in game.zones["board"].sites_in_play(2):
        stack = state.sites[square]
        die = next(attrs["pips"][p] for p in stack if attrs["pips"][p] is not None)
        pips = {1: 0, 2: 0}
        for p in stack:
            if attrs["palette"][p] == "rainbow":
                pips[1] += attrs["size"][p]
            elif attrs["palette"][p] == "xeno":
                pips[2] += attrs["size"][p]
        if pips[1] != pips[2]:
            winner = 1 if pips[1] > pips[2] else 2
            totals[winner] += pips[3 - winner] + die
    assert result.scores == totals
